/* __init__ (make_init): bind, store the fields, call __post_init__ (3.13's
 * _init_fn, as _init.py's closures do it); for a class with converters or
 * validators, convert every value first, store, validate, then __post_init__
 * (_convert.py has the order). */

#include "speedups.h"

typedef struct {
    Py_ssize_t index;        /* parameter index, or -1: no parameter */
    PyObject *name;          /* borrowed from steps (owned tuple) */
    PyObject *factory;       /* borrowed from steps, or NULL */
    PyObject *converter;     /* borrowed from converters, or NULL */
} init_step;

typedef struct {
    dm_function head;
    PyObject *names;         /* owned tuple of str: the parameters */
    Py_ssize_t npos;         /* positional parameters (names[:npos]) */
    PyObject *defaults;      /* owned tuple: per parameter, its default or no_default */
    PyObject *steps;         /* owned tuple of (name, index, factory or None) */
    PyObject *step_names;    /* owned tuple: the names of the steps */
    init_step *step;         /* PyMem array over steps */
    Py_ssize_t nsteps;
    PyObject *initvars;      /* owned tuple of parameter indexes for __post_init__ */
    PyObject *unbound;       /* owned: name of an init=False InitVar, or NULL */
    int frozen, post_init;
    int untrack;             /* instances may be left untracked (issue 41) */
    int exact;               /* every parameter positional and stored as it is */
    PyObject *binder;        /* owned: the Python binder, raises call errors */
    PyObject *factory_marker;/* owned: the factory_marker hook (a factory is due) */
    PyObject *no_default;    /* owned: the no_default hook (no default) */
    PyObject *take_self;     /* owned: take_self(kwargs) for a call without self */
    dm_layout_cache cache;
    /* a class with converters or validators (after the fields every call reads) */
    int direct;              /* store with object.__setattr__ (the class's converts) */
    PyObject *converters;    /* owned tuple per step (converter or None), or NULL:
                                then init_assign_converting stores */
    PyObject *validations;   /* owned tuple of (step index, field, validators), or NULL */
    PyObject *kept;          /* owned: the kept hook, replace()'s unconverted value */
} dm_init;

static int
init_traverse(dm_function *f, visitproc visit, void *arg)
{
    dm_init *m = (dm_init *)f;
    Py_VISIT(m->names);
    Py_VISIT(m->defaults);
    Py_VISIT(m->steps);
    Py_VISIT(m->step_names);
    Py_VISIT(m->initvars);
    Py_VISIT(m->unbound);
    Py_VISIT(m->binder);
    Py_VISIT(m->factory_marker);
    Py_VISIT(m->no_default);
    Py_VISIT(m->take_self);
    Py_VISIT(m->converters);
    Py_VISIT(m->validations);
    Py_VISIT(m->kept);
    return 0;
}

static void
init_clear(dm_function *f)
{
    dm_init *m = (dm_init *)f;
    m->nsteps = 0;  /* the step array borrows from steps */
    Py_CLEAR(m->names);
    Py_CLEAR(m->defaults);
    Py_CLEAR(m->steps);
    Py_CLEAR(m->step_names);
    Py_CLEAR(m->initvars);
    Py_CLEAR(m->unbound);
    Py_CLEAR(m->binder);
    Py_CLEAR(m->factory_marker);
    Py_CLEAR(m->no_default);
    Py_CLEAR(m->take_self);
    Py_CLEAR(m->converters);
    Py_CLEAR(m->validations);
    Py_CLEAR(m->kept);
}

static void
init_release(dm_function *f)
{
    dm_init *m = (dm_init *)f;
    PyMem_Free(m->step);
    PyMem_Free(m->cache.offsets);
}

/* The signature is make_init()'s, not a fixed parameter list. */
const dm_kind dm_kind_init = {
    NULL, 0, sizeof(dm_init), init_traverse, init_clear, init_release,
};

/* ``self.__post_init__(*initvars)`` where the class has one (NameError for an
 * init=False InitVar, as the stdlib's exec'd code raises). */
static int
init_post(dm_init *m, PyObject *self, PyObject *const *values)
{
    if (!m->post_init) {
        return 0;
    }
    if (m->unbound != NULL) {
        PyErr_Format(PyExc_NameError, "name %R is not defined", m->unbound);
        return -1;
    }
    Py_ssize_t k = PyTuple_GET_SIZE(m->initvars);
    PyObject *small[DM_SMALL + 1];
    PyObject **stack = k < DM_SMALL ? small : PyMem_Malloc((k + 1) * sizeof(PyObject *));
    if (stack == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    stack[0] = self;  /* borrowed, as are the values */
    for (Py_ssize_t i = 0; i < k; i++) {
        stack[i + 1] = values[PyLong_AsSsize_t(PyTuple_GET_ITEM(m->initvars, i))];
    }
    PyObject *r = PyObject_VectorcallMethod(dm_state_of(m)->str_post_init, stack,
                                            (size_t)(k + 1) | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                            NULL);
    if (stack != small) {
        PyMem_Free(stack);
    }
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

/* ``factory()``: the builtin empty containers made directly (what calling
 * the exact type returns, no code run), anything else called. */
static inline PyObject *
init_call_factory(PyObject *factory, int *ran_code)
{
    if (factory == (PyObject *)&PyList_Type) {
        return PyList_New(0);
    }
    if (factory == (PyObject *)&PyDict_Type) {
        return PyDict_New();
    }
    *ran_code = 1;
    return PyObject_CallNoArgs(factory);
}

/* The value step ``s`` stores before conversion (a new reference): its
 * parameter's, or its default factory's result where that is due. */
static inline PyObject *
init_value(dm_init *m, init_step *step, PyObject *const *values, int *ran_code)
{
    if (step->index < 0) {
        return init_call_factory(step->factory, ran_code);
    }
    PyObject *value = values[step->index];
    if (value == m->factory_marker && step->factory != NULL) {
        return init_call_factory(step->factory, ran_code);
    }
    return Py_NewRef(value);
}

/* Stores the fields in definition order (``setattr``, or
 * ``object.__setattr__`` when frozen), calling default factories at their
 * field's turn, then ``self.__post_init__(*initvars)``. The layout is read
 * again wherever Python code may have run since: a factory, a store through
 * the type, or a store by offset releasing a value (its __del__). */
static int init_assign_converting(dm_init *m, PyObject *self, PyObject *const *values);

/* How the __init__ of ``m`` stores a field: by object's store (frozen, or
 * values converted already), or as assignment does; one that settles the
 * instance afterwards (untrack_atomic) may store past the class's untracking
 * __setattr__, whose only addition settling repeats. */
static inline int
init_access(dm_init *m, int object_store)
{
    return object_store ? DM_STORE_OBJECT : m->untrack ? DM_STORE_SETTLED : DM_STORE;
}

static int
init_assign(dm_init *m, PyObject *self, PyObject *const *values)
{
    if (m->converters != NULL) {
        return init_assign_converting(m, self, values);
    }
    int access = init_access(m, m->frozen);
    dm_layout L;
    dm_layout_of(&m->head, &m->cache, m->step_names, Py_TYPE(self), access, &L);
    int ran_code = 0;
    for (Py_ssize_t s = 0; s < m->nsteps; s++) {
        init_step *step = &m->step[s];
        PyObject *value = init_value(m, step, values, &ran_code);  /* owned */
        if (value == NULL) {
            return -1;
        }
        if (ran_code && !dm_layout_current(&L, self)) {
            dm_layout_of(&m->head, &m->cache, m->step_names, Py_TYPE(self), access, &L);
        }
        Py_ssize_t offset = DM_OFFSET(L, s);
        ran_code = offset < 0 || dm_slot_peek(self, offset) != NULL;
        int rc = dm_store_field(self, step->name, value, offset, m->frozen);
        Py_DECREF(value);
        if (rc < 0) {
            return -1;
        }
    }
    if (m->post_init && init_post(m, self, values) < 0) {
        return -1;
    }
    /* after __post_init__: its object.__setattr__ counts */
    return m->untrack ? dm_settle(self) : 0;
}

/* The note on the exception a converter or validator of field ``name`` just
 * raised (_convert.note_failure: 3.11+, exception notes). Only on that error
 * path; the exception stays as raised, whatever the note does. */
static void
init_note_failure(dm_init *m, PyObject *self, PyObject *name, int validating)
{
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc = PyErr_GetRaisedException();  /* owned */
    PyObject *r = PyObject_CallFunctionObjArgs(
        dm_state_of(m)->hook[DM_HOOK_NOTE_FAILURE], exc, self, name,
        validating ? Py_True : Py_False, NULL);
    if (r == NULL) {
        PyErr_Clear();  /* the note's own failure must not replace the error */
    }
    Py_XDECREF(r);
    PyErr_SetRaisedException(exc);               /* steals exc */
#elif PY_VERSION_HEX >= 0x030B0000
    PyObject *type, *exc, *tb;                   /* owned */
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    if (tb != NULL) {
        PyException_SetTraceback(exc, tb);
    }
    PyObject *r = PyObject_CallFunctionObjArgs(
        dm_state_of(m)->hook[DM_HOOK_NOTE_FAILURE], exc, self, name,
        validating ? Py_True : Py_False, NULL);
    if (r == NULL) {
        PyErr_Clear();
    }
    Py_XDECREF(r);
    PyErr_Restore(type, exc, tb);                /* steals all three */
#else  /* 3.10: no exception notes; the exception is left as raised */
    (void)m, (void)self, (void)name, (void)validating;
#endif
}

/* A class with converters or validators: every value first (a ``Kept`` from
 * replace() unwrapped, else converted), so a converter that raises leaves
 * nothing stored; then the stores (object.__setattr__ where the class's own
 * __setattr__ converts); then each validator(self, field, value); then
 * __post_init__. */
static int
init_assign_converting(dm_init *m, PyObject *self, PyObject *const *values)
{
    Py_ssize_t ns = m->nsteps;
    PyObject *small[DM_SMALL];
    PyObject **computed = ns <= DM_SMALL ? small : PyMem_Malloc(ns * sizeof(PyObject *));
    if (computed == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t done = 0;  /* computed[:done] are owned */
    int rc = -1, ran_code = 0;
    for (; done < ns; done++) {
        init_step *step = &m->step[done];
        PyObject *value = init_value(m, step, values, &ran_code);  /* owned */
        if (value != NULL && step->converter != NULL) {
            int kept = Py_IS_TYPE(value, (PyTypeObject *)m->kept);
            PyObject *converted = kept
                ? PyObject_GetAttr(value, dm_state_of(m)->str_value)
                : PyObject_CallOneArg(step->converter, value);
            if (converted == NULL && !kept) {
                init_note_failure(m, self, step->name, 0);
            }
            Py_SETREF(value, converted);
        }
        if (value == NULL) {
            goto done;
        }
        computed[done] = value;
    }
    int object_store = m->frozen || m->direct;
    int access = init_access(m, object_store);
    dm_layout L;
    dm_layout_of(&m->head, &m->cache, m->step_names, Py_TYPE(self), access, &L);
    ran_code = 0;
    for (Py_ssize_t s = 0; s < ns; s++) {
        if (ran_code && !dm_layout_current(&L, self)) {
            dm_layout_of(&m->head, &m->cache, m->step_names, Py_TYPE(self), access, &L);
        }
        Py_ssize_t offset = DM_OFFSET(L, s);
        ran_code = offset < 0 || dm_slot_peek(self, offset) != NULL;
        if (dm_store_field(self, m->step[s].name, computed[s], offset, object_store) < 0) {
            goto done;
        }
    }
    for (Py_ssize_t v = 0; v < PyTuple_GET_SIZE(m->validations); v++) {
        PyObject *entry = PyTuple_GET_ITEM(m->validations, v);  /* checked at fill */
        Py_ssize_t k = PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 0));
        PyObject *checks = PyTuple_GET_ITEM(entry, 2);
        PyObject *stack[3] = {self, PyTuple_GET_ITEM(entry, 1), computed[k]};  /* borrowed */
        for (Py_ssize_t c = 0; c < PyTuple_GET_SIZE(checks); c++) {
            PyObject *r = PyObject_Vectorcall(PyTuple_GET_ITEM(checks, c), stack, 3, NULL);
            if (r == NULL) {
                init_note_failure(m, self, m->step[k].name, 1);
                goto done;
            }
            Py_DECREF(r);
        }
    }
    rc = init_post(m, self, values);
    if (rc == 0 && m->untrack) {
        rc = dm_settle(self);
    }
done:
    for (Py_ssize_t s = 0; s < done; s++) {
        Py_DECREF(computed[s]);
    }
    if (computed != small) {
        PyMem_Free(computed);
    }
    return rc;
}

/* The class call's shortcut (construct.c): for a call passing every parameter
 * positionally to an __init__ whose parameters are all positional and stored
 * as they are (no default factory, no __post_init__), stores them with
 * init_assign, without binding first (such a call binds to the arguments as
 * they are). 1: stored; 0: not such a call or __init__, nothing done; -1. */
int
dm_init_store_exact(PyObject *init, PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    dm_init *m = (dm_init *)init;
    if (!m->exact || m->head.cleared || nargs != m->npos) {
        return 0;
    }
    return init_assign(m, self, args) < 0 ? -1 : 1;
}

/* The class's construction plan (construct.c) for ``tp``: where a call of
 * ``init`` (a compiled __init__) on a fresh instance of ``tp`` only binds and
 * stores (no __post_init__, converter or validator), every stored field having
 * its own slot (the layout of ``init``'s stores, copied into ``off``): the
 * number of steps; else -1, no exception. ``index[step]``: the parameter
 * whose value the step stores, or -1 where a default factory may be due.
 * ``*exact``: the number of positional arguments that bind as they are
 * (every parameter positional, no factory), or -1. */
Py_ssize_t
dm_init_fresh_layout(PyObject *init, PyTypeObject *tp, Py_ssize_t *off, Py_ssize_t *index,
                     Py_ssize_t *exact)
{
    dm_init *m = (dm_init *)init;
    if (m->head.kind != &dm_kind_init || m->head.cleared || m->post_init
            || m->converters != NULL || m->nsteps > DM_SMALL
            || PyTuple_GET_SIZE(m->names) > DM_SMALL) {
        return -1;
    }
    dm_layout L;
    dm_layout_of(&m->head, &m->cache, m->step_names, tp,
                 init_access(m, m->frozen), &L);
    if (!L.direct) {
        return -1;
    }
    for (Py_ssize_t s = 0; s < m->nsteps; s++) {
        if (L.off[s] < 0) {
            return -1;
        }
        off[s] = L.off[s];
        index[s] = m->step[s].factory == NULL ? m->step[s].index : -1;
    }
    *exact = m->exact ? m->npos : -1;
    return m->nsteps;
}

/* Whether ``init`` (a compiled __init__) leaves instances untracked while
 * they hold only atomic values (its class's choice, issue 41): 0, or
 * DM_UNTRACK_MUTABLE or DM_UNTRACK_FROZEN. */
int
dm_init_untracks(PyObject *init)
{
    dm_init *m = (dm_init *)init;
    return m->head.kind == &dm_kind_init && !m->head.cleared ? m->untrack : 0;
}

/* Binds a class call's arguments as ``init`` (dm_init_fresh_layout's) would
 * into ``values`` (borrowed; DM_SMALL of them): 1 bound, 0 the call does not
 * bind simply (the caller then calls ``init``, whose binder raises the
 * interpreter's TypeError), -1 an error. */
int
dm_init_bind(PyObject *init, PyObject *const *args, size_t nargsf, PyObject *kwnames,
             PyObject **values)
{
    dm_init *m = (dm_init *)init;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (m->head.cleared) {  /* a garbage cycle's: calling it raises */
        return 0;
    }
    if (kwnames == NULL && nargs == m->npos && m->exact) {
        for (Py_ssize_t i = 0; i < nargs; i++) {
            values[i] = args[i];
        }
        return 1;
    }
    return dm_bind_fast(m->names, m->npos, m->defaults, m->no_default, args, nargs,
                        kwnames != NULL && PyTuple_GET_SIZE(kwnames) ? kwnames : NULL,
                        values);
}

/* Stores the bound ``values`` into the fresh instance ``self`` (every slot
 * empty) as init_assign would: in field order, a default factory called at
 * its field's turn. Until Python code runs (a factory), each reference goes
 * straight into its slot at ``off`` (dm_init_fresh_layout's for the class at
 * version tag ``tag``); after, a store goes there only while the class is
 * unchanged (its tag still ``tag``), else through the type, as setattr()
 * would. 0, or -1. */
int
dm_init_fill_fresh(PyObject *init, PyObject *self, const Py_ssize_t *off, unsigned int tag,
                   PyObject *const *values)
{
    dm_init *m = (dm_init *)init;
    int ran_code = 0;
    for (Py_ssize_t s = 0; s < m->nsteps; s++) {
        init_step *step = &m->step[s];
        PyObject *value = init_value(m, step, values, &ran_code);  /* owned */
        if (value == NULL) {
            return -1;
        }
        if (!ran_code) {
            dm_slot_fill(self, off[s], value);  /* steals */
            continue;
        }
        PyTypeObject *tp = Py_TYPE(self);
        Py_ssize_t offset = dm_tag_holds(tp, tag) ? off[s] : -1;
        int rc = dm_store_field(self, step->name, value, offset, m->frozen);
        Py_DECREF(value);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

/* For replace()'s copy (replace.c): where a call of ``init`` (a compiled
 * __init__) giving every parameter only stores each parameter into the field
 * of its name (no __post_init__, converter, validator or InitVar, no field
 * stored from a default), and every such field of ``tp`` has its own slot
 * (the layout of ``init``'s stores, into ``L``): the fields' names in
 * ``init``'s order of stores (borrowed); else NULL, no exception. */
PyObject *
dm_init_plain_stores(PyObject *init, PyTypeObject *tp, dm_layout *L)
{
    dm_init *m = (dm_init *)init;
    if (m->head.kind != &dm_kind_init || m->head.cleared || m->post_init
            || m->converters != NULL || m->nsteps != PyTuple_GET_SIZE(m->names)) {
        return NULL;
    }
    for (Py_ssize_t s = 0; s < m->nsteps; s++) {
        if (m->step[s].index < 0) {
            return NULL;
        }
    }
    dm_layout_of(&m->head, &m->cache, m->step_names, tp,
                 init_access(m, m->frozen), L);
    if (!L->direct) {
        return NULL;
    }
    for (Py_ssize_t s = 0; s < m->nsteps; s++) {
        if (L->off[s] < 0) {
            return NULL;
        }
    }
    return m->step_names;
}

static PyObject *init_self_by_keyword(dm_init *m, PyObject *const *args,
                                      PyObject *kwnames);

/* __init__(self, x, y=0, *, z): bind, assign, __post_init__ (3.13 _init_fn). */
static PyObject *
init_call_body(dm_init *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs < 1) {
        return init_self_by_keyword(m, args, kwnames);
    }
    PyObject *self = args[0];  /* borrowed */
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    PyObject *small[DM_SMALL];
    PyObject **values = n <= DM_SMALL ? small : PyMem_Malloc(n * sizeof(PyObject *));
    if (values == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *bound = NULL;  /* owned: the Python binder's result, if used */
    PyObject *result = NULL;
    int fast = dm_bind_fast(m->names, m->npos, m->defaults, m->no_default,
                            args + 1, nargs - 1, nkw ? kwnames : NULL, values);
    if (fast < 0) {
        goto done;
    }
    if (!fast) {
        bound = dm_bind_slow(m->binder, n, args + 1, nargs - 1, nkw ? kwnames : NULL);
        if (bound == NULL) {
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            values[i] = PyTuple_GET_ITEM(bound, i);  /* borrowed from bound */
        }
    }
    if (init_assign(m, self, values) == 0) {
        result = Py_NewRef(Py_None);
    }
done:
    Py_XDECREF(bound);
    if (values != small) {
        PyMem_Free(values);
    }
    return result;
}

/* C.__init__(self=obj, x=1): the stdlib's ``self`` is an ordinary parameter.
 * ``take_self(kwargs)`` takes it out of a dict of the keywords (or raises the
 * interpreter's error); the call goes on with it first and the other keywords
 * in their order. Rare: the keywords are copied into owned references. */
static PyObject *
init_self_by_keyword(dm_init *m, PyObject *const *args, PyObject *kwnames)
{
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *kwargs = PyDict_New();
    if (kwargs == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nkw; i++) {
        if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[i]) < 0) {
            Py_DECREF(kwargs);
            return NULL;
        }
    }
    PyObject *self = PyObject_CallOneArg(m->take_self, kwargs);
    if (self == NULL) {
        Py_DECREF(kwargs);
        return NULL;
    }
    Py_ssize_t rest = PyDict_GET_SIZE(kwargs);
    PyObject *names = PyTuple_New(rest);
    PyObject **stack = PyMem_Calloc(rest + 1, sizeof(PyObject *));
    PyObject *result = NULL;
    if (names == NULL || stack == NULL) {
        if (stack == NULL) {
            PyErr_NoMemory();
        }
        goto done;
    }
    stack[0] = self;  /* borrowed from our reference */
    Py_ssize_t pos = 0, i = 0;
    PyObject *key, *value;
    while (i < rest && PyDict_Next(kwargs, &pos, &key, &value)) {
        PyTuple_SET_ITEM(names, i, Py_NewRef(key));
        stack[++i] = Py_NewRef(value);  /* owned: released below */
    }
    if (i != rest) {
        /* the dict shrank since it was measured: code run by the allocations
         * (a finalizer, on 3.10 and 3.11) changed it, as take_self could */
        PyErr_SetString(PyExc_RuntimeError, "the keyword arguments changed during the call");
        goto done;
    }
    result = init_call_body(m, stack, 1, rest ? names : NULL);
done:
    if (stack != NULL) {
        for (Py_ssize_t j = 1; j <= rest; j++) {
            Py_XDECREF(stack[j]);
        }
        PyMem_Free(stack);
    }
    Py_XDECREF(names);
    Py_DECREF(self);
    Py_DECREF(kwargs);
    return result;
}

DM_GUARDED(init_call, dm_init)

/* The plan's attributes init() reads, once each, in this order. */
#define INIT_READS(X)                                                          \
    X(NAMES) X(N_POSITIONAL) X(DEFAULTS) X(STEPS) X(INITVARS) X(UNBOUND) X(FROZEN) \
    X(HAS_POST_INIT) X(BINDER) X(TAKE_SELF) X(CONVERTERS) X(VALIDATIONS) X(DIRECT) \
    X(UNTRACK)
#define INIT_P(id) P_##id,
#define INIT_ID(id) DM_PLAN_##id,
enum { INIT_READS(INIT_P) P_COUNT };
static const int PLAN_ID[P_COUNT] = {INIT_READS(INIT_ID)};
#undef INIT_P
#undef INIT_ID

/* Checks the plan's values and fills ``m`` from them (borrowed here) and
 * from the hooks of ``st`` (configured). */
static int
init_fill(dm_init *m, dm_state *st, PyObject **plan)
{
    PyObject *names = plan[P_NAMES], *defaults = plan[P_DEFAULTS], *steps = plan[P_STEPS];
    PyObject *initvars = plan[P_INITVARS];
    if (dm_check_names(names) < 0) {
        return -1;
    }
    if (!PyTuple_Check(defaults) || !PyTuple_Check(steps) || !PyTuple_Check(initvars)) {
        PyErr_SetString(PyExc_TypeError, "init: defaults, steps and initvars must be tuples");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    Py_ssize_t npos = PyLong_AsSsize_t(plan[P_N_POSITIONAL]);
    if (npos == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (PyTuple_GET_SIZE(defaults) != n || npos < 0 || npos > n) {
        PyErr_SetString(PyExc_ValueError, "init: defaults and n_positional must match names");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(initvars); i++) {
        PyObject *item = PyTuple_GET_ITEM(initvars, i);
        Py_ssize_t index = PyLong_Check(item) ? PyLong_AsSsize_t(item) : -1;
        if (index < 0 || index >= n) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "init: initvars must be parameter indexes");
            return -1;
        }
    }
    int frozen = PyObject_IsTrue(plan[P_FROZEN]);
    int post_init = PyObject_IsTrue(plan[P_HAS_POST_INIT]);
    int direct = PyObject_IsTrue(plan[P_DIRECT]);
    /* 0: always tracked; DM_UNTRACK_MUTABLE or DM_UNTRACK_FROZEN */
    long untrack = PyLong_Check(plan[P_UNTRACK]) ? PyLong_AsLong(plan[P_UNTRACK]) : -1;
    if (untrack < 0 || untrack > DM_UNTRACK_FROZEN) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "init: untrack must be 0, 1 or 2");
        }
        return -1;
    }
    if (frozen < 0 || post_init < 0 || direct < 0) {
        return -1;
    }
    Py_ssize_t nsteps = PyTuple_GET_SIZE(steps);
    PyObject *converters = plan[P_CONVERTERS], *validations = plan[P_VALIDATIONS];
    int converting = converters != Py_None;
    if (converting && (!PyTuple_Check(converters) || PyTuple_GET_SIZE(converters) != nsteps
                       || !PyTuple_Check(validations))) {
        PyErr_SetString(PyExc_TypeError, "init: converters must be a tuple per step and "
                        "validations a tuple");
        return -1;
    }
    for (Py_ssize_t v = 0; converting && v < PyTuple_GET_SIZE(validations); v++) {
        PyObject *entry = PyTuple_GET_ITEM(validations, v);
        Py_ssize_t k = -1;
        if (PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) == 3
                && PyTuple_Check(PyTuple_GET_ITEM(entry, 2))) {
            k = PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 0));
        }
        if (k < 0 || k >= nsteps) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError,
                            "init: validations must be (step index, field, validators)");
            return -1;
        }
    }
    m->step_names = PyTuple_New(nsteps);
    m->step = PyMem_Calloc(nsteps ? nsteps : 1, sizeof(init_step));
    if (m->step_names == NULL || m->step == NULL) {
        if (m->step == NULL) {
            PyErr_NoMemory();
        }
        return -1;
    }
    for (Py_ssize_t s = 0; s < nsteps; s++) {
        PyObject *item = PyTuple_GET_ITEM(steps, s);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3
                || !PyUnicode_Check(PyTuple_GET_ITEM(item, 0))) {
            goto bad_step;
        }
        Py_ssize_t index = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 1));
        if ((index == -1 && PyErr_Occurred()) || index < -1 || index >= n) {
            PyErr_Clear();
            goto bad_step;
        }
        PyObject *factory = PyTuple_GET_ITEM(item, 2);
        m->step[s].name = PyTuple_GET_ITEM(item, 0);  /* borrowed from steps */
        PyTuple_SET_ITEM(m->step_names, s, Py_NewRef(m->step[s].name));
        m->step[s].index = index;
        m->step[s].factory = factory == Py_None ? NULL : factory;  /* borrowed */
        PyObject *converter = converting ? PyTuple_GET_ITEM(converters, s) : Py_None;
        m->step[s].converter = converter == Py_None ? NULL : converter;  /* borrowed */
        if (index < 0 && m->step[s].factory == NULL) {
            goto bad_step;
        }
    }
    m->names = Py_NewRef(names);
    m->npos = npos;
    m->defaults = Py_NewRef(defaults);
    m->steps = Py_NewRef(steps);
    m->nsteps = nsteps;
    m->initvars = Py_NewRef(initvars);
    m->unbound = plan[P_UNBOUND] == Py_None ? NULL : Py_NewRef(plan[P_UNBOUND]);
    m->frozen = frozen;
    m->post_init = post_init;
    m->untrack = (int)untrack;
    m->exact = !post_init && npos == n;
    for (Py_ssize_t s = 0; s < nsteps; s++) {
        m->exact &= m->step[s].index >= 0 && m->step[s].factory == NULL;
    }
    m->binder = Py_NewRef(plan[P_BINDER]);
    m->take_self = Py_NewRef(plan[P_TAKE_SELF]);
    m->factory_marker = Py_NewRef(st->hook[DM_HOOK_FACTORY_MARKER]);
    m->no_default = Py_NewRef(st->hook[DM_HOOK_NO_DEFAULT]);
    m->direct = direct;
    if (converting) {
        m->converters = Py_NewRef(converters);
        m->validations = Py_NewRef(validations);
        m->kept = Py_NewRef(st->hook[DM_HOOK_KEPT]);
    }
    return 0;
bad_step:
    PyErr_SetString(PyExc_ValueError,
                    "init: steps must be (name, index, factory) with a factory where "
                    "index is -1");
    return -1;
}

/* init(name, plan) -> the compiled __init__, from the plan's attributes
 * (INIT_READS; see _init.InitPlan): steps are (field name, parameter index or
 * -1, factory or None) in field order; converters None, or per step its
 * converter or None. */
PyObject *
dm_make_init(PyObject *module, PyObject *args)
{
    PyObject *name, *source;
    if (!PyArg_ParseTuple(args, "UO:init", &name, &source)) {
        return NULL;
    }
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    PyObject *plan[P_COUNT] = {NULL};  /* owned */
    PyObject *result = NULL;
    for (int i = 0; i < P_COUNT; i++) {
        plan[i] = PyObject_GetAttr(source, st->plan_attr[PLAN_ID[i]]);
        if (plan[i] == NULL) {
            goto done;
        }
    }
    dm_init *m = (dm_init *)dm_function_new(st, &dm_kind_init, init_call, name);
    if (m == NULL) {
        goto done;
    }
    if (init_fill(m, st, plan) < 0) {
        Py_DECREF(m);
        goto done;
    }
    result = (PyObject *)m;
done:
    for (int i = 0; i < P_COUNT; i++) {
        Py_XDECREF(plan[i]);
    }
    return result;
}
