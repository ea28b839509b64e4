"""``replace()`` and ``__replace__``: the stdlib's results and errors, in its order."""

import dataclasses

import pytest

import dataclass_meta
from dataclass_meta import DataClass, InitVar, field


def _outcome(fn):
    try:
        return 'ok', repr(fn())
    except Exception as exc:  # noqa: BLE001 - compared as an outcome
        return type(exc), str(exc)


def _unset_field_classes():
    """A field that __init__ never sets (init=False class), then an InitVar."""
    @dataclasses.dataclass(init=False)
    class Std:
        x: int
        y: InitVar[int]

    class Our(DataClass, init=False):
        x: int
        y: InitVar[int]

    Our.__qualname__ = Std.__qualname__ = 'C'
    return Std, Our


@pytest.mark.parametrize('changes', [{}, {'x': 1}, {'y': 2}, {'x': 1, 'y': 2}])
def test_unset_field_errors_in_stdlib_order(changes):
    """An unset field raises AttributeError before a later InitVar's TypeError,
    and only when it is not among the changes."""
    std, our = _unset_field_classes()
    assert (_outcome(lambda: dataclasses.replace(std(), **changes))[0]
            == _outcome(lambda: dataclass_meta.replace(our(), **changes))[0])
    std_message = _outcome(lambda: dataclasses.replace(std(), **changes))[1]
    our_message = _outcome(lambda: dataclass_meta.replace(our(), **changes))[1]
    assert std_message.replace('Std', 'C') == our_message.replace('Our', 'C')


def test_init_false_field_reported_before_later_initvar():
    """The first offending field in definition order decides the error."""
    class C(DataClass):
        a: int = field(default=0, init=False)
        b: InitVar[int] = None

    with pytest.raises(TypeError, match='field a is declared with init=False'):
        dataclass_meta.replace(C(), a=1)
