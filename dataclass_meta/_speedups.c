/* dataclass_meta._speedups: the generated methods as C-level closures.
 *
 * The pure-Python closures in _methods.py and _init.py are the reference; this
 * module provides the same methods as objects of one callable type,
 * ``compiled_function``, made once per class at class creation. Each holds what
 * its Python factory would capture (field names, defaults, the class, ...),
 * is called through vectorcall, binds as a method (tp_descr_get and
 * Py_TPFLAGS_METHOD_DESCRIPTOR, as functions do) and carries __name__,
 * __qualname__, __module__, __doc__ and a __dict__ for the attributes that
 * attach() and make_init() set (__signature__, __annotations__, __wrapped__).
 * No source text, no code objects, nothing executed.
 *
 * Sections follow the Python modules: the type and its function-like
 * attributes; argument unpacking; __eq__ / orderings; __hash__; __repr__;
 * __init__; frozen __setattr__ / __delattr__; the module.
 *
 * References: a field marked "owned" holds a strong reference released in
 * tp_clear; "borrowed" is said where it is not. The module relies on the GIL
 * (it does not declare Py_mod_gil, so a free-threaded build re-enables the GIL
 * when it is imported).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* ------------------------------------------------------------------------ */
/* The type                                                                  */
/* ------------------------------------------------------------------------ */

enum kind {
    K_EQ, K_ORDER, K_HASH, K_REPR, K_INIT, K_SETATTR, K_DELATTR,
};

typedef struct {
    PyObject *obj;           /* borrowed: only compared by address */
    unsigned long thread;
} repr_key;

typedef struct {
    Py_ssize_t index;        /* parameter index, or -1: no parameter */
    PyObject *name;          /* borrowed from steps (owned tuple) */
    PyObject *factory;       /* borrowed from steps, or NULL */
} init_step;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    /* function-like attributes, all owned (NULL reads as None) */
    PyObject *name;
    PyObject *qualname;
    PyObject *module;
    PyObject *doc;
    PyObject *objclass;      /* __objclass__: the class it is attached to */
    PyObject *dict;          /* owned, created on first attribute store */
    PyObject *weakreflist;
    int kind;
    int op;                  /* K_ORDER: Py_LT etc.; K_REPR: 1 if guarded */
    PyObject *names;         /* owned tuple of str: the fields read, or params */
    PyObject *cls;           /* owned: the class (frozen methods), or NULL */
    PyObject *extra;         /* owned: K_REPR: the text pieces; K_SETATTR/DELATTR:
                                frozenset of field names; K_INIT: defaults */
    PyObject *error;         /* owned: K_SETATTR/DELATTR: FrozenInstanceError */
    /* K_REPR: instances whose repr is running (the reprlib guard) */
    repr_key *running;
    Py_ssize_t nrunning, arunning;
    /* K_INIT */
    Py_ssize_t npos;         /* positional parameters (names[:npos]) */
    PyObject *bind;          /* owned: the Python binder, raises call errors */
    PyObject *factory_marker;/* owned: dataclasses._HAS_DEFAULT_FACTORY */
    PyObject *no_default;    /* owned: the marker for "no default" */
    PyObject *steps;         /* owned tuple of (name, index, factory or None) */
    PyObject *step_names;    /* owned tuple: the names of the steps */
    init_step *step;         /* PyMem array over steps */
    Py_ssize_t nsteps;
    PyObject *initvars;      /* owned tuple of parameter indexes for __post_init__ */
    PyObject *unbound;       /* owned: name of an init=False InitVar, or NULL */
    int frozen, post_init;
    /* The layout cache: for instances of exactly ``layout_type`` (while its
     * version tag is ``layout_tag``), ``offsets[i]`` is the offset of field
     * i's slot, or -1 where the attribute is read or stored generically. */
    PyTypeObject *layout_type;  /* borrowed: compared by address only */
    unsigned int layout_tag;
    Py_ssize_t *offsets;        /* PyMem array, one per name */
    int layout_plain;           /* obj.__class__ is type(obj) for layout_type */
    int cleared;                /* tp_clear ran (a garbage cycle): not callable */
} Method;

static PyTypeObject Method_Type;

static PyObject *str_class;        /* owned, interned: "__class__" */
static PyObject *str_qualname;     /* owned, interned: "__qualname__" */
static PyObject *str_post_init;    /* owned, interned: "__post_init__" */
static PyObject *str_setattr;      /* owned, interned: "__setattr__" */
static PyObject *str_delattr;      /* owned, interned: "__delattr__" */
static PyObject *str_signature;    /* owned, interned: "__signature__" */
static PyObject *str_annotations;  /* owned, interned: "__annotations__" */
static PyObject *str_annotate;     /* owned, interned: "__annotate__" */
static PyObject *signature_factory; /* owned: params -> inspect.Signature, or NULL */
static PyObject *str_empty;        /* owned: "" */
static PyObject *str_dots;         /* owned: "..." (reprlib's fillvalue) */
static PyObject *object_class;     /* owned: object.__dict__['__class__'] */

static Method *
method_alloc(int kind, vectorcallfunc call, PyObject *name)
{
    Method *m = PyObject_GC_New(Method, &Method_Type);
    if (m == NULL) {
        return NULL;
    }
    m->vectorcall = call;
    Py_INCREF(name);
    m->name = name;
    m->qualname = Py_NewRef(name);
    m->module = NULL;
    m->doc = NULL;
    m->objclass = NULL;
    m->dict = NULL;
    m->weakreflist = NULL;
    m->kind = kind;
    m->op = 0;
    m->names = m->cls = m->extra = m->error = NULL;
    m->running = NULL;
    m->nrunning = m->arunning = 0;
    m->npos = 0;
    m->bind = m->factory_marker = m->no_default = m->steps = m->step_names = NULL;
    m->step = NULL;
    m->nsteps = 0;
    m->initvars = m->unbound = NULL;
    m->frozen = m->post_init = 0;
    m->layout_type = NULL;
    m->layout_tag = 0;
    m->offsets = NULL;
    m->cleared = 0;
    PyObject_GC_Track(m);
    return m;
}

static int
method_traverse(Method *m, visitproc visit, void *arg)
{
    Py_VISIT(m->name);
    Py_VISIT(m->qualname);
    Py_VISIT(m->module);
    Py_VISIT(m->doc);
    Py_VISIT(m->objclass);
    Py_VISIT(m->dict);
    Py_VISIT(m->names);
    Py_VISIT(m->cls);
    Py_VISIT(m->extra);
    Py_VISIT(m->error);
    Py_VISIT(m->bind);
    Py_VISIT(m->factory_marker);
    Py_VISIT(m->no_default);
    Py_VISIT(m->steps);
    Py_VISIT(m->step_names);
    Py_VISIT(m->initvars);
    Py_VISIT(m->unbound);
    return 0;
}

static int
method_clear(Method *m)
{
    m->cleared = 1;
    Py_CLEAR(m->name);
    Py_CLEAR(m->qualname);
    Py_CLEAR(m->module);
    Py_CLEAR(m->doc);
    Py_CLEAR(m->objclass);
    Py_CLEAR(m->dict);
    Py_CLEAR(m->names);
    Py_CLEAR(m->cls);
    Py_CLEAR(m->extra);
    Py_CLEAR(m->error);
    Py_CLEAR(m->bind);
    Py_CLEAR(m->factory_marker);
    Py_CLEAR(m->no_default);
    m->nsteps = 0;  /* the step array borrows from steps */
    Py_CLEAR(m->steps);
    Py_CLEAR(m->step_names);
    Py_CLEAR(m->initvars);
    Py_CLEAR(m->unbound);
    return 0;
}

static void
method_dealloc(Method *m)
{
    PyObject_GC_UnTrack(m);
    if (m->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)m);
    }
    method_clear(m);
    PyMem_Free(m->step);
    PyMem_Free(m->running);
    PyMem_Free(m->offsets);
    PyObject_GC_Del(m);
}

/* A function's __get__: unbound from the class, a bound method from an instance. */
static PyObject *
method_descr_get(PyObject *self, PyObject *obj, PyObject *Py_UNUSED(type))
{
    if (obj == Py_None || obj == NULL) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

/* repr(C.__eq__): names what it is, like a function's repr. */
static PyObject *
method_repr(Method *m)
{
    return PyUnicode_FromFormat("<compiled function %S at %p>",
                                m->qualname ? m->qualname : Py_None, (void *)m);
}

/* Pickled by reference, like a function: the global found by its qualname. */
static PyObject *
method_reduce(Method *m, PyObject *Py_UNUSED(ignored))
{
    return Py_NewRef(m->qualname ? m->qualname : Py_None);
}

static PyObject *
get_str_attr(PyObject *value)
{
    return Py_NewRef(value ? value : Py_None);
}

static PyObject *
method_get_name(Method *m, void *Py_UNUSED(c))
{
    return get_str_attr(m->name);
}

static PyObject *
method_get_qualname(Method *m, void *Py_UNUSED(c))
{
    return get_str_attr(m->qualname);
}

/* __name__ and __qualname__ take strings only, as on functions. */
static int
set_str_attr(PyObject **slot, PyObject *value, const char *what)
{
    if (value == NULL || !PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be set to a string object", what);
        return -1;
    }
    Py_INCREF(value);
    Py_XSETREF(*slot, value);
    return 0;
}

static int
method_set_name(Method *m, PyObject *value, void *Py_UNUSED(c))
{
    return set_str_attr(&m->name, value, "__name__");
}

static int
method_set_qualname(Method *m, PyObject *value, void *Py_UNUSED(c))
{
    return set_str_attr(&m->qualname, value, "__qualname__");
}

static const char *const *method_params(Method *m, Py_ssize_t *n);

/* ``__signature__``: what attach()/make_init() stored, else the signature
 * of the Python closure (``(self, other)`` and so on), made on first read by
 * the factory _backend.py registers and kept in __dict__ (inspect reads it
 * before anything else, so signature(), help() and pydoc see the same). */
static PyObject *
method_get_signature(Method *m, void *Py_UNUSED(c))
{
    if (m->dict != NULL) {
        PyObject *sig = PyDict_GetItemWithError(m->dict, str_signature);  /* borrowed */
        if (sig != NULL) {
            return Py_NewRef(sig);
        }
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_ssize_t n;
    const char *const *params = method_params(m, &n);
    if (params == NULL || signature_factory == NULL) {
        PyErr_SetString(PyExc_AttributeError, "__signature__");
        return NULL;
    }
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
    /* A strong reference for the call: the factory's Python code may call
     * set_signature_factory() and drop the module's reference meanwhile. */
    PyObject *factory = Py_NewRef(signature_factory);
    PyObject *sig = PyObject_CallOneArg(factory, names);
    Py_DECREF(factory);
    Py_DECREF(names);
    if (sig == NULL) {
        return NULL;
    }
    if (PyObject_GenericSetAttr((PyObject *)m, str_signature, sig) < 0) {
        Py_DECREF(sig);
        return NULL;
    }
    return sig;
}

/* Store (or, for NULL, delete) ``key`` in the method's __dict__, as a plain
 * attribute store would; a missing key on delete is an AttributeError. */
static int
dict_store(Method *m, PyObject *key, PyObject *value)
{
    PyObject *dict = PyObject_GenericGetDict((PyObject *)m, NULL);  /* owned */
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
dict_discard(Method *m, PyObject *key)
{
    if (m->dict == NULL) {
        return 0;
    }
    int found = PyDict_Contains(m->dict, key);
    return found <= 0 ? found : PyDict_DelItem(m->dict, key);
}

static int
method_set_signature(Method *m, PyObject *value, void *Py_UNUSED(c))
{
    return dict_store(m, str_signature, value);
}

/* ``__annotations__`` as a function has it: the dict in __dict__; else what
 * ``__annotate__(VALUE)`` returns (3.14+, PEP 649), kept as functions keep
 * it; else a new empty dict. Setting it drops ``__annotate__``, as for a
 * function. */
static PyObject *
method_get_annotations(Method *m, void *Py_UNUSED(c))
{
    PyObject *dict = PyObject_GenericGetDict((PyObject *)m, NULL);  /* owned */
    if (dict == NULL) {
        return NULL;
    }
    PyObject *annotations = PyDict_GetItemWithError(dict, str_annotations);  /* borrowed */
    if (annotations != NULL) {
        Py_DECREF(dict);
        return Py_NewRef(annotations);
    }
    if (PyErr_Occurred()) {
        goto error;
    }
    PyObject *annotate = PyDict_GetItemWithError(dict, str_annotate);  /* borrowed */
    if (annotate == NULL && PyErr_Occurred()) {
        goto error;
    }
    if (annotate != NULL && annotate != Py_None) {
        PyObject *format = PyLong_FromLong(1);  /* annotationlib.Format.VALUE */
        if (format == NULL) {
            goto error;
        }
        Py_INCREF(annotate);  /* the call may replace it in __dict__ */
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
        annotations = PyDict_New();  /* owned */
        if (annotations == NULL) {
            goto error;
        }
    }
    if (PyDict_SetItem(dict, str_annotations, annotations) < 0) {
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
method_set_annotations(Method *m, PyObject *value, void *Py_UNUSED(c))
{
    if (value != NULL && value != Py_None && !PyDict_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__annotations__ must be set to a dict object");
        return -1;
    }
    if (dict_store(m, str_annotations, value) < 0) {
        return -1;
    }
    return value == NULL ? 0 : dict_discard(m, str_annotate);
}

#if PY_VERSION_HEX >= 0x030E0000
/* ``__annotate__``: None unless set; setting a function drops the cached
 * ``__annotations__``, as for a function (3.14+). */
static PyObject *
method_get_annotate(Method *m, void *Py_UNUSED(c))
{
    if (m->dict != NULL) {
        PyObject *annotate = PyDict_GetItemWithError(m->dict, str_annotate);  /* borrowed */
        if (annotate != NULL) {
            return Py_NewRef(annotate);
        }
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

static int
method_set_annotate(Method *m, PyObject *value, void *Py_UNUSED(c))
{
    if (value == NULL) {
        PyErr_SetString(PyExc_TypeError, "__annotate__ cannot be deleted");
        return -1;
    }
    if (value != Py_None && !PyCallable_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "__annotate__ must be callable or None");
        return -1;
    }
    if (dict_store(m, str_annotate, value) < 0) {
        return -1;
    }
    return value == Py_None ? 0 : dict_discard(m, str_annotations);
}
#endif

static PyGetSetDef method_getset[] = {
    {"__signature__", (getter)method_get_signature, (setter)method_set_signature, NULL, NULL},
    {"__name__", (getter)method_get_name, (setter)method_set_name, NULL, NULL},
    {"__qualname__", (getter)method_get_qualname, (setter)method_set_qualname, NULL, NULL},
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {"__annotations__", (getter)method_get_annotations, (setter)method_set_annotations,
     NULL, NULL},
#if PY_VERSION_HEX >= 0x030E0000
    {"__annotate__", (getter)method_get_annotate, (setter)method_set_annotate, NULL, NULL},
#endif
    {NULL}
};

static PyMemberDef method_members[] = {
    {"__module__", T_OBJECT, offsetof(Method, module), 0, NULL},
    {"__doc__", T_OBJECT, offsetof(Method, doc), 0, NULL},
    /* T_OBJECT_EX: missing (AttributeError) until attach() sets it */
    {"__objclass__", T_OBJECT_EX, offsetof(Method, objclass), 0, NULL},
    {NULL}
};

static PyMethodDef method_methods[] = {
    {"__reduce__", (PyCFunction)method_reduce, METH_NOARGS, NULL},
    {NULL}
};

/* ------------------------------------------------------------------------ */
/* Arguments: ``def f(self, other)`` binding for the small methods            */
/* ------------------------------------------------------------------------ */

static const char *const PARAMS_EQ[] = {"self", "other"};
static const char *const PARAMS_SELF[] = {"self"};
static const char *const PARAMS_SETATTR[] = {"self", "name", "value"};
static const char *const PARAMS_DELATTR[] = {"self", "name"};

/* The parameters of the Python closure a method stands for (not __init__,
 * whose signature make_init() sets). */
static const char *const *
method_params(Method *m, Py_ssize_t *n)
{
    switch (m->kind) {
    case K_EQ: case K_ORDER: *n = 2; return PARAMS_EQ;
    case K_HASH: case K_REPR: *n = 1; return PARAMS_SELF;
    case K_SETATTR: *n = 3; return PARAMS_SETATTR;
    case K_DELATTR: *n = 2; return PARAMS_DELATTR;
    default: *n = 0; return NULL;
    }
}

/* set_signature_factory(f): ``f(param_names) -> inspect.Signature``. */
static PyObject *
set_signature_factory(PyObject *Py_UNUSED(module), PyObject *factory)
{
    Py_INCREF(factory);
    Py_XSETREF(signature_factory, factory);
    Py_RETURN_NONE;
}

/* Binds a call the way the interpreter binds ``def f(<params>)`` (no
 * defaults) into ``out`` (borrowed references), raising its TypeError texts. */
static int
unpack(Method *m, PyObject *const *args, size_t nargsf, PyObject *kwnames,
       const char *const *params, Py_ssize_t n, PyObject **out)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs == n && nkw == 0) {
        for (Py_ssize_t i = 0; i < n; i++) {
            out[i] = args[i];
        }
        return 0;
    }
    PyObject *qualname = m->qualname ? m->qualname : Py_None;  /* borrowed */
    if (nargs > n) {
        PyErr_Format(PyExc_TypeError,
                     "%U() takes %zd positional argument%s but %zd %s given",
                     qualname, n, n == 1 ? "" : "s", nargs, nargs == 1 ? "was" : "were");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = i < nargs ? args[i] : NULL;
    }
    for (Py_ssize_t j = 0; j < nkw; j++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, j);  /* borrowed */
        Py_ssize_t i = 0;
        for (; i < n; i++) {
            if (PyUnicode_CompareWithASCIIString(key, params[i]) == 0) {
                break;
            }
        }
        if (i == n) {
            PyErr_Format(PyExc_TypeError,
                         "%U() got an unexpected keyword argument '%S'", qualname, key);
            return -1;
        }
        if (out[i] != NULL) {
            PyErr_Format(PyExc_TypeError,
                         "%U() got multiple values for argument '%s'", qualname, params[i]);
            return -1;
        }
        out[i] = args[nargs + j];
    }
    Py_ssize_t missing = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        missing += out[i] == NULL;
    }
    if (missing) {
        /* The interpreter's list: 'a', 'a' and 'b', 'a', 'b', and 'c'. */
        PyObject *listed = PyUnicode_FromString("");
        Py_ssize_t seen = 0;
        for (Py_ssize_t i = 0; i < n && listed != NULL; i++) {
            if (out[i] != NULL) {
                continue;
            }
            seen++;
            const char *sep = seen == 1 ? "" : (missing == 2 ? " and " :
                              (seen == missing ? ", and " : ", "));
            Py_SETREF(listed, PyUnicode_FromFormat("%U%s'%s'", listed, sep, params[i]));
        }
        if (listed != NULL) {
            PyErr_Format(PyExc_TypeError,
                         "%U() missing %zd required positional argument%s: %U",
                         qualname, missing, missing == 1 ? "" : "s", listed);
            Py_DECREF(listed);
        }
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Shared helpers                                                            */
/* ------------------------------------------------------------------------ */

/* ``obj.__class__`` as a new reference: Py_TYPE(obj) unless the type could
 * answer differently (its own __getattribute__/__getattr__ or __class__). */
static PyObject *
class_of(PyObject *obj)
{
    PyTypeObject *tp = Py_TYPE(obj);
    if (tp->tp_getattro == PyObject_GenericGetAttr
            && _PyType_Lookup(tp, str_class) == object_class) {
        return Py_NewRef((PyObject *)tp);
    }
    return PyObject_GetAttr(obj, str_class);
}

#define SMALL 16

/* What a call may use of an instance's layout: copied out of the method's
 * cache onto the caller's stack, because the cache may be recomputed for
 * another type by a nested call (a field's __eq__ comparing instances of a
 * subclass, a default factory constructing one) while this call runs. */
typedef struct {
    PyTypeObject *type;        /* borrowed: what off[] is for, with its tag */
    unsigned int tag;          /* (0: the type had none; never current) */
    int plain;                 /* obj.__class__ is type(obj) */
    int direct;                /* off[] is valid */
    Py_ssize_t off[SMALL];     /* slot offset per field, or -1: generic access */
} Layout;

#define OFFSET(L, i) ((L).direct ? (L).off[i] : -1)

#if PY_VERSION_HEX >= 0x030D0000
/* 3.13+: Py_TPFLAGS_VALID_VERSION_TAG is unused; a tag of 0 means none. */
#define HAS_VERSION_TAG(tp) ((tp)->tp_version_tag != 0)
#else
#define HAS_VERSION_TAG(tp) (((tp)->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) != 0)
#endif

/* The layout of ``tp`` for the fields of ``m`` (its names; an __init__'s
 * steps). A field is read from (or stored into) its slot directly where the
 * interpreter would do just that: its name finds an ordinary ``__slots__``
 * member descriptor on the type, and the type has no __getattribute__ (reads)
 * or, unless the store is object.__setattr__'s (frozen), no __setattr__ of its
 * own. Cached under the type's version tag, which changes whenever the type
 * or one of its bases changes. Never fails: the generic path is always right. */
static void
layout(Method *m, PyTypeObject *tp, int store, Layout *out)
{
    PyObject *names = m->kind == K_INIT ? m->step_names : m->names;  /* borrowed */
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    out->direct = 0;
    out->type = tp;
    out->tag = 0;
    if (!(tp == m->layout_type && tp->tp_version_tag == m->layout_tag
          && HAS_VERSION_TAG(tp))) {
        m->layout_type = NULL;
        if (m->offsets == NULL) {
            m->offsets = PyMem_Malloc((n ? n : 1) * sizeof(Py_ssize_t));
        }
        m->layout_plain = tp->tp_getattro == PyObject_GenericGetAttr
                          && _PyType_Lookup(tp, str_class) == object_class;
        if (m->offsets == NULL) {
            out->plain = m->layout_plain;
            return;
        }
        int usable = store ? (m->frozen || tp->tp_setattro == PyObject_GenericSetAttr)
                           : tp->tp_getattro == PyObject_GenericGetAttr;
        for (Py_ssize_t i = 0; i < n; i++) {
            m->offsets[i] = -1;
            if (!usable) {
                continue;
            }
            PyObject *descr = _PyType_Lookup(tp, PyTuple_GET_ITEM(names, i));  /* borrowed */
            if (descr != NULL && Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
                PyMemberDef *def = ((PyMemberDescrObject *)descr)->d_member;
                if (def->type == T_OBJECT_EX && def->flags == 0
                        && PyType_IsSubtype(tp, PyDescr_TYPE(descr))) {
                    m->offsets[i] = def->offset;
                }
            }
        }
        /* _PyType_Lookup gave the type a version tag, unless it cannot have one. */
        if (HAS_VERSION_TAG(tp)) {
            m->layout_type = tp;
            m->layout_tag = tp->tp_version_tag;
        }
    }
    out->type = tp;
    out->tag = HAS_VERSION_TAG(tp) ? tp->tp_version_tag : 0;
    out->plain = m->layout_plain;
    if (n <= SMALL) {
        memcpy(out->off, m->offsets, n * sizeof(Py_ssize_t));
        out->direct = 1;
    }
}

/* Whether ``L`` still describes ``obj``: Python code run since it was made (a
 * default factory, a setattr) may have changed the class (a __setattr__
 * added, a slot replaced by a property) or assigned ``obj.__class__``. */
static inline int
layout_current(const Layout *L, PyObject *obj)
{
    PyTypeObject *tp = Py_TYPE(obj);
    return tp == L->type && L->tag != 0 && HAS_VERSION_TAG(tp) && tp->tp_version_tag == L->tag;
}

/* ``getattr(obj, name)`` of field i: its slot directly where ``offsets``
 * allows and the slot is set; otherwise the generic lookup (which also
 * raises the interpreter's AttributeError for an unset slot). */
static inline PyObject *
read_field(PyObject *obj, PyObject *name, Py_ssize_t offset)
{
    if (offset >= 0) {
        PyObject *v = *(PyObject **)((char *)obj + offset);
        if (v != NULL) {
            return Py_NewRef(v);
        }
    }
    return PyObject_GetAttr(obj, name);  /* as getattr(): also the error's context */
}

/* ``setattr(obj, name, value)`` (or object.__setattr__ when frozen) of field
 * i: into its slot directly where ``offsets`` allows (what the member
 * descriptor's __set__ does), otherwise through the type. */
static inline int
store_field(PyObject *obj, PyObject *name, PyObject *value, Py_ssize_t offset, int frozen)
{
    if (offset >= 0) {
        PyObject **slot = (PyObject **)((char *)obj + offset);
        PyObject *old = *slot;  /* owned by the instance until replaced */
        *slot = Py_NewRef(value);
        Py_XDECREF(old);
        return 0;
    }
    return frozen ? PyObject_GenericSetAttr(obj, name, value)
                  : PyObject_SetAttr(obj, name, value);
}

/* The tuple of the fields' values, as ``tuple_getter(names)(obj)``. */
static PyObject *
field_tuple(Method *m, PyObject *obj)
{
    PyObject *names = m->names;  /* borrowed */
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    Layout L;
    layout(m, Py_TYPE(obj), 0, &L);
    PyObject *t = PyTuple_New(n);
    if (t == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = read_field(obj, PyTuple_GET_ITEM(names, i), OFFSET(L, i));
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);  /* steals v */
    }
    return t;
}

static int
check_names(PyObject *names)
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

/* Each method runs as a Python function would: under the recursion limit
 * (a field holding its own instance makes hash() recurse; Python code gets a
 * RecursionError, and so does this). */
#define GUARDED(fn)                                                           \
    static PyObject *                                                         \
    fn(Method *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)    \
    {                                                                         \
        if (m->cleared) { /* called from a finalizer of its own garbage */    \
            PyErr_SetString(PyExc_ReferenceError,                             \
                            "compiled function called after it was cleared"); \
            return NULL;                                                      \
        }                                                                     \
        if (Py_EnterRecursiveCall("")) {                                      \
            return NULL;                                                      \
        }                                                                     \
        PyObject *result = fn##_body(m, args, nargsf, kwnames);               \
        Py_LeaveRecursiveCall();                                              \
        return result;                                                        \
    }

/* ------------------------------------------------------------------------ */
/* __eq__ and the orderings (make_eq, make_order)                            */
/* ------------------------------------------------------------------------ */

/* ``other.__class__ is self.__class__`` (1, 0, or -1 on error), read in
 * that order. Without a lookup where both are of one type whose __class__
 * is object's (``layout`` has just looked at ``type(self)``). */
static int
same_class(const Layout *L, PyObject *self, PyObject *other)
{
    if (Py_TYPE(other) == Py_TYPE(self) && L->plain) {
        return 1;
    }
    PyObject *oc = class_of(other);
    if (oc == NULL) {
        return -1;
    }
    PyObject *sc = class_of(self);
    if (sc == NULL) {
        Py_DECREF(oc);
        return -1;
    }
    int same = oc == sc;
    Py_DECREF(oc);
    Py_DECREF(sc);
    return same;
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
eq_call_body(Method *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *a[2];
    if (unpack(m, args, nargsf, kwnames, PARAMS_EQ, 2, a) < 0) {
        return NULL;
    }
    PyObject *self = a[0], *other = a[1];  /* borrowed */
    if (self == other) {
        Py_RETURN_TRUE;
    }
    Layout L;
    layout(m, Py_TYPE(self), 0, &L);
    int same = same_class(&L, self, other);
    if (same <= 0) {
        return same < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    PyObject *result = Py_NewRef(Py_True);
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(m->names, i);  /* borrowed */
        Py_ssize_t offset = Py_TYPE(other) == Py_TYPE(self) ? OFFSET(L, i) : -1;
        PyObject *x = read_field(self, name, offset);
        if (x == NULL) {
            goto error;
        }
        PyObject *y = read_field(other, name, offset);
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

GUARDED(eq_call)

/* __lt__/__le__/__gt__/__ge__: NotImplemented unless
 * ``other.__class__ is self.__class__``; then the field tuples compared. */
static PyObject *
order_call_body(Method *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *a[2];
    if (unpack(m, args, nargsf, kwnames, PARAMS_EQ, 2, a) < 0) {
        return NULL;
    }
    PyObject *self = a[0], *other = a[1];  /* borrowed */
    Layout L;
    layout(m, Py_TYPE(self), 0, &L);
    int same = same_class(&L, self, other);
    if (same <= 0) {
        return same < 0 ? NULL : Py_NewRef(Py_NotImplemented);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    if (n > SMALL || !L.direct) {
        PyObject *x = field_tuple(m, self);
        if (x == NULL) {
            return NULL;
        }
        PyObject *y = field_tuple(m, other);
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
    PyObject *x[SMALL], *y[SMALL];  /* owned, the first n */
    PyObject *result = NULL;
    Py_ssize_t nx = 0, ny = 0, i;
    Py_ssize_t offset;
    for (; nx < n; nx++) {
        x[nx] = read_field(self, PyTuple_GET_ITEM(m->names, nx), OFFSET(L, nx));
        if (x[nx] == NULL) {
            goto done;
        }
    }
    for (; ny < n; ny++) {
        offset = Py_TYPE(other) == Py_TYPE(self) ? OFFSET(L, ny) : -1;
        y[ny] = read_field(other, PyTuple_GET_ITEM(m->names, ny), offset);
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

GUARDED(order_call)

/* eq(name, names) -> the compiled __eq__ comparing ``names``. */
static PyObject *
make_eq(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *name, *names;
    if (!PyArg_ParseTuple(args, "UO:eq", &name, &names) || check_names(names) < 0) {
        return NULL;
    }
    Method *m = method_alloc(K_EQ, (vectorcallfunc)eq_call, name);
    if (m == NULL) {
        return NULL;
    }
    m->names = Py_NewRef(names);
    return (PyObject *)m;
}

/* order(name, names, op) -> the compiled ordering; op is Py_LT, Py_LE, ... */
static PyObject *
make_order(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *name, *names;
    int op;
    if (!PyArg_ParseTuple(args, "UOi:order", &name, &names, &op) || check_names(names) < 0) {
        return NULL;
    }
    if (op < Py_LT || op > Py_GE || op == Py_EQ || op == Py_NE) {
        PyErr_SetString(PyExc_ValueError, "op must be an ordering");
        return NULL;
    }
    Method *m = method_alloc(K_ORDER, (vectorcallfunc)order_call, name);
    if (m == NULL) {
        return NULL;
    }
    m->names = Py_NewRef(names);
    m->op = op;
    return (PyObject *)m;
}

/* ------------------------------------------------------------------------ */
/* __hash__ (make_hash)                                                      */
/* ------------------------------------------------------------------------ */

/* __hash__: ``hash((self.a, self.b, ...))``. */
static PyObject *
hash_call_body(Method *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *self;
    if (unpack(m, args, nargsf, kwnames, PARAMS_SELF, 1, &self) < 0) {
        return NULL;
    }
    PyObject *t = field_tuple(m, self);
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

GUARDED(hash_call)

/* hash(name, names) -> the compiled __hash__. */
static PyObject *
make_hash(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *name, *names;
    if (!PyArg_ParseTuple(args, "UO:hash", &name, &names) || check_names(names) < 0) {
        return NULL;
    }
    Method *m = method_alloc(K_HASH, (vectorcallfunc)hash_call, name);
    if (m == NULL) {
        return NULL;
    }
    m->names = Py_NewRef(names);
    return (PyObject *)m;
}

/* ------------------------------------------------------------------------ */
/* __repr__ (make_repr)                                                      */
/* ------------------------------------------------------------------------ */

/* The field-by-field repr: ``self.__class__.__qualname__ + "(a=%r, b=%r)" %
 * (self.a, self.b)``: the qualname read first, then every field, then the reprs. */
static PyObject *
repr_fields(Method *m, PyObject *self)
{
    PyObject *cls = class_of(self);
    if (cls == NULL) {
        return NULL;
    }
    PyObject *qualname = PyObject_GetAttr(cls, str_qualname);
    Py_DECREF(cls);
    if (qualname == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    PyObject *pieces = m->extra;  /* borrowed: n + 1 strings, "(a=", ", b=", ..., ")" */
    PyObject *parts = PyList_New(2 * n + 2);
    if (parts == NULL) {
        Py_DECREF(qualname);
        return NULL;
    }
    /* The fields' values stay in ``parts`` (borrowed below) while their
     * __repr__ runs Python code: hidden from the gc, so that code cannot
     * reach the list (gc.get_referrers/get_objects) and clear or resize it. */
    PyObject_GC_UnTrack(parts);
    PyObject *result = NULL;
    int is_str = PyUnicode_Check(qualname);
    /* The list owns its items: qualname (or ""), then the pieces and reprs. */
    PyList_SET_ITEM(parts, 0, Py_NewRef(is_str ? qualname : str_empty));
    Layout L;
    layout(m, Py_TYPE(self), 0, &L);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = read_field(self, PyTuple_GET_ITEM(m->names, i), OFFSET(L, i));
        if (v == NULL) {
            goto done;
        }
        PyList_SET_ITEM(parts, 2 * i + 2, v);  /* the value for now, its repr below */
    }
    for (Py_ssize_t i = 0; i <= n; i++) {
        PyList_SET_ITEM(parts, 2 * i + 1, Py_NewRef(PyTuple_GET_ITEM(pieces, i)));
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyList_GET_ITEM(parts, 2 * i + 2);  /* borrowed */
        PyObject *r = PyObject_Repr(v);
        if (r == NULL) {
            goto done;
        }
        PyList_SET_ITEM(parts, 2 * i + 2, r);  /* the list's reference to v ... */
        Py_DECREF(v);                          /* ... is released here */
    }
    result = PyUnicode_Join(str_empty, parts);
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
repr_call_body(Method *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *self;
    if (unpack(m, args, nargsf, kwnames, PARAMS_SELF, 1, &self) < 0) {
        return NULL;
    }
    if (!m->op) {
        return repr_fields(m, self);
    }
    unsigned long thread = PyThread_get_thread_ident();
    for (Py_ssize_t i = 0; i < m->nrunning; i++) {
        if (m->running[i].obj == self && m->running[i].thread == thread) {
            return Py_NewRef(str_dots);
        }
    }
    if (m->nrunning == m->arunning) {
        Py_ssize_t size = m->arunning ? 2 * m->arunning : 4;
        repr_key *grown = PyMem_Realloc(m->running, size * sizeof(repr_key));
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

GUARDED(repr_call)

/* repr(name, names, guarded) -> the compiled __repr__ (with the guard, or
 * the inner one that the guarded one names as __wrapped__). */
static PyObject *
make_repr(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *name, *names;
    int guarded;
    if (!PyArg_ParseTuple(args, "UOp:repr", &name, &names, &guarded)
            || check_names(names) < 0) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    PyObject *pieces = PyTuple_New(n + 1);
    if (pieces == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i <= n; i++) {
        PyObject *piece = i == n ? PyUnicode_FromString(")")
                          : PyUnicode_FromFormat("%s%U=", i ? ", " : "(",
                                                 PyTuple_GET_ITEM(names, i));
        if (piece == NULL) {
            Py_DECREF(pieces);
            return NULL;
        }
        PyTuple_SET_ITEM(pieces, i, piece);
    }
    if (n == 0) {  /* "()" */
        Py_SETREF(pieces, Py_BuildValue("(s)", "()"));
        if (pieces == NULL) {
            return NULL;
        }
    }
    Method *m = method_alloc(K_REPR, (vectorcallfunc)repr_call, name);
    if (m == NULL) {
        Py_DECREF(pieces);
        return NULL;
    }
    m->names = Py_NewRef(names);
    m->extra = pieces;  /* owned */
    m->op = guarded;
    return (PyObject *)m;
}

/* ------------------------------------------------------------------------ */
/* __init__ (make_init)                                                      */
/* ------------------------------------------------------------------------ */

/* Binds a valid call as ``def __init__(self, <names[:npos]>, *, <rest>)``
 * into ``values`` (borrowed: arguments or defaults; the factory marker where
 * a default factory is due). Returns 0 when the call does not bind simply
 * (too many positionals, an unknown or repeated keyword, a missing argument):
 * the Python binder then raises the interpreter's TypeError. */
static int
bind_fast(Method *m, PyObject *const *args, Py_ssize_t given, PyObject *kwnames,
          PyObject **values)
{
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    if (given > m->npos) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < given; i++) {
        values[i] = args[i];
    }
    for (Py_ssize_t i = given; i < n; i++) {
        values[i] = NULL;
    }
    if (kwnames != NULL) {
        Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t j = 0; j < nkw; j++) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, j);  /* borrowed */
            Py_ssize_t i = 0;
            for (; i < n && PyTuple_GET_ITEM(m->names, i) != key; i++) {
            }
            if (i == n) {  /* not interned alike: compare, as the interpreter does */
                for (i = 0; i < n; i++) {
                    int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(m->names, i), key, Py_EQ);
                    if (eq < 0) {
                        return -1;
                    }
                    if (eq) {
                        break;
                    }
                }
                if (i == n) {
                    return 0;
                }
            }
            if (values[i] != NULL) {
                return 0;
            }
            values[i] = args[given + j];
        }
    }
    PyObject *defaults = m->extra;  /* borrowed: tuple, no_default where none */
    for (Py_ssize_t i = given; i < n; i++) {
        if (values[i] == NULL) {
            PyObject *d = PyTuple_GET_ITEM(defaults, i);
            if (d == m->no_default) {
                return 0;
            }
            values[i] = d;
        }
    }
    return 1;
}

/* The Python binder for calls bind_fast declines: ``bind(args, kwargs)``
 * returns the values in parameter order or raises the interpreter's TypeError. */
static PyObject *
bind_slow(Method *m, PyObject *const *args, Py_ssize_t given, PyObject *kwnames)
{
    PyObject *posargs = PyTuple_New(given);
    if (posargs == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < given; i++) {
        PyTuple_SET_ITEM(posargs, i, Py_NewRef(args[i]));
    }
    PyObject *kwargs = PyDict_New();
    if (kwargs == NULL) {
        Py_DECREF(posargs);
        return NULL;
    }
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t j = 0; j < nkw; j++) {
        if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, j), args[given + j]) < 0) {
            Py_DECREF(posargs);
            Py_DECREF(kwargs);
            return NULL;
        }
    }
    PyObject *bound = PyObject_CallFunctionObjArgs(m->bind, posargs, kwargs, NULL);
    Py_DECREF(posargs);
    Py_DECREF(kwargs);
    if (bound == NULL) {
        return NULL;
    }
    if (!PyTuple_CheckExact(bound) || PyTuple_GET_SIZE(bound) != PyTuple_GET_SIZE(m->names)) {
        Py_DECREF(bound);
        PyErr_SetString(PyExc_SystemError, "dataclass_meta: binder returned a bad result");
        return NULL;
    }
    return bound;
}

/* Stores the fields in definition order (``setattr``, or
 * ``object.__setattr__`` when frozen), calling default factories at their
 * field's turn, then ``self.__post_init__(*initvars)``. */
static int
init_assign(Method *m, PyObject *self, PyObject **values)
{
    Layout L;
    layout(m, Py_TYPE(self), 1, &L);
    for (Py_ssize_t s = 0; s < m->nsteps; s++) {
        init_step *st = &m->step[s];
        PyObject *value;  /* owned */
        if (st->index < 0) {
            value = PyObject_CallNoArgs(st->factory);
        }
        else {
            value = values[st->index];
            if (value == m->factory_marker && st->factory != NULL) {
                value = PyObject_CallNoArgs(st->factory);
            }
            else {
                Py_INCREF(value);
            }
        }
        if (value == NULL) {
            return -1;
        }
        if (!layout_current(&L, self)) {  /* the factory or a store ran Python code */
            layout(m, Py_TYPE(self), 1, &L);
        }
        int rc = store_field(self, st->name, value, OFFSET(L, s), m->frozen);
        Py_DECREF(value);
        if (rc < 0) {
            return -1;
        }
    }
    if (!m->post_init) {
        return 0;
    }
    if (m->unbound != NULL) {
        PyErr_Format(PyExc_NameError, "name %R is not defined", m->unbound);
        return -1;
    }
    Py_ssize_t k = PyTuple_GET_SIZE(m->initvars);
    PyObject *small[SMALL + 1];
    PyObject **stack = k < SMALL ? small : PyMem_Malloc((k + 1) * sizeof(PyObject *));
    if (stack == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    stack[0] = self;  /* borrowed, as are the values */
    for (Py_ssize_t i = 0; i < k; i++) {
        stack[i + 1] = values[PyLong_AsSsize_t(PyTuple_GET_ITEM(m->initvars, i))];
    }
    PyObject *r = PyObject_VectorcallMethod(str_post_init, stack,
                                            (size_t)(k + 1) | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                            NULL);
    if (stack != small) {
        PyMem_Free(stack);
    }
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

/* __init__(self, x, y=0, *, z): bind, assign, __post_init__ (3.13 _init_fn). */
static PyObject *
init_call_body(Method *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs < 1) {
        PyErr_Format(PyExc_TypeError,
                     "%U() missing 1 required positional argument: 'self'",
                     m->qualname ? m->qualname : Py_None);
        return NULL;
    }
    PyObject *self = args[0];  /* borrowed */
    Py_ssize_t n = PyTuple_GET_SIZE(m->names);
    PyObject *small[SMALL];
    PyObject **values = n <= SMALL ? small : PyMem_Malloc(n * sizeof(PyObject *));
    if (values == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *bound = NULL;  /* owned: the Python binder's result, if used */
    PyObject *result = NULL;
    int fast = bind_fast(m, args + 1, nargs - 1, nkw ? kwnames : NULL, values);
    if (fast < 0) {
        goto done;
    }
    if (!fast) {
        bound = bind_slow(m, args + 1, nargs - 1, nkw ? kwnames : NULL);
        if (bound == NULL) {
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            values[i] = PyTuple_GET_ITEM(bound, i);  /* borrowed from bound */
        }
    }
    if (init_assign(m, self, values) == 0) {
        result = Py_NewRef(Py_None);
    }
done:
    Py_XDECREF(bound);
    if (values != small) {
        PyMem_Free(values);
    }
    return result;
}

GUARDED(init_call)

/* init(name, names, npos, defaults, steps, initvars, unbound, frozen,
 *      post_init, bind, factory_marker, no_default) -> the compiled __init__.
 * steps: (field name, parameter index or -1, factory or None) in field order. */
static PyObject *
make_init(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *name, *names, *defaults, *steps, *initvars, *unbound, *bind;
    PyObject *marker, *no_default;
    Py_ssize_t npos;
    int frozen, post_init;
    if (!PyArg_ParseTuple(args, "UOnO!O!O!OppOOO:init", &name, &names, &npos,
                          &PyTuple_Type, &defaults, &PyTuple_Type, &steps,
                          &PyTuple_Type, &initvars, &unbound, &frozen, &post_init,
                          &bind, &marker, &no_default)
            || check_names(names) < 0) {
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if (PyTuple_GET_SIZE(defaults) != n || npos < 0 || npos > n) {
        PyErr_SetString(PyExc_ValueError, "defaults and npos must match names");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(initvars); i++) {
        PyObject *item = PyTuple_GET_ITEM(initvars, i);
        Py_ssize_t index = PyLong_Check(item) ? PyLong_AsSsize_t(item) : -1;
        if (index < 0 || index >= n) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "initvars must be parameter indexes");
            return NULL;
        }
    }
    Py_ssize_t nsteps = PyTuple_GET_SIZE(steps);
    PyObject *step_names = PyTuple_New(nsteps);
    if (step_names == NULL) {
        return NULL;
    }
    init_step *step = PyMem_Malloc((nsteps ? nsteps : 1) * sizeof(init_step));
    if (step == NULL) {
        Py_DECREF(step_names);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t s = 0; s < nsteps; s++) {
        PyObject *item = PyTuple_GET_ITEM(steps, s);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3
                || !PyUnicode_Check(PyTuple_GET_ITEM(item, 0))) {
            goto bad_step;
        }
        Py_ssize_t index = PyLong_AsSsize_t(PyTuple_GET_ITEM(item, 1));
        if ((index == -1 && PyErr_Occurred()) || index < -1 || index >= n) {
            PyErr_Clear();
            goto bad_step;
        }
        PyObject *factory = PyTuple_GET_ITEM(item, 2);
        step[s].name = PyTuple_GET_ITEM(item, 0);  /* borrowed from steps */
        PyTuple_SET_ITEM(step_names, s, Py_NewRef(step[s].name));
        step[s].index = index;
        step[s].factory = factory == Py_None ? NULL : factory;  /* borrowed */
        if (index < 0 && step[s].factory == NULL) {
            goto bad_step;
        }
    }
    Method *m = method_alloc(K_INIT, (vectorcallfunc)init_call, name);
    if (m == NULL) {
        PyMem_Free(step);
        Py_DECREF(step_names);
        return NULL;
    }
    m->step_names = step_names;  /* owned */
    m->names = Py_NewRef(names);
    m->npos = npos;
    m->extra = Py_NewRef(defaults);
    m->steps = Py_NewRef(steps);
    m->step = step;
    m->nsteps = nsteps;
    m->initvars = Py_NewRef(initvars);
    m->unbound = unbound == Py_None ? NULL : Py_NewRef(unbound);
    m->frozen = frozen;
    m->post_init = post_init;
    m->bind = Py_NewRef(bind);
    m->factory_marker = Py_NewRef(marker);
    m->no_default = Py_NewRef(no_default);
    return (PyObject *)m;
bad_step:
    PyMem_Free(step);
    Py_DECREF(step_names);
    PyErr_SetString(PyExc_ValueError,
                    "steps must be (name, index, factory) with a factory where index is -1");
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* frozen __setattr__ / __delattr__ (make_frozen_setattr/delattr)            */
/* ------------------------------------------------------------------------ */

/* Raises FrozenInstanceError when ``type(self) is cls or name in names``;
 * returns 1 when the attribute may be passed on to super(cls, self). */
static int
frozen_check(Method *m, PyObject *self, PyObject *name, const char *verb)
{
    int hit = (PyObject *)Py_TYPE(self) == m->cls;
    if (!hit) {
        hit = PySet_Contains(m->extra, name);
        if (hit < 0) {
            return -1;
        }
    }
    if (!hit) {
        return 1;
    }
    PyObject *msg = PyUnicode_FromFormat("cannot %s field %R", verb, name);
    if (msg != NULL) {
        PyErr_SetObject(m->error, msg);
        Py_DECREF(msg);
    }
    return -1;
}

/* ``super(cls, self).<method>(*rest)`` */
static PyObject *
call_super(Method *m, PyObject *self, PyObject *method, PyObject *const *rest, Py_ssize_t k)
{
    PyObject *sup = PyObject_CallFunctionObjArgs((PyObject *)&PySuper_Type, m->cls, self, NULL);
    if (sup == NULL) {
        return NULL;
    }
    PyObject *stack[3] = {sup, k > 0 ? rest[0] : NULL, k > 1 ? rest[1] : NULL};
    PyObject *r = PyObject_VectorcallMethod(method, stack, (size_t)(k + 1), NULL);
    Py_DECREF(sup);
    return r;
}

/* A frozen class's __setattr__: fields (and anything on the class itself)
 * cannot be assigned; a subclass's own new attributes can. */
static PyObject *
setattr_call_body(Method *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *a[3];
    if (unpack(m, args, nargsf, kwnames, PARAMS_SETATTR, 3, a) < 0) {
        return NULL;
    }
    int ok = frozen_check(m, a[0], a[1], "assign to");
    return ok < 0 ? NULL : call_super(m, a[0], str_setattr, a + 1, 2);
}

GUARDED(setattr_call)

/* A frozen class's __delattr__, the twin of __setattr__. */
static PyObject *
delattr_call_body(Method *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *a[2];
    if (unpack(m, args, nargsf, kwnames, PARAMS_DELATTR, 2, a) < 0) {
        return NULL;
    }
    int ok = frozen_check(m, a[0], a[1], "delete");
    return ok < 0 ? NULL : call_super(m, a[0], str_delattr, a + 1, 1);
}

GUARDED(delattr_call)

/* frozen(name, cls, names, error, delete) -> the compiled __setattr__ or __delattr__. */
static PyObject *
make_frozen(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *name, *cls, *names, *error;
    int delete;
    if (!PyArg_ParseTuple(args, "UO!O!Op:frozen", &name, &PyType_Type, &cls,
                          &PyFrozenSet_Type, &names, &error, &delete)) {
        return NULL;
    }
    Method *m = method_alloc(delete ? K_DELATTR : K_SETATTR,
                             delete ? (vectorcallfunc)delattr_call : (vectorcallfunc)setattr_call,
                             name);
    if (m == NULL) {
        return NULL;
    }
    m->cls = Py_NewRef(cls);
    m->extra = Py_NewRef(names);
    m->error = Py_NewRef(error);
    return (PyObject *)m;
}

/* ------------------------------------------------------------------------ */
/* The module                                                                */
/* ------------------------------------------------------------------------ */

static PyTypeObject Method_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "dataclass_meta._speedups.compiled_function",
    .tp_basicsize = sizeof(Method),
    .tp_dealloc = (destructor)method_dealloc,
    .tp_vectorcall_offset = offsetof(Method, vectorcall),
    .tp_repr = (reprfunc)method_repr,
    .tp_call = PyVectorcall_Call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
                 | Py_TPFLAGS_METHOD_DESCRIPTOR),
    .tp_traverse = (traverseproc)method_traverse,
    .tp_clear = (inquiry)method_clear,
    .tp_weaklistoffset = offsetof(Method, weakreflist),
    .tp_methods = method_methods,
    .tp_members = method_members,
    .tp_getset = method_getset,
    .tp_descr_get = method_descr_get,
    .tp_dictoffset = offsetof(Method, dict),
};

static PyMethodDef module_methods[] = {
    {"eq", make_eq, METH_VARARGS, "eq(name, names): a compiled __eq__."},
    {"order", make_order, METH_VARARGS, "order(name, names, op): a compiled ordering."},
    {"hash", make_hash, METH_VARARGS, "hash(name, names): a compiled __hash__."},
    {"repr", make_repr, METH_VARARGS, "repr(name, names, guarded): a compiled __repr__."},
    {"init", make_init, METH_VARARGS, "init(...): a compiled __init__ (see _init.py)."},
    {"set_signature_factory", set_signature_factory, METH_O,
     "set_signature_factory(f): f(param_names) builds the small methods' signatures."},
    {"frozen", make_frozen, METH_VARARGS,
     "frozen(name, cls, names, error, delete): a frozen __setattr__/__delattr__."},
    {NULL}
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "dataclass_meta._speedups",
    .m_doc = "The generated methods of dataclass_meta as C-level closures.",
    .m_size = -1,
    .m_methods = module_methods,
};

static int
intern(PyObject **slot, const char *text)
{
    *slot = PyUnicode_InternFromString(text);
    return *slot == NULL ? -1 : 0;
}

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if (str_class == NULL) {  /* interned once per process, never released */
        if (intern(&str_class, "__class__") < 0 || intern(&str_qualname, "__qualname__") < 0
                || intern(&str_post_init, "__post_init__") < 0
                || intern(&str_setattr, "__setattr__") < 0
                || intern(&str_delattr, "__delattr__") < 0
                || intern(&str_signature, "__signature__") < 0
                || intern(&str_annotations, "__annotations__") < 0
                || intern(&str_annotate, "__annotate__") < 0
                || intern(&str_empty, "") < 0 || intern(&str_dots, "...") < 0) {
            return NULL;
        }
        object_class = _PyType_Lookup(&PyBaseObject_Type, str_class);  /* borrowed */
        if (object_class == NULL) {
            PyErr_SetString(PyExc_ImportError, "object has no __class__ descriptor");
            return NULL;
        }
        Py_INCREF(object_class);  /* now owned, for the life of the process */
    }
    if (PyType_Ready(&Method_Type) < 0) {
        return NULL;
    }
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) {
        return NULL;
    }
    Py_INCREF(&Method_Type);
    if (PyModule_AddObject(module, "compiled_function", (PyObject *)&Method_Type) < 0) {
        Py_DECREF(&Method_Type);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
