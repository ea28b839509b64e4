"""``functools.cached_property`` on a class without ``__dict__`` (``slots=True``).

The stdlib's ``cached_property`` keeps its value in the instance ``__dict__``,
which a slotted class does not have. ``DataClassMeta`` lays out the slotted
class before it exists, so it gives each cached property a slot of its own and
puts a descriptor in its place that keeps the value there: computed on the
first read, then read from the slot; assignment replaces it, ``del`` forgets
it. No ``__getattr__``: a missing attribute raises as it always does.

The value's slot is ``_<Class>__cached_<name>`` (named as Python mangles a
private name, so a subclass's own cached property of the same name gets its
own slot); like any slot, it is pickled and copied when set, as the stdlib
pickles and copies a cached value in ``__dict__``.
"""

import sys
from types import GenericAlias


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


def slot_name(class_name, name):
    """The slot of the cached property ``name`` of class ``class_name``."""
    return f'_{class_name.lstrip("_") or class_name}__cached_{name}'


def add_cached_slots(class_name, namespace, found, make):
    """The slotted namespace with a slot and a ``make(func, slot)`` descriptor
    for each cached property in ``found`` (from ``cached_properties`` before
    the fields were laid out: one that is missing now had a field's name)."""
    clash = [name for name in found if name not in namespace]
    if clash:
        msg = (f'cached_property {clash[0]!r} of data class {class_name!r} has the name of '
               f'a field: rename one of them')
        raise TypeError(msg)
    _check_shared(found)
    namespace = dict(namespace)
    slots = namespace['__slots__']
    added = {slot_name(class_name, name): name for name in found}
    if isinstance(slots, dict):
        namespace['__slots__'] = {**slots, **dict.fromkeys(added)}
    else:
        namespace['__slots__'] = (*slots, *added)
    for slot, name in added.items():
        namespace[name] = make(found[name].func, slot)
    return namespace


def _check_shared(found):
    """One cached_property under two names: the stdlib's error (at ``__set_name__``)."""
    seen = {}
    for name, value in found.items():
        if id(value) in seen:
            msg = (f'Cannot assign the same cached_property to two different names '
                   f'({seen[id(value)]!r} and {name!r}).')
            raise TypeError(msg)
        seen[id(value)] = name


class SlottedCachedProperty:
    """A ``functools.cached_property`` whose value is kept in the slot ``slot``.

    The pure backend's; the compiled core has the same in C.
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

    __class_getitem__ = classmethod(GenericAlias)


_MemberDescriptor = type(type('_Slotted', (), {'__slots__': ('x',)}).__dict__['x'])
