"""``__eq__`` (3.13: field by field) and the ordering methods."""

import functools
import math

import pytest

from dataclass_meta import DataClass, field, make_dataclass

from .access_log import PY313, logged_class, reads_match_the_stdlib

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


@pytest.mark.parametrize('n', [0, 1, 2])
def test_zero_one_and_two_field_classes(n):
    """repr, eq, order and hash work for zero, one and two fields."""
    C = make_dataclass('C', [f'f{i}' for i in range(n)], frozen=True, order=True)
    a, b = C(*range(n)), C(*range(1, n + 1))
    assert repr(a) == 'C(' + ', '.join(f'f{i}={i}' for i in range(n)) + ')'
    assert a == C(*range(n)) and (a != b) is bool(n) and (a < b) is bool(n)
    assert hash(a) == hash(tuple(range(n)))


def test_eq_field_by_field():
    """``==`` compares fields in order with ``==`` and returns the first false result."""
    nan = float('nan')

    class C(DataClass):
        a: object
        b: object

    assert C(1, 2) != C(1, 3) and C(1, 2) != C(0, 2) and C(1, 2) == C(1, 2)
    assert C(nan, 1) != C(nan, 1)  # 3.13: no identity shortcut per field
    c = C(nan, 1)
    assert c == c  # the instance itself
    assert C(1, 2).__eq__(object()) is NotImplemented

    class Vec:
        def __eq__(self, other):
            return 'falsy-but-not-bool' if False else ''

    assert C(Vec(), 1).__eq__(C(Vec(), 1)) == ''


# -- reads and side effects, in order -------------------------------------------------

def _mutating_pair(ours):
    """Two instances ``x, y`` of a three-field class: comparing ``x.a`` with
    ``y.a`` changes ``y.b`` so that it no longer equals ``x.b``."""
    log = []

    class Mutator:
        def __eq__(self, other):
            object.__setattr__(y, 'b', 'changed')
            return True
        __hash__ = None

    cls = logged_class([('a', True, True, None), ('b', True, True, None), ('c', True, True, None)],
                 {'order': True, 'frozen': False, 'slots': False, 'unsafe_hash': False},
                 log, ours, 'M')
    x, y = object.__new__(cls), object.__new__(cls)
    for obj in (x, y):
        object.__setattr__(obj, 'a', Mutator())
        object.__setattr__(obj, 'b', 'same')
        object.__setattr__(obj, 'c', 0)
    return x, y, log


@pytest.mark.skipif(not PY313, reason='3.13+ compares field by field (gh-104904)')
def test_eq_reads_each_pair_after_comparing_the_previous_one():
    """``self.a == other.a and self.b == other.b``: a side effect of comparing
    ``a`` on ``other.b`` is seen, so the instances are unequal, as in the stdlib."""
    got = []
    for ours in (False, True):
        x, y, log = _mutating_pair(ours)
        got.append((x == y, log))
    assert got[0] == (False, [('get', '__class__'), ('get', '__class__'), ('get', 'a'),
                              ('get', 'a'), ('get', 'b'), ('get', 'b')])
    assert got[1] == got[0]


def test_order_reads_all_of_self_then_all_of_other():
    """``(self.a, self.b, ...) < (other.a, other.b, ...)``: every field of both
    read before the first comparison, as the stdlib's tuples are."""
    got = []
    for ours in (False, True):
        x, y, log = _mutating_pair(ours)
        first = x < y  # y.b read before comparing a changes it: all equal
        got.append((first, list(log), x <= y))  # now y.b == 'changed' < 'same'
    assert got[0][:2] == (False, [('get', '__class__'), ('get', '__class__')]
                          + [('get', n) for n in 'abcabc'])
    assert got[0][2] is False
    assert got[1] == got[0]


test_eq_and_order_read_as_the_stdlib = reads_match_the_stdlib('==', '!=', '<', '<=', '>', '>=')
