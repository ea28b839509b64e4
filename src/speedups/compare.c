/* __eq__, the orderings and __hash__ (make_eq, make_order, make_hash). */

#include "speedups.h"

typedef struct {
    dm_function head;
    PyObject *names;         /* owned tuple of str: the fields compared or hashed */
    int op;                  /* orderings: Py_LT, Py_LE, Py_GT or Py_GE */
    dm_layout_cache cache;
} dm_compare;

static const char *const PARAMS_EQ[] = {"self", "other"};
static const char *const PARAMS_SELF[] = {"self"};

static int
compare_traverse(dm_function *f, visitproc visit, void *arg)
{
    Py_VISIT(((dm_compare *)f)->names);
    return 0;
}

static void
compare_clear(dm_function *f)
{
    Py_CLEAR(((dm_compare *)f)->names);
}

static void
compare_release(dm_function *f)
{
    PyMem_Free(((dm_compare *)f)->cache.offsets);
}

#define COMPARE_KIND(params, n) \
    {params, n, sizeof(dm_compare), compare_traverse, compare_clear, compare_release}

static const dm_kind kind_eq = COMPARE_KIND(PARAMS_EQ, 2);
static const dm_kind kind_order = COMPARE_KIND(PARAMS_EQ, 2);
static const dm_kind kind_hash = COMPARE_KIND(PARAMS_SELF, 1);

/* ``other.__class__ is self.__class__`` (1, 0, or -1 on error), read in
 * that order. Without a lookup where both are of one type whose __class__
 * is object's (``L`` describes ``type(self)``). */
static int
same_class(dm_compare *m, const dm_layout *L, PyObject *self, PyObject *other)
{
    if (Py_TYPE(other) == Py_TYPE(self) && L->plain) {
        return 1;
    }
    dm_state *st = dm_state_of(m);
    PyObject *oc = dm_class_of(st, other);
    if (oc == NULL) {
        return -1;
    }
    PyObject *sc = dm_class_of(st, self);
    if (sc == NULL) {
        Py_DECREF(oc);
        return -1;
    }
    int same = oc == sc;
    Py_DECREF(oc);
    Py_DECREF(sc);
    return same;
}

enum { NOT_IMPLEMENTED, COMPARE, IDENTICAL };

/* What == and the orderings share: bind ``(self, other)``; for == (``is_eq``),
 * ``self is other`` answers at once (IDENTICAL); then NOT_IMPLEMENTED unless
 * ``other.__class__ is self.__class__``, else COMPARE with ``L`` the layout
 * of self's type. -1 on error. Inline, with ``is_eq`` a constant. */
static inline int
compare_prologue(dm_compare *m, PyObject *const *args, size_t nargsf, PyObject *kwnames,
                 int is_eq, PyObject **pair, dm_layout *L)
{
    if (dm_unpack(&m->head, args, nargsf, kwnames, pair, 2) < 0) {
        return -1;
    }
    if (is_eq && pair[0] == pair[1]) {
        return IDENTICAL;
    }
    dm_layout_of(&m->head, &m->cache, m->names, Py_TYPE(pair[0]), DM_READ, L);
    int same = same_class(m, L, pair[0], pair[1]);
    return same < 0 ? -1 : same ? COMPARE : NOT_IMPLEMENTED;
}

/* Types whose ``x == x`` is True without running any code: skipping the
 * comparison of an object with itself cannot be seen (unlike for floats,
 * where NaN is not equal to itself, or for any type with its own __eq__). */
static inline int
reflexive(PyObject *x)
{
    PyTypeObject *tp = Py_TYPE(x);
    return tp == &PyLong_Type || tp == &PyUnicode_Type || tp == &PyBool_Type
           || x == Py_None || tp == &PyBytes_Type;
}

/* 3.13's __eq__: ``self is other``; then NotImplemented unless
 * ``other.__class__ is self.__class__``; then ``self.a == other.a and ...``,
 * returning the first false result (or the last result) itself. */
static PyObject *
eq_call_body(dm_compare *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *pair[2];
    dm_layout L;
    int go = compare_prologue(m, args, nargsf, kwnames, 1, pair, &L);
    if (go != COMPARE) {
        return go < 0 ? NULL : Py_NewRef(go == IDENTICAL ? Py_True : Py_NotImplemented);
    }
    PyObject *self = pair[0], *other = pair[1];  /* borrowed */
    PyObject *result = Py_NewRef(Py_True);
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(m->names, i);  /* borrowed */
        Py_ssize_t offset = Py_TYPE(other) == Py_TYPE(self) ? DM_OFFSET(L, i) : -1;
        /* The common case first, with no reference taken and nothing called:
         * both slots hold one object whose ``x == x`` is True (the general
         * path below concludes the same). Short and straight, it keeps its
         * speed wherever the linker places this code; the general path alone
         * moved by a quarter with its address (47-64 ns on 3.15). */
        if (DM_BORROWED_SLOT_READS && offset >= 0) {
            PyObject *v = *(PyObject **)((char *)self + offset);  /* borrowed */
            if (v != NULL && v == *(PyObject **)((char *)other + offset) && reflexive(v)) {
                if (result != Py_True) {
                    Py_SETREF(result, Py_NewRef(Py_True));
                }
                continue;
            }
        }
        PyObject *x = dm_read_field(self, name, offset);
        if (x == NULL) {
            goto error;
        }
        PyObject *y = dm_read_field(other, name, offset);
        if (y == NULL) {
            Py_DECREF(x);
            goto error;
        }
        if (x == y && reflexive(x)) {  /* x == x is True, and calls nothing */
            Py_DECREF(x);
            Py_DECREF(y);
            Py_SETREF(result, Py_NewRef(Py_True));
            continue;
        }
        Py_SETREF(result, PyObject_RichCompare(x, y, Py_EQ));
        Py_DECREF(x);
        Py_DECREF(y);
        if (result == NULL) {
            return NULL;
        }
        if (i == n - 1) {
            break;  /* ``a and b``: the last operand is returned untested */
        }
        int truth = PyObject_IsTrue(result);
        if (truth < 0) {
            goto error;
        }
        if (!truth) {
            break;
        }
    }
    return result;
error:
    Py_XDECREF(result);
    return NULL;
}

DM_GUARDED(eq_call, dm_compare)

/* __lt__/__le__/__gt__/__ge__: NotImplemented unless
 * ``other.__class__ is self.__class__``; then the field tuples compared. */
static PyObject *
order_call_body(dm_compare *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *pair[2];
    dm_layout L;
    int go = compare_prologue(m, args, nargsf, kwnames, 0, pair, &L);
    if (go != COMPARE) {
        return go < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    PyObject *self = pair[0], *other = pair[1];  /* borrowed */
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    if (n > DM_SMALL || !L.direct) {
        PyObject *x = dm_field_tuple(&m->head, &m->cache, m->names, self);
        if (x == NULL) {
            return NULL;
        }
        PyObject *y = dm_field_tuple(&m->head, &m->cache, m->names, other);
        if (y == NULL) {
            Py_DECREF(x);
            return NULL;
        }
        PyObject *result = PyObject_RichCompare(x, y, m->op);
        Py_DECREF(x);
        Py_DECREF(y);
        return result;
    }
    /* The same without building the tuples: all of self's fields, then all of
     * other's, then tuple comparison (tuplerichcompare): the first pair that
     * is not ``==`` (identity counts as equal) decides with ``op``; all equal
     * compares the (equal) lengths. */
    PyObject *x[DM_SMALL], *y[DM_SMALL];  /* owned, the first nx / ny */
    PyObject *result = NULL;
    Py_ssize_t nx = 0, ny = 0, i;
    for (; nx < n; nx++) {
        x[nx] = dm_read_field(self, PyTuple_GET_ITEM(m->names, nx), DM_OFFSET(L, nx));
        if (x[nx] == NULL) {
            goto done;
        }
    }
    for (; ny < n; ny++) {
        Py_ssize_t offset = Py_TYPE(other) == Py_TYPE(self) ? DM_OFFSET(L, ny) : -1;
        y[ny] = dm_read_field(other, PyTuple_GET_ITEM(m->names, ny), offset);
        if (y[ny] == NULL) {
            goto done;
        }
    }
    for (i = 0; i < n; i++) {
        int k = PyObject_RichCompareBool(x[i], y[i], Py_EQ);
        if (k < 0) {
            goto done;
        }
        if (!k) {
            break;
        }
    }
    if (i == n) {
        /* equal lengths: <= and >= hold, < and > do not */
        result = Py_NewRef(m->op == Py_LE || m->op == Py_GE ? Py_True : Py_False);
    }
    else {
        result = PyObject_RichCompare(x[i], y[i], m->op);
    }
done:
    for (i = 0; i < nx; i++) {
        Py_DECREF(x[i]);
    }
    for (i = 0; i < ny; i++) {
        Py_DECREF(y[i]);
    }
    return result;
}

DM_GUARDED(order_call, dm_compare)

/* __hash__: ``hash((self.a, self.b, ...))``. */
static PyObject *
hash_call_body(dm_compare *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *self;
    if (dm_unpack(&m->head, args, nargsf, kwnames, &self, 1) < 0) {
        return NULL;
    }
    PyObject *t = dm_field_tuple(&m->head, &m->cache, m->names, self);
    if (t == NULL) {
        return NULL;
    }
    Py_hash_t h = PyObject_Hash(t);
    Py_DECREF(t);
    if (h == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return PyLong_FromSsize_t(h);
}

DM_GUARDED(hash_call, dm_compare)

/* A compiled function of a compare kind over ``plan``'s names of attribute
 * ``attr`` (compare_names or hash_names). */
static PyObject *
make_compare(PyObject *module, const dm_kind *kind, vectorcallfunc call, PyObject *name,
             PyObject *plan, int attr, int op)
{
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    PyObject *names = PyObject_GetAttr(plan, st->plan_attr[attr]);  /* owned */
    if (names == NULL) {
        return NULL;
    }
    dm_compare *m = dm_check_names(names) < 0 ? NULL
                    : (dm_compare *)dm_function_new(st, kind, call, name);
    if (m == NULL) {
        Py_DECREF(names);
        return NULL;
    }
    m->names = names;  /* steals */
    m->op = op;
    return (PyObject *)m;
}

/* eq(name, plan) -> the compiled __eq__ comparing ``plan.compare_names``. */
PyObject *
dm_make_eq(PyObject *module, PyObject *args)
{
    PyObject *name, *plan;
    if (!PyArg_ParseTuple(args, "UO:eq", &name, &plan)) {
        return NULL;
    }
    return make_compare(module, &kind_eq, eq_call, name, plan, DM_PLAN_COMPARE_NAMES, Py_EQ);
}

/* order(name, plan) -> the compiled ordering ``name`` ('__lt__', ...) over
 * ``plan.compare_names``. */
PyObject *
dm_make_order(PyObject *module, PyObject *args)
{
    static const struct { const char *name; int op; } orderings[] = {
        {"__lt__", Py_LT}, {"__le__", Py_LE}, {"__gt__", Py_GT}, {"__ge__", Py_GE},
    };
    PyObject *name, *plan;
    if (!PyArg_ParseTuple(args, "UO:order", &name, &plan)) {
        return NULL;
    }
    for (size_t i = 0; i < sizeof(orderings) / sizeof(orderings[0]); i++) {
        if (PyUnicode_CompareWithASCIIString(name, orderings[i].name) == 0) {
            return make_compare(module, &kind_order, order_call, name, plan,
                                DM_PLAN_COMPARE_NAMES, orderings[i].op);
        }
    }
    PyErr_Format(PyExc_ValueError,
                 "order: %R is not an ordering: expected '__lt__', '__le__', '__gt__' "
                 "or '__ge__'", name);
    return NULL;
}

/* hash(name, plan) -> the compiled __hash__ of ``plan.hash_names``. */
PyObject *
dm_make_hash(PyObject *module, PyObject *args)
{
    PyObject *name, *plan;
    if (!PyArg_ParseTuple(args, "UO:hash", &name, &plan)) {
        return NULL;
    }
    return make_compare(module, &kind_hash, hash_call, name, plan, DM_PLAN_HASH_NAMES, 0);
}
