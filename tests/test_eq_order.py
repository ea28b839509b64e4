"""``__eq__`` (3.13: field by field) and the ordering methods."""

import functools
import math

import pytest

from dataclass_meta import DataClass, field

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


def test_eq_same_class_only(slots):
    """Equal fields compare equal; another class (even a subclass) does not."""
    class C(DataClass, slots=slots):
        x: int
        y: int = 0

    class D(C):
        pass

    assert C(1) == C(1, 0) and C(1) != C(2)
    assert C(1) != D(1)
    assert C(1).__eq__(D(1)) is NotImplemented
    assert C(1).__eq__((1, 0)) is NotImplemented


def test_eq_is_field_by_field_like_313():
    """No per-field identity shortcut: a NaN field makes instances unequal."""
    class C(DataClass):
        x: float

    nan = math.nan
    c = C(nan)
    assert c == c  # the instance itself is equal to itself
    assert C(nan) != C(nan)


def test_eq_returns_first_false_result_and_short_circuits():
    """``a == b and c == d``: stops at the first false result and returns it."""
    calls = []

    class V:
        def __init__(self, result):
            self.result = result

        def __eq__(self, other):
            calls.append(self.result)
            return self.result

    class C(DataClass):
        a: object
        b: object

    assert C(V(0), V('x')) .__eq__(C(V(0), V('x'))) == 0
    assert calls == [0]
    assert C(V('y'), V('z')).__eq__(C(V(1), V(2))) == 'z'


def test_compare_false_fields_are_ignored():
    """``compare=False`` fields take no part in equality or ordering."""
    class C(DataClass, order=True):
        x: int
        note: str = field(default='', compare=False)

    assert C(1, 'a') == C(1, 'b')
    assert not C(1, 'a') < C(1, 'b')


def test_order_compares_tuples_of_fields(slots):
    """``<`` etc. compare the field tuples, same class only."""
    class P(DataClass, order=True, slots=slots):
        x: int
        y: int

    assert P(1, 2) < P(1, 3) <= P(1, 3) < P(2, 0)
    assert P(2, 0) > P(1, 9) >= P(1, 9)
    assert sorted([P(2, 1), P(1, 5), P(1, 2)]) == [P(1, 2), P(1, 5), P(2, 1)]
    with pytest.raises(TypeError):
        P(1, 2) < (1, 2)


def test_single_field_order():
    """One compared field still compares as a 1-tuple."""
    class P(DataClass, order=True):
        x: tuple

    assert P((1,)) < P((2,))


def test_explicit_order_method_is_an_error():
    """``order=True`` with a hand-written ``__lt__`` is the stdlib's TypeError."""
    expected = 'Cannot overwrite attribute __lt__ in class C Consider using functools.total_ordering'
    with pytest.raises(TypeError) as info:
        class C(DataClass, order=True):
            x: int

            def __lt__(self, other):
                return True
    assert str(info.value) == expected


def test_total_ordering_with_eq_only():
    """The remedy the error names works."""
    @functools.total_ordering
    class C(DataClass):
        x: int

        def __lt__(self, other):
            return self.x < other.x

    assert C(1) <= C(2)


def test_eq_false_keeps_identity():
    """``eq=False`` leaves object identity comparison and hashing."""
    class C(DataClass, eq=False):
        x: int

    c = C(1)
    assert c != C(1) and c == c
    assert hash(c) == object.__hash__(c)


def test_eq_stops_before_an_unset_field():
    """``a == b`` returns at the first unequal field and never reads later ones,
    as 3.13's ``self.x == other.x and self.y == other.y`` does."""
    class C(DataClass):
        x: int
        y: int = field(init=False)

    assert (C(1) == C(2)) is False
    assert (C(1) != C(2)) is True
