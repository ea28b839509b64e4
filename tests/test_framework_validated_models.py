"""examples/frameworks/validated_models.py: type-checked models on dataclass_meta."""

import copy
import dataclasses
import inspect
import pathlib
import pickle
import sys
from typing import Any, ClassVar, Literal, Optional, Union

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import FrozenInstanceError, InitVar, field, fields, replace

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / 'examples' / 'frameworks'))
from validated_models import (  # noqa: E402
    Check, FrozenModel, Model, ValidationError, check, conforms, validate)


def non_negative(value):
    if value < 0:
        raise ValueError(f'must be >= 0, got {value}')


class User(Model):
    name: str = check(converter=str.strip)
    age: int = check(default=0, validator=non_negative)
    email: Optional[str] = None
    friends: 'list[User]' = check(  # whole string: 3.10 leaves list['User'] alone
        default_factory=list)


class Team(Model):
    lead: User
    members: dict[str, User]
    code: Union[int, str] = 0
    kind: Literal['dev', 'ops'] = 'dev'
    budget: float = 0.0
    extra: Any = None


class Point(FrozenModel):
    x: float = check(converter=float)
    y: float = 0.0
    tags: tuple[str, ...] = ()


def test_valid_values_are_accepted():
    """Values of the declared types construct, converters applied."""
    ann = User('  Ann ', 30, 'ann@example.org')
    team = Team(ann, {'bob': User('Bob')}, code='x', kind='ops', budget=3)
    assert ann.name == 'Ann' and team.members['bob'].age == 0
    assert team.budget == 3 and User('Cy', friends=[ann]).friends == [ann]


@pytest.mark.parametrize('make, message', [
    (lambda: User(42), "field 'name' of 'User' cannot convert 42: "),
    (lambda: User('a', '3'), "field 'age' of 'User' expects int, got str: '3'"),
    (lambda: User('a', True), "field 'age' of 'User' expects int, got bool: True"),
    (lambda: User('a', -1), "field 'age' of 'User': must be >= 0, got -1"),
    (lambda: User('a', email=b'x'), "field 'email' of 'User' expects str | None, got bytes"),
    (lambda: User('a', friends=[1]), "field 'friends' of 'User' expects list[User], got list"),
    (lambda: Team('ann', {}), "field 'lead' of 'Team' expects User, got str: 'ann'"),
    (lambda: Team(User('a'), {'b': 1}),
     "field 'members' of 'Team' expects dict[str, User], got dict: {'b': 1}"),
    (lambda: Team(User('a'), {}, code=1.5), "field 'code' of 'Team' expects int | str"),
    (lambda: Team(User('a'), {}, kind='qa'),
     "field 'kind' of 'Team' expects Literal['dev', 'ops'], got str: 'qa'"),
    (lambda: Point('x'), "field 'x' of 'Point' cannot convert 'x'"),
    (lambda: Point(1, tags=(1,)), "field 'tags' of 'Point' expects tuple[str, ...]"),
])
def test_bad_values_are_refused_with_a_clear_message(make, message):
    """The error names the class, the field, the expected and the given type."""
    with pytest.raises(ValidationError) as info:
        make()
    assert str(info.value).startswith(message)


def test_validation_error_is_both_type_and_value_error():
    """Callers may catch a wrong type as TypeError and a failed check as ValueError."""
    with pytest.raises(TypeError):
        User('a', '3')
    with pytest.raises(ValueError):
        User('a', -3)


def test_assignment_is_checked_and_refusal_keeps_the_old_value():
    """Assignment runs converter, type check and validator; a refusal changes nothing."""
    user = User('Ann', 3)
    user.name = '  Bea '
    assert user.name == 'Bea'
    with pytest.raises(ValidationError, match="field 'age' of 'User': must be >= 0"):
        user.age = -1
    assert user.age == 3
    user.note = 'not a field'  # other attributes are left alone
    assert user.note == 'not a field'


def test_forward_references_resolve_on_first_use():
    """An annotation may name a class defined later in the module."""
    class Node(Model):
        children: 'list[Leaf]'

    class Leaf(Model):
        value: int

    sys.modules[__name__].Leaf = Leaf  # where get_type_hints looks for 'Leaf'
    try:
        assert Node([Leaf(1)]).children[0].value == 1
        with pytest.raises(ValidationError, match=r"expects list\[Leaf\]"):
            Node([1])
    finally:
        del sys.modules[__name__].Leaf


def test_subclasses_are_checked_under_their_own_name(slots):
    """Inherited fields are checked too, the error names the subclass; slots work."""
    class Admin(User):
        level: int = 1

    class Slotted(Model, slots=slots):
        x: int

    with pytest.raises(ValidationError, match="field 'age' of 'Admin' expects int"):
        Admin('a', 'old')
    with pytest.raises(ValidationError, match="field 'level' of 'Admin' expects int"):
        Admin('a', level='high')
    with pytest.raises(ValidationError, match="field 'x' of 'Slotted' expects int"):
        Slotted('1')
    assert hasattr(Slotted(1), '__dict__') is not slots


def test_frozen_model_checks_once_and_stays_frozen(slots):
    """FrozenModel validates in ``__init__`` and stores conversions."""
    class P(Point, slots=slots):
        label: str = ''

    p = P('1.5', label='a')
    assert p.x == 1.5 and hash(p) == hash(P(1.5, label='a'))
    with pytest.raises(FrozenInstanceError):
        p.x = 2.0
    with pytest.raises(ValidationError, match="field 'label' of 'P' expects str"):
        replace(p, label=1)
    assert replace(p, x='2').x == 2.0


def test_generated_init_keeps_signature_and_call_errors():
    """No wrapper: ``__init__`` and ``__setattr__`` are the library's own."""
    assert str(inspect.signature(Point)) == (
        '(x: float, y: float = 0.0, tags: tuple[str, ...] = ()) -> None')
    assert not hasattr(Point.__init__, '__wrapped__')
    assert '__setattr__' not in vars(Model)  # User's is the library's, generated
    assert Point.__doc__ == 'Point(x: float, y: float = 0.0, tags: tuple[str, ...] = ())'
    with pytest.raises(TypeError, match=r"Point.__init__\(\) missing 1 required"):
        Point()


def test_frozen_and_mutable_models_do_not_mix():
    """frozen is inherited, so a mutable model cannot become frozen."""
    with pytest.raises(TypeError, match='cannot inherit frozen dataclass'):
        class Bad(User, frozen=True):
            pass


def test_initvar_and_classvar_are_not_checked_as_fields():
    """Only fields are checked; InitVars reach ``__post_init__`` unchanged."""
    class Scaled(FrozenModel):
        unit: ClassVar[str] = 'm'
        value: float
        factor: InitVar[int] = 1

        def __post_init__(self, factor):
            object.__setattr__(self, 'value', self.value * factor)

    assert Scaled(2, 3).value == 6.0
    with pytest.raises(ValidationError, match="field 'value' of 'Scaled' expects float"):
        Scaled('2')


def test_check_is_a_field_subclass_seen_by_fields():
    """``fields()`` returns ``Check`` objects, with the library's converter and
    validator made from what ``check()`` was given."""
    name, age, email, friends = fields(User)
    assert type(name) is Check and name.converter.convert is str.strip
    assert age.value_validator is non_negative and age.default == 0
    assert age.validator == (validate,) and email.validator == (validate,)
    assert type(email) is not Check and email.converter is None
    assert Model.__dataclass_transform__['field_specifiers'] == (check, Check)
    transform = FrozenModel.__dataclass_transform__  # 3.11 keeps frozen_default in kwargs
    assert transform.get('frozen_default', transform.get('kwargs', {}).get('frozen_default'))


def test_check_rejects_what_field_rejects_and_non_callables():
    """Specifier mistakes fail at class creation with a message naming the field."""
    with pytest.raises(ValueError, match='cannot specify both default and default_factory'):
        check(default=1, default_factory=int)
    with pytest.raises(TypeError, match='validator 3 is not callable'):
        check(validator=3)
    with pytest.raises(TypeError, match="field 'x' of data class 'C': converter 3 is not "
                                        "callable"):
        class C(Model):
            x: int = check(converter=3)


def test_copy_and_pickle_round_trip():
    """Copies and pickles come back equal (without converting or checking again)."""
    user = User('Ann', 3, friends=[User('Bob')])
    assert copy.deepcopy(user) == user
    assert pickle.loads(pickle.dumps(user)) == user
    assert pickle.loads(pickle.dumps(Point(1, 2))) == Point(1, 2)


def test_converters_run_first_then_checks_in_field_order():
    """All fields are converted, then each is type-checked and validated in
    order, then ``__post_init__`` sees checked values; a failed conversion
    reports before any check."""
    seen = []

    class Reading(FrozenModel):
        sensor: str
        value: float = check(converter=float, validator=non_negative)

        def __post_init__(self):
            seen.append((self.sensor, self.value))

    assert Reading('t1', '2.5') == Reading('t1', 2.5) and seen[0] == ('t1', 2.5)
    with pytest.raises(ValidationError, match="field 'value' of 'Reading' cannot convert"):
        Reading(1, 'x')  # the conversion of value fails before sensor's type check
    with pytest.raises(ValidationError, match="field 'sensor' of 'Reading' expects str"):
        Reading(b'x', -1)  # sensor's check comes before value's validator
    assert len(seen) == 2


def test_subclass_errors_name_the_subclass_and_parents_keep_theirs():
    """Inherited fields are copies per model: a converter's error names the
    class being built, and the parent's fields are unchanged."""
    class Admin(User):
        level: int = 1

    with pytest.raises(ValidationError, match="field 'name' of 'Admin' cannot convert 1"):
        Admin(1)
    with pytest.raises(ValidationError, match="field 'name' of 'User' cannot convert 1"):
        User(1)
    assert fields(Admin)[0] is not fields(User)[0]
    assert fields(Admin)[0].converter.convert is fields(User)[0].converter.convert


def test_alias_and_library_validators_work_in_a_model():
    """``check(alias=...)`` names the ``__init__`` parameter; ``field()`` with the
    library's three-argument validator runs after the type check."""
    from dataclass_meta import field

    def even(instance, f, value):
        if value % 2:
            raise ValueError(f'{f.name} must be even, got {value}')

    class Row(Model):
        _id: int = check(alias='id', converter=int)
        size: int = field(default=0, validator=even)

    row = Row(id='4', size=2)
    assert row._id == 4 and list(inspect.signature(Row).parameters) == ['id', 'size']
    assert replace(row, id='6')._id == 6
    with pytest.raises(ValueError, match='size must be even, got 3'):
        Row(1, 3)
    with pytest.raises(ValidationError, match="field 'size' of 'Row' expects int"):
        row.size = '3'  # the type check first: even() never sees a str
    assert row.size == 2


@pytest.mark.parametrize('make_field', [dataclasses.field, field])
def test_a_model_takes_either_field_function(make_field):
    """``dataclasses.field()`` in a model's body is checked as ``field()`` is."""
    class Scores(Model):
        total: int = make_field(default=0)
        marks: 'list[int]' = make_field(default_factory=list)

    assert Scores(3, [1]).marks == [1] and Scores().total == 0
    with pytest.raises(ValidationError, match="field 'total' of 'Scores' expects int"):
        Scores('3')
    scores = Scores()
    with pytest.raises(ValidationError, match="field 'marks' of 'Scores' expects list"):
        scores.marks = None


@settings(max_examples=50, deadline=None)
@given(st.lists(st.one_of(st.integers(), st.text(max_size=3), st.none())))
def test_list_of_int_accepts_exactly_lists_of_ints(values):
    """``list[int]`` holds when every item is an int (and not a bool)."""
    class Bag(Model):
        items: list[int]

    ok = all(type(v) is int for v in values)
    assert conforms(values, list[int]) is ok
    if ok:
        assert Bag(values).items == values
    else:
        with pytest.raises(ValidationError, match=r"field 'items' of 'Bag' expects list\[int\]"):
            Bag(values)
