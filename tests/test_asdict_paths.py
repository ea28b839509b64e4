"""``asdict()``/``astuple()`` on every backend give the stdlib's results, errors,
reads and side effects: over nested lists, tuples, dicts, their subclasses
(namedtuple, defaultdict), data classes (ours and the stdlib's), deep-copied
objects, and custom factories."""

import collections
import dataclasses
import sys

import pytest
from hypothesis import given, settings, strategies as st

import dataclass_meta as dm
from dataclass_meta import DataClass, _backend

from .outcomes import outcome

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


def test_a_structure_containing_itself_raises_recursion_error(backend):
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
