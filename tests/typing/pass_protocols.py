"""Data classes that implement a ``typing.Protocol`` in a plain class statement:
the checkers accept them as the stdlib's, with their fields."""
from typing import Generic, Protocol, TypeVar, runtime_checkable

from typing_extensions import assert_type

from dataclass_meta import DataClass

T = TypeVar('T')
T_co = TypeVar('T_co', covariant=True)


@runtime_checkable
class Shape(Protocol):
    def area(self) -> float: ...


class Square(DataClass, Shape, frozen=True):
    side: float

    def area(self) -> float:
        return self.side ** 2


class HasName(Protocol):
    name: str


class User(DataClass, HasName):
    name: str
    age: int = 0


class SupportsGet(Protocol[T_co]):
    def get(self) -> T_co: ...


class Box(DataClass, SupportsGet[T], Generic[T]):
    item: T

    def get(self) -> T:
        return self.item


def total_area(shapes: list[Shape]) -> float:
    return sum(s.area() for s in shapes)


def greet(who: HasName) -> str:
    return who.name


assert total_area([Square(2.0), Square(side=1.0)]) == 5.0
assert greet(User('ada', 36)) == 'ada'
got: int = Box(3).get()
assert_type(Square(2.0).side, float)
assert isinstance(Square(1.0), Shape)

