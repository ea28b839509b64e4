"""Frozen instances: assignment and deletion raise ``FrozenInstanceError``."""

import copy
import pickle

import pytest

from dataclass_meta import DataClass, FrozenInstanceError, replace

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


class Point(DataClass, frozen=True):
    x: int
    y: int = 0


class SlottedPoint(DataClass, frozen=True, slots=True):
    x: int
    y: int = 0


@pytest.mark.parametrize('cls', [Point, SlottedPoint])
def test_assignment_and_deletion_raise(cls):
    """Setting or deleting a field, or any other name, raises with that name."""
    p = cls(1)
    with pytest.raises(FrozenInstanceError, match="^cannot assign to field 'x'$"):
        p.x = 2
    with pytest.raises(FrozenInstanceError, match="^cannot delete field 'y'$"):
        del p.y
    with pytest.raises(FrozenInstanceError, match="^cannot assign to field 'other'$"):
        p.other = 1
    with pytest.raises(FrozenInstanceError, match="^cannot delete field 'other'$"):
        del p.other
    assert isinstance(FrozenInstanceError(), AttributeError)


@pytest.mark.parametrize('cls', [Point, SlottedPoint])
def test_frozen_round_trips(cls):
    """Frozen instances pickle (every protocol), copy, deep-copy and replace."""
    p = cls(1, 2)
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(p, protocol)) == p
    assert copy.copy(p) == p and copy.deepcopy(p) == p
    assert replace(p, y=5) == cls(1, 5)
    assert hash(p) == hash((1, 2))


def test_subclass_may_add_attributes_to_non_fields():
    """The stdlib rule: a non-frozen-aware subclass can set its own non-field names."""
    class Sub(Point):
        pass

    s = Sub(1)
    with pytest.raises(FrozenInstanceError):
        s.x = 3
    object.__setattr__(s, 'extra', 1)
    assert s.extra == 1


def test_explicit_setattr_with_frozen_is_an_error():
    """A hand-written ``__setattr__`` cannot coexist with ``frozen=True``."""
    with pytest.raises(TypeError, match='^Cannot overwrite attribute __setattr__ in class C$'):
        class C(DataClass, frozen=True):
            x: int

            def __setattr__(self, name, value):
                pass
