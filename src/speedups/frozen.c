/* A frozen class's __setattr__ / __delattr__ (make_frozen_setattr/delattr). */

#include "speedups.h"

typedef struct {
    dm_function head;
    PyObject *cls;           /* owned: the frozen class */
    PyObject *names;         /* owned frozenset: its fields' names */
    PyObject *error;         /* owned: FrozenInstanceError */
} dm_frozen;

static const char *const PARAMS_SETATTR[] = {"self", "name", "value"};
static const char *const PARAMS_DELATTR[] = {"self", "name"};

static int
frozen_traverse(dm_function *f, visitproc visit, void *arg)
{
    dm_frozen *m = (dm_frozen *)f;
    Py_VISIT(m->cls);
    Py_VISIT(m->names);
    Py_VISIT(m->error);
    return 0;
}

static void
frozen_clear(dm_function *f)
{
    dm_frozen *m = (dm_frozen *)f;
    Py_CLEAR(m->cls);
    Py_CLEAR(m->names);
    Py_CLEAR(m->error);
}

static const dm_kind kind_setattr = {
    PARAMS_SETATTR, 3, sizeof(dm_frozen), frozen_traverse, frozen_clear, NULL,
};
static const dm_kind kind_delattr = {
    PARAMS_DELATTR, 2, sizeof(dm_frozen), frozen_traverse, frozen_clear, NULL,
};

/* Raises FrozenInstanceError when ``type(self) is cls or name in names``;
 * returns 1 when the attribute may be passed on to super(cls, self). */
static int
frozen_check(dm_frozen *m, PyObject *self, PyObject *name, const char *verb)
{
    int hit = (PyObject *)Py_TYPE(self) == m->cls;
    if (!hit) {
        hit = PySet_Contains(m->names, name);
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
call_super(dm_frozen *m, PyObject *self, PyObject *method, PyObject *const *rest, Py_ssize_t k)
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
setattr_call_body(dm_frozen *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *a[3];
    if (dm_unpack(&m->head, args, nargsf, kwnames, a, 3) < 0) {
        return NULL;
    }
    if (frozen_check(m, a[0], a[1], "assign to") < 0) {
        return NULL;
    }
    return call_super(m, a[0], dm_state_of(m)->str_setattr, a + 1, 2);
}

DM_GUARDED(setattr_call, dm_frozen)

/* A frozen class's __delattr__, the twin of __setattr__. */
static PyObject *
delattr_call_body(dm_frozen *m, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *a[2];
    if (dm_unpack(&m->head, args, nargsf, kwnames, a, 2) < 0) {
        return NULL;
    }
    if (frozen_check(m, a[0], a[1], "delete") < 0) {
        return NULL;
    }
    return call_super(m, a[0], dm_state_of(m)->str_delattr, a + 1, 1);
}

DM_GUARDED(delattr_call, dm_frozen)

/* frozen(name, plan) -> the compiled __setattr__ or __delattr__ (``name``)
 * of the frozen class ``plan.cls``, whose fields are ``plan.field_names``. */
PyObject *
dm_make_frozen(PyObject *module, PyObject *args)
{
    PyObject *name, *plan;
    if (!PyArg_ParseTuple(args, "UO:frozen", &name, &plan)) {
        return NULL;
    }
    int delete = PyUnicode_CompareWithASCIIString(name, "__delattr__") == 0;
    if (!delete && PyUnicode_CompareWithASCIIString(name, "__setattr__") != 0) {
        PyErr_Format(PyExc_ValueError,
                     "frozen: %R: expected '__setattr__' or '__delattr__'", name);
        return NULL;
    }
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    PyObject *names = NULL;                    /* owned */
    PyObject *cls = dm_plan_get(st, plan, CLS);  /* owned */
    if (cls != NULL && !PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "frozen: the plan's cls must be a class");
        goto error;
    }
    PyObject *field_names = cls == NULL ? NULL : dm_plan_get(st, plan, FIELD_NAMES);
    if (field_names == NULL) {
        goto error;
    }
    names = dm_check_names(field_names) < 0 ? NULL : PyFrozenSet_New(field_names);
    Py_DECREF(field_names);
    if (names == NULL) {
        goto error;
    }
    dm_frozen *m = (dm_frozen *)dm_function_new(st, delete ? &kind_delattr : &kind_setattr,
                                                delete ? delattr_call : setattr_call, name);
    if (m == NULL) {
        goto error;
    }
    m->cls = cls;      /* steals */
    m->names = names;  /* steals */
    m->error = Py_NewRef(st->hook[DM_HOOK_FROZEN_ERROR]);
    return (PyObject *)m;
error:
    Py_XDECREF(cls);
    Py_XDECREF(names);
    return NULL;
}
