"""Classes that travel by value: cloudpickle and dill remake a data class of ours
in a process that never saw its source (a notebook's, a driver script's, a
function's class sent to Dask, Ray or joblib workers).

Neither pickler can be asked how to send a class: cloudpickle makes a skeleton
with ``types.new_class(name, bases, {'metaclass': type(cls)})`` and then sets
every entry of the class's ``__dict__`` on it; dill calls the metaclass with the
whole ``__dict__`` as the namespace. Either way the receiving process gets the
home class's fields and options (``__dataclass_fields__``,
``__dataclass_params__``) and everything written in its body; this module makes
it a data class again from those, with the receiving process's backend, as if
defined there. What the pipeline generated at home travels only as a
placeholder (``PLACEHOLDER``) or as a pure closure that is dropped on arrival:
the methods are made anew, so a travelled class runs as fast as a local one.

The one thing that must precede the type is its layout: cloudpickle's skeleton
has no ``__slots__``. A slotted class therefore keeps a ``SlotLayout`` as its
``__dict__`` entry (what its instances lack anyway), the one entry besides
``__module__`` that cloudpickle passes to ``types.new_class``; the skeleton is
made with those slots.
"""

import dataclasses
import sys
from os import path as _path
from types import FunctionType

from . import _fields

#: Where the travelled fields and options wait, in a namespace that dill passes
#: to the metaclass, until ``DataClass.__init_subclass__`` builds the class.
RESTORE = '__dataclass_restore__'

#: Names whose arrival after the class was remade changes what the pipeline
#: makes (``__post_init__`` is called by ``__init__``; the next decide which
#: ``__getattr__``, ``__getstate__`` and ``__reduce__`` a class gets; dill sets
#: ``__qualname__`` last, which the methods' names and call errors show).
SHAPING = frozenset({
    '__post_init__', '__getattr__', '__getstate__', '__setstate__', '__reduce__',
    '__reduce_ex__', '__getnewargs__', '__getnewargs_ex__', '__set_name__',
    '_dataclass_cached', '__qualname__'})


class Placeholder:
    """What a generated method becomes when its class travels by value: the
    class is remade on arrival, so only the method's qualified name travels
    (never a reference back to the class, which dill cannot send)."""

    __slots__ = ('qualname',)

    def __init__(self, qualname=None):
        self.qualname = qualname

    def __reduce__(self):
        return Placeholder, (self.qualname,)

    def __repr__(self):
        return f'<dataclass_meta generated method {self.qualname}: remade on arrival>'


def placeholder():
    """A placeholder without a name, from its pickle."""
    return Placeholder()


def method(module, qualname, ident):
    """A compiled method from its pickle: the method itself where ``module`` and
    ``qualname`` still find the same object (pickled by reference, in the process
    that made it), else a ``Placeholder`` (its class travelled by value)."""
    found = sys.modules.get(module)
    for part in (qualname or '<locals>').split('.'):
        if found is None or part == '<locals>':
            return Placeholder(qualname)
        found = getattr(found, '__dict__', {}).get(part)
    return found if id(found) == ident else Placeholder(qualname)


def home_qualname(value):
    """The qualified name of the class a travelled method was made for, or None."""
    qualname = value.qualname if type(value) is Placeholder else value.__qualname__
    return qualname.rpartition('.')[0] or None if type(qualname) is str else None


class ReplaceEntry(tuple):
    """``(cls, replace)``, the entry ``replace()`` looks up: sent as a
    placeholder, since it holds the class."""

    __slots__ = ()

    def __reduce__(self):
        return placeholder, ()


class SlotLayout(property):
    """The ``__dict__`` entry of a slotted data class, whose instances have none:
    reading, setting or deleting ``instance.__dict__`` raises the
    ``AttributeError`` Python raises without it. It carries the class's
    ``__slots__`` for the road: cloudpickle passes a class's ``__dict__``
    property to the skeleton it makes, so ``DataClassMeta`` lays the skeleton
    out with the home class's slots, which cannot be added once it exists.
    """

    def __init__(self, slots):
        super().__init__(_no_dict, _no_dict, _no_dict,
                         'no __dict__: a slotted data class (the entry carries its slots)')
        self.slots = slots

    def __reduce__(self):
        return SlotLayout, (self.slots,)


def _no_dict(instance, *value):
    raise AttributeError(f'{type(instance).__name__!r} object has no attribute '
                         f"'__dict__'", name='__dict__', obj=instance)


def travelled(value):
    """Whether ``value`` is what a generated entry became on the wire: the
    placeholder, or a function of this package's modules (a pure closure or a
    relabelled template) that cloudpickle sent by value, whose globals are a
    copy rather than its module's."""
    if type(value) is Placeholder:
        return True
    if type(value) is FunctionType:
        name = value.__globals__.get('__name__')
        if type(name) is str and name.startswith(_PACKAGE):
            module = sys.modules.get(name)
            return module is None or module.__dict__ is not value.__globals__
    return False


def compiled_here(value):
    """Whether ``value`` is a function compiled from this package's files: a
    pure closure or a relabelled template, wherever it travelled (dill keeps
    the code's file name; its globals may be a copy without ``__name__``)."""
    return (type(value) is FunctionType
            and _path.dirname(value.__code__.co_filename) == _HERE)


_PACKAGE = __name__.rpartition('.')[0] + '.'
_HERE = _path.dirname(__file__)



def layout_of(namespace):
    """The ``SlotLayout`` of a skeleton's namespace, or None."""
    found = namespace.get('__dict__')
    return found if type(found) is SlotLayout else None


# The stdlib's sentinels, which a pickler copies rather than sends by name.
_MARKERS = {m.name: m for m in (dataclasses._FIELD, dataclasses._FIELD_CLASSVAR,
                                dataclasses._FIELD_INITVAR)}
_MISSING = dataclasses.MISSING


def arrived_fields(fields):
    """``fields`` as they travelled, with the stdlib's sentinels themselves
    again: ``MISSING`` for an absent default, factory or ``kw_only``, and the
    field-kind markers (cloudpickle sends those by name, dill copies them); a
    converter, validator or alias among them is noted as in use."""
    for f in fields.values():
        if getattr(f, '_hooks', None) is not None:  # unpickled: Field.__init__ never ran
            _fields.hooks_used = True
        for name in ('default', 'default_factory', 'kw_only'):
            if type(getattr(f, name, None)) is type(_MISSING):
                object.__setattr__(f, name, _MISSING)
        kind = f._field_type
        if isinstance(kind, dataclasses._FIELD_BASE) and kind is not _MARKERS.get(kind.name):
            f._field_type = _MARKERS[kind.name]
    return fields
