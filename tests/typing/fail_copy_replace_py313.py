"""copy.replace (Python 3.13) errors."""
import copy

from dataclass_meta import DataClass


class Point(DataClass, frozen=True):
    x: int


copy.replace(Point(1), x=2)
copy.replace(Point(1), x='2')  # E[mypy,ty,pyrefly]: x is an int (pyright does not check)
