"""The pure backend's generated methods: one closure factory per method.

Each factory takes what it needs, does all per-class work once, and returns the
function; ``attach`` names it after the class. Where a template of
``_templates`` serves, the method is that template relabelled with the class's
field names (``_relabel``); else a closure, whose fast helpers
(``_getters.tuple_getter``, ``map``) do the per-field work where they keep the
stdlib's semantics exactly.
"""

from _thread import get_ident  # threading's own; importing threading costs ~1 ms

from dataclasses import FrozenInstanceError
from types import FunctionType

from ._interop import pprint_shape
from ._getters import tuple_getter
from ._relabel import relabel, templates



def attach(cls, name, function):
    """Put a generated function on the class, looking hand-written there."""
    if function.__name__ != name:  # the factories mostly name them right already
        function.__name__ = name
    function.__qualname__ = f'{cls.__qualname__}.{name}'
    function.__module__ = cls.__module__
    if not isinstance(function, FunctionType):
        # compiled: like any method descriptor, it names its class (inspect.getdoc
        # then finds the inherited docstring, as for the pure closure)
        function.__objclass__ = cls
    type.__setattr__(cls, name, function)  # past DataClassMeta's guard: ours


def make_repr(plan):
    """``__repr__``: ``C(x=1, y=2)`` with the class's qualname, ``...`` on recursion.

    Each field is read, then repr()'d, before the next is read, as by the
    stdlib's f-string: a relabelled template (``_relabel``), else
    ``str.format``. Guarded as 3.13 guards its own (``_guarded``): keyed by
    instance and thread; ``pprint_shape`` marks it for pprint and rich.
    """
    names = plan.repr_names
    prefixes = [f'{", " if i else "("}{name}=' for i, name in enumerate(names)]
    __repr__ = relabel(templates().REPR, names, prefixes)
    if __repr__ is None:
        # str.format reads each ``{0.name}`` and applies ``!r`` before the next.
        format_ = ('{0.__class__.__qualname__}(' + ', '.join(
            f'{name}={{0.{name}!r}}' for name in names) + ')').format

        def __repr__(self):
            return format_(self)
    return pprint_shape(_guarded(__repr__), __repr__)


def _guarded(inner):
    """``inner`` behind ``reprlib.recursive_repr``'s guard, which 3.13+ wraps the
    stdlib's ``__repr__`` in: ``'...'`` for an instance already being repr'd in
    this thread. (The guard alone: the decorator's copying of names and
    annotations, which ``attach`` and ``pprint_shape`` redo, was a tenth of a
    class's creation.)"""
    running = set()

    def __repr__(self):
        key = id(self), get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return inner(self)
        finally:
            running.discard(key)
    return __repr__


def make_eq(plan):
    """``__eq__`` as 3.13 builds it: same class only, then field by field.

    ``self.a == other.a and self.b == other.b``: each pair read and compared in
    turn, no identity shortcut per field (unlike tuple comparison), stops at the
    first false result and returns it, and returns the last result without
    asking its truth. A relabelled template, else a loop.
    """
    names = plan.compare_names
    return template_eq(plan) or _eq_loop(names[:-1], names[-1:])


def template_eq(plan):
    """``__eq__`` as a relabelled template, or None (see ``_relabel``)."""
    return relabel(templates().EQ, plan.compare_names)


def _eq_loop(names, last):
    """The field-by-field ``__eq__`` for any number of fields: ``names``, then
    the ``last`` one (none for a class without fields to compare)."""
    last = last[0] if last else None

    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        for name in names:
            result = getattr(self, name) == getattr(other, name)
            if not result:
                return result
        return True if last is None else getattr(self, last) == getattr(other, last)
    return __eq__


def make_order(name, plan):
    """``__lt__``/``__le__``/``__gt__``/``__ge__``: same class only, compare tuples.

    A relabelled template, else a closure with the operator written out (so a
    comparison is no extra call) over a shared getter of the fields.
    """
    return (template_order(name, plan)
            or _ORDER_FACTORIES[name](tuple_getter(plan.compare_names)))


def template_order(name, plan):
    """The ordering method ``name`` as a relabelled template, or None."""
    return relabel(templates().ORDER[name], plan.compare_names)


def _lt(values):
    def __lt__(self, other):
        if other.__class__ is self.__class__:
            return values(self) < values(other)
        return NotImplemented
    return __lt__


def _le(values):
    def __le__(self, other):
        if other.__class__ is self.__class__:
            return values(self) <= values(other)
        return NotImplemented
    return __le__


def _gt(values):
    def __gt__(self, other):
        if other.__class__ is self.__class__:
            return values(self) > values(other)
        return NotImplemented
    return __gt__


def _ge(values):
    def __ge__(self, other):
        if other.__class__ is self.__class__:
            return values(self) >= values(other)
        return NotImplemented
    return __ge__


_ORDER_FACTORIES = {'__lt__': _lt, '__le__': _le, '__gt__': _gt, '__ge__': _ge}


def make_hash(plan):
    """``__hash__``: the hash of the tuple of fields with ``hash`` (else ``compare``):
    a relabelled template, else a closure over a shared getter."""
    __hash__ = template_hash(plan)
    if __hash__ is None:
        values = tuple_getter(plan.hash_names)

        def __hash__(self):
            return hash(values(self))
    return __hash__


def template_hash(plan):
    """``__hash__`` as a relabelled template, or None."""
    return relabel(templates().HASH, plan.hash_names)


def make_frozen_setattr(plan):
    """``__setattr__`` of a frozen class: fields (and anything on the class
    itself) cannot be assigned; a subclass's own new attributes can."""
    cls, names = plan.cls, frozenset(plan.field_names)

    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f'cannot assign to field {name!r}')
        super(cls, self).__setattr__(name, value)
    return __setattr__


def make_frozen_delattr(plan):
    """``__delattr__`` of a frozen class, the twin of ``make_frozen_setattr``."""
    cls, names = plan.cls, frozenset(plan.field_names)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f'cannot delete field {name!r}')
        super(cls, self).__delattr__(name)
    return __delattr__
