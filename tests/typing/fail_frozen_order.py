"""Assigning to a frozen instance and ordering an unordered class are errors."""
from dataclass_meta import DataClass


class Frozen(DataClass, frozen=True):
    x: int


class Plain(DataClass):
    x: int


class Ordered(DataClass, order=True):
    x: int


f = Frozen(1)
print(f.x)
f.x = 2  # E: frozen instance
Plain(1).x = 2
Plain(1) == Plain(2)
print(Ordered(1) < Ordered(2))
print(Plain(1) < Plain(2))  # E: order=False: no __lt__
print(Plain(1) >= Plain(2))  # E: order=False: no __ge__


class AlsoFrozen(Frozen, frozen=True):
    y: int = 0


AlsoFrozen(1, 2).y = 3  # E: frozen instance
