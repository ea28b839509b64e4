"""Generic and match errors."""
from typing import Generic, TypeVar

from dataclass_meta import DataClass, field

T = TypeVar('T')


class Box(DataClass, Generic[T]):
    item: T
    history: list[T] = field(default_factory=list)


class Pair(DataClass, match_args=False):
    left: int


b: Box[int] = Box('a')  # E: a Box[str] is not a Box[int]
Box[int](1, ['a'])  # E: history holds ints
