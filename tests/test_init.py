"""The generated ``__init__``: binding, defaults, ``__post_init__`` and InitVars."""

import dataclasses

import pytest

from dataclass_meta import DataClass, InitVar, field


def test_initvar_without_init_fails_like_the_stdlib():
    """An ``init=False`` InitVar cannot reach ``__post_init__``: NameError, as
    the stdlib's generated ``__init__`` raises, rather than shifted arguments."""
    class C(DataClass):
        a: InitVar[int] = field(default=0, init=False)
        b: InitVar[int] = 1

        def __post_init__(self, a, b):
            pass

    @dataclasses.dataclass
    class Std:
        a: InitVar[int] = dataclasses.field(default=0, init=False)
        b: InitVar[int] = 1

        def __post_init__(self, a, b):
            pass

    with pytest.raises(NameError) as std:
        Std()
    with pytest.raises(NameError) as ours:
        C()
    assert str(ours.value) == str(std.value) == "name 'a' is not defined"


def test_post_init_gets_initvars_in_definition_order():
    """A keyword-only InitVar declared first is passed first, as the stdlib
    passes InitVars in definition order rather than parameter order."""
    seen = []

    class C(DataClass):
        a: InitVar[int] = field(kw_only=True)
        b: InitVar[int]

        def __post_init__(self, a, b):
            seen.append((a, b))

    @dataclasses.dataclass
    class Std:
        a: InitVar[int] = dataclasses.field(kw_only=True)
        b: InitVar[int]

        def __post_init__(self, a, b):
            seen.append((a, b))

    C(2, a=1)
    Std(2, a=1)
    assert seen == [(1, 2), (1, 2)]
