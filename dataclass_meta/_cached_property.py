"""``functools.cached_property`` on a class without ``__dict__`` (``slots=True``).

The stdlib's ``cached_property`` keeps its value in the instance ``__dict__``,
which a slotted class does not have. ``DataClassMeta`` lays out the slotted
class before it exists, so it gives each cached property a slot.

Where the interpreter specialises attribute reads of a class that has a
``__getattr__`` (CPython 3.12+, PyPy; ``SLOT_READS``), the slot has the
property's own name: on the class that name is the slot's member descriptor,
so a computed value is read as any slot is. An empty slot raises
``AttributeError``, on which the interpreter calls ``__getattr__``: the class's
generated one computes the value, stores it in the slot and returns it. For
every other name it calls the ``__getattr__`` the class would have had (its
own, or the next one in its MRO), else looks the name up once more so that the
interpreter's own ``AttributeError`` (or a descriptor's) is raised. Every class
whose MRO holds such a slot gets its own, made from its MRO when it is
created, so a subclass's ``__getattr__``, a mixin's and an override of the
property all take part. It refers to the functions and slots, never to the
class.

CPython 3.10 and 3.11 would read every attribute of such a class unspecialised
(3.11 gives up on any ``__getattr__``), so there the slot is
``_<Class>__cached_<name>`` (named as Python mangles a private name, so a
subclass's own cached property of the same name gets its own slot) behind a
descriptor of the backend's (``SlottedCachedProperty`` here, the same in C)
that computes, keeps and reads the value; no ``__getattr__``.

Either way assignment replaces the value and ``del`` forgets it; like any slot
it is pickled and copied when set (and never computed for that), as the stdlib
carries a cached value in ``__dict__``.
"""

import copyreg
import sys
from types import GenericAlias

#: Whether a hit is a plain slot read, the miss going through ``__getattr__``.
SLOT_READS = sys.implementation.name != 'cpython' or sys.version_info >= (3, 12)

#: On each class with a generated ``__getattr__``: ({name: function} of its own
#: slotted cached properties, the class's own ``__getattr__`` or None), for the
#: generated ``__getattr__`` of the class and of its subclasses; ``DataClass``
#: has None, so that every other class finds that in one lookup. Not a dunder,
#: so that help() leaves it out.
CACHED = '_dataclass_cached'


def cached_properties(namespace):
    """{name: cached_property} of a class body: ``functools.cached_property``
    itself only (a subclass of it may store its value its own way). Before
    anything imported ``functools`` no class body can hold one: the package
    does not import it (3.15's ``dataclasses`` no longer does)."""
    functools = sys.modules.get('functools')
    if functools is None:
        return {}
    cached_property = functools.cached_property
    return {name: value for name, value in namespace.items()
            if type(value) is cached_property}


def add_cached_slots(class_name, namespace, found, taken, make):
    """The slotted namespace with a slot for each cached property in ``found``
    (from ``cached_properties`` before the fields were laid out: one that is
    missing now had a field's name). ``SLOT_READS``: the slot in place of the
    property, unless a base (``taken``: the slots above) has it already, which
    it then shares; the functions under ``CACHED``. Else a hidden slot and a
    ``make(func, slot)`` descriptor in its place."""
    clash = [name for name in found if name not in namespace]
    if clash:
        msg = (f'cached_property {clash[0]!r} of data class {class_name!r} has the name of '
               f'a field: rename one of them')
        raise TypeError(msg)
    _check_shared(found)
    namespace = dict(namespace)
    slots = namespace['__slots__']
    slots = dict(slots) if isinstance(slots, dict) else dict.fromkeys(slots)
    for name, prop in found.items():
        if SLOT_READS:
            del namespace[name]
            if name not in taken:
                slots[name] = prop.func.__doc__  # the slot's docstring
        else:
            slot = slot_name(class_name, name)
            slots[slot] = None
            namespace[name] = make(prop.func, slot)
    namespace['__slots__'] = slots if any(slots.values()) else tuple(slots)
    if SLOT_READS:
        namespace[CACHED] = ({name: prop.func for name, prop in found.items()},
                             namespace.get('__getattr__'))
    return namespace


def slot_name(class_name, name):
    """The hidden slot of the cached property ``name`` of class ``class_name``."""
    return f'_{class_name.lstrip("_") or class_name}__cached_{name}'


def _check_shared(found):
    """One cached_property under two names: the stdlib's error (at ``__set_name__``)."""
    seen = {}
    for name, value in found.items():
        if id(value) in seen:
            msg = (f'Cannot assign the same cached_property to two different names '
                   f'({seen[id(value)]!r} and {name!r}).')
            raise TypeError(msg)
        seen[id(value)] = name


def getattr_for(cls, settle=None):
    """The generated ``__getattr__`` and ``__getstate__`` of ``cls``, or None
    where no class of its MRO has slotted cached properties under ``CACHED``
    (which ``cls`` then gets too, with no function of its own). Made from the
    MRO: each name's function is the first class's that has one, as long as no
    class before it puts anything else under that name; the slot is the member
    descriptor found under the name. The fallback is the first ``__getattr__``
    of the MRO, a class's own one where the class has a generated one."""
    if getattr(cls, CACHED) is None:  # DataClass's None: one cached type lookup
        return None
    mro = cls.__mro__
    owners = [klass for klass in mro if klass.__dict__.get(CACHED) is not None]
    if owners[0] is not cls:  # none of its own: keep its own __getattr__ for its subclasses
        type.__setattr__(cls, CACHED, ({}, cls.__dict__.get('__getattr__')))
    names = dict.fromkeys(name for klass in owners for name in klass.__dict__[CACHED][0])
    cached = {}
    for name in names:
        func = None
        for klass in mro:
            own = klass.__dict__.get(CACHED)
            if func is None and own is not None:
                func = own[0].get(name)
            attr = klass.__dict__.get(name, _ABSENT)
            if attr is not _ABSENT:
                if func is not None and type(attr) is _MemberDescriptor:
                    cached[name] = (func, attr)
                break
    fallback = None
    for klass in mro:
        own = klass.__dict__.get(CACHED)
        found = own[1] if own is not None else klass.__dict__.get('__getattr__')
        if found is not None:
            fallback = found
            break
    return make_getattr(cached, fallback, settle), make_getstate(cached)


def make_getattr(cached, fallback, settle=None):
    """``__getattr__`` for a miss: a cached name (``cached``: {name: (function,
    the slot's member descriptor)}) computes and keeps its value; any other name goes to
    ``fallback`` (a ``__getattr__``), else is looked up again to raise as it
    would without this method. An exception of the function is the caller's,
    even an ``AttributeError``. ``settle``: the backend's, which tracks an
    untracked instance again where the kept value is not atomic."""
    get = cached.get

    def __getattr__(self, name):
        entry = get(name)
        if entry is not None:
            value = entry[0](self)
            entry[1].__set__(self, value)
            if settle is not None:
                settle(self)
            return value
        if fallback is not None:
            return fallback(self, name)
        return type(self).__getattribute__(self, name)  # raises its own error
    return __getattr__


def make_getstate(cached):
    """``__getstate__`` as ``object.__getstate__`` gives it, which reads every
    slot with ``getattr``: here a cached property's slot is read as it is, so
    that pickling or copying an instance carries a computed value and computes
    none."""
    def __getstate__(self):
        try:
            state = object.__getattribute__(self, '__dict__') or None
        except AttributeError:
            state = None
        slots = {}
        for name in copyreg._slotnames(type(self)):
            entry = cached.get(name)
            try:
                slots[name] = (getattr(self, name) if entry is None
                               else entry[1].__get__(self, None))
            except AttributeError:
                pass
        return (state, slots) if slots else state
    return __getstate__


def made_getstate(function):
    """Whether ``function`` is a ``__getstate__`` that ``make_getstate`` made."""
    return getattr(function, '__code__', None) is _GETSTATE_CODE


class SlottedCachedProperty:
    """A ``functools.cached_property`` whose value is kept in the slot ``slot``
    (CPython 3.10, 3.11). The pure backend's; the compiled core has the same in C.
    """

    def __init__(self, func, slot):
        self.func = func
        self.slot = slot
        self.attrname = None
        self.__doc__ = func.__doc__
        self._member = None

    def __set_name__(self, owner, name):
        if self.attrname is not None and name != self.attrname:
            msg = (f'Cannot assign the same cached_property to two different names '
                   f'({self.attrname!r} and {name!r}).')
            raise TypeError(msg)
        member = next((klass.__dict__[self.slot] for klass in owner.__mro__
                       if self.slot in klass.__dict__), None)
        if type(member) is not _MemberDescriptor:
            raise TypeError(f'{self.slot}: not a slot\'s member descriptor')
        self.attrname = name
        self._member = member
        self._read, self._store, self._forget = member.__get__, member.__set__, member.__delete__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        self._bound()
        try:
            return self._read(instance)
        except AttributeError:  # not computed yet: the slot is empty
            pass
        value = self.func(instance)
        self._store(instance, value)
        return value

    def __set__(self, instance, value):
        self._bound()
        self._store(instance, value)

    def __delete__(self, instance):
        self._bound()
        try:
            self._forget(instance)
        except AttributeError:
            msg = f'{type(instance).__name__!r} object has no attribute {self.attrname!r}'
            raise AttributeError(msg) from None

    def _bound(self):
        if self._member is None:
            msg = 'Cannot use cached_property instance without calling __set_name__ on it.'
            raise TypeError(msg)

    def __repr__(self):
        return f'<cached_property {self.attrname!r} in slot {self.slot!r}>'

    def __reduce__(self):
        # Its class sent by value (cloudpickle, dill): unbound, as from the class
        # body; the arriving class binds one of its own backend's to its slot.
        return SlottedCachedProperty, (self.func, self.slot)

    __class_getitem__ = classmethod(GenericAlias)


_GETSTATE_CODE = make_getstate({}).__code__
_ABSENT = object()
_MemberDescriptor = type(type('_Slotted', (), {'__slots__': ('x',)}).__dict__['x'])
