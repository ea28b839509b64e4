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
    Py_ssize_t n = PyTuple_GET_SIZE(m->names), i = 0;
    if (DM_BORROWED_SLOT_READS && Py_TYPE(other) == Py_TYPE(self) && L.direct) {
        /* The fields that both slots hold as one reflexive object (below)
         * in one tight run from the first; the loop goes on from the first
         * that does not. */
        for (; i < n; i++) {
            Py_ssize_t offset = L.off[i];
            PyObject *v = offset >= 0 ? dm_slot_peek(self, offset) : NULL;
            if (v == NULL || v != dm_slot_peek(other, offset) || !reflexive(v)) {
                break;
            }
        }
    }
    PyObject *result = Py_NewRef(Py_True);
    for (; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(m->names, i);  /* borrowed */
        Py_ssize_t offset = Py_TYPE(other) == Py_TYPE(self) ? DM_OFFSET(L, i) : -1;
        /* The common case first, with no reference taken and nothing called:
         * both slots hold one object whose ``x == x`` is True (the general
         * path below concludes the same). Short and straight, it keeps its
         * speed wherever the linker places this code; the general path alone
         * moved by a quarter with its address (47-64 ns on 3.15). */
        if (DM_BORROWED_SLOT_READS && offset >= 0) {
            PyObject *v = dm_slot_peek(self, offset);  /* borrowed */
            if (v != NULL && v == dm_slot_peek(other, offset) && reflexive(v)) {
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

/* CPython's tuple hash (tuplehash, xxHash-based since 3.8): the same
 * constants and steps, so that hashing the values one by one gives
 * ``hash(tuple(values))`` exactly, on every version. */
#if SIZEOF_SIZE_T > 4  /* Py_uhash_t is size_t */
#define XXPRIME_1 ((Py_uhash_t)11400714785074694791ULL)
#define XXPRIME_2 ((Py_uhash_t)14029467366897019727ULL)
#define XXPRIME_5 ((Py_uhash_t)2870177450012600261ULL)
#define XXROTATE(x) ((x << 31) | (x >> 33))
#else
#define XXPRIME_1 ((Py_uhash_t)2654435761UL)
#define XXPRIME_2 ((Py_uhash_t)2246822519UL)
#define XXPRIME_5 ((Py_uhash_t)374761393UL)
#define XXROTATE(x) ((x << 13) | (x >> 19))
#endif

/* ``hash(v)``: a compact int's inline (3.12+: its value, -1 made -2, as
 * long_hash does), anything else's by its type. */
static inline Py_hash_t
lane_hash(PyObject *v)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (PyLong_CheckExact(v) && PyUnstable_Long_IsCompact((PyLongObject *)v)) {
        Py_ssize_t x = PyUnstable_Long_CompactValue((PyLongObject *)v);
        return x == -1 ? -2 : (Py_hash_t)x;
    }
#endif
    return PyObject_Hash(v);
}

/* Whether ``hash(v)`` runs no Python code (so cannot change what a field holds). */
static inline int
hash_runs_no_code(PyObject *v)
{
    PyTypeObject *tp = Py_TYPE(v);
    return tp == &PyLong_Type || tp == &PyUnicode_Type || v == Py_None
           || tp == &PyFloat_Type || tp == &PyBool_Type || tp == &PyBytes_Type;
}

/* The slot offsets of ``m``'s fields in instances of ``tp`` straight from its
 * layout cache (refilled where it is not for ``tp`` at its tag), for a fast
 * path that runs no code (which could refill it), with the GIL; NULL where
 * some field is not read from its slot plainly (then the general path). */
static inline const Py_ssize_t *
plain_offsets(dm_compare *m, PyTypeObject *tp, int refill)
{
#if DM_BORROWED_SLOT_READS
    dm_layout_cache *cache = &m->cache;
    if (!dm_key_holds(&cache->key, tp)) {
        if (!refill) {
            return NULL;
        }
        dm_layout_fill(&m->head, cache, m->names, tp, DM_READ);
    }
    return cache->plain && cache->key.type == tp ? cache->offsets : NULL;
#else
    (void)m, (void)tp, (void)refill;
    return NULL;
#endif
}

/* The tuple hash's last step: the length, mangled as tuplehash does to keep
 * hash(()). */
static inline Py_hash_t
tuple_hash_end(Py_uhash_t acc, Py_ssize_t n)
{
    acc += (Py_uhash_t)n ^ (XXPRIME_5 ^ 3527539UL);
    return acc == (Py_uhash_t)-1 ? 1546275796 : (Py_hash_t)acc;
}

/* ``hash(tuple(items[:n]))``, or -1 with the exception of an item's hash. */
static Py_hash_t
tuple_hash_of(PyObject *const *items, Py_ssize_t n)
{
    Py_uhash_t acc = XXPRIME_5;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_uhash_t lane = (Py_uhash_t)lane_hash(items[i]);
        if (lane == (Py_uhash_t)-1) {
            return -1;
        }
        acc += lane * XXPRIME_2;
        acc = XXROTATE(acc);
        acc *= XXPRIME_1;
    }
    return tuple_hash_end(acc, n);
}

/* The common case of hash_fields, without a reference and in one pass:
 * every field set in its slot (reading runs nothing) and hashed without
 * running code (so nothing can release a value before its turn; nor can
 * hashing it fail). 1 with ``*h``; 0: not so (then all is read again, which is
 * not seen: a slot read has no effect). No recursion guard: nothing recurses. */
static inline int
hash_fields_fast(dm_compare *m, PyObject *self, Py_hash_t *h, int refill)
{
    const Py_ssize_t *off = plain_offsets(m, Py_TYPE(self), refill);
    if (off == NULL) {
        return 0;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    Py_uhash_t acc = XXPRIME_5;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t offset = off[i];
        PyObject *v = offset >= 0 ? dm_slot_peek(self, offset) : NULL;
        Py_uhash_t lane;
        if (v == NULL) {
            return 0;
        }
#if PY_VERSION_HEX >= 0x030C0000
        if (PyLong_CheckExact(v) && PyUnstable_Long_IsCompact((PyLongObject *)v)) {
            Py_ssize_t x = PyUnstable_Long_CompactValue((PyLongObject *)v);
            lane = (Py_uhash_t)(x == -1 ? -2 : x);  /* as long_hash */
        }
        else
#endif
        if (hash_runs_no_code(v)) {
            lane = (Py_uhash_t)PyObject_Hash(v);
        }
        else {
            return 0;
        }
        acc += lane * XXPRIME_2;
        acc = XXROTATE(acc);
        acc *= XXPRIME_1;
    }
    *h = tuple_hash_end(acc, n);
    return 1;
}

/* ``hash((self.a, self.b, ...))`` as a C hash (-1: error): every field read
 * first, in order, as building the tuple does, then hashed as the tuple
 * would be, without making it. */
static Py_hash_t
hash_fields(dm_compare *m, PyObject *self)
{
    Py_hash_t h = -1;
    if (hash_fields_fast(m, self, &h, 1)) {
        return h;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    dm_layout L;
    dm_layout_of(&m->head, &m->cache, m->names, Py_TYPE(self), DM_READ, &L);
    PyObject *small[DM_SMALL];
    PyObject **values = n <= DM_SMALL ? small : PyMem_Malloc(n * sizeof(PyObject *));
    if (values == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t got = 0;  /* values[:got] are owned */
    for (; got < n; got++) {
        values[got] = dm_read_field(self, PyTuple_GET_ITEM(m->names, got),
                                    DM_OFFSET(L, got));
        if (values[got] == NULL) {
            goto done;
        }
    }
    h = tuple_hash_of(values, n);
done:
    for (Py_ssize_t i = 0; i < got; i++) {
        Py_DECREF(values[i]);
    }
    if (values != small) {
        PyMem_Free(values);
    }
    return h;
}

/* __hash__: ``hash((self.a, self.b, ...))``. */
static PyObject *
hash_call_body(dm_compare *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *self;
    if (dm_unpack(&m->head, args, nargsf, kwnames, &self, 1) < 0) {
        return NULL;
    }
    Py_hash_t h = hash_fields(m, self);
    return h == -1 ? NULL : PyLong_FromSsize_t(h);
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

/* ------------------------------------------------------------------------ */
/* A class's own tp_richcompare and tp_hash                                  */
/* ------------------------------------------------------------------------ */

/* A class whose __eq__ (or __hash__) is its compiled one gets these as its
 * type slots in place of slot_tp_richcompare (slot_tp_hash): each looks the
 * method up on the type as those do (the type's method cache) and, where it
 * finds a compiled __eq__ (__hash__), runs it without the call's argument
 * passing and boxing; anything else goes to the generic slot. Assigning the
 * method on the class or a base, deleting it, or a subclass, gets the
 * generic slot back from the interpreter (update_slot), as for any class. */

/* The state of this module for a class in whose MRO a class with its own
 * slots is (its ht_module, set by construct()), else NULL. */
static dm_state *state_of_base(PyTypeObject *tp);

static inline dm_state *
class_state(PyTypeObject *tp)
{
    PyObject *own = ((PyHeapTypeObject *)tp)->ht_module;  /* the common case: tp's own */
    if ((tp->tp_flags & Py_TPFLAGS_HEAPTYPE) && own != NULL
            && PyModule_GetDef(own) == &dm_module_def) {
        return PyModule_GetState(own);
    }
    return state_of_base(tp);
}

dm_state *
dm_state_of_class(PyTypeObject *tp)
{
    return class_state(tp);
}

static dm_state *
state_of_base(PyTypeObject *tp)
{
    PyObject *mro = tp->tp_mro;  /* borrowed */
    for (Py_ssize_t i = 0; mro != NULL && i < PyTuple_GET_SIZE(mro); i++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, i);
        PyObject *module = (base->tp_flags & Py_TPFLAGS_HEAPTYPE)
            ? ((PyHeapTypeObject *)base)->ht_module : NULL;
        if (module != NULL && PyModule_GetDef(module) == &dm_module_def) {
            return PyModule_GetState(module);
        }
    }
    return NULL;
}

/* ``type(obj).<name>`` where it is a compiled function of ``kind`` (a
 * strong reference), else NULL; no exception either way. */
static dm_function *
compiled_special(dm_state *st, PyObject *obj, PyObject *name, const dm_kind *kind)
{
    if (name == NULL) {  /* the module was cleared (interpreter shutdown) */
        return NULL;
    }
    PyObject *f = dm_lookup_ref(Py_TYPE(obj), name);  /* kept: the call may replace C.__eq__ */
    if (f != NULL && (!Py_IS_TYPE(f, st->function_type) || ((dm_function *)f)->kind != kind)) {
        Py_CLEAR(f);
    }
    return (dm_function *)f;
}

/* The state's table ``name`` where there is one (DM_CLASS_CACHE), else NULL. */
#if DM_CLASS_CACHE
#define KEPT(st, name) ((st)->name)
#else
#define KEPT(st, name) ((dm_class_entry *)NULL)
#endif

/* compiled_special through ``table`` (DM_CLASS_CACHE): what the lookup
 * found for type(obj), kept under the type's version tag, so that a class
 * seen before costs one compare. */
static inline dm_function *
compiled_special_kept(dm_state *st, dm_class_entry *table, PyObject *obj, PyObject *name,
                      const dm_kind *kind)
{
#if DM_CLASS_CACHE
    PyObject *f = dm_class_cached(table, Py_TYPE(obj));  /* borrowed */
    if (f != NULL) {
        return (dm_function *)Py_NewRef(f);
    }
    dm_function *found = compiled_special(st, obj, name, kind);
    if (found != NULL) {  /* (the lookup ran no code: the tag is the one it saw) */
        dm_class_keep(table, Py_TYPE(obj), (PyObject *)found);
    }
    return found;
#else
    (void)table;  /* KEPT() gives NULL here */
    return compiled_special(st, obj, name, kind);
#endif
}

/* == of two instances of one type whose every compared field's two slots hold
 * one int, str, bool, bytes or None (or of an instance with itself): True,
 * with nothing read but the slots and nothing called, as eq_call_body would
 * conclude (its leading run); else -1: not so, nothing done (then eq_call,
 * whose reads see the same slots). No recursion guard: nothing recurses. */
static inline int
eq_all_identical(dm_compare *m, PyObject *self, PyObject *other, int refill)
{
    if (m->head.cleared) {
        return -1;  /* (the call raises the ReferenceError) */
    }
    if (self == other) {
        return 1;
    }
    if (Py_TYPE(other) != Py_TYPE(self)) {
        return -1;
    }
    const Py_ssize_t *off = plain_offsets(m, Py_TYPE(self), refill);
    if (off == NULL) {
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t offset = off[i];
        PyObject *v = offset >= 0 ? dm_slot_peek(self, offset) : NULL;
        if (v == NULL || v != dm_slot_peek(other, offset) || !reflexive(v)) {
            return -1;
        }
    }
    return 1;
}

static PyObject *
class_richcompare(PyObject *self, PyObject *other, int op)
{
    dm_state *st = class_state(Py_TYPE(self));
    if (st == NULL) {
        PyErr_SetString(PyExc_SystemError, "compiled __eq__ slot without its module");
        return NULL;
    }
#if DM_CLASS_CACHE
    /* A class seen before, the common case: the kept __eq__ borrowed, as
     * eq_all_identical runs no code where it may not refill the layout (a
     * refill looks the fields up in the class's dict, where a str
     * subclass's __eq__ could delete C.__eq__: the path below holds it). */
    PyObject *kept = op == Py_EQ ? dm_class_cached(st->eq_classes, Py_TYPE(self)) : NULL;
    if (kept != NULL && eq_all_identical((dm_compare *)kept, self, other, 0) > 0) {
        Py_RETURN_TRUE;
    }
#endif
    dm_function *eq = op == Py_EQ
        ? compiled_special_kept(st, KEPT(st, eq_classes), self, st->str_eq, &kind_eq) : NULL;
    if (eq == NULL) {
        return st->slot_richcompare(self, other, op);
    }
    if (eq_all_identical((dm_compare *)eq, self, other, 1) > 0) {
        Py_DECREF(eq);
        Py_RETURN_TRUE;
    }
    PyObject *pair[2] = {self, other};
    PyObject *result = eq_call((PyObject *)eq, pair, 2, NULL);
    Py_DECREF(eq);
    return result;
}

static Py_hash_t
class_hash(PyObject *self)
{
    dm_state *st = class_state(Py_TYPE(self));
    if (st == NULL) {
        PyErr_SetString(PyExc_SystemError, "compiled __hash__ slot without its module");
        return -1;
    }
#if DM_CLASS_CACHE
    /* A class seen before, the common case: the kept __hash__ borrowed, as
     * hash_fields_fast runs no code where it may not refill (as for ==). */
    PyObject *kept = dm_class_cached(st->hash_classes, Py_TYPE(self));
    Py_hash_t fast;
    if (kept != NULL && !((dm_function *)kept)->cleared
            && hash_fields_fast((dm_compare *)kept, self, &fast, 0)) {
        return fast;
    }
#endif
    dm_function *hash = compiled_special_kept(st, KEPT(st, hash_classes), self, st->str_hash,
                                              &kind_hash);
    if (hash == NULL || hash->cleared) {  /* (the call raises the ReferenceError) */
        Py_XDECREF(hash);
        return st->slot_hash(self);
    }
    Py_hash_t h = -1;
    if (!Py_EnterRecursiveCall("")) {
        h = hash_fields((dm_compare *)hash, self);  /* never -1 but on error */
        Py_LeaveRecursiveCall();
    }
    Py_DECREF(hash);
    return h;
}

/* Whether ``tp`` (a heap type at its creation, its ht_module this module's)
 * now has its own slots: where its own __eq__ / __hash__ is a compiled one
 * and the slot is still the generic one. */
int
dm_compare_own_slots(dm_state *st, PyTypeObject *tp)
{
    PyObject *eq = NULL, *hash = NULL;  /* owned: a lookup can run a key's __eq__ */
    if (dm_dict_get_ref(tp->tp_dict, st->str_eq, &eq) < 0
            || dm_dict_get_ref(tp->tp_dict, st->str_hash, &hash) < 0) {
        Py_XDECREF(eq);
        return -1;
    }
    int own = 0;
    if (eq != NULL && Py_IS_TYPE(eq, st->function_type)
            && ((dm_function *)eq)->kind == &kind_eq
            && tp->tp_richcompare == st->slot_richcompare) {
        tp->tp_richcompare = class_richcompare;
        own = 1;
    }
    if (hash != NULL && Py_IS_TYPE(hash, st->function_type)
            && ((dm_function *)hash)->kind == &kind_hash && tp->tp_hash == st->slot_hash) {
        tp->tp_hash = class_hash;
        own = 1;
    }
    Py_XDECREF(eq);
    Py_XDECREF(hash);
    return own;
}

/* Reads the interpreter's generic slots into ``st`` from a class made here
 * whose __eq__ and __hash__ are plain callables (asdict, already in ``st``). */
int
dm_compare_probe(dm_state *st)
{
    PyObject *ns = Py_BuildValue("{OOOO}", st->str_eq, st->fn_asdict,
                                 st->str_hash, st->fn_asdict);
    PyObject *probe = ns == NULL ? NULL
        : PyObject_CallFunction((PyObject *)&PyType_Type, "s()O", "probe", ns);
    Py_XDECREF(ns);
    if (probe == NULL) {
        return -1;
    }
    st->slot_hash = ((PyTypeObject *)probe)->tp_hash;
    st->slot_richcompare = ((PyTypeObject *)probe)->tp_richcompare;
    st->subtype_dealloc = ((PyTypeObject *)probe)->tp_dealloc;
    Py_DECREF(probe);
    return 0;
}
