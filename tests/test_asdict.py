"""``asdict()`` and ``astuple()``: on every backend, the stdlib's results, errors,
reads and side effects, over nested lists, tuples, dicts, their subclasses
(namedtuple, defaultdict, frozendict), data classes (ours and the stdlib's),
deep-copied objects, and custom factories."""

import builtins
import collections
import dataclasses
import sys

import pytest
from hypothesis import given, settings, strategies as st

import dataclass_meta as dm
from dataclass_meta import DataClass, _backend, field

from .access_log import reads_match_the_stdlib
from .implementation import PYPY, mortal_classes, run_in_a_child  # noqa: F401
from .outcomes import define, outcome

BACKENDS = _backend.available()
# Before 3.12 the stdlib's asdict cannot rebuild a defaultdict (gh-79721).
STDLIB_DEFAULTDICT = sys.version_info >= (3, 12)

Pair = collections.namedtuple('Pair', 'a b')


class Items(list):
    pass


class Row(tuple):
    pass


class Table(dict):
    pass


class Box:
    """A value that asdict deep-copies; equal by value."""

    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return type(other) is Box and other.v == self.v

    __hash__ = None

    def __repr__(self):
        return f'Box({self.v!r})'


class Node(DataClass):
    a: object
    b: object = None


class Key(DataClass, frozen=True):
    k: int


@dataclasses.dataclass
class SNode:
    a: object
    b: object = None


def pairs(items):
    return ['pairs', items]


def tagged(values):
    return ['values', values]


DICT_FACTORIES = [dict, collections.OrderedDict, pairs]
TUPLE_FACTORIES = [tuple, list, tagged]

leaves = (st.none() | st.booleans() | st.integers() | st.text(max_size=3)
          | st.floats(allow_nan=False) | st.binary(max_size=2) | st.just(int)
          | st.builds(Box, st.integers()) | st.frozensets(st.integers(), max_size=2))
# A Key becomes a dict under asdict: unhashable as a key there (a TypeError).
keys = (st.integers() | st.text(max_size=2) | st.tuples(st.integers())
        | st.builds(Key, st.integers()))


def containers(children):
    some = st.lists(children, max_size=3)
    mapping = st.dictionaries(keys, children, max_size=3)
    return (some | some.map(tuple) | mapping | st.builds(Pair, children, children)
            | some.map(Items) | some.map(Row) | mapping.map(Table)
            | mapping.map(lambda d: collections.defaultdict(list, d))
            | st.builds(Node, children, children) | st.builds(SNode, children, children))


values = st.recursive(leaves, containers, max_leaves=12)


def shape(x):
    """``x`` with every type made visible (``==`` alone equates list and Items)."""
    if isinstance(x, dict):
        return (type(x), getattr(x, 'default_factory', None),
                [(shape(k), shape(v)) for k, v in x.items()])
    if isinstance(x, (list, tuple)):
        return type(x), [shape(v) for v in x]
    if isinstance(x, float):
        return float, repr(x)
    return type(x), x


def both(asdict, astuple, obj, dict_factory, tuple_factory):
    return (outcome(lambda: asdict(obj, dict_factory=dict_factory), shape),
            outcome(lambda: astuple(obj, tuple_factory=tuple_factory), shape))


@settings(max_examples=300, deadline=None)
@given(value=values, dict_factory=st.sampled_from(DICT_FACTORIES),
       tuple_factory=st.sampled_from(TUPLE_FACTORIES))
def test_every_backend_matches_the_stdlib(value, dict_factory, tuple_factory):
    """Same result (types included) or the same error, on each backend."""
    obj = Node(value, [value, Node(value)])
    stdlib = both(dataclasses.asdict, dataclasses.astuple, obj, dict_factory, tuple_factory)
    for backend in BACKENDS:
        with _backend.use(backend):
            ours = both(dm.asdict, dm.astuple, obj, dict_factory, tuple_factory)
        if STDLIB_DEFAULTDICT or 'defaultdict(' not in repr(value):
            assert ours == stdlib, backend
        with _backend.use(_backend.PURE):
            assert ours == both(dm.asdict, dm.astuple, obj, dict_factory, tuple_factory)


def _logged_tree(ours, log):
    """Outer/Inner as ``DataClass`` or ``@dataclass``, logging every read, with a
    value that logs its deep copy; nested through a list, tuple, dict and namedtuple."""
    def logging_getattribute(self, name):
        log.append((type(self).__name__, name))
        return object.__getattribute__(self, name)

    class Copied:
        def __deepcopy__(self, memo):
            log.append(('deepcopy',))
            return 'copied'

    if ours:
        class Inner(DataClass):
            x: object
            y: object = None
            __getattribute__ = logging_getattribute

        class Outer(DataClass):
            a: object
            b: object
            c: object
            __getattribute__ = logging_getattribute
    else:
        @dataclasses.dataclass
        class Inner:
            x: object
            y: object = None
            __getattribute__ = logging_getattribute

        @dataclasses.dataclass
        class Outer:
            a: object
            b: object
            c: object
            __getattribute__ = logging_getattribute
    return Outer(Inner(1, Copied()), [Inner(2), (Inner(3, [Inner(4)]),)],
                 {'k': Inner(5), 'p': Pair(Inner(6), Copied())})


@pytest.mark.parametrize('call', [
    lambda m, x: m.asdict(x), lambda m, x: m.astuple(x),
    lambda m, x: m.asdict(x, dict_factory=collections.OrderedDict),
    lambda m, x: m.astuple(x, tuple_factory=list),
], ids=['asdict', 'astuple', 'asdict-factory', 'astuple-factory'])
@pytest.mark.parametrize('backend', [pytest.param(b, id=b.name) for b in BACKENDS])
def test_reads_and_deep_copies_in_the_stdlibs_order(backend, call):
    """``__dataclass_fields__`` then each field, once, in order, each value
    converted (and deep-copied) before the next is read."""
    results = []
    for ours in (False, True):
        log = []
        tree = _logged_tree(ours, log)
        del log[:]
        with _backend.use(backend):
            result = call(dm if ours else dataclasses, tree)
        results.append((result, log))
    assert results[1] == results[0]
    assert ('Outer', '__dataclass_fields__') in results[1][1]


def test_a_changed_fields_dict_is_seen(backend):
    """A class whose ``__dataclass_fields__`` is replaced converts its new fields."""
    class C(DataClass):
        x: int
        y: int = 2

    c = C(1)
    assert dm.asdict(c) == {'x': 1, 'y': 2} and dm.astuple(c) == (1, 2)
    C.__dataclass_fields__ = {'x': C.__dataclass_fields__['x']}
    assert dm.asdict(c) == dataclasses.asdict(c) == {'x': 1}
    assert dm.astuple(c) == dataclasses.astuple(c) == (1,)


def test_errors_from_reads_and_factories_pass_through(backend):
    """An unset slot, a failing factory: the stdlib's exceptions, unchanged."""
    class S(DataClass, slots=True):
        x: int

    s = object.__new__(S)
    with pytest.raises(AttributeError) as ours:
        dm.asdict(Node([s]))
    with pytest.raises(AttributeError) as stdlib:
        dataclasses.asdict(Node([s]))
    assert str(ours.value) == str(stdlib.value)

    def failing(items):
        raise ValueError(len(items))
    with pytest.raises(ValueError, match='^2$'):
        dm.asdict(Node(1), dict_factory=failing)
    with pytest.raises(ValueError, match='^2$'):
        dm.astuple(Node(1), tuple_factory=failing)


def cycles_raise_recursion_error():
    """As the stdlib's recursion does, not a crash."""
    loop = []
    loop.append(loop)
    node = Node(None)
    node.a = [node]
    for obj in (Node(loop), node):
        with pytest.raises(RecursionError):
            dm.asdict(obj)
        with pytest.raises(RecursionError):
            dm.astuple(obj)


def test_a_structure_containing_itself_raises_recursion_error(backend):
    if not PYPY:
        cycles_raise_recursion_error()
        return
    # PyPy can abort on a stack overflow in its own code: see run_in_a_child.
    printed = run_in_a_child(
        'import tests.test_asdict as t; from dataclass_meta import _backend\n'
        f'with _backend.use({{b.name: b for b in _backend.available()}}[{backend.name!r}]):\n'
        '    t.cycles_raise_recursion_error()\n'
        '    print(_backend.current().name)')
    assert printed == backend.name + '\n'


def test_a_dict_changed_meanwhile_raises_as_its_iterator_does(backend):
    """A value whose deep copy adds a key: the dict iterator's RuntimeError."""
    table = {}

    class Grows:
        def __deepcopy__(self, memo):
            table['new'] = 0
            return self

    table['g'] = Grows()
    with pytest.raises(RuntimeError) as ours:
        dm.asdict(Node(table))
    del table['new']
    with pytest.raises(RuntimeError) as stdlib:
        dataclasses.asdict(Node(table))
    assert str(ours.value) == str(stdlib.value)


def test_partial_results_reachable_through_gc_are_whole(backend):
    """A deep copy that walks ``gc.get_objects()`` meets the results being built
    (the stdlib's are lists); it may copy them without meeting empty slots."""
    import gc

    class Walker:
        def __deepcopy__(self, memo):
            for o in gc.get_objects():
                if type(o) in (tuple, list):
                    o[:]
            return self

        def __eq__(self, other):
            return type(other) is Walker

        __hash__ = object.__hash__

    w = Walker()
    for calls in ((dm.astuple, dataclasses.astuple), (dm.asdict, dataclasses.asdict)):
        for obj in (Node(w), Node((1, w, 2)), Node([w, 3])):
            assert calls[0](obj) == calls[1](obj)
        ours = calls[0](Node(w), **{('tuple_factory' if calls[0] is dm.astuple
                                      else 'dict_factory'): list})
        stdlib = calls[1](Node(w), **{('tuple_factory' if calls[1] is dataclasses.astuple
                                       else 'dict_factory'): list})
        assert ours == stdlib


# -- nested values, factories, the class cache ----------------------------------------

class Child(DataClass):
    name: str
    tags: list = field(default_factory=list)


class Parent(DataClass):
    child: Child
    children: list
    by_name: dict
    pair: Pair
    counts: collections.defaultdict
    extra: object = None


def _parent():
    counts = collections.defaultdict(int, {'a': 1})
    return Parent(Child('c', ['x']), [Child('d'), Child('e')], {'k': Child('f')},
                  Pair(Child('g'), 1), counts, extra={1, 2})


def _stdlib_safe(p):
    """Before 3.12 the stdlib's asdict cannot rebuild a defaultdict (gh-79721)."""
    return dm.replace(p, counts={'a': 1}) if sys.version_info < (3, 12) else p


def test_asdict_and_astuple_match_stdlib(backend):
    """Nested data classes, lists, dicts, namedtuples and defaultdicts recurse alike."""
    p = _stdlib_safe(_parent())
    assert dm.asdict(p) == dataclasses.asdict(p)
    assert dm.astuple(p) == dataclasses.astuple(p)
    p = _parent()
    d = dm.asdict(p)
    assert d['child'] == {'name': 'c', 'tags': ['x']}
    assert type(d['pair']) is Pair and type(d['counts']) is collections.defaultdict
    assert d['counts'].default_factory is int
    assert d['extra'] == {1, 2} and d['extra'] is not p.extra  # deep-copied


def test_asdict_factories(backend):
    """``dict_factory`` and ``tuple_factory`` are applied at every level."""
    p = _stdlib_safe(_parent())
    assert dm.asdict(p, dict_factory=collections.OrderedDict) == \
        dataclasses.asdict(p, dict_factory=collections.OrderedDict)
    assert dm.astuple(p, tuple_factory=list) == dataclasses.astuple(p, tuple_factory=list)


@pytest.mark.skipif(not hasattr(builtins, 'frozendict'), reason='frozendict is new in 3.15')
def test_asdict_and_astuple_rebuild_frozendicts(backend):
    """3.15's ``frozendict`` values are rebuilt with their contents converted."""
    frozendict = builtins.frozendict

    @dataclasses.dataclass
    class SUser:
        name: str

    @dataclasses.dataclass
    class SGroup:
        users: frozendict

    class User(DataClass):
        name: str

    class Group(DataClass):
        users: frozendict

    std = SGroup(frozendict({'a': SUser('Ann')}))
    ours = Group(frozendict({'a': User('Ann')}))
    assert dm.asdict(ours) == dataclasses.asdict(std) == {'users': {'a': {'name': 'Ann'}}}
    assert type(dm.asdict(ours)['users']) is frozendict
    assert dm.astuple(ours) == dataclasses.astuple(std) == (frozendict({'a': ('Ann',)}),)


def test_asdict_cache_keeps_no_class_alive(backend, mortal_classes):
    """After ``asdict``/``astuple``, a dropped class is still garbage collected."""
    import gc
    import weakref

    class Temp(DataClass):
        x: int
        kind: type = int

    dm.asdict(Temp(1)), dm.astuple(Temp(2))
    ref = weakref.ref(Temp)
    del Temp
    gc.collect()
    assert ref() is None


class SubPair(collections.namedtuple('SubPair', 'a b')):
    pass


def test_asdict_and_astuple_recurse_like_stdlib():
    """Nested classes, lists, tuples, namedtuples, dicts and subclasses, as the stdlib."""
    def build(deco, base):
        Inner = deco(type('Inner', base, {'__annotations__': {'v': int}}))
        Outer = deco(type('Outer', base, {'__annotations__': {'x': object}}))
        value = {'l': [Inner(1), (Inner(2),)], 'p': SubPair(Inner(3), [4]),
                 'o': collections.OrderedDict(a=Inner(6)),
                 'ls': type('L', (list,), {})([Inner(7)]), 'set': {1, 2}, 'none': None}
        return Outer(value), Outer(Inner(0))

    ours, theirs = build(lambda c: c, (DataClass,)), build(dataclasses.dataclass, ())
    for mine, std in zip(ours, theirs):
        assert dm.asdict(mine) == dataclasses.asdict(std)
        assert dm.astuple(mine) == dataclasses.astuple(std)
        assert dm.asdict(mine, dict_factory=collections.OrderedDict) == dataclasses.asdict(
            std, dict_factory=collections.OrderedDict)
        assert dm.astuple(mine, tuple_factory=list) == dataclasses.astuple(
            std, tuple_factory=list)
    copied = dm.asdict(ours[0])['x']
    assert type(copied['p']) is SubPair and copied['set'] is not ours[0].x['set']


def test_asdict_keeps_defaultdict_factory():
    """A defaultdict comes back as one with the same factory (the 3.12+ stdlib fix)."""
    class C(DataClass):
        d: dict

    inner = dm.make_dataclass('Inner', ['v'])
    got = dm.asdict(C(collections.defaultdict(list, {'k': [inner(5)]})))['d']
    assert type(got) is collections.defaultdict and got.default_factory is list
    assert got == {'k': [{'v': 5}]}


def test_dict_keys_and_factories_like_stdlib():
    """Data-class dict keys go through the factory, in dicts and defaultdicts alike."""
    def build(ours):
        K = define(ours, 'K', {'__annotations__': {'k': int}}, frozen=True)
        C = define(ours, 'C', {'__annotations__': {'d': dict, 'e': dict}})
        return C({K(1): K(2)}, collections.defaultdict(list, {K(3): [K(4)]}))

    ours = build(True)
    as_tuple = ({(1,): (2,)}, {(3,): [(4,)]})
    as_pairs = (('d', {(('k', 1),): (('k', 2),)}), ('e', {(('k', 3),): [(('k', 4),)]}))
    assert dm.astuple(ours) == as_tuple
    assert dm.asdict(ours, dict_factory=tuple) == as_pairs
    if STDLIB_DEFAULTDICT:  # before 3.12 the stdlib could not rebuild a defaultdict
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
    copied = dm.asdict(C(original))['h']
    assert copied is not original and copied.items == [1]
    assert copied.items is not original.items


# -- reads and side effects, in order -------------------------------------------------

test_asdict_and_astuple_read_as_the_stdlib = reads_match_the_stdlib('asdict', 'astuple')
