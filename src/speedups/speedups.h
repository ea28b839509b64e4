/* dataclass_meta._speedups: the generated methods as C-level closures.
 *
 * The pure-Python closures in _methods.py and _init.py are the reference; this
 * extension provides the same methods as objects of one callable type,
 * ``compiled_function``, made once per class at class creation. Each holds what
 * its Python factory would capture (field names, defaults, the class, ...),
 * is called through vectorcall and binds as a method. No source text, no code
 * objects, nothing executed.
 *
 * The sources, one concern each (cross-file names start with ``dm_``, all
 * else is static):
 *   module.c    the module: multi-phase init, its state, the constructors
 *   function.c  the compiled_function type: head, function-like attributes
 *   args.c      binding a call's arguments; the interpreter's call-error texts
 *   layout.c    where an instance's fields live (slot offsets), and its cache
 *   compare.c   __eq__, the orderings, __hash__
 *   repr.c      __repr__ with reprlib's recursion guard
 *   init.c      __init__
 *   frozen.c    a frozen class's __setattr__ / __delattr__
 *   functions.c asdict / astuple
 *   construct.c a class's own vectorcall: C(...) runs the compiled __init__
 *               (or stores into the slots), by a plan kept per class
 *   replace.c   __replace__ and what replace() calls
 *   perclass.c  cache_hash, cached_property in a slot, gc=False
 *   wire.c      __reduce_ex__'s compact pickle, and its loader
 *   internals.c what is assumed of CPython beyond its API, probed at exec
 *
 * References: a field marked "owned" holds a strong reference released by its
 * kind's clear(); "borrowed" is said where it is not. Every Python object the
 * extension keeps lives in the module's state or in a compiled function; no C
 * static holds one, so each (sub)interpreter has its own.
 *
 * Free-threaded builds (PEP 703, Py_GIL_DISABLED; the module declares
 * Py_MOD_GIL_NOT_USED there): whatever several threads can reach is immutable
 * once published (a compiled function's payload, the module's state after
 * configure()), per thread (repr's recursion guard), or guarded: a class's
 * construction plan is published once and kept (construct.c), the layout
 * cache is a seqlock, an instance's slots are read and stored under its
 * critical section (as the member descriptors do), a function's lazily made
 * __signature__ under the function's. With the GIL each guard compiles to
 * nothing, and every path is the one it was.
 */

#ifndef DATACLASS_META_SPEEDUPS_H
#define DATACLASS_META_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* A rare path kept out of line: inlined into a hot caller, it makes that
 * caller save registers on every call (a class call's plan miss did). */
#if defined(__GNUC__) || defined(__clang__)
#  define DM_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#  define DM_NOINLINE __declspec(noinline)
#else
#  define DM_NOINLINE
#endif

/* Critical sections (3.13+) are no-ops with the GIL; before 3.13 there are none. */
#if PY_VERSION_HEX < 0x030D0000
#define Py_BEGIN_CRITICAL_SECTION(op) {
#define Py_END_CRITICAL_SECTION() }
#endif

/* An int set once (by the first call) and read by every call after: on a
 * free-threaded build the store publishes what was set before it. */
#ifdef Py_GIL_DISABLED
#define DM_LOAD_ACQUIRE_INT(p) _Py_atomic_load_int_acquire(p)
#define DM_STORE_RELEASE_INT(p, v) _Py_atomic_store_int_release((p), (v))
#else
#define DM_LOAD_ACQUIRE_INT(p) (*(p))
#define DM_STORE_RELEASE_INT(p, v) (*(p) = (v))
#endif

/* ``dict[key]`` as a new reference in ``*value``: 1 found, 0 missing, -1 an
 * error. 3.13+'s PyDict_GetItemRef: a borrowed item could be freed by another
 * thread on a free-threaded build. */
static inline int
dm_dict_get_ref(PyObject *dict, PyObject *key, PyObject **value)
{
#if PY_VERSION_HEX >= 0x030D0000
    return PyDict_GetItemRef(dict, key, value);
#else
    *value = Py_XNewRef(PyDict_GetItemWithError(dict, key));
    return *value != NULL ? 1 : PyErr_Occurred() ? -1 : 0;
#endif
}

/* ------------------------------------------------------------------------ */
/* The contract with the Python side                                         */
/* ------------------------------------------------------------------------ */

/* Everything the package hands the core is read by attribute, and each
 * attribute's name is written here only (the Python side writes them once
 * too, in _backend.py: PLAN_ATTRS and HOOKS; the module exports these lists
 * as ``PLAN_ATTRS`` and ``HOOK_ATTRS`` for the tests to compare):
 *
 *   a plan: each constructor ``kind(name, plan)`` reads what its method needs
 *   of the class (``_plan.Plan``; init reads ``_init.InitPlan``) once, at class
 *   creation, into the method's own fields: no call reads a plan;
 *
 *   the hooks: ``configure(hooks)``, called once when the package loads the
 *   module, reads the callbacks and constants the core calls or compares
 *   with into the module's state. Nothing that needs them runs before. */
#define DM_PLAN_ATTRS(X)                                                      \
    X(CLS, "cls")                       /* frozen, replace */                 \
    X(FIELD_NAMES, "field_names")       /* frozen */                          \
    X(REPR_NAMES, "repr_names")         /* repr */                            \
    X(COMPARE_NAMES, "compare_names")   /* eq, order */                       \
    X(HASH_NAMES, "hash_names")         /* hash */                            \
    X(NAMES, "names")                   /* init, from here on */              \
    X(N_POSITIONAL, "n_positional")                                           \
    X(DEFAULTS, "defaults")                                                   \
    X(STEPS, "steps")                                                         \
    X(INITVARS, "initvars")                                                   \
    X(UNBOUND, "unbound")                                                     \
    X(FROZEN, "frozen")                                                       \
    X(HAS_POST_INIT, "has_post_init")                                         \
    X(BINDER, "binder")                                                       \
    X(TAKE_SELF, "take_self")                                                 \
    X(CONVERTERS, "converters")                                               \
    X(VALIDATIONS, "validations")                                             \
    X(DIRECT, "direct")                                                       \
    X(UNTRACK, "untrack")

#define DM_HOOK_ATTRS(X)                                                      \
    X(SIGNATURE, "signature")           /* params -> a small method's Signature */ \
    X(ATTACH, "attach")                 /* attach() of a non-compiled function */  \
    X(ATOMIC_TYPES, "atomic_types")     /* frozenset: asdict keeps them as is */   \
    X(NAMES_CACHE, "names_cache")       /* dict: the field-name cache */           \
    X(NAMES_OF, "names_of")             /* (cls, fields) -> names, on a miss */    \
    X(CONTAINER, "container")           /* asdict of any other container */        \
    X(FIELDS, "fields")                 /* fields() called otherwise than (x) */   \
    X(FIELD_MARKER, "field_marker")     /* dataclasses._FIELD */                   \
    X(REPLACE_UNREGISTERED, "replace_unregistered") /* replace() without entry */  \
    X(REPLACE_PREPARE, "replace_prepare") /* (cls, own) -> fast path, or None */   \
    X(REPLACE_BY_FIELDS, "replace_by_fields") /* (self, changes, fields) */        \
    X(FROZEN_ERROR, "frozen_error")     /* FrozenInstanceError */                  \
    X(FACTORY_MARKER, "factory_marker") /* a default: its factory is due */        \
    X(NO_DEFAULT, "no_default")         /* a default: none */                      \
    X(KEPT, "kept")                     /* replace()'s unconverted value's type */ \
    X(NOTE_FAILURE, "note_failure")     /* (exc, self, name, validating): a note */ \
    X(TRAVEL_METHOD, "travel_method")   /* a compiled function's __reduce__ target */ \
    X(TRAVEL_CACHED, "travel_cached")   /* a slotted cached_property's, unbound */ \
    X(WIRE_ROUTE, "wire_route")         /* (cls) -> how its instances pickle now */ \
    X(WIRE_LOAD, "wire_load")           /* (cls, names, values): a loader's slow path */ \
    X(WIRE_LOADER, "wire_loader")       /* a loader's __reduce__ target */

#define DM_PLAN_ID(id, text) DM_PLAN_##id,
#define DM_HOOK_ID(id, text) DM_HOOK_##id,
enum { DM_PLAN_ATTRS(DM_PLAN_ID) DM_PLAN_COUNT };
enum { DM_HOOK_ATTRS(DM_HOOK_ID) DM_HOOK_COUNT };
#undef DM_PLAN_ID
#undef DM_HOOK_ID

/* Storage of which each thread has its own (repr's guard, gc=False's
 * deallocation backlog). */
#if defined(_MSC_VER)
#define DM_THREAD_LOCAL __declspec(thread)
#else
#define DM_THREAD_LOCAL _Thread_local
#endif

/* ------------------------------------------------------------------------ */
/* Per-class caches: one key, one rule                                       */
/* ------------------------------------------------------------------------ */

/* Every decision the core keeps about a class (a compiled function's layout
 * cache, compare.c's and replace.c's tables, the construction plan, replace's
 * copy, the wire's route and slots, __init__'s fresh stores) is kept under
 * the class's version tag, and holds while the class still has that tag:
 * CPython gives a type a new tag whenever it or a base changes (an attribute
 * set or deleted, __bases__ assigned), and from 3.12 on never gives one
 * twice in an interpreter. That is the one rule and the one invalidation:
 * nothing is ever cleared by hand, and a type without a tag (0) never
 * matches. What the tag does not cover (the metaclass's __call__, tp_new,
 * the abstract flag) each caller checks per call (dm_calls_as_type). */

#if PY_VERSION_HEX >= 0x030D0000
/* 3.13+: Py_TPFLAGS_VALID_VERSION_TAG is unused; a tag of 0 means none. */
#define DM_HAS_VERSION_TAG(tp) ((tp)->tp_version_tag != 0)
#else
#define DM_HAS_VERSION_TAG(tp) (((tp)->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) != 0)
#endif

/* A type's version tag, read as another thread may be assigning it. */
#ifdef Py_GIL_DISABLED
#define DM_VERSION_TAG(tp) _Py_atomic_load_uint_relaxed(&(tp)->tp_version_tag)
#else
#define DM_VERSION_TAG(tp) ((tp)->tp_version_tag)
#endif

/* The tag of ``tp`` now, or 0 where it has none. Read before a lookup, it is
 * the tag what the lookup finds is valid at (a lookup gives a type a tag:
 * read after it where the type had none). */
static inline unsigned int
dm_tag_now(PyTypeObject *tp)
{
    unsigned int tag = DM_VERSION_TAG(tp);
    return DM_HAS_VERSION_TAG(tp) ? tag : 0;
}

/* The rule: what was kept at ``tag`` holds for ``tp`` now. */
static inline int
dm_tag_holds(PyTypeObject *tp, unsigned int tag)
{
    return tag != 0 && dm_tag_now(tp) == tag;
}

/* The key of a cache kept for one type among many (a compiled function
 * called on instances of several subclasses): the type, compared by
 * address only (borrowed), and its tag. On a free-threaded build its fields
 * are read and written atomically; a cache with more than a word behind its
 * key publishes it under its own lock (layout.c's seqlock). */
typedef struct {
    PyTypeObject *type;
    unsigned int tag;
} dm_class_key;

/* Whether ``key`` was kept for ``tp`` at ``tag``, its tag now. */
static inline int
dm_key_holds_at(const dm_class_key *key, PyTypeObject *tp, unsigned int tag)
{
#ifdef Py_GIL_DISABLED
    return tag != 0 && _Py_atomic_load_ptr_relaxed(&((dm_class_key *)key)->type) == tp
           && _Py_atomic_load_uint_relaxed(&((dm_class_key *)key)->tag) == tag;
#else
    return tag != 0 && key->type == tp && key->tag == tag;
#endif
}

static inline int
dm_key_holds(const dm_class_key *key, PyTypeObject *tp)
{
    return dm_key_holds_at(key, tp, dm_tag_now(tp));
}

/* Keeps ``key`` for ``tp`` at ``tag`` (0: for none, which never holds). */
static inline void
dm_key_keep(dm_class_key *key, PyTypeObject *tp, unsigned int tag)
{
#ifdef Py_GIL_DISABLED
    _Py_atomic_store_ptr_relaxed(&key->type, tag != 0 ? tp : NULL);
    _Py_atomic_store_uint_relaxed(&key->tag, tag);
#else
    key->type = tag != 0 ? tp : NULL;
    key->tag = tag;
#endif
}

/* ``tp.<name>`` found along the MRO, as a new reference, or NULL (no
 * exception). Without the GIL a borrowed result could be released by another
 * thread that replaces the attribute before we take our reference: there the
 * interpreter takes it inside the lookup. */
static inline PyObject *
dm_lookup_ref(PyTypeObject *tp, PyObject *name)
{
#ifdef Py_GIL_DISABLED
    return _PyType_LookupRef(tp, name);
#else
    return Py_XNewRef(_PyType_Lookup(tp, name));
#endif
}

/* Whether type.__call__ of ``tp`` would run object.__new__ and then
 * __init__: what the version tag of ``tp`` does not cover (the metaclass's
 * __call__), or what a per-class decision must see at every call. */
static inline int
dm_calls_as_type(PyTypeObject *tp)
{
    return Py_TYPE(tp)->tp_call == PyType_Type.tp_call     /* no metaclass __call__ */
           && tp->tp_new == PyBaseObject_Type.tp_new       /* no __new__ */
           && (tp->tp_flags & Py_TPFLAGS_IS_ABSTRACT) == 0;
}

/* compare.c's and replace.c's tables: what a call on an instance found by
 * looking its class up (its compiled __eq__, __hash__, or what replace()
 * calls), kept so that the next call on that class compares one key in place
 * of the lookups. While the key holds, the dicts of the MRO are as they were,
 * so ``fn`` (borrowed) is still held by one of them. With the GIL only,
 * 3.12+: without it, a borrowed object could be released by another thread
 * between the key's test and the call (those builds, and 3.10/3.11, whose
 * tags can be given twice, look up on every call). Direct-mapped by the
 * type's address: a collision costs a lookup. */
#if PY_VERSION_HEX >= 0x030C0000 && !defined(Py_GIL_DISABLED)
#define DM_CLASS_CACHE 1
#else
#define DM_CLASS_CACHE 0
#endif
#define DM_CLASS_ENTRIES 64

typedef struct {
    dm_class_key key;
    PyObject *fn;        /* borrowed: see above */
} dm_class_entry;

static inline dm_class_entry *
dm_class_entry_of(dm_class_entry *table, PyTypeObject *tp)
{
    uintptr_t a = (uintptr_t)tp;
    return &table[((a >> 4) ^ (a >> 11)) & (DM_CLASS_ENTRIES - 1)];
}

/* The ``fn`` kept for ``tp`` in ``table``, or NULL. */
static inline PyObject *
dm_class_cached(dm_class_entry *table, PyTypeObject *tp)
{
    dm_class_entry *e = dm_class_entry_of(table, tp);
    return dm_key_holds(&e->key, tp) ? e->fn : NULL;
}

/* Keeps ``fn``, found by a lookup on ``tp`` that ran no code since it began
 * (so the tag read now is the one the lookup saw), for ``tp``. */
static inline void
dm_class_keep(dm_class_entry *table, PyTypeObject *tp, PyObject *fn)
{
    dm_class_entry *e = dm_class_entry_of(table, tp);
    e->fn = fn;
    dm_key_keep(&e->key, tp, dm_tag_now(tp));
}

/* ------------------------------------------------------------------------ */
/* Module state                                                              */
/* ------------------------------------------------------------------------ */

typedef struct {
    PyTypeObject *function_type;  /* owned: compiled_function */
    PyTypeObject *cached_type;    /* owned: slotted_cached_property (perclass.c) */
    PyObject *object_class;       /* owned: object.__dict__['__class__'] */
    PyObject *plan_attr[DM_PLAN_COUNT];  /* owned, interned: DM_PLAN_ATTRS */
    PyObject *hook_attr[DM_HOOK_COUNT];  /* owned, interned: DM_HOOK_ATTRS */
    PyObject *hook[DM_HOOK_COUNT];       /* owned: what configure() read, else NULL */
    int configured;               /* hook[] is filled (configure() ran, no m_clear since) */
    PyObject *fn_asdict, *fn_astuple;  /* owned: this module's own, for the container hook */
    /* owned, interned */
    PyObject *str_class, *str_qualname, *str_post_init, *str_setattr, *str_delattr, *str_init;
    PyObject *str_signature, *str_annotations, *str_annotate, *str_empty, *str_dots;
    PyObject *str_dataclass_fields, *str_items, *str_replace_entry, *str_field_type, *str_values;
    PyObject *str_module, *str_value, *str_eq, *str_hash;
    /* the interpreter's generic slots (slot_tp_hash, slot_tp_richcompare)
     * and a class statement's deallocator (subtype_dealloc), read once from a
     * probe class: a class's own slots fall back to them; gc=False replaces
     * the deallocator only where it is that one (perclass.c) */
    hashfunc slot_hash;
    richcmpfunc slot_richcompare;
    destructor subtype_dealloc;
#if DM_CLASS_CACHE
    /* issue 34: per-class decisions (borrowed pointers; zero-filled with the
     * state, nothing to traverse or clear): compare.c's own slots and
     * replace.c's public replace(), one table each */
    dm_class_entry eq_classes[DM_CLASS_ENTRIES];
    dm_class_entry hash_classes[DM_CLASS_ENTRIES];
    dm_class_entry replace_classes[DM_CLASS_ENTRIES];
#endif
    /* Construction: the type of a class's construction plan (construct.c) */
    PyTypeObject *plan_type;      /* owned: construct_plan */
    /* gc=False (perclass.c): the addresses of no-GC instances whose __del__
     * ran and resurrected them, PEP 442's "once" mark, which such an
     * instance has no collector header to keep */
    PyObject *finalized;          /* owned: a set of ints */
    /* internals.c: CPython's internals are as the core assumes (its probe);
     * 0: construct() and untrack() decline what rests on them */
    int internals;
} dm_state;

/* ``plan.<attribute id>`` (a new reference), at class creation only. */
#define dm_plan_get(st, plan, id) PyObject_GetAttr((plan), (st)->plan_attr[DM_PLAN_##id])

/* Whether configure() filled the hooks of ``st``: 0; else -1 with a
 * RuntimeError (not configured yet, or the module was cleared, which empties
 * the whole state). */
int dm_configured(dm_state *st);

/* The state of ``module`` where dm_configured(), else NULL: the one check
 * that each of the module's functions using its state makes first (every
 * constructor among them), so nothing runs on an unconfigured or cleared
 * state. */
dm_state *dm_ready(PyObject *module);

/* The state of the module that made ``tp``, one of this module's types:
 * PyType_GetModuleState works from 3.9 on. The types are final (no
 * Py_TPFLAGS_BASETYPE), so an object's exact type is always the defining one
 * and PyType_GetModuleByDef (3.11+) is not needed. */
#define dm_state_of_type(tp) ((dm_state *)PyType_GetModuleState(tp))
#define dm_state_of(obj) dm_state_of_type(Py_TYPE(obj))

/* The module's definition: construct.c recognises its module by it. */
extern PyModuleDef dm_module_def;

/* ------------------------------------------------------------------------ */
/* The compiled function: a shared head and a payload per kind               */
/* ------------------------------------------------------------------------ */

typedef struct dm_function dm_function;

/* What differs between kinds of compiled function. */
typedef struct {
    const char *const *params;         /* the Python closure's parameters, or NULL */
    Py_ssize_t nparams;
    Py_ssize_t size;                   /* sizeof the kind's struct */
    int (*traverse)(dm_function *, visitproc, void *);
    void (*clear)(dm_function *);      /* drops the payload's references */
    void (*release)(dm_function *);    /* frees its PyMem buffers at dealloc, or NULL */
} dm_kind;

/* The head every kind's struct starts with. The object is variable-sized:
 * ``ob_size`` counts the bytes of the kind's payload after the head, so that
 * each kind is allocated at its own size, zero-filled, as one type. */
struct dm_function {
    PyObject_VAR_HEAD
    vectorcallfunc vectorcall;
    /* function-like attributes, all owned (NULL reads as None) */
    PyObject *name;
    PyObject *qualname;
    PyObject *module;
    PyObject *doc;
    PyObject *objclass;      /* __objclass__: the class it is attached to */
    PyObject *dict;          /* owned, created on first attribute store */
    PyObject *weakreflist;
    PyObject *signature_build; /* owned: builds __signature__ on its first read
                                  (make_init), or NULL; kept, as the mark of a
                                  generated __init__, until __signature__ is set */
    const dm_kind *kind;
    int cleared;             /* tp_clear ran (a garbage cycle): not callable */
};

/* A new compiled function of ``kind`` named ``name``: allocated at the kind's
 * size, its payload zero-filled (which every traverse and clear accepts), and
 * tracked by the gc; the caller fills the payload. */
dm_function *dm_function_new(dm_state *st, const dm_kind *kind, vectorcallfunc call,
                             PyObject *name);
PyTypeObject *dm_function_type_create(PyObject *module);

/* Each method runs as a Python function would: under the recursion limit
 * (a field holding its own instance makes hash() recurse; Python code gets a
 * RecursionError, and so does this), and not after tp_clear emptied it. */
#define DM_GUARDED(fn, type)                                                   \
    static PyObject *                                                          \
    fn(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) \
    {                                                                          \
        if (((dm_function *)self)->cleared) {                                  \
            PyErr_SetString(PyExc_ReferenceError,                              \
                            "compiled function called after it was cleared");  \
            return NULL;                                                       \
        }                                                                      \
        if (Py_EnterRecursiveCall("")) {                                       \
            return NULL;                                                       \
        }                                                                      \
        PyObject *result = fn##_body((type *)self, args, nargsf, kwnames);     \
        Py_LeaveRecursiveCall();                                               \
        return result;                                                         \
    }

/* ------------------------------------------------------------------------ */
/* Arguments (args.c)                                                        */
/* ------------------------------------------------------------------------ */

int dm_unpack_slow(dm_function *f, PyObject *const *args, size_t nargsf, PyObject *kwnames,
                   PyObject **out);

/* Binds a call the way the interpreter binds ``def f(<kind's params>)`` (no
 * defaults) into ``out`` (borrowed references), raising its TypeError texts.
 * ``n`` is the kind's parameter count, a constant at each call site, so that
 * the common case (``n`` positional arguments) compiles to ``n`` copies. */
static inline int
dm_unpack(dm_function *f, PyObject *const *args, size_t nargsf, PyObject *kwnames,
          PyObject **out, Py_ssize_t n)
{
    if (PyVectorcall_NARGS(nargsf) == n && kwnames == NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            out[i] = args[i];
        }
        return 0;
    }
    return dm_unpack_slow(f, args, nargsf, kwnames, out);
}

int dm_bind_fast(PyObject *names, Py_ssize_t npos, PyObject *defaults, PyObject *no_default,
                 PyObject *const *args, Py_ssize_t given, PyObject *kwnames, PyObject **values);
PyObject *dm_bind_slow(PyObject *binder, Py_ssize_t n, PyObject *const *args,
                       Py_ssize_t given, PyObject *kwnames);

/* ------------------------------------------------------------------------ */
/* Field layout (layout.c)                                                   */
/* ------------------------------------------------------------------------ */

#define DM_SMALL 16

/* How the fields are accessed: read, stored with setattr(), stored with
 * setattr() by a caller that settles the instance afterwards (a store past
 * an untrack_atomic class's __setattr__ is one), or stored with
 * object.__setattr__ (frozen). */
enum { DM_READ, DM_STORE, DM_STORE_SETTLED, DM_STORE_OBJECT };

/* The tp_setattro of a mutable slotted class with untrack_atomic=True
 * (perclass.c): object's store, then the instance tracked again where the
 * value is not atomic. */
int dm_untracking_setattro(PyObject *self, PyObject *name, PyObject *value);

/* A compiled function's cache of one type's layout for its fields: for
 * instances of exactly the key's type while the key holds, ``offsets[i]`` is
 * the offset of field i's slot, or -1 where the attribute is read or stored
 * generically. */
typedef struct {
    dm_class_key key;
    int plain;               /* obj.__class__ is type(obj) for ``type`` */
    Py_ssize_t *offsets;     /* PyMem array, one per name */
#ifdef Py_GIL_DISABLED
    /* A seqlock: odd while one thread rewrites the cache. A reader copies the
     * fields, then finds ``seq`` unchanged or misses; a writer that finds it
     * odd leaves the cache to the other (its own result serves its call). */
    uint32_t seq;
#endif
} dm_layout_cache;

/* What a call may use of an instance's layout: copied out of the cache onto
 * the caller's stack, because the cache may be recomputed for another type by
 * a nested call (a field's __eq__ comparing instances of a subclass, a default
 * factory constructing one) while this call runs. */
typedef struct {
    dm_class_key key;          /* what off[] is for (a tag of 0: this call only) */
    int plain;                 /* obj.__class__ is type(obj) */
    int direct;                /* off[] is valid */
    Py_ssize_t off[DM_SMALL];  /* slot offset per field, or -1: generic access */
} dm_layout;

#define DM_OFFSET(L, i) ((L).direct ? (L).off[i] : -1)

void dm_layout_fill(dm_function *f, dm_layout_cache *cache, PyObject *names, PyTypeObject *tp,
                    int access);
#ifdef Py_GIL_DISABLED
void dm_layout_fill_shared(dm_function *f, dm_layout_cache *cache, PyObject *names,
                           PyTypeObject *tp, int access, dm_layout *out);
#endif
PyObject *dm_class_of(dm_state *st, PyObject *obj);
PyObject *dm_field_tuple(dm_function *f, dm_layout_cache *cache, PyObject *names,
                         PyObject *obj);
int dm_check_names(PyObject *names);

/* The layout of ``tp`` for the fields ``names`` into ``out``, from the
 * function ``f``'s ``cache`` (refilled unless it is for ``tp`` at its current
 * version tag, which changes whenever the type or one of its bases changes).
 * Never fails: the generic path is always right. Inline: the cache hit is
 * on every call of every compiled method. */
static inline void
dm_layout_of(dm_function *f, dm_layout_cache *cache, PyObject *names, PyTypeObject *tp,
             int access, dm_layout *out)
{
#ifdef Py_GIL_DISABLED
    /* The seqlock's reader: a copy of a cache no writer touched meanwhile
     * (3.13+: a tag of 0 means none). */
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    unsigned int tag = dm_tag_now(tp);
    uint32_t seq = _Py_atomic_load_uint32_acquire(&cache->seq);
    Py_ssize_t *offsets = _Py_atomic_load_ptr_relaxed(&cache->offsets);
    if ((seq & 1) == 0 && offsets != NULL && dm_key_holds_at(&cache->key, tp, tag)) {
        out->plain = _Py_atomic_load_int_relaxed(&cache->plain);
        out->direct = n <= DM_SMALL;
        for (Py_ssize_t i = 0; out->direct && i < n; i++) {
            out->off[i] = _Py_atomic_load_ssize_relaxed(&offsets[i]);
        }
        _Py_atomic_fence_acquire();
        if (_Py_atomic_load_uint32_relaxed(&cache->seq) == seq) {
            out->key.type = tp;
            out->key.tag = tag;
            return;
        }
    }
    dm_layout_fill_shared(f, cache, names, tp, access, out);
#else
    if (!dm_key_holds(&cache->key, tp)) {
        dm_layout_fill(f, cache, names, tp, access);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    out->key.type = tp;
    out->key.tag = dm_tag_now(tp);
    out->plain = cache->plain;
    out->direct = cache->offsets != NULL && n <= DM_SMALL;
    if (out->direct) {
        memcpy(out->off, cache->offsets, n * sizeof(Py_ssize_t));
    }
#endif
}

/* Whether ``L`` still describes ``obj``: Python code run since it was made (a
 * default factory, a setattr) may have changed the class (a __setattr__
 * added, a slot replaced by a property) or assigned ``obj.__class__``. */
static inline int
dm_layout_current(const dm_layout *L, PyObject *obj)
{
    return dm_key_holds(&L->key, Py_TYPE(obj));
}

/* Slot access. Every read and store of a slot by its offset goes through
 * two pairs of helpers, on one address computation:
 *
 *   dm_slot_get, dm_slot_store    an instance others may see: a new reference
 *                                 out, the old value released after the
 *                                 store, under the instance's critical
 *                                 section on a free-threaded build (as the
 *                                 member descriptor does);
 *   dm_slot_peek, dm_slot_fill    a borrowed read where nothing can store
 *                                 meanwhile (DM_BORROWED_SLOT_READS, or an
 *                                 instance no one else has yet), and the
 *                                 first store into an empty slot of a fresh
 *                                 instance (stealing the reference). */
static inline PyObject **
dm_slot_addr(PyObject *obj, Py_ssize_t offset)
{
    return (PyObject **)((char *)obj + offset);
}

static inline PyObject *
dm_slot_peek(PyObject *obj, Py_ssize_t offset)
{
    return *dm_slot_addr(obj, offset);
}

static inline void
dm_slot_fill(PyObject *fresh, Py_ssize_t offset, PyObject *value)
{
    *dm_slot_addr(fresh, offset) = value;
}

/* The object in the slot at ``offset`` of ``obj`` as a new reference, or NULL
 * (unset; no exception). On a free-threaded build, under the instance's
 * critical section, which a store through the member descriptor (or
 * dm_slot_store) also holds: the old value is released only after it. */
static inline PyObject *
dm_slot_get(PyObject *obj, Py_ssize_t offset)
{
    PyObject **slot = dm_slot_addr(obj, offset);
#ifdef Py_GIL_DISABLED
    PyObject *v;
    Py_BEGIN_CRITICAL_SECTION(obj);
    v = Py_XNewRef(*slot);
    Py_END_CRITICAL_SECTION();
    return v;
#else
    return Py_XNewRef(*slot);
#endif
}

/* Stores ``value`` (NULL: empties) in the slot at ``offset`` of ``obj``, as
 * the member descriptor's __set__ does; the old value is released after the
 * store (its release may run code). */
static inline void
dm_slot_store(PyObject *obj, Py_ssize_t offset, PyObject *value)
{
    PyObject **slot = dm_slot_addr(obj, offset);
    PyObject *old;
    Py_BEGIN_CRITICAL_SECTION(obj);
    old = *slot;
#ifdef Py_GIL_DISABLED
    _Py_atomic_store_ptr_release(slot, Py_XNewRef(value));
#else
    *slot = Py_XNewRef(value);
#endif
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(old);
}

/* Whether the borrowed slot reads of the fast paths (compare.c's == and hash,
 * replace.c's copy) are safe: with the GIL only (without it, another thread
 * may release a slot's value meanwhile). */
#ifdef Py_GIL_DISABLED
#define DM_BORROWED_SLOT_READS 0
#else
#define DM_BORROWED_SLOT_READS 1
#endif

/* ``getattr(obj, name)`` of a field: its slot directly where ``offset``
 * allows and the slot is set; otherwise the generic lookup (which also
 * raises the interpreter's AttributeError for an unset slot). */
static inline PyObject *
dm_read_field(PyObject *obj, PyObject *name, Py_ssize_t offset)
{
    if (offset >= 0) {
        PyObject *v = dm_slot_get(obj, offset);
        if (v != NULL) {
            return v;
        }
    }
    return PyObject_GetAttr(obj, name);  /* as getattr(): also the error's context */
}

/* ``setattr(obj, name, value)`` (or object.__setattr__ when frozen) of a
 * field: into its slot directly where ``offset`` allows (what the member
 * descriptor's __set__ does), otherwise through the type. */
static inline int
dm_store_field(PyObject *obj, PyObject *name, PyObject *value, Py_ssize_t offset, int frozen)
{
    if (offset >= 0) {
        dm_slot_store(obj, offset, value);
        return 0;
    }
    return frozen ? PyObject_GenericSetAttr(obj, name, value)
                  : PyObject_SetAttr(obj, name, value);
}

/* ``getattr(obj, name)`` that reports a missing attribute (an AttributeError)
 * as 0 with ``*value`` NULL: 1 found, 0 missing, -1 another error. */
static inline int
dm_get_optional_attr(PyObject *obj, PyObject *name, PyObject **value)
{
#if PY_VERSION_HEX >= 0x030D0000
    return PyObject_GetOptionalAttr(obj, name, value);
#else
    return _PyObject_LookupAttr(obj, name, value);
#endif
}

/* ------------------------------------------------------------------------ */
/* Instances the collector need not walk (issue 41; construct.c)             */
/* ------------------------------------------------------------------------ */

/* A frozen slotted class whose __init__ says so (the ``untrack`` plan
 * attribute) leaves an instance untracked while every object slot holds an
 * atomic value: nothing reachable from it can lead back to it, so the
 * collector has nothing to find there (CPython does the same for tuples and
 * dicts of atomic values). The decision is taken again at every store the
 * library owns; the class's construction plan keeps, per version tag, whether
 * its instances qualify and which slots hold objects. */

/* The levels of the ``untrack`` plan attribute: a mutable slotted class
 * (untrack_atomic=True) whose instances an assignment may give a container
 * (its __setattr__ tracks them again); a frozen slotted class, whose
 * untracked instances are atomic values themselves. */
#define DM_UNTRACK_MUTABLE 1
#define DM_UNTRACK_FROZEN 2

/* Whether an untracked instance of ``tp`` is an atomic value: its class is
 * frozen, slotted and untracks, at its tag now. */
int dm_class_atomic(PyTypeObject *tp);

/* Whether ``v`` can never lead back to an object holding it: a value the
 * collector does not track by its type (int, str, float, bytes, None, ...),
 * or an untracked exact tuple or instance of such a class (immutable: what
 * made them untracked still holds). Not a dict: an untracked dict tracks
 * itself again when it gains a container, which a holder would not see. */
static inline int
dm_atomic(PyObject *v)
{
    if (!PyObject_IS_GC(v)) {
        return 1;
    }
    if (PyObject_GC_IsTracked(v)) {
        return 0;
    }
    /* 3.15 leaves a frozenset of atomic values untracked, as every CPython
     * does a tuple: neither can gain an element */
    return PyTuple_CheckExact(v) || PyFrozenSet_CheckExact(v) || dm_class_atomic(Py_TYPE(v));
}

/* Decides again whether ``obj``, an instance of a data class, stays
 * tracked: untracked where its class qualifies and every object slot holds an
 * atomic value, tracked otherwise. Run where a library-owned path has stored
 * into it (the end of __init__, after __post_init__). */
int dm_settle(PyObject *obj);  /* 0, or -1 with an exception (a plan's allocation) */

#ifndef Py_TPFLAGS_MANAGED_DICT  /* 3.10: no managed dict or weakref list */
#define Py_TPFLAGS_MANAGED_DICT 0
#endif
#ifndef Py_TPFLAGS_MANAGED_WEAKREF  /* 3.10, 3.11 */
#define Py_TPFLAGS_MANAGED_WEAKREF 0
#endif

/* Whether an instance of ``tp`` is only its fixed-size struct: slots, no
 * items, no dict or weakref list (managed before it or not; a base's would be
 * ``tp``'s too). */
static inline int
dm_only_slots(PyTypeObject *tp)
{
    return tp->tp_itemsize == 0 && tp->tp_dictoffset == 0
           && !(tp->tp_flags & (Py_TPFLAGS_MANAGED_DICT | Py_TPFLAGS_MANAGED_WEAKREF));
}

/* A fresh instance of ``tp``, a class of slots alone (no managed dict or
 * weakref list before its header, no items), as PyType_GenericAlloc makes
 * it (zero-filled, the type's reference taken) but not tracked: made by
 * PyObject_GC_New, which does not track. */
static inline PyObject *
dm_new_untracked(PyTypeObject *tp)
{
    PyObject *fresh = PyObject_GC_New(PyObject, tp);  /* owned */
    if (fresh != NULL) {
        memset((char *)fresh + sizeof(PyObject), 0, (size_t)tp->tp_basicsize - sizeof(PyObject));
    }
    return fresh;
}

/* ------------------------------------------------------------------------ */
/* The constructors, one per kind (module functions)                         */
/* ------------------------------------------------------------------------ */

/* Each takes ``(name, plan)``: ``name`` is the method's __name__ and, where
 * a kind has variants, picks one (the ordering, __setattr__ or __delattr__,
 * __replace__ or replace); ``plan`` is read by attribute (DM_PLAN_ATTRS). */
PyObject *dm_make_eq(PyObject *module, PyObject *args);
PyObject *dm_make_order(PyObject *module, PyObject *args);
PyObject *dm_make_hash(PyObject *module, PyObject *args);
int dm_compare_probe(dm_state *st);
int dm_compare_own_slots(dm_state *st, PyTypeObject *tp);
dm_state *dm_state_of_class(PyTypeObject *tp);
PyObject *dm_make_repr(PyObject *module, PyObject *args);
PyObject *dm_make_unguarded_repr(PyObject *module, PyObject *args);
PyObject *dm_make_init(PyObject *module, PyObject *args);
extern const dm_kind dm_kind_init;  /* the compiled __init__'s kind */
int dm_init_store_exact(PyObject *init, PyObject *self, PyObject *const *args, Py_ssize_t nargs);
int dm_init_untracks(PyObject *init);
PyObject *dm_init_plain_stores(PyObject *init, PyTypeObject *tp, dm_layout *L);
/* Construction: a class's plan (construct.c) and its fresh route (init.c) */
Py_ssize_t dm_init_fresh_layout(PyObject *init, PyTypeObject *tp, Py_ssize_t *off,
                                Py_ssize_t *index, Py_ssize_t *exact);
int dm_init_bind(PyObject *init, PyObject *const *args, size_t nargsf, PyObject *kwnames,
                 PyObject **values);
int dm_init_fill_fresh(PyObject *init, PyObject *self, const Py_ssize_t *off, unsigned int tag,
                       PyObject *const *values);
PyTypeObject *dm_plan_type_create(PyObject *module);
PyObject *dm_construct(PyObject *module, PyObject *cls);
PyObject *dm_construct_new(PyTypeObject *tp);
PyObject *dm_construct_known(dm_state *st, PyTypeObject *tp, PyObject *init, PyObject **args,
                             Py_ssize_t n);
PyObject *dm_defer_signature(PyObject *module, PyObject *args);
PyObject *dm_attach(PyObject *module, PyObject *args);
PyObject *dm_deferred_signature(PyObject *module, PyObject *obj);
PyObject *dm_make_frozen(PyObject *module, PyObject *args);
PyObject *dm_make_replace(PyObject *module, PyObject *args);
extern PyMethodDef dm_public_replace_def, dm_public_fields_def;  /* the package's own */
PyObject *dm_asdict(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *dm_astuple(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
extern PyMethodDef dm_perclass_methods[];  /* added to the module by module_exec */
/* CPython's internals, probed (internals.c) */
int dm_internals_probe(PyObject *module, dm_state *st);
/* Instances on the wire (wire.c) */
extern PyMethodDef dm_wire_methods[];      /* added to the module by module_exec */
int dm_is_loader(dm_function *f);
PyObject *dm_loader_reduce(dm_function *f);
PyTypeObject *dm_cached_type_create(PyObject *module);

#endif /* DATACLASS_META_SPEEDUPS_H */
