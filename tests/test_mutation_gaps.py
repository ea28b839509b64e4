"""Behaviour that surviving mutants showed untested (see docs/reliability.md).

Each test pins down what a mutant of ``dataclass_meta`` changed without any test
noticing; most compare with ``@dataclasses.dataclass`` on the same definition.
"""

import dataclasses
import inspect
import pickle
import sys
import typing
from collections import OrderedDict, defaultdict, namedtuple
from dataclasses import MISSING
from typing import ClassVar, Generic, TypeVar

import pytest
from hypothesis import given, settings, strategies as st

import dataclass_meta
from dataclass_meta import (
    KW_ONLY, DataClass, FrozenInstanceError, InitVar, asdict, astuple, field, fields,
    is_dataclass, make_dataclass, replace)

# A module-level name bound to a string: a string annotation naming it must not
# send the ClassVar/InitVar detection into a loop.
Alias = 'Alias'
# 3.13's dataclasses is the contract; older ones differ in slots and weakref_slot.
STDLIB_CONTRACT = sys.version_info >= (3, 13)
T = TypeVar('T')


# -- field() options ------------------------------------------------------------------

def test_field_options_reach_the_field():
    """Every ``field()`` argument is stored on the Field, with the stdlib's defaults."""
    f = field()
    assert (f.default, f.default_factory, f.init, f.repr, f.hash, f.compare,
            f.kw_only, f.doc) == (MISSING, MISSING, True, True, None, True, MISSING, None)
    assert f.metadata == {}

    class C(DataClass):
        x: int = field(default=1, init=False, repr=False, hash=False, compare=False,
                       metadata={'unit': 'm'}, kw_only=True, doc='the x')

    (x,) = fields(C)
    assert (x.name, x.type, x.default, x.init, x.repr, x.hash, x.compare, x.kw_only,
            x.doc) == ('x', int, 1, False, False, False, False, True, 'the x')
    assert dict(x.metadata) == {'unit': 'm'}
    with pytest.raises(TypeError):
        x.metadata['unit'] = 'ft'  # read-only, as the stdlib's


@pytest.mark.parametrize('lib', [dataclass_meta, dataclasses], ids=['ours', 'stdlib'])
def test_repr_compare_hash_flags(lib):
    """``repr``/``compare``/``hash`` flags select the fields of each method."""
    class C(DataClass, frozen=True, order=True):
        a: int
        b: int = lib.field(default=0, repr=False)
        c: int = lib.field(default=0, compare=False)
        d: int = lib.field(default=0, hash=False)
        e: int = lib.field(default=0, compare=False, hash=True)

    assert repr(C(1, 2, 3, 4, 5)) == 'test_repr_compare_hash_flags.<locals>.C(a=1, c=3, d=4, e=5)'
    assert C(1, c=3) == C(1, c=4) and C(1, b=1) != C(1, b=2) and C(1, d=1) != C(1)
    assert C(1, c=9) < C(1, b=1) and not C(1, c=9) < C(1, c=0)
    assert hash(C(1, 2, 3, 4, 5)) == hash((1, 2, 5))


# -- field collection ---------------------------------------------------------------

def test_string_annotations_resolve_through_module_names():
    """``typing.ClassVar[...]`` and ``dataclasses.InitVar[...]`` strings are detected."""
    class C(DataClass):
        a: 'typing.ClassVar[int]' = 1
        b: 'dataclasses.InitVar[int]' = 2
        c: 'Alias' = 3
        d: 'sys.ClassVar' = 4  # sys has no ClassVar: a field
        e: 'nothing.ClassVar' = 5  # noqa: F821 - no such module
        f: '[int]' = 6

    assert [f.name for f in fields(C)] == ['c', 'd', 'e', 'f']
    assert C.__dataclass_fields__['b']._field_type is dataclasses._FIELD_INITVAR
    assert C.__dataclass_fields__['a']._field_type is dataclasses._FIELD_CLASSVAR


def test_string_annotation_in_unknown_module():
    """A class whose module is not imported still gets its string annotations as fields."""
    C = make_dataclass('C', [('x', 'ClassVar[int]')], module='no_such_module')
    assert [f.name for f in fields(C)] == ['x']


def test_field_types_and_class_defaults():
    """Fields keep their annotation; class attributes hold plain defaults, or nothing."""
    class C(DataClass):
        a: int
        d: float = field(repr=False)
        b: str = field(default='b')
        c: list = field(default_factory=list)

    assert [f.type for f in fields(C)] == [int, float, str, list]
    assert C.b == 'b' and 'c' not in C.__dict__ and 'd' not in C.__dict__


def test_fields_of_three_levels_in_base_first_order():
    """Fields merge over the whole MRO, base first, overrides keeping their place."""
    class A(DataClass):
        a: int = 1
        x: int = 0

    class B(A):
        b: int = 2

    class C(B):
        x: int = 9
        c: int = 3

    assert [(f.name, f.default) for f in fields(C)] == [
        ('a', 1), ('x', 9), ('b', 2), ('c', 3)]


def test_diamond_fields_match_stdlib():
    """Multiple inheritance collects fields in the stdlib's order."""
    def build(decorate, base=()):
        A = decorate(type('A', base, {'__annotations__': {'a': int}, 'a': 0}))
        B = decorate(type('B', (A,), {'__annotations__': {'b': int}, 'b': 0}))
        D = decorate(type('D', (A,), {'__annotations__': {'d': int}, 'd': 0}))
        E = decorate(type('E', (B, D), {'__annotations__': {'e': int}, 'e': 0}))
        return [f.name for f in dataclasses.fields(E)]

    assert build(lambda c: c, (DataClass,)) == build(dataclasses.dataclass)


def test_redeclared_slot_field_has_no_default():
    """Re-annotating a slotted parent's field does not take its slot as a default."""
    class P(DataClass, slots=True):
        x: int

    class C(P):
        x: int
        y: int

    assert fields(C)[0].default is MISSING and C(1, 2).x == 1


# -- generated methods ----------------------------------------------------------------

def test_generated_methods_look_hand_written():
    """Every generated method carries the class's module and qualname."""
    class C(DataClass, frozen=True, order=True):
        x: int

    for name in ('__init__', '__repr__', '__eq__', '__lt__', '__hash__', '__setattr__',
                 '__replace__'):
        method = C.__dict__[name]
        assert method.__module__ == __name__
        assert method.__qualname__ == f'{C.__qualname__}.{name}'
        assert method.__name__ == name


@pytest.mark.parametrize('n', [0, 1, 2])
def test_zero_one_and_two_field_classes(n):
    """repr, eq, order and hash work for zero, one and two fields."""
    C = make_dataclass('C', [f'f{i}' for i in range(n)], frozen=True, order=True)
    a, b = C(*range(n)), C(*range(1, n + 1))
    assert repr(a) == 'C(' + ', '.join(f'f{i}={i}' for i in range(n)) + ')'
    assert a == C(*range(n)) and (a != b) is bool(n) and (a < b) is bool(n)
    assert hash(a) == hash(tuple(range(n)))


def test_eq_field_by_field():
    """``==`` compares fields in order with ``==`` and returns the first false result."""
    nan = float('nan')

    class C(DataClass):
        a: object
        b: object

    assert C(1, 2) != C(1, 3) and C(1, 2) != C(0, 2) and C(1, 2) == C(1, 2)
    assert C(nan, 1) != C(nan, 1)  # 3.13: no identity shortcut per field
    c = C(nan, 1)
    assert c == c  # the instance itself
    assert C(1, 2).__eq__(object()) is NotImplemented

    class Vec:
        def __eq__(self, other):
            return 'falsy-but-not-bool' if False else ''

    assert C(Vec(), 1).__eq__(C(Vec(), 1)) == ''


def test_repr_recursion_guard():
    """A cycle prints ``...`` where it closes; repeated and nested reprs print in full."""
    class Node(DataClass):
        value: int
        next: object = None

    loop = Node(1)
    loop.next = loop
    assert repr(loop) == 'test_repr_recursion_guard.<locals>.Node(value=1, next=...)'
    assert repr(loop) == repr(loop)
    chain = Node(1, Node(2))
    assert repr(chain).count('Node(') == 2 and '...' not in repr(chain)


def test_frozen_rejects_new_and_deleted_attributes():
    """A frozen instance refuses assigning or deleting fields and other names alike."""
    class C(DataClass, frozen=True):
        x: int

    c = C(1)
    with pytest.raises(FrozenInstanceError, match="^cannot assign to field 'z'$"):
        c.z = 1
    with pytest.raises(FrozenInstanceError, match="^cannot delete field 'z'$"):
        del c.z
    with pytest.raises(FrozenInstanceError, match="^cannot delete field 'x'$"):
        del c.x


def test_replace_errors_name_the_right_field():
    """``replace()`` names the init=False field given, or the InitVar missing."""
    class C(DataClass):
        x: int
        iv: InitVar[int]
        y: int = field(init=False, default=0)

        def __post_init__(self, iv):
            pass

    c = C(1, 2)
    with pytest.raises(TypeError, match='^field y is declared with init=False'):
        replace(c, x=2, iv=1, y=3)
    with pytest.raises(TypeError, match="^InitVar 'iv' must be specified with replace"):
        replace(c, x=2)
    assert replace(c, iv=5) == c


def test_lazy_doc_and_explicit_doc():
    """``__doc__`` is the stdlib's text signature, computed on demand; a docstring wins."""
    class C(DataClass):
        x: int
        y: str = 'a'
        _: KW_ONLY
        z: list = field(default_factory=list)

    @dataclasses.dataclass
    class D:
        x: int
        y: str = 'a'
        _: KW_ONLY
        z: list = field(default_factory=list)

    assert C.__doc__ == 'C' + D.__doc__[1:] and C.__doc__ == C.__doc__

    class E(DataClass):
        """Mine."""
        x: int

    assert E.__doc__ == 'Mine.'


# -- __init__ -------------------------------------------------------------------------

def test_init_defaults_factories_init_false_and_initvars():
    """Keyword-only defaults, init=False factories, and InitVars in any position."""
    seen = []

    class C(DataClass):
        a: int
        iv: InitVar[int]
        b: list = field(default_factory=list)
        c: int = field(init=False, default=7)
        d: dict = field(init=False, default_factory=dict)
        _: KW_ONLY
        e: int = 5
        f: str = 'f'

        def __post_init__(self, iv):
            seen.append(iv)

    c = C(1, 2)
    assert (c.a, c.b, c.c, c.d, c.e, c.f, seen) == (1, [], 7, {}, 5, 'f', [2])
    assert C(1, 2).b is not c.b
    assert astuple(C(1, 3, [1], e=0)) == (1, [1], 7, {}, 0, 'f')
    assert astuple(C(1, 3, f='g')) == (1, [], 7, {}, 5, 'g')


def test_init_positional_with_keyword_only():
    """All positionals given together with keyword-only arguments bind correctly."""
    class C(DataClass):
        x: int
        y: int
        _: KW_ONLY
        z: int

    assert astuple(C(1, 2, z=3)) == (1, 2, 3)


@pytest.mark.parametrize('frozen', [False, True])
def test_slotted_defaults_and_init_false(frozen):
    """Slotted classes keep defaults (taken out of the namespace) and init=False values."""
    class C(DataClass, slots=True, frozen=frozen):
        x: int
        y: int = 5
        z: int = field(init=False, default=9)
        w: list = field(init=False, default_factory=list)

    c = C(1)
    assert (c.x, c.y, c.z, c.w) == (1, 5, 9, [])
    assert fields(C)[1].default == 5 and fields(C)[2].default == 9
    assert not hasattr(c, '__dict__')


def test_frozen_slotted_init_and_pickle():
    """A frozen slotted class stores through its slots and pickles with its state."""
    class C(DataClass, slots=True, frozen=True):
        x: int
        y: str = 'y'

    globals()['FrozenSlottedGap'] = C
    C.__qualname__ = 'FrozenSlottedGap'
    c = C(1)
    assert (c.x, c.y) == (1, 'y') and C.__getstate__(c) == [1, 'y']
    assert pickle.loads(pickle.dumps(c)) == c
    with pytest.raises(FrozenInstanceError):
        c.x = 2


def test_init_signature_and_annotations_match_stdlib():
    """``inspect.signature`` and ``__init__.__annotations__`` as the stdlib has them."""
    def spec(lib):
        return {'__annotations__': {'self': int, 'x': 'list[int]', 'y': str, '_': KW_ONLY,
                                    'z': float},
                'y': 'a', 'z': lib.field(default=0.5)}

    Ours = type('C', (DataClass,), {'__module__': __name__, **spec(dataclass_meta)})
    Theirs = dataclasses.dataclass(type('C', (), spec(dataclasses)))
    assert str(inspect.signature(Ours)) == str(inspect.signature(Theirs))
    assert str(inspect.signature(Ours.__init__)) == str(inspect.signature(Theirs.__init__))
    assert list(inspect.signature(Ours.__init__).parameters)[0] == '__dataclass_self__'
    annotations = Ours.__init__.__annotations__
    assert annotations['self'] is int and annotations['return'] is None
    assert annotations['x'] == 'list[int]'  # the string, as the stdlib keeps it
    assert typing.get_type_hints(Ours.__init__)['x'] == list[int]


@st.composite
def shapes_and_calls(draw):
    """A field layout (counts of each kind) and a call to its ``__init__``."""
    counts = draw(st.tuples(*[st.integers(0, 2)] * 4))
    names = [f'{k}{i}' for k, n in zip('abcd', counts) for i in range(n)]
    npos = draw(st.integers(0, len(names) + 2))
    keys = draw(st.lists(st.sampled_from(names + ['zz']), unique=True, max_size=4))
    return counts, npos, keys


def reference_init(counts):
    """A hand-written ``__init__`` of the same shape, for the interpreter's own errors."""
    a, b, c, d = ([f'{k}{i}' for i in range(n)] for k, n in zip('abcd', counts))
    params = a + [f'{n}=0' for n in b] + (['*'] if c or d else []) + c + [f'{n}=0' for n in d]
    namespace = {}
    exec(f"def __init__(self, {', '.join(params)}): return locals()", namespace)
    function = namespace['__init__']
    function.__qualname__ = 'C.__init__'
    return function


@settings(max_examples=150, deadline=None)
@given(shapes_and_calls())
def test_init_binds_like_a_hand_written_function(shape):
    """Any call binds, or fails with the same message, as a hand-written ``__init__``."""
    counts, npos, keys = shape
    a, b, c, d = ([f'{k}{i}' for i in range(n)] for k, n in zip('abcd', counts))
    specs = ([(n, int) for n in a] + [(n, int, field(default=0)) for n in b]
             + [(n, int, field(kw_only=True)) for n in c]
             + [(n, int, field(default=0, kw_only=True)) for n in d])
    C = make_dataclass('C', specs)
    args, kwargs = tuple(range(100, 100 + npos)), {k: i for i, k in enumerate(keys)}
    try:
        expected = reference_init(counts)(None, *args, **kwargs)
        expected.pop('self')
    except TypeError as exc:
        expected = str(exc)
    try:
        got = asdict(C(*args, **kwargs))
    except TypeError as exc:
        got = str(exc)
    assert got == expected


# -- slots ----------------------------------------------------------------------------

def _slots_both_ways(specs, **options):
    """Our last class and the stdlib's (3.13+, else None), for (name, parent indexes,
    annotations, options) specs."""
    result = []
    for ours in (True, False) if STDLIB_CONTRACT else (True,):
        made = []
        for name, parents, annotations, opts in specs:
            bases = tuple(made[i] for i in parents)
            namespace = {'__annotations__': annotations}
            if ours:
                made.append(type(name, bases or (DataClass,), namespace, **opts))
            else:
                made.append(dataclasses.dataclass(**opts)(type(name, bases, namespace)))
        result.append(made[-1])
    return (result + [None])[:2]


@pytest.mark.parametrize('specs, expected', [
    ([('P', (), {'x': int}, {'slots': True}), ('C', (0,), {'y': int}, {'slots': True})],
     ('y',)),
    ([('P', (), {'x': int}, {}), ('C', (0,), {'y': int}, {'slots': True})], ('x', 'y')),
    ([('P', (), {'x': int, 'v': InitVar[int], 'k': ClassVar[int]}, {}),
      ('C', (0,), {'y': int}, {'slots': True, 'weakref_slot': True})], ('x', 'y')),
    ([('P', (), {'x': int}, {'slots': True, 'weakref_slot': True}),
      ('C', (0,), {'y': int}, {'slots': True, 'weakref_slot': True})], ('y',)),
], ids=['slotted-parent', 'dict-parent', 'initvar-classvar-parent', 'weakref-twice'])
def test_slots_match_stdlib(specs, expected):
    """The slots a class adds are 3.13's, for parents slotted or not."""
    ours, theirs = _slots_both_ways(specs)
    assert tuple(ours.__slots__) == expected
    if STDLIB_CONTRACT:  # older stdlibs repeat inherited slots or lack weakref_slot
        assert tuple(theirs.__slots__) == expected


def test_slots_inherited_as_an_option():
    """A subclass of a slotted class is slotted too, adding only its own fields."""
    class Mixin:
        __slots__ = 'm'

    class P(Mixin, DataClass, slots=True, weakref_slot=True):
        x: int
        k: 'ClassVar[int]' = 3

    class C(P):
        y: int = 0

    assert C.__slots__ == ('y',) and C.k == 3 and 'k' not in P.__slots__
    c = C(1)
    assert not hasattr(c, '__dict__') and (c.x, c.y) == (1, 0)
    c.m = 5
    assert c.m == 5


def test_slot_docs_from_field_doc():
    """``field(doc=...)`` becomes the slot's docstring (3.14's behaviour)."""
    class C(DataClass, slots=True):
        x: int = field(doc='the x')
        y: int = 0

    assert C.__slots__ == {'x': 'the x', 'y': None}
    assert inspect.getdoc(C.x) == 'the x'


# -- hash, explicit methods, class attributes --------------------------------------------

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


@pytest.mark.parametrize('lib', ['ours', 'stdlib'])
def test_hash_with_eq_in_body_and_explicit_none(lib):
    """``__eq__`` in the body does not count as an explicit ``__hash__``; None does."""
    def make(namespace, **options):
        namespace = {'__annotations__': {'x': int}, **namespace}
        if lib == 'ours':
            return type('C', (DataClass,), namespace, **options)
        return dataclasses.dataclass(**options)(type('C', (), namespace))

    eq = make({'__eq__': lambda s, o: True}, frozen=True)
    assert eq.__hash__ is not None and hash(eq(1)) == hash((1,))
    none = make({'__hash__': None}, frozen=True)
    assert none.__hash__ is None


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


# -- options inherited and keywords passed on -----------------------------------------

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


# -- module-level functions -----------------------------------------------------------

def test_fields_and_is_dataclass():
    """``fields`` skips ClassVar and InitVar; ``is_dataclass`` takes classes and instances."""
    class C(DataClass):
        k: ClassVar[int] = 0
        x: int
        iv: InitVar[int] = 0

    assert [f.name for f in fields(C)] == [f.name for f in fields(C(1))] == ['x']
    assert is_dataclass(C) and is_dataclass(C(1)) and not is_dataclass(int)
    assert not is_dataclass(DataClass) and not is_dataclass(3)


class Pair(namedtuple('Pair', 'a b')):
    pass


def test_asdict_and_astuple_recurse_like_stdlib():
    """Nested classes, lists, tuples, namedtuples, dicts and subclasses, as the stdlib."""
    def build(deco, base):
        Inner = deco(type('Inner', base, {'__annotations__': {'v': int}}))
        Outer = deco(type('Outer', base, {'__annotations__': {'x': object}}))
        value = {'l': [Inner(1), (Inner(2),)], 'p': Pair(Inner(3), [4]),
                 'o': OrderedDict(a=Inner(6)),
                 'ls': type('L', (list,), {})([Inner(7)]), 'set': {1, 2}, 'none': None}
        return Outer(value), Outer(Inner(0))

    ours, theirs = build(lambda c: c, (DataClass,)), build(dataclasses.dataclass, ())
    for mine, std in zip(ours, theirs):
        assert asdict(mine) == dataclasses.asdict(std)
        assert astuple(mine) == dataclasses.astuple(std)
        assert asdict(mine, dict_factory=OrderedDict) == dataclasses.asdict(
            std, dict_factory=OrderedDict)
        assert astuple(mine, tuple_factory=list) == dataclasses.astuple(
            std, tuple_factory=list)
    copied = asdict(ours[0])['x']
    assert type(copied['p']) is Pair and copied['set'] is not ours[0].x['set']


def test_asdict_keeps_defaultdict_factory():
    """A defaultdict comes back as one with the same factory (the 3.12+ stdlib fix)."""
    class C(DataClass):
        d: dict

    inner = make_dataclass('Inner', ['v'])
    got = asdict(C(defaultdict(list, {'k': [inner(5)]})))['d']
    assert type(got) is defaultdict and got.default_factory is list
    assert got == {'k': [{'v': 5}]}


def test_make_dataclass_options_namespace_module_and_generics():
    """make_dataclass passes options, namespace, bases and module; keeps __orig_bases__."""
    C = make_dataclass('C', ['a', ('b', int), ('c', int, field(default=2))],
                       namespace={'double': lambda self: self.c * 2}, frozen=True,
                       order=True)
    assert C.__dataclass_params__.frozen
    assert C('a', 1).double() == 4 and C(1, 1) < C(1, 2)
    # 3.14+: typing.Any itself, through the class's annotate function
    assert fields(C)[0].type == ('typing.Any' if sys.version_info < (3, 14) else typing.Any)
    G = make_dataclass('G', [('x', 'T')], bases=(Generic[T],), module='somewhere')
    assert G.__module__ == 'somewhere' and G.__orig_bases__ == (Generic[T],)
    assert G[int](1).x == 1


def test_make_dataclass_module_is_the_callers():
    """Without ``module=``, the class belongs to the caller, and so pickles from there."""
    assert make_dataclass('C', ['x']).__module__ == __name__
    assert MadeHere.__module__ == __name__
    assert pickle.loads(pickle.dumps(MadeHere(1))) == MadeHere(1)


MadeHere = make_dataclass('MadeHere', [('x', int)])


# -- second round: survivors of the run after the tests above -------------------------

@pytest.mark.parametrize('ours', [True, False], ids=['ours', 'stdlib'])
def test_init_false_default_stays_on_the_class(ours):
    """An ``init=False`` field with a plain default is read from the class, not stored."""
    lib = dataclass_meta if ours else dataclasses
    namespace = {'__annotations__': {'x': int, 'y': int}, 'y': lib.field(init=False, default=3)}
    C = (type('C', (DataClass,), namespace) if ours
         else dataclasses.dataclass(type('C', (), namespace)))
    c = C(1)
    assert c.y == 3 and vars(c) == {'x': 1}


def test_init_signature_names_self():
    """``__init__``'s first parameter is ``self`` unless a field takes that name."""
    class C(DataClass):
        x: int

    assert str(inspect.signature(C.__init__)) == '(self, x: int) -> None'


def test_weakref_slot_on_a_root_class():
    """``weakref_slot=True`` adds the ``__weakref__`` slot, so instances take weakrefs."""
    import weakref

    class C(DataClass, slots=True, weakref_slot=True):
        x: int

    c = C(1)
    assert C.__slots__ == ('x', '__weakref__') and weakref.ref(c)() is c


def test_inherited_slots_seen_through_the_whole_mro():
    """Slots and ``__dict__``/``__weakref__`` anywhere above are not added again."""
    import weakref

    class Plain:
        pass

    class Named:
        __slots__ = 'mm'

    class A(Named, DataClass, slots=True):
        mm: int
        a: int

    class B(A):
        b: int

    class C(B):
        c: int

    assert (A.__slots__, B.__slots__, C.__slots__) == (('a',), ('b',), ('c',))
    assert C(1, 2, 3, 4).mm == 1

    class P(DataClass, Plain):
        p: int

    class Q(P, slots=True, weakref_slot=True):
        q: int

    assert Q.__slots__ == ('p', 'q') and weakref.ref(Q(1, 2))() is not None


def test_is_dataclass_looks_at_the_class():
    """An instance attribute named ``__dataclass_fields__`` does not make a data class."""
    import types
    assert not is_dataclass(types.SimpleNamespace(__dataclass_fields__={}))


def test_dict_keys_and_factories_like_stdlib():
    """Data-class dict keys go through the factory, in dicts and defaultdicts alike."""
    def build(ours):
        def make(name, annotations, **options):
            namespace = {'__annotations__': annotations}
            if ours:
                return type(name, (DataClass,), namespace, **options)
            return dataclasses.dataclass(type(name, (), namespace), **options)

        K = make('K', {'k': int}, frozen=True)
        C = make('C', {'d': dict, 'e': dict})
        return C({K(1): K(2)}, defaultdict(list, {K(3): [K(4)]}))

    ours = build(True)
    as_tuple = ({(1,): (2,)}, {(3,): [(4,)]})
    as_pairs = (('d', {(('k', 1),): (('k', 2),)}), ('e', {(('k', 3),): [(('k', 4),)]}))
    assert astuple(ours) == as_tuple
    assert asdict(ours, dict_factory=tuple) == as_pairs
    if STDLIB_CONTRACT:  # before 3.12 the stdlib could not rebuild a defaultdict
        theirs = build(False)
        assert dataclasses.astuple(theirs) == as_tuple
        assert dataclasses.asdict(theirs, dict_factory=tuple) == as_pairs


def test_asdict_deep_copies_other_values():
    """Values that are not containers or data classes are deep copies."""
    class Holder:
        def __init__(self, items):
            self.items = items

    class C(DataClass):
        h: object

    original = Holder([1])
    copied = asdict(C(original))['h']
    assert copied is not original and copied.items == [1]
    assert copied.items is not original.items


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


def test_doc_when_the_signature_cannot_be_read():
    """``__doc__`` falls back to the bare class name, as the stdlib's does."""
    class C(DataClass):
        x: int
        __signature__ = 'not a signature'

    assert C.__doc__ == 'C'
