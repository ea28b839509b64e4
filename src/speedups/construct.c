/* A class's own construction: ``C(...)`` runs its __init__ on a
 * fresh instance, without type.__call__'s argument tuple, object.__new__,
 * the __init__ slot's lookup and binding.
 *
 * ``construct(cls)`` sets ``cls->tp_vectorcall``. Calling a class uses it
 * where the metaclass has Py_TPFLAGS_HAVE_VECTORCALL: on 3.12+ a Python
 * metaclass without ``__call__`` inherits it from ``type`` (and loses it
 * when given one). 3.10 and 3.11 give a Python metaclass no such flag,
 * though it inherits type's tp_vectorcall_offset and tp_call; there
 * construct() sets the flag on a metaclass that calls as ``type`` does. A
 * class of that metaclass without a vectorcall of its own (NULL) is still
 * called through tp_call, and a ``__call__`` given to the metaclass later
 * is seen by the check below on every call.
 *
 * Each call first checks that type.__call__ would do just this: the
 * metaclass calls as ``type`` does, ``__new__`` is object's, the class is not
 * abstract (object.__new__ raises then), and ``__init__`` resolves to a
 * compiled __init__ or a plain Python function (a relabelled template, or
 * one written in a class body), which type.__call__ would call bound to the
 * new instance, refusing a result other than None. These read the type's
 * current slots and its plan (below, keyed by the version tag), so a later
 * ``C.__init__ = f``, ``C.__new__ = ...``, a change to a base or
 * ``C.__class__ = M`` counts at once; otherwise the call goes to the
 * metaclass's tp_call as it would have.
 *
 * The module state is reached through the class's ``ht_module`` (which
 * type_dealloc releases): a Python class has none of its own, and the
 * vectorcall receives nothing but the class.
 *
 * The class's plan. What the lookup of ``__init__`` found, and where the
 * compiled __init__'s fields live in a fresh instance, are kept per class in
 * a small object, its construction plan, held in the class's ``tp_cache``:
 * a heap type's PyObject field that CPython keeps for no use of its own
 * ("no longer used"; type_dealloc releases it, type_traverse visits it, and
 * a class made by a class statement starts with NULL: it is not inherited).
 * The plan is valid while the class's version tag is the one it was made at:
 * the tag changes on any assignment to the class or a base (a later
 * ``C.__init__ = f``, ``C.__new__ = ...``, a slot replaced), and a class
 * without one (tag 0) has no valid plan. A call then checks the tag and what
 * the tag does not cover (the metaclass's tp_call, tp_new, the abstract
 * flag) and goes straight to allocating and storing; a miss takes the lookup
 * above and makes the plan anew.
 *
 * Free-threaded builds: the plan is published with a release store of
 * ``tp_cache`` and its tag updated in place (an atomic store) only where
 * nothing else in it changed; a plan replaced for another __init__ stays
 * alive, chained to its successor, for as long as the class (a reader may
 * still hold it), up to CONSTRUCT_MAX_PLANS per class, after which a changed
 * class is constructed through the lookup. Writers are serialised by the
 * class's critical section.
 */

#include "speedups.h"

/* The __init__ (compiled, or a Python function) that type.__call__ would
 * run on a new instance of ``tp`` after object.__new__, as a new reference,
 * or NULL (no exception) where the call must take type.__call__'s path.
 * ``st``: the state of this module. */
static PyObject *
construct_init_in(PyTypeObject *tp, dm_state *st)
{
    if (!dm_calls_as_type(tp)
            || st->str_init == NULL) {  /* the module was cleared (interpreter shutdown) */
        return NULL;
    }
    PyObject *init = dm_lookup_ref(tp, st->str_init);  /* owned; no exception */
    if (init == NULL || Py_IS_TYPE(init, &PyFunction_Type)) {
        return init;
    }
    if (Py_TYPE(init) != st->function_type || ((dm_function *)init)->kind != &dm_kind_init) {
        Py_DECREF(init);
        return NULL;
    }
    return init;
}

/* This module's state where ``module`` (a class's ht_module) is this
 * module, else NULL. */
static dm_state *
construct_state(PyObject *module)
{
    if (module == NULL || PyModule_GetDef(module) != &dm_module_def) {
        return NULL;
    }
    return PyModule_GetState(module);
}

/* ------------------------------------------------------------------------ */
/* The class's plan, in its tp_cache                                         */
/* ------------------------------------------------------------------------ */

#define CONSTRUCT_MAX_PLANS 8  /* free-threaded: plans kept per class (see above) */

typedef struct {
    PyObject_HEAD
    unsigned int tag;          /* the class's version tag it is valid at (not 0) */
    PyObject *init;            /* owned: the class's __init__ at that tag */
    Py_ssize_t nfresh;         /* init's steps, stored at off[] into a fresh
                                  instance; -1: no such route (the init is
                                  called) */
    Py_ssize_t exact;          /* a call with this many positional arguments
                                  stores argument index[s] at off[s], or -1 */
    int plain;                 /* a bound call stores value index[s] at off[s]
                                  (no default factory) */
    Py_ssize_t off[DM_SMALL];
    Py_ssize_t index[DM_SMALL];
    /* issue 41: instances are untracked while every object slot, at scan[],
     * holds an atomic value (0 slots where ``untrack`` is 0); the level,
     * DM_UNTRACK_MUTABLE or DM_UNTRACK_FROZEN, as the class's __init__ says */
    int untrack;
    Py_ssize_t nscan;
    Py_ssize_t scan[DM_SMALL];
#ifdef Py_GIL_DISABLED
    PyObject *prev;            /* owned: the plan this one replaced */
    int depth;                 /* plans in the chain, this one included */
#endif
} construct_plan;

static int
plan_traverse(PyObject *self, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(((construct_plan *)self)->init);
#ifdef Py_GIL_DISABLED
    Py_VISIT(((construct_plan *)self)->prev);
#endif
    return 0;
}

static int
plan_clear(PyObject *self)
{
    Py_CLEAR(((construct_plan *)self)->init);  /* a call then misses */
#ifdef Py_GIL_DISABLED
    Py_CLEAR(((construct_plan *)self)->prev);
#endif
    return 0;
}

static void
plan_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    plan_clear(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyType_Slot plan_slots[] = {
    {Py_tp_dealloc, plan_dealloc},
    {Py_tp_traverse, plan_traverse},
    {Py_tp_clear, plan_clear},
    {0, NULL}
};

static PyType_Spec plan_spec = {
    .name = "dataclass_meta._speedups.construct_plan",
    .basicsize = sizeof(construct_plan),
    .flags = (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE
              | Py_TPFLAGS_DISALLOW_INSTANTIATION),
    .slots = plan_slots,
};

PyTypeObject *
dm_plan_type_create(PyObject *module)
{
    return (PyTypeObject *)PyType_FromModuleAndSpec(module, &plan_spec, NULL);
}

#ifdef Py_GIL_DISABLED
#define PLAN_LOAD(tp) ((construct_plan *)_Py_atomic_load_ptr_acquire(&(tp)->tp_cache))
#define PLAN_TAG(plan) _Py_atomic_load_uint_relaxed(&(plan)->tag)
#else
#define PLAN_LOAD(tp) ((construct_plan *)(tp)->tp_cache)
#define PLAN_TAG(plan) ((plan)->tag)
#endif

/* The plan of ``tp`` where it is current and type.__call__ would do what it
 * says (borrowed: the class keeps it), else NULL. One load and a few
 * compares: every construction starts here. */
static inline construct_plan *
construct_plan_of(PyTypeObject *tp)
{
    construct_plan *plan = PLAN_LOAD(tp);
    if (plan == NULL || Py_TYPE(plan)->tp_dealloc != plan_dealloc
            || !dm_tag_holds(tp, PLAN_TAG(plan))
            || plan->init == NULL || !dm_calls_as_type(tp)) {
        return NULL;
    }
    return plan;
}

/* ------------------------------------------------------------------------ */
/* Untracked while atomic (issue 41)                                         */
/* ------------------------------------------------------------------------ */

/* Whether every object an instance of ``tp`` holds is in a slot of a class
 * statement's ``__slots__`` (no __dict__, no items, no storage of a C base),
 * at most DM_SMALL of them: then their offsets into ``scan`` and their count
 * into ``*nscan``, 1; else 0. */
static int
construct_scan(dm_state *st, PyTypeObject *tp, Py_ssize_t *scan, Py_ssize_t *nscan)
{
    Py_ssize_t n = 0;
    if (!PyType_IS_GC(tp) || tp->tp_dictoffset != 0 || tp->tp_itemsize != 0
            || !st->internals) {
        return 0;
    }
    for (PyTypeObject *t = tp; t != &PyBaseObject_Type; t = t->tp_base) {
        if (t == NULL || !(t->tp_flags & Py_TPFLAGS_HEAPTYPE)
                || t->tp_dealloc != st->subtype_dealloc) {
            return 0;  /* a C base may hold objects of its own */
        }
        for (PyMemberDef *member = t->tp_members; member && member->name; member++) {
            if (member->type != T_OBJECT_EX && member->type != T_OBJECT) {
                continue;
            }
            if (n == DM_SMALL) {
                return 0;
            }
            scan[n++] = member->offset;
        }
    }
    *nscan = n;
    return 1;
}

/* The current plan of ``tp`` where it says its instances are untracked while
 * atomic, else NULL (borrowed). */
static inline construct_plan *
construct_untracking(PyTypeObject *tp)
{
    construct_plan *plan = (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) ? PLAN_LOAD(tp) : NULL;
    if (plan == NULL || Py_TYPE(plan)->tp_dealloc != plan_dealloc
            || !dm_tag_holds(tp, PLAN_TAG(plan)) || !plan->untrack) {
        return NULL;
    }
    return plan;
}

int
dm_class_atomic(PyTypeObject *tp)
{
    construct_plan *plan = construct_untracking(tp);
    return plan != NULL && plan->untrack == DM_UNTRACK_FROZEN;
}

static int construct_refresh(PyTypeObject *tp);

int
dm_settle(PyObject *obj)
{
    PyTypeObject *tp = Py_TYPE(obj);
    if (construct_plan_of(tp) == NULL && construct_refresh(tp) < 0) {
        return -1;
    }
    construct_plan *plan = construct_untracking(tp);
    int atomic = plan != NULL;
    for (Py_ssize_t s = 0; atomic && s < plan->nscan; s++) {
        PyObject *v = dm_slot_peek(obj, plan->scan[s]);
        atomic = v == NULL || dm_atomic(v);
    }
    if (atomic) {
        if (PyObject_GC_IsTracked(obj)) {
            PyObject_GC_UnTrack(obj);
        }
    }
    else if (PyType_IS_GC(tp) && !PyObject_GC_IsTracked(obj)) {
        PyObject_GC_Track(obj);
    }
    return 0;
}

/* Keeps (``init``, ``nfresh``, ``off``), found for ``tp`` at version tag
 * ``tag``, as its plan: in place of a plan for another tag (the same
 * otherwise: its tag updated), or a new one. Nothing where ``tp_cache`` holds
 * something else, or (free-threaded) the class has used up its plans. 0, or
 * -1 with an exception. */
static int
construct_keep_plan(dm_state *st, PyTypeObject *tp, PyObject *init, unsigned int tag,
                    const construct_plan *found)
{
    Py_ssize_t nfresh = found->nfresh;
    /* Allocated before the class's plan is read: the allocation may run the
     * collector (3.10, 3.11), whose finalizers may construct and so replace
     * that plan. Released unused where the plan stays. */
    construct_plan *plan = PyObject_GC_New(construct_plan, st->plan_type);  /* owned */
    if (plan == NULL) {
        return -1;
    }
    plan->init = NULL;
#ifdef Py_GIL_DISABLED
    plan->prev = NULL;
#endif
    PyObject *released = NULL;  /* owned: the plan replaced (with the GIL) */
    Py_BEGIN_CRITICAL_SECTION(tp);
    construct_plan *old = (construct_plan *)tp->tp_cache;  /* writers hold the lock */
    if (old != NULL && Py_TYPE(old)->tp_dealloc != plan_dealloc) {
        goto done;  /* not ours: left alone */
    }
    if (old != NULL && old->init == init && old->nfresh == nfresh && old->exact == found->exact
            && (nfresh <= 0 || (memcmp(old->off, found->off, nfresh * sizeof(Py_ssize_t)) == 0
                                && memcmp(old->index, found->index,
                                          nfresh * sizeof(Py_ssize_t)) == 0))
            && old->untrack == found->untrack && old->nscan == found->nscan
            && memcmp(old->scan, found->scan, found->nscan * sizeof(Py_ssize_t)) == 0) {
#ifdef Py_GIL_DISABLED
        _Py_atomic_store_uint_relaxed(&old->tag, tag);  /* nothing else in it changed */
#else
        old->tag = tag;
#endif
        goto done;
    }
#ifdef Py_GIL_DISABLED
    if (old != NULL && old->depth >= CONSTRUCT_MAX_PLANS) {
        goto done;
    }
#endif
    plan->tag = tag;
    plan->init = Py_NewRef(init);
    plan->nfresh = nfresh;
    plan->exact = found->exact;
    plan->plain = 1;
    for (Py_ssize_t s = 0; s < nfresh; s++) {
        plan->plain &= found->index[s] >= 0;
    }
    if (nfresh > 0) {
        memcpy(plan->off, found->off, nfresh * sizeof(Py_ssize_t));
        memcpy(plan->index, found->index, nfresh * sizeof(Py_ssize_t));
    }
    plan->untrack = found->untrack;
    plan->nscan = found->nscan;
    memcpy(plan->scan, found->scan, found->nscan * sizeof(Py_ssize_t));
#ifdef Py_GIL_DISABLED
    plan->prev = (PyObject *)old;  /* takes tp_cache's reference */
    plan->depth = old == NULL ? 1 : old->depth + 1;
    PyObject_GC_Track(plan);
    _Py_atomic_store_ptr_release(&tp->tp_cache, (PyObject *)plan);
#else
    PyObject_GC_Track(plan);
    released = (PyObject *)old;
    tp->tp_cache = (PyObject *)plan;
#endif
    plan = NULL;  /* the class's now */
done:;  /* Py_END_CRITICAL_SECTION() may be a bare "}": C11 wants a statement after a label */
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(released);  /* after the store: its release may run code */
    Py_XDECREF(plan);      /* not needed after all */
    return 0;
}

/* The arguments of a vectorcall as a tuple and a dict (NULL without
 * keywords), both owned, for the tp_call and tp_init slots; -1 on error. */
static int
construct_pack(PyObject *const *args, size_t nargsf, PyObject *kwnames, PyObject **tuple,
               PyObject **kwargs)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    *kwargs = NULL;
    *tuple = PyTuple_New(nargs);
    if (*tuple == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(*tuple, i, Py_NewRef(args[i]));
    }
    if (nkw > 0) {
        *kwargs = PyDict_New();
        if (*kwargs == NULL) {
            Py_CLEAR(*tuple);
            return -1;
        }
        for (Py_ssize_t i = 0; i < nkw; i++) {
            if (PyDict_SetItem(*kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
                Py_CLEAR(*tuple);
                Py_CLEAR(*kwargs);
                return -1;
            }
        }
    }
    return 0;
}

/* The metaclass's tp_call with the arguments as a tuple and a dict: what
 * calling the class does without a vectorcall. */
static PyObject *
construct_fallback(PyObject *cls, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    ternaryfunc call = Py_TYPE(cls)->tp_call;
    if (call == NULL) {
        return PyErr_Format(PyExc_TypeError, "'%.200s' object is not callable",
                            Py_TYPE(cls)->tp_name);
    }
    PyObject *tuple, *kwargs;  /* owned */
    if (construct_pack(args, nargsf, kwnames, &tuple, &kwargs) < 0) {
        return NULL;
    }
    PyObject *result = NULL;
    if (!Py_EnterRecursiveCall(" while calling a Python object")) {
        result = call(cls, tuple, kwargs);
        Py_LeaveRecursiveCall();
    }
    Py_DECREF(tuple);
    Py_XDECREF(kwargs);
    return result;
}

/* ``self`` (owned, just allocated) initialised as type.__call__ does after
 * tp_new: by the class's tp_init, whatever __init__ the class has now. For
 * an allocation during which the class changed (a finalizer or a weakref
 * callback run by the collector assigned C.__init__): the plan the call
 * started from no longer says what __init__ is. Steals ``self``. */
static PyObject *
construct_init_now(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    initproc init = Py_TYPE(self)->tp_init;
    if (init == NULL) {
        return self;
    }
    PyObject *tuple, *kwargs;  /* owned */
    if (construct_pack(args, nargsf, kwnames, &tuple, &kwargs) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    int rc = init(self, tuple, kwargs);
    Py_DECREF(tuple);
    Py_XDECREF(kwargs);
    if (rc < 0) {
        Py_CLEAR(self);
    }
    return self;
}

/* Runs ``init`` (owned by the caller for the call) on ``self``: the
 * arguments behind ``self`` in place where the caller allows that
 * (PY_VECTORCALL_ARGUMENTS_OFFSET), else in a copy. A Python function is
 * called through its own vectorcall, as a bound method would call it. */
static PyObject *
construct_run(PyObject *init, PyObject *self, PyObject *const *args, size_t nargsf,
              PyObject *kwnames)
{
    vectorcallfunc call = Py_IS_TYPE(init, &PyFunction_Type)
        ? PyVectorcall_Function(init) : ((dm_function *)init)->vectorcall;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargsf & PY_VECTORCALL_ARGUMENTS_OFFSET) {
        PyObject **stack = (PyObject **)args - 1;
        PyObject *saved = stack[0];  /* the caller's, put back below */
        stack[0] = self;
        PyObject *result = call(init, stack, (size_t)(nargs + 1), kwnames);
        stack[0] = saved;
        return result;
    }
    Py_ssize_t total = nargs + (kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames));
    PyObject *small[DM_SMALL + 1];
    PyObject **stack = total < DM_SMALL ? small : PyMem_Malloc((total + 1) * sizeof(PyObject *));
    if (stack == NULL) {
        return PyErr_NoMemory();
    }
    stack[0] = self;  /* borrowed, as are the arguments */
    memcpy(stack + 1, args, total * sizeof(PyObject *));
    PyObject *result = call(init, stack, (size_t)(nargs + 1), kwnames);
    if (stack != small) {
        PyMem_Free(stack);
    }
    return result;
}

/* What object.__new__ does for a class that passed construct_init_in(): the
 * allocation. 3.13+ allocation sets up the instance's inline values itself;
 * 3.11's and 3.12's object.__new__ does it after tp_alloc for a class with a
 * managed dict (_PyObject_InitializeDict, not public), so there it is called:
 * without it the first store would make a full dict, larger than the
 * stdlib's instances have. */
PyObject *
dm_construct_new(PyTypeObject *tp)
{
#if PY_VERSION_HEX < 0x030D0000 && defined(Py_TPFLAGS_MANAGED_DICT)
    if (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) {
        PyObject *no_args = PyTuple_New(0);  /* owned (the empty tuple) */
        if (no_args == NULL) {
            return NULL;
        }
        PyObject *self = PyBaseObject_Type.tp_new(tp, no_args, NULL);
        Py_DECREF(no_args);
        return self;
    }
#endif
    return tp->tp_alloc(tp, 0);
}

/* A new instance of ``tp`` (object.__new__'s) with ``init``, its __init__
 * (borrowed, checked by construct_init_in), run on it. */
static PyObject *
construct_with(PyTypeObject *tp, PyObject *init, PyObject *const *args, size_t nargsf,
               PyObject *kwnames)
{
    if (Py_EnterRecursiveCall(" while calling a Python object")) {
        return NULL;
    }
    /* A strong reference: __init__'s own code (a default factory,
     * __post_init__) may replace C.__init__ while it runs. */
    Py_INCREF(init);
    PyObject *self = dm_construct_new(tp);  /* owned */
    PyObject *result = NULL;
    if (self != NULL) {
        /* The simplest call to a compiled __init__ stores without binding. */
        int stored = 0;
        if (kwnames == NULL && !Py_IS_TYPE(init, &PyFunction_Type)) {
            stored = dm_init_store_exact(init, self, args, PyVectorcall_NARGS(nargsf));
        }
        result = stored > 0 ? Py_NewRef(Py_None)
                 : stored == 0 ? construct_run(init, self, args, nargsf, kwnames) : NULL;
    }
    Py_DECREF(init);
    Py_LeaveRecursiveCall();
    if (result == NULL) {
        Py_XDECREF(self);
        return NULL;
    }
    if (result != Py_None) {  /* a Python __init__ may return anything */
        PyErr_Format(PyExc_TypeError, "__init__() should return None, not '%.200s'",
                     Py_TYPE(result)->tp_name);
        Py_DECREF(result);
        Py_DECREF(self);
        return NULL;
    }
    Py_DECREF(result);
    return self;
}

/* Whether an instance of ``tp`` may be allocated untracked (dm_new_untracked:
 * one that ends up holding only atomic values is never linked into the
 * collector's list, as msgspec's Struct is not; the caller tracks it
 * otherwise): its tp_alloc is type's own, and it keeps
 * nothing before its header but the collector's (no managed dict or weak
 * references), so type's allocation is the collector's allocation, zeroed,
 * then tracked. */
static inline int
construct_untracked_alloc(PyTypeObject *tp)
{
    return tp->tp_alloc == PyType_GenericAlloc && dm_only_slots(tp);
}


/* ``C(...)`` by a current ``plan`` of ``tp`` (borrowed): where the compiled
 * __init__ only stores and the call binds simply, the instance is allocated
 * and its slots filled here, nothing called but default factories; a call
 * that does not bind (its TypeError) and every other __init__ run as
 * construct_with runs them. */
static PyObject *
construct_planned(PyTypeObject *tp, construct_plan *plan, PyObject *const *args,
                  size_t nargsf, PyObject *kwnames)
{
    /* The plan (its init, its offsets, the defaults in ``bound``) held for
     * the whole call: binding compares keyword names (a str subclass's
     * __eq__ runs there), the allocation may run the collector (3.10, 3.11),
     * whose finalizers run code, and a default factory runs code; any of
     * them may change the class and so replace and release its plan. */
    Py_INCREF(plan);
    PyObject *self = NULL;  /* owned */
    if (plan->nfresh < 0) {
        self = construct_with(tp, plan->init, args, nargsf, kwnames);
        goto done;
    }
    PyObject *values[DM_SMALL];  /* borrowed: arguments, defaults (the plan's init holds them) */
    PyObject *const *bound = args;
    if (kwnames != NULL || PyVectorcall_NARGS(nargsf) != plan->exact) {
        int rc = dm_init_bind(plan->init, args, nargsf, kwnames, values);
        if (rc <= 0) {
            self = rc < 0 ? NULL : construct_with(tp, plan->init, args, nargsf, kwnames);
            goto done;
        }
        bound = values;
    }
    unsigned int tag = PLAN_TAG(plan);
    int untracked = plan->plain && plan->untrack && construct_untracked_alloc(tp);
    self = untracked ? dm_new_untracked(tp) : dm_construct_new(tp);
    if (self != NULL && !dm_tag_holds(tp, tag)) {
        /* changed since the plan was made: what type.__call__ runs now, on
         * an instance tracked as object.__new__ leaves it */
        if (untracked) {
            PyObject_GC_Track(self);  /* not shared yet */
        }
        self = construct_init_now(self, args, nargsf, kwnames);
    }
    else if (self != NULL && plan->plain) {
        /* the values as they are, nothing run */
        int atomic = plan->untrack;
        for (Py_ssize_t s = 0; s < plan->nfresh; s++) {
            PyObject *v = bound[plan->index[s]];
            atomic = atomic && dm_atomic(v);
            dm_slot_fill(self, plan->off[s], Py_NewRef(v));
        }
        /* every other slot of a fresh instance is empty */
        if (untracked && !atomic) {
            PyObject_GC_Track(self);
        }
        else if (!untracked && atomic) {
            PyObject_GC_UnTrack(self);
        }
    }
    else if (self != NULL && dm_init_fill_fresh(plan->init, self, plan->off, tag, bound) < 0) {
        Py_CLEAR(self);
    }
    else if (self != NULL && plan->untrack && dm_settle(self) < 0) {
        Py_CLEAR(self);
    }
done:
    Py_DECREF(plan);
    return self;
}

/* Makes the plan of ``tp`` for ``init`` (owned by the caller), what a lookup
 * at version tag ``tag`` found, where that tag holds still. 0, or -1. */
static int
construct_plan_anew(dm_state *st, PyTypeObject *tp, PyObject *init, unsigned int tag)
{
    construct_plan found;  /* what the plan would say (its head unused) */
    found.exact = -1;
    found.nfresh = Py_IS_TYPE(init, &PyFunction_Type) ? -1
                   : dm_init_fresh_layout(init, tp, found.off, found.index, &found.exact);
    found.nscan = 0;
    found.untrack = Py_IS_TYPE(init, &PyFunction_Type) ? 0 : dm_init_untracks(init);
    if (found.untrack && !construct_scan(st, tp, found.scan, &found.nscan)) {
        found.untrack = 0;
    }
    return dm_tag_holds(tp, tag) ? construct_keep_plan(st, tp, init, tag, &found) : 0;
}

/* Where ``tp`` is a class construct() set up and has no current plan (made
 * at its first call, and again after each change of the class): its plan
 * made now, as that call would. A loader's or a copy's instance is settled
 * by it before the class is ever called. 0 (made or not), or -1. */
static int
construct_refresh(PyTypeObject *tp)
{
    dm_state *st = (tp->tp_flags & Py_TPFLAGS_HEAPTYPE)
        ? construct_state(((PyHeapTypeObject *)tp)->ht_module) : NULL;
    if (st == NULL || construct_plan_of(tp) != NULL) {
        return 0;
    }
    unsigned int tag = dm_tag_now(tp);
    PyObject *init = construct_init_in(tp, st);  /* owned */
    if (init == NULL) {
        return 0;
    }
    if (tag == 0) {
        tag = dm_tag_now(tp);  /* the lookup gave it one */
    }
    int rc = construct_plan_anew(st, tp, init, tag);
    Py_DECREF(init);
    return rc;
}

/* A call that found no current plan: the lookup, then a plan made for the
 * class where its version tag holds still around it (a class without a tag
 * gets one from the lookup: its next call keeps the plan), or the
 * metaclass's call where type.__call__ would do something else. */
static DM_NOINLINE PyObject *
construct_miss(PyTypeObject *tp, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    dm_state *st = construct_state(((PyHeapTypeObject *)tp)->ht_module);
#ifdef Py_GIL_DISABLED
    /* another thread may change the class between the lookup and the tag */
    unsigned int tag = dm_tag_now(tp);
#endif
    PyObject *init = st == NULL ? NULL : construct_init_in(tp, st);  /* owned */
    if (init == NULL) {
        return construct_fallback((PyObject *)tp, args, nargsf, kwnames);
    }
#ifndef Py_GIL_DISABLED
    /* what the lookup found is the class's at the tag it has (or gave it) */
    unsigned int tag = dm_tag_now(tp);
#endif
    if (construct_plan_anew(st, tp, init, tag) < 0) {
        Py_DECREF(init);
        return NULL;
    }
    PyObject *result = construct_with(tp, init, args, nargsf, kwnames);
    Py_DECREF(init);
    return result;
}

/* ``C(...)``: object.__new__ (its allocation) and the __init__, or
 * the metaclass's call where that would do something else. */
static PyObject *
construct_call(PyObject *cls, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyTypeObject *tp = (PyTypeObject *)cls;
    construct_plan *plan = construct_plan_of(tp);  /* borrowed */
    if (plan == NULL) {
        return construct_miss(tp, args, nargsf, kwnames);
    }
    return construct_planned(tp, plan, args, nargsf, kwnames);
}

/* ``cls(*args)``, ``n`` positional arguments with ``args[-1]`` free for
 * the callee, from C code that knows the class's compiled __init__
 * (``init``): where type.__call__ would run object.__new__ and ``init``,
 * the two directly; otherwise the call. (The class's own vectorcall does
 * the same, where construct() could give it one.) */
PyObject *
dm_construct_known(dm_state *st, PyTypeObject *tp, PyObject *init, PyObject **args,
                   Py_ssize_t n)
{
    size_t nargsf = (size_t)n | PY_VECTORCALL_ARGUMENTS_OFFSET;
    construct_plan *plan = tp->tp_vectorcall == construct_call ? construct_plan_of(tp) : NULL;
    if (plan != NULL && plan->init == init) {
        return construct_planned(tp, plan, args, nargsf, NULL);
    }
    PyObject *found = construct_init_in(tp, st);  /* owned */
    Py_XDECREF(found);  /* compared by address: ``init`` is the caller's */
    if (found != init) {
        return PyObject_Vectorcall((PyObject *)tp, args, nargsf, NULL);
    }
    return construct_with(tp, init, args, nargsf, NULL);
}

/* Whether calling a class of ``meta`` will use the class's tp_vectorcall:
 * on 3.10 and 3.11, after giving a Python metaclass that calls as ``type``
 * does the flag that 3.12+ gives it by inheritance. */
static int
construct_metaclass_ready(PyTypeObject *meta)
{
    if (meta->tp_flags & Py_TPFLAGS_HAVE_VECTORCALL) {
        return 1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if ((meta->tp_flags & Py_TPFLAGS_HEAPTYPE)
            && meta->tp_call == PyType_Type.tp_call
            && meta->tp_vectorcall_offset == PyType_Type.tp_vectorcall_offset) {
        meta->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
        return 1;
    }
#endif
    return 0;
}

/* construct(cls) -> bool: gives ``cls`` its own construction where calling
 * it will use it and it would run now (see above); False leaves the class on
 * type.__call__. Either way, its own == and hash slots where its __eq__ and
 * __hash__ are compiled ones (compare.c). */
PyObject *
dm_construct(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "construct: a class is required");
        return NULL;
    }
    PyTypeObject *tp = (PyTypeObject *)cls;
    PyHeapTypeObject *ht = (PyHeapTypeObject *)cls;
    if (!((dm_state *)PyModule_GetState(module))->internals) {
        Py_RETURN_FALSE;  /* internals.c's probe failed: type.__call__ and its slots */
    }
    if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE)
            || (ht->ht_module != NULL && ht->ht_module != module)) {
        Py_RETURN_FALSE;
    }
    /* the slots find the module state through the class's ht_module */
    Py_XSETREF(ht->ht_module, Py_NewRef(module));  /* owned by the class */
    if (dm_compare_own_slots(PyModule_GetState(module), tp) < 0) {
        return NULL;
    }
    PyObject *init = construct_init_in(tp, PyModule_GetState(module));  /* owned */
    Py_XDECREF(init);  /* whether there is one (the first call makes the plan) */
    if ((tp->tp_vectorcall != NULL && tp->tp_vectorcall != construct_call)
            || init == NULL || !construct_metaclass_ready(Py_TYPE(tp))) {
        Py_RETURN_FALSE;
    }
    tp->tp_vectorcall = construct_call;
    Py_RETURN_TRUE;
}
