"""Data classes that the interop tests hand to each consumer.

Nested data classes, a list of them, optionals and a frozen slotted class.
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
