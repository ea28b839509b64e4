"""What the checkers reject in ``pass_first_hour.py``'s program; the same lines,
marked the same way, in ``fail_first_hour_stdlib.py`` (a test compares them)."""
import sys
from dataclasses import InitVar

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10
    from typing_extensions import dataclass_transform

from dataclass_meta import KW_ONLY, DataClass, field


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Model(DataClass, frozen=True):
    """No fields: the options."""
    __slots__ = ()


class Sku(Model, slots=True):
    code: str
    scale: InitVar[int] = 1
    _: KW_ONLY
    price: float = 0.0

    def __post_init__(self, scale: int) -> None:
        object.__setattr__(self, 'price', self.price * scale)


s = Sku('A1', 2, price=1.5)
print(Sku.__slots__)
s.price = 2.0  # E: frozen
print(s.scale)  # E[mypy,pyright,pyrefly]: not a field; ty allows it (the default is a class attribute)
Sku('A1', 2, 1.5)  # E: price is keyword-only
Sku(price=1.5)  # E: code is required
Sku('A1', 'two')  # E: scale is an int
