/* The per-class options beyond the stdlib (_cache_hash.py, _cached_property.py,
 * gc=False):
 *   cache_hash(name, hash, member)   a __hash__ that keeps ``hash``'s result in
 *                                    the slot of ``member``
 *   cached_property(func, slot)      functools.cached_property for a class
 *                                    without __dict__: the value in a slot
 *   untrack(cls)                     instances of ``cls`` allocated untracked
 *                                    by the cyclic gc
 *
 * The slots are the class's own (laid out by DataClassMeta before the type
 * exists); their member descriptors say where they are. A value is read or
 * stored at the member's offset only in an instance of the member's class (a
 * type check first, as the member descriptor itself does), so a descriptor
 * taken from one class and used on another object raises instead.
 */

#include "speedups.h"

/* The offset of the writable object slot ``member`` (a member descriptor) in
 * instances of its class, or -1 with a TypeError naming ``what``. */
static Py_ssize_t
perclass_slot_offset(PyObject *member, PyObject *what)
{
    if (member == NULL || !Py_IS_TYPE(member, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "%S: not a slot's member descriptor", what);
        return -1;
    }
    PyMemberDef *def = ((PyMemberDescrObject *)member)->d_member;
    if (def->type != T_OBJECT_EX || (def->flags & READONLY)) {
        PyErr_Format(PyExc_TypeError, "%S: not a writable object slot", what);
        return -1;
    }
    return def->offset;
}


/* ------------------------------------------------------------------------ */
/* cache_hash: the compiled __hash__ of a cache_hash=True class               */
/* ------------------------------------------------------------------------ */

typedef struct {
    dm_function head;
    PyObject *hash;      /* owned: the generated __hash__ whose result is kept */
    PyObject *member;    /* owned: the member descriptor of the hash's slot */
    Py_ssize_t offset;   /* of that slot, in instances of the member's class */
} dm_cache_hash;

static const char *const PARAMS_SELF[] = {"self"};

static int
cache_hash_traverse(dm_function *f, visitproc visit, void *arg)
{
    Py_VISIT(((dm_cache_hash *)f)->hash);
    Py_VISIT(((dm_cache_hash *)f)->member);
    return 0;
}

static void
cache_hash_clear(dm_function *f)
{
    Py_CLEAR(((dm_cache_hash *)f)->hash);
    Py_CLEAR(((dm_cache_hash *)f)->member);
}

static const dm_kind kind_cache_hash = {
    PARAMS_SELF, 1, sizeof(dm_cache_hash), cache_hash_traverse, cache_hash_clear, NULL};

/* ``hash(self)``: the kept value, else the generated __hash__'s, then kept.
 * Python's _cache_hash.make_cache_hash. */
static PyObject *
cache_hash_call(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    dm_cache_hash *m = (dm_cache_hash *)self;
    PyObject *obj;  /* borrowed from the caller */
    if (m->head.cleared || m->member == NULL || m->hash == NULL) {
        PyErr_SetString(PyExc_ReferenceError, "compiled function called after it was cleared");
        return NULL;
    }
    if (dm_unpack(&m->head, args, nargsf, kwnames, &obj, 1) < 0) {
        return NULL;
    }
    PyTypeObject *owner = PyDescr_TYPE(m->member);
    if (!PyObject_TypeCheck(obj, owner)) {
        /* the member descriptor's own TypeError */
        return Py_TYPE(m->member)->tp_descr_get(m->member, obj, (PyObject *)Py_TYPE(obj));
    }
    /* Two threads hashing at once both compute it, and keep equal values. */
    PyObject *kept = dm_slot_get(obj, m->offset);
    if (kept != NULL) {
        return kept;
    }
    PyObject *hash = Py_NewRef(m->hash);  /* owned for the call: code runs in it */
    PyObject *value = PyObject_CallOneArg(hash, obj);
    Py_DECREF(hash);
    if (value != NULL && m->member != NULL && PyObject_TypeCheck(obj, PyDescr_TYPE(m->member))) {
        dm_slot_store(obj, m->offset, value);
    }
    return value;
}

/* cache_hash(name, hash, member) -> the compiled __hash__. */
static PyObject *
perclass_cache_hash(PyObject *module, PyObject *args)
{
    dm_state *st = dm_ready(module);
    PyObject *name, *hash, *member;  /* borrowed */
    if (st == NULL || !PyArg_ParseTuple(args, "UOO:cache_hash", &name, &hash, &member)) {
        return NULL;
    }
    Py_ssize_t offset = perclass_slot_offset(member, name);
    if (offset < 0) {
        return NULL;
    }
    if (!PyCallable_Check(hash)) {
        PyErr_SetString(PyExc_TypeError, "cache_hash: the hash must be callable");
        return NULL;
    }
    dm_cache_hash *m = (dm_cache_hash *)dm_function_new(st, &kind_cache_hash,
                                                        cache_hash_call, name);
    if (m == NULL) {
        return NULL;
    }
    m->hash = Py_NewRef(hash);
    m->member = Py_NewRef(member);
    m->offset = offset;
    return (PyObject *)m;
}

/* ------------------------------------------------------------------------ */
/* cached_property: functools.cached_property kept in a slot                  */
/* ------------------------------------------------------------------------ */

/* Tracks ``obj``, an untracked instance other threads may be storing into
 * too: without the GIL, two stores of a container must not both track it
 * (tracking a tracked object is a fatal error), so the check is repeated
 * under the instance's lock. */
static inline void
track_shared(PyObject *obj)
{
#ifdef Py_GIL_DISABLED
    Py_BEGIN_CRITICAL_SECTION(obj);
    if (!PyObject_GC_IsTracked(obj)) {
        PyObject_GC_Track(obj);
    }
    Py_END_CRITICAL_SECTION();
#else
    PyObject_GC_Track(obj);
#endif
}

/* A store of ``value`` into ``obj`` that the library owns but that does not
 * settle the whole instance (a slotted cached_property's, an untrack_atomic
 * class's assignment, issue 41): tracked again where ``value`` is not
 * atomic. */
static inline void
settle_store(PyObject *obj, PyObject *value)
{
    if (value != NULL && !dm_atomic(value) && PyObject_IS_GC(obj)
            && !PyObject_GC_IsTracked(obj)) {
        track_shared(obj);
    }
}

typedef struct {
    PyObject_HEAD
    PyObject *func;      /* owned: computes the value */
    PyObject *attrname;  /* owned str, NULL until __set_name__ */
    PyObject *slot;      /* owned str: the name of the slot that keeps the value */
    PyObject *doc;       /* owned: func.__doc__ */
    PyObject *member;    /* owned: the slot's member descriptor, NULL until __set_name__ */
    Py_ssize_t offset;   /* of that slot, in instances of the member's class */
} dm_cached;

static int
cached_traverse(PyObject *self, visitproc visit, void *arg)
{
    dm_cached *c = (dm_cached *)self;
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(c->func);
    Py_VISIT(c->attrname);
    Py_VISIT(c->slot);
    Py_VISIT(c->doc);
    Py_VISIT(c->member);
    return 0;
}

static int
cached_clear(PyObject *self)
{
    dm_cached *c = (dm_cached *)self;
    Py_CLEAR(c->func);
    Py_CLEAR(c->attrname);
    Py_CLEAR(c->slot);
    Py_CLEAR(c->doc);
    Py_CLEAR(c->member);
    return 0;
}

static void
cached_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    cached_clear(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* The instance ``obj`` whose slot this descriptor may use: 0 when it is one,
 * else -1 with the member descriptor's TypeError (or the stdlib's for a
 * cached_property used before __set_name__). */
static int
cached_check(dm_cached *c, PyObject *obj)
{
    if (c->member == NULL || c->func == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "Cannot use cached_property instance without calling __set_name__ on it.");
        return -1;
    }
    if (!PyObject_TypeCheck(obj, PyDescr_TYPE(c->member))) {
        PyObject *r = Py_TYPE(c->member)->tp_descr_get(c->member, obj, (PyObject *)Py_TYPE(obj));
        Py_XDECREF(r);  /* raises: obj is not an instance of the slot's class */
        return -1;
    }
    return 0;
}

/* ``obj.name``: the kept value, else ``func(obj)``, kept (3.12+'s
 * cached_property, which has no lock); errors from func unchanged. */
static PyObject *
cached_get(PyObject *self, PyObject *obj, PyObject *Py_UNUSED(type))
{
    dm_cached *c = (dm_cached *)self;
    if (obj == NULL || obj == Py_None) {
        return Py_NewRef(self);
    }
    if (cached_check(c, obj) < 0) {
        return NULL;
    }
    PyObject *kept = dm_slot_get(obj, c->offset);
    if (kept != NULL) {
        return kept;
    }
    PyObject *func = Py_NewRef(c->func);  /* owned for the call */
    PyObject *value = PyObject_CallOneArg(func, obj);
    Py_DECREF(func);
    if (value != NULL && cached_check(c, obj) == 0) {
        dm_slot_store(obj, c->offset, value);
        settle_store(obj, value);  /* an untracked instance tracked again */
    }
    else if (value != NULL) {  /* the class was torn down meanwhile */
        Py_CLEAR(value);
    }
    return value;
}

/* ``obj.name = value`` keeps ``value``; ``del obj.name`` forgets the kept
 * value, or raises as for an attribute that is not there. */
static int
cached_set(PyObject *self, PyObject *obj, PyObject *value)
{
    dm_cached *c = (dm_cached *)self;
    if (cached_check(c, obj) < 0) {
        return -1;
    }
    if (value != NULL) {
        dm_slot_store(obj, c->offset, value);
        settle_store(obj, value);
        return 0;
    }
    PyObject *kept = dm_slot_get(obj, c->offset);
    if (kept == NULL) {
        PyErr_Format(PyExc_AttributeError, "'%.100s' object has no attribute '%U'",
                     Py_TYPE(obj)->tp_name, c->attrname);
        return -1;
    }
    Py_DECREF(kept);
    dm_slot_store(obj, c->offset, NULL);
    return 0;
}

/* __set_name__(owner, name): find the slot (laid out by DataClassMeta, in
 * ``owner`` or a base) and take the name, as cached_property does. */
static PyObject *
cached_set_name(PyObject *self, PyObject *args)
{
    dm_cached *c = (dm_cached *)self;
    PyObject *owner, *name;  /* borrowed */
    if (!PyArg_ParseTuple(args, "O!U:__set_name__", &PyType_Type, &owner, &name)) {
        return NULL;
    }
    if (c->slot == NULL) {
        PyErr_SetString(PyExc_ReferenceError, "cached_property used after it was cleared");
        return NULL;
    }
    if (c->attrname != NULL) {
        int same = PyUnicode_Compare(c->attrname, name);
        if (same == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (same != 0) {
            return PyErr_Format(PyExc_TypeError, "Cannot assign the same cached_property "
                                "to two different names (%R and %R).", c->attrname, name);
        }
    }
    PyObject *member = dm_lookup_ref((PyTypeObject *)owner, c->slot);  /* owned */
    if (perclass_slot_offset(member, c->slot) < 0) {
        Py_XDECREF(member);
        return NULL;
    }
    if (!PyType_IsSubtype((PyTypeObject *)owner, PyDescr_TYPE(member))) {
        PyErr_Format(PyExc_TypeError, "%R: the slot %R is not of this class", owner, c->slot);
        Py_DECREF(member);
        return NULL;
    }
    c->offset = ((PyMemberDescrObject *)member)->d_member->offset;
    Py_XSETREF(c->member, member);
    Py_XSETREF(c->attrname, Py_NewRef(name));
    Py_RETURN_NONE;
}

static PyObject *
cached_repr(PyObject *self)
{
    dm_cached *c = (dm_cached *)self;
    return PyUnicode_FromFormat("<cached_property %R in slot %R>",
                                c->attrname ? c->attrname : Py_None,
                                c->slot ? c->slot : Py_None);
}

/* Pickled (its class sent by value: cloudpickle, dill) as the pure backend's
 * unbound SlottedCachedProperty(func, slot), which the arriving class binds
 * as one of its own backend's: never a reference to the member or its class. */
static PyObject *
cached_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    dm_cached *c = (dm_cached *)self;
    dm_state *st = dm_state_of(self);
    if (dm_configured(st) < 0) {
        return NULL;
    }
    if (c->func == NULL || c->slot == NULL) {
        PyErr_SetString(PyExc_ReferenceError, "cached_property used after it was cleared");
        return NULL;
    }
    PyObject *hook = Py_NewRef(st->hook[DM_HOOK_TRAVEL_CACHED]);
    PyObject *func = Py_NewRef(c->func);
    PyObject *slot = Py_NewRef(c->slot);
    PyObject *result = Py_BuildValue("O(OO)", hook, func, slot);
    Py_DECREF(hook);
    Py_DECREF(func);
    Py_DECREF(slot);
    return result;
}

static PyMemberDef cached_members[] = {
    {"func", T_OBJECT, offsetof(dm_cached, func), READONLY, NULL},
    {"attrname", T_OBJECT, offsetof(dm_cached, attrname), READONLY, NULL},
    {"slot", T_OBJECT, offsetof(dm_cached, slot), READONLY, NULL},
    {"__doc__", T_OBJECT, offsetof(dm_cached, doc), 0, NULL},
    {NULL, 0, 0, 0, NULL}
};

static PyMethodDef cached_methods[] = {
    {"__set_name__", cached_set_name, METH_VARARGS, NULL},
    {"__reduce__", cached_reduce, METH_NOARGS, NULL},
    {"__class_getitem__", Py_GenericAlias, METH_O | METH_CLASS, NULL},
    {NULL, NULL, 0, NULL}
};

static PyType_Slot cached_slots[] = {
    {Py_tp_dealloc, cached_dealloc},
    {Py_tp_repr, cached_repr},
    {Py_tp_traverse, cached_traverse},
    {Py_tp_clear, cached_clear},
    {Py_tp_members, cached_members},
    {Py_tp_methods, cached_methods},
    {Py_tp_descr_get, cached_get},
    {Py_tp_descr_set, cached_set},
    {0, NULL}
};

static PyType_Spec cached_spec = {
    .name = "dataclass_meta._speedups.slotted_cached_property",
    .basicsize = sizeof(dm_cached),
    .flags = (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE
              | Py_TPFLAGS_DISALLOW_INSTANTIATION),
    .slots = cached_slots,
};

PyTypeObject *
dm_cached_type_create(PyObject *module)
{
    return (PyTypeObject *)PyType_FromModuleAndSpec(module, &cached_spec, NULL);
}

/* cached_property(func, slot) -> the descriptor, bound to its slot by
 * __set_name__ when the class is made. */
static PyObject *
perclass_cached_property(PyObject *module, PyObject *args)
{
    dm_state *st = dm_ready(module);
    PyObject *func, *slot;  /* borrowed */
    if (st == NULL || !PyArg_ParseTuple(args, "OU:cached_property", &func, &slot)) {
        return NULL;
    }
    if (!PyCallable_Check(func)) {
        PyErr_SetString(PyExc_TypeError, "cached_property: func must be callable");
        return NULL;
    }
    PyObject *doc = PyObject_GetAttrString(func, "__doc__");  /* owned */
    if (doc == NULL) {
        return NULL;
    }
    PyTypeObject *tp = st->cached_type;
    dm_cached *c = (dm_cached *)tp->tp_alloc(tp, 0);  /* zero-filled, tracked */
    if (c == NULL) {
        Py_DECREF(doc);
        return NULL;
    }
    c->func = Py_NewRef(func);
    c->slot = Py_NewRef(slot);
    c->doc = doc;  /* steals */
    return (PyObject *)c;
}

/* ------------------------------------------------------------------------ */
/* gc=False: instances the cyclic gc never tracks                            */
/* ------------------------------------------------------------------------ */

/* The allocation of every instance of a gc=False class (object.__new__,
 * the class's own construction, copy and pickle all allocate through
 * tp_alloc), never tracked: PyType_GenericAlloc's object (zero-filled, the
 * type's reference taken) made by PyObject_GC_New, which does not track,
 * where the instance is only its fixed-size struct (slots, no dict or
 * weakref list managed before it); otherwise PyType_GenericAlloc's,
 * untracked at once. */
static PyObject *
untracked_alloc(PyTypeObject *tp, Py_ssize_t nitems)
{
    if (nitems == 0 && dm_only_slots(tp)) {
        return dm_new_untracked(tp);
    }
    PyObject *obj = PyType_GenericAlloc(tp, nitems);
    if (obj != NULL) {
        PyObject_GC_UnTrack(obj);
    }
    return obj;
}

/* A gc=False class whose instances are nothing but slots is made a class the
 * collector does not know at all, as msgspec's gc=False structs are: its
 * instances have no GC header (16 bytes less each) and cost nothing to the
 * collector's bookkeeping when made and freed. CPython's own deallocator for
 * classes, subtype_dealloc, does not release the slots of an instance whose
 * class has no GC (a class statement never makes one), so such a class gets
 * nogc_dealloc below. A subclass made later by a class statement is a GC
 * class again (type.__new__ makes every class one): its instances are
 * tracked unless it is gc=False too; subtype_dealloc releases its own slots,
 * then calls nogc_dealloc for the rest, and subtype_traverse visits every
 * slot, ours included, so a cycle through it is collected as usual. */

static void nogc_dealloc(PyObject *self);

/* Whether instances of ``tp`` are only their slots and every class from
 * ``tp`` up to ``object`` was made by a class statement (subtype_dealloc is
 * ``plain``) or made no-GC here; nothing else can be taken over. */
static int
nogc_layout(PyTypeObject *tp, destructor plain)
{
    if (!dm_only_slots(tp)) {
        return 0;
    }
    for (PyTypeObject *t = tp; t != &PyBaseObject_Type; t = t->tp_base) {
        if (t == NULL || !(t->tp_flags & Py_TPFLAGS_HEAPTYPE)
                || (t->tp_dealloc != plain && t->tp_dealloc != nogc_dealloc)) {
            return 0;
        }
    }
    return 1;
}

/* Releasing an instance releases its fields, which may be instances of such
 * a class too: a chain of a million would nest a million C calls. CPython's
 * trashcan, which bounds that for the GC's classes, needs the GC header; these
 * get one of their own, used only where a field's value is such an instance
 * that this release would free (the common case touches nothing more): up to
 * NOGC_NESTING such releases nest in a thread; past that the value waits, our
 * reference kept, in the thread's backlog, which the outermost of them works
 * off (each release in it may add more). A value of another kind is released
 * as usual: CPython's classes (lists, tuples, dicts, a tracked subclass of
 * ours) have their trashcan. */
#define NOGC_NESTING 100
typedef struct {
    int nesting;           /* releases of fields running in this thread */
    PyObject **backlog;    /* PyMem_Raw, or NULL: references owned */
    Py_ssize_t waiting, room;
} nogc_thread;
static DM_THREAD_LOCAL nogc_thread nogc_this_thread;

/* Releases ``value`` (a reference we own, the last one, to an instance of a
 * no-GC class), nested no deeper than NOGC_NESTING in this thread. */
static void
nogc_release_field(PyObject *value)
{
    nogc_thread *t = &nogc_this_thread;  /* looked up once: each lookup is a call */
    if (t->nesting >= NOGC_NESTING) {
        if (t->waiting == t->room) {
            Py_ssize_t room = t->room ? 2 * t->room : 64;
            PyObject **grown = PyMem_RawRealloc(t->backlog, room * sizeof(PyObject *));
            if (grown == NULL) {
                Py_DECREF(value);  /* no room: released here, one level deeper */
                return;
            }
            t->backlog = grown;
            t->room = room;
        }
        t->backlog[t->waiting++] = value;
        return;
    }
    t->nesting++;
    Py_DECREF(value);
    if (t->nesting == 1) {
        while (t->waiting > 0) {
            Py_DECREF(t->backlog[--t->waiting]);
        }
        PyMem_RawFree(t->backlog);
        t->backlog = NULL;
        t->room = 0;
    }
    t->nesting--;
}

/* The finalizer of ``self`` (refcount 0), run once per instance as PEP 442
 * wants: a no-GC instance has no header for the collector's "finalized" mark,
 * so the address of one that its __del__ resurrected is kept in the module's
 * set until it dies again, when the finalizer is skipped. 1 where it was
 * resurrected (keep it), else 0. The exception being handled, if any, is
 * left as it was. */
static int
nogc_finalize(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    dm_state *st = PyType_IS_GC(type) ? NULL : dm_state_of_class(type);
    if (st == NULL || st->finalized == NULL) {  /* a tracked subclass: its header's mark */
        return PyObject_CallFinalizerFromDealloc(self) < 0;
    }
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *saved = PyErr_GetRaisedException();  /* owned */
#else
    PyObject *saved_type, *saved, *saved_tb;       /* owned */
    PyErr_Fetch(&saved_type, &saved, &saved_tb);
#endif
    PyObject *finalized = Py_NewRef(st->finalized);  /* owned: the finalizer runs code */
    PyObject *key = PyLong_FromVoidPtr(self);        /* owned */
    int seen = key == NULL ? -1 : PySet_Discard(finalized, key);
    if (seen < 0) {
        PyErr_Clear();  /* no memory for the mark: run, as if unmarked */
    }
    int resurrected = 0;
    if (seen != 1) {
        resurrected = PyObject_CallFinalizerFromDealloc(self) < 0;
        if (resurrected && (key == NULL || PySet_Add(finalized, key) < 0)) {
            PyErr_Clear();  /* no mark kept: its finalizer may run again */
        }
    }
    Py_XDECREF(key);
    Py_DECREF(finalized);
#if PY_VERSION_HEX >= 0x030C0000
    PyErr_SetRaisedException(saved);
#else
    PyErr_Restore(saved_type, saved, saved_tb);
#endif
    return resurrected;
}

/* The deallocator of a no-GC class (and, called by subtype_dealloc, of its
 * subclasses' instances): what subtype_dealloc does for a class statement's
 * class, less the GC: the finalizer (a __del__ added to the class later; it
 * may resurrect: nogc_finalize), the weak references, every object slot of
 * every class up to object, then the memory and the instance's reference to
 * its class. */
static void
nogc_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    if (type->tp_finalize != NULL && nogc_finalize(self)) {
        return;  /* resurrected */
    }
    type = Py_TYPE(self);  /* as subtype_dealloc does: __del__ may assign __class__ */
    if (type->tp_weaklistoffset > 0) {
        PyObject_ClearWeakRefs(self);
    }
    for (PyTypeObject *t = type; t != &PyBaseObject_Type; t = t->tp_base) {
        /* a class statement's class: its __slots__' members, as subtype_dealloc
         * clears them (its other members, if any, are read-only or not objects) */
        for (PyMemberDef *member = t->tp_members; member && member->name; member++) {
            if (member->type != T_OBJECT_EX || (member->flags & READONLY)) {
                continue;
            }
            PyObject **slot = dm_slot_addr(self, member->offset);
            PyObject *value = *slot;
            if (value == NULL) {
                continue;
            }
            *slot = NULL;
            if (Py_REFCNT(value) == 1 && Py_TYPE(value)->tp_dealloc == nogc_dealloc) {
                nogc_release_field(value);
            }
            else {
                Py_DECREF(value);
            }
        }
    }
    type->tp_free(self);
    Py_DECREF(type);
}

/* untrack(cls) -> bool: whether instances of ``cls`` are now never tracked:
 * a class of slots alone made one the collector does not know (above), any
 * other heap type allocating as PyType_GenericAlloc does allocating them
 * untracked; True too for a class whose instances the gc already does not
 * know. Called once, as the class is created, before any instance exists. */
static PyObject *
perclass_untrack(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "untrack: a class is required");
        return NULL;
    }
    PyTypeObject *tp = (PyTypeObject *)cls;
    if (!PyType_IS_GC(tp) || tp->tp_alloc == untracked_alloc) {
        Py_RETURN_TRUE;
    }
    if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) || tp->tp_alloc != PyType_GenericAlloc) {
        Py_RETURN_FALSE;
    }
    dm_state *st = PyModule_GetState(module);
    /* A __del__ runs once per instance (PEP 442) by a mark in the GC header:
     * a class with one keeps it. */
    if (st->internals && tp->tp_free == PyObject_GC_Del && tp->tp_finalize == NULL
            && nogc_layout(tp, st->subtype_dealloc)) {
        tp->tp_flags &= ~Py_TPFLAGS_HAVE_GC;
        tp->tp_free = PyObject_Free;
        tp->tp_dealloc = nogc_dealloc;
        Py_RETURN_TRUE;
    }
    tp->tp_alloc = untracked_alloc;
    Py_RETURN_TRUE;
}

/* The tp_setattro of a mutable slotted class with untrack_atomic=True
 * (issue 41): object's store, then an untracked instance tracked again where
 * the value stored is not atomic, as msgspec's Struct does. A gc=False
 * subclass (its tp_alloc untracked_alloc) keeps its instances untracked. */
int
dm_untracking_setattro(PyObject *self, PyObject *name, PyObject *value)
{
    if (PyObject_GenericSetAttr(self, name, value) < 0) {
        return -1;
    }
    if (Py_TYPE(self)->tp_alloc != untracked_alloc) {
        settle_store(self, value);
    }
    return 0;
}

#if PY_VERSION_HEX >= 0x030D0000
/* The wrapper descriptor of object's ``name`` (__setattr__ or __delattr__)
 * made again for ``tp`` around dm_untracking_setattro (owned), or NULL without
 * an exception where object's is not the wrapper this relies on. */
static PyObject *
untracking_descriptor(PyTypeObject *tp, const char *name)
{
    PyObject *own = PyObject_GetAttrString((PyObject *)&PyBaseObject_Type, name);  /* owned */
    if (own == NULL) {
        return NULL;
    }
    PyObject *made = NULL;
    if (Py_IS_TYPE(own, &PyWrapperDescr_Type)
            && ((PyWrapperDescrObject *)own)->d_wrapped == (void *)PyObject_GenericSetAttr) {
        made = PyDescr_NewWrapper(tp, ((PyWrapperDescrObject *)own)->d_base,
                                  (void *)dm_untracking_setattro);
    }
    Py_DECREF(own);
    return made;
}
#endif

/* untracking_setattr(cls) -> bool: ``cls`` assigns through
 * dm_untracking_setattro, it and its subclasses. Both __setattr__ and
 * __delattr__ become wrapper descriptors of it, as a C type's are, so that
 * type's own slot update makes it the class's tp_setattro and gives it to
 * subclasses that define neither (and takes it away from one that does).
 * False, nothing kept, where the class assigns another way (a __setattr__ or
 * __delattr__ of its own or a base's) or the interpreter did not take it. */
static PyObject *
perclass_untracking_setattr(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "untracking_setattr: a class is required");
        return NULL;
    }
    PyTypeObject *tp = (PyTypeObject *)cls;
#if PY_VERSION_HEX < 0x030D0000
    /* Before 3.13, object.__setattr__ refuses an instance whose class has a
     * C-level tp_setattro of its own ("can't apply this __setattr__"): the
     * idiom of a subclass's __setattr__, and of frameworks, would break. */
    (void)module, (void)tp;
    Py_RETURN_FALSE;
#else
    if (tp->tp_setattro == dm_untracking_setattro) {
        Py_RETURN_TRUE;  /* a base's, inherited */
    }
    dm_state *st = PyModule_GetState(module);
    if (!st->internals || !(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) || !PyType_IS_GC(tp)
            || tp->tp_setattro != PyObject_GenericSetAttr) {
        Py_RETURN_FALSE;
    }
    static const char *const names[] = {"__setattr__", "__delattr__"};
    int kept = 0;
    for (; kept < 2; kept++) {
        PyObject *descr = untracking_descriptor(tp, names[kept]);  /* owned */
        if (descr == NULL) {
            break;
        }
        PyObject *key = PyUnicode_InternFromString(names[kept]);  /* owned */
        int rc = key == NULL ? -1 : PyType_Type.tp_setattro(cls, key, descr);
        Py_XDECREF(key);
        Py_DECREF(descr);
        if (rc < 0) {
            break;
        }
    }
    if (kept == 2 && tp->tp_setattro == dm_untracking_setattro) {
        Py_RETURN_TRUE;
    }
    if (PyErr_Occurred()) {
        return NULL;  /* the class statement fails: nothing to undo */
    }
    /* not taken: the class as it was */
    for (int i = 0; i < kept; i++) {
        PyObject *key = PyUnicode_InternFromString(names[i]);  /* owned */
        int rc = key == NULL ? -1 : PyType_Type.tp_setattro(cls, key, NULL);
        Py_XDECREF(key);
        if (rc < 0) {
            return NULL;
        }
    }
    Py_RETURN_FALSE;
#endif
}

/* settle(obj): an instance a library-owned store changed (a slotted cached
 * property kept by Python code) untracked or tracked again (issue 41). */
static PyObject *
perclass_settle(PyObject *Py_UNUSED(module), PyObject *obj)
{
    if (dm_settle(obj) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

PyMethodDef dm_perclass_methods[] = {
    {"cache_hash", perclass_cache_hash, METH_VARARGS,
     "cache_hash(name, hash, member): a __hash__ keeping hash's result in member's slot."},
    {"cached_property", perclass_cached_property, METH_VARARGS,
     "cached_property(func, slot): cached_property keeping its value in the slot."},
    {"untrack", perclass_untrack, METH_O,
     "untrack(cls) -> bool: instances of cls are allocated untracked by the gc."},
    {"untracking_setattr", perclass_untracking_setattr, METH_O,
     "untracking_setattr(cls) -> bool: cls assigns through a __setattr__ that tracks an "
     "untracked instance again where the value is not atomic."},
    {"settle", perclass_settle, METH_O,
     "settle(obj): obj untracked where its class allows and all it holds is atomic, "
     "else tracked."},
    {NULL, NULL, 0, NULL}
};
