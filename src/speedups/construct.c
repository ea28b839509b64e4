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
 * new instance, refusing a result other than None. These read the type's current slots and its
 * method cache (keyed by the version tag), so a later ``C.__init__ = f``,
 * ``C.__new__ = ...``, a change to a base or ``C.__class__ = M`` counts at
 * once; otherwise the call goes to the metaclass's tp_call as it would have.
 *
 * The module state is reached through the class's ``ht_module`` (which
 * type_dealloc releases): a Python class has none of its own, and the
 * vectorcall receives nothing but the class.
 */

#include "speedups.h"

/* The __init__ (compiled, or a Python function) that type.__call__ would
 * run on a new instance of ``tp`` after object.__new__, or NULL (no
 * exception) where the call must take type.__call__'s path. Borrowed from the class's MRO. ``st``: the
 * state of this module. */
static PyObject *
construct_init_in(PyTypeObject *tp, dm_state *st)
{
    if (Py_TYPE(tp)->tp_call != PyType_Type.tp_call     /* a metaclass __call__ */
            || tp->tp_new != PyBaseObject_Type.tp_new   /* a __new__ */
            || (tp->tp_flags & Py_TPFLAGS_IS_ABSTRACT) != 0
            || st->str_init == NULL) {  /* the module was cleared (interpreter shutdown) */
        return NULL;
    }
    PyObject *init = _PyType_Lookup(tp, st->str_init);  /* borrowed; no exception */
    if (init == NULL) {
        return NULL;
    }
    if (Py_IS_TYPE(init, &PyFunction_Type)) {
        return init;
    }
    if (Py_TYPE(init) != st->function_type || ((dm_function *)init)->kind != &dm_kind_init) {
        return NULL;
    }
    return init;
}

/* The same for a class whose ``module`` (its ht_module) may be this one. */
static PyObject *
construct_init(PyTypeObject *tp, PyObject *module)
{
    if (module == NULL || PyModule_GetDef(module) != &dm_module_def) {
        return NULL;
    }
    return construct_init_in(tp, PyModule_GetState(module));
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
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *tuple = PyTuple_New(nargs);  /* owned */
    PyObject *kwargs = NULL;               /* owned */
    PyObject *result = NULL;
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
    }
    if (nkw > 0) {
        kwargs = PyDict_New();
        if (kwargs == NULL) {
            goto done;
        }
        for (Py_ssize_t i = 0; i < nkw; i++) {
            if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) {
                goto done;
            }
        }
    }
    if (Py_EnterRecursiveCall(" while calling a Python object")) {
        goto done;
    }
    result = call(cls, tuple, kwargs);
    Py_LeaveRecursiveCall();
done:
    Py_DECREF(tuple);
    Py_XDECREF(kwargs);
    return result;
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

/* What object.__new__ does for a class that passed construct_init(). 3.13+
 * allocation sets up the instance's inline values itself; 3.12's
 * object.__new__ does it after tp_alloc (_PyObject_InitializeDict, not
 * public), so there it is called: without it the first store would make a
 * full dict, larger than the stdlib's instances have. */
static PyObject *
construct_new(PyTypeObject *tp)
{
#if PY_VERSION_HEX >= 0x030D0000
    return tp->tp_alloc(tp, 0);
#else
    PyObject *no_args = PyTuple_New(0);  /* owned (the empty tuple) */
    if (no_args == NULL) {
        return NULL;
    }
    PyObject *self = PyBaseObject_Type.tp_new(tp, no_args, NULL);
    Py_DECREF(no_args);
    return self;
#endif
}

/* A new instance of ``tp`` (object.__new__'s) with ``init``, its __init__
 * (borrowed, checked by construct_init), run on it. */
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
    PyObject *self = construct_new(tp);  /* owned */
    PyObject *result = NULL;
    if (self != NULL) {
        /* The simplest call to a compiled __init__ stores straight away (into
         * the fresh instance's slots where it can); any other binds first. */
        int stored = 0;
        if (kwnames == NULL && !Py_IS_TYPE(init, &PyFunction_Type)) {
            Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
            stored = dm_init_store_fresh(init, self, args, nargs);
            stored = stored ? stored : dm_init_store_exact(init, self, args, nargs);
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

/* ``C(...)``: object.__new__ (its allocation) and the __init__, or
 * the metaclass's call where that would do something else. */
static PyObject *
construct_call(PyObject *cls, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyTypeObject *tp = (PyTypeObject *)cls;
    PyObject *init = construct_init(tp, ((PyHeapTypeObject *)tp)->ht_module);
    if (init == NULL) {
        return construct_fallback(cls, args, nargsf, kwnames);
    }
    return construct_with(tp, init, args, nargsf, kwnames);
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
    if (construct_init_in(tp, st) != init) {
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
    if (!(tp->tp_flags & Py_TPFLAGS_HEAPTYPE)
            || (ht->ht_module != NULL && ht->ht_module != module)) {
        Py_RETURN_FALSE;
    }
    /* the slots find the module state through the class's ht_module */
    Py_XSETREF(ht->ht_module, Py_NewRef(module));  /* owned by the class */
    if (dm_compare_own_slots(PyModule_GetState(module), tp) < 0) {
        return NULL;
    }
    if ((tp->tp_vectorcall != NULL && tp->tp_vectorcall != construct_call)
            || construct_init(tp, module) == NULL
            || !construct_metaclass_ready(Py_TYPE(tp))) {
        Py_RETURN_FALSE;
    }
    tp->tp_vectorcall = construct_call;
    Py_RETURN_TRUE;
}
