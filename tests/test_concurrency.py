"""Threads: defining classes and using instances at once, with no error or wrong result."""

import pickle
import sys
import threading
import time

import pytest

from dataclass_meta import DataClass, asdict, field, fields, replace
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


def run_threads(work, seconds=SECONDS / 2):
    """Run ``work(index)`` in a loop in THREADS threads for ``seconds``; return the
    loop counts and the errors."""
    deadline = time.monotonic() + seconds
    start = threading.Barrier(THREADS)
    counts, errors = [0] * THREADS, []

    def target(index):
        try:
            start.wait()
            while time.monotonic() < deadline:
                work(index)
                counts[index] += 1
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=target, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return counts, errors


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
    assert ('__dict__' in dir(a)) is not slots


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
