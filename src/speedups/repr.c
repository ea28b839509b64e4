/* __repr__ (make_repr): ``C(a=1, b=2)``, and reprlib's recursion guard. */

#include "speedups.h"

typedef struct {
    PyObject *obj;           /* borrowed: only compared by address */
    unsigned long thread;
} running_key;

typedef struct {
    dm_function head;
    PyObject *names;         /* owned tuple of str: the fields shown */
    PyObject *pieces;        /* owned tuple of str: "(a=", ", b=", ..., ")" */
    int guarded;             /* with reprlib's guard */
    /* The guard: the instances (and threads) whose repr is running. */
    running_key *running;    /* PyMem array */
    Py_ssize_t nrunning, arunning;
    dm_layout_cache cache;
} dm_repr;

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
    dm_repr *m = (dm_repr *)f;
    PyMem_Free(m->running);
    PyMem_Free(m->cache.offsets);
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
    unsigned long thread = PyThread_get_thread_ident();
    for (Py_ssize_t i = 0; i < m->nrunning; i++) {
        if (m->running[i].obj == self && m->running[i].thread == thread) {
            return Py_NewRef(dm_state_of(m)->str_dots);
        }
    }
    if (m->nrunning == m->arunning) {
        Py_ssize_t size = m->arunning ? 2 * m->arunning : 4;
        running_key *grown = PyMem_Realloc(m->running, size * sizeof(running_key));
        if (grown == NULL) {
            return PyErr_NoMemory();
        }
        m->running = grown;
        m->arunning = size;
    }
    m->running[m->nrunning].obj = self;
    m->running[m->nrunning].thread = thread;
    m->nrunning++;
    PyObject *result = repr_fields(m, self);
    /* Other threads may have come and gone meanwhile: find the entry again. */
    for (Py_ssize_t i = m->nrunning - 1; i >= 0; i--) {
        if (m->running[i].obj == self && m->running[i].thread == thread) {
            m->running[i] = m->running[--m->nrunning];
            break;
        }
    }
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
