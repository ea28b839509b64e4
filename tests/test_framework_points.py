"""The extension points a framework builds on, each tested on its own.

docs/frameworks.md describes them; examples/frameworks/ uses them. Everything here
uses public names only.
"""

import abc
import dataclasses
import functools
import inspect
import sys
import types
import typing

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import (
    MISSING, DataClass, DataClassMeta, Field, fields,
    make_dataclass, namespace_annotations, replace)

from .implementation import mortal_classes  # noqa: F401

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:
    from typing_extensions import dataclass_transform


# -- 1. Subclassing DataClassMeta: the namespace before the class exists --------

class StampedMeta(DataClassMeta):
    """Adds a ``created: int`` field to every class that asks with ``stamp=True``."""

    def __new__(mcls, name, bases, namespace, /, *, stamp=False, **kwargs):
        if stamp:
            namespace_annotations(namespace)['created'] = int
            namespace['created'] = 0
        return super().__new__(mcls, name, bases, namespace, **kwargs)


def test_metaclass_adds_a_field_before_the_class_exists(slots):
    """A field added to the namespace is a field like any other, slots included."""
    class C(metaclass=StampedMeta, stamp=True, slots=slots):
        x: int

    assert [f.name for f in fields(C)] == ['x', 'created']
    assert C(1) == C(1, 0) and C(1, 5).created == 5
    assert ('created' in C.__slots__) is slots
    assert issubclass(C, DataClass)


def test_metaclass_keyword_is_consumed_before_init_subclass():
    """A keyword the metaclass pops never reaches ``__init_subclass__``."""
    class C(metaclass=StampedMeta, stamp=False):
        x: int

    assert [f.name for f in fields(C)] == ['x']


# -- 2. A framework's own class keywords ----------------------------------------

class Registered(DataClass):
    """Keeps every subclass under the name given as ``name=``."""

    registry = {}

    def __init_subclass__(cls, /, *, name=None, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.registry[name or cls.__name__] = cls


def test_framework_keyword_and_options_together():
    """Our options are ours, the framework's keyword reaches its hook."""
    class Point(Registered, name='point', order=True, kw_only=True):
        x: int

    assert Registered.registry['point'] is Point
    assert Point(x=1) < Point(x=2)


def test_keyword_named_like_a_metaclass_parameter():
    """``name=``, ``bases=``, ``namespace=`` reach ``__init_subclass__`` (3.10 too)."""
    seen = {}

    class Base(DataClass):
        def __init_subclass__(cls, /, *, bases=None, namespace=None, mcls=None, **kw):
            super().__init_subclass__(**kw)
            seen[cls.__name__] = (bases, namespace, mcls)

    class C(Base, bases=1, namespace=2, mcls=3):
        x: int

    class D(Registered, name='dee'):
        @abc.abstractmethod
        def run(self): ...

    assert seen == {'C': (1, 2, 3)}
    assert Registered.registry['dee'] is D
    with pytest.raises(TypeError, match='abstract'):
        D()


def test_dynamic_class_with_framework_keyword():
    """``types.new_class`` passes framework keywords that ``make_dataclass`` has no room for."""
    def body(namespace):
        namespace['__annotations__'] = {'x': int}
        namespace['x'] = 0

    Dyn = types.new_class('Dyn', (Registered,), {'name': 'dyn', 'frozen': False}, body)
    assert Registered.registry['dyn'] is Dyn and Dyn() == Dyn(0)
    assert [f.name for f in fields(Dyn)] == ['x']


def test_keyword_nobody_takes_is_an_error():
    """A keyword no ``__init_subclass__`` consumes names the class and our options."""
    with pytest.raises(TypeError, match=r"unknown option 'table' for data class 'C'"):
        class C(DataClass, table='c'):
            x: int


def test_mixin_after_dataclass_gets_the_keywords():
    """A plain mixin later in the MRO receives the keywords after the build."""
    class Tagged:
        def __init_subclass__(cls, /, *, tag=None, **kwargs):
            super().__init_subclass__(**kwargs)
            cls.tag = tag
            cls.seen = [f.name for f in fields(cls)]

    class C(DataClass, Tagged, tag='t', order=True):
        x: int

    assert (C.tag, C.seen) == ('t', ['x'])
    assert C(1) < C(2)


_OURS = ('init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only, slots, '
         'weakref_slot, cache_hash, gc, untrack_atomic')


class SchemaMeta(DataClassMeta):
    """Takes ``schema=`` in ``__init__`` (after the class exists), ``engine=``
    through ``**kwargs`` (declared), and ``stamp=`` in ``__new__`` (inherited)."""

    __class_keywords__ = ('engine',)

    def __new__(mcls, name, bases, namespace, /, **kwargs):
        engine = kwargs.pop('engine', None)
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        cls.engine = engine
        return cls

    def __init__(cls, name, bases, namespace, /, *, schema='public', **kwargs):
        super().__init__(name, bases, namespace, **kwargs)
        cls.schema = schema


class StampedSchemaMeta(SchemaMeta, StampedMeta):
    pass


def test_metaclass_keywords_are_taken():
    """Keywords of the metaclass's ``__init__`` and declared ones are not unknown."""
    class C(DataClass, metaclass=SchemaMeta, schema='s', engine='e', frozen=True):
        x: int

    assert (C.schema, C.engine, C(1)) == ('s', 'e', C(x=1))
    assert C.__dataclass_params__.frozen


@pytest.mark.parametrize('typo, owner, suggestion', [
    ('shema', 'SchemaMeta.__init__ takes schema', 'schema'),
    ('engin', 'SchemaMeta declares engine', 'engine'),
    ('stmp', 'StampedMeta.__new__ takes stamp', 'stamp'),
    ('frozn', 'StampedMeta.__new__ takes stamp', 'frozen'),
])
def test_misspelt_metaclass_keyword_is_listed_and_suggested(typo, owner, suggestion):
    """The error lists what every metaclass before ``DataClassMeta`` takes."""
    with pytest.raises(TypeError) as info:
        class Bad(DataClass, metaclass=StampedSchemaMeta, **{typo: 'x'}):
            pass
    assert str(info.value) == (
        f"unknown option {typo!r} for data class 'Bad': expected one of {_OURS}; "
        "SchemaMeta.__init__ takes schema; SchemaMeta declares engine; "
        f"StampedMeta.__new__ takes stamp. Did you mean {suggestion!r}?")
    assert owner in str(info.value)


def test_declared_keyword_on_a_framework_base():
    """A base whose ``__init_subclass__`` reads a keyword from ``**kwargs`` declares it."""
    class Registered(DataClass):
        __class_keywords__ = ('route',)

        def __init_subclass__(cls, /, **kwargs):
            cls.route = kwargs.pop('route', None)
            super().__init_subclass__(**kwargs)

    class Page(Registered, route='/p'):
        x: int

    assert (Page.route, Page(1)) == ('/p', Page(x=1))
    with pytest.raises(TypeError, match=r"; Registered declares route\. Did you mean 'route'\?$"):
        class Bad(Registered, rout='/b'):
            pass


@pytest.mark.parametrize('declared, message', [
    (('frozen',), "__class_keywords__ of 'Bad' names 'frozen', an option of data classes, "
                  "which DataClass takes first: rename the framework's keyword"),
    (('gc',), "__class_keywords__ of 'Bad' names 'gc', an option of data classes, "
              "which DataClass takes first: rename the framework's keyword"),
    ('table', "__class_keywords__ of 'Bad' must be a tuple of keyword names, not 'table'"),
    ((1,), "__class_keywords__ of 'Bad' names 1, which is not a keyword name"),
])
def test_bad_declared_keywords(declared, message):
    """A declaration naming one of our options (or no names) fails where it is written."""
    with pytest.raises(TypeError) as on_meta:
        class Bad(DataClassMeta):
            __class_keywords__ = declared
    with pytest.raises(TypeError) as on_base:
        class Bad(DataClass):
            __class_keywords__ = declared
    assert str(on_meta.value) == str(on_base.value) == message


def test_metaclass_keyword_goes_on_to_a_mixin_after_dataclass():
    """A mixin after ``DataClass`` still receives every keyword, as before."""
    class Mixin:
        def __init_subclass__(cls, /, *, schema=None, **kwargs):
            super().__init_subclass__(**kwargs)
            cls.seen = schema

    class C(DataClass, Mixin, metaclass=SchemaMeta, schema='s'):
        pass

    assert (C.seen, C.schema) == ('s', 's')


# -- 3. Option defaults on a framework base -------------------------------------

OPTIONS = st.fixed_dictionaries({}, optional={
    'repr': st.booleans(), 'eq': st.booleans(), 'order': st.booleans(),
    'kw_only': st.booleans(), 'slots': st.booleans(), 'match_args': st.booleans(),
}).filter(lambda o: not (o.get('order') and not o.get('eq', True)))


@settings(max_examples=40, deadline=None)
@given(OPTIONS)
def test_base_options_are_inherited(options):
    """What a framework base sets, every subclass has unless it says otherwise."""
    Base = make_dataclass('Base', [], **options)

    class C(Base):
        x: int

    class D(Base, kw_only=not options.get('kw_only', False)):
        y: int

    for name in ('repr', 'eq', 'order', 'kw_only', 'slots', 'match_args'):
        expected = options.get(name, name in ('repr', 'eq', 'match_args'))
        assert getattr(C.__dataclass_params__, name) is expected, name
    assert D.__dataclass_params__.kw_only is not options.get('kw_only', False)
    assert ('__slots__' in C.__dict__) is options.get('slots', False)


def test_frozen_framework_bases_come_in_pairs():
    """frozen is a promise to subclasses: a framework offering both has two bases."""
    class Behaviour:
        def describe(self):
            return f'{type(self).__name__} with {len(fields(self))} fields'

    class Model(Behaviour, DataClass):
        pass

    class FrozenModel(Behaviour, DataClass, frozen=True):
        pass

    class P(FrozenModel):
        x: int

    class Q(Model):
        x: int

    assert P(1).describe() == Q(1).describe().replace('Q', 'P')
    assert hash(P(1)) == hash(P(1))
    with pytest.raises(TypeError, match='cannot inherit frozen dataclass from a non-frozen'):
        class R(Model, frozen=True):
            x: int


# -- 4. A framework's own field specifier ----------------------------------------

class Column(Field):
    """A ``Field`` with the extra attributes of a column."""

    __slots__ = ('sql_type', 'primary_key')


def column(*, sql_type=None, primary_key=False, default=MISSING,
           default_factory=MISSING, init=True, repr=True, hash=None, compare=True,
           metadata=None, kw_only=MISSING, doc=None) -> typing.Any:
    """The framework's ``field()``: everything ``field()`` takes, plus its own."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
    f = Column(default, default_factory, init, repr, hash, compare, metadata,
               kw_only, doc)
    f.sql_type, f.primary_key = sql_type, primary_key
    return f


@dataclass_transform(field_specifiers=(column, Column))
class Row(DataClass):
    pass


def test_field_subclass_is_what_fields_returns(slots):
    """``fields()`` (ours and the stdlib's) return the specifier's own objects."""
    class User(Row, slots=slots):
        id: int = column(sql_type='INTEGER', primary_key=True, doc='row id')
        name: str = column(sql_type='TEXT', default='')
        tags: list = column(default_factory=list)

    id_, name, tags = fields(User)
    assert type(id_) is Column and dataclasses.fields(User)[0] is id_
    assert (id_.sql_type, id_.primary_key, id_.doc) == ('INTEGER', True, 'row id')
    assert (name.sql_type, name.default, tags.sql_type) == ('TEXT', '', None)
    assert User(1) == User(1, '', [])
    assert User(1).tags is not User(1).tags
    assert ('id' in User.__slots__) is slots
    assert getattr(User, 'name', None) == ('' if not slots else User.name)


def test_field_subclass_is_inherited_unchanged():
    """A subclass sees its parent's Field objects themselves."""
    class A(Row):
        id: int = column(primary_key=True)

    class B(A):
        extra: int = 0

    assert fields(B)[0] is fields(A)[0]
    assert isinstance(fields(B)[1], Field) and not isinstance(fields(B)[1], Column)


def test_field_specifier_checks_like_field():
    """The stdlib's errors hold for a framework's fields too."""
    with pytest.raises(ValueError, match='cannot specify both default and default_factory'):
        column(default=1, default_factory=list)
    with pytest.raises(ValueError, match="mutable default <class 'list'> for field x"):
        class C(Row):
            x: list = column(default=[])


def test_dataclass_transform_records_the_specifiers():
    """Type checkers read ``__dataclass_transform__`` from the framework base."""
    assert Row.__dataclass_transform__['field_specifiers'] == (column, Column)


# -- 5. The hook after the fields are final --------------------------------------

def test_init_subclass_after_super_sees_finished_class(slots):
    """After ``super().__init_subclass__()`` fields, methods and attributes exist."""
    seen = {}

    class Base(DataClass):
        def __init_subclass__(cls, /, **kwargs):
            seen['before'] = [f.name for f in fields(cls)] if '__dataclass_fields__' \
                in cls.__dict__ else None
            super().__init_subclass__(**kwargs)
            seen['after'] = [f.name for f in fields(cls)]
            seen['methods'] = {'__init__', '__repr__', '__eq__'} <= set(cls.__dict__)
            seen['match_args'] = cls.__match_args__
            seen['signature'] = str(inspect.signature(cls))

    class A(Base, slots=slots):
        x: int

    class B(A):
        y: int = 0

    assert seen == {'before': None, 'after': ['x', 'y'], 'methods': True,
                    'match_args': ('x', 'y'), 'signature': '(x: int, y: int = 0) -> None'}


def test_hook_runs_once_and_for_make_dataclass(slots):
    """One call per class, slotted or not, also for ``make_dataclass``."""
    calls = []

    class Base(DataClass):
        def __init_subclass__(cls, /, **kwargs):
            super().__init_subclass__(**kwargs)
            calls.append(cls.__name__)

    class A(Base, slots=slots):
        x: int

    make_dataclass('M', [('y', int)], bases=(Base,), slots=slots)
    assert calls == ['A', 'M']


# -- 6. Wrapping a generated method ---------------------------------------------

class Checked(DataClass):
    """Runs ``check()`` after every generated ``__init__``."""

    def __init_subclass__(cls, /, **kwargs):
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get('__init__')
        if init is not None:
            @functools.wraps(init)
            def __init__(self, /, *args, **kwargs):
                init(self, *args, **kwargs)
                self.check()
            cls.__init__ = __init__

    def check(self):
        for f in fields(self):
            if not isinstance(getattr(self, f.name), f.type):
                raise TypeError(f'{f.name} must be {f.type.__name__}')


def test_wrapped_init_keeps_the_generated_face(slots):
    """functools.wraps carries signature, names, annotations and docstring."""
    class P(Checked, slots=slots):
        x: int
        y: int = 0

    init = P.__init__
    assert str(inspect.signature(P)) == '(x: int, y: int = 0) -> None'
    assert init.__qualname__ == f'{P.__qualname__}.__init__' == init.__wrapped__.__qualname__
    assert init.__name__ == '__init__' and init.__module__ == __name__
    assert typing.get_type_hints(init) == {'x': int, 'y': int, 'return': type(None)}
    assert P.__doc__ == 'P(x: int, y: int = 0)'
    assert P(1, 2) == P(x=1, y=2)


def test_wrapped_init_runs_everywhere_construction_happens():
    """Construction, ``replace()`` and ``copy.replace`` all go through the wrapper."""
    class P(Checked):
        x: int

    with pytest.raises(TypeError, match='x must be int'):
        P('1')
    with pytest.raises(TypeError, match='x must be int'):
        replace(P(1), x='2')
    with pytest.raises(TypeError, match='x must be int'):
        P(1).__replace__(x='3')


def test_wrapped_init_keeps_the_interpreters_call_errors():
    """Bad calls still fail with the generated ``__init__``'s own wording."""
    class P(Checked):
        x: int

    with pytest.raises(TypeError, match=r"\.P\.__init__\(\) missing 1 required positional "
                                        r"argument: 'x'$"):
        P()
    with pytest.raises(TypeError, match='unexpected keyword argument'):
        P(1, z=2)


def test_each_class_wraps_only_its_own_init():
    """A subclass without an ``__init__`` of its own is not wrapped twice."""
    class A(Checked):
        x: int

    class B(A, init=False):
        y: int = 0

    assert B.__init__ is A.__init__
    assert inspect.unwrap(A.__init__) is A.__init__.__wrapped__


def test_replace_a_method_for_all_subclasses():
    """Turn the option off on the base and the base's own method is inherited."""
    class Base(DataClass, repr=False):
        def __repr__(self):
            return '<' + ' '.join(str(getattr(self, f.name)) for f in fields(self)) + '>'

    class P(Base):
        x: int
        y: int

    assert repr(P(1, 2)) == '<1 2>'
    assert '__repr__' not in P.__dict__


# -- 7. Another metaclass --------------------------------------------------------

class PluginMeta(type):
    """A third-party metaclass: registers classes and counts instances."""

    classes = []

    def __new__(mcls, name, bases, namespace, /, **kwargs):
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        mcls.classes.append(cls)
        return cls

    def __call__(cls, *args, **kwargs):
        instance = super().__call__(*args, **kwargs)
        cls.made = getattr(cls, 'made', 0) + 1
        return instance


class Plugin(metaclass=PluginMeta):
    def __init_subclass__(cls, /, *, plugin=None, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.plugin = plugin


class DataPluginMeta(DataClassMeta, PluginMeta):
    """Both metaclasses, cooperating through ``super()``."""


class PluginDataMeta(PluginMeta, DataClassMeta):
    """The other order works too."""


def test_without_a_combined_metaclass_python_refuses():
    """Two unrelated metaclasses conflict; deriving from both resolves it."""
    with pytest.raises(TypeError, match='metaclass conflict'):
        class P(DataClass, Plugin):
            x: int


@pytest.mark.parametrize('meta', [DataPluginMeta, PluginDataMeta])
def test_combined_metaclass(meta, slots):
    """Both metaclasses act; options and the framework's keyword both arrive."""
    class P(Plugin, DataClass, metaclass=meta, plugin='p', order=True, slots=slots):
        x: int

    assert PluginMeta.classes[-1] is P and P.plugin == 'p'
    assert P(1) < P(2) and P.made == 2
    assert ('__slots__' in P.__dict__) is slots
    assert isinstance(P, DataClassMeta) and isinstance(P, abc.ABCMeta)


def test_combined_metaclass_with_keyword_named_name():
    """The other metaclass still runs when a keyword is called ``name`` (3.10 too)."""
    class Both(Plugin, Registered, metaclass=DataPluginMeta, name='both', plugin='x'):
        x: int

    assert PluginMeta.classes[-1] is Both and Registered.registry['both'] is Both
    assert Both.plugin == 'x' and Both(1).x == 1


def test_combined_with_protocol_metaclass():
    """A data class that explicitly implements a ``typing.Protocol``."""
    @typing.runtime_checkable
    class Shape(typing.Protocol):
        def area(self) -> float: ...

    class DataProtocolMeta(DataClassMeta, type(Shape)):
        pass

    class Square(DataClass, Shape, metaclass=DataProtocolMeta, frozen=True):
        side: float

        def area(self) -> float:
            return self.side ** 2

    assert Square(3).area() == 9 and isinstance(Square(3), Shape)
    assert [f.name for f in fields(Square)] == ['side']


def test_hook_runs_before_abc_bookkeeping():
    """In the hook ``__abstractmethods__`` is not set yet; ``inspect.isabstract`` works."""
    seen = []

    class Base(DataClass):
        def __init_subclass__(cls, /, **kwargs):
            super().__init_subclass__(**kwargs)
            seen.append((inspect.isabstract(cls), '__abstractmethods__' in cls.__dict__))

    class Abstract(Base):
        x: int

        @abc.abstractmethod
        def run(self): ...

    class Concrete(Abstract):
        def run(self):
            return self.x

    assert seen == [(True, False), (False, False)]
    assert Abstract.__abstractmethods__ == frozenset({'run'}) and Concrete(1).run() == 1


# -- 8. Mixins before DataClass ------------------------------------------------

class YAMLWizard:
    """Shaped like dataclass-wizard's: takes its keyword, never calls ``super()``."""

    def __init_subclass__(cls, key_transform='lisp'):
        cls.key_transform = key_transform


class YAMLWizardKw:
    """The same with ``**kwargs`` (newer releases): our options reach it, and stop."""

    def __init_subclass__(cls, key_transform='lisp', **kwargs):
        cls.key_transform = key_transform


class EnvWizard:
    """Shaped like dataclass-wizard's: calls ``super()`` without the keywords."""

    def __init_subclass__(cls, *, reload=False, **kwargs):
        super().__init_subclass__()
        cls.reload = reload


def test_mixin_skipping_super_still_gives_a_data_class(slots):
    """``YAMLWizard`` before ``DataClass``: the class is built anyway, with its options."""
    class Config(YAMLWizardKw, DataClass, key_transform='camel', frozen=True, order=True,
                 slots=slots):
        name: str
        port: int = 80

    assert Config('a') == Config(name='a', port=80) and Config('a') < Config('b')
    assert Config.key_transform == 'camel' and [f.name for f in fields(Config)] == [
        'name', 'port']
    assert Config.__dataclass_params__.frozen and ('__slots__' in Config.__dict__) is slots
    with pytest.raises(dataclasses.FrozenInstanceError):
        Config('a').port = 1
    assert '__dataclass_options__' not in Config.__dict__

    class Plain(YAMLWizard, DataClass):
        x: int

    assert repr(Plain(1)).endswith('.Plain(x=1)') and Plain.key_transform == 'lisp'


def test_mixin_skipping_super_counts_abstract_methods_after_the_build():
    """The late build's methods count for ``abc``: a generated ``__repr__`` is concrete."""
    class Shown(abc.ABC):
        @abc.abstractmethod
        def __repr__(self): ...

    class C(YAMLWizard, DataClass, Shown):
        x: int

    assert C.__abstractmethods__ == frozenset() and repr(C(1)).endswith('.C(x=1)')


def test_mixin_dropping_the_keywords_does_not_drop_the_options(slots):
    """``EnvWizard`` passes nothing on: the statement's options hold all the same."""
    class Settings(EnvWizard, DataClass, reload=True, kw_only=True, eq=False, slots=slots):
        host: str = 'localhost'

    assert Settings.reload and Settings(host='h').host == 'h'
    with pytest.raises(TypeError, match='positional'):
        Settings('h')
    assert Settings(host='h') != Settings(host='h')  # eq=False: identity
    assert Settings.__dataclass_params__.kw_only and not Settings.__dataclass_params__.eq


def test_mixin_passing_options_of_its_own_wins():
    """A mixin may still set an option on purpose: what it passes overrides the statement."""
    class KeywordOnly:
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**{**kwargs, 'kw_only': True})

    class C(KeywordOnly, DataClass, kw_only=False, order=True):
        x: int

    assert C.__dataclass_params__.kw_only and C.__dataclass_params__.order
    assert C(x=1) < C(x=2)


def test_mixin_refusing_our_options_names_itself_and_the_order():
    """A mixin without ``**kwargs`` before ``DataClass`` gets ``frozen=``: Python's
    error, with where to name the mixin instead."""
    with pytest.raises(TypeError) as info:
        class Config(YAMLWizard, DataClass, frozen=True):
            x: int
    assert str(info.value).startswith(
        "YAMLWizard.__init_subclass__() got an unexpected keyword argument 'frozen'")
    hint = ("YAMLWizard.__init_subclass__ does not take the options of data class 'Config': "
            "name YAMLWizard after the data-class bases, so that DataClass takes them "
            "first, class Config(DataClass, YAMLWizard, ...)")
    assert hint in [*getattr(info.value, '__notes__', ()), *str(info.value).split('\n')[1:]]

    class Config(DataClass, YAMLWizard, frozen=True):  # the remedy works
        x: int

    assert Config(1).x == 1 and Config.__dataclass_params__.frozen


def test_mixin_skipping_a_framework_hook_is_an_error():
    """Where a skipped ``__init_subclass__`` was a framework's, nothing can run it later."""
    class Table(DataClass):
        def __init_subclass__(cls, /, *, table=None, **kwargs):
            super().__init_subclass__(**kwargs)
            cls.table = table

    with pytest.raises(TypeError) as info:
        class User(YAMLWizardKw, Table, table='users'):
            x: int
    assert str(info.value) == (
        "data class 'User' was not built: YAMLWizardKw.__init_subclass__ or one after it "
        "(Table) did not call super().__init_subclass__(**kwargs), so DataClass's did not "
        "run: name YAMLWizardKw after the data-class bases, class User(Table, "
        "YAMLWizardKw), or have it call super()")

    class User(Table, YAMLWizardKw, table='users'):  # the remedy works
        x: int

    assert (User.table, User(1).x, User.key_transform) == ('users', 1, 'lisp')

    class Tagged:
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)

    with pytest.raises(TypeError, match=r"so DataClass's and Tagged's did not run: name "
                                        r"YAMLWizardKw after the data-class bases, "
                                        r"class C\(DataClass, Tagged, YAMLWizardKw\)"):
        class C(YAMLWizardKw, DataClass, Tagged):
            pass


@pytest.mark.parametrize('after_super', [False, True])
def test_mixin_raising_leaves_nothing_behind(after_super, mortal_classes):
    """A mixin's own exception comes out as raised, naming the class (3.11+: a note),
    and the class it was given is not kept anywhere."""
    import gc
    import weakref

    class Failing:
        def __init_subclass__(cls, **kwargs):
            if after_super:
                super().__init_subclass__(**kwargs)
            Failing.made = weakref.ref(cls)
            raise LookupError('no such registry')

    with pytest.raises(LookupError) as info:
        class C(Failing, DataClass, frozen=True, slots=True):
            x: int
    assert str(info.value) == 'no such registry'
    if sys.version_info >= (3, 11):
        assert info.value.__notes__ == [
            "raised in test_mixin_raising_leaves_nothing_behind.<locals>.Failing."
            "__init_subclass__ while creating data class 'C'"]
    del info
    gc.collect()
    assert Failing.made() is None


def test_our_error_raised_through_a_mixin_gets_no_note():
    """An error of the pipeline stays as it was, whichever ``__init_subclass__`` called it."""
    class Base(DataClass):
        def __init_subclass__(cls, /, **kwargs):
            super().__init_subclass__(**kwargs)

    with pytest.raises(ValueError, match='^eq must be true if order is true$') as info:
        class C(Base, eq=False, order=True):
            pass
    assert not getattr(info.value, '__notes__', None)


def test_mixin_error_naming_the_class_gets_no_note():
    """A framework's own error that names the class needs no note (3.11+ adds none)."""
    class Registry:
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)
            raise TypeError(f'{cls.__name__!r} is registered twice: rename it')

    with pytest.raises(TypeError, match=r"^'Twice' is registered twice: rename it$") as info:
        class Twice(Registry, DataClass):
            pass
    assert not getattr(info.value, '__notes__', None)
