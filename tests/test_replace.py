"""``replace()`` and ``__replace__``: the stdlib's results and errors, in its order."""

import pytest

import dataclass_meta
from dataclass_meta import DataClass, InitVar, field

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


class Unset(DataClass, init=False):
    """A field that ``__init__`` never sets, then an InitVar."""

    x: int
    y: InitVar[int]


# What Python 3.13's dataclasses.replace() raises for the same class.
@pytest.mark.parametrize('changes, error, message', [
    ({}, AttributeError, "'Unset' object has no attribute 'x'"),
    ({'x': 1}, TypeError, "InitVar 'y' must be specified with replace()"),
    ({'y': 2}, AttributeError, "'Unset' object has no attribute 'x'"),
    ({'x': 1, 'y': 2}, TypeError, 'Unset() takes no arguments'),
])
def test_unset_field_errors_in_stdlib_order(changes, error, message):
    """An unset field raises AttributeError before a later InitVar's TypeError,
    and only when it is not among the changes."""
    with pytest.raises(error) as info:
        dataclass_meta.replace(Unset(), **changes)
    assert str(info.value) == message


def test_init_false_field_reported_before_later_initvar():
    """The first offending field in definition order decides the error."""
    class C(DataClass):
        a: int = field(default=0, init=False)
        b: InitVar[int] = None

    with pytest.raises(TypeError, match='field a is declared with init=False'):
        dataclass_meta.replace(C(), a=1)
