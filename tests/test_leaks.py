"""Leaks: classes defined and dropped are collected, and their memory comes back."""

import gc
import pickle
import sys
import weakref

import pytest

from dataclass_meta import DataClass, KW_ONLY, field, fields, make_dataclass, replace

from .implementation import mortal_classes, needs_tracemalloc, tracemalloc  # noqa: F401

# Every test here checks that classes are freed.
pytestmark = pytest.mark.usefixtures('mortal_classes')

CLASSES = 10_000
TRACED = 1_000  # the last classes, under tracemalloc (it makes allocation ~4x slower)
# How far memory may be off after the run: a leak of one small object per class
# (10,000 blocks; 1,000 x 50+ bytes traced) is well beyond these.
SLACK_BLOCKS = 1_000
SLACK_BYTES = 16 * 1024


def define(i):
    """One data class (two for the inheritance kind), options varying with ``i``."""
    kind = i % 5
    if kind == 0:
        class C(DataClass, order=True):
            x: int
            y: list = field(default_factory=list)
    elif kind == 1:
        class C(DataClass, frozen=True, slots=True, weakref_slot=True):
            x: int
            y: str = 'a'
    elif kind == 2:
        class P(DataClass, frozen=True, kw_only=True):
            x: int

        class C(P):
            y: int = 0
    elif kind == 3:
        C = make_dataclass('C', [('x', int), ('y', int, field(default=0))], unsafe_hash=True)
    else:
        class C(DataClass, slots=True):
            x: int
            _: KW_ONLY
            y: int = 0

            def __post_init__(self):
                self.y = abs(self.y)
    return C


def use(cls, i):
    """Run the generated methods once, so every closure and lazy value exists."""
    a = cls(x=i)
    b = replace(a, x=i)
    assert a == b and repr(a).startswith(cls.__qualname__)
    assert [f.name for f in fields(cls)] == ['x', 'y']
    if cls.__hash__ is not None:
        hash(a)
    if i % 100 == 0:
        assert cls.__doc__.startswith('C(')


def define_and_drop(count, start=0):
    """Define ``count`` classes, use and drop each; return weak references to them."""
    refs = []
    for i in range(start, start + count):
        cls = define(i)
        use(cls, i)
        refs.append(weakref.ref(cls))
    return refs


@needs_tracemalloc
def test_dropped_classes_are_collected_and_memory_returns():
    """10,000 classes: each is collected, memory blocks and traced bytes come back."""
    # The collector is off during the loop and one collection at the end frees
    # all: nothing but the classes' own cycles holds them.
    # Warm up at full scale: the interpreter's own caches fill once, and
    # DataClass's table of subclasses grows to hold every class alive at once
    # (a one-off resize of ~600 KiB, when its timing depends on earlier tests).
    gc.disable()
    define_and_drop(CLASSES)
    gc.enable()
    gc.collect()
    subclasses = len(DataClass.__subclasses__())
    blocks = sys.getallocatedblocks()
    gc.disable()
    try:
        refs = define_and_drop(CLASSES - TRACED)
        tracemalloc.start()
        traced = tracemalloc.get_traced_memory()[0]
        refs += define_and_drop(TRACED, start=len(refs))
        gc.collect()
        alive = sum(ref() is not None for ref in refs)
        del refs
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] - traced
    finally:
        tracemalloc.stop()
        gc.enable()
    assert alive == 0
    assert len(DataClass.__subclasses__()) == subclasses
    assert abs(sys.getallocatedblocks() - blocks) < SLACK_BLOCKS
    assert abs(traced) < SLACK_BYTES, traced


def test_instances_do_not_keep_other_classes_alive():
    """Dropping a class with live instances elsewhere frees it once they go."""
    cls = define(1)
    instances = [cls(x=i) for i in range(10)]
    pickled = pickle.dumps(1)
    ref = weakref.ref(cls)
    del cls
    gc.collect()
    assert ref() is not None  # the instances hold their class
    del instances, pickled
    gc.collect()
    assert ref() is None


def test_failed_definitions_are_collected():
    """Class definitions that raise leave no class alive, however many."""
    def failed():
        # Counted by name: other tests' dead classes may be collected meanwhile
        # (PyPy's collector frees them in its own time), changing a plain count.
        return [c for c in DataClass.__subclasses__() if c.__qualname__ == qualname]

    qualname = f'{test_failed_definitions_are_collected.__qualname__}.<locals>.C'
    for _ in range(500):
        try:
            class C(DataClass):
                x: list = []
        except ValueError:
            pass
    gc.collect()
    assert failed() == []

    class C(DataClass):  # a definition that succeeds: the check sees it
        x: list = None
    assert failed() == [C]
