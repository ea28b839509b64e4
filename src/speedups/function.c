/* The compiled_function type: what every kind shares.
 *
 * A compiled function binds as a method (tp_descr_get and
 * Py_TPFLAGS_METHOD_DESCRIPTOR, as functions do) and carries __name__,
 * __qualname__, __module__, __doc__, __objclass__ and a __dict__ for the
 * attributes that attach() and make_init() set (__signature__,
 * __annotations__ or __annotate__, __wrapped__). It has no __code__: it is
 * not a Python function and does not pretend to be one.
 */

#include "speedups.h"

dm_function *
dm_function_new(dm_state *st, const dm_kind *kind, vectorcallfunc call, PyObject *name)
{
    /* Zero-filled and gc-tracked; a reference to the (heap) type. */
    dm_function *f = (dm_function *)PyType_GenericAlloc(
        st->function_type, kind->size - (Py_ssize_t)sizeof(dm_function));
    if (f == NULL) {
        return NULL;
    }
    f->vectorcall = call;
    f->kind = kind;
    f->name = Py_NewRef(name);
    f->qualname = Py_NewRef(name);
    return f;
}

static int
function_traverse(PyObject *self, visitproc visit, void *arg)
{
    dm_function *f = (dm_function *)self;
    Py_VISIT(Py_TYPE(self));  /* a heap type's instances own a reference to it */
    Py_VISIT(f->name);
    Py_VISIT(f->qualname);
    Py_VISIT(f->module);
    Py_VISIT(f->doc);
    Py_VISIT(f->objclass);
    Py_VISIT(f->dict);
    Py_VISIT(f->signature_build);
    return f->kind == NULL ? 0 : f->kind->traverse(f, visit, arg);
}

static int
function_clear(PyObject *self)
{
    dm_function *f = (dm_function *)self;
    f->cleared = 1;
    Py_CLEAR(f->name);
    Py_CLEAR(f->qualname);
    Py_CLEAR(f->module);
    Py_CLEAR(f->doc);
    Py_CLEAR(f->objclass);
    Py_CLEAR(f->dict);
    Py_CLEAR(f->signature_build);
    if (f->kind != NULL) {
        f->kind->clear(f);
    }
    return 0;
}

static void
function_dealloc(PyObject *self)
{
    dm_function *f = (dm_function *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (f->weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    function_clear(self);
    if (f->kind != NULL && f->kind->release != NULL) {
        f->kind->release(f);
    }
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* A function's __get__: unbound from the class, a bound method from an instance. */
static PyObject *
function_descr_get(PyObject *self, PyObject *obj, PyObject *Py_UNUSED(type))
{
    if (obj == Py_None || obj == NULL) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

/* repr(C.__eq__): names what it is, like a function's repr. */
static PyObject *
function_repr(PyObject *self)
{
    dm_function *f = (dm_function *)self;
    return PyUnicode_FromFormat("<compiled function %S at %p>",
                                f->qualname ? f->qualname : Py_None, (void *)f);
}

/* Pickled as the travel hook's call (_travel.method): by reference, like a
 * function, where its module and qualname still find this very object; else,
 * as when its class travels by value (cloudpickle, dill), as a placeholder
 * that the class's own rebuild replaces. No reference to the class: dill
 * refuses a class whose namespace refers back to it. */
static PyObject *
function_reduce(PyObject *self, PyObject *Py_UNUSED(ignored))
{
    dm_function *f = (dm_function *)self;
    if (dm_is_loader(f)) {
        return dm_loader_reduce(f);
    }
    dm_state *st = dm_state_of(self);
    if (dm_configured(st) < 0) {
        return NULL;
    }
    /* strong references first: the allocations below can run Python code */
    PyObject *hook = Py_NewRef(st->hook[DM_HOOK_TRAVEL_METHOD]);
    PyObject *ident = PyLong_FromVoidPtr(self);
    if (ident == NULL) {
        Py_DECREF(hook);
        return NULL;
    }
    PyObject *module, *qualname;
    Py_BEGIN_CRITICAL_SECTION(f);
    module = Py_XNewRef(f->module);
    qualname = Py_XNewRef(f->qualname);
    Py_END_CRITICAL_SECTION();
    PyObject *result = Py_BuildValue(
        "O(OOO)", hook, module ? module : Py_None, qualname ? qualname : Py_None, ident);
    Py_DECREF(hook);
    Py_XDECREF(module);
    Py_XDECREF(qualname);
    Py_DECREF(ident);
    return result;
}

static PyObject *
function_get_name(PyObject *self, void *Py_UNUSED(c))
{
    dm_function *f = (dm_function *)self;
    return Py_NewRef(f->name ? f->name : Py_None);
}

static PyObject *
function_get_qualname(PyObject *self, void *Py_UNUSED(c))
{
    dm_function *f = (dm_function *)self;
    return Py_NewRef(f->qualname ? f->qualname : Py_None);
}

/* __name__ and __qualname__ take strings only, as on functions. */
static int
set_str_attr(PyObject **slot, PyObject *value, const char *what)
{
    if (value == NULL || !PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be set to a string object", what);
        return -1;
    }
    Py_XSETREF(*slot, Py_NewRef(value));
    return 0;
}

static int
function_set_name(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    return set_str_attr(&((dm_function *)self)->name, value, "__name__");
}

static int
function_set_qualname(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    return set_str_attr(&((dm_function *)self)->qualname, value, "__qualname__");
}

/* Store (or, for NULL, delete) ``key`` in the function's __dict__, as a plain
 * attribute store would; a missing key on delete is an AttributeError. */
static int
dict_store(PyObject *self, PyObject *key, PyObject *value)
{
    PyObject *dict = PyObject_GenericGetDict(self, NULL);  /* owned */
    if (dict == NULL) {
        return -1;
    }
    int rc = value == NULL ? PyDict_DelItem(dict, key) : PyDict_SetItem(dict, key, value);
    Py_DECREF(dict);
    if (rc < 0 && value == NULL && PyErr_ExceptionMatches(PyExc_KeyError)) {
        PyErr_SetObject(PyExc_AttributeError, key);
    }
    return rc;
}

/* Delete ``key`` from __dict__ if it is there. */
static int
dict_discard(dm_function *f, PyObject *key)
{
    if (f->dict == NULL) {
        return 0;
    }
    /* held: a key's __eq__ may replace the function's __dict__ meanwhile */
    PyObject *dict = Py_NewRef(f->dict);
    int found = PyDict_Contains(dict, key);
    int rc = found <= 0 ? found : PyDict_DelItem(dict, key);
    Py_DECREF(dict);
    return rc;
}

/* What __dict__ holds as __signature__ (a new reference), or NULL: nothing
 * there, or an error (PyErr_Occurred tells). */
static PyObject *
stored_signature(dm_function *f, PyObject *key)
{
    PyObject *sig = NULL;
    if (f->dict != NULL) {
        PyObject *dict = Py_NewRef(f->dict);  /* held, as in dict_discard */
        (void)dm_dict_get_ref(dict, key, &sig);
        Py_DECREF(dict);
    }
    return sig;
}

/* A new signature: make_init's deferred build's, else the signature hook's
 * for the kind's parameters; an AttributeError where there is neither. */
static PyObject *
make_signature(dm_function *f, dm_state *st)
{
    PyObject *build;  /* held for the call; another thread may clear it */
    Py_BEGIN_CRITICAL_SECTION(f);
    build = Py_XNewRef(f->signature_build);
    Py_END_CRITICAL_SECTION();
    if (build != NULL) {
        PyObject *sig = PyObject_CallNoArgs(build);
        Py_DECREF(build);
        return sig;
    }
    const char *const *params = f->kind ? f->kind->params : NULL;
    if (params == NULL) {
        PyErr_SetString(PyExc_AttributeError, "__signature__");
        return NULL;
    }
    if (dm_configured(st) < 0) {
        return NULL;
    }
    Py_ssize_t n = f->kind->nparams;
    PyObject *names = PyTuple_New(n);
    if (names == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyUnicode_FromString(params[i]);
        if (name == NULL) {
            Py_DECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, i, name);
    }
    /* A strong reference for the call: the module may be cleared meanwhile. */
    PyObject *factory = Py_NewRef(st->hook[DM_HOOK_SIGNATURE]);
    PyObject *sig = PyObject_CallOneArg(factory, names);
    Py_DECREF(factory);
    Py_DECREF(names);
    return sig;
}

/* ``__signature__``: what attach() stored, else what make_init's deferred
 * build returns, else the signature of the Python closure (``(self, other)``
 * and so on) from the signature hook (configure()); the last two are made on
 * first read and kept in __dict__ (inspect reads it before anything else, so
 * signature(), help() and pydoc see the same). Deferring keeps ``inspect``
 * out of class creation: most signatures are never read. */
static PyObject *
function_get_signature(PyObject *self, void *Py_UNUSED(c))
{
    dm_function *f = (dm_function *)self;
    dm_state *st = dm_state_of(self);
    PyObject *sig = stored_signature(f, st->str_signature);
    if (sig != NULL || PyErr_Occurred()) {
        return sig;
    }
    sig = make_signature(f, st);
    if (sig == NULL) {
        return NULL;
    }
    /* Making it ran Python code (importing inspect, say): a __signature__ set
     * meanwhile stands. */
    PyObject *set = stored_signature(f, st->str_signature);
    if (set != NULL || PyErr_Occurred()) {
        Py_DECREF(sig);
        return set;
    }
    if (dict_store(self, st->str_signature, sig) < 0) {
        Py_DECREF(sig);
        return NULL;
    }
    return sig;
}

/* Setting or deleting ``__signature__`` drops a deferred build: the function
 * is no longer marked a generated __init__ (as a pure one is not either). */
static int
function_set_signature(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    dm_function *f = (dm_function *)self;
    PyObject *key = dm_state_of(self)->str_signature;
    PyObject *build;  /* owned */
    Py_BEGIN_CRITICAL_SECTION(self);
    build = f->signature_build;
    f->signature_build = NULL;
    Py_END_CRITICAL_SECTION();
    Py_XDECREF(build);
    if (value == NULL && build != NULL) {
        return dict_discard(f, key);  /* it was there, if not yet built */
    }
    return dict_store(self, key, value);
}

/* defer_signature(function, build): ``build()`` makes its __signature__ on
 * first read. */
PyObject *
dm_defer_signature(PyObject *module, PyObject *args)
{
    dm_state *st = dm_ready(module);
    PyObject *function, *build;
    if (st == NULL || !PyArg_ParseTuple(args, "O!O:defer_signature", st->function_type,
                                        &function, &build)) {
        return NULL;
    }
    Py_XSETREF(((dm_function *)function)->signature_build, Py_NewRef(build));
    Py_RETURN_NONE;
}

/* deferred_signature(obj): the build defer_signature() gave a compiled
 * function (kept after the first read), else None. */
PyObject *
dm_deferred_signature(PyObject *module, PyObject *obj)
{
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    PyObject *build = NULL;  /* owned */
    if (Py_TYPE(obj) == st->function_type) {
        Py_BEGIN_CRITICAL_SECTION(obj);
        build = Py_XNewRef(((dm_function *)obj)->signature_build);
        Py_END_CRITICAL_SECTION();
    }
    return build != NULL ? build : Py_NewRef(Py_None);
}

/* ``__annotations__`` as a function has it: the dict in __dict__; else what
 * ``__annotate__(VALUE)`` returns (3.14+, PEP 649), kept as functions keep
 * it; else a new empty dict. Setting it drops ``__annotate__``, as for a
 * function. */
static PyObject *
function_get_annotations(PyObject *self, void *Py_UNUSED(c))
{
    dm_state *st = dm_state_of(self);
    PyObject *dict = PyObject_GenericGetDict(self, NULL);  /* owned */
    if (dict == NULL) {
        return NULL;
    }
    PyObject *annotations;  /* owned */
    int found = dm_dict_get_ref(dict, st->str_annotations, &annotations);
    if (found != 0) {
        Py_DECREF(dict);
        return annotations;  /* or NULL: an error */
    }
    PyObject *annotate;  /* owned: the call may replace it in __dict__ */
    if (dm_dict_get_ref(dict, st->str_annotate, &annotate) < 0) {
        goto error;
    }
    if (annotate != NULL && annotate != Py_None) {
        PyObject *format = PyLong_FromLong(1);  /* annotationlib.Format.VALUE */
        if (format == NULL) {
            Py_DECREF(annotate);
            goto error;
        }
        annotations = PyObject_CallOneArg(annotate, format);  /* owned */
        Py_DECREF(annotate);
        Py_DECREF(format);
        if (annotations == NULL) {
            goto error;
        }
        if (!PyDict_Check(annotations)) {
            PyErr_Format(PyExc_TypeError, "__annotate__ returned non-dict of type '%.100s'",
                         Py_TYPE(annotations)->tp_name);
            Py_DECREF(annotations);
            goto error;
        }
    }
    else {
        Py_XDECREF(annotate);
        annotations = PyDict_New();  /* owned */
        if (annotations == NULL) {
            goto error;
        }
    }
    if (PyDict_SetItem(dict, st->str_annotations, annotations) < 0) {
        Py_DECREF(annotations);
        goto error;
    }
    Py_DECREF(dict);
    return annotations;
error:
    Py_DECREF(dict);
    return NULL;
}

static int
function_set_annotations(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    dm_state *st = dm_state_of(self);
    if (value != NULL && value != Py_None && !PyDict_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__annotations__ must be set to a dict object");
        return -1;
    }
    if (dict_store(self, st->str_annotations, value) < 0) {
        return -1;
    }
    return value == NULL ? 0 : dict_discard((dm_function *)self, st->str_annotate);
}

#if PY_VERSION_HEX >= 0x030E0000
/* ``__annotate__``: None unless set; setting a function drops the cached
 * ``__annotations__``, as for a function (3.14+). */
static PyObject *
function_get_annotate(PyObject *self, void *Py_UNUSED(c))
{
    dm_function *f = (dm_function *)self;
    PyObject *annotate = NULL;  /* owned */
    if (f->dict != NULL) {
        PyObject *dict = Py_NewRef(f->dict);  /* held, as in dict_discard */
        int rc = dm_dict_get_ref(dict, dm_state_of(self)->str_annotate, &annotate);
        Py_DECREF(dict);
        if (rc < 0) {
            return NULL;
        }
    }
    return annotate != NULL ? annotate : Py_NewRef(Py_None);
}

static int
function_set_annotate(PyObject *self, PyObject *value, void *Py_UNUSED(c))
{
    dm_state *st = dm_state_of(self);
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "__annotate__ cannot be deleted");
        return -1;
    }
    if (value != Py_None && !PyCallable_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__annotate__ must be callable or None");
        return -1;
    }
    if (dict_store(self, st->str_annotate, value) < 0) {
        return -1;
    }
    return value == Py_None ? 0 : dict_discard((dm_function *)self, st->str_annotations);
}
#endif

static PyGetSetDef function_getset[] = {
    {"__signature__", function_get_signature, function_set_signature, NULL, NULL},
    {"__name__", function_get_name, function_set_name, NULL, NULL},
    {"__qualname__", function_get_qualname, function_set_qualname, NULL, NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"__annotations__", function_get_annotations, function_set_annotations, NULL, NULL},
#if PY_VERSION_HEX >= 0x030E0000
    {"__annotate__", function_get_annotate, function_set_annotate, NULL, NULL},
#endif
    {NULL, NULL, NULL, NULL, NULL}
};

static PyMemberDef function_members[] = {
    /* T_OBJECT_EX: missing (AttributeError) until attach() sets it */
    {"__objclass__", T_OBJECT_EX, offsetof(dm_function, objclass), 0, NULL},
    /* how PyType_FromSpec learns the layout of the head */
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(dm_function, vectorcall), READONLY, NULL},
    {"__dictoffset__", T_PYSSIZET, offsetof(dm_function, dict), READONLY, NULL},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(dm_function, weakreflist), READONLY, NULL},
    {NULL, 0, 0, 0, NULL}
};

static PyMethodDef function_methods[] = {
    {"__reduce__", function_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL}
};

/* ``__module__`` and ``__doc__`` are each function's own (attach() sets the
 * module), read and set as a function's members are (any object; NULL reads
 * as None), but here rather than by member descriptors: a type's own
 * ``__module__`` and ``__doc__`` are the entries of its dict, so with
 * descriptors there ``type(f).__module__`` would be a descriptor, not the
 * name of this module that pickle, pydoc and typing read. The slot of
 * ``name``, or NULL for any other attribute. Not on a call's path: calls and
 * binding go through the vectorcall and tp_descr_get. */
static PyObject **
head_attr(dm_function *f, PyObject *name)
{
    if (!PyUnicode_Check(name)) {
        return NULL;
    }
    Py_ssize_t n = PyUnicode_GET_LENGTH(name);
    if (n == 10 && PyUnicode_CompareWithASCIIString(name, "__module__") == 0) {
        return &f->module;
    }
    if (n == 7 && PyUnicode_CompareWithASCIIString(name, "__doc__") == 0) {
        return &f->doc;
    }
    return NULL;
}

static PyObject *
function_getattro(PyObject *self, PyObject *name)
{
    PyObject **slot = head_attr((dm_function *)self, name);
    if (slot != NULL) {
        return Py_NewRef(*slot != NULL ? *slot : Py_None);
    }
    return PyObject_GenericGetAttr(self, name);
}

static int
function_setattro(PyObject *self, PyObject *name, PyObject *value)
{
    PyObject **slot = head_attr((dm_function *)self, name);
    if (slot != NULL) {
        Py_XSETREF(*slot, Py_XNewRef(value));  /* deleted: reads as None */
        return 0;
    }
    return PyObject_GenericSetAttr(self, name, value);
}

static PyType_Slot function_slots[] = {
    {Py_tp_dealloc, function_dealloc},
    {Py_tp_repr, function_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_getattro, function_getattro},
    {Py_tp_setattro, function_setattro},
    {Py_tp_traverse, function_traverse},
    {Py_tp_clear, function_clear},
    {Py_tp_methods, function_methods},
    {Py_tp_members, function_members},
    {Py_tp_getset, function_getset},
    {Py_tp_descr_get, function_descr_get},
    {0, NULL}
};

static PyType_Spec function_spec = {
    .name = "dataclass_meta._speedups.compiled_function",
    .basicsize = sizeof(dm_function),
    .itemsize = 1,  /* ob_size: the bytes of the kind's payload */
    .flags = (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
              | Py_TPFLAGS_METHOD_DESCRIPTOR | Py_TPFLAGS_IMMUTABLETYPE
              | Py_TPFLAGS_DISALLOW_INSTANTIATION),
    .slots = function_slots,
};

/* The type, for ``module``'s state. Its ``__module__`` is this module's
 * name, from the spec's. */
PyTypeObject *
dm_function_type_create(PyObject *module)
{
    return (PyTypeObject *)PyType_FromModuleAndSpec(module, &function_spec, NULL);
}

/* attach(cls, name, function): _methods.attach in one call for a compiled
 * function or a Python function (a relabelled template: named, given the
 * class's qualname and module, then set on the class past DataClassMeta's
 * guard). Anything else (a function wrapped by recursive_repr, say) goes to
 * the attach hook, _methods.attach itself. */
PyObject *
dm_attach(PyObject *module, PyObject *args)
{
    dm_state *st = dm_ready(module);
    PyObject *cls, *name, *function;  /* borrowed */
    if (st == NULL
            || !PyArg_ParseTuple(args, "O!UO:attach", &PyType_Type, &cls, &name, &function)) {
        return NULL;
    }
    int compiled = Py_TYPE(function) == st->function_type;
    if (!compiled && !Py_IS_TYPE(function, &PyFunction_Type)) {
        PyObject *fallback = Py_NewRef(st->hook[DM_HOOK_ATTACH]);
        PyObject *result = PyObject_CallFunctionObjArgs(fallback, cls, name, function, NULL);
        Py_DECREF(fallback);
        return result;
    }
    PyObject *qualname = PyObject_GetAttr(cls, st->str_qualname);  /* owned */
    if (qualname == NULL) {
        return NULL;
    }
    PyObject *full = PyUnicode_FromFormat("%S.%U", qualname, name);  /* owned */
    Py_DECREF(qualname);
    PyObject *owner = full == NULL ? NULL : PyObject_GetAttr(cls, st->str_module);
    if (owner == NULL) {
        Py_XDECREF(full);
        return NULL;
    }
    if (compiled) {
        dm_function *f = (dm_function *)function;
        Py_XSETREF(f->name, Py_NewRef(name));
        Py_XSETREF(f->qualname, full);       /* steals full */
        Py_XSETREF(f->module, owner);        /* steals owner */
        Py_XSETREF(f->objclass, Py_NewRef(cls));
    }
    else {
        int failed = PyObject_SetAttrString(function, "__name__", name) < 0
                     || PyObject_SetAttr(function, st->str_qualname, full) < 0
                     || PyObject_SetAttr(function, st->str_module, owner) < 0;
        Py_DECREF(full);
        Py_DECREF(owner);
        if (failed) {
            return NULL;
        }
    }
    if (PyType_Type.tp_setattro(cls, name, function) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}
