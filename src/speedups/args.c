/* Binding a call's arguments to parameters, and the interpreter's TypeError
 * texts for a call that does not bind.
 *
 * The small methods bind as ``def f(self, other)`` (their kind's parameters,
 * no defaults). __init__ binds as ``def __init__(self, <positional>, *,
 * <keyword-only>)`` with defaults; a call that does not bind simply goes to
 * the Python binder, which raises the interpreter's own error.
 */

#include "speedups.h"

/* The general case of dm_unpack: keywords, or a wrong count. */
int
dm_unpack_slow(dm_function *f, PyObject *const *args, size_t nargsf, PyObject *kwnames,
               PyObject **out)
{
    const char *const *params = f->kind->params;
    Py_ssize_t n = f->kind->nparams;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject *qualname = f->qualname ? f->qualname : Py_None;  /* borrowed */
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

/* Binds a valid call as ``def __init__(self, <names[:npos]>, *, <rest>)``
 * into ``values`` (borrowed: arguments or defaults, ``defaults[i]`` being
 * ``no_default`` where there is none). Returns 1 when it binds, 0 when the
 * call does not bind simply (too many positionals, an unknown or repeated
 * keyword, a missing argument): dm_bind_slow then raises the interpreter's
 * TypeError. */
int
dm_bind_fast(PyObject *names, Py_ssize_t npos, PyObject *defaults, PyObject *no_default,
             PyObject *const *args, Py_ssize_t given, PyObject *kwnames, PyObject **values)
{
    Py_ssize_t n = PyTuple_GET_SIZE(names);
    if (given > npos) {
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
            /* keywords most often come in the parameters' order: try that first */
            Py_ssize_t i = given + j;
            if (i >= n || PyTuple_GET_ITEM(names, i) != key) {
                for (i = 0; i < n && PyTuple_GET_ITEM(names, i) != key; i++) {
                }
            }
            if (i == n) {  /* not interned alike: compare, as the interpreter does */
                for (i = 0; i < n; i++) {
                    int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(names, i), key, Py_EQ);
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
    for (Py_ssize_t i = given; i < n; i++) {
        if (values[i] == NULL) {
            PyObject *d = PyTuple_GET_ITEM(defaults, i);  /* borrowed */
            if (d == no_default) {
                return 0;
            }
            values[i] = d;
        }
    }
    return 1;
}

/* The Python binder for calls dm_bind_fast declines: ``binder(args, kwargs)``
 * returns the ``n`` values in parameter order or raises the interpreter's
 * TypeError. */
PyObject *
dm_bind_slow(PyObject *binder, Py_ssize_t n, PyObject *const *args, Py_ssize_t given,
             PyObject *kwnames)
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
    PyObject *bound = PyObject_CallFunctionObjArgs(binder, posargs, kwargs, NULL);
    Py_DECREF(posargs);
    Py_DECREF(kwargs);
    if (bound == NULL) {
        return NULL;
    }
    if (!PyTuple_CheckExact(bound) || PyTuple_GET_SIZE(bound) != n) {
        Py_DECREF(bound);
        PyErr_SetString(PyExc_SystemError, "dataclass_meta: binder returned a bad result");
        return NULL;
    }
    return bound;
}
