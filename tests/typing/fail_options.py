"""Class keywords the checkers do and do not check (the runtime rejects all three).

pyrefly 1.5.0 does not flag a frozen class under a non-frozen field-less data class."""
from typing import Any

from dataclass_meta import DataClass


class Typo(DataClass, frozn=True):  # not flagged by any checker: TypeError at runtime
    x: int


class NotABool(DataClass, frozen=1):  # E[mypy]: option values must be True or False
    x: int


class Framework(DataClass):
    def __init_subclass__(cls, *, table: str = '', **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)


class Row(Framework, table='rows', frozen=True):  # E[mypy,pyright,ty]: frozen under a non-frozen data class
    x: int
