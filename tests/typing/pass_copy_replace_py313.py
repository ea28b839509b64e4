"""copy.replace (Python 3.13) uses the synthesized __replace__."""
import copy

from typing_extensions import assert_type

from dataclass_meta import DataClass


class Point(DataClass, frozen=True):
    x: int
    y: int = 0


assert_type(copy.replace(Point(1), y=2), Point)
