/* asdict / astuple: the recursion of _asdict.pure_asdict / pure_astuple in C.
 *
 * The pure functions (the stdlib's _asdict_inner) are the reference. Here:
 * atomic values are returned as they are; data-class instances (anything whose
 * type has __dataclass_fields__), and exact lists, tuples and dicts are
 * rebuilt; everything else (container subclasses, deep copies) goes to the
 * container hook (the pure _asdict.container), which recurses back
 * through this module's asdict/astuple. Reads happen as in the pure code:
 * __dataclass_fields__ through the instance, then one getattr per field, in
 * field order, each value converted before the next is read. The field names
 * come from the pure code's cache (the names_cache hook, _asdict.NAMES_CACHE),
 * checked here as cached_field_names checks it; a miss calls the names_of hook,
 * cached_field_names, which rebuilds the entry. (configure() gave the hooks.)
 */

#include "speedups.h"

/* hasattr(obj, name): 1, 0, or -1 with an error other than AttributeError. */
static int
has_attr(PyObject *obj, PyObject *name)
{
    PyObject *value;
    int found = dm_get_optional_attr(obj, name, &value);
    Py_XDECREF(value);
    return found;
}

/* ``type(obj) in ATOMIC``; the commonest types without a set lookup. */
static inline int
is_atomic(dm_state *st, PyTypeObject *tp)
{
    if (tp == &PyUnicode_Type || tp == &PyLong_Type || tp == &PyFloat_Type
            || tp == &PyBool_Type || tp == Py_TYPE(Py_None)) {
        return 1;
    }
    return PySet_Contains(st->hook[DM_HOOK_ATOMIC_TYPES], (PyObject *)tp);
}

/* The referent of the weak reference ``ref`` is ``obj``. */
static int
refers_to(PyObject *ref, PyObject *obj)
{
    if (!PyWeakref_Check(ref)) {
        return 0;
    }
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *target;  /* owned */
    if (PyWeakref_GetRef(ref, &target) < 0) {
        PyErr_Clear();
        return 0;
    }
    Py_XDECREF(target);
    return target == obj;
#else
    return PyWeakref_GET_OBJECT(ref) == obj;
#endif
}

/* cached_field_names(cls, all_fields) (a new reference): the cached entry
 * ``(weakref(cls), id(all_fields), len(all_fields), names)`` when it is
 * current, else the pure function, which rebuilds it. Only an exact dict is
 * checked here, so that nothing observable (a mapping's __len__) runs twice. */
static PyObject *
field_names(dm_state *st, PyObject *cls, PyObject *all_fields)
{
    if (PyDict_CheckExact(all_fields)) {
        PyObject *key = PyLong_FromVoidPtr(cls);  /* owned: id(cls) */
        if (key == NULL) {
            return NULL;
        }
        PyObject *entry;  /* owned: another thread may replace it */
        int found = dm_dict_get_ref(st->hook[DM_HOOK_NAMES_CACHE], key, &entry);
        Py_DECREF(key);
        if (found < 0) {
            return NULL;
        }
        PyObject *names = NULL;
        if (entry != NULL && PyTuple_CheckExact(entry) && PyTuple_GET_SIZE(entry) == 4
                && PyLong_CheckExact(PyTuple_GET_ITEM(entry, 1))
                && PyLong_CheckExact(PyTuple_GET_ITEM(entry, 2))
                && PyTuple_CheckExact(PyTuple_GET_ITEM(entry, 3))
                && refers_to(PyTuple_GET_ITEM(entry, 0), cls)) {
            void *id = PyLong_AsVoidPtr(PyTuple_GET_ITEM(entry, 1));
            Py_ssize_t len = PyLong_AsSsize_t(PyTuple_GET_ITEM(entry, 2));
            if ((id == NULL || len == -1) && PyErr_Occurred()) {
                PyErr_Clear();  /* not ours: let the pure function rebuild it */
            }
            else if (id == (void *)all_fields && len == PyDict_GET_SIZE(all_fields)) {
                names = Py_NewRef(PyTuple_GET_ITEM(entry, 3));
            }
        }
        Py_XDECREF(entry);
        if (names != NULL) {
            return names;
        }
    }
    return PyObject_CallFunctionObjArgs(st->hook[DM_HOOK_NAMES_OF], cls, all_fields, NULL);
}

static PyObject *convert(dm_state *st, PyObject *obj, PyObject *factory, int as_tuple);

/* ``value`` (stolen) converted: kept when atomic, as the pure loop does. */
static PyObject *
convert_value(dm_state *st, PyObject *value, PyObject *factory, int as_tuple)
{
    int atomic = is_atomic(st, Py_TYPE(value));
    if (atomic != 0) {
        if (atomic < 0) {
            Py_CLEAR(value);
        }
        return value;
    }
    PyObject *result = convert(st, value, factory, as_tuple);
    Py_DECREF(value);
    return result;
}

/* A data-class instance: a dict (dict_factory is dict), a tuple
 * (tuple_factory is tuple), or the factory called with the list of
 * (name, value) pairs or of values. */
static PyObject *
convert_instance(dm_state *st, PyObject *obj, PyObject *factory, int as_tuple)
{
    PyObject *all_fields = PyObject_GetAttr(obj, st->str_dataclass_fields);  /* owned */
    if (all_fields == NULL) {
        return NULL;
    }
    PyObject *names = field_names(st, (PyObject *)Py_TYPE(obj), all_fields);  /* owned */
    Py_DECREF(all_fields);
    if (names == NULL) {
        return NULL;
    }
    if (!PyTuple_Check(names)) {
        PyErr_SetString(PyExc_TypeError, "field names must be a tuple");
        Py_DECREF(names);
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    int to_dict = !as_tuple && factory == (PyObject *)&PyDict_Type;
    int to_tuple = as_tuple && factory == (PyObject *)&PyTuple_Type;
    /* owned; a list is appended to, never left with empty slots, since
     * gc.get_objects() can reach it from the Python code a getattr runs */
    PyObject *out = to_dict ? PyDict_New() : PyList_New(0);
    if (out == NULL) {
        Py_DECREF(names);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);  /* borrowed from names */
        PyObject *value = PyObject_GetAttr(obj, name);
        if (value == NULL || (value = convert_value(st, value, factory, as_tuple)) == NULL) {
            goto error;
        }
        if (to_dict) {
            int failed = PyDict_SetItem(out, name, value);
            Py_DECREF(value);
            if (failed < 0) {
                goto error;
            }
        }
        else {
            if (!as_tuple) {
                Py_SETREF(value, PyTuple_Pack(2, name, value));
                if (value == NULL) {
                    goto error;
                }
            }
            int failed = PyList_Append(out, value);
            Py_DECREF(value);
            if (failed < 0) {
                goto error;
            }
        }
    }
    Py_DECREF(names);
    if (to_dict) {
        return out;
    }
    PyObject *result = to_tuple ? PyList_AsTuple(out) : PyObject_CallOneArg(factory, out);
    Py_DECREF(out);
    return result;
error:
    Py_DECREF(names);
    Py_DECREF(out);
    return NULL;
}

/* ``[recurse(v) for v in obj]``: the list's length is read at each step, as
 * its iterator does, since a conversion may run code that changes it. */
static PyObject *
convert_list(dm_state *st, PyObject *obj, PyObject *factory, int as_tuple)
{
    PyObject *out = PyList_New(0);  /* owned */
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); i++) {
#ifdef Py_GIL_DISABLED
        /* another thread may shrink the list meanwhile */
        PyObject *item = PyList_GetItemRef(obj, i);
        if (item == NULL) {
            PyErr_Clear();
            break;
        }
#else
        PyObject *item = Py_NewRef(PyList_GET_ITEM(obj, i));
#endif
        PyObject *value = convert_value(st, item, factory, as_tuple);
        if (value == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        int failed = PyList_Append(out, value);
        Py_DECREF(value);
        if (failed < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* ``tuple([recurse(v) for v in obj])``: built as a list, as there, since a
 * tuple with empty slots could be reached through gc.get_objects() meanwhile */
static PyObject *
convert_tuple(dm_state *st, PyObject *obj, PyObject *factory, int as_tuple)
{
    Py_ssize_t n = PyTuple_GET_SIZE(obj);
    PyObject *out = PyList_New(0);  /* owned */
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = convert_value(st, Py_NewRef(PyTuple_GET_ITEM(obj, i)), factory,
                                        as_tuple);
        int failed = value == NULL || PyList_Append(out, value) < 0;
        Py_XDECREF(value);
        if (failed) {
            Py_DECREF(out);
            return NULL;
        }
    }
    Py_SETREF(out, PyList_AsTuple(out));
    return out;
}

/* ``{recurse(k): recurse(v) for k, v in obj.items()}``, through the items
 * iterator so that a change of the dict meanwhile raises as it does there. */
static PyObject *
convert_dict(dm_state *st, PyObject *obj, PyObject *factory, int as_tuple)
{
    PyObject *items = PyObject_CallMethodNoArgs(obj, st->str_items);  /* owned */
    if (items == NULL) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(items);  /* owned */
    Py_DECREF(items);
    if (it == NULL) {
        return NULL;
    }
    PyObject *out = PyDict_New();  /* owned */
    if (out == NULL) {
        Py_DECREF(it);
        return NULL;
    }
    PyObject *pair;  /* owned: (key, value) */
    while ((pair = PyIter_Next(it)) != NULL) {
        PyObject *key = convert_value(st, Py_NewRef(PyTuple_GET_ITEM(pair, 0)), factory,
                                      as_tuple);
        PyObject *value = key == NULL ? NULL : convert_value(
            st, Py_NewRef(PyTuple_GET_ITEM(pair, 1)), factory, as_tuple);
        Py_DECREF(pair);
        int failed = value == NULL || PyDict_SetItem(out, key, value) < 0;
        Py_XDECREF(key);
        Py_XDECREF(value);
        if (failed) {
            break;
        }
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* pure_asdict(obj, factory) / pure_astuple(obj, factory) for a non-atomic ``obj``
 * (the caller checked), under the recursion limit: a structure that contains
 * itself raises RecursionError, as the pure recursion does. */
static PyObject *
convert(dm_state *st, PyObject *obj, PyObject *factory, int as_tuple)
{
    if (Py_EnterRecursiveCall("")) {
        return NULL;
    }
    PyTypeObject *tp = Py_TYPE(obj);
    PyObject *result;
    /* exact builtins first: reading __dataclass_fields__ of one is unobservable */
    if (tp == &PyList_Type) {
        result = convert_list(st, obj, factory, as_tuple);
    }
    else if (tp == &PyTuple_Type) {
        result = convert_tuple(st, obj, factory, as_tuple);
    }
    else if (tp == &PyDict_Type) {
        result = convert_dict(st, obj, factory, as_tuple);
    }
    else {
        /* owned: the class's metaclass may run code here (a __getattr__) that
         * assigns obj.__class__, after which nothing else holds the old one */
        PyObject *cls = Py_NewRef((PyObject *)tp);
        int is_dataclass = has_attr(cls, st->str_dataclass_fields);
        if (is_dataclass < 0) {
            result = NULL;
        }
        else if (is_dataclass) {
            result = convert_instance(st, obj, factory, as_tuple);
        }
        else {
            result = PyObject_CallFunctionObjArgs(
                st->hook[DM_HOOK_CONTAINER], obj, cls,
                as_tuple ? st->fn_astuple : st->fn_asdict, factory, NULL);
        }
        Py_DECREF(cls);
    }
    Py_LeaveRecursiveCall();
    return result;
}

static PyObject *
entry(PyObject *module, PyObject *const *args, Py_ssize_t nargs, int as_tuple)
{
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s() takes exactly 2 arguments (%zd given)",
                     as_tuple ? "astuple" : "asdict", nargs);
        return NULL;
    }
    return convert_value(st, Py_NewRef(args[0]), args[1], as_tuple);
}

/* asdict(obj, dict_factory): _asdict.pure_asdict. */
PyObject *
dm_asdict(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    return entry(module, args, nargs, 0);
}

/* astuple(obj, tuple_factory): _asdict.pure_astuple. */
PyObject *
dm_astuple(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    return entry(module, args, nargs, 1);
}

/* ------------------------------------------------------------------------ */
/* fields(class_or_instance): the public function                            */
/* ------------------------------------------------------------------------ */

/* ``raise TypeError(msg) from None`` in the handler of the current
 * exception: that one becomes ``__context__``, hidden by
 * ``__suppress_context__``, as Python's statement leaves them. */
static void
raise_from_none(PyObject *type, const char *msg)
{
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *context = PyErr_GetRaisedException();  /* owned */
    PyErr_SetString(type, msg);
    PyObject *exc = PyErr_GetRaisedException();      /* owned */
    PyException_SetContext(exc, context);            /* steals context */
    PyException_SetCause(exc, NULL);                 /* sets __suppress_context__ */
    PyErr_SetRaisedException(exc);                   /* steals exc */
#else
    PyObject *ctype, *context, *ctb;                 /* owned */
    PyErr_Fetch(&ctype, &context, &ctb);
    PyErr_NormalizeException(&ctype, &context, &ctb);
    if (ctb != NULL) {
        PyException_SetTraceback(context, ctb);
    }
    Py_XDECREF(ctype);
    Py_XDECREF(ctb);
    PyErr_SetString(type, msg);
    PyObject *etype, *exc, *etb;                     /* owned */
    PyErr_Fetch(&etype, &exc, &etb);
    PyErr_NormalizeException(&etype, &exc, &etb);
    PyException_SetContext(exc, context);            /* steals context */
    PyException_SetCause(exc, NULL);
    PyErr_Restore(etype, exc, etb);                  /* steals all three */
#endif
}

/* As _fields.fields: ``getattr(obj, '__dataclass_fields__')`` (an
 * AttributeError becomes the stdlib's TypeError), then the values whose
 * ``_field_type`` is the stdlib's _FIELD, in order, each read once. A call
 * with a keyword or another count goes to the Python function, whose
 * signature it is. */
static PyObject *
public_fields_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames)
{
    dm_state *st = dm_ready(module);
    if (st == NULL) {
        return NULL;
    }
    if (nargs != 1 || kwnames != NULL) {
        PyObject *slow = Py_NewRef(st->hook[DM_HOOK_FIELDS]);
        PyObject *result = PyObject_Vectorcall(slow, args, (size_t)nargs, kwnames);
        Py_DECREF(slow);
        return result;
    }
    PyObject *all = PyObject_GetAttr(args[0], st->str_dataclass_fields);  /* owned */
    if (all == NULL) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            raise_from_none(PyExc_TypeError,
                            "must be called with a dataclass type or instance");
        }
        return NULL;
    }
    PyObject *values = PyObject_CallMethodNoArgs(all, st->str_values);  /* owned */
    Py_DECREF(all);
    if (values == NULL) {
        return NULL;
    }
    PyObject *it = PyObject_GetIter(values);  /* owned */
    Py_DECREF(values);
    if (it == NULL) {
        return NULL;
    }
    PyObject *found = PyList_New(0);  /* owned */
    PyObject *f;                      /* owned, each in turn */
    while (found != NULL && (f = PyIter_Next(it)) != NULL) {
        PyObject *kind = PyObject_GetAttr(f, st->str_field_type);  /* owned */
        int keep = kind == st->hook[DM_HOOK_FIELD_MARKER];
        if (kind == NULL || (keep && PyList_Append(found, f) < 0)) {
            Py_CLEAR(found);
        }
        Py_XDECREF(kind);
        Py_DECREF(f);
    }
    Py_DECREF(it);
    if (found == NULL || PyErr_Occurred()) {  /* a failed read, or the iteration */
        Py_XDECREF(found);
        return NULL;
    }
    PyObject *result = PyList_AsTuple(found);
    Py_DECREF(found);
    return result;
}

PyMethodDef dm_public_fields_def = {
    "fields", (PyCFunction)(void (*)(void))public_fields_call, METH_FASTCALL | METH_KEYWORDS,
    "fields($module, class_or_instance)\n--\n\n"
    "The fields of a data class or instance, as a tuple of ``Field``.\n\n"
    "ClassVar and InitVar pseudo-fields are left out. Raises ``TypeError`` for\n"
    "anything that is not a data class or an instance of one.",
};
