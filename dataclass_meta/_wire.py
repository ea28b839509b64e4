"""Instances on the wire: the compiled core's compact pickle, and its loaders.

On the compiled backend a data class gets a generated ``__reduce_ex__`` that
pickles an instance as ``(loader, (value, ...))``: the fields' values in
definition order, behind one loader object per class and pickle (pickle's memo
sends it once; each instance then costs its values and three opcodes, the
shape of msgspec's ``Struct``). The loader pickles as ``loader(cls, names)``,
this module's function below, importable under that name on both backends:
the field names it carries are the ones at pickling time, so a pickle loads
after the class gained or lost fields without shifting a value into another
field (``load_evolved``).

The compact route is taken only where it gives what the stdlib's route
(``object.__reduce_ex__``: ``copyreg.__newobj__`` and the instance's state)
would give, else the stdlib's route is taken; ``route`` decides, per class and
again whenever the class changes, and the generated method checks each
instance: every field set, every value of a type that cannot refer back to the
instance (no cycle can pass through the loader's arguments, which pickle
writes before the instance exists), and for a dict-based class nothing else in
its ``__dict__``. Loading never runs ``__init__``, converters, validators or
``__post_init__``: the stdlib's pickle semantics.

The pure backend keeps the stdlib's route (its own loader would be a Python
call per instance, slower than what it does today) and loads both formats.
"""

import types

from ._asdict import cached_field_names
from ._cache_hash import HASH_SLOT, make_getstate as _hash_getstate
from ._class_attrs import make_getstate as _frozen_getstate, make_setstate as _frozen_setstate
from ._fields import FIELD, MISSING

#: What ``route`` answers (the compiled ``__reduce_ex__`` reads the number).
NATIVE, SLOTS, DICT = 0, 1, 2

_OBJECT = object.__dict__
_MEMBER = types.MemberDescriptorType
_SLOT_WRAPPER = types.WrapperDescriptorType


def _assigns_as_object(cls):
    """Whether assignment to instances of ``cls`` is object's store: object's
    ``__setattr__``, or the compiled core's for ``untrack_atomic=True`` (object's
    store, then the collector told); loading settles the instance itself."""
    found = mro_lookup(cls, '__setattr__')
    return found is _OBJECT['__setattr__'] or untracking_wrapper(found)


def untracking_wrapper(value):
    """Whether ``value`` is a slot wrapper that ``untrack_atomic=True`` put in a
    mutable data class's namespace (``__setattr__`` or ``__delattr__``, around
    the compiled core's store that tells the collector)."""
    if type(value) is not _SLOT_WRAPPER or value.__name__ not in ('__setattr__', '__delattr__'):
        return False
    params = value.__objclass__.__dict__.get('__dataclass_params__')
    return getattr(params, 'untrack_atomic', None) is True and not getattr(params, 'frozen', True)


def mro_lookup(cls, name):
    """``name`` as the class's MRO has it (the first ``__dict__`` holding it), or None."""
    for klass in cls.__mro__:
        found = klass.__dict__.get(name, _ABSENT)
        if found is not _ABSENT:
            return found
    return None


_ABSENT = object()


def _ours(function, codes):
    """Whether ``function`` is a closure of one of ``codes`` (the pipeline's
    ``__getstate__``/``__setstate__``, which carry the fields only)."""
    code = getattr(function, '__code__', None)
    return code is not None and any(code is made for made in codes)


def field_names(cls):
    """The names of the fields of ``cls`` an instance carries, in order."""
    return cached_field_names(cls, cls.__dataclass_fields__)


def _slot_names(cls):
    """Every ``__slots__`` member of the class's instances (mangled names). Each
    class's dict is copied first (one call, atomic): another thread may store
    on the class meanwhile (``copyreg`` caches ``__slotnames__`` there on a
    first pickle), and a dict must not change size while it is iterated."""
    names = set()
    for klass in cls.__mro__:
        for name, value in klass.__dict__.copy().items():
            if type(value) is _MEMBER:
                names.add(name)
    return names


def _instances_have_dict(cls):
    """Whether instances of ``cls`` have a ``__dict__`` (PyPy's classes have no
    ``__dictoffset__``: there, where some class of the MRO but ``object`` has
    no ``__slots__``, as CPython decides it)."""
    offset = getattr(cls, '__dictoffset__', None)
    if offset is not None:
        return offset != 0
    return not all('__slots__' in klass.__dict__ for klass in cls.__mro__[:-1])


def route(cls):
    """How instances of ``cls`` pickle now: ``SLOTS`` or ``DICT`` where the
    compact format carries exactly what the stdlib's route would (the fields,
    loaded without running any code of the class), else ``NATIVE``. What makes
    a class ``NATIVE``: its own ``__reduce__``, ``__getnewargs__``,
    ``__getnewargs_ex__``, ``__new__``, ``__getattribute__``, a
    ``__getstate__``/``__setstate__`` the pipeline did not make, slots other
    than the fields (and the cached hash's, which never travels), abstract
    methods, and, where loading stores through ``setattr`` (a mutable slotted
    class), a ``__setattr__`` (but the ``untrack_atomic`` one); for a dict-based class, a data descriptor under
    a field's name."""
    if (mro_lookup(cls, '__new__') is not _OBJECT['__new__']
            or mro_lookup(cls, '__reduce__') is not _OBJECT['__reduce__']
            or mro_lookup(cls, '__getattribute__') is not _OBJECT['__getattribute__']
            or mro_lookup(cls, '__getnewargs__') is not None
            or mro_lookup(cls, '__getnewargs_ex__') is not None
            or getattr(cls, '__abstractmethods__', None)):
        return NATIVE
    getstate, setstate = mro_lookup(cls, '__getstate__'), mro_lookup(cls, '__setstate__')
    if not (getstate is None or getstate is _OBJECT.get('__getstate__')
            or _ours(getstate, _GETSTATE_CODES)):
        return NATIVE
    if not (setstate is None or _ours(setstate, _SETSTATE_CODES)):
        return NATIVE
    fields = cls.__dict__.get('__dataclass_fields__')
    if type(fields) is not dict:
        return NATIVE
    names = field_names(cls)
    if _slot_names(cls) - set(names) - {HASH_SLOT}:
        return NATIVE
    if not _instances_have_dict(cls):  # slotted: loading stores each field's slot
        if setstate is None and not _assigns_as_object(cls):
            return NATIVE
        return SLOTS
    for name in names:  # dict-based: loading fills the instance's __dict__
        found = type(mro_lookup(cls, name))
        if hasattr(found, '__set__') or hasattr(found, '__delete__'):
            return NATIVE
    return DICT


class _Probe:
    """A stand-in plan, to read the code of the pipeline's state methods."""
    field_names = ()

    class cls:
        __dataclass_fields__ = {}


# The code of the ``__getstate__``/``__setstate__`` closures the pipeline makes
# (a frozen or converting slotted class's; the cached hash's, which drops it).
_GETSTATE_CODES = (_frozen_getstate(_Probe).__code__, _hash_getstate(None).__code__)
_SETSTATE_CODES = (_frozen_setstate(_Probe).__code__,)


def loader(cls, names):
    """The loader of a compact pickle of ``cls`` whose fields were ``names``
    when it was written: what such a pickle calls first, once per class. The
    class's own compiled loader where it still has those fields (its compiled
    ``__reduce_ex__`` keeps both as ``wire``: loading one instance costs a
    lookup here, not a route's; a class made by the compiled core keeps its
    instances as that core makes them, untracked ones included, whichever
    backend this process defaults to), else ``load_evolved`` bound to them."""
    kept = getattr(cls.__dict__.get('__reduce_ex__'), 'wire', None)
    if type(kept) is tuple and kept[0] == names:
        return kept[1]  # also where this process's backend is the pure one
    compiled = COMPILED[0] if COMPILED else None
    if compiled is not None and names == field_names(cls) and route(cls) != NATIVE:
        return compiled.loader(cls, names)
    return Loader(cls, names)


class Loader:
    """The pure loader: ``Loader(cls, names)(*values)`` is an instance of ``cls``
    holding ``values`` under ``names``; pickled as ``loader(cls, names)``."""

    __slots__ = ('cls', 'names')

    def __init__(self, cls, names):
        self.cls = cls
        self.names = names

    def __call__(self, *values):
        return load_evolved(self.cls, self.names, values)

    def __reduce__(self):
        return loader, (self.cls, self.names)

    def __repr__(self):
        return f'<dataclass_meta loader of {self.cls.__qualname__}{self.names}>'


def load_evolved(cls, names, values):
    """An instance of ``cls`` from ``values`` pickled under ``names``, built as
    the stdlib's route would: ``cls.__new__(cls)``, then the state. A class
    with a ``__setstate__`` of its own gets the state as ``object.__getstate__``
    would give it (a dict of the pickled fields, under ``(None, ...)`` for a
    slotted class). Otherwise each field is stored past ``__setattr__``: from
    the pickle where it was a field then, else its default (its factory
    called); a field added without a default, or a pickled field the class
    lost (removed or renamed), raises a ``TypeError`` that names both."""
    if len(values) != len(names):
        raise TypeError(f'{cls.__qualname__}: a pickle of {len(names)} field(s) '
                        f'{names!r} holds {len(values)} value(s): it is damaged')
    self = cls.__new__(cls)
    given = dict(zip(names, values))
    setstate = mro_lookup(cls, '__setstate__')
    if setstate is not None and not _ours(setstate, _SETSTATE_CODES):
        self.__setstate__(given if _instances_have_dict(cls) else (None, given))
        return self
    for f in cls.__dataclass_fields__.values():
        if f._field_type is not FIELD:
            continue
        if f.name in given:
            value = given.pop(f.name)
        elif f.default is not MISSING:
            value = f.default
        elif f.default_factory is not MISSING:
            value = f.default_factory()
        else:
            raise TypeError(
                f'cannot load a pickled {cls.__qualname__!r}: its field {f.name!r} was '
                f'added since the pickle was written, without a default; give it a '
                f'default or a default_factory, or a __setstate__ that fills it')
        object.__setattr__(self, f.name, value)
    if given:
        lost = ', '.join(repr(name) for name in given)
        raise TypeError(
            f'cannot load a pickled {cls.__qualname__!r}: the pickle holds field(s) {lost} '
            f'that the class no longer has (removed or renamed); give the class a '
            f'__setstate__, which loading then calls with the pickled fields by name')
    return self


#: [the compiled core] where it is this process's backend (``_backend`` adds it).
COMPILED = []
