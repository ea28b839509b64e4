"""Frozen slotted instances the collector does not walk while they hold only
atomic values (``untrack_atomic``), and every cycle still collected."""

import copy
import gc
import os
import pickle
import subprocess
import sys
import threading
import weakref

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from dataclass_meta import DataClass, field, replace
from functools import cached_property

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = [pytest.mark.usefixtures('backend'),
              pytest.mark.skipif(not hasattr(gc, 'is_tracked'),
                                 reason="PyPy's collector has no gc.is_tracked")]


def _untracks(backend):
    """Only the compiled core can untrack: Python code cannot."""
    return backend.name == 'compiled'


def _point():
    class Point(DataClass, frozen=True, slots=True, weakref_slot=True):
        x: object
        y: object = 0
    return Point


def _collected(make):
    """Whether the cycle ``make()`` builds, left unreachable, is collected:
    ``make`` returns a weak reference to one of its members."""
    gc.collect()
    ref = make()
    gc.collect()
    return ref() is None


# What counts as atomic ----------------------------------------------------


@pytest.mark.parametrize('value', [1, 2.5, 'text', b'bytes', None, True, 10 ** 40, 3j,
                                   frozenset({1}), range(3)])
def test_atomic_values_leave_the_instance_untracked(backend, value):
    Point = _point()
    atomic = type(value) is not frozenset or not gc.is_tracked(value)
    assert gc.is_tracked(Point(value)) is not (_untracks(backend) and atomic)


@pytest.mark.parametrize('make', [list, dict, set, lambda: [1], lambda: (1, [2]), lambda: {1: 2}])
def test_a_container_keeps_it_tracked(make):
    Point = _point()
    assert gc.is_tracked(Point(make()))


def test_nested_untracked_instances_are_atomic(backend):
    Point = _point()

    class Line(DataClass, frozen=True, slots=True):
        a: Point
        b: Point

    line = Line(Point(1, 2), Point(3, 4))
    assert gc.is_tracked(line) is not _untracks(backend)
    assert gc.is_tracked(Line(Point([]), Point(1)))  # a tracked point: not atomic


def test_tuples_count_once_the_collector_untracked_them(backend):
    Point = _point()
    pair = tuple([1, 2])
    gc.collect()  # the collector untracks a tuple of atomic values
    assert not gc.is_tracked(pair)
    assert gc.is_tracked(Point(pair)) is not _untracks(backend)


# Which classes -----------------------------------------------------------


@pytest.mark.parametrize('options', [dict(frozen=True), dict(slots=True), {},
                                     dict(frozen=True, slots=True, untrack_atomic=False),
                                     dict(frozen=True, slots=True, gc=True,
                                          untrack_atomic=False)])
def test_other_classes_stay_tracked(options):
    class C(DataClass, **options):
        x: int

    assert gc.is_tracked(C(1))


def test_gc_false_keeps_its_meaning(backend):
    class C(DataClass, frozen=True, slots=True, gc=False):
        x: object

    assert gc.is_tracked(C([])) is not _untracks(backend)


@pytest.mark.parametrize('entry', ['__new__', '__setstate__', '__reduce__', '__copy__',
                                   '__deepcopy__'])
def test_a_way_in_of_the_users_keeps_them_tracked(entry):
    methods = {'__new__': lambda cls, *a, **k: object.__new__(cls),
               '__setstate__': lambda self, state: None,
               '__reduce__': lambda self: (type(self), (1,)),
               '__copy__': lambda self: self,
               '__deepcopy__': lambda self, memo: self}

    class C(DataClass, frozen=True, slots=True):
        x: int
        locals()[entry] = methods[entry]

    assert gc.is_tracked(C(1))


def test_a_subclass_with_a_dict_is_tracked(backend):
    Point = _point()

    class Sub(Point, frozen=True, slots=False):  # instances have a __dict__
        z: int = 0

    assert gc.is_tracked(Sub(1))
    assert gc.is_tracked(Point(1)) is not _untracks(backend)


def test_untrack_atomic_is_inherited_and_can_be_turned_off(backend):
    class Base(DataClass, frozen=True, slots=True, untrack_atomic=False):
        x: int

    class Sub(Base):
        y: int = 0

    class Again(Base, untrack_atomic=True):
        z: int = 0

    assert Sub.__dataclass_params__.untrack_atomic is False
    assert gc.is_tracked(Sub(1))
    assert gc.is_tracked(Again(1)) is not _untracks(backend)


@pytest.mark.parametrize('options', [dict(frozen=True), {}])
def test_untrack_atomic_true_needs_a_slotted_class(options):
    with pytest.raises(TypeError, match=(
            "^data class 'C' has untrack_atomic=True but is not slotted: only a slotted "
            "instance keeps what it holds where the library sees it stored; add "
            "slots=True, or remove untrack_atomic$")):
        class C(DataClass, untrack_atomic=True, **options):
            x: int


# Every store the library owns decides again -------------------------------


def test_every_owned_path_decides(backend):
    Point = _point()
    globals()['Point'] = Point  # pickled by reference
    Point.__qualname__ = 'Point'
    try:
        atomic = Point(1, 'a')
        holding = Point([], 'a')
        made = {'call': atomic, 'keywords': Point(x=1, y='a'),
                'replace': replace(holding, x=2), '__replace__': holding.__replace__(x=2),
                'copy': copy.copy(atomic), 'deepcopy': copy.deepcopy(atomic),
                'pickle': pickle.loads(pickle.dumps(atomic))}
        for path, obj in made.items():
            assert gc.is_tracked(obj) is not _untracks(backend), path
        containing = {'replace': replace(atomic, x=[]), 'copy': copy.copy(holding),
                      'deepcopy': copy.deepcopy(holding),
                      'pickle': pickle.loads(pickle.dumps(holding))}
        for path, obj in containing.items():
            assert gc.is_tracked(obj), path
    finally:
        del globals()['Point']


def test_init_again_tracks_an_instance_that_gains_a_container():
    Point = _point()
    p = Point(1)
    p.__init__([])
    assert gc.is_tracked(p)


def test_post_init_stores_count(backend):
    class C(DataClass, frozen=True, slots=True):
        x: object
        derived: object = field(init=False, default=None)

        def __post_init__(self):
            object.__setattr__(self, 'derived', [self.x] if self.x == 'list' else 1)

    assert gc.is_tracked(C(0)) is not _untracks(backend)
    assert gc.is_tracked(C('list'))


def test_default_factories_and_converters_count(backend):
    class C(DataClass, frozen=True, slots=True):
        x: object = field(default_factory=list)
        y: int = field(default=0, converter=int)

    assert gc.is_tracked(C())
    assert gc.is_tracked(C(1, '2')) is not _untracks(backend)


def test_a_cached_property_store_tracks_again(backend):
    class C(DataClass, frozen=True, slots=True):
        x: int

        @cached_property
        def items(self):
            return [self.x]

    c = C(1)
    assert gc.is_tracked(c) is not _untracks(backend)
    assert c.items == [1]
    assert gc.is_tracked(c)


# Nothing leaks ------------------------------------------------------------


def test_cycles_through_every_owned_path_are_collected():
    Point = _point()

    def through(build):
        def make():
            box = []
            p = build(box)
            box.append(p)
            return weakref.ref(p)
        return make

    paths = [lambda box: Point(box), lambda box: Point(x=box),
             lambda box: replace(Point(1), x=box), lambda box: Point(1).__replace__(y=box),
             lambda box: copy.copy(Point(box)), lambda box: copy.deepcopy(Point(box, 1))]
    for build in paths:
        assert _collected(through(build))


def test_a_cycle_through_an_init_again_is_collected():
    Point = _point()

    def make():
        p = Point(1)
        box = [p]
        p.__init__(box)
        return weakref.ref(p)

    assert _collected(make)


def test_a_cycle_through_post_init_is_collected():
    class C(DataClass, frozen=True, slots=True, weakref_slot=True):
        x: int
        me: object = field(init=False, default=None)

        def __post_init__(self):
            object.__setattr__(self, 'me', [self])

    assert _collected(lambda: weakref.ref(C(1)))


@pytest.mark.parametrize('kind', ['frozen', 'mutable'])
def test_the_bypass_is_as_documented(backend, kind):
    """``object.__setattr__`` on an untracked instance (outside ``__post_init__``
    for a frozen one) is not seen: a cycle made so is not collected (compiled
    core), until broken by hand."""
    make, untracks = ((_point, _untracks) if kind == 'frozen'
                      else (_mutable, _untracks_mutable))
    Point = make()
    p = Point(1)
    box = [p]
    object.__setattr__(p, 'x', box)
    ref = weakref.ref(p)
    del p, box
    gc.collect()
    assert (ref() is not None) is untracks(backend)
    if ref() is not None:
        object.__setattr__(ref(), 'x', None)  # broken by hand: freed by refcount
    assert ref() is None


def test_threads_building_at_once():
    Point = _point()
    out = []

    def work():
        out.append([Point(i, str(i)) for i in range(2000)])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    tracked = {gc.is_tracked(p) for batch in out for p in batch}
    assert len(tracked) == 1
    assert sum(p.x for batch in out for p in batch) == 4 * sum(range(2000))


ATOMIC = st.one_of(st.integers(), st.floats(allow_nan=False), st.text(max_size=5),
                   st.none(), st.booleans(), st.binary(max_size=5))
VALUES = st.one_of(ATOMIC, st.lists(ATOMIC, max_size=2), st.dictionaries(st.text(max_size=2),
                                                                         ATOMIC, max_size=2))


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # the backend only
@given(x=VALUES, y=VALUES)
def test_tracked_exactly_when_something_is_not_atomic(backend, x, y):
    Point = _point()
    atomic = not isinstance(x, (list, dict)) and not isinstance(y, (list, dict))
    for obj in (Point(x, y), replace(Point(0), x=x, y=y), copy.copy(Point(x, y))):
        assert gc.is_tracked(obj) is not (_untracks(backend) and atomic)


# Mutable slotted classes that opt in (untrack_atomic=True) -----------------


def _untracks_mutable(backend):
    """A mutable class's opt-in needs the compiled core and 3.13+: before,
    ``object.__setattr__`` refuses an instance whose class has a C-level
    ``__setattr__``, so the class stays tracked there."""
    return _untracks(backend) and sys.version_info >= (3, 13)


def _mutable(**options):
    class Cell(DataClass, slots=True, weakref_slot=True, untrack_atomic=True, **options):
        x: object
        y: object = 0
    return Cell


def test_mutable_opt_in_untracks_until_a_container_is_assigned(backend):
    Cell = _mutable()
    c = Cell(1, 'a')
    assert gc.is_tracked(c) is not _untracks_mutable(backend)
    c.x = 2.5
    c.y = (1, 2)
    assert gc.is_tracked(c) is not _untracks_mutable(backend)
    c.x = [c]
    assert gc.is_tracked(c)
    c.x = 1  # tracked once a container was seen, as msgspec's Struct stays
    assert gc.is_tracked(c)
    del c.y
    assert (c.x, hasattr(c, 'y')) == (1, False)
    assert gc.is_tracked(Cell([])) and gc.is_tracked(Cell(1, {}))


def test_mutable_opt_in_assigns_as_the_stdlib_does(backend):
    Cell = _mutable()
    c = Cell(1)
    with pytest.raises(AttributeError):
        c.z = 1  # slotted: no such attribute
    c.x = 'v'
    assert c == Cell('v') and repr(c) == "_mutable.<locals>.Cell(x='v', y=0)"
    with pytest.raises(AttributeError):
        del c.z
    # only the opted-in class says so in its namespace
    assert ('__setattr__' in Cell.__dict__) is _untracks_mutable(backend)
    assert '__setattr__' not in _mutable.__globals__['DataClass'].__dict__


def test_a_cycle_made_by_assignment_is_collected():
    Cell = _mutable()

    def make():
        a, b = Cell(1), Cell(2)
        a.x = [b]
        b.y = a
        return weakref.ref(a)

    assert _collected(make)


def test_mutable_opt_in_owned_paths_decide(backend):
    Cell = _mutable()
    atomic, holding = Cell(1), Cell([])
    for obj in (copy.copy(atomic), copy.deepcopy(atomic), replace(holding, x=1)):
        assert gc.is_tracked(obj) is not _untracks_mutable(backend)
    for obj in (copy.copy(holding), replace(atomic, y={})):
        assert gc.is_tracked(obj)


def test_an_untracked_mutable_instance_is_not_an_atomic_value(backend):
    """A frozen record holding an opted-in mutable instance stays tracked: an
    assignment may give the inner one a container the outer would not see."""
    Cell = _mutable()

    class Frozen(DataClass, frozen=True, slots=True):
        inner: object

    assert gc.is_tracked(Frozen(Cell(1)))
    assert gc.is_tracked(Frozen(Frozen(1))) is not _untracks(backend)


def test_mutable_opt_in_is_inherited(backend):
    Cell = _mutable()

    class More(Cell):
        z: object = 0

    m = More(1)
    assert gc.is_tracked(m) is not _untracks_mutable(backend)
    m.z = []
    assert gc.is_tracked(m)


def test_a_class_that_assigns_another_way_stays_tracked(backend):
    Cell = _mutable()

    class Own(Cell):
        def __setattr__(self, name, value):
            object.__setattr__(self, name, value)

    class Converted(DataClass, slots=True, untrack_atomic=True):
        x: int = field(converter=int)

    class Off(Cell, untrack_atomic=False):
        pass

    for obj in (Own(1), Converted('1'), Off(1)):
        assert gc.is_tracked(obj), type(obj).__name__
    o = Own(1)
    o.x = 2
    assert o.x == 2


def test_a_gc_false_subclass_keeps_its_instances_untracked(backend):
    Cell = _mutable()

    class Quiet(Cell, gc=False):
        pass

    q = Quiet(1)
    q.x = [1]
    assert gc.is_tracked(q) is Quiet.__dataclass_params__.gc  # False: never tracked


def test_threads_assigning_containers_at_once():
    """Without the GIL, two threads may store a container into one untracked
    instance at once: it is tracked once, and nothing crashes."""
    Cell = _mutable()
    cells = [Cell(i) for i in range(500)]
    start = threading.Barrier(4)

    def work(k):
        start.wait()
        for c in cells:
            c.y = [k]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(gc.is_tracked(c) and len(c.y) == 1 for c in cells)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # the backend only
@given(first=VALUES, later=st.lists(st.tuples(st.sampled_from('xy'), VALUES), max_size=4))
def test_mutable_tracked_once_anything_held_was_not_atomic(backend, first, later):
    Cell = _mutable()
    c = Cell(first)
    seen = isinstance(first, (list, dict))
    for name, value in later:
        setattr(c, name, value)
        seen = seen or isinstance(value, (list, dict))
        assert gc.is_tracked(c) is not (_untracks_mutable(backend) and not seen)


_TRAVEL = r'''
import gc, pickle, sys
import cloudpickle
from dataclass_meta import DataClass

class Cell(DataClass, slots=True, untrack_atomic=True):
    x: object
    y: object = 0

if sys.argv[1] == 'send':
    sys.stdout.buffer.write(cloudpickle.dumps(Cell))
else:
    Arrived = pickle.loads(sys.stdin.buffer.read())
    c = Arrived(1)
    before = gc.is_tracked(c)
    c.x = [c]
    print(before, gc.is_tracked(c), Arrived(2) == Arrived(2))
'''


def test_an_opted_in_class_travels_by_value_with_cloudpickle(backend):
    """cloudpickle sends the class's slot wrappers as ``getattr(cls, name)``,
    which its skeleton answers with object's: the remade class installs its
    own, so assignment still tracks the instance again there."""
    pytest.importorskip('cloudpickle')
    env = {k: v for k, v in os.environ.items() if k != 'DATACLASS_META_PURE'}
    if backend.name == 'pure':
        env['DATACLASS_META_PURE'] = '1'
    sent = subprocess.run([sys.executable, '-c', _TRAVEL, 'send'], capture_output=True,
                          env=env, check=True).stdout
    got = subprocess.run([sys.executable, '-c', _TRAVEL, 'load'], input=sent,
                         capture_output=True, env=env, check=True).stdout.decode().split()
    assert got == [str(not _untracks_mutable(backend)), 'True', 'True']
