"""The field hook ``__transform_fields__``: fields after merging, before any method."""

import copy
import dataclasses
import inspect
import types
from typing import ClassVar

import pytest

from dataclass_meta import DataClass, DataClassMeta, Field, InitVar, field, fields

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


def _with(f, **changes):
    """A copy of the field ``f`` with ``changes`` (metadata as a read-only mapping)."""
    f = copy.copy(f)
    for name, value in changes.items():
        setattr(f, name, types.MappingProxyType(value) if name == 'metadata' else value)
    return f


def _new_field(name, type_, **kwargs):
    f = field(**kwargs)
    f.name, f.type = name, type_
    return f


def test_base_hook_sees_merged_fields_and_adds_one():
    """The base's hook gets every field, inherited first; what it adds is a field of the
    class: in ``__init__``, ``repr``, ``==``, ``__match_args__``, the signature."""
    seen = []

    class Base(DataClass):
        def __transform_fields__(cls, fields):  # a plain function: made a classmethod
            seen.append((cls.__name__, [f.name for f in fields]))
            if 'id' not in [f.name for f in fields]:
                fields = [_new_field('id', int, default=0), *fields]
            return fields

    class A(Base, kw_only=True):
        a: int

    class B(A):
        b: str = 'x'
    assert seen == [('A', ['a']), ('B', ['id', 'a', 'b'])]
    assert [f.name for f in fields(B)] == ['id', 'a', 'b']
    assert str(inspect.signature(A)) == '(*, id: int = 0, a: int) -> None'
    assert repr(A(a=1)) == 'test_base_hook_sees_merged_fields_and_adds_one.<locals>.A(id=0, a=1)'
    assert A(a=1) == A(a=1) != A(a=1, id=2)
    assert A.id == 0 and fields(A)[0].kw_only is True  # the class's kw_only


def test_runs_before_methods_and_init_subclass_after_super():
    """Order: a framework ``__init_subclass__`` before ``super()``, the hook, the methods,
    then the code after ``super()``."""
    order = []

    class Base(DataClass, frozen=True):
        def __init_subclass__(cls, **kwargs):
            order.append('before super')
            super().__init_subclass__(**kwargs)
            order.append(('after super', '__init__' in cls.__dict__))

        @classmethod
        def __transform_fields__(cls, fields):
            order.append(('hook', '__init__' in cls.__dict__,
                          cls.__dataclass_params__.frozen))
            return fields

    class C(Base):
        x: int
    assert order == ['before super', ('hook', False, True), ('after super', True)]


def test_metaclass_hook_and_super_chain():
    """A ``DataClassMeta`` subclass's hook runs for every class it makes, after the
    bases' hooks that call ``super()``."""
    calls = []

    class Meta(DataClassMeta):
        def __transform_fields__(cls, fields):
            calls.append(('meta', cls.__name__))
            return [_with(f, metadata={'seen': True})
                    if f._field_type is dataclasses._FIELD else f
                    for f in super().__transform_fields__(fields)]

    class Base(metaclass=Meta):
        def __transform_fields__(cls, fields):
            calls.append(('base', cls.__name__))
            return super().__transform_fields__(fields)

    class C(Base):
        x: int
    assert calls == [('meta', 'Base'), ('base', 'C'), ('meta', 'C')]
    assert fields(C)[0].metadata['seen'] is True


def test_changes_a_field_without_touching_the_parent():
    """A copy with a new default replaces an inherited field in the subclass only; its
    class attribute follows, as for a default written in the body."""
    class Parent(DataClass):
        level: int = 1

    class Child(Parent):
        @classmethod
        def __transform_fields__(cls, fields):
            return [f for f in fields if f.name != 'level']

    class Grandchild(Child):
        pass

    class Tuned(Parent):
        @classmethod
        def __transform_fields__(cls, fields):
            f = copy.copy(fields[0])
            f.default = 5
            return [f]

    class Leaf(Tuned):
        pass
    assert [f.name for f in fields(Grandchild)] == []
    assert (Parent().level, Leaf().level, Leaf.level, Parent.level) == (1, 5, 5, 1)
    assert fields(Parent)[0].default == 1


def test_converter_from_annotation():
    """The issue's use: metadata derived from the annotation, seen by every tool."""
    class Base(DataClass):
        def __transform_fields__(cls, fields):
            return [_with(f, metadata={**f.metadata, 'parse': f.type})
                    if f._field_type is dataclasses._FIELD else f for f in fields]

    class C(Base):
        n: int
        limit: ClassVar[int] = 3
        scale: InitVar[float] = 1.0

        def __post_init__(self, scale):
            self.n = self.n * scale
    assert [f.metadata.get('parse') for f in fields(C)] == [int]
    assert C(2, 3.0).n == 6.0 and dataclasses.fields(C)[0].metadata['parse'] is int


def test_slotted_class_hook_may_change_not_add():
    """A slotted class is laid out before the hook: a new field has no slot (an error
    that says where to add it); changed fields are fine."""
    class Base(DataClass, slots=True):
        def __transform_fields__(cls, fields):
            return [_with(f, repr=False) for f in fields]

    class C(Base):
        x: int
        y: int = 2
    assert repr(C(1)) == 'test_slotted_class_hook_may_change_not_add.<locals>.C()'
    assert C(1).y == 2 and not hasattr(C(1), '__dict__')

    class Adds(DataClass, slots=True):
        def __transform_fields__(cls, fields):
            return [*fields, _new_field('extra', int, default=0)]
    with pytest.raises(TypeError, match="^__transform_fields__ of data class 'D' added field "
                                        "'extra', which has no slot in a class without "
                                        "__dict__: add it to the namespace in a "
                                        "DataClassMeta subclass instead$"):
        class D(Adds):
            x: int


def _hooked(result):
    class Base(DataClass):
        @classmethod
        def __transform_fields__(cls, fields):
            return result(fields)
    return Base


@pytest.mark.parametrize('result, error, message', [
    (lambda fs: tuple(fs), TypeError,
     "__transform_fields__ of data class 'C' must return a list of Field objects, not tuple"),
    (lambda fs: None, TypeError,
     "__transform_fields__ of data class 'C' must return a list of Field objects, not NoneType"),
    (lambda fs: [*fs, 'y'], TypeError,
     "__transform_fields__ of data class 'C' returned 'y', which is not a Field"),
    (lambda fs: [*fs, fs[0]], TypeError,
     "__transform_fields__ of data class 'C' returned two fields named 'x'"),
    (lambda fs: [*fs, field(default=1)], TypeError,
     "__transform_fields__ of data class 'C' returned a Field named None: give it an "
     "identifier as its name"),
    (lambda fs: [*fs, _new_field('class', int, default=1)], TypeError,
     "__transform_fields__ of data class 'C' returned a Field named 'class'"),
    (lambda fs: [*fs, _new_field('y', list, default=[])], ValueError,
     "mutable default <class 'list'> for field y is not allowed: use default_factory"),
    (lambda fs: [*fs, _new_field('y', ClassVar[list], default_factory=list)], TypeError,
     'field y cannot have a default factory'),
    (lambda fs: [_new_field('y', int, default=1), *fs], TypeError,
     "non-default argument 'x' follows default argument 'y'"),
    (lambda fs: [*fs, _new_field('__init__', int, default=1)], TypeError,
     "field '__init__' of data class 'C' has a name that data classes reserve"),
])
def test_bad_results_are_errors_naming_the_class(result, error, message):
    """What the hook returns is checked like the class body: errors at class creation."""
    Base = _hooked(result)
    with pytest.raises(error) as info:
        class C(Base):
            x: int
    assert str(info.value).startswith(message)


def test_hook_sees_our_field_for_dataclasses_field_in_the_body():
    """Written with ``dataclasses.field()`` or ``field()``, the hook gets our ``Field``:
    ``converter``, ``validator`` and ``alias`` are there to read and set."""
    seen = []

    class Base(DataClass):
        def __transform_fields__(cls, fields):
            seen.extend(type(f) for f in fields)
            return [_with(f, converter=int) if f.name == 'n' else f for f in fields]

    class C(Base, slots=True):
        n: int = dataclasses.field(default='1', kw_only=True)
        s: str = dataclasses.field(default='x')

    assert seen == [Field, Field]
    assert C().n == 1 and C(n='2').n == 2 and fields(C)[0].kw_only is True


def test_a_returned_stdlib_field_is_made_ours():
    """A ``dataclasses.Field`` the hook returns is made ours, as one in the body."""
    def add_stdlib(fs):
        extra = dataclasses.field(default=2, metadata={'m': 1})
        extra.name, extra.type = 'y', int
        return [*fs, extra]

    class C(_hooked(add_stdlib)):
        x: int

    y = fields(C)[1]
    assert type(y) is Field and (y.default, y.metadata['m']) == (2, 1)
    assert C(1) == C(1, 2) and C.y == 2


def test_no_hook_no_change():
    """Without a hook the fields are the merged dict itself (nothing copied)."""
    class C(DataClass):
        x: int
    assert isinstance(C.__dict__['__dataclass_fields__'], dict)
    assert type(DataClass.__dict__['__transform_fields__']) is classmethod
    assert isinstance(DataClassMeta.__dict__['__transform_fields__'], types.FunctionType)
