"""Class keywords and field() parameters as type checkers understand them."""
import dataclasses
from typing import ClassVar

from typing_extensions import assert_type

from dataclass_meta import KW_ONLY, MISSING, DataClass, Field, field


class Point(DataClass, frozen=True, order=True):
    x: int
    y: int = 0


class Options(DataClass, init=True, repr=False, eq=True, unsafe_hash=True,
              match_args=False, kw_only=True, slots=True, weakref_slot=True):
    name: str
    level: int = 1


class Inventory(DataClass):
    count: ClassVar[int] = 0
    name: str
    tags: list[str] = field(default_factory=list)
    sizes: dict[str, int] = dataclasses.field(default_factory=dict)
    price: float = field(default=0.0, repr=False, compare=False, doc='in euros')
    hidden: int = field(default=0, init=False)
    _: KW_ONLY
    owner: str = 'nobody'
    note: str | None = field(default=None, kw_only=True, metadata={'unit': None})


p = Point(1, 2)
assert_type(p.x, int)
assert p < Point(3) and p <= p and Point(4) > p and p >= p
assert hash(p) == hash(Point(1, 2))
assert_type(Options(name='a', level=2).level, int)
i = Inventory('bolts', ['a'], {'m4': 3}, 1.5, owner='me', note='x')
assert_type(i.tags, list[str])
assert_type(i.sizes, dict[str, int])
assert_type(i.note, str | None)
i.tags.append('b')
i.name = 'nuts'
Inventory('bolts')
Inventory(name='bolts', price=2.0, owner='me')
assert_type(Inventory.count, int)
spec: Field[int] = Field(0, dataclasses.MISSING, True, True, None, True, None, False)
assert spec.default is not MISSING and spec.default + 1 == 1
