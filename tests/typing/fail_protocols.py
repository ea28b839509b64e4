"""What the checkers refuse of a data class implementing a protocol: a class
that lacks a member, and a field of the wrong type (as for ``@dataclass``)."""
from typing import Protocol

from dataclass_meta import DataClass


class Shape(Protocol):
    def area(self) -> float: ...


class HasName(Protocol):
    name: str


class Circle(DataClass):
    radius: float


class Pet(DataClass):
    name: int


class Square(DataClass, Shape):
    side: float

    def area(self) -> float:
        return self.side ** 2


shape: Shape = Circle(1.0)  # E: Circle has no area()
named: HasName = Pet(1)  # E: name is an int
Square('2')  # E: side is a float
