"""``slots=True``: built once in the metaclass, so ``super()`` and hooks just work."""

import inspect
import weakref

import pytest

from dataclass_meta import DataClass, field


def test_slots_replace_dict():
    """Instances have no ``__dict__``; class defaults stay visible through init."""
    class C(DataClass, slots=True):
        x: int
        y: int = 5

    c = C(1)
    assert C.__slots__ == ('x', 'y')
    assert not hasattr(c, '__dict__')
    assert c.y == 5
    with pytest.raises(AttributeError):
        c.z = 1


def test_zero_argument_super_and_class_cell():
    """``super()`` and ``__class__`` in a slotted class's methods see the one class."""
    class Base(DataClass, slots=True):
        x: int

        def describe(self):
            return 'base'

    class C(Base):
        y: int = 0

        def describe(self):
            return 'c+' + super().describe()

        def __post_init__(self):
            assert __class__ is C
            super().describe()

    assert C(1).describe() == 'c+base'
    assert type(C(1)) is C


def test_init_subclass_runs_once_with_keywords():
    """A parent's ``__init_subclass__`` runs exactly once, with its class keywords."""
    calls = []

    class Base(DataClass):
        def __init_subclass__(cls, *, tag=None, **kw):
            super().__init_subclass__(**kw)
            calls.append((cls.__name__, tag))

    class C(Base, slots=True, tag='t'):
        x: int

    assert calls == [('C', 't')]


def test_set_name_runs_once():
    """``__set_name__`` of class attributes runs once, on the final class."""
    owners = []

    class Tracker:
        def __set_name__(self, owner, name):
            owners.append(owner)

    class C(DataClass, slots=True):
        x: int
        tracker = Tracker()

    assert owners == [C]


def test_explicit_slots_is_an_error():
    """``slots=True`` with ``__slots__`` in the body is the stdlib's error."""
    with pytest.raises(TypeError, match='^C already specifies __slots__$'):
        class C(DataClass, slots=True):
            __slots__ = ('x',)
            x: int


def test_weakref_slot():
    """``weakref_slot=True`` adds ``__weakref__``; without slots it is an error."""
    class C(DataClass, slots=True, weakref_slot=True):
        x: int

    c = C(1)
    assert weakref.ref(c)() is c
    with pytest.raises(TypeError, match='^weakref_slot is True but slots is False$'):
        class D(DataClass, weakref_slot=True):
            x: int


def test_slots_inherit_and_skip_parent_slots():
    """A slotted child of a slotted parent adds slots only for its new fields."""
    class A(DataClass, slots=True):
        x: int

    class B(A):
        y: int = 0

    assert B.__slots__ == ('y',)
    assert B.__dataclass_params__.slots
    assert B(1, 2).x == 1 and not hasattr(B(1), '__dict__')


def test_field_doc_becomes_slot_doc():
    """``field(doc=...)`` documents the slot descriptor (3.14's behaviour)."""
    class C(DataClass, slots=True):
        x: int = field(doc='the x coordinate')
        y: int = 0

    assert inspect.getdoc(C.__dict__['x']) == 'the x coordinate'
    assert C.__dataclass_fields__['x'].doc == 'the x coordinate'


def test_signature_of_slotted_class():
    """Slotted classes still have the generated signature and doc."""
    class C(DataClass, slots=True):
        x: int
        y: list = field(default_factory=list)

    assert str(inspect.signature(C)) == '(x: int, y: list = <factory>) -> None'
    assert C.__doc__ == 'C(x: int, y: list = <factory>)'
