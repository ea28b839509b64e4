"""What the rewritten CPython tests call instead of ``dataclasses``.

Every public name of ``dataclass_meta``; ``build``, the metaclass the rewriter puts
on each decorated class; and ``dataclass`` for the places where the tests call it
as a function (``dataclass(C)``, ``dataclass(slots=True)(C)``).
"""

from dataclass_meta import *  # noqa: F401,F403
from dataclass_meta import DataClass, DataClassMeta

_UNSET = object()


def build(name, bases, namespace, /, *, _dm_metaclass=None, **kwargs):
    """``class C(<bases>, metaclass=build, <options>)``: C as a ``DataClass``.

    What a user writes by hand, done for any bases: ``DataClass`` first among the
    bases of a root data class (after them, a base's ``__init_subclass__`` would
    receive the options and could keep them from ``DataClass``), no explicit
    ``object`` (it must come last), and a base's other metaclass combined with
    ``DataClassMeta`` as docs/frameworks.md shows (``class M(DataClassMeta, Other)``).
    """
    bases = with_base(bases)
    return metaclass_for(bases, _dm_metaclass)(name, bases, namespace, **kwargs)


def _prepare(name, bases, /, *, _dm_metaclass=None, **kwargs):
    bases = with_base(bases)
    return metaclass_for(bases, _dm_metaclass).__prepare__(name, bases, **kwargs)


build.__prepare__ = _prepare


def with_base(bases):
    bases = tuple(b for b in bases if b is not object)
    if any(isinstance(b, type) and issubclass(b, DataClass) for b in bases):
        return bases
    return (DataClass,) + bases


_COMBINED = {}


def metaclass_for(bases, explicit=None):
    """The most derived metaclass of the bases, made a ``DataClassMeta`` if needed."""
    winner = DataClassMeta
    for meta in [type(b) for b in bases] + ([explicit] if explicit else []):
        if issubclass(winner, meta):
            continue
        if issubclass(meta, winner):
            winner = meta
            continue
        key = (winner, meta)
        if key not in _COMBINED:
            _COMBINED[key] = type(f'{winner.__name__}_{meta.__name__}', key, {})
        winner = _COMBINED[key]
    return winner


def dataclass(cls=None, /, *, init=_UNSET, repr=_UNSET, eq=_UNSET, order=_UNSET,
              unsafe_hash=_UNSET, frozen=_UNSET, match_args=_UNSET, kw_only=_UNSET,
              slots=_UNSET, weakref_slot=_UNSET):
    """``@dataclass`` as a function: a new class built by ``build`` from ``cls``'s
    name, bases and namespace (as the stdlib's ``slots=True`` re-creates a class).
    Options not given are inherited.
    """
    given = {name: value for name, value in locals().items()
             if name != 'cls' and value is not _UNSET}

    def wrap(cls):
        return remake(cls, given)
    return wrap if cls is None else wrap(cls)


def remake(cls, options):
    namespace = dict(cls.__dict__)
    for name in ('__dict__', '__weakref__'):
        namespace.pop(name, None)
    slots = namespace.get('__slots__', ())
    for name in (slots,) if isinstance(slots, str) else slots:
        namespace.pop(name, None)  # the member descriptors of cls's own slots
    new = build(cls.__name__, cls.__bases__, namespace, _dm_metaclass=type(cls), **options)
    new.__qualname__ = cls.__qualname__
    for value in namespace.values():
        _point_class_cell(value, cls, new)
    return new


def _point_class_cell(value, old, new):
    """Make ``__class__`` (zero-argument ``super()``) in a method mean the new class,
    as the stdlib's ``slots=True`` does for the class it re-creates."""
    value = getattr(value, '__func__', value)  # classmethod, staticmethod
    if isinstance(value, property):
        for accessor in (value.fget, value.fset, value.fdel):
            _point_class_cell(accessor, old, new)
        return
    code = getattr(value, '__code__', None)
    if code is not None and '__class__' in code.co_freevars:
        cell = value.__closure__[code.co_freevars.index('__class__')]
        if cell.cell_contents is old:
            cell.cell_contents = new
