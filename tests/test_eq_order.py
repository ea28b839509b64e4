"""``__eq__`` and ordering: 3.13's field-by-field equality, same class only."""

from dataclass_meta import DataClass, field


def test_eq_stops_before_an_unset_field():
    """``a == b`` returns at the first unequal field and never reads later ones,
    as 3.13's ``self.x == other.x and self.y == other.y`` does."""
    class C(DataClass):
        x: int
        y: int = field(init=False)

    assert (C(1) == C(2)) is False
    assert (C(1) != C(2)) is True
