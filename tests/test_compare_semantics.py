"""``==``, ``<`` and ``hash`` give exactly ``@dataclass``'s (3.13) results, on the
relabelled templates and beyond them (the closures), including odd ``__eq__`` results and unset fields.

Before 3.13 the stdlib compared tuples; the contract is 3.13's field-by-field
``__eq__`` everywhere, so ``==`` is checked against that rule written out here
(and against the stdlib itself on 3.13)."""

import math
import sys

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import DataClass, field

from .outcomes import both_ways, outcome

STDLIB_IS_313 = sys.version_info >= (3, 13)


def eq_313(left, right):
    """3.13's ``self.a == other.a and self.b == other.b ...`` over value lists."""
    result = True
    for a, b in zip(left, right):
        result = a == b
        if not result:
            return result
    return result


class Weird:
    """An ``__eq__`` that returns a non-bool, and counts its calls."""

    calls = 0

    def __init__(self, result):
        self.result = result

    def __eq__(self, other):
        Weird.calls += 1
        return self.result

    __hash__ = object.__hash__


def twins(n, **options):
    return both_ways('C', lambda: {'__annotations__': {f'f{i}': object for i in range(n)}},
                     **options)


def result(op, a, b):
    return outcome(lambda: op(a, b))


values = st.one_of(st.integers(-2, 2), st.just(math.nan), st.sampled_from(['', 'x']),
                   st.builds(Weird, st.sampled_from([0, 1, '', 'yes', None])))


@settings(max_examples=200, deadline=None)
@given(n=st.integers(0, 14), data=st.data())
def test_eq_matches_stdlib(n, data):
    """Same result object (not just truth) and same number of ``__eq__`` calls."""
    std, ours = twins(n)
    left = data.draw(st.lists(values, min_size=n, max_size=n))
    right = data.draw(st.lists(st.one_of(values, st.sampled_from(left or [0])),
                               min_size=n, max_size=n))
    Weird.calls = 0
    expected = result(lambda a, b: eq_313(a, b), left, right)
    expected_calls, Weird.calls = Weird.calls, 0
    assert result(lambda a, b: a == b, ours(*left), ours(*right)) == expected
    assert Weird.calls == expected_calls
    if STDLIB_IS_313:
        assert result(lambda a, b: a == b, std(*left), std(*right)) == expected


@pytest.mark.parametrize('n', [1, 5, 12])
def test_same_nan_object_is_not_equal(n):
    """3.13 compares field by field: a NaN field makes equal-looking objects unequal."""
    std, ours = twins(n)
    args = [math.nan] * n
    assert (ours(*args) == ours(*args)) is False
    if STDLIB_IS_313:
        assert (std(*args) == std(*args)) is False
    obj = ours(*args)
    assert obj == obj  # the identity shortcut on the whole object stays


@pytest.mark.parametrize('n_before', [0, 3, 11])
def test_unset_field_raises_only_when_reached(n_before):
    """An ``init=False`` field never set: read only if earlier fields are equal."""
    std, ours = both_ways('C', lambda: {
        '__annotations__': {**{f'f{i}': int for i in range(n_before)}, 'late': int},
        'late': field(init=False)})
    for cls in (std, ours) if STDLIB_IS_313 else (ours,):
        args = list(range(n_before))
        if n_before:
            assert (cls(*args) == cls(*[a + 1 for a in args])) is False
        with pytest.raises(AttributeError):
            cls(*args) == cls(*args)


def test_eq_other_class_and_compare_false():
    """Other classes get ``NotImplemented``; ``compare=False`` fields are skipped."""
    class C(DataClass):
        x: int
        note: str = field(default='', compare=False)

    class D(C):
        pass

    assert C(1, 'a') == C(1, 'b')
    assert C(1).__eq__(D(1)) is NotImplemented
    assert C(1) != D(1)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(0, 14), data=st.data())
def test_order_and_hash_match_stdlib(n, data):
    """``<``, ``<=`` and ``hash`` are the stdlib's tuple semantics."""
    std, ours = twins(n, order=True, frozen=True)
    nums = st.one_of(st.integers(-2, 2), st.just(math.nan))
    left = data.draw(st.lists(nums, min_size=n, max_size=n))
    right = data.draw(st.lists(nums, min_size=n, max_size=n))
    for op in (lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a > b,
               lambda a, b: a >= b):
        assert result(op, ours(*left), ours(*right)) == result(op, std(*left), std(*right))
    assert hash(ours(*left)) == hash(std(*left))
