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

#ifndef Py_NO_INLINE  /* (named by the newer headers only) */
#define Py_NO_INLINE
#endif

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
    /* The copy's decision for ``cls`` (replace_copy_plan), with the GIL: while
     * the class's version tag is ``copy_tag`` (0: not decided), an instance
     * of exactly ``cls`` is copied where ``copy_ok``, reading the kept fields
     * at ``copy_read`` and storing them at ``copy_store``. */
    unsigned int copy_tag;
    int copy_ok;
    Py_ssize_t copy_read[DM_SMALL], copy_store[DM_SMALL];
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

/* replace() as a copy, where nothing can tell it from the stdlib's: the
 * instance's type is the class, whose __class__, metaclass call, __new__ and
 * __init__ are what they were (the generated __init__, which only stores each
 * parameter into its field: dm_init_plain_stores), and every field is read
 * from and stored into its own slot (its class attribute the slot's member
 * descriptor, no __getattribute__ or, unless frozen, __setattr__ of the
 * class's own). The stdlib's reads (``self.__dataclass_fields__``: the
 * class's dict, found on the type of an instance without a __dict__; each
 * kept field; then __class__) then run no code, and neither do the class
 * call's object.__new__ and __init__'s stores but for the allocation (a
 * collection may run code): the values are taken first, as the stdlib's reads
 * take them, and stored after it, or given to the class's __init__ by keyword
 * if the class changed meanwhile.
 *
 * All of it but the metaclass's call, __new__, abstractness and whether the
 * functions were cleared (a garbage cycle) is the class's, decided once per
 * version tag of the class (which changes with its attributes and bases, not
 * with its metaclass): 1 where the copy applies to instances of ``tp``. */
static int replace_copy_decide(dm_replace *m, PyTypeObject *tp);

static inline int
replace_copy_plan(dm_replace *m, PyTypeObject *tp)
{
    if (!DM_BORROWED_SLOT_READS || (PyObject *)tp != m->cls || m->init == NULL) {
        return 0;  /* (slots read borrowed: not where other threads may store) */
    }
    if (!dm_calls_as_type(tp) || m->head.cleared || ((dm_function *)m->init)->cleared) {
        return 0;
    }
    if (dm_tag_holds(tp, m->copy_tag)) {
        return m->copy_ok;
    }
    return replace_copy_decide(m, tp);
}

/* Whether the copy fits the class ``tp`` now (replace_copy_decide), its
 * offsets written into ``m``. */
static int
replace_copy_fits(dm_replace *m, PyTypeObject *tp)
{
    dm_state *st = dm_state_of(m);
    PyObject *carried = m->carried;  /* borrowed: set once, never replaced */
    Py_ssize_t n = PyTuple_GET_SIZE(carried), i;
    if (!Py_IS_TYPE(m->init, st->function_type) || st->str_init == NULL
            || _PyType_Lookup(tp, st->str_init) != m->init || tp->tp_dictoffset != 0
            || _PyType_Lookup(tp, st->str_dataclass_fields) != m->own
            || dm_tag_now(tp) == 0) {
        return 0;
    }
    dm_layout R, S;
    PyObject *stored = dm_init_plain_stores(m->init, tp, &S);  /* borrowed */
    if (stored == NULL || PyTuple_GET_SIZE(stored) != n) {
        return 0;
    }
    dm_layout_of(&m->head, &m->cache, carried, tp, DM_READ, &R);
    if (!R.direct || !R.plain || !dm_tag_holds(tp, R.key.tag) || S.key.tag != R.key.tag) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        if (PyTuple_GET_ITEM(stored, i) != PyTuple_GET_ITEM(carried, i) || R.off[i] < 0) {
            return 0;
        }
        m->copy_read[i] = R.off[i];
        m->copy_store[i] = S.off[i];
    }
    return 1;
}

/* replace_copy_plan's decision, worked out again for the class ``tp`` at its
 * tag and kept (either way) where the class has one; nothing here runs code,
 * so the tag stays as read. */
static int
replace_copy_decide(dm_replace *m, PyTypeObject *tp)
{
    m->copy_tag = 0;
    m->copy_ok = replace_copy_fits(m, tp);
    m->copy_tag = dm_tag_now(tp);
    return m->copy_ok;
}

/* The copy, replace_copy_plan's answer 1 and ``values[i]`` (borrowed) the
 * changed fields where bit i of ``given`` is set: each other one read from
 * its slot, then the new instance (NULL on error) made. 0 where a kept slot
 * is unset (the stdlib's getattr raises): nothing done. */
static int
replace_copy_finish(dm_replace *m, PyObject *self, PyObject **values, uint32_t given,
                    PyObject **result)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject *carried = m->carried;
    Py_ssize_t n = PyTuple_GET_SIZE(carried), i;
    unsigned int tag = m->copy_tag;
    for (i = 0; i < n; i++) {
        if (!(given & ((uint32_t)1 << i))) {
            values[i] = dm_slot_peek(self, m->copy_read[i]);
            if (values[i] == NULL) {
                while (--i >= 0) {
                    Py_DECREF(values[i]);
                }
                return 0;
            }
        }
        Py_INCREF(values[i]);
    }
    PyObject *fresh = tp->tp_alloc(tp, 0);  /* a slotted class: no dict to set up */
    if (fresh != NULL && !(dm_tag_holds(tp, tag) && Py_TYPE(tp)->tp_call == PyType_Type.tp_call)) {
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
            dm_slot_fill(fresh, m->copy_store[i], values[i]);  /* steals */
        }
        /* untracked where the class allows and what it holds too (fresh from
         * tp_alloc, it is tracked: nothing to decide for another class) */
        if (dm_init_untracks(m->init) && dm_settle(fresh) < 0) {
            Py_CLEAR(fresh);
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

/* The index of the carried field named ``key``, or -1 (not one, or not an
 * exact str, whose __eq__ may run code). */
static inline Py_ssize_t
replace_carried_index(PyObject *carried, Py_ssize_t n, PyObject *key)
{
    Py_ssize_t i;
    for (i = 0; i < n; i++) {
        if (PyTuple_GET_ITEM(carried, i) == key) {
            return i;
        }
    }
    if (!PyUnicode_CheckExact(key)) {
        return -1;
    }
    for (i = 0; i < n; i++) {  /* an equal str, not the same */
        if (PyUnicode_Compare(PyTuple_GET_ITEM(carried, i), key) == 0) {
            return i;
        }
    }
    return -1;
}

/* The copy of ``self`` with ``changes`` (a dict naming carried fields only):
 * 1 with ``*result`` (NULL on error); 0: not so, nothing done. */
static int
replace_copy(dm_replace *m, PyObject *self, PyObject *changes, PyObject **result)
{
    if (!replace_copy_plan(m, Py_TYPE(self))) {
        return 0;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(m->carried);
    PyObject *values[DM_SMALL];  /* borrowed, then owned; values[i] set: bit i of given */
    uint32_t given = 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(changes, &pos, &key, &value)) {
        Py_ssize_t i = replace_carried_index(m->carried, n, key);
        if (i < 0) {
            return 0;
        }
        values[i] = value;
        given |= (uint32_t)1 << i;
    }
    return replace_copy_finish(m, self, values, given, result);
}

/* The same with the changes as a call's keyword arguments (``kwnames`` and
 * their ``kwvalues``, or none), no dict made: the common call of replace()
 * and __replace__. */
static int
replace_copy_kw(dm_replace *m, PyObject *self, PyObject *const *kwvalues, PyObject *kwnames,
                PyObject **result)
{
    if (DM_LOAD_ACQUIRE_INT(&m->state) != FAST || !replace_copy_plan(m, Py_TYPE(self))) {
        return 0;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(m->carried);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *values[DM_SMALL];  /* borrowed, then owned; values[i] set: bit i of given */
    uint32_t given = 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        Py_ssize_t i = replace_carried_index(m->carried, n, PyTuple_GET_ITEM(kwnames, k));
        if (i < 0) {
            return 0;
        }
        values[i] = kwvalues[k];
        given |= (uint32_t)1 << i;
    }
    return replace_copy_finish(m, self, values, given, result);
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
    PyObject *result;
    if (nargs == 1 && replace_copy_kw(m, args[0], args + 1, kwnames, &result)) {
        return result;
    }
    PyObject *changes = replace_changes(args, nargs, kwnames,
                                        PyUnicode_Check(qualname) ? qualname : NULL, "self");
    if (changes == NULL) {
        return NULL;
    }
    result = replace_run(m, args[0], changes);
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
static Py_NO_INLINE PyObject *
public_replace_lookup(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
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
    /* owned: a metaclass's __getattr__ or descriptor may assign obj.__class__ */
    PyObject *cls = Py_NewRef((PyObject *)Py_TYPE(obj));
    PyObject *entry;                            /* owned, or NULL */
    PyObject *result = NULL;
    if (dm_get_optional_attr(cls, st->str_replace_entry, &entry) < 0) {
        goto done;
    }
    PyObject *call[2] = {obj, changes};
    if (entry != NULL && PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) == 2
            && PyTuple_GET_ITEM(entry, 0) == cls) {
        PyObject *fn = PyTuple_GET_ITEM(entry, 1);  /* borrowed */
#if DM_CLASS_CACHE
        /* (the lookup ran no code: the entry is a tuple, found on the class) */
        unsigned int tag = dm_tag_now(Py_TYPE(obj));
#endif
        result = PyObject_Vectorcall(fn, call, 2, NULL);
#if DM_CLASS_CACHE
        /* Kept where the copy applies to this class as it was at the lookup. */
        PyTypeObject *tp = Py_TYPE(obj);
        /* and only an entry the class itself holds (not one a metaclass's
         * __getattr__ or descriptor made for this call, which ``fn`` would
         * outlive): _PyType_Lookup runs no code */
        if (result != NULL && tag != 0 && Py_IS_TYPE(fn, st->function_type)
                && _PyType_Lookup((PyTypeObject *)cls, st->str_replace_entry) == entry
                && ((dm_function *)fn)->kind == &kind_replace
                && ((dm_replace *)fn)->by_dict && ((dm_replace *)fn)->copy_tag == tag
                && ((dm_replace *)fn)->copy_ok
                && tp == (PyTypeObject *)cls && dm_tag_holds(tp, tag)) {
            dm_class_keep(st->replace_classes, tp, fn);
        }
#endif
    }
    else {
        PyObject *slow = Py_NewRef(st->hook[DM_HOOK_REPLACE_UNREGISTERED]);
        result = PyObject_Vectorcall(slow, call, 2, NULL);
        Py_DECREF(slow);
    }
    Py_XDECREF(entry);
done:
    Py_DECREF(cls);
    Py_DECREF(changes);
    return result;
}

/* A class seen before: its function without the lookup, and the copy
 * without a dict of the changes; else the above. Small, apart from it: the
 * common call pays for no more than it uses. */
static PyObject *
public_replace_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames)
{
#if DM_CLASS_CACHE
    dm_state *st = PyModule_GetState(module);
    PyObject *fn = nargs == 1 && st->configured
        ? dm_class_cached(st->replace_classes, Py_TYPE(args[0])) : NULL;
    PyObject *result;
    if (fn != NULL && replace_copy_kw((dm_replace *)fn, args[0], args + 1, kwnames, &result)) {
        return result;
    }
#endif
    return public_replace_lookup(module, args, nargs, kwnames);
}

PyMethodDef dm_public_replace_def = {
    "replace", (PyCFunction)(void (*)(void))public_replace_call, METH_FASTCALL | METH_KEYWORDS,
    "replace($module, obj, /, **changes)\n--\n\n"
    "A new instance like ``obj`` with some fields changed, through ``__init__``.\n\n"
    "``changes`` name fields (or InitVars); an ``init=False`` field cannot be\n"
    "changed (``TypeError``), and an InitVar without a default must be given.\n"
    "``copy.replace(obj, ...)`` (3.13+) does the same.",
};
