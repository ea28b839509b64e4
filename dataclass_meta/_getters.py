"""How generated methods read a class's fields, chosen per implementation.

``tuple_getter``: ``self -> (self.a, self.b, ...)``, for ``__eq__``, the
orderings, ``__hash__``, ``__replace__``, ``__getstate__``, ``asdict`` and
``astuple``. Either kind reads the attributes in order and raises the first
error, as ``(obj.a, obj.b)`` does. ``unrolled_stores``: on PyPy, ``__init__``'s
stores for classes no template serves.

- CPython: ``operator.attrgetter(*names)``, one C call for all the fields.
- PyPy: the JIT cannot see into ``attrgetter`` (about 110 ns a call where a
  written-out tuple of attribute reads costs under 1 ns), but it folds
  ``getattr(obj, name)`` with a name from a closure cell into a plain attribute
  read. So the getter is a closure with one ``getattr`` per field, unrolled up to
  eight fields; more fields are read in halves, concatenated, so no
  loop stops the JIT from inlining the getter into its caller.
"""

import sys
from _operator import attrgetter  # operator's own; importing operator costs on 3.15

PYPY = sys.implementation.name == 'pypy'

_GETTERS = {}  # names -> getter; getters hold no class, so classes share them


def tuple_getter(names):
    """The getter of the tuple of ``names``' values, shared by equal ``names``."""
    getter = _GETTERS.get(names)
    if getter is None:
        if len(_GETTERS) >= 4096:
            _GETTERS.clear()
        getter = _GETTERS[names] = (_getattr_tuple if PYPY else _attrgetter_tuple)(names)
    return getter


def operator_tuple(getter, names):
    """``getter(*names)`` (``attrgetter``, ``itemgetter``: one C call) returning a
    tuple for any count; for one name they return the bare value."""
    if len(names) >= 2:
        return getter(*names)
    if len(names) == 1:
        get = getter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


def _attrgetter_tuple(names):
    return operator_tuple(attrgetter, names)


def _get0():
    return lambda obj: ()


def _get1(n0):
    return lambda obj: (getattr(obj, n0),)


def _get2(n0, n1):
    return lambda obj: (getattr(obj, n0), getattr(obj, n1))


def _get3(n0, n1, n2):
    return lambda obj: (getattr(obj, n0), getattr(obj, n1), getattr(obj, n2))


def _get4(n0, n1, n2, n3):
    return lambda obj: (getattr(obj, n0), getattr(obj, n1), getattr(obj, n2),
                        getattr(obj, n3))


def _get5(n0, n1, n2, n3, n4):
    return lambda obj: (getattr(obj, n0), getattr(obj, n1), getattr(obj, n2),
                        getattr(obj, n3), getattr(obj, n4))


def _get6(n0, n1, n2, n3, n4, n5):
    return lambda obj: (getattr(obj, n0), getattr(obj, n1), getattr(obj, n2),
                        getattr(obj, n3), getattr(obj, n4), getattr(obj, n5))


def _get7(n0, n1, n2, n3, n4, n5, n6):
    return lambda obj: (getattr(obj, n0), getattr(obj, n1), getattr(obj, n2),
                        getattr(obj, n3), getattr(obj, n4), getattr(obj, n5),
                        getattr(obj, n6))


def _get8(n0, n1, n2, n3, n4, n5, n6, n7):
    return lambda obj: (getattr(obj, n0), getattr(obj, n1), getattr(obj, n2),
                        getattr(obj, n3), getattr(obj, n4), getattr(obj, n5),
                        getattr(obj, n6), getattr(obj, n7))


_UNROLLED = (_get0, _get1, _get2, _get3, _get4, _get5, _get6, _get7, _get8)
_CHUNK = len(_UNROLLED) - 1


def _getattr_tuple(names):
    """Unrolled ``getattr`` reads; beyond eight names, the tuple of the first
    half plus that of the second (each made the same way): left to right, and
    nested only about log2(n / 8) calls deep."""
    if len(names) <= _CHUNK:
        return _UNROLLED[len(names)](*names)
    half = len(names) // 2
    head, tail = _getattr_tuple(names[:half]), _getattr_tuple(names[half:])
    return lambda obj: head(obj) + tail(obj)


def _store_step(store, name, i, factory, marker):
    """One field's store: ``values[i]``, or ``factory()`` where none was given."""
    if i is None:
        return lambda self, values: store(self, name, factory())
    if factory is None:
        return lambda self, values: store(self, name, values[i])

    def step(self, values):
        value = values[i]
        store(self, name, factory() if value is marker else value)
    return step


def _chained(steps):
    if len(steps) == 1:
        return steps[0]
    half = len(steps) // 2
    left, right = _chained(steps[:half]), _chained(steps[half:])

    def both(self, values):
        left(self, values)
        right(self, values)
    return both


def unrolled_stores(steps, store, marker):
    """PyPy: ``(self, values) -> None`` doing ``__init__``'s stores, one closure
    per field joined in halves, or ``None`` on CPython (the caller's loop is
    faster there). ``steps`` are (name, index in ``values`` or None, factory or
    None); ``marker`` in ``values`` means "call the factory". On PyPy the loop
    over the steps runs ~500x slower than these closures, which the JIT inlines
    into plain attribute stores."""
    if not PYPY or not steps:
        return None
    return _chained([_store_step(store, name, i, factory, marker)
                     for name, i, factory in steps])
