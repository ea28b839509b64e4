"""What the rewritten CPython tests call instead of ``dataclasses``.

Every public name of ``dataclass_meta``, plus ``dataclass`` for the places where the
tests call it as a function (``dataclass(C)``, ``dataclass(slots=True)(C)``) rather
than as a decorator the rewriter turns into class keywords.
"""

from dataclass_meta import *  # noqa: F401,F403
from dataclass_meta import DataClass, DataClassMeta

_UNSET = object()


def dataclass(cls=None, /, *, init=_UNSET, repr=_UNSET, eq=_UNSET, order=_UNSET,
              unsafe_hash=_UNSET, frozen=_UNSET, match_args=_UNSET, kw_only=_UNSET,
              slots=_UNSET, weakref_slot=_UNSET):
    """``@dataclass`` as a function: a new class with ``DataClass`` among its
    bases, built by ``DataClassMeta`` from ``cls``'s namespace and bases (as the
    stdlib's ``slots=True`` re-creates a class). Options not given are inherited.
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
    meta = type(cls) if isinstance(cls, DataClassMeta) else DataClassMeta
    bases = tuple(b for b in cls.__bases__ if b is not object)  # object comes last
    new = meta(cls.__name__, bases, namespace, **options)
    new.__qualname__ = cls.__qualname__
    return new
