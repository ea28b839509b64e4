/* Where an instance's fields live, and each compiled function's cache of it.
 *
 * A field is read from (or stored into) its slot directly where the
 * interpreter would do just that: its name finds an ordinary ``__slots__``
 * member descriptor on the type, and the type has no __getattribute__ (reads)
 * or, unless the store is object.__setattr__'s (frozen), no __setattr__ of its
 * own. Everything else goes through the generic attribute API, which is
 * always right.
 */

#include "speedups.h"

/* ``obj.__class__`` as a new reference: Py_TYPE(obj) unless the type could
 * answer differently (its own __getattribute__/__getattr__ or __class__). */
PyObject *
dm_class_of(dm_state *st, PyObject *obj)
{
    PyTypeObject *tp = Py_TYPE(obj);
    if (tp->tp_getattro == PyObject_GenericGetAttr
            && _PyType_Lookup(tp, st->str_class) == st->object_class) {
        return Py_NewRef((PyObject *)tp);
    }
    return PyObject_GetAttr(obj, st->str_class);
}

/* Whether ``obj.__class__`` is ``type(obj)`` for instances of ``tp``. */
static inline int
layout_plain(dm_state *st, PyTypeObject *tp)
{
    return tp->tp_getattro == PyObject_GenericGetAttr
           && _PyType_Lookup(tp, st->str_class) == st->object_class;
}

/* ``off[i]``: the slot offset of field i of ``names`` in instances of ``tp``,
 * or -1 where the access goes through the type. */
static void
layout_offsets(PyTypeObject *tp, PyObject *names, int access, Py_ssize_t *off)
{
    int usable = access == DM_READ ? tp->tp_getattro == PyObject_GenericGetAttr
                 : access == DM_STORE ? tp->tp_setattro == PyObject_GenericSetAttr
                 : access == DM_STORE_SETTLED ? tp->tp_setattro == PyObject_GenericSetAttr
                                                || tp->tp_setattro == dm_untracking_setattro
                 : 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++) {
        off[i] = -1;
        if (!usable) {
            continue;
        }
        PyObject *descr = dm_lookup_ref(tp, PyTuple_GET_ITEM(names, i));  /* owned */
        if (descr != NULL && Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
            PyMemberDef *def = ((PyMemberDescrObject *)descr)->d_member;
            if (def->type == T_OBJECT_EX && def->flags == 0
                    && PyType_IsSubtype(tp, PyDescr_TYPE(descr))) {
                off[i] = def->offset;
            }
        }
        Py_XDECREF(descr);
    }
}

/* Fills ``cache`` (of the compiled function ``f``) for ``tp`` and the fields
 * ``names``. */
void
dm_layout_fill(dm_function *f, dm_layout_cache *cache, PyObject *names, PyTypeObject *tp,
               int access)
{
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    dm_key_keep(&cache->key, tp, 0);
    cache->plain = layout_plain(dm_state_of(f), tp);
    if (cache->offsets == NULL) {
        cache->offsets = PyMem_Malloc((n ? n : 1) * sizeof(Py_ssize_t));
        if (cache->offsets == NULL) {
            return;  /* no cache: every access generic */
        }
    }
    layout_offsets(tp, names, access, cache->offsets);
    /* _PyType_Lookup gave the type a version tag, unless it cannot have one. */
    dm_key_keep(&cache->key, tp, dm_tag_now(tp));
}

#ifdef Py_GIL_DISABLED
/* dm_layout_of's miss on a free-threaded build: the layout of ``tp`` worked
 * out into ``out``, then published in ``cache`` (the seqlock's writer) unless
 * another thread is writing it, or ``tp`` had no tag or changed meanwhile (its
 * tag, read before and after the lookups, differs: what was found may be
 * stale; the first lookup gives it one, so the next call publishes). */
void
dm_layout_fill_shared(dm_function *f, dm_layout_cache *cache, PyObject *names,
                      PyTypeObject *tp, int access, dm_layout *out)
{
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    unsigned int before = dm_tag_now(tp);
    Py_ssize_t local[DM_SMALL];
    Py_ssize_t *off = n <= DM_SMALL ? local : PyMem_Malloc((n ? n : 1) * sizeof(Py_ssize_t));
    out->key.type = tp;
    out->key.tag = 0;
    out->plain = layout_plain(dm_state_of(f), tp);
    out->direct = 0;
    if (off == NULL) {
        return;  /* no layout: every access generic */
    }
    layout_offsets(tp, names, access, off);
    unsigned int tag = dm_tag_now(tp);
    if (n <= DM_SMALL) {
        memcpy(out->off, off, n * sizeof(Py_ssize_t));
        out->direct = 1;
        /* A tag of 0 is never current: this layout serves this call only. */
        out->key.tag = tag == before ? tag : 0;
    }
    uint32_t seq = _Py_atomic_load_uint32_relaxed(&cache->seq);
    if (tag != 0 && tag == before && (seq & 1) == 0
            && _Py_atomic_compare_exchange_uint32(&cache->seq, &seq, seq + 1)) {
        _Py_atomic_fence_release();
        Py_ssize_t *kept = cache->offsets;  /* only writers change it */
        if (kept == NULL) {
            kept = PyMem_Malloc((n ? n : 1) * sizeof(Py_ssize_t));
            _Py_atomic_store_ptr_relaxed(&cache->offsets, kept);
        }
        if (kept != NULL) {
            for (Py_ssize_t i = 0; i < n; i++) {
                _Py_atomic_store_ssize_relaxed(&kept[i], off[i]);
            }
            dm_key_keep(&cache->key, tp, tag);
            _Py_atomic_store_int_relaxed(&cache->plain, out->plain);
        }
        _Py_atomic_store_uint32_release(&cache->seq, seq + 2);
    }
    if (off != local) {
        PyMem_Free(off);
    }
}
#endif

/* The tuple of the fields' values, as ``tuple_getter(names)(obj)``. */
PyObject *
dm_field_tuple(dm_function *f, dm_layout_cache *cache, PyObject *names, PyObject *obj)
{
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    PyObject *t = PyTuple_New(n);
    if (t == NULL) {
        return NULL;
    }
    dm_layout L;  /* after the allocation, whose collection may change the class */
    dm_layout_of(f, cache, names, Py_TYPE(obj), DM_READ, &L);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = dm_read_field(obj, PyTuple_GET_ITEM(names, i), DM_OFFSET(L, i));
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);  /* steals v */
    }
    return t;
}

/* A constructor's ``names``: a tuple of strings. */
int
dm_check_names(PyObject *names)
{
    if (!PyTuple_CheckExact(names)) {
        PyErr_SetString(PyExc_TypeError, "names must be a tuple");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++) {
        if (!PyUnicode_Check(PyTuple_GET_ITEM(names, i))) {
            PyErr_SetString(PyExc_TypeError, "names must be strings");
            return -1;
        }
    }
    return 0;
}
