"""Options a framework base declares with ``dataclass_transform`` (PEP 681).

Type checkers apply a transform's ``eq/order/kw_only/frozen_default`` to every
class below the decorated base, whatever the classes in between say; the
runtime does the same, so both read one declaration the same way.
"""

import inspect

import pytest
from typing_extensions import dataclass_transform

from dataclass_meta import DataClass, FrozenInstanceError, field


def _framework(**defaults):
    @dataclass_transform(field_specifiers=(field,), **defaults)
    class Model(DataClass, frozen=defaults.get('frozen_default', False),
                kw_only=defaults.get('kw_only_default', False)):
        id: int
    return Model


def test_declared_defaults_reach_every_descendant():
    """A grandchild follows the base's declaration, not its parent's keyword."""
    Model = _framework(frozen_default=True, kw_only_default=True)

    class User(Model):
        name: str

    class Admin(User, kw_only=False):
        level: int

    class Root(Admin):
        sudo: bool = True

    assert str(inspect.signature(Admin)) == '(level: int, *, id: int, name: str) -> None'
    assert str(inspect.signature(Root)) == (
        '(level: int, *, id: int, name: str, sudo: bool = True) -> None')
    root = Root(1, id=0, name='r')
    with pytest.raises(FrozenInstanceError):
        root.sudo = False


def test_explicit_keyword_wins():
    """A class's own keyword overrides the declared default for that class."""
    Model = _framework(kw_only_default=True)

    class Positional(Model, kw_only=False):
        name: str

    assert str(inspect.signature(Positional)) == '(name: str, *, id: int) -> None'


def test_order_and_eq_defaults():
    """``order_default`` and ``eq_default`` apply like class keywords."""
    @dataclass_transform(order_default=True)
    class Ordered(DataClass, order=True):
        pass

    class Score(Ordered):
        points: int

    assert Score(1) < Score(2)

    @dataclass_transform(eq_default=False)
    class Identity(DataClass, eq=False):
        pass

    class Handle(Identity):
        fd: int

    assert Handle.__eq__ is object.__eq__ and Handle(1) != Handle(1)


def test_frozen_default_over_a_thawed_base_is_an_error():
    """Declaring ``frozen_default=True`` on a non-frozen data class base fails as
    the checkers report it: a frozen class under a non-frozen one."""
    @dataclass_transform(frozen_default=True)
    class Model(DataClass):
        id: int

    with pytest.raises(TypeError, match='cannot inherit frozen dataclass from a non-frozen one'):
        class User(Model):
            name: str


def test_parents_that_disagree_under_frozen_default():
    """Under a declared ``frozen_default=True`` the stdlib's twin text comes first,
    as ``@dataclass(frozen=True)`` over the same parents raises it."""
    Model = _framework(frozen_default=True)

    class Thawed(DataClass):
        b: int = 0

    with pytest.raises(TypeError, match=(
            r"^cannot inherit frozen dataclass from a non-frozen one: the data-class "
            r"parents of 'User' disagree, frozen \(Model\) and non-frozen \(Thawed\)")):
        class User(Model, Thawed):
            pass


def test_transform_without_defaults_keeps_inheritance():
    """A transform that declares no defaults (only field specifiers) changes nothing."""
    @dataclass_transform(field_specifiers=(field,))
    class Base(DataClass, order=True, kw_only=True):
        id: int

    class Child(Base):
        name: str

    assert Child.__dataclass_params__.order and Child.__dataclass_params__.kw_only


def test_plain_inheritance_is_untouched():
    """``DataClass``'s own declaration (the plain defaults) does not reset options."""
    class Base(DataClass, frozen=True, kw_only=True):
        id: int

    class Child(Base):
        name: str

    assert Child.__dataclass_params__.frozen and Child.__dataclass_params__.kw_only


def test_frozen_default_under_311_typing():
    """3.11's ``typing.dataclass_transform`` keeps ``frozen_default`` in ``kwargs``."""
    class Model(DataClass):
        id: int

    Model.__dataclass_transform__ = {
        'eq_default': True, 'order_default': False, 'kw_only_default': False,
        'field_specifiers': (), 'kwargs': {'frozen_default': True}}

    with pytest.raises(TypeError, match='cannot inherit frozen dataclass from a non-frozen one'):
        class User(Model):
            name: str
