/* What the core assumes of CPython beyond its stable API, in one place, and
 * the probe that checks it once, when the module is executed.
 *
 * Assumed, on CPython 3.10-3.15 (the versions the suite runs on):
 *
 *   tp_cache      a heap type's PyObject field that CPython keeps but no
 *                 longer uses: NULL on a class a class statement makes, not
 *                 inherited by its subclasses, visited by type_traverse and
 *                 released by type_dealloc. construct.c keeps a class's
 *                 construction plan there.
 *   ht_module     NULL on a class a class statement makes, settable, released
 *                 by type_dealloc: construct() points it at this module, so
 *                 that a class's own slots (compare.c) and its deallocator
 *                 (perclass.c) find the module's state.
 *   version tags  _PyType_Lookup gives a type a tag, and any assignment to
 *                 the type or a base changes it (from 3.12 a tag is never
 *                 given twice): every per-class decision (layout.c, compare.c,
 *                 construct.c, replace.c, wire.c, init.c) is kept under the
 *                 one rule of speedups.h (dm_tag_now, dm_tag_holds).
 *   __slots__     a class statement's slot is a member descriptor of type
 *                 T_OBJECT_EX at an offset inside the instance, which the
 *                 core reads and stores directly (through speedups.h's slot
 *                 helpers only).
 *   deallocation  a class statement's class deallocates with subtype_dealloc,
 *                 which releases the slots of its own members only and calls
 *                 its base's tp_dealloc for the rest; gc=False of a slotted
 *                 class (perclass.c) replaces it with its own, and clears
 *                 Py_TPFLAGS_HAVE_GC before any instance exists.
 *   the slots     a class statement's __eq__ and __hash__ fill tp_richcompare
 *                 and tp_hash with the interpreter's generic slot functions,
 *                 which compare.c recognises and replaces by its own.
 *   allocation    for a class of slots alone (no items, no managed dict or
 *                 weakref list), PyType_GenericAlloc is PyObject_GC_New
 *                 zero-filled, then tracked: speedups.h's dm_new_untracked
 *                 makes the same object untracked (gc=False, and issue 41's
 *                 construction of frozen slotted records).
 *   slot wrappers (3.13+) a wrapper descriptor of object's __setattr__ and
 *                 __delattr__ made for a class around another function
 *                 becomes the class's tp_setattro through type's own slot
 *                 update, and its subclasses': perclass.c's
 *                 untracking_setattr checks that it did, and declines (the
 *                 class stays tracked) where it did not.
 *
 * The probe makes scratch classes as a class statement would (type(name,
 * bases, namespace)) and checks each assumption that can be checked there:
 * tp_cache and ht_module NULL, tp_cache not inherited, a version tag given by
 * a lookup and changed by an assignment, a slot's descriptor and offset, the
 * deallocator shared by two such classes. Where one fails, or the core was
 * built for a CPython newer than the newest tested, the state's ``internals``
 * flag is off and the core declines everything that rests on them:
 * construct() gives no class its own construction, slots or module, and
 * untrack() keeps the collector's header (instances are then only
 * allocated untracked). The methods themselves (compiled functions) need
 * none of it and stay. ``_speedups.INTERNALS`` says what was probed, and
 * ``python -m dataclass_meta`` prints it; DATACLASS_META_INTERNALS=0 in the
 * environment declines them as a failed probe would (the tests run the
 * suite's core behaviours that way).
 */

#include "speedups.h"

#include <stdlib.h>
#include <string.h>

/* The newest CPython the assumptions were checked on. */
#define DM_NEWEST_TESTED 0x030F0000  /* 3.15 */

/* ``type(name, (base,), namespace)``, as a class statement makes it (owned). */
static PyTypeObject *
scratch_class(const char *name, PyObject *base, PyObject *namespace)
{
    PyObject *ns = namespace != NULL ? Py_NewRef(namespace) : PyDict_New();  /* owned */
    if (ns == NULL) {
        return NULL;
    }
    PyObject *cls = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O)O", name, base, ns);
    Py_DECREF(ns);
    return (PyTypeObject *)cls;
}

/* Each probe: 1 holds, 0 does not, -1 an error. */
static int
probe_fields(PyTypeObject *base, PyTypeObject *sub)
{
    return base->tp_cache == NULL && ((PyHeapTypeObject *)base)->ht_module == NULL
           && sub->tp_cache == NULL && ((PyHeapTypeObject *)sub)->ht_module == NULL;
}

static int
probe_version_tags(PyTypeObject *sub)
{
    PyObject *name = PyUnicode_InternFromString("probe_attribute");  /* owned */
    if (name == NULL) {
        return -1;
    }
    (void)_PyType_Lookup(sub, name);  /* gives the type a tag */
    unsigned int before = DM_HAS_VERSION_TAG(sub) ? sub->tp_version_tag : 0;
    int rc = PyObject_SetAttr((PyObject *)sub, name, Py_None);
    Py_DECREF(name);
    if (rc < 0) {
        return -1;
    }
    unsigned int after = DM_HAS_VERSION_TAG(sub) ? sub->tp_version_tag : 0;
    return before != 0 && after != before;
}

static int
probe_slots(PyObject *object)
{
    PyObject *ns = Py_BuildValue("{s(s)}", "__slots__", "a");  /* owned */
    if (ns == NULL) {
        return -1;
    }
    PyTypeObject *slotted = scratch_class("probe_slots", object, ns);  /* owned */
    Py_DECREF(ns);
    if (slotted == NULL) {
        return -1;
    }
    PyObject *name = PyUnicode_InternFromString("a");  /* owned */
    PyObject *descr = name == NULL ? NULL : dm_lookup_ref(slotted, name);  /* owned */
    Py_XDECREF(name);
    int ok = 0;
    if (descr != NULL && Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyMemberDef *def = ((PyMemberDescrObject *)descr)->d_member;
        ok = def->type == T_OBJECT_EX && def->flags == 0
             && def->offset >= (Py_ssize_t)sizeof(PyObject)
             && def->offset + (Py_ssize_t)sizeof(PyObject *) <= slotted->tp_basicsize;
    }
    Py_XDECREF(descr);
    Py_DECREF(slotted);
    return PyErr_Occurred() ? -1 : ok;
}

/* Runs the probes into ``st->internals`` and the module's INTERNALS (a
 * tuple of (name, holds) pairs): 0, or -1 with an exception. */
int
dm_internals_probe(PyObject *module, dm_state *st)
{
    PyObject *object = (PyObject *)&PyBaseObject_Type;
    PyTypeObject *base = scratch_class("probe_base", object, NULL);  /* owned */
    if (base == NULL) {
        return -1;
    }
    PyTypeObject *sub = scratch_class("probe_sub", (PyObject *)base, NULL);  /* owned */
    if (sub == NULL) {
        Py_DECREF(base);
        return -1;
    }
    enum { N = 6 };
    int results[N];
    const char *names[N] = {"tp_cache and ht_module unused", "version tags",
                            "slot descriptors", "one class-statement deallocator",
                            "a tested CPython", "declined by DATACLASS_META_INTERNALS=0"};
    results[0] = probe_fields(base, sub);
    results[1] = probe_version_tags(sub);
    results[2] = results[1] < 0 ? -1 : probe_slots(object);
    results[3] = base->tp_dealloc == sub->tp_dealloc && base->tp_dealloc == st->subtype_dealloc;
    results[4] = PY_VERSION_HEX < DM_NEWEST_TESTED + 0x10000;
    const char *declined = getenv("DATACLASS_META_INTERNALS");  /* the tests' switch */
    results[5] = declined == NULL || strcmp(declined, "0") != 0;  /* holds: not declined */
    Py_DECREF(sub);
    Py_DECREF(base);
    PyObject *report = PyTuple_New(N);  /* owned */
    if (report == NULL) {
        return -1;
    }
    st->internals = 1;
    for (int i = 0; i < N; i++) {
        if (results[i] < 0) {
            Py_DECREF(report);
            return -1;
        }
        st->internals &= results[i];
        PyObject *pair = Py_BuildValue("(sO)", names[i], results[i] ? Py_True : Py_False);
        if (pair == NULL) {
            Py_DECREF(report);
            return -1;
        }
        PyTuple_SET_ITEM(report, i, pair);
    }
    int rc = PyModule_AddObjectRef(module, "INTERNALS", report);
    Py_DECREF(report);
    return rc;
}
