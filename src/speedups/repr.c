/* __repr__ (make_repr): ``C(a=1, b=2)``, and reprlib's recursion guard. */

#include "speedups.h"

typedef struct {
    dm_function head;
    PyObject *names;         /* owned tuple of str: the fields shown */
    PyObject *pieces;        /* owned tuple of str: "(a=", ", b=", ..., ")" */
    int guarded;             /* with reprlib's guard */
    dm_layout_cache cache;
} dm_repr;

/* The guard: the (method, instance) pairs whose repr is running in this
 * thread, as reprlib keeps per decorated function the (id, thread) pairs. Per
 * thread, so no thread sees another's and none needs a lock; pointers only
 * compared by address. The first few entries need no allocation; a deeper
 * nesting grows a raw array, freed when the thread's outermost repr ends. */
typedef struct {
    const void *method;
    const PyObject *obj;
} running_key;

#define RUNNING_INLINE 8
static DM_THREAD_LOCAL running_key running_inline[RUNNING_INLINE];
static DM_THREAD_LOCAL running_key *running_heap;  /* PyMem_Raw, or NULL */
static DM_THREAD_LOCAL Py_ssize_t nrunning, arunning;

static inline running_key *
running(void)
{
    return running_heap != NULL ? running_heap : running_inline;
}

/* Adds (method, obj) to this thread's guard: 1, or 0 when it is there
 * already (the repr is recursive), or -1 out of memory. */
static int
running_enter(const void *method, PyObject *obj)
{
    running_key *keys = running();
    for (Py_ssize_t i = 0; i < nrunning; i++) {
        if (keys[i].obj == obj && keys[i].method == method) {
            return 0;
        }
    }
    if (nrunning == RUNNING_INLINE && running_heap == NULL) {
        running_heap = PyMem_RawMalloc(2 * RUNNING_INLINE * sizeof(running_key));
        if (running_heap == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(running_heap, running_inline, sizeof(running_inline));
        arunning = 2 * RUNNING_INLINE;
    }
    else if (running_heap != NULL && nrunning == arunning) {
        running_key *grown = PyMem_RawRealloc(running_heap, 2 * arunning * sizeof(running_key));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        running_heap = grown;
        arunning *= 2;
    }
    keys = running();
    keys[nrunning].method = method;
    keys[nrunning].obj = obj;
    nrunning++;
    return 1;
}

/* Removes (method, obj) from this thread's guard. The last entry, unless
 * coroutines of one thread (greenlets) interleaved reprs: found again. */
static void
running_leave(const void *method, PyObject *obj)
{
    running_key *keys = running();
    for (Py_ssize_t i = nrunning - 1; i >= 0; i--) {
        if (keys[i].obj == obj && keys[i].method == method) {
            keys[i] = keys[--nrunning];
            break;
        }
    }
    if (nrunning == 0 && running_heap != NULL) {
        PyMem_RawFree(running_heap);
        running_heap = NULL;
        arunning = 0;
    }
}

static const char *const PARAMS_SELF[] = {"self"};

static int
repr_traverse(dm_function *f, visitproc visit, void *arg)
{
    dm_repr *m = (dm_repr *)f;
    Py_VISIT(m->names);
    Py_VISIT(m->pieces);
    return 0;
}

static void
repr_clear(dm_function *f)
{
    dm_repr *m = (dm_repr *)f;
    Py_CLEAR(m->names);
    Py_CLEAR(m->pieces);
}

static void
repr_release(dm_function *f)
{
    PyMem_Free(((dm_repr *)f)->cache.offsets);
}

static const dm_kind kind_repr = {
    PARAMS_SELF, 1, sizeof(dm_repr), repr_traverse, repr_clear, repr_release,
};

/* The field-by-field repr: ``f"{self.__class__.__qualname__}(a={self.a!r}, b={self.b!r})"``:
 * the qualname read first, then each field and its repr in turn. */
static PyObject *
repr_fields(dm_repr *m, PyObject *self)
{
    dm_state *st = dm_state_of(m);
    PyObject *cls = dm_class_of(st, self);
    if (cls == NULL) {
        return NULL;
    }
    PyObject *qualname = PyObject_GetAttr(cls, st->str_qualname);
    Py_DECREF(cls);
    if (qualname == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    PyObject *parts = PyList_New(2 * n + 2);
    if (parts == NULL) {
        Py_DECREF(qualname);
        return NULL;
    }
    /* Unset items stay NULL until the end; the list is hidden from the gc,
     * so the Python code a field's __repr__ runs cannot reach it
     * (gc.get_referrers/get_objects) while it is incomplete. */
    PyObject_GC_UnTrack(parts);
    PyObject *result = NULL;
    int is_str = PyUnicode_Check(qualname);
    /* The list owns its items: qualname (or ""), then the pieces and reprs. */
    PyList_SET_ITEM(parts, 0, Py_NewRef(is_str ? qualname : st->str_empty));
    for (Py_ssize_t i = 0; i <= n; i++) {
        PyList_SET_ITEM(parts, 2 * i + 1, Py_NewRef(PyTuple_GET_ITEM(m->pieces, i)));
    }
    /* Each field is read, then repr()'d, before the next is read, as by the
     * stdlib's f-string. A repr runs Python code that may change the class
     * or self.__class__, so the layout is checked again before each read. */
    dm_layout L;
    dm_layout_of(&m->head, &m->cache, m->names, Py_TYPE(self), DM_READ, &L);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i > 0 && !dm_layout_current(&L, self)) {
            dm_layout_of(&m->head, &m->cache, m->names, Py_TYPE(self), DM_READ, &L);
        }
        PyObject *v = dm_read_field(self, PyTuple_GET_ITEM(m->names, i), DM_OFFSET(L, i));
        if (v == NULL) {
            goto done;
        }
        PyObject *r = PyObject_Repr(v);
        Py_DECREF(v);
        if (r == NULL) {
            goto done;
        }
        PyList_SET_ITEM(parts, 2 * i + 2, r);
    }
    result = PyUnicode_Join(st->str_empty, parts);
    if (result != NULL && !is_str) {
        Py_SETREF(result, PyNumber_Add(qualname, result));
    }
done:
    Py_DECREF(parts);  /* unset items are NULL, which list_dealloc skips */
    Py_DECREF(qualname);
    return result;
}

/* reprlib.recursive_repr's guard: "..." while this method is already
 * running for the same instance in the same thread. */
static PyObject *
repr_call_body(dm_repr *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *self;
    if (dm_unpack(&m->head, args, nargsf, kwnames, &self, 1) < 0) {
        return NULL;
    }
    if (!m->guarded) {
        return repr_fields(m, self);
    }
    int entered = running_enter(m, self);
    if (entered <= 0) {
        return entered < 0 ? NULL : Py_NewRef(dm_state_of(m)->str_dots);
    }
    PyObject *result = repr_fields(m, self);
    running_leave(m, self);
    return result;
}

DM_GUARDED(repr_call, dm_repr)

/* The compiled __repr__ of ``plan.repr_names``, with reprlib's guard or
 * without (the inner one that the guarded one names as __wrapped__). */
static PyObject *
make_repr(PyObject *module, PyObject *args, int guarded)
{
    PyObject *name, *plan;
    if (!PyArg_ParseTuple(args, guarded ? "UO:repr" : "UO:unguarded_repr", &name, &plan)) {
        return NULL;
    }
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    PyObject *names = dm_plan_get(st, plan, REPR_NAMES);  /* owned */
    if (names == NULL) {
        return NULL;
    }
    PyObject *pieces = NULL;  /* owned */
    Py_ssize_t n = dm_check_names(names) < 0 ? -1 : PyTuple_GET_SIZE(names);
    if (n == 0) {
        pieces = Py_BuildValue("(s)", "()");
    }
    else if (n > 0) {
        pieces = PyTuple_New(n + 1);
        for (Py_ssize_t i = 0; pieces != NULL && i <= n; i++) {
            PyObject *piece = i == n ? PyUnicode_FromString(")")
                              : PyUnicode_FromFormat("%s%U=", i ? ", " : "(",
                                                     PyTuple_GET_ITEM(names, i));
            if (piece == NULL) {
                Py_CLEAR(pieces);
                break;
            }
            PyTuple_SET_ITEM(pieces, i, piece);
        }
    }
    dm_repr *m = pieces == NULL ? NULL
                 : (dm_repr *)dm_function_new(st, &kind_repr, repr_call, name);
    if (m == NULL) {
        Py_XDECREF(pieces);
        Py_DECREF(names);
        return NULL;
    }
    m->names = names;    /* steals */
    m->pieces = pieces;  /* steals */
    m->guarded = guarded;
    return (PyObject *)m;
}

/* repr(name, plan) -> the guarded compiled __repr__. */
PyObject *
dm_make_repr(PyObject *module, PyObject *args)
{
    return make_repr(module, args, 1);
}

/* unguarded_repr(name, plan) -> the compiled __repr__ without the guard. */
PyObject *
dm_make_unguarded_repr(PyObject *module, PyObject *args)
{
    return make_repr(module, args, 0);
}
