"""Generic data classes and match statements."""
from typing import Generic, TypeVar

from typing_extensions import assert_type

from dataclass_meta import DataClass, field

T = TypeVar('T')


class Box(DataClass, Generic[T]):
    item: T
    history: list[T] = field(default_factory=list)


class Pair(DataClass, frozen=True):
    left: int
    right: str = ''


assert_type(Box(1), Box[int])
assert_type(Box('a', ['b']).history, list[str])
b: Box[float] = Box(1.0)


def describe(value: Pair | Box[int]) -> str:
    match value:
        case Pair(left, right):
            assert_type(left, int)
            return right
        case Box(item=item):
            assert_type(item, int)
            return str(item)
    return ''

