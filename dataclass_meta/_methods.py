"""One closure factory per generated method, and the ``__hash__`` decision table.

Each factory takes what it needs, does all per-class work once, and returns the
function; ``attach`` names it after the class. C-level helpers
(``operator.attrgetter``, ``map``) do the per-field work where they keep the
stdlib's semantics exactly.
"""

from operator import attrgetter, eq
from threading import get_ident

from dataclasses import MISSING, FrozenInstanceError

from ._fields import CLASSVAR, FIELD, INITVAR


def attach(cls, name, function):
    """Put a generated function on the class, looking hand-written there."""
    function.__name__ = name
    function.__qualname__ = f'{cls.__qualname__}.{name}'
    function.__module__ = cls.__module__
    setattr(cls, name, function)


def tuple_getter(names):
    """``self -> (self.a, self.b, ...)`` as one C call, a tuple for any count."""
    if len(names) >= 2:
        return attrgetter(*names)
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return lambda obj: ()


def make_repr(fields):
    """``__repr__``: ``C(x=1, y=2)`` with the class's qualname, ``...`` on recursion.

    The stdlib's ``recursive_repr`` guard, keyed by instance and thread, so a
    cycle prints ``...`` and other threads are unaffected.
    """
    names = tuple(f.name for f in fields if f.repr)
    template = '(' + ', '.join(f'{name}=%r' for name in names) + ')'
    values = tuple_getter(names)
    running = set()

    def __repr__(self):
        key = id(self), get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return self.__class__.__qualname__ + template % values(self)
        finally:
            running.discard(key)
    return __repr__


def make_eq(fields):
    """``__eq__`` as 3.13 builds it: same class only, then field by field.

    ``self.a == other.a and self.b == other.b``: no identity shortcut per field
    (unlike tuple comparison), stops at the first false result and returns it.
    """
    names = tuple(f.name for f in fields if f.compare)
    values = tuple_getter(names)

    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        try:
            pairs = map(eq, values(self), values(other))
        except AttributeError:  # an unset field: read lazily, as the stdlib does
            pairs = (getattr(self, name) == getattr(other, name) for name in names)
        result = True
        for result in pairs:
            if not result:
                return result
        return result
    return __eq__


def make_order(fields, op):
    """``__lt__``/``__le__``/``__gt__``/``__ge__``: same class only, compare tuples."""
    values = tuple_getter(tuple(f.name for f in fields if f.compare))

    def compare(self, other):
        if other.__class__ is self.__class__:
            return op(values(self), values(other))
        return NotImplemented
    return compare


def make_hash(fields):
    """``__hash__``: the hash of the tuple of fields with ``hash`` (else ``compare``)."""
    values = tuple_getter(tuple(f.name for f in fields
                                if (f.compare if f.hash is None else f.hash)))

    def __hash__(self):
        return hash(values(self))
    return __hash__


# What to do about __hash__, keyed by (unsafe_hash, eq, frozen, has explicit
# __hash__), as in the stdlib:
#   "add"   -- generate one,   "none" -- set __hash__ = None (unhashable),
#   "raise" -- TypeError,      None   -- leave whatever is inherited.
#
#  +------------------- unsafe_hash=
#  |      +------------ eq=
#  |      |      +----- frozen=
#  |      |      |      +- explicit __hash__ in the class body?
#  v      v      v      v
HASH_ACTIONS = {
    (False, False, False, False): None,
    (False, False, False, True): None,
    (False, False, True, False): None,
    (False, False, True, True): None,
    (False, True, False, False): 'none',
    (False, True, False, True): None,
    (False, True, True, False): 'add',
    (False, True, True, True): None,
    (True, False, False, False): 'add',
    (True, False, False, True): 'raise',
    (True, False, True, False): 'add',
    (True, False, True, True): 'raise',
    (True, True, False, False): 'add',
    (True, True, False, True): 'raise',
    (True, True, True, False): 'add',
    (True, True, True, True): 'raise',
}


def make_frozen_setattr(cls, fields):
    """``__setattr__`` of a frozen class: fields (and anything on the class
    itself) cannot be assigned; a subclass's own new attributes can."""
    names = frozenset(f.name for f in fields)

    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f'cannot assign to field {name!r}')
        super(cls, self).__setattr__(name, value)
    return __setattr__


def make_frozen_delattr(cls, fields):
    """``__delattr__`` of a frozen class, the twin of ``make_frozen_setattr``."""
    names = frozenset(f.name for f in fields)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f'cannot delete field {name!r}')
        super(cls, self).__delattr__(name)
    return __delattr__


def make_replace(fields):
    """``__replace__`` (3.13, ``copy.replace``): a new instance through ``__init__``.

    ``init=False`` fields may not be changed; InitVars without a default must be
    given; everything else not given is read from ``self``.
    """
    fields = [f for f in fields if f._field_type is not CLASSVAR]
    forbidden = frozenset(f.name for f in fields if not f.init)
    required = frozenset(f.name for f in fields if f.init and f._field_type is INITVAR
                         and f.default is MISSING)
    carried = tuple(f.name for f in fields if f.init and f.name not in required)
    carried_values = tuple_getter(carried)

    def __replace__(self, /, **changes):
        if not forbidden.isdisjoint(changes) or not required.issubset(changes):
            _replace_arguments(self, fields, changes)  # raises the stdlib's error
        try:
            merged = dict(zip(carried, carried_values(self)))
        except AttributeError:  # an unset field: only an error if not in changes
            return self.__class__(**_replace_arguments(self, fields, changes))
        merged.update(changes)
        return self.__class__(**merged)
    return __replace__


def _replace_arguments(self, fields, changes):
    """The stdlib's loop, field by field, for the error paths: the first problem
    in definition order raises, an unset field only if it is not in ``changes``."""
    arguments = dict(changes)
    for f in fields:
        if not f.init:
            if f.name in changes:
                msg = (f'field {f.name} is declared with init=False, it cannot be '
                       f'specified with replace()')
                raise TypeError(msg)
        elif f.name not in changes:
            if f._field_type is INITVAR and f.default is MISSING:
                raise TypeError(f'InitVar {f.name!r} must be specified with replace()')
            arguments[f.name] = getattr(self, f.name)
    return arguments


def make_getstate(cls, names):
    """``__getstate__`` of a frozen slotted class: the field values, in order.

    A subclass inherits it and may add fields of its own: for its instances the
    fields are read from the subclass, as the stdlib's ``fields(self)`` does.
    """
    values = tuple_getter(names)

    def __getstate__(self):
        if self.__class__ is cls:
            return list(values(self))
        return [getattr(self, name) for name in _field_names(self)]
    return __getstate__


def make_setstate(cls, names):
    """``__setstate__`` of a frozen slotted class: bypasses the frozen guard."""
    store = object.__setattr__

    def __setstate__(self, state):
        for name, value in zip(names if self.__class__ is cls else _field_names(self),
                               state):
            store(self, name, value)
    return __setstate__


def _field_names(obj):
    return [f.name for f in obj.__dataclass_fields__.values() if f._field_type is FIELD]


class LazyDoc:
    """``__doc__`` = ``"C(x: int, y: int = 0)"``, computed when first read.

    Rendering a signature is a fifth of what ``@dataclass`` spends per class;
    most docstrings are never read. ``type.__doc__`` calls ``__get__`` for us.
    """

    __slots__ = ('text',)

    def __init__(self):
        self.text = None

    def __get__(self, instance, owner=None):
        if self.text is None:
            import inspect
            try:
                signature = str(inspect.signature(owner)).replace(' -> None', '')
            except (TypeError, ValueError):
                signature = ''
            self.text = owner.__name__ + signature
        return self.text
