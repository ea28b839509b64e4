"""``fail_first_hour.py`` with the stdlib's ``@dataclass``: the same marks."""
from dataclasses import KW_ONLY, InitVar, dataclass


@dataclass(frozen=True, slots=True)
class Sku:
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
