/* Instances on the wire (_wire.py): a class's compiled __reduce_ex__, and
 * the loader its compact pickles call.
 *
 * ``__reduce_ex__(self, protocol)`` gives ``(loader, (value, ...))``, the
 * fields' values in order behind the class's one loader (pickle's memo
 * sends it once), where the class's route (_wire.route, asked again
 * whenever the class's version tag changes) is compact and the instance
 * qualifies: ``type(self)`` is the class, protocol 2 or more, every field
 * set, no value of a type that could refer back to the instance (a tracked
 * gc object: pickle writes a reduce's arguments before the object, so a
 * cycle through them could not be rebuilt), and, for a dict-based class,
 * nothing else in its __dict__. Anything else takes object.__reduce_ex__.
 *
 * ``loader(*values)`` allocates as object.__new__ does and stores each value
 * into its field's slot (or, dict-based, as object.__setattr__ does), running
 * no code of the class; where the class no longer takes that route, the
 * Python loader (_wire.load_evolved) builds the instance instead. The
 * loader pickles as ``_wire.loader(cls, names)``.
 */

#include "speedups.h"

enum { ROUTE_NATIVE = 0, ROUTE_SLOTS = 1, ROUTE_DICT = 2 };

/* DM_GUARDED less the recursion guard: the vectorcall of a kind whose call
 * cannot recurse into itself; a cleared function still refuses. */
#define WIRE_UNGUARDED(fn, type)                                               \
    static PyObject *                                                          \
    fn(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) \
    {                                                                          \
        if (((dm_function *)self)->cleared) {                                  \
            PyErr_SetString(PyExc_ReferenceError,                              \
                            "compiled function called after it was cleared");  \
            return NULL;                                                       \
        }                                                                      \
        return fn##_body((type *)self, args, nargsf, kwnames);                 \
    }

/* The route _wire.route gave for a class at a version tag, packed in one
 * word ((tag << 2) | route; 0: none) so that a thread without the GIL reads
 * a tag and its route together. */
#ifdef Py_GIL_DISABLED
#define VERDICT_LOAD(p) _Py_atomic_load_uint64_relaxed(p)
#define VERDICT_STORE(p, v) _Py_atomic_store_uint64_relaxed((p), (v))
#else
#define VERDICT_LOAD(p) (*(p))
#define VERDICT_STORE(p, v) (*(p) = (v))
#endif

/* The route of ``tp`` now: kept per tag in ``*verdict``, else asked of the
 * route hook (Python code, which may change the class: then nothing is kept).
 * 0, 1, 2, or -1 with an exception. */
static int
wire_route(dm_state *st, uint64_t *verdict, PyTypeObject *tp)
{
    unsigned int tag = dm_tag_now(tp);
    uint64_t word = VERDICT_LOAD(verdict);
    if (tag != 0 && (word >> 2) == tag) {
        return (int)(word & 3);
    }
    PyObject *hook = Py_NewRef(st->hook[DM_HOOK_WIRE_ROUTE]);  /* owned */
    PyObject *result = PyObject_CallOneArg(hook, (PyObject *)tp);
    Py_DECREF(hook);
    if (result == NULL) {
        return -1;
    }
    long route = PyLong_AsLong(result);
    Py_DECREF(result);
    if (route == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (route != ROUTE_SLOTS && route != ROUTE_DICT) {
        route = ROUTE_NATIVE;
    }
    if (dm_tag_holds(tp, tag)) {
        VERDICT_STORE(verdict, ((uint64_t)tag << 2) | (uint64_t)route);
    }
    return (int)route;
}

/* With the GIL: the slots of a class whose route was SLOTS at ``tag`` with
 * every field in a slot of its own, for the next call at that tag to go
 * straight to them (the class's plan, as construct.c keeps one). Without
 * the GIL every call takes the layout cache's and the route's checks. */
typedef struct {
    unsigned int tag;        /* 0: none */
    Py_ssize_t off[DM_SMALL];
} wire_fast;

/* Keeps ``L`` in ``fast`` where it is the layout of ``tp`` now, for the
 * SLOTS route, every field in a slot. */
static inline void
wire_keep_fast(wire_fast *fast, const dm_layout *L, PyTypeObject *tp, Py_ssize_t n, int route)
{
#ifndef Py_GIL_DISABLED
    if (route != ROUTE_SLOTS || !L->direct || !dm_key_holds(&L->key, tp)) {
        return;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (L->off[i] < 0) {
            return;
        }
    }
    memcpy(fast->off, L->off, n * sizeof(Py_ssize_t));
    fast->tag = L->key.tag;
#else
    (void)fast, (void)L, (void)tp, (void)n, (void)route;
#endif
}

/* Whether ``fast`` holds the layout of ``tp`` now. */
static inline int
wire_fast_hit(const wire_fast *fast, PyTypeObject *tp)
{
#ifndef Py_GIL_DISABLED
    return dm_tag_holds(tp, fast->tag);
#else
    (void)fast, (void)tp;
    return 0;
#endif
}

/* ------------------------------------------------------------------------ */
/* The loader                                                                */
/* ------------------------------------------------------------------------ */

typedef struct {
    dm_function head;
    PyObject *cls;           /* owned */
    PyObject *names;         /* owned: the fields' names, as pickled */
    uint64_t verdict;        /* the class's route, per tag */
    dm_layout_cache layout;  /* where the fields live (stores past __setattr__) */
    wire_fast fast;
} dm_loader;

static int
loader_traverse(dm_function *f, visitproc visit, void *arg)
{
    Py_VISIT(((dm_loader *)f)->cls);
    Py_VISIT(((dm_loader *)f)->names);
    return 0;
}

static void
loader_clear(dm_function *f)
{
    Py_CLEAR(((dm_loader *)f)->cls);
    Py_CLEAR(((dm_loader *)f)->names);
}

static void
loader_release(dm_function *f)
{
    PyMem_Free(((dm_loader *)f)->layout.offsets);
}

static const dm_kind kind_loader = {
    NULL, 0, sizeof(dm_loader), loader_traverse, loader_clear, loader_release,
};

/* What the Python loader makes of ``values``: the class changed since (its
 * route, its fields), or the pickle is damaged (it raises). */
static PyObject *
loader_slow(dm_loader *m, PyObject *const *args, Py_ssize_t nargs)
{
    dm_state *st = dm_state_of(m);
    PyObject *values = PyTuple_New(nargs);  /* owned */
    if (values == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(values, i, Py_NewRef(args[i]));
    }
    PyObject *hook = Py_NewRef(st->hook[DM_HOOK_WIRE_LOAD]);  /* owned, as the rest */
    PyObject *cls = Py_NewRef(m->cls), *names = Py_NewRef(m->names);
    PyObject *result = PyObject_CallFunctionObjArgs(hook, cls, names, values, NULL);
    Py_DECREF(hook);
    Py_DECREF(cls);
    Py_DECREF(names);
    Py_DECREF(values);
    return result;
}

/* Whether ``cls.__new__(cls)`` is object.__new__'s allocation (what the
 * stdlib's route calls on load). */
static inline int
wire_news_plainly(PyTypeObject *tp)
{
    return tp->tp_new == PyBaseObject_Type.tp_new && (tp->tp_flags & Py_TPFLAGS_IS_ABSTRACT) == 0;
}

/* ``loader(*values)``: a new instance holding ``values`` in its fields. */
/* A loaded instance (owned, returned) untracked where its class leaves its
 * instances so while what it holds is atomic (issue 41). */
static inline PyObject *
loader_settle(PyObject *self)
{
    if (dm_settle(self) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

static PyObject *
loader_call_body(dm_loader *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyErr_SetString(PyExc_TypeError, "a data class's loader takes no keyword arguments");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    PyTypeObject *tp = (PyTypeObject *)m->cls;
    if (nargs == n && wire_fast_hit(&m->fast, tp)) {
        unsigned int tag = m->fast.tag;
        PyObject *self = tp->tp_alloc(tp, 0);  /* slotted: no dict to set up */
        if (self == NULL) {
            return NULL;
        }
        if (wire_fast_hit(&m->fast, tp) && m->fast.tag == tag) {  /* the allocation changed nothing */
            for (Py_ssize_t i = 0; i < n; i++) {
                dm_slot_fill(self, m->fast.off[i], Py_NewRef(args[i]));
            }
            return loader_settle(self);
        }
        Py_DECREF(self);  /* nothing in it yet */
    }
    if (nargs != n || !wire_news_plainly(tp)) {
        return loader_slow(m, args, nargs);
    }
    dm_layout L;
    dm_layout_of(&m->head, &m->layout, m->names, tp, DM_STORE_OBJECT, &L);
    int route = wire_route(dm_state_of(m), &m->verdict, tp);
    if (route <= 0 || !wire_news_plainly(tp)) {  /* the hook ran Python code */
        return route < 0 ? NULL : loader_slow(m, args, nargs);
    }
    PyObject *self = dm_construct_new(tp);  /* owned */
    if (self == NULL) {
        return NULL;
    }
    wire_keep_fast(&m->fast, &L, tp, n, route);
    int direct = route == ROUTE_SLOTS && L.direct && dm_layout_current(&L, self);
    for (Py_ssize_t i = 0; direct && i < n; i++) {
        direct = L.off[i] >= 0;
    }
    if (direct) {  /* a new instance's empty slots: nothing to release */
        for (Py_ssize_t i = 0; i < n; i++) {
            dm_slot_fill(self, L.off[i], Py_NewRef(args[i]));
        }
        return loader_settle(self);
    }
    for (Py_ssize_t i = 0; i < n; i++) {  /* object.__setattr__'s store */
        if (PyObject_GenericSetAttr(self, PyTuple_GET_ITEM(m->names, i), args[i]) < 0) {
            Py_DECREF(self);
            return NULL;
        }
    }
    return self;
}

/* Not DM_GUARDED: nothing here recurses (the slow path is a Python call,
 * which has the interpreter's own guard); only a cleared loader refuses. */
WIRE_UNGUARDED(loader_call, dm_loader)

/* A loader of ``cls`` for the fields ``names`` (a new reference). */
static PyObject *
loader_new(dm_state *st, PyObject *cls, PyObject *names)
{
    PyObject *name = PyUnicode_InternFromString("loader");  /* owned */
    if (name == NULL) {
        return NULL;
    }
    dm_loader *m = (dm_loader *)dm_function_new(st, &kind_loader, loader_call, name);
    Py_DECREF(name);
    if (m == NULL) {
        return NULL;
    }
    m->cls = Py_NewRef(cls);
    m->names = Py_NewRef(names);
    return (PyObject *)m;
}

/* Whether ``f`` is a loader; its pickle, ``(_wire.loader, (cls, names))``. */
int
dm_is_loader(dm_function *f)
{
    return f->kind == &kind_loader;
}

PyObject *
dm_loader_reduce(dm_function *f)
{
    dm_loader *m = (dm_loader *)f;
    dm_state *st = dm_state_of(f);
    if (dm_configured(st) < 0) {
        return NULL;
    }
    if (m->cls == NULL) {
        PyErr_SetString(PyExc_ReferenceError, "loader used after it was cleared");
        return NULL;
    }
    /* owned: the allocations below can run code */
    PyObject *target = Py_NewRef(st->hook[DM_HOOK_WIRE_LOADER]);
    PyObject *cls = Py_NewRef(m->cls), *names = Py_NewRef(m->names);
    PyObject *result = Py_BuildValue("O(OO)", target, cls, names);
    Py_DECREF(target);
    Py_DECREF(cls);
    Py_DECREF(names);
    return result;
}

/* ------------------------------------------------------------------------ */
/* __reduce_ex__                                                             */
/* ------------------------------------------------------------------------ */

typedef struct {
    dm_function head;
    PyObject *cls;           /* owned: the class it was made for */
    PyObject *names;         /* owned: its fields' names */
    PyObject *loader;        /* owned: the class's loader */
    PyObject *native;        /* owned: object.__reduce_ex__ */
    uint64_t verdict;        /* the class's route, per tag */
    dm_layout_cache layout;  /* where the fields live (read as they are) */
    wire_fast fast;
} dm_reduce;

static const char *const PARAMS_REDUCE[] = {"self", "protocol"};

static int
reduce_traverse(dm_function *f, visitproc visit, void *arg)
{
    dm_reduce *m = (dm_reduce *)f;
    Py_VISIT(m->cls);
    Py_VISIT(m->names);
    Py_VISIT(m->loader);
    Py_VISIT(m->native);
    return 0;
}

static void
reduce_clear(dm_function *f)
{
    dm_reduce *m = (dm_reduce *)f;
    Py_CLEAR(m->cls);
    Py_CLEAR(m->names);
    Py_CLEAR(m->loader);
    Py_CLEAR(m->native);
}

static void
reduce_release(dm_function *f)
{
    PyMem_Free(((dm_reduce *)f)->layout.offsets);
}

static const dm_kind kind_reduce = {
    PARAMS_REDUCE, 2, sizeof(dm_reduce), reduce_traverse, reduce_clear, reduce_release,
};

/* Whether pickle could not rebuild a cycle through ``value`` in a reduce's
 * arguments: only a tracked gc object can hold one. */
static inline int
wire_may_cycle(PyObject *value)
{
    return PyObject_IS_GC(value) && PyObject_GC_IsTracked(value);
}

/* The pair of ``m``'s loader and ``values`` (stolen). */
static PyObject *
reduce_pair(dm_reduce *m, PyObject *values)
{
    PyObject *loader = Py_NewRef(m->loader);  /* owned: the allocation can run code */
    PyObject *result = PyTuple_Pack(2, loader, values);
    Py_DECREF(loader);
    Py_DECREF(values);
    return result;
}

/* reduce_compact() by ``m->fast``, current for ``type(self)``: the slots
 * read as they are (with the GIL: nothing runs between the reads). */
static PyObject *
reduce_fast(dm_reduce *m, PyObject *self, Py_ssize_t n)
{
    PyObject *values = PyTuple_New(n);  /* owned */
    if (values == NULL) {
        return NULL;
    }
    if (!wire_fast_hit(&m->fast, Py_TYPE(self))) {  /* the allocation ran code */
        Py_DECREF(values);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = dm_slot_peek(self, m->fast.off[i]);
        if (v == NULL || wire_may_cycle(v)) {
            Py_DECREF(values);
            return NULL;
        }
        PyTuple_SET_ITEM(values, i, Py_NewRef(v));
    }
    return reduce_pair(m, values);
}

/* The compact pickle of ``self`` (an instance of exactly ``m->cls``):
 * ``(loader, values)``; NULL without an exception where the instance takes
 * object.__reduce_ex__'s route; NULL with one on an error. */
static PyObject *
reduce_compact(dm_reduce *m, PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    if (wire_fast_hit(&m->fast, tp)) {
        return reduce_fast(m, self, n);
    }
    dm_layout L;
    dm_layout_of(&m->head, &m->layout, m->names, tp, DM_STORE_OBJECT, &L);
    int route = wire_route(dm_state_of(m), &m->verdict, tp);
    if (route <= 0) {
        return NULL;
    }
    wire_keep_fast(&m->fast, &L, tp, n, route);
    PyObject *dict = NULL;  /* owned */
    if (route == ROUTE_DICT) {
        dict = PyObject_GenericGetDict(self, NULL);
        if (dict == NULL) {
            return NULL;
        }
    }
    PyObject *values = PyTuple_New(n);  /* owned; its items too, as they are read */
    if (values == NULL) {
        Py_XDECREF(dict);
        return NULL;
    }
    /* Checked after the allocations and the hook, which can run code. */
    if (dict != NULL ? !PyDict_CheckExact(dict) || PyDict_GET_SIZE(dict) != n
                     : !L.direct || !dm_layout_current(&L, self)) {
        goto native;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = NULL;  /* owned */
        if (dict != NULL) {
            if (dm_dict_get_ref(dict, PyTuple_GET_ITEM(m->names, i), &v) < 0) {
                goto error;
            }
        }
        else if (L.off[i] >= 0) {
            v = dm_slot_get(self, L.off[i]);
        }
        if (v == NULL) {
            goto native;  /* unset, or not a slot */
        }
        PyTuple_SET_ITEM(values, i, v);
        if (wire_may_cycle(v)) {
            goto native;
        }
    }
    Py_XDECREF(dict);
    return reduce_pair(m, values);
native:
    Py_XDECREF(dict);
    Py_DECREF(values);
    return NULL;
error:
    Py_XDECREF(dict);
    Py_DECREF(values);
    return NULL;
}

/* ``__reduce_ex__(self, protocol)``: the compact pickle, else object's. */
static PyObject *
reduce_call_body(dm_reduce *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *a[2];
    if (dm_unpack(&m->head, args, nargsf, kwnames, a, 2) < 0) {
        return NULL;
    }
    if ((PyObject *)Py_TYPE(a[0]) == m->cls && PyLong_CheckExact(a[1])) {
        int overflow;
        long protocol = PyLong_AsLongAndOverflow(a[1], &overflow);
        if (protocol >= 2 || overflow > 0) {
            PyObject *result = reduce_compact(m, a[0]);
            if (result != NULL || PyErr_Occurred()) {
                return result;
            }
        }
    }
    PyObject *native = Py_NewRef(m->native);  /* owned for the call */
    PyObject *result = PyObject_Vectorcall(native, a, 2, NULL);
    Py_DECREF(native);
    return result;
}

/* Not DM_GUARDED either: it calls no code of its own that could recurse
 * into it (object.__reduce_ex__ and the route hook have their guards). */
WIRE_UNGUARDED(reduce_call, dm_reduce)

/* reduce(name, plan) -> the compiled __reduce_ex__ of ``plan.cls``, whose
 * fields are ``plan.field_names``. */
static PyObject *
wire_make_reduce(PyObject *module, PyObject *args)
{
    PyObject *name, *plan;
    if (!PyArg_ParseTuple(args, "UO:reduce", &name, &plan)) {
        return NULL;
    }
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    PyObject *names = NULL, *loader = NULL, *native = NULL;  /* owned */
    PyObject *cls = dm_plan_get(st, plan, CLS);              /* owned */
    if (cls != NULL && !PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "reduce: the plan's cls must be a class");
        goto error;
    }
    names = cls == NULL ? NULL : dm_plan_get(st, plan, FIELD_NAMES);
    if (names == NULL || dm_check_names(names) < 0) {
        goto error;
    }
    loader = loader_new(st, cls, names);
    PyObject *key = loader == NULL ? NULL : PyUnicode_InternFromString("__reduce_ex__");
    native = key == NULL ? NULL : PyObject_GetAttr((PyObject *)&PyBaseObject_Type, key);
    Py_XDECREF(key);
    if (native == NULL) {
        goto error;
    }
    dm_reduce *m = (dm_reduce *)dm_function_new(st, &kind_reduce, reduce_call, name);
    if (m == NULL) {
        goto error;
    }
    m->cls = cls;        /* steals, as the rest */
    m->names = names;
    m->loader = loader;
    m->native = native;
    return (PyObject *)m;
error:
    Py_XDECREF(cls);
    Py_XDECREF(names);
    Py_XDECREF(loader);
    Py_XDECREF(native);
    return NULL;
}

/* loader(cls, names) -> the compiled loader of ``cls`` for ``names``. */
static PyObject *
wire_make_loader(PyObject *module, PyObject *args)
{
    PyObject *cls, *names;
    if (!PyArg_ParseTuple(args, "O!O:loader", &PyType_Type, &cls, &names)) {
        return NULL;
    }
    dm_state *st = dm_ready(module);
    if (st == NULL || dm_check_names(names) < 0) {
        return NULL;
    }
    return loader_new(st, cls, names);
}

/* loader_of(reduce) -> the loader a compiled __reduce_ex__ gives. */
static PyObject *
wire_loader_of(PyObject *module, PyObject *function)
{
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    if (Py_TYPE(function) != st->function_type
            || ((dm_function *)function)->kind != &kind_reduce
            || ((dm_reduce *)function)->loader == NULL) {
        PyErr_SetString(PyExc_TypeError, "loader_of: a compiled __reduce_ex__ is required");
        return NULL;
    }
    return Py_NewRef(((dm_reduce *)function)->loader);
}

PyMethodDef dm_wire_methods[] = {
    {"loader_of", wire_loader_of, METH_O,
     "loader_of(reduce): the loader of a compiled __reduce_ex__."},
    {"reduce", wire_make_reduce, METH_VARARGS,
     "reduce(name, plan): a compiled __reduce_ex__ giving the compact pickle."},
    {"loader", wire_make_loader, METH_VARARGS,
     "loader(cls, names): the loader of the compact pickle of cls."},
    {NULL, NULL, 0, NULL}
};
