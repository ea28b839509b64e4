/* The module: multi-phase initialisation (PEP 489), its state, its functions.
 *
 * Each import (in each interpreter) runs module_exec on a fresh module object
 * whose state holds everything the extension keeps: the compiled_function
 * type, interned names (the contract's among them), object's __class__
 * descriptor, and the hooks that configure() reads. Nothing is shared
 * between interpreters, so the module declares support for subinterpreters
 * with their own GIL.
 */

#include "speedups.h"

static int
module_traverse(PyObject *module, visitproc visit, void *arg)
{
    dm_state *st = PyModule_GetState(module);
    Py_VISIT(st->function_type);
    Py_VISIT(st->cached_type);
    Py_VISIT(st->object_class);
    for (int i = 0; i < DM_PLAN_COUNT; i++) {
        Py_VISIT(st->plan_attr[i]);
    }
    for (int i = 0; i < DM_HOOK_COUNT; i++) {
        Py_VISIT(st->hook_attr[i]);
        Py_VISIT(st->hook[i]);
    }
    Py_VISIT(st->fn_asdict);
    Py_VISIT(st->fn_astuple);
    Py_VISIT(st->plan_type);  /* construction plans (construct.c) */
    Py_VISIT(st->finalized);
    return 0;
}

static int
module_clear(PyObject *module)
{
    dm_state *st = PyModule_GetState(module);
    st->configured = 0;
    Py_CLEAR(st->function_type);
    Py_CLEAR(st->cached_type);
    Py_CLEAR(st->object_class);
    for (int i = 0; i < DM_PLAN_COUNT; i++) {
        Py_CLEAR(st->plan_attr[i]);
    }
    for (int i = 0; i < DM_HOOK_COUNT; i++) {
        Py_CLEAR(st->hook_attr[i]);
        Py_CLEAR(st->hook[i]);
    }
    Py_CLEAR(st->fn_asdict);
    Py_CLEAR(st->fn_astuple);
    Py_CLEAR(st->plan_type);  /* construction plans (construct.c) */
    Py_CLEAR(st->finalized);
    Py_CLEAR(st->str_class);
    Py_CLEAR(st->str_qualname);
    Py_CLEAR(st->str_post_init);
    Py_CLEAR(st->str_setattr);
    Py_CLEAR(st->str_delattr);
    Py_CLEAR(st->str_init);
    Py_CLEAR(st->str_signature);
    Py_CLEAR(st->str_annotations);
    Py_CLEAR(st->str_annotate);
    Py_CLEAR(st->str_empty);
    Py_CLEAR(st->str_dots);
    Py_CLEAR(st->str_dataclass_fields);
    Py_CLEAR(st->str_items);
    Py_CLEAR(st->str_replace_entry);
    Py_CLEAR(st->str_field_type);
    Py_CLEAR(st->str_values);
    Py_CLEAR(st->str_value);
    Py_CLEAR(st->str_module);
    Py_CLEAR(st->str_eq);
    Py_CLEAR(st->str_hash);
    return 0;
}

static void
module_free(void *module)
{
    module_clear((PyObject *)module);
}

static int
intern(PyObject **slot, const char *text)
{
    *slot = PyUnicode_InternFromString(text);
    return *slot == NULL ? -1 : 0;
}

#define DM_ATTR_TEXT(id, text) text,
static const char *const PLAN_TEXT[DM_PLAN_COUNT] = {DM_PLAN_ATTRS(DM_ATTR_TEXT)};
static const char *const HOOK_TEXT[DM_HOOK_COUNT] = {DM_HOOK_ATTRS(DM_ATTR_TEXT)};
#undef DM_ATTR_TEXT

/* The contract's names, interned into ``slots``, and exported as the tuple
 * ``export`` of the module: 0, or -1. */
static int
contract_names(PyObject *module, PyObject **slots, const char *const *text, int n,
               const char *export)
{
    PyObject *names = PyTuple_New(n);  /* owned */
    if (names == NULL) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (intern(&slots[i], text[i]) < 0) {
            Py_DECREF(names);
            return -1;
        }
        PyTuple_SET_ITEM(names, i, Py_NewRef(slots[i]));
    }
    int rc = PyModule_AddObjectRef(module, export, names);
    Py_DECREF(names);
    return rc;
}

/* The package's public function ``def`` (``__module__`` is ``dataclass_meta``,
 * as the Python function it stands for), as the module's attribute ``attr``. */
static int
add_package_function(PyObject *module, PyMethodDef *def, const char *attr)
{
    PyObject *package = PyUnicode_FromString("dataclass_meta");  /* owned */
    if (package == NULL) {
        return -1;
    }
    PyObject *f = PyCFunction_NewEx(def, module, package);  /* owned */
    Py_DECREF(package);
    if (f == NULL) {
        return -1;
    }
    int rc = PyModule_AddObjectRef(module, attr, f);
    Py_DECREF(f);
    return rc;
}

static int
module_exec(PyObject *module)
{
    dm_state *st = PyModule_GetState(module);
    if (intern(&st->str_class, "__class__") < 0
            || intern(&st->str_qualname, "__qualname__") < 0
            || intern(&st->str_post_init, "__post_init__") < 0
            || intern(&st->str_setattr, "__setattr__") < 0
            || intern(&st->str_delattr, "__delattr__") < 0
            || intern(&st->str_init, "__init__") < 0
            || intern(&st->str_signature, "__signature__") < 0
            || intern(&st->str_annotations, "__annotations__") < 0
            || intern(&st->str_annotate, "__annotate__") < 0
            || intern(&st->str_empty, "") < 0 || intern(&st->str_dots, "...") < 0
            || intern(&st->str_dataclass_fields, "__dataclass_fields__") < 0
            || intern(&st->str_items, "items") < 0
            || intern(&st->str_replace_entry, "_dataclass_replace") < 0
            || intern(&st->str_field_type, "_field_type") < 0
            || intern(&st->str_values, "values") < 0
            || intern(&st->str_value, "value") < 0
            || intern(&st->str_module, "__module__") < 0
            || intern(&st->str_eq, "__eq__") < 0 || intern(&st->str_hash, "__hash__") < 0
            || contract_names(module, st->plan_attr, PLAN_TEXT, DM_PLAN_COUNT,
                              "PLAN_ATTRS") < 0
            || contract_names(module, st->hook_attr, HOOK_TEXT, DM_HOOK_COUNT,
                              "HOOK_ATTRS") < 0) {
        return -1;
    }
    st->object_class = _PyType_Lookup(&PyBaseObject_Type, st->str_class);  /* borrowed */
    if (st->object_class == NULL) {
        PyErr_SetString(PyExc_ImportError, "object has no __class__ descriptor");
        return -1;
    }
    Py_INCREF(st->object_class);  /* now owned by the state */
    /* this module's own asdict/astuple (its methods exist before exec),
     * which the container hook calls back */
    st->fn_asdict = PyObject_GetAttrString(module, "asdict");
    st->fn_astuple = PyObject_GetAttrString(module, "astuple");
    if (st->fn_asdict == NULL || st->fn_astuple == NULL || dm_compare_probe(st) < 0
            || dm_internals_probe(module, st) < 0) {
        return -1;
    }
    st->function_type = dm_function_type_create(module);
    if (st->function_type == NULL) {
        return -1;
    }
    st->plan_type = dm_plan_type_create(module);  /* construction plans (construct.c) */
    if (st->plan_type == NULL) {
        return -1;
    }
    st->finalized = PySet_New(NULL);
    st->cached_type = st->finalized == NULL ? NULL : dm_cached_type_create(module);
    if (st->cached_type == NULL || PyModule_AddFunctions(module, dm_perclass_methods) < 0
            || PyModule_AddFunctions(module, dm_wire_methods) < 0
            || add_package_function(module, &dm_public_replace_def, "public_replace") < 0
            || add_package_function(module, &dm_public_fields_def, "public_fields") < 0) {
        return -1;
    }
    return PyModule_AddType(module, st->function_type);
}

int
dm_configured(dm_state *st)
{
    if (!st->configured) {
        PyErr_SetString(PyExc_RuntimeError,
                        "dataclass_meta._speedups: configure() was not called "
                        "(or the module was cleared)");
        return -1;
    }
    return 0;
}

dm_state *
dm_ready(PyObject *module)
{
    dm_state *st = PyModule_GetState(module);
    return dm_configured(st) < 0 ? NULL : st;
}

static PyObject *configure_state(dm_state *st, PyObject *hooks);

/* configure(hooks): reads every hook (DM_HOOK_ATTRS) of ``hooks`` into the
 * state, once; nothing is kept unless all were read and checked. Nothing
 * changes the hooks after: every thread reads them without a lock. */
static PyObject *
configure(PyObject *module, PyObject *hooks)
{
    dm_state *st = PyModule_GetState(module);
    PyObject *result = NULL;
    Py_BEGIN_CRITICAL_SECTION(module);  /* one configure() at a time */
    result = configure_state(st, hooks);
    Py_END_CRITICAL_SECTION();
    return result;
}

static PyObject *
configure_state(dm_state *st, PyObject *hooks)
{
    if (st->configured || st->function_type == NULL) {  /* or cleared: no names */
        PyErr_SetString(PyExc_RuntimeError,
                        "configure: already configured (or the module was cleared)");
        return NULL;
    }
    PyObject *read[DM_HOOK_COUNT] = {NULL};  /* owned */
    for (int i = 0; i < DM_HOOK_COUNT; i++) {
        read[i] = PyObject_GetAttr(hooks, st->hook_attr[i]);
        if (read[i] == NULL) {
            goto error;
        }
    }
    if (!PyFrozenSet_Check(read[DM_HOOK_ATOMIC_TYPES])
            || !PyDict_Check(read[DM_HOOK_NAMES_CACHE])
            || !PyType_Check(read[DM_HOOK_KEPT])) {
        PyErr_SetString(PyExc_TypeError, "configure: atomic_types must be a frozenset, "
                        "names_cache a dict and kept a type");
        goto error;
    }
    for (int i = 0; i < DM_HOOK_COUNT; i++) {
        Py_XSETREF(st->hook[i], read[i]);  /* steals; NULL before, unless cleared */
    }
    st->configured = 1;
    Py_RETURN_NONE;
error:
    for (int i = 0; i < DM_HOOK_COUNT; i++) {
        Py_XDECREF(read[i]);
    }
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_O,
     "configure(hooks): what the core calls back or compares with, read once from "
     "hooks' attributes (HOOK_ATTRS)."},
    {"eq", dm_make_eq, METH_VARARGS, "eq(name, plan): a compiled __eq__."},
    {"order", dm_make_order, METH_VARARGS,
     "order(name, plan): the compiled ordering name ('__lt__', '__le__', '__gt__', "
     "'__ge__')."},
    {"hash", dm_make_hash, METH_VARARGS, "hash(name, plan): a compiled __hash__."},
    {"repr", dm_make_repr, METH_VARARGS,
     "repr(name, plan): a compiled __repr__ with reprlib's recursion guard."},
    {"unguarded_repr", dm_make_unguarded_repr, METH_VARARGS,
     "unguarded_repr(name, plan): a compiled __repr__ without the guard."},
    {"init", dm_make_init, METH_VARARGS, "init(name, plan): a compiled __init__."},
    {"frozen", dm_make_frozen, METH_VARARGS,
     "frozen(name, plan): a frozen class's compiled name ('__setattr__' or "
     "'__delattr__')."},
    {"replace", dm_make_replace, METH_VARARGS,
     "replace(name, plan): a compiled __replace__ (name '__replace__') or what "
     "replace() calls with (self, changes) (name 'replace')."},
    {"attach", dm_attach, METH_VARARGS,
     "attach(cls, name, function): _methods.attach in C for a compiled function."},
    {"defer_signature", dm_defer_signature, METH_VARARGS,
     "defer_signature(function, build): build() makes its __signature__ on first read."},
    {"deferred_signature", dm_deferred_signature, METH_O,
     "deferred_signature(obj): what defer_signature() gave obj, else None."},
    {"asdict", (PyCFunction)(void (*)(void))dm_asdict, METH_FASTCALL,
     "asdict(obj, dict_factory): _asdict.pure_asdict."},
    {"astuple", (PyCFunction)(void (*)(void))dm_astuple, METH_FASTCALL,
     "astuple(obj, tuple_factory): _asdict.pure_astuple."},
    {"construct", dm_construct, METH_O,
     "construct(cls) -> bool: C(...) allocates and runs __init__ (compiled, or a "
     "Python function) directly where type.__call__ would do just that."},
    {NULL, NULL, 0, NULL}
};

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
#if PY_VERSION_HEX >= 0x030C0000
    /* 3.12+, PEP 684: all state is per module object */
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#if PY_VERSION_HEX >= 0x030D0000
    /* 3.13+, PEP 703: safe without the GIL (speedups.h says how) */
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL}
};

PyModuleDef dm_module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "dataclass_meta._speedups",
    .m_doc = "The generated methods of dataclass_meta as C-level closures.",
    .m_size = sizeof(dm_state),
    .m_methods = module_methods,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModuleDef_Init(&dm_module_def);
}
