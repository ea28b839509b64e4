"""Data classes that the interop tests hand to each consumer.

Nested data classes, a list of them, optionals and a frozen slotted class; and
classes with our per-field aliases, converters and validators (``HOOKED``).
``interop_models_future.py`` declares the same under
``from __future__ import annotations``; ``MODULES`` holds both.
"""

from typing import Optional

from dataclass_meta import DataClass, field


class Tag(DataClass, frozen=True, slots=True):
    name: str
    weight: int = 1


class Address(DataClass):
    street: str
    city: str
    postcode: Optional[str] = None


class Person(DataClass):
    name: str
    age: int
    address: Address
    tags: list[Tag] = field(default_factory=list)
    nickname: Optional[str] = None


def non_negative(instance, f, value):
    if value < 0:
        raise ValueError(f'{f.name} must be >= 0, got {value!r}')


class Account(DataClass):
    """Aliases: a required positional one, one with a default, a keyword-only one."""
    user_id: int = field(alias='userId')
    display: str = field(default='', alias='displayName')
    limit: int = field(default=10, kw_only=True, alias='maxItems')


class Stock(DataClass, frozen=True, slots=True):
    """Converters and a validator, no alias."""
    count: int = field(converter=int, validator=non_negative)
    labels: tuple[str, ...] = field(default=(), converter=tuple)
    price: float = field(default=0.0, converter=float)


class Order(DataClass):
    """All three, and a nested hooked class."""
    order_id: int = field(alias='orderId', converter=int)
    stock: Stock
    note: Optional[str] = field(default=None, alias='comment', validator=lambda i, f, v: None)


#: The classes with aliases, converters or validators, and an instance of each.
HOOKED = [Account(7, 'Ann', maxItems=3), Stock(2, ('a', 'b'), 1.5),
          Order(1, Stock(0), comment='rush')]


def sample(module):
    """A fully populated ``Person`` from ``module``'s classes."""
    return module.Person('Ann', 42, module.Address('1 Main St', 'Springfield', 'SP1'),
                         [module.Tag('admin', 3), module.Tag('staff')], 'annie')


#: ``sample(models)`` as plain data: what serializers produce from it.
EXPECTED = {
    'name': 'Ann', 'age': 42,
    'address': {'street': '1 Main St', 'city': 'Springfield', 'postcode': 'SP1'},
    'tags': [{'name': 'admin', 'weight': 3}, {'name': 'staff', 'weight': 1}],
    'nickname': 'annie'}
