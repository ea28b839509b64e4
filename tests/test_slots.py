"""``slots=True``: what a slotted class inherits and which names get slots."""

import dataclasses
import pickle

import pytest

from dataclass_meta import DataClass, InitVar, field, fields


def test_redeclared_field_takes_inherited_default():
    """A slotted subclass redeclaring a field keeps the base's default, as
    ``@dataclass(slots=True)`` does (it looks before adding slots)."""
    class Base(DataClass):
        x: int = 5

    class Child(Base, slots=True):
        x: int

    @dataclasses.dataclass
    class StdBase:
        x: int = 5

    @dataclasses.dataclass(slots=True)
    class StdChild(StdBase):
        x: int

    assert fields(Child)[0].default == dataclasses.fields(StdChild)[0].default == 5
    assert Child().x == StdChild().x == 5


def test_redeclared_as_initvar_gets_no_slot():
    """A base field redeclared as an InitVar (with a default) is no field: no slot,
    no clash with the InitVar's default."""
    class Base(DataClass):
        a: int
        c: int

    class Child(Base, slots=True):
        c: InitVar[int] = 0

    @dataclasses.dataclass
    class StdBase:
        a: int
        c: int

    @dataclasses.dataclass(slots=True)
    class StdChild(StdBase):
        c: InitVar[int] = 0

    assert Child.__slots__ == StdChild.__slots__ == ('a',)
    assert [f.name for f in fields(Child)] == ['a']


def test_pickle_subclass_of_frozen_slotted_class_keeps_its_fields():
    """A non-slotted frozen subclass inherits ``__getstate__``/``__setstate__``
    and still pickles its own fields (the stdlib reads ``fields(self)``)."""
    class Base(DataClass, frozen=True, slots=True):
        x: int

    class Child(Base, frozen=True, slots=False):
        y: int

    globals().update(Base=Base, Child=Child)  # pickle finds classes by name
    Base.__qualname__, Child.__qualname__ = 'Base', 'Child'
    try:
        restored = pickle.loads(pickle.dumps(Child(1, 2)))
    finally:
        del globals()['Base'], globals()['Child']
    assert (restored.x, restored.y) == (1, 2)


def test_slots_follow_field_order_after_redeclaration():
    """A base InitVar redeclared as a field keeps its place: ``__slots__`` lists
    the fields in ``fields()`` order, as the stdlib's does."""
    class Base(DataClass):
        a: int
        c: InitVar[int]
        b: int

    class Child(Base, slots=True):
        c: int
        d: int

    @dataclasses.dataclass
    class StdBase:
        a: int
        c: InitVar[int]
        b: int

    @dataclasses.dataclass(slots=True)
    class StdChild(StdBase):
        c: int
        d: int

    assert Child.__slots__ == StdChild.__slots__ == ('a', 'c', 'b', 'd')


def test_unannotated_names_of_inherited_fields_do_not_clash_with_slots():
    """A slotted subclass may assign an inherited field's name without an
    annotation: no slot clash; a ``field()`` there is the stdlib's TypeError."""
    class Base(DataClass):
        d: int = 1

    class Plain(Base, slots=True):
        d = 5

    assert Plain.__slots__ == ('d',) and Plain().d == 1  # the stdlib's result too
    with pytest.raises(TypeError, match="^'d' is a field but has no type annotation$"):
        class Child(Base, slots=True):
            d = field(default=2)
