/* The floors of the public C API: the least work C code can do for each
 * instance operation, so that the benchmark can show, in the same run, how
 * far below the stdlib any C implementation could go on this Python.
 *
 * Benchmark-only (built by benchmarks/floors.py, never shipped). Each floor
 * does what the operation cannot skip and nothing else: no argument
 * checking beyond what it needs, no error texts, no recursion guard.
 *
 *   init(cls, names, defaults, factory) -> a callable called like the class:
 *       allocate an instance of ``cls`` as object.__new__ does, then store
 *       each value (positional or keyword; the last len(defaults) fields may
 *       be left out, the last one's value made by ``factory`` if given):
 *       by offset where the field is a __slots__ member, else through the
 *       generic attribute store (PyObject_GenericSetAttr).
 *   method(kind, cls, names) -> a method for ``cls`` ('eq', 'lt', 'hash',
 *       'repr'): reads each field (by offset where it can, else
 *       PyObject_GetAttr) and compares, hashes or formats them as the
 *       stdlib's method does.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#define MAX_FIELDS 32

enum kind { INIT, EQ, LT, HASH, REPR };

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    enum kind kind;
    PyTypeObject *cls;       /* owned */
    PyObject *names;         /* owned: a tuple of str */
    PyObject *defaults;      /* owned: for the last len(defaults) fields */
    PyObject *factory;       /* owned or NULL: makes the last field's value */
    PyObject *labels;        /* owned or NULL: repr's "a=", ", b=", ... */
    Py_ssize_t nfields;
    Py_ssize_t offsets[MAX_FIELDS];  /* > 0: a __slots__ member; 0: generic */
} Floor;

static PyTypeObject Floor_Type;

static PyObject *
read_field(Floor *f, PyObject *obj, Py_ssize_t i)
{
    if (f->offsets[i] > 0) {
        PyObject *value = *(PyObject **)((char *)obj + f->offsets[i]);
        if (value == NULL) {
            PyErr_SetObject(PyExc_AttributeError, PyTuple_GET_ITEM(f->names, i));
            return NULL;
        }
        return Py_NewRef(value);
    }
    return PyObject_GetAttr(obj, PyTuple_GET_ITEM(f->names, i));
}

static int
store_field(Floor *f, PyObject *obj, Py_ssize_t i, PyObject *value)
{
    if (f->offsets[i] > 0) {
        PyObject **slot = (PyObject **)((char *)obj + f->offsets[i]);
        Py_XSETREF(*slot, Py_NewRef(value));
        return 0;
    }
    return PyObject_GenericSetAttr(obj, PyTuple_GET_ITEM(f->names, i), value);
}

/* object.__new__'s allocation (3.11 and 3.12 set up the inline values there). */
static PyObject *
allocate(PyTypeObject *cls)
{
#if PY_VERSION_HEX >= 0x030D0000
    return cls->tp_alloc(cls, 0);
#else
    PyObject *empty = PyTuple_New(0);
    if (empty == NULL) {
        return NULL;
    }
    PyObject *obj = PyBaseObject_Type.tp_new(cls, empty, NULL);
    Py_DECREF(empty);
    return obj;
#endif
}

static PyObject *
floor_init(Floor *f, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), n = f->nfields;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *values[MAX_FIELDS];  /* borrowed; NULL: not passed */
    if (nargs > n) {
        PyErr_SetString(PyExc_TypeError, "too many arguments");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        values[i] = i < nargs ? args[i] : NULL;
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        Py_ssize_t i = 0;
        while (i < n && PyTuple_GET_ITEM(f->names, i) != key
               && PyUnicode_Compare(PyTuple_GET_ITEM(f->names, i), key) != 0) {
            i++;
        }
        if (i == n) {
            PyErr_SetObject(PyExc_TypeError, key);
            return NULL;
        }
        values[i] = args[nargs + k];
    }
    PyObject *obj = allocate(f->cls);
    if (obj == NULL) {
        return NULL;
    }
    Py_ssize_t first_default = n - PyTuple_GET_SIZE(f->defaults);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *made = NULL;  /* owned: a factory's value */
        PyObject *value = values[i];
        if (value == NULL && i == n - 1 && f->factory != NULL) {
            value = made = PyObject_CallNoArgs(f->factory);
            if (made == NULL) {
                goto error;
            }
        }
        else if (value == NULL && i >= first_default) {
            value = PyTuple_GET_ITEM(f->defaults, i - first_default);
        }
        else if (value == NULL) {
            PyErr_SetObject(PyExc_TypeError, PyTuple_GET_ITEM(f->names, i));
            goto error;
        }
        int failed = store_field(f, obj, i, value);
        Py_XDECREF(made);
        if (failed) {
            goto error;
        }
    }
    return obj;
error:
    Py_DECREF(obj);
    return NULL;
}

/* ==: both of the class, then field by field (with PyObject_RichCompareBool's
 * identity shortcut, which 3.13+'s ``self.a == other.a and ...`` does not take:
 * if anything, this is below the real floor). */
static PyObject *
floor_eq(Floor *f, PyObject *self, PyObject *other)
{
    if (Py_TYPE(other) != Py_TYPE(self)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    for (Py_ssize_t i = 0; i < f->nfields; i++) {
        PyObject *a = read_field(f, self, i), *b = a ? read_field(f, other, i) : NULL;
        int equal = b ? PyObject_RichCompareBool(a, b, Py_EQ) : -1;
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (equal <= 0) {
            return equal < 0 ? NULL : Py_NewRef(Py_False);
        }
    }
    Py_RETURN_TRUE;
}

/* <: the first field that differs decides, as tuples compare. */
static PyObject *
floor_lt(Floor *f, PyObject *self, PyObject *other)
{
    if (Py_TYPE(other) != Py_TYPE(self)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    for (Py_ssize_t i = 0; i < f->nfields; i++) {
        PyObject *a = read_field(f, self, i), *b = a ? read_field(f, other, i) : NULL;
        int equal = b ? PyObject_RichCompareBool(a, b, Py_EQ) : -1;
        PyObject *result = equal == 0 ? PyObject_RichCompare(a, b, Py_LT) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(b);
        if (equal != 1) {
            return result;
        }
    }
    Py_RETURN_FALSE;
}

/* hash: of the tuple of the fields, as the stdlib's hash((self.a, ...)). */
static PyObject *
floor_hash(Floor *f, PyObject *self)
{
    PyObject *tuple = PyTuple_New(f->nfields);
    if (tuple == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < f->nfields; i++) {
        PyObject *value = read_field(f, self, i);
        if (value == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, value);
    }
    Py_hash_t hash = PyObject_Hash(tuple);
    Py_DECREF(tuple);
    return hash == -1 ? NULL : PyLong_FromSsize_t(hash);
}

/* repr: "Qualname(a=1, b=2)" as one join of the qualname, "(", each label and
 * value's repr, and ")"; without the stdlib's recursion guard. */
static PyObject *
floor_repr(Floor *f, PyObject *self)
{
    Py_ssize_t n = f->nfields;
    PyObject *parts = PyTuple_New(2 * n + 3), *result = NULL;
    PyObject *empty = PyUnicode_New(0, 0);
    if (parts == NULL || empty == NULL) {
        goto done;
    }
    PyTuple_SET_ITEM(parts, 0, Py_NewRef(((PyHeapTypeObject *)Py_TYPE(self))->ht_qualname));
    PyTuple_SET_ITEM(parts, 1, Py_NewRef(PyTuple_GET_ITEM(f->labels, n)));      /* "(" */
    PyTuple_SET_ITEM(parts, 2 * n + 2, Py_NewRef(PyTuple_GET_ITEM(f->labels, n + 1)));  /* ")" */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = read_field(f, self, i);
        PyObject *text = value ? PyObject_Repr(value) : NULL;
        Py_XDECREF(value);
        if (text == NULL) {
            goto done;
        }
        PyTuple_SET_ITEM(parts, 2 + 2 * i, Py_NewRef(PyTuple_GET_ITEM(f->labels, i)));
        PyTuple_SET_ITEM(parts, 3 + 2 * i, text);
    }
    result = PyUnicode_Join(empty, parts);
done:
    Py_XDECREF(parts);
    Py_XDECREF(empty);
    return result;
}

/* repr's constant pieces: "a=", ", b=", ..., then "(" and ")". */
static PyObject *
repr_labels(PyObject *names)
{
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    PyObject *labels = PyTuple_New(n + 2);
    if (labels == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *label = PyUnicode_FromFormat("%s%U=", i ? ", " : "", PyTuple_GET_ITEM(names, i));
        if (label == NULL) {
            Py_DECREF(labels);
            return NULL;
        }
        PyTuple_SET_ITEM(labels, i, label);
    }
    PyObject *open = PyUnicode_FromString("("), *close = PyUnicode_FromString(")");
    if (open == NULL || close == NULL) {
        Py_XDECREF(open);
        Py_XDECREF(close);
        Py_DECREF(labels);
        return NULL;
    }
    PyTuple_SET_ITEM(labels, n, open);
    PyTuple_SET_ITEM(labels, n + 1, close);
    return labels;
}

static PyObject *
floor_call(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Floor *f = (Floor *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (f->kind == INIT) {
        return floor_init(f, args, nargsf, kwnames);
    }
    Py_ssize_t wanted = (f->kind == EQ || f->kind == LT) ? 2 : 1;
    if (nargs != wanted || kwnames != NULL) {
        PyErr_SetString(PyExc_TypeError, "wrong arguments");
        return NULL;
    }
    switch (f->kind) {
    case EQ:
        return floor_eq(f, args[0], args[1]);
    case LT:
        return floor_lt(f, args[0], args[1]);
    case HASH:
        return floor_hash(f, args[0]);
    default:
        return floor_repr(f, args[0]);
    }
}

/* A method binds to an instance; the constructor stays as it is. */
static PyObject *
floor_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || ((Floor *)self)->kind == INIT) {
        return Py_NewRef(self);
    }
    return PyMethod_New(self, obj);
}

static int
floor_traverse(Floor *f, visitproc visit, void *arg)
{
    Py_VISIT(f->cls);
    Py_VISIT(f->names);
    Py_VISIT(f->defaults);
    Py_VISIT(f->factory);
    Py_VISIT(f->labels);
    return 0;
}

static int
floor_clear(Floor *f)
{
    Py_CLEAR(f->cls);
    Py_CLEAR(f->names);
    Py_CLEAR(f->defaults);
    Py_CLEAR(f->factory);
    Py_CLEAR(f->labels);
    return 0;
}

static void
floor_dealloc(Floor *f)
{
    PyObject_GC_UnTrack(f);
    floor_clear(f);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

static PyTypeObject Floor_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_floors.Floor",
    .tp_basicsize = sizeof(Floor),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL
                | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_vectorcall_offset = offsetof(Floor, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_descr_get = floor_get,
    .tp_traverse = (traverseproc)floor_traverse,
    .tp_clear = (inquiry)floor_clear,
    .tp_dealloc = (destructor)floor_dealloc,
};

/* A new floor of ``kind`` for the fields ``names`` of ``cls``. */
static PyObject *
make_floor(enum kind kind, PyObject *cls, PyObject *names, PyObject *defaults, PyObject *factory)
{
    if (!PyType_Check(cls) || !PyTuple_Check(names) || !PyTuple_Check(defaults)
            || PyTuple_GET_SIZE(names) > MAX_FIELDS
            || PyTuple_GET_SIZE(defaults) > PyTuple_GET_SIZE(names)) {
        PyErr_SetString(PyExc_TypeError, "a class, a tuple of at most 32 names, a tuple");
        return NULL;
    }
    Floor *f = PyObject_GC_New(Floor, &Floor_Type);
    if (f == NULL) {
        return NULL;
    }
    f->vectorcall = floor_call;
    f->kind = kind;
    f->cls = (PyTypeObject *)Py_NewRef(cls);
    f->names = Py_NewRef(names);
    f->defaults = Py_NewRef(defaults);
    f->factory = factory == Py_None ? NULL : Py_NewRef(factory);
    f->labels = NULL;
    f->nfields = PyTuple_GET_SIZE(names);
    for (Py_ssize_t i = 0; i < f->nfields; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        PyObject *attr = PyObject_GetAttr(cls, name);  /* a member descriptor for a slot */
        if (attr == NULL) {
            PyErr_Clear();
        }
        f->offsets[i] = 0;
        if (attr != NULL && Py_IS_TYPE(attr, &PyMemberDescr_Type)) {
            PyMemberDef *member = ((PyMemberDescrObject *)attr)->d_member;
            if (member->type == T_OBJECT_EX) {
                f->offsets[i] = member->offset;
            }
        }
        Py_XDECREF(attr);
    }
    PyObject_GC_Track(f);
    if (kind == REPR && (f->labels = repr_labels(names)) == NULL) {
        Py_DECREF(f);
        return NULL;
    }
    return (PyObject *)f;
}

static PyObject *
floors_init(PyObject *module, PyObject *args)
{
    PyObject *cls, *names, *defaults, *factory;
    if (!PyArg_ParseTuple(args, "OOOO:init", &cls, &names, &defaults, &factory)) {
        return NULL;
    }
    return make_floor(INIT, cls, names, defaults, factory);
}

static PyObject *
floors_method(PyObject *module, PyObject *args)
{
    const char *name;
    PyObject *cls, *names;
    if (!PyArg_ParseTuple(args, "sOO:method", &name, &cls, &names)) {
        return NULL;
    }
    enum kind kind = strcmp(name, "eq") == 0 ? EQ : strcmp(name, "lt") == 0 ? LT
                   : strcmp(name, "hash") == 0 ? HASH : strcmp(name, "repr") == 0 ? REPR : INIT;
    if (kind == INIT) {
        PyErr_SetString(PyExc_ValueError, "kind: 'eq', 'lt', 'hash' or 'repr'");
        return NULL;
    }
    PyObject *empty = PyTuple_New(0);
    if (empty == NULL) {
        return NULL;
    }
    PyObject *result = make_floor(kind, cls, names, empty, Py_None);
    Py_DECREF(empty);
    return result;
}

static PyMethodDef floors_functions[] = {
    {"init", floors_init, METH_VARARGS, "init(cls, names, defaults, factory)"},
    {"method", floors_method, METH_VARARGS, "method(kind, cls, names)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef floors_module = {
    PyModuleDef_HEAD_INIT, "_floors", "The public C API's floors, for the benchmarks.", -1,
    floors_functions,
};

PyMODINIT_FUNC
PyInit__floors(void)
{
    if (PyType_Ready(&Floor_Type) < 0) {
        return NULL;
    }
    return PyModule_Create(&floors_module);
}
