"""Options as class keywords: inherited, overridden, and their conflicts."""

import dataclasses
import sys

import pytest

import dataclass_meta
from dataclass_meta import KW_ONLY, DataClass, FrozenInstanceError, field, fields
from dataclass_meta._options import _ALL_DEFAULTS, OPTIONS


class Model(DataClass, frozen=True, kw_only=True, order=True):
    """A framework base: options set once."""
    id: int = 0


def test_options_are_inherited():
    """A subclass takes its data-class parent's options."""
    class User(Model):
        name: str

    p = User.__dataclass_params__
    assert (p.frozen, p.kw_only, p.order) == (True, True, True)
    u = User(name='a')
    with pytest.raises(FrozenInstanceError):
        u.name = 'b'
    assert User(name='a') < User(name='b')
    with pytest.raises(TypeError):
        User('a')  # kw_only applies to the subclass's own fields too


@pytest.mark.parametrize('option', OPTIONS)
def test_each_option_is_recorded_under_its_own_name(option):
    """One class keyword changed: ``__dataclass_params__`` shows it in its own
    slot, every other option at its default (``gc=False`` stays False only
    where the backend leaves instances untracked)."""
    needs = {'weakref_slot': {'slots': True}, 'cache_hash': {'frozen': True},
             'untrack_atomic': {'frozen': True, 'slots': True}}
    given = {**needs.get(option, {}), option: not _ALL_DEFAULTS[option]}
    params = type('C', (DataClass,), {}, **given).__dataclass_params__
    expected = {**_ALL_DEFAULTS, **given}
    if option == 'gc':
        expected['gc'] = dataclass_meta.BACKEND != 'compiled'
    assert {name: getattr(params, name) for name in OPTIONS} == expected


def test_explicit_keyword_overrides_inherited():
    """The class's own keywords win over inherited ones."""
    class Loose(Model, kw_only=False, order=False):
        name: str

    assert Loose('a').name == 'a'
    assert Loose.__dataclass_params__.order is False
    assert '__lt__' not in Loose.__dict__


def test_kw_only_applies_per_class():
    """A parent's kw_only fields stay keyword-only under a positional child."""
    class Child(Model, kw_only=False):
        name: str

    assert str(__import__('inspect').signature(Child)) == \
        '(name: str, *, id: int = 0) -> None'


def _two_positional(value):
    """What ``case C(a, b)`` binds for ``value`` of class ``C``, or the error it raises."""
    cls = type(value)
    try:
        match value:
            case cls(a, b):
                return a, b
    except TypeError as error:
        return type(error), str(error)


def test_inherited_kw_only_leaves_match_args_empty():
    """Under an inherited ``kw_only=True`` ``__match_args__`` is ``()``, as in the stdlib."""
    class User(Model):
        name: str

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class StdModel:
        id: int = 0

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class StdUser(StdModel):
        name: str

    class Draft(Model, kw_only=False):
        title: str

    @dataclasses.dataclass(frozen=True)
    class StdDraft(StdModel):
        title: str

    assert Model.__match_args__ == User.__match_args__ == ()
    assert StdModel.__match_args__ == StdUser.__match_args__ == ()
    assert Draft.__match_args__ == StdDraft.__match_args__ == ('title',)
    assert _two_positional(User(name='a')) == (
        TypeError, 'User() accepts 0 positional sub-patterns (2 given)')
    assert _two_positional(StdUser(name='a')) == (
        TypeError, 'StdUser() accepts 0 positional sub-patterns (2 given)')


def test_explicit_match_args_restores_positional_patterns():
    """A ``__match_args__`` in the class body is kept, as ``@dataclass`` keeps it."""
    class Point(Model):
        __match_args__ = ('x', 'y')
        x: int
        y: int

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class StdPoint:
        __match_args__ = ('x', 'y')
        x: int
        y: int

    assert Point.__match_args__ == StdPoint.__match_args__ == ('x', 'y')
    assert _two_positional(Point(x=1, y=2)) == _two_positional(StdPoint(x=1, y=2)) == (1, 2)


def test_non_frozen_under_frozen_is_an_error():
    """Explicit ``frozen=False`` under a frozen parent: the stdlib's message, then
    the class and the parent."""
    with pytest.raises(TypeError, match="^cannot inherit non-frozen dataclass from a frozen "
                                        "one: 'C' is not frozen, its parent 'Model' is: "
                                        "derive the mutable classes from a non-frozen base "
                                        "beside 'Model', sharing their methods through a "
                                        "mixin that is not a data class$"):
        class C(Model, frozen=False):
            pass


def test_frozen_under_non_frozen_is_an_error():
    """``frozen=True`` under a non-frozen data-class parent: the stdlib's message,
    then the class and the parent."""
    class Base(DataClass):
        x: int = 0

    with pytest.raises(TypeError, match="^cannot inherit frozen dataclass from a non-frozen "
                                        "one: 'C' is frozen, its parent 'Base' is not: "
                                        "derive the frozen classes from a frozen base beside "
                                        "'Base', sharing their methods through a mixin that "
                                        "is not a data class$"):
        class C(Base, frozen=True):
            pass


def test_parents_that_disagree_on_frozen():
    """Parents that disagree are an error even without an explicit ``frozen=``."""
    class Thawed(DataClass):
        a: int = 0

    with pytest.raises(TypeError, match=r"frozen \(Model\) and non-frozen \(Thawed\)"):
        class C(Model, Thawed):
            pass


@pytest.mark.parametrize('frozen_first', [True, False], ids=['frozen-first', 'thawed-first'])
def test_parents_that_disagree_start_with_the_stdlib_text(frozen_first):
    """The stdlib's own error for the same class comes first, then our remedy."""
    def parents(decorate):
        frozen = decorate(type('F', (), {'__annotations__': {'a': int}, 'a': 0}), True)
        thawed = decorate(type('T', (), {'__annotations__': {'b': int}, 'b': 0}), False)
        return (frozen, thawed) if frozen_first else (thawed, frozen)

    std = parents(lambda c, frozen: dataclasses.dataclass(frozen=frozen)(c))
    with pytest.raises(TypeError) as stdlib:
        dataclasses.dataclass(type('C', std, {}))
    ours = parents(lambda c, frozen: type(c.__name__, (DataClass,), dict(c.__dict__),
                                          frozen=frozen))
    with pytest.raises(TypeError) as info:
        type('C', ours, {})
    assert str(info.value) == (
        f"{stdlib.value}: the data-class parents of 'C' disagree, frozen (F) and "
        f"non-frozen (T): make them agree")


def test_stdlib_parent_fields_are_merged():
    """A stdlib data class parent contributes its fields and frozen flag."""
    @dataclasses.dataclass
    class Std:
        a: int = 1

    class C(DataClass, Std):
        b: int = 2

    assert [f.name for f in fields(C)] == ['a', 'b']
    assert C() == C(1, 2)


def test_order_without_eq_is_an_error():
    """``order=True`` with ``eq=False`` is the stdlib's ValueError, also when
    inherited; then the message says which parent set the inherited one."""
    with pytest.raises(ValueError, match='^eq must be true if order is true$'):
        class C(DataClass, order=True, eq=False):
            pass
    with pytest.raises(ValueError, match="^eq must be true if order is true: data class 'D' "
                                         "has order=True from its parent 'Model'$"):
        class D(Model, eq=False):
            pass

    class Loose(DataClass, eq=False):
        x: int

    with pytest.raises(ValueError, match="^eq must be true if order is true: data class 'E' "
                                         "has eq=False from its parent 'Loose'$"):
        class E(Loose, order=True):
            pass


def test_unknown_keyword_names_the_options():
    """A misspelt option names itself, the class and the valid options."""
    with pytest.raises(TypeError, match=r"^unknown option 'frozn' for data class 'C': "
                                        r"expected one of init, repr, eq, order"):
        class C(DataClass, frozn=True):
            pass


@pytest.mark.parametrize('typo, option', [
    ('frozn', 'frozen'), ('Frozen', 'frozen'), ('slot', 'slots'), ('kwonly', 'kw_only'),
    ('unsafehash', 'unsafe_hash'), ('ordr', 'order')])
def test_unknown_keyword_suggests_the_nearest_option(typo, option):
    """A typo ends with 3.14's ``. Did you mean 'frozen'?``, on every Python."""
    with pytest.raises(TypeError) as info:
        type('C', (DataClass,), {}, **{typo: True})
    assert str(info.value).endswith(f"cache_hash, gc, untrack_atomic. Did you mean '{option}'?")


@pytest.mark.skipif(sys.version_info < (3, 13),
                    reason='3.13+ suggests a keyword argument of dataclass()')
@pytest.mark.parametrize('typo', ['frozn', 'slot', 'kwonly', 'ordr', 'eqq', 'table'])
def test_stdlib_suggests_the_same_option(typo):
    """Our suggestion is the one ``@dataclass(<typo>=True)`` ends with (or none)."""
    with pytest.raises(TypeError) as std:
        dataclasses.dataclass(**{typo: True})
    with pytest.raises(TypeError) as ours:
        type('C', (DataClass,), {}, **{typo: True})
    _, hint, suggestion = str(std.value).partition('. Did you mean')
    assert str(ours.value).endswith(hint + suggestion)
    assert ('Did you mean' in str(ours.value)) == bool(hint)


def test_unknown_keyword_far_from_any_option_suggests_nothing():
    """No option is close to ``table``: the list of options ends the message."""
    with pytest.raises(TypeError) as info:
        type('C', (DataClass,), {}, table='t')
    assert str(info.value).endswith('weakref_slot, cache_hash, gc, untrack_atomic')


def test_non_default_after_inherited_default_names_the_parent():
    """The stdlib's text, then the class that gave the default (furthest up)."""
    class Base(DataClass):
        a: int = 0

    class Mid(Base):
        pass

    with pytest.raises(TypeError, match=r"^non-default argument 'b' follows default argument "
                                        r"'a' \('a' has its default from parent 'Base'\)$"):
        class C(Base):
            b: int
    with pytest.raises(TypeError, match=r"\('a' has its default from ancestor 'Base'\)$"):
        class D(Mid):
            b: int
    with pytest.raises(TypeError, match=r"^non-default argument 'b' follows default argument "
                                        r"'a'$"):
        class E(DataClass):
            a: int = 0
            b: int


def test_option_values_must_be_bool():
    """``frozen='yes'`` is rejected: options are True or False."""
    with pytest.raises(TypeError, match=r"^option 'frozen' of data class 'C' must be True "
                                        r"or False, not 'yes'$"):
        class C(DataClass, frozen='yes'):
            pass


def test_other_keywords_reach_init_subclass():
    """Keywords that are not options pass through to a framework's hook."""
    seen = {}

    class Table(DataClass):
        def __init_subclass__(cls, *, table=None, **kw):
            super().__init_subclass__(**kw)
            seen[cls.__name__] = (table, [f.name for f in fields(cls)])

    class User(Table, table='users', order=True):
        id: int

    assert seen == {'User': ('users', ['id'])}
    assert User.__dataclass_params__.order


def test_keywords_reach_a_mixin_after_dataclass():
    """A cooperative mixin later in the MRO receives its own keywords."""
    seen = []

    class Mixin:
        def __init_subclass__(cls, *, flavour, **kw):
            super().__init_subclass__(**kw)
            seen.append((cls.__name__, flavour, [f.name for f in fields(cls)]))

    class C(DataClass, Mixin, flavour='mint'):
        x: int

    assert seen == [('C', 'mint', ['x'])]


def test_unknown_keyword_lists_and_suggests_the_framework_keywords():
    """A framework's own keyword misspelt: the message lists what each
    ``__init_subclass__`` before ``DataClass`` takes, and suggests the nearest."""
    class Settings(DataClass):
        def __init_subclass__(cls, /, *, env_prefix='', case_sensitive=False, **kwargs):
            super().__init_subclass__(**kwargs)

    class Tagged(Settings):
        def __init_subclass__(cls, tag=None, **kwargs):
            super().__init_subclass__(**kwargs)
    with pytest.raises(TypeError) as info:
        class Bad(Tagged, env_prefx='APP_'):
            pass
    assert str(info.value) == (
        "unknown option 'env_prefx' for data class 'Bad': expected one of init, repr, eq, "
        "order, unsafe_hash, frozen, match_args, kw_only, slots, weakref_slot, cache_hash, "
        "gc, untrack_atomic; Tagged.__init_subclass__ takes tag; Settings.__init_subclass__ takes "
        "env_prefix, case_sensitive. Did you mean 'env_prefix'?")


def test_unknown_keyword_beside_a_framework_taking_only_kwargs():
    """A framework ``__init_subclass__`` that names no keyword adds nothing to the list."""
    class Base(DataClass):
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
    with pytest.raises(TypeError) as info:
        class Bad(Base, frozn=True):
            pass
    assert str(info.value).endswith("weakref_slot, cache_hash, gc, untrack_atomic. Did you mean 'frozen'?")


def test_match_args_and_options_record():
    """``__match_args__`` lists positional init fields; params record every option."""
    class C(DataClass, order=True, kw_only=False):
        x: int
        y: int = field(init=False, default=0)
        _: KW_ONLY
        z: int = 1

    assert C.__match_args__ == ('x',)
    match C(5):
        case C(x):
            assert x == 5
    text = repr(C.__dataclass_params__)
    assert text.startswith('_DataclassParams(init=True,repr=True,eq=True,order=True,')
    assert text.endswith('slots=False,weakref_slot=False)')


def test_every_option_is_inherited():
    """A subclass takes its data-class parent's options; its own keywords win."""
    class P(DataClass, order=True, unsafe_hash=True, kw_only=True, repr=False,
            match_args=False, eq=True, init=True):
        x: int

    class C(P):
        y: int

    class D(P, repr=True):
        z: int

    params = C.__dataclass_params__
    assert (params.order, params.unsafe_hash, params.kw_only, params.repr,
            params.match_args) == (True, True, True, False, False)
    assert C(x=1, y=2) < C(x=1, y=3) and hash(C(x=1, y=2)) == hash((1, 2))
    assert '__repr__' not in C.__dict__ and '__match_args__' not in C.__dict__
    assert repr(D(x=1, z=2)).endswith('D(x=1, z=2)')


def test_options_come_from_the_nearest_data_class_parent():
    """Options skip plain mixins and come from the first data-class parent."""
    class Mixin:
        pass

    class P(DataClass, order=True):
        x: int

    class C(Mixin, P):
        y: int = 0

    assert C.__dataclass_params__.order and C(1) < C(2)


def test_keywords_pass_to_a_mixin_init_subclass():
    """A class keyword that is not an option reaches ``__init_subclass__`` further on."""
    seen = []

    class Mixin:
        def __init_subclass__(cls, *, table=None, **kwargs):
            super().__init_subclass__(**kwargs)
            seen.append((cls.__name__, table, [f.name for f in fields(cls)]))

    class Base(DataClass, Mixin):
        pass

    class C(Base, table='t', order=True):
        x: int

    assert seen[-1] == ('C', 't', ['x']) and C.__dataclass_params__.order


def test_unknown_keyword_names_every_thawed_parent():
    """The disagreeing-parents error lists all non-frozen parents."""
    class A(DataClass, frozen=True):
        a: int = 0

    class B(DataClass):
        b: int = 0

    class D(DataClass):
        d: int = 0

    with pytest.raises(TypeError, match=r"of 'C' disagree, frozen \(A\) and non-frozen \(B, D\):"):
        class C(A, B, D):
            pass


def test_options_under_a_stdlib_parent():
    """A class under a stdlib data class takes its options, defaults for ones it lacks."""
    @dataclasses.dataclass(frozen=True, order=True)
    class P:
        x: int

    class C(P, DataClass):
        y: int = 0

    params = C.__dataclass_params__
    assert (params.frozen, params.order, params.match_args, params.kw_only,
            params.slots) == (True, True, True, False, False)
    assert C(1) < C(2) and C.__match_args__ == ('x', 'y')
