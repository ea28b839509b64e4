"""``replace()`` and ``__replace__`` on the positional fast path and the keyword
path give ``@dataclass``'s results, errors and keyword order."""

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import DataClass, InitVar, field, replace


class P(DataClass):
    a: int
    b: int = 2
    c: list = field(default_factory=list)


@dataclasses.dataclass
class S:
    a: int
    b: int = 2
    c: list = dataclasses.field(default_factory=list)


def result(fn, *args, **kwargs):
    try:
        obj = fn(*args, **kwargs)
    except TypeError as exc:
        return 'TypeError', str(exc).replace('S.', 'P.')
    return dataclasses.astuple(obj)


@settings(max_examples=60, deadline=None)
@given(changes=st.dictionaries(st.sampled_from(['a', 'b', 'c', 'zz']), st.integers(), max_size=4))
def test_replace_matches_stdlib(changes):
    """Any mix of known and unknown names: same values or the same error text."""
    assert result(replace, P(1), **changes) == result(dataclasses.replace, S(1), **changes)


def test_unchanged_values_are_shared_not_copied():
    """A field not changed is passed along as the same object, no factory call."""
    p = P(1, c=[1])
    assert replace(p, a=5).c is p.c


def test_init_false_and_initvar_errors():
    """The stdlib's texts for an ``init=False`` field and a missing InitVar."""
    class C(DataClass):
        x: int
        y: int = field(default=0, init=False)
        z: InitVar[int] = None

    class D(DataClass):
        x: int
        scale: InitVar[int]

        def __post_init__(self, scale):
            self.x *= scale

    with pytest.raises(TypeError, match='^field y is declared with init=False, it cannot '
                                        r'be specified with replace\(\)$'):
        replace(C(1), y=2)
    with pytest.raises(TypeError, match=r"^InitVar 'scale' must be specified with replace\(\)$"):
        replace(D(1, 2))
    assert replace(D(1, 2), scale=3).x == 6
    assert replace(C(1), x=2).x == 2


def test_hand_written_init_gets_keywords_in_stdlib_order():
    """With its own ``__init__`` a class is called by keyword: changes first."""
    seen = []

    class C(DataClass, init=False):
        x: int
        y: int

        def __init__(self, **kwargs):
            seen.append(list(kwargs))
            self.x, self.y = kwargs['x'], kwargs['y']

    @dataclasses.dataclass(init=False)
    class S:
        x: int
        y: int

        def __init__(self, **kwargs):
            seen.append(list(kwargs))
            self.x, self.y = kwargs['x'], kwargs['y']

    replace(C(x=1, y=2), y=5)
    s = S(x=1, y=2)
    dataclasses.replace(s, y=5)
    assert seen[1] == seen[3] == ['y', 'x']


def test_subclass_instance_and_custom_new():
    """A subclass instance, or a class with ``__new__``, is rebuilt by keyword."""
    seen = []

    class C(DataClass):
        x: int
        y: int = 0

        def __new__(cls, *args, **kwargs):
            seen.append((args, kwargs))
            return super().__new__(cls)

    class D(C):
        z: int = 1

    replace(C(1), y=2)
    assert seen[-1] == ((), {'y': 2, 'x': 1})
    d = C.__replace__(D(1, 2, 3), y=5)
    assert type(d) is D and (d.x, d.y, d.z) == (1, 5, 3)


def test_replace_uses_generated_method_not_hand_written():
    """``replace()`` ignores a hand-written ``__replace__``, as the stdlib's does."""
    class C(DataClass):
        x: int

        def __replace__(self, **changes):
            return 'custom'

    assert replace(C(1), x=2) == C(2)
    assert C(1).__replace__(x=2) == 'custom'


def test_keyword_only_fields_and_initvar_defaults():
    """Keyword-only fields and InitVars with defaults take the keyword path."""
    class C(DataClass):
        x: int
        y: int = field(default=0, kw_only=True)
        scale: InitVar[int] = 1

        def __post_init__(self, scale):
            self.x *= scale

    @dataclasses.dataclass
    class S:
        x: int
        y: int = dataclasses.field(default=0, kw_only=True)
        scale: InitVar[int] = 1

        def __post_init__(self, scale):
            self.x *= scale

    for changes in ({}, {'y': 3}, {'scale': 4}, {'x': 2, 'scale': 2}):
        ours, theirs = replace(C(3, y=1), **changes), dataclasses.replace(S(3, y=1), **changes)
        assert (ours.x, ours.y) == (theirs.x, theirs.y)
