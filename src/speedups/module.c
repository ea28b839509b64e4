/* The module: multi-phase initialisation (PEP 489), its state, its functions.
 *
 * Each import (in each interpreter) runs module_exec on a fresh module object
 * whose state holds everything the extension keeps: the compiled_function
 * type, interned names, object's __class__ descriptor and the signature
 * factory. Nothing is shared between interpreters, so the module declares
 * support for subinterpreters with their own GIL.
 */

#include "speedups.h"

static int
module_traverse(PyObject *module, visitproc visit, void *arg)
{
    dm_state *st = PyModule_GetState(module);
    Py_VISIT(st->function_type);
    Py_VISIT(st->signature_factory);
    Py_VISIT(st->object_class);
    Py_VISIT(st->plan_attrs);
    Py_VISIT(st->fn_atomic);
    Py_VISIT(st->fn_names_cache);
    Py_VISIT(st->fn_field_names);
    Py_VISIT(st->fn_container);
    Py_VISIT(st->fn_asdict);
    Py_VISIT(st->fn_astuple);
    Py_VISIT(st->fn_replace_slow);
    Py_VISIT(st->fn_fields_slow);
    Py_VISIT(st->fn_attach_fallback);
    Py_VISIT(st->field_marker);
    Py_VISIT(st->cached_type);
    return 0;
}

static int
module_clear(PyObject *module)
{
    dm_state *st = PyModule_GetState(module);
    Py_CLEAR(st->function_type);
    Py_CLEAR(st->signature_factory);
    Py_CLEAR(st->object_class);
    Py_CLEAR(st->plan_attrs);
    Py_CLEAR(st->fn_atomic);
    Py_CLEAR(st->fn_names_cache);
    Py_CLEAR(st->fn_field_names);
    Py_CLEAR(st->fn_container);
    Py_CLEAR(st->fn_asdict);
    Py_CLEAR(st->fn_astuple);
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
    Py_CLEAR(st->str_module);
    Py_CLEAR(st->fn_attach_fallback);
    Py_CLEAR(st->str_values);
    Py_CLEAR(st->str_value);
    Py_CLEAR(st->fn_replace_slow);
    Py_CLEAR(st->fn_fields_slow);
    Py_CLEAR(st->field_marker);
    Py_CLEAR(st->cached_type);
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
            || intern(&st->str_module, "__module__") < 0) {
        return -1;
    }
    st->object_class = _PyType_Lookup(&PyBaseObject_Type, st->str_class);  /* borrowed */
    if (st->object_class == NULL) {
        PyErr_SetString(PyExc_ImportError, "object has no __class__ descriptor");
        return -1;
    }
    Py_INCREF(st->object_class);  /* now owned by the state */
    st->plan_attrs = dm_plan_attrs();
    if (st->plan_attrs == NULL) {
        return -1;
    }
    st->function_type = dm_function_type_create(module);
    if (st->function_type == NULL) {
        return -1;
    }
    st->cached_type = dm_cached_type_create(module);
    if (st->cached_type == NULL || PyModule_AddFunctions(module, dm_perclass_methods) < 0) {
        return -1;
    }
    return PyModule_AddType(module, st->function_type);
}

/* A module-level function of this module presented as the package's own
 * (``__module__`` is ``dataclass_meta``), as the Python function it stands for. */
PyObject *
dm_package_function(PyObject *module, PyMethodDef *def)
{
    PyObject *package = PyUnicode_FromString("dataclass_meta");  /* owned */
    if (package == NULL) {
        return NULL;
    }
    PyObject *f = PyCFunction_NewEx(def, module, package);
    Py_DECREF(package);
    return f;
}

/* set_signature_factory(f): ``f(param_names) -> inspect.Signature``. */
static PyObject *
set_signature_factory(PyObject *module, PyObject *factory)
{
    dm_state *st = PyModule_GetState(module);
    Py_XSETREF(st->signature_factory, Py_NewRef(factory));
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"eq", dm_make_eq, METH_VARARGS, "eq(name, names): a compiled __eq__."},
    {"order", dm_make_order, METH_VARARGS,
     "order(name, names): the compiled ordering name ('__lt__', '__le__', '__gt__', "
     "'__ge__')."},
    {"hash", dm_make_hash, METH_VARARGS, "hash(name, names): a compiled __hash__."},
    {"repr", dm_make_repr, METH_VARARGS, "repr(name, names, guarded): a compiled __repr__."},
    {"init", dm_make_init, METH_VARARGS,
     "init(name, plan): a compiled __init__ from the plan's attributes (see _init.py)."},
    {"set_signature_factory", set_signature_factory, METH_O,
     "set_signature_factory(f): f(param_names) builds the small methods' signatures."},
    {"attach", dm_attach, METH_VARARGS,
     "attach(cls, name, function): _methods.attach in C for a compiled function."},
    {"set_attach_fallback", dm_set_attach_fallback, METH_O,
     "set_attach_fallback(f): what attach() calls for anything else."},
    {"defer_signature", dm_defer_signature, METH_VARARGS,
     "defer_signature(function, build): build() makes its __signature__ on first read."},
    {"deferred_signature", dm_deferred_signature, METH_O,
     "deferred_signature(obj): what defer_signature() gave obj, else None."},
    {"frozen", dm_make_frozen, METH_VARARGS,
     "frozen(name, cls, names, error, delete): a frozen __setattr__/__delattr__."},
    {"replace", dm_make_replace, METH_VARARGS,
     "replace(name, cls, own, prepare, slow, by_dict): a compiled __replace__, or "
     "(by_dict) what replace() calls with (self, changes)."},
    {"public_replace", dm_public_replace, METH_O,
     "public_replace(slow) -> replace(obj, /, **changes), calling slow(obj, changes) "
     "for an object without its class's own entry."},
    {"public_fields", dm_public_fields, METH_VARARGS,
     "public_fields(marker, slow) -> fields(class_or_instance): the fields whose "
     "_field_type is marker; slow(...) takes any other call."},
    {"asdict", (PyCFunction)(void (*)(void))dm_asdict, METH_FASTCALL,
     "asdict(obj, dict_factory): _functions._asdict."},
    {"astuple", (PyCFunction)(void (*)(void))dm_astuple, METH_FASTCALL,
     "astuple(obj, tuple_factory): _functions._astuple."},
    {"set_functions", dm_set_functions, METH_VARARGS,
     "set_functions(atomic, names_cache, field_names, container): what asdict and "
     "astuple take from _functions."},
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
    /* 3.13+, PEP 703: not checked without the GIL, so a free-threaded build
     * re-enables it on import */
    {Py_mod_gil, Py_MOD_GIL_USED},
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
