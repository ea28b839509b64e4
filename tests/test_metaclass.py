"""Metaclass integration: ABCs, Generic, other metaclasses, hooks seeing fields."""

import abc
import sys
import typing

import pytest

from dataclass_meta import DataClass, DataClassMeta, fields, make_dataclass, namespace_annotations


def test_abc_and_abstractmethod_enforced():
    """``abc.ABC`` mixes in; abstract methods block instantiation until defined."""
    class Shape(DataClass, abc.ABC):
        name: str

        @abc.abstractmethod
        def area(self):
            ...

    with pytest.raises(TypeError, match='abstract'):
        Shape('s')

    class Square(Shape):
        side: int = 1

        def area(self):
            return self.side ** 2

    assert Square('sq', 3).area() == 9


def test_generated_method_satisfies_abstract_one():
    """An abstract ``__repr__`` is implemented by the generated one."""
    class Base(abc.ABC):
        @abc.abstractmethod
        def __repr__(self):
            ...

    class C(DataClass, Base):
        x: int

    assert repr(C(1)).endswith('C(x=1)')


def test_generic():
    """``Generic[T]`` works; subscripted classes construct instances."""
    T = typing.TypeVar('T')

    class Box(DataClass, typing.Generic[T]):
        item: T

    assert Box[int](3).item == 3
    assert Box.__parameters__ == (T,)


def test_generic_frozen_slotted():
    """Subscripted construction works even where ``__orig_class__`` cannot be set."""
    T = typing.TypeVar('T')

    class Box(DataClass, typing.Generic[T], frozen=True, slots=True):
        item: T

    assert Box[int](3) == Box(3)


def test_metaclass_alone_adds_the_base():
    """``metaclass=DataClassMeta`` without ``DataClass`` still makes a data class."""
    class C(metaclass=DataClassMeta, frozen=True):
        x: int

    assert issubclass(C, DataClass)
    assert C(1) == C(1) and hash(C(1)) == hash((1,))


def test_combining_with_another_metaclass():
    """A metaclass derived from both ``DataClassMeta`` and another one works."""
    class Registry(type):
        classes = []

        def __new__(mcls, name, bases, ns, **kw):
            cls = super().__new__(mcls, name, bases, ns, **kw)
            Registry.classes.append(name)
            return cls

    class Meta(DataClassMeta, Registry):
        pass

    class Base(DataClass, metaclass=Meta):
        pass

    class C(Base, order=True):
        x: int

    assert Registry.classes[-2:] == ['Base', 'C']
    assert C(1) < C(2)


def test_metaclass_subclass_transforms_namespace():
    """A ``DataClassMeta`` subclass may add fields to the namespace before the class."""
    class Stamped(DataClassMeta):
        def __new__(mcls, name, bases, ns, **kw):
            namespace_annotations(ns)['created'] = int
            ns['created'] = 0
            return super().__new__(mcls, name, bases, ns, **kw)

    class C(DataClass, metaclass=Stamped):
        x: int = 1

    assert [f.name for f in fields(C)] == ['x', 'created']


def test_init_subclass_sees_finished_fields_and_methods():
    """After ``super().__init_subclass__()``, fields and methods are all there."""
    seen = {}

    class Base(DataClass):
        def __init_subclass__(cls, **kw):
            super().__init_subclass__(**kw)
            seen['fields'] = [f.name for f in fields(cls)]
            seen['init'] = '__init__' in cls.__dict__

    class C(Base, slots=True):
        a: int
        b: int = 0

    assert seen == {'fields': ['a', 'b'], 'init': True}


def test_generated_methods_have_names():
    """Generated methods have the class's qualname prefix and module."""
    class C(DataClass, order=True, frozen=True):
        x: int

    for name in ('__init__', '__repr__', '__eq__', '__lt__', '__hash__',
                 '__setattr__', '__replace__'):
        method = C.__dict__[name]
        assert method.__name__ == name
        assert method.__qualname__ == f'{C.__qualname__}.{name}'
        assert method.__module__ == __name__


def test_failed_definition_leaves_parent_untouched():
    """A class that fails to build changes nothing in its parent."""
    class Base(DataClass):
        x: int = 0

    before = dict(Base.__dict__)
    with pytest.raises(ValueError):
        class C(Base):
            y: list = []
    assert dict(Base.__dict__) == before


def test_metaclass_call_names_the_callers_module():
    """``DataClassMeta(name, bases, ns)`` without ``__module__`` is in the
    caller's module, as ``type(name, bases, ns)`` would be (not ``abc``, where
    ``ABCMeta.__new__`` runs), so its instances pickle; a given one is kept."""
    import pickle
    global MadeByCall
    MadeByCall = DataClassMeta('MadeByCall', (), {'__annotations__': {'x': int}})
    plain = type('Plain', (), {})
    assert MadeByCall.__module__ == plain.__module__ == __name__
    assert pickle.loads(pickle.dumps(MadeByCall(3))) == MadeByCall(3)
    ns = {'__annotations__': {'x': int}, '__module__': 'elsewhere'}
    assert DataClassMeta('Kept', (DataClass,), ns).__module__ == 'elsewhere'
    assert ns == {'__annotations__': {'x': int}, '__module__': 'elsewhere'}


class _OtherMeta(type):
    pass


class _OtherBase(metaclass=_OtherMeta):
    pass


@pytest.mark.parametrize('make', [
    lambda: DataClassMeta('C', (_OtherBase,), {'__annotations__': {'x': int}}),
    lambda: make_dataclass('C', ['x'], bases=(_OtherBase,)),
], ids=['metaclass call', 'make_dataclass'])
def test_metaclass_conflict_names_the_remedy(make):
    """Where our metaclass makes the class, Python's ``metaclass conflict`` error
    goes on with the metaclass to write (a note; on 3.10 the message's second line)."""
    with pytest.raises(TypeError, match='^metaclass conflict') as info:
        make()
    hint = ('to combine DataClassMeta with _OtherMeta, derive a metaclass from both, '
            'class Meta(DataClassMeta, _OtherMeta), and make the class with it '
            '(metaclass=Meta)')
    if sys.version_info >= (3, 11):
        assert info.value.__notes__ == [hint]
    else:
        assert str(info.value).endswith('\n' + hint)

    class Meta(DataClassMeta, _OtherMeta):
        pass

    assert Meta('C', (_OtherBase,), {'__annotations__': {'x': int}})(1).x == 1


def test_metaclass_conflict_in_a_class_statement_is_pythons():
    """A class statement's conflict is raised by Python before any metaclass runs, so
    it carries no note (the docs give the remedy)."""
    with pytest.raises(TypeError, match='^metaclass conflict') as info:
        class C(DataClass, _OtherBase):
            x: int
    assert getattr(info.value, '__notes__', []) == []


def test_metaclass_conflict_hint_is_for_that_error_only():
    """An earlier error of the same definition (here ``__slots__`` given twice) gets no
    metaclass hint, though the bases would conflict too."""
    namespace = {'__annotations__': {'x': int}, '__slots__': ('x',)}
    with pytest.raises(TypeError, match='already specifies __slots__') as info:
        DataClassMeta('C', (_OtherBase,), namespace, slots=True)
    assert 'metaclass' not in str(info.value)
    assert getattr(info.value, '__notes__', []) == []


def test_explicit_methods_are_kept():
    """``__init__``, ``__repr__`` and ``__eq__`` written in the body win over generated."""
    class C(DataClass):
        x: int

        def __init__(self):
            self.x = 0

        def __repr__(self):
            return 'mine'

        def __eq__(self, other):
            return 'eq'

    assert C().x == 0 and repr(C()) == 'mine' and (C() == C()) == 'eq'
