"""``__eq__`` and ordering: 3.13's field-by-field equality, same class only."""

import dataclasses

from dataclass_meta import DataClass, field


def test_eq_stops_before_an_unset_field():
    """``a == b`` returns at the first unequal field and never reads later ones,
    as the stdlib's ``self.x == other.x and self.y == other.y`` does."""
    class C(DataClass):
        x: int
        y: int = field(init=False)

    @dataclasses.dataclass
    class Std:
        x: int
        y: int = dataclasses.field(init=False)

    assert (C(1) == C(2)) is (Std(1) == Std(2)) is False
    assert (C(1) != C(2)) is (Std(1) != Std(2)) is True
