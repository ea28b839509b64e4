/* __replace__ and replace() (make_replace): a new instance with some fields
 * changed.
 *
 * The common call (the changes all name fields __init__ takes, the instance
 * of exactly the class, whose __init__ is the generated one and takes every
 * field positionally) reads the other fields and calls the class with the
 * values positionally, which runs its own construction (construct.c). Every
 * other call goes to _replace.replace_by_fields, the stdlib's loop, which
 * raises the stdlib's errors. Both read ``self.__dataclass_fields__`` first
 * (once), then each field not changed, in order, then ``self.__class__``.
 *
 * What the fast path needs of the class (_replace.replace_prepare) is worked
 * out on the first call: most classes are never replaced.
 */

#include "speedups.h"

typedef struct {
    dm_function head;
    PyObject *cls;        /* owned: the data class */
    PyObject *own;        /* owned: its __dataclass_fields__ */
    PyObject *prepare;    /* owned: _replace.replace_prepare */
    PyObject *slow;       /* owned: _replace.replace_by_fields */
    /* Set once, by the first call: */
    int state;            /* UNPREPARED, FAST or SLOW */
    PyObject *carried;    /* owned tuple of str: the fields taken from self */
    PyObject *names;      /* owned frozenset: the same names */
    PyObject *init;       /* owned: the class's generated __init__ */
    int by_dict;          /* called as (self, changes) by replace(), not with **changes */
    dm_layout_cache cache;
} dm_replace;

enum { UNPREPARED, FAST, SLOW };

/* As the Python closure's: ``def __replace__(self, /, **changes)``. */
static const char *const PARAMS_REPLACE[] = {"self", "/", "**changes"};

static int
replace_traverse(dm_function *f, visitproc visit, void *arg)
{
    dm_replace *m = (dm_replace *)f;
    Py_VISIT(m->cls);
    Py_VISIT(m->own);
    Py_VISIT(m->prepare);
    Py_VISIT(m->slow);
    Py_VISIT(m->carried);
    Py_VISIT(m->names);
    Py_VISIT(m->init);
    return 0;
}

static void
replace_clear(dm_function *f)
{
    dm_replace *m = (dm_replace *)f;
    Py_CLEAR(m->cls);
    Py_CLEAR(m->own);
    Py_CLEAR(m->prepare);
    Py_CLEAR(m->slow);
    Py_CLEAR(m->carried);
    Py_CLEAR(m->names);
    Py_CLEAR(m->init);
}

static void
replace_release(dm_function *f)
{
    PyMem_Free(((dm_replace *)f)->cache.offsets);
}

static const dm_kind kind_replace = {
    PARAMS_REPLACE, 3, sizeof(dm_replace), replace_traverse, replace_clear, replace_release,
};

/* The first call's set-up: ``prepare(cls, own)`` is None (every call takes
 * the stdlib's loop) or (carried, names, init). Another thread may have done
 * it meanwhile (prepare runs Python code); the first result stays. */
static int
replace_prepare(dm_replace *m)
{
    PyObject *r = PyObject_CallFunctionObjArgs(m->prepare, m->cls, m->own, NULL);
    if (r == NULL) {
        return -1;
    }
    int ok = r == Py_None
             || (PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 3
                 && PyTuple_Check(PyTuple_GET_ITEM(r, 0))
                 && PyFrozenSet_Check(PyTuple_GET_ITEM(r, 1))
                 && dm_check_names(PyTuple_GET_ITEM(r, 0)) == 0);
    if (!ok) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError,
                            "replace: prepare() must return None or (carried, names, init)");
        }
        Py_DECREF(r);
        return -1;
    }
    /* One thread publishes; ``state`` last, which the others read first. */
    Py_BEGIN_CRITICAL_SECTION(m);
    if (m->state == UNPREPARED) {
        if (r == Py_None) {
            DM_STORE_RELEASE_INT(&m->state, SLOW);
        }
        else {
            m->carried = Py_NewRef(PyTuple_GET_ITEM(r, 0));
            m->names = Py_NewRef(PyTuple_GET_ITEM(r, 1));
            m->init = Py_NewRef(PyTuple_GET_ITEM(r, 2));
            DM_STORE_RELEASE_INT(&m->state, FAST);
        }
    }
    Py_END_CRITICAL_SECTION();
    Py_DECREF(r);
    return 0;
}

/* Whether every key of ``changes`` is a carried field (1), not (0), or -1. */
static int
replace_keys_carried(PyObject *names, PyObject *changes)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;  /* borrowed */
    while (PyDict_Next(changes, &pos, &key, &value)) {
        Py_INCREF(key);  /* a str subclass's __eq__ may change the dict */
        int in = PySet_Contains(names, key);
        Py_DECREF(key);
        if (in <= 0) {
            return in;
        }
    }
    return 1;
}

/* The fast path: ``values`` (owned, ``n`` of them) are the carried fields,
 * from ``changes`` or read from ``self``. Calls ``self.__class__`` with them
 * positionally where that binds as by keyword, else by keyword. */
static PyObject *
replace_call_class(dm_replace *m, PyObject *self, PyObject *changes, PyObject *carried,
                   PyObject *init, PyObject **values, Py_ssize_t n)
{
    dm_state *st = dm_state_of(m);
    PyObject *klass = dm_class_of(st, self);  /* owned */
    if (klass == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    if (klass == m->cls && _PyType_Lookup((PyTypeObject *)klass, st->str_init) == init
            && ((PyTypeObject *)klass)->tp_new == PyBaseObject_Type.tp_new) {
        /* values[-1] is free: the callee may use it (ARGUMENTS_OFFSET) */
        result = dm_construct_known(st, (PyTypeObject *)klass, init, values, n);
        Py_DECREF(klass);
        return result;
    }
    /* __init__ or the class is a stranger's: the changes, then the rest. */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(carried, i);  /* borrowed */
        int in = PyDict_Contains(changes, name);
        if (in < 0 || (!in && PyDict_SetItem(changes, name, values[i]) < 0)) {
            goto done;
        }
    }
    PyObject *no_args = PyTuple_New(0);
    if (no_args != NULL) {
        result = PyObject_Call(klass, no_args, changes);
        Py_DECREF(no_args);
    }
done:
    Py_DECREF(klass);
    return result;
}

/* Whether calling ``tp`` runs object.__new__ and ``init`` (its __init__)
 * only, as type.__call__ does for a class of a metaclass without __call__
 * that is not abstract. */
static int
replace_class_plain(dm_state *st, PyTypeObject *tp, PyObject *init)
{
    return Py_TYPE(tp)->tp_call == PyType_Type.tp_call
           && tp->tp_new == PyBaseObject_Type.tp_new && !(tp->tp_flags & Py_TPFLAGS_IS_ABSTRACT)
           && st->str_init != NULL && Py_IS_TYPE(init, st->function_type)
           && _PyType_Lookup(tp, st->str_init) == init;
}

/* replace() as a copy, where nothing can tell it from the stdlib's: the
 * instance's type is the class, whose __class__, metaclass call, __new__ and
 * __init__ are what they were (the generated __init__, which only stores each
 * parameter into its field: dm_init_plain_stores), and every field is read
 * from and stored into its own slot (its class attribute the slot's member
 * descriptor, no __getattribute__ or, unless frozen, __setattr__ of the
 * class's own). The stdlib's reads (each kept field, then __class__) then
 * run no code, and neither do the class call's object.__new__ and
 * __init__'s stores but for the allocation (a collection may run code): the
 * values are taken first, as the stdlib's reads take them, and stored after
 * it, or given to the class's __init__ by keyword if the class changed
 * meanwhile. ``changes`` names carried fields only. 1 with ``*result`` (NULL
 * on error); 0: not so, nothing done. */
static int
replace_copy(dm_replace *m, PyObject *self, PyObject *changes, PyObject **result)
{
    dm_state *st = dm_state_of(m);
    PyTypeObject *tp = Py_TYPE(self);
    PyObject *carried = m->carried;  /* borrowed: set once, never replaced */
    Py_ssize_t n = PyTuple_GET_SIZE(carried), i;
    /* (the kept values are borrowed from self's slots until their increfs:
     * not where another thread may store into them meanwhile) */
    if (!DM_BORROWED_SLOT_READS || (PyObject *)tp != m->cls
            || !replace_class_plain(st, tp, m->init)) {
        return 0;
    }
    dm_layout R, S;
    PyObject *stored = dm_init_plain_stores(m->init, tp, &S);  /* borrowed */
    if (stored == NULL || PyTuple_GET_SIZE(stored) != n) {
        return 0;
    }
    dm_layout_of(&m->head, &m->cache, carried, tp, DM_READ, &R);
    if (!R.direct || !R.plain) {
        return 0;
    }
    PyObject *values[DM_SMALL];  /* borrowed, then owned */
    memset(values, 0, n * sizeof(PyObject *));
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(changes, &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key)) {
            return 0;  /* (its __eq__ may run code) */
        }
        for (i = 0; i < n && PyTuple_GET_ITEM(carried, i) != key; i++) {
        }
        for (Py_ssize_t j = 0; i == n && j < n; j++) {  /* an equal str, not the same */
            if (PyUnicode_Compare(PyTuple_GET_ITEM(carried, j), key) == 0) {
                i = j;
            }
        }
        if (i == n) {
            return 0;
        }
        values[i] = value;
    }
    for (i = 0; i < n; i++) {
        if (PyTuple_GET_ITEM(stored, i) != PyTuple_GET_ITEM(carried, i) || R.off[i] < 0) {
            return 0;
        }
        if (values[i] == NULL) {
            values[i] = *(PyObject **)((char *)self + R.off[i]);
            if (values[i] == NULL) {
                return 0;  /* unset: the stdlib's getattr raises */
            }
        }
    }
    for (i = 0; i < n; i++) {
        Py_INCREF(values[i]);
    }
    PyObject *fresh = tp->tp_alloc(tp, 0);  /* a slotted class: no dict to set up */
    /* The class's version tag changes with its __init__, __new__, attributes
     * and bases, but not with its metaclass. */
    if (fresh != NULL && !(dm_layout_current(&S, fresh)
                           && Py_TYPE(tp)->tp_call == PyType_Type.tp_call)) {
        /* the allocation's collection ran code that changed the class */
        PyObject *kwargs = PyDict_New();
        for (i = 0; kwargs != NULL && i < n; i++) {
            if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(carried, i), values[i]) < 0) {
                Py_CLEAR(kwargs);
            }
        }
        PyObject *no_args = kwargs == NULL ? NULL : PyTuple_New(0);
        if (no_args == NULL || tp->tp_init(fresh, no_args, kwargs) < 0) {
            Py_CLEAR(fresh);
        }
        Py_XDECREF(no_args);
        Py_XDECREF(kwargs);
        for (i = 0; i < n; i++) {
            Py_DECREF(values[i]);
        }
    }
    else if (fresh != NULL) {
        for (i = 0; i < n; i++) {
            *(PyObject **)((char *)fresh + S.off[i]) = values[i];  /* steals */
        }
    }
    else {
        for (i = 0; i < n; i++) {
            Py_DECREF(values[i]);
        }
    }
    *result = fresh;
    return 1;
}

/* The fast path, its class checks passed and its set-up done. */
static PyObject *
replace_fast(dm_replace *m, PyObject *self, PyObject *changes)
{
    /* Strong references for the call: a field's getter may run the gc,
     * whose tp_clear of this function would drop them. */
    PyObject *carried = Py_NewRef(m->carried), *init = Py_NewRef(m->init);
    Py_ssize_t n = PyTuple_GET_SIZE(carried), got = 0;
    PyObject *small[DM_SMALL + 1];
    PyObject **stack = n < DM_SMALL ? small : PyMem_Malloc((n + 1) * sizeof(PyObject *));
    PyObject *result = NULL;
    if (stack == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject **values = stack + 1;  /* stack[0]: for the callee's self */
    dm_layout L;
    dm_layout_of(&m->head, &m->cache, carried, Py_TYPE(self), DM_READ, &L);
    for (; got < n; got++) {
        PyObject *name = PyTuple_GET_ITEM(carried, got);  /* borrowed */
        PyObject *v = PyDict_GetItemWithError(changes, name);  /* borrowed */
        if (v != NULL) {
            values[got] = Py_NewRef(v);
            continue;
        }
        if (PyErr_Occurred()) {
            goto done;
        }
        Py_ssize_t offset = dm_layout_current(&L, self) ? DM_OFFSET(L, got) : -1;
        values[got] = dm_read_field(self, name, offset);
        if (values[got] == NULL) {
            goto done;
        }
    }
    result = replace_call_class(m, self, changes, carried, init, values, n);
done:
    for (Py_ssize_t i = 0; i < got; i++) {
        Py_DECREF(stack[i + 1]);
    }
    if (stack != NULL && stack != small) {
        PyMem_Free(stack);
    }
    Py_DECREF(carried);
    Py_DECREF(init);
    return result;
}

/* ``replace(self, changes)``: ``changes`` is a dict the call may fill in, as
 * the stdlib's does. */
static PyObject *
replace_run(dm_replace *m, PyObject *self, PyObject *changes)
{
    PyObject *all = PyObject_GetAttr(self, dm_state_of(m)->str_dataclass_fields);  /* owned */
    if (all == NULL) {
        return NULL;
    }
    PyObject *result = NULL;
    if (all == m->own && DM_LOAD_ACQUIRE_INT(&m->state) == UNPREPARED
            && replace_prepare(m) < 0) {
        goto done;
    }
    if (all == m->own && DM_LOAD_ACQUIRE_INT(&m->state) == FAST) {
        int carried = replace_keys_carried(m->names, changes);
        if (carried < 0) {
            goto done;
        }
        if (carried) {
            if (!replace_copy(m, self, changes, &result)) {
                result = replace_fast(m, self, changes);
            }
            goto done;
        }
    }
    /* A subclass instance (its own fields count), a class the fast path
     * does not fit, or changes it does not take (an error, raised there). */
    result = PyObject_CallFunctionObjArgs(m->slow, self, changes, all, NULL);
done:
    Py_DECREF(all);
    return result;
}

/* The changes of a call ``f(first, /, **changes)``: a new dict of the
 * keyword arguments, or NULL with the interpreter's TypeError for a call
 * that does not bind (``qualname`` names f, NULL for ``replace``; ``param``
 * is its positional parameter). */
static PyObject *
replace_changes(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                PyObject *qualname, const char *param)
{
    if (nargs != 1) {
        PyObject *name = qualname ? Py_NewRef(qualname) : PyUnicode_FromString("replace");
        if (name == NULL) {
            return NULL;
        }
        if (nargs == 0) {
            PyErr_Format(PyExc_TypeError,
                         "%U() missing 1 required positional argument: '%s'", name, param);
        }
        else {
            PyErr_Format(PyExc_TypeError,
                         "%U() takes 1 positional argument but %zd were given", name, nargs);
        }
        Py_DECREF(name);
        return NULL;
    }
    PyObject *changes = PyDict_New();  /* owned */
    if (changes == NULL) {
        return NULL;
    }
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        if (PyDict_SetItem(changes, PyTuple_GET_ITEM(kwnames, i), args[1 + i]) < 0) {
            Py_DECREF(changes);
            return NULL;
        }
    }
    return changes;
}

static PyObject *
replace_call_body(dm_replace *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *qualname = m->head.qualname ? m->head.qualname : Py_None;  /* borrowed */
    if (m->by_dict) {
        if (nargs != 2 || kwnames != NULL || !PyDict_CheckExact(args[1])) {
            PyErr_SetString(PyExc_TypeError, "replace: (self, changes: dict) expected");
            return NULL;
        }
        return replace_run(m, args[0], args[1]);
    }
    PyObject *changes = replace_changes(args, nargs, kwnames,
                                        PyUnicode_Check(qualname) ? qualname : NULL, "self");
    if (changes == NULL) {
        return NULL;
    }
    PyObject *result = replace_run(m, args[0], changes);
    Py_DECREF(changes);
    return result;
}

DM_GUARDED(replace_call, dm_replace)

/* replace(name, plan) -> a compiled __replace__ (``name`` '__replace__') or
 * what replace() calls with (self, changes) (``name`` 'replace'), for the
 * class ``plan.cls`` and its __dataclass_fields__ now. */
PyObject *
dm_make_replace(PyObject *module, PyObject *args)
{
    PyObject *name, *plan;
    if (!PyArg_ParseTuple(args, "UO:replace", &name, &plan)) {
        return NULL;
    }
    int by_dict = PyUnicode_CompareWithASCIIString(name, "replace") == 0;
    if (!by_dict && PyUnicode_CompareWithASCIIString(name, "__replace__") != 0) {
        PyErr_Format(PyExc_ValueError, "replace: %R: expected '__replace__' or 'replace'",
                     name);
        return NULL;
    }
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    PyObject *own = NULL;                        /* owned */
    PyObject *cls = dm_plan_get(st, plan, CLS);  /* owned */
    if (cls == NULL) {
        return NULL;
    }
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "replace: the plan's cls must be a class");
        goto error;
    }
    own = PyObject_GetAttr(cls, st->str_dataclass_fields);
    if (own == NULL) {
        goto error;
    }
    if (!PyDict_Check(own)) {
        PyErr_SetString(PyExc_TypeError, "replace: __dataclass_fields__ must be a dict");
        goto error;
    }
    dm_replace *m = (dm_replace *)dm_function_new(st, &kind_replace, replace_call, name);
    if (m == NULL) {
        goto error;
    }
    m->cls = cls;  /* steals */
    m->own = own;  /* steals */
    m->prepare = Py_NewRef(st->hook[DM_HOOK_REPLACE_PREPARE]);
    m->slow = Py_NewRef(st->hook[DM_HOOK_REPLACE_BY_FIELDS]);
    m->by_dict = by_dict;
    return (PyObject *)m;
error:
    Py_DECREF(cls);
    Py_XDECREF(own);
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* replace(obj, /, **changes): the public function                           */
/* ------------------------------------------------------------------------ */

/* As _functions.replace: the entry ``type(obj)._dataclass_replace`` is
 * (class, what to call with (obj, changes)) where the class is type(obj)
 * itself; anything else goes to the replace_unregistered hook, with
 * ``(obj, changes)``. */
static PyObject *
public_replace_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames)
{
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    PyObject *changes = replace_changes(args, nargs, kwnames, NULL, "obj");  /* owned */
    if (changes == NULL) {
        return NULL;
    }
    PyObject *obj = args[0];
    PyObject *cls = (PyObject *)Py_TYPE(obj);  /* borrowed */
    PyObject *entry;                            /* owned, or NULL */
    PyObject *result = NULL;
    if (dm_get_optional_attr(cls, st->str_replace_entry, &entry) < 0) {
        goto done;
    }
    PyObject *call[2] = {obj, changes};
    if (entry != NULL && PyTuple_CheckExact(entry) && PyTuple_GET_SIZE(entry) == 2
            && PyTuple_GET_ITEM(entry, 0) == cls) {
        result = PyObject_Vectorcall(PyTuple_GET_ITEM(entry, 1), call, 2, NULL);
    }
    else {
        PyObject *slow = Py_NewRef(st->hook[DM_HOOK_REPLACE_UNREGISTERED]);
        result = PyObject_Vectorcall(slow, call, 2, NULL);
        Py_DECREF(slow);
    }
    Py_XDECREF(entry);
done:
    Py_DECREF(changes);
    return result;
}

PyMethodDef dm_public_replace_def = {
    "replace", (PyCFunction)(void (*)(void))public_replace_call, METH_FASTCALL | METH_KEYWORDS,
    "replace($module, obj, /, **changes)\n--\n\n"
    "A new instance like ``obj`` with some fields changed, through ``__init__``.\n\n"
    "``changes`` name fields (or InitVars); an ``init=False`` field cannot be\n"
    "changed (``TypeError``), and an InitVar without a default must be given.\n"
    "``copy.replace(obj, ...)`` (3.13+) does the same.",
};
