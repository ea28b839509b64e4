"""``pass_first_hour.py`` written with the stdlib's ``@dataclass``: what every
checker says of it is what it must say of ours."""
from dataclasses import KW_ONLY, InitVar, dataclass, field


@dataclass(frozen=True, slots=True)
class Sku:
    code: str
    scale: InitVar[int] = 1
    _: KW_ONLY
    price: float = 0.0
    tags: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self, scale: int) -> None:
        object.__setattr__(self, 'price', self.price * scale)


@dataclass(frozen=True, slots=True)
class Bundle(Sku):
    count: int = 1


@dataclass(slots=True)
class Point:
    x: int
    y: int = 0


assert Point.__slots__ == ('x', 'y')

s = Sku('A1', 2, price=1.5)
assert s.price == 3.0
assert sorted(Sku.__slots__) == ['code', 'price', 'tags']
assert not hasattr(s, '__dict__')
b = Bundle('B2', price=2.0, count=3)
assert b.count == 3 and {b: 'hashable'}
