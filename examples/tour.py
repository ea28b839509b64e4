"""A tour of dataclass_meta: run it top to bottom, it prints what each feature does."""

import copy
import functools
import gc
import pickle
from dataclasses import InitVar  # the same object as dataclass_meta.InitVar; pyright wants this
from typing import ClassVar

from dataclass_meta import (
    KW_ONLY, DataClass, FrozenInstanceError, asdict, describe_backend, field, fields, replace)


def show(title, *values):
    print(f'{title:<38}', *values)


# 0. Which implementation runs: the compiled core, or the pure closures and why.
show('backend:', describe_backend())


# 1. The PEP's InventoryItem: annotated fields become __init__, __repr__, __eq__.
class InventoryItem(DataClass):
    """An item in stock."""
    name: str
    unit_price: float
    quantity_on_hand: int = 0

    def total_cost(self) -> float:
        return self.unit_price * self.quantity_on_hand


item = InventoryItem('widget', 3.0, 10)
show('InventoryItem:', item)
show('total_cost():', item.total_cost())
show('== compares fields:', item == InventoryItem('widget', 3.0, 10))
show('asdict():', asdict(item))


# 2. Options are class keywords: a frozen, ordered Point.
class Point(DataClass, frozen=True, order=True):
    x: int
    y: int


show('sorted Points:', sorted([Point(2, 1), Point(1, 5), Point(1, 2)]))
show('hashable (frozen + eq):', hash(Point(1, 2)) == hash(Point(1, 2)))
try:
    Point(1, 2).x = 5
except FrozenInstanceError as e:
    show('assigning to a frozen field:', f'FrozenInstanceError: {e}')
show('replace(p, y=9):', replace(Point(1, 2), y=9))


# 3. A framework base: options set once, inherited by every subclass.
class Model(DataClass, frozen=True, kw_only=True):
    """Every model is frozen and keyword-only."""
    id: int = 0

    def __init_subclass__(cls, *, table=None, **kw):
        super().__init_subclass__(**kw)   # fields are finished after this
        cls.table = table or cls.__name__.lower()
        cls.columns = [f.name for f in fields(cls)]


class User(Model, table='users'):
    name: str
    email: str = ''


u = User(name='ada', id=1)
show('User (inherits frozen, kw_only):', u)
show('framework keyword table=:', User.table, User.columns)
try:
    User('ada')
except TypeError as e:
    show('positional call:', e)
show('User.__match_args__ (kw_only):', User.__match_args__)


class Pixel(Model):
    __match_args__ = ('x', 'y')   # kept: positional patterns for keyword-only fields
    x: int
    y: int


match Pixel(x=3, y=4):
    case Pixel(x, y):
        show('case Pixel(x, y), own __match_args__:', (x, y))


# 4. slots=True: built once, so zero-argument super() works.
class Base(DataClass, slots=True):
    x: int

    def describe(self):
        return f'x={self.x}'


class Slotted(Base):
    y: int = 0

    def describe(self):
        return super().describe() + f', y={self.y}'


s = Slotted(1, 2)
show('slotted, with super():', s.describe(), '__slots__ =', Slotted.__slots__)
show('no __dict__:', not hasattr(s, '__dict__'))
show('pickle round trip:', pickle.loads(pickle.dumps(s)) == s)
# The compiled core pickles many instances compactly (the field names once per
# pickle); the pure backend as @dataclass does. Both load either.
many = [Slotted(i, i) for i in range(1000)]
show('1,000 pickled, bytes each:', len(pickle.dumps(many)) // 1000,
     pickle.loads(pickle.dumps(many)) == many)


# 5. KW_ONLY, InitVar, ClassVar, default_factory and __post_init__.
class Order(DataClass):
    item: InventoryItem
    discount: InitVar[float] = 0.0
    _: KW_ONLY
    lines: list = field(default_factory=list)
    note: str = ''
    registry: ClassVar[list] = []

    def __post_init__(self, discount):
        self.price = self.item.unit_price * (1 - discount)


o = Order(item, 0.5, note='rush')
show('Order (InitVar not a field):', o)
show('price from __post_init__:', o.price)
show('fields():', [f.name for f in fields(Order)])
show('__doc__ from the signature:', Order.__doc__)


# 6. Beyond the stdlib, per class: cached_property on a slotted class, a hash
#    computed once (cache_hash), instances the cyclic gc never scans (gc=False).
class Circle(DataClass, slots=True, frozen=True, cache_hash=True, gc=False):
    radius: float

    @functools.cached_property
    def area(self):
        return 3.14159 * self.radius ** 2


c = Circle(2.0)
show('cached_property on slots:', c.area, '(computed once; no __dict__:',
     not hasattr(c, '__dict__'), ')')
show('cache_hash: same hash, kept:', hash(c) == hash(Circle(2.0)),
     'copies start afresh:', not hasattr(copy.copy(c), '__dataclass_hash__'))
show('gc=False: instances untracked?', not Circle.__dataclass_params__.gc,
     '(compiled core only; gc.is_tracked:', getattr(gc, 'is_tracked', lambda o: None)(c), ')')


# 7. Beyond the stdlib, per field: a converter and a validator run in __init__
#    and on assignment; an alias names the __init__ parameter.
def positive(instance, field, value):
    if value <= 0:
        raise ValueError(f'{field.name} must be positive, got {value}')


class Server(DataClass):
    port: int = field(converter=int, validator=positive)
    _token: str = field(default='', alias='token', repr=False)


srv = Server('8080', token='s3cret')
show('converted, aliased:', srv, '_token =', repr(srv._token))
try:
    srv.port = '0'
except ValueError as e:
    show('assignment validated:', f'ValueError: {e}; port still', srv.port)
show('replace() takes the alias:', replace(srv, token='new')._token)


# 8. No metaclass conflict where @dataclass has none: a data class names the
#    typing.Protocol it implements; an enum's members are data-class instances
#    (the enum HOWTO's pattern) with the metaclass combined_metaclass makes.
import enum  # noqa: E402 (each section imports what it shows)
from typing import Protocol, runtime_checkable  # noqa: E402

from dataclass_meta import combined_metaclass  # noqa: E402


@runtime_checkable
class Shape(Protocol):
    def area(self) -> float: ...


class Square(DataClass, Shape, frozen=True):
    side: float

    def area(self) -> float:
        return self.side ** 2


class PlanetData(DataClass, frozen=True):
    mass: float
    radius: float


class Planet(PlanetData, enum.Enum, metaclass=combined_metaclass(enum.EnumMeta)):
    MERCURY = 3.303e+23, 2.4397e6
    EARTH = 5.976e+24, 6.37814e6


show('implements a Protocol:', Square(3.0), isinstance(Square(3.0), Shape))
show('enum of data-class members:', repr(Planet.EARTH), Planet.EARTH.radius)
show('members pickle:', pickle.loads(pickle.dumps(Planet.EARTH)) is Planet.EARTH)
