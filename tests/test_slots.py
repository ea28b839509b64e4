"""``slots=True``: what a slotted class inherits and which names get slots."""

import dataclasses

from dataclass_meta import DataClass, InitVar, fields


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
