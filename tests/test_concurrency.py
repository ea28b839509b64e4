"""Threads: defining classes and using instances at once, with no error or wrong result."""

import copy
import pickle
import sys
import threading
import time
from types import SimpleNamespace

import pytest

from dataclass_meta import (DataClass, _backend, asdict, astuple, field, fields,
                            make_dataclass, replace)
from .reliability_helpers import (
    Frozen, FrozenSlotted, Nested, Node, Point, Slotted, SlowRepr, sample)

THREADS = 8
SECONDS = 2.0  # a bound on the main run, not an assertion: threads stop by themselves


@pytest.fixture
def busy_switching():
    """Switch threads every few microseconds, so they interleave inside methods."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(old)


def together(run, threads=THREADS):
    """Run ``run(index)`` once in each of ``threads`` threads, released at once by a
    barrier; return the errors raised."""
    start, errors = threading.Barrier(threads), []

    def target(index):
        try:
            start.wait()
            run(index)
        except BaseException as exc:  # noqa: BLE001 - reported by the caller
            errors.append(exc)

    workers = [threading.Thread(target=target, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return errors


def run_threads(work, seconds=SECONDS / 2):
    """Run ``work(index)`` in a loop in THREADS threads for ``seconds``; return the
    loop counts and the errors."""
    deadline = time.monotonic() + seconds
    counts = [0] * THREADS

    def loop(index):  # once at least: a loaded machine may start a thread late
        while True:
            work(index)
            counts[index] += 1
            if time.monotonic() >= deadline:
                break

    return counts, together(loop)


def define_and_use(index):
    """Define a class with options picked by thread and exercise every method."""
    frozen, slots = index % 2 == 0, index % 4 < 2
    name = f'T{index}'

    class Base(DataClass, frozen=frozen, slots=slots, order=True):
        x: int
        tag: str = name

    class Child(Base):
        y: list = field(default_factory=list, compare=False, hash=False)

    a, b = Child(1, y=[index]), Child(2)
    assert (a < b, a == Child(1), a != b) == (True, True, True)
    assert repr(a) == f"define_and_use.<locals>.Child(x=1, tag='{name}', y=[{index}])"
    if frozen:
        assert hash(a) == hash(Child(1, y=['other'])) == hash((1, name))
    else:
        assert Child.__hash__ is None
    assert [f.name for f in fields(Child)] == ['x', 'tag', 'y']
    assert asdict(replace(a, x=5)) == {'x': 5, 'tag': name, 'y': [index]}
    assert Child.__dataclass_params__.frozen is frozen
    assert hasattr(a, '__dict__') is not slots


def test_threads_define_and_use_classes(busy_switching):
    """Eight threads define classes and compare/hash/repr/replace their instances."""
    counts, errors = run_threads(define_and_use, SECONDS)
    assert errors == []
    assert all(counts)


def use_shared(index):
    """Use module-level instances that all threads share: results never vary."""
    point, frozen = Point(index, 1), Frozen('f', (index,))
    assert point == Point(index, 1) and point < Point(index + 1)
    assert hash(frozen) == hash(Frozen('f', (index,)))
    assert repr(FrozenSlotted(index)) == f"FrozenSlotted(x={index}, y=0.5, label='p')"
    for obj in sample():
        assert pickle.loads(pickle.dumps(obj)) == obj
    nested = Nested(point, frozen, Slotted(index))
    assert pickle.loads(pickle.dumps(nested)) == nested


def test_threads_pickle_and_compare_shared_classes(busy_switching):
    """Pickling, hashing and comparing instances of shared classes from eight threads."""
    counts, errors = run_threads(use_shared)
    assert errors == []
    assert all(counts)


LOOP = Node(SlowRepr())
LOOP.next = LOOP


def repr_shared_cycle(index):
    """A cycle printed by every thread: ``...`` only where the cycle closes."""
    assert repr(LOOP) == 'Node(value=slow, next=...)'
    own = Node(index, Node(SlowRepr()))
    own.next.next = own
    assert repr(own) == f'Node(value={index}, next=Node(value=slow, next=...))'


def test_repr_recursion_guard_is_per_thread(busy_switching):
    """One thread inside ``repr(x)`` does not make ``repr(x)`` print ``...`` in another."""
    counts, errors = run_threads(repr_shared_cycle)
    assert errors == []
    assert all(counts)


def test_threads_subclass_one_parent(busy_switching):
    """Subclasses defined at once under one parent all get their own, complete fields."""
    class Parent(DataClass, frozen=True):
        a: int

    made = [[] for _ in range(THREADS)]

    def subclass(index):
        class Sub(Parent):
            b: int = index

        assert [f.name for f in fields(Sub)] == ['a', 'b']
        assert Sub(1) == Sub(1, index) and Sub(1).b == index
        made[index].append(Sub)

    counts, errors = run_threads(subclass)
    assert errors == [] and all(counts)
    assert [f.name for f in fields(Parent)] == ['a']
    alive = set(Parent.__subclasses__())
    assert alive >= {cls for per_thread in made for cls in per_thread}


def test_threads_construct_while_the_class_changes(busy_switching):
    """Threads construct one slotted class (positionally, by keyword, with a
    default factory) while one thread keeps assigning to the class (its
    ``__init__`` swapped between two, a counter on it): every instance is
    complete and made by one of the two, whichever was the class's then (the
    compiled core's per-class plan is replaced under them)."""
    class C(DataClass, slots=True):
        x: int
        y: int = 0
        z: list = field(default_factory=list)

    generated = C.__init__

    def logged(self, x, y=0, z=None):
        generated(self, x, y, [] if z is None else z)
        self.z.append('logged')

    def work(index):
        if index == 0:
            C.__init__ = logged if C.__init__ is generated else generated
            C.counter = index
            return
        for obj in (C(index, index), C(x=index), C(index, y=index, z=[index])):
            assert obj.x == index and obj.y in (0, index)
            assert obj.z in ([], ['logged'], [index], [index, 'logged'])

    counts, errors = run_threads(work)
    assert errors == [] and all(counts)
    C.__init__ = generated
    assert (C(1, 2).x, C(1, 2).y, C(1, 2).z) == (1, 2, [])


def test_threads_compare_while_the_class_changes(busy_switching):
    """Threads compare and hash instances of one frozen slotted class while one
    thread keeps replacing what the compiled core looks up on the class: its
    ``__eq__`` and ``__hash__`` (swapped with another class's generated ones) and
    a field's slot descriptor (swapped with a fresh property over the slot,
    released at the next swap). Every answer is the stdlib's whichever was the
    class's then. (The compiled core holds its own reference to what such a
    lookup found; a borrowed one could be released by the swapping thread
    without the GIL. That race is too narrow for this test to catch reliably.)"""
    class P(DataClass, frozen=True, slots=True):
        x: int
        y: int

    class Q(DataClass, frozen=True, slots=True):
        x: int
        y: int

    member = P.__dict__['x']
    own = (P.__eq__, P.__hash__)

    def work(index):
        if index == 0:
            swapped = P.__dict__['x'] is member
            type.__setattr__(P, 'x', property(member.__get__, member.__set__) if swapped
                              else member)
            P.__eq__, P.__hash__ = (Q.__eq__, Q.__hash__) if swapped else own
            return
        a, b = P(index, 2), P(index, 2)
        assert a == b and not a != b and a != P(index, 3)
        assert hash(a) == hash(b) == hash((index, 2))

    counts, errors = run_threads(work)
    assert errors == [] and all(counts)
    type.__setattr__(P, 'x', member)
    P.__eq__, P.__hash__ = own
    assert P(1, 2) == P(1, 2) and hash(P(1, 2)) == hash((1, 2))


# The stress test: threads released together (a barrier) define classes with
# every option (on shared bases, and by make_dataclass), use classes they share
# (construct, ==, <, hash with cache_hash computed for the first time by all at
# once, repr of a cycle, asdict/astuple/replace, pickle, deepcopy) and mutate
# instances they share. Each thread's results must be those of the same work
# run in one thread; a free-threaded build runs it without the GIL.

STRESS_THREADS = 4
STRESS_ROUNDS = 6

# Option sets for the classes the threads define: (base, options).
MUTABLE_OPTIONS = [{}, {'order': True}, {'slots': True}, {'slots': True, 'weakref_slot': True},
                   {'kw_only': True}, {'match_args': False}, {'eq': False, 'order': False},
                   {'unsafe_hash': True}, {'repr': False}, {'gc': False},
                   {'slots': True, 'order': True, 'unsafe_hash': True, 'cache_hash': True}]
FROZEN_OPTIONS = [{}, {'slots': True}, {'cache_hash': True}, {'order': True, 'slots': True},
                  {'cache_hash': True, 'slots': True, 'weakref_slot': True}]


def shared_classes(suffix):
    """The classes every thread uses, named (and found by pickle) per backend."""
    class Base(DataClass, order=True):
        a: int
        b: str = 'b'

    class FrozenBase(DataClass, frozen=True, cache_hash=True, slots=True, order=True):
        x: int
        tags: tuple = ()

    class Box(DataClass, slots=True):
        value: object
        items: list = field(default_factory=list)

    made = SimpleNamespace()
    for cls in (Base, FrozenBase, Box):
        cls.__name__ = cls.__qualname__ = f'{cls.__name__}_{suffix}'
        globals()[cls.__name__] = cls
        setattr(made, cls.__name__.rpartition('_')[0], cls)
    return made


def outcome_of(call):
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - compared like any result
        return f'{type(exc).__name__}: {exc}'


def define_classes(index, shared):
    """Classes with every option, defined on the shared bases and by make_dataclass;
    what their instances do, as plain data."""
    results = []
    for base, option_sets in ((shared.Base, MUTABLE_OPTIONS), (shared.FrozenBase, FROZEN_OPTIONS)):
        for options in option_sets:
            class C(base, **options):
                c: int = index

            args = (index, 'x') if base is shared.Base else (index, (index,))
            one, two = outcome_of(lambda: C(*args)), outcome_of(lambda: C(*args, c=-1))
            if isinstance(one, str):
                results.append(one)
                continue
            results += [repr(one) if options.get('repr', True) else 'no repr',
                        one == C(*args), one != two, outcome_of(lambda: one < two),
                        outcome_of(lambda: hash(one)), astuple(one), asdict(one),
                        repr(replace(one, c=index + 1)), [f.name for f in fields(C)],
                        getattr(C, '__match_args__', None), copy.deepcopy(one) == one]
    made = make_dataclass('Made', [('m', int, field(default=0)), ('n', str, field(default='n'))],
                          bases=(shared.Base,), order=True, frozen=False)
    item = made(index, 'y', index)
    results += [repr(item), item < made(index + 1, 'y', 0), asdict(item)]
    return results


def use_stress_shared(index, shared, fresh):
    """What the shared classes and instances do: hashes kept on first use by
    whichever thread came first, a cycle's repr, pickling, copying."""
    results = [hash(obj) for obj in fresh]  # cache_hash: computed first here, by all at once
    point = shared.Base(index)
    results += [point == shared.Base(index), point < shared.Base(index + 1), repr(point),
                repr(shared.cycle), repr(shared.frozen), hash(shared.frozen)]
    for obj in (point, shared.frozen, shared.FrozenBase(index, (index, 'x'))):
        results += [pickle.loads(pickle.dumps(obj)) == obj, copy.deepcopy(obj) == obj,
                    asdict(obj), astuple(obj), repr(replace(obj))]
    return results


def stress_work(index, shared, fresh, rounds):
    """All a thread does, and its results."""
    results = []
    for _ in range(rounds):
        results += define_classes(index, shared)
        results += use_stress_shared(index, shared, fresh)
        # Mutating one shared instance: each thread's stores and appends.
        shared.box.value = index
        shared.box.items.append(index)
        results.append(shared.box.value in range(STRESS_THREADS))
    return results


def stress(threads=STRESS_THREADS, rounds=STRESS_ROUNDS, suffix=None):
    """Run the stress test with the current backend; (operations, mismatches)."""
    suffix = suffix or _backend.current().name
    shared = shared_classes(suffix)
    shared.frozen = shared.FrozenBase(7, ('t',))
    shared.cycle = shared.Box(0)
    shared.cycle.value = shared.cycle
    shared.box = shared.Box(None)

    def fresh():  # instances whose hash nobody computed yet
        return [shared.FrozenBase(k, (k, str(k))) for k in range(32)]

    expected = [stress_work(i, shared, fresh(), rounds) for i in range(threads)]
    shared.box.items.clear()
    got, shared_fresh = [None] * threads, fresh()

    def run(index):
        got[index] = stress_work(index, shared, shared_fresh, rounds)

    errors = together(run, threads)
    if errors:
        raise errors[0]
    operations = sum(len(results) for results in got)
    mismatches = sum(a != b for want, have in zip(expected, got) for a, b in zip(want, have))
    mismatches += sum(len(want) != len(have) for want, have in zip(expected, got))
    # The appends of every thread are all there; the stored value is one of theirs.
    mismatches += sorted(shared.box.items) != sorted(list(range(threads)) * rounds)
    return operations, mismatches


def test_stress_threads_agree_with_one_thread(backend, busy_switching):
    """Threads defining, using and mutating shared classes at once get the
    results one thread gets: none differs, nothing raises."""
    operations, mismatches = stress()
    assert operations > 0 and mismatches == 0


if __name__ == '__main__':  # python -m tests.test_concurrency [threads rounds]: the figures
    counts = [int(arg) for arg in sys.argv[1:3]] or [8, 50]
    for chosen in _backend.available():
        with _backend.use(chosen):
            begun = time.perf_counter()
            ops, wrong = stress(*counts)
            print(f'{chosen.name}: {counts[0]} threads x {counts[1]} rounds, '
                  f'{ops} results compared, {wrong} mismatches, '
                  f'{time.perf_counter() - begun:.1f} s, GIL enabled: '
                  f'{getattr(sys, "_is_gil_enabled", lambda: True)()}')
