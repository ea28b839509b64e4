"""The program a first hour with docs/migrating.md writes: options set once on a
transform root, ``InitVar``, ``slots=True``, ``KW_ONLY`` and ``__post_init__``.
``pass_first_hour_stdlib.py`` is the same program with ``@dataclass``; every
checker accepts both (and ``fail_first_hour*.py`` get the same verdicts)."""
import sys
from dataclasses import InitVar  # the same object as dataclass_meta.InitVar

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10
    from typing_extensions import dataclass_transform

from dataclass_meta import KW_ONLY, DataClass, field


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Model(DataClass, frozen=True):
    """No fields: the options, for the runtime and for type checkers."""
    __slots__ = ()


class Sku(Model, slots=True):
    code: str
    scale: InitVar[int] = 1
    _: KW_ONLY
    price: float = 0.0
    tags: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self, scale: int) -> None:
        object.__setattr__(self, 'price', self.price * scale)


class Bundle(Sku, slots=True):
    count: int = 1


class Point(DataClass, slots=True):
    x: int
    y: int = 0


assert Point.__slots__ == ('x', 'y')  # mypy: "type[Point]" has no attribute ... before

s = Sku('A1', 2, price=1.5)
assert s.price == 3.0
assert sorted(Sku.__slots__) == ['code', 'price', 'tags']
assert not hasattr(s, '__dict__')
b = Bundle('B2', price=2.0, count=3)
assert b.count == 3 and {b: 'hashable'}
