"""copy.replace (Python 3.13) uses the synthesized __replace__."""
import copy

from typing_extensions import assert_type

from dataclass_meta import DataClass


class Point(DataClass, frozen=True):
    x: int
    y: int = 0


assert_type(copy.replace(Point(1), y=2), Point)


# A field: copy.replace calls Field.__replace__.
from dataclass_meta import MISSING, Field  # noqa: E402

port: Field[int] = Field(0, MISSING, True, True, None, True, None, MISSING)
assert_type(copy.replace(port, default=1, alias='p'), Field[int])
assert copy.replace(port, default=1).default == 1
