"""``gc=False``: instances the cyclic collector never tracks (compiled core only)."""

import copy
import gc
import pickle
import sys
import sysconfig
import weakref

import pytest

from dataclass_meta import DataClass, make_dataclass, replace

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')

# PyPy's collector is not CPython's: it has no gc.is_tracked to ask.
needs_is_tracked = pytest.mark.skipif(not hasattr(gc, 'is_tracked'),
                                      reason='gc.is_tracked is CPython\'s')


def _untracks(backend):
    """Whether ``gc=False`` untracks with this backend (only the compiled core can)."""
    return backend.name == 'compiled'


def _every_way(cls, *args):
    """One instance from each construction path: call, copy, deepcopy, pickle,
    ``replace``, ``object.__new__``."""
    globals()[cls.__name__] = cls  # pickled by reference
    cls.__qualname__ = cls.__name__
    try:
        first = cls(*args)
        return [first, copy.copy(first), copy.deepcopy(first),
                pickle.loads(pickle.dumps(first)), replace(first),
                cls.__new__(cls), object.__new__(cls)]
    finally:
        del globals()[cls.__name__]


@needs_is_tracked
@pytest.mark.parametrize('frozen', [False, True])
def test_untracked_on_every_path(backend, slots, frozen):
    """Every way of making an instance gives an untracked one (tracked with the pure
    backend), and ``__dataclass_params__.gc`` says which."""
    class G(DataClass, gc=False, slots=slots, frozen=frozen):
        a: int
        b: list
    tracked = not _untracks(backend)
    assert [gc.is_tracked(obj) for obj in _every_way(G, 1, [])] == [tracked] * 7
    assert G.__dataclass_params__.gc is tracked


@needs_is_tracked
def test_default_is_tracked(slots):
    """Without the option instances are tracked, as any class's."""
    class G(DataClass, slots=slots):
        a: list
    assert all(gc.is_tracked(obj) for obj in _every_way(G, []))
    assert G.__dataclass_params__.gc is True
    assert 'gc' not in repr(G.__dataclass_params__)


@needs_is_tracked
def test_inherited_and_overridden(backend):
    """A subclass inherits ``gc=False``; ``gc=True`` tracks its instances again."""
    class G(DataClass, gc=False):
        a: list

    class H(G):
        pass

    class T(G, gc=True):
        pass
    assert gc.is_tracked(H([])) is not _untracks(backend)
    assert gc.is_tracked(T([])) and T.__dataclass_params__.gc is True
    assert gc.is_tracked(G([])) is not _untracks(backend)


@needs_is_tracked
def test_stays_untracked_through_use(backend):
    """Assignments, ``__post_init__`` and hashing do not track an instance again."""
    class G(DataClass, gc=False, unsafe_hash=True):
        a: object

        def __post_init__(self):
            self.extra = [self]
    g = G(1)
    g.a = {'k': [1]}
    hash(G(2))
    assert gc.is_tracked(g) is not _untracks(backend)


def test_a_cycle_through_untracked_instances_is_never_freed(backend):
    """What the docs warn of: a cycle through them stays until the process ends."""

    class Node(DataClass, gc=False, eq=False):
        other: object = None

    class Tracked(DataClass, eq=False):
        other: object = None
    for cls, leaks in ((Node, _untracks(backend)), (Tracked, False)):
        a = cls()
        a.other = [a]
        ref = weakref.ref(a)
        del a
        gc.collect()
        assert (ref() is not None) is leaks, cls
        if ref() is not None:
            ref().other = None  # break it by hand


@needs_is_tracked
def test_make_dataclass(backend):
    """``make_dataclass`` takes the option like the ten others."""
    C = make_dataclass('C', [('a', list)], gc=False)
    assert gc.is_tracked(C([])) is not _untracks(backend)


@pytest.mark.parametrize('value', [0, 'no', None])
def test_not_a_bool_is_an_error(value):
    """The option is ``True`` or ``False``, like the ten others."""
    with pytest.raises(TypeError, match=f"^option 'gc' of data class 'C' must be True or "
                                        f"False, not {value!r}"):
        class C(DataClass, gc=value):
            a: int


@pytest.mark.skipif(sys.implementation.name != 'pypy', reason='PyPy only')
def test_pypy_keeps_tracking():
    """PyPy: the pure backend; its collector is not CPython's, and instances stay as they are."""
    class G(DataClass, gc=False):
        a: int
    assert G.__dataclass_params__.gc is True


# With the compiled core, a gc=False class whose instances are only their slots
# is a class the collector does not know at all (as msgspec's gc=False structs
# are): no GC header, its own deallocator. What that must keep: every slot's
# value released with the instance, weak references cleared, __del__ run,
# subclasses (tracked again unless gc=False) released and collected as usual.

class _Probe:
    """A value whose release a weak reference shows."""


def _settle():
    """PyPy frees nothing at the last reference (it has no reference counts):
    there a collection stands in for it."""
    if sys.implementation.name == 'pypy':
        gc.collect()
        gc.collect()


def _released(make):
    """Whether every _Probe that ``make(probe)`` stores is released once the
    instance it returns is dropped (on CPython no collection is needed:
    reference counting)."""
    probes = [_Probe() for _ in range(3)]
    refs = [weakref.ref(p) for p in probes]
    obj = make(*probes)
    del probes
    assert all(ref() is not None for ref in refs)
    del obj
    _settle()
    return all(ref() is None for ref in refs)


def test_slotted_instances_release_their_fields(backend):
    """Dropping an instance releases every field's value, its own and its
    bases', frozen or not, with or without ``cache_hash``."""
    class Base(DataClass, slots=True, gc=False):
        a: object

    class G(Base, frozen=False):
        b: object
        c: object = None

    class F(DataClass, slots=True, gc=False, frozen=True, cache_hash=True):
        a: object
        b: object
        c: object
    assert _released(lambda a, b, c: G(a, b, c))
    assert _released(lambda a, b, c: replace(G(a, b, None), c=c))
    assert _released(lambda a, b, c: [F(a, b, c), hash(F(1, 2, 3))][0])
    assert _released(lambda a, b, c: copy.copy(F(a, b, c)))


@needs_is_tracked
def test_slotted_class_is_not_known_to_the_collector(backend):
    """With the compiled core the instances carry no GC header: smaller than a
    tracked twin's by that header (where it comes before the object), nothing the collector can list, and not
    convertible to the twin by ``__class__`` assignment (CPython compares the
    deallocators)."""
    class G(DataClass, slots=True, gc=False):
        a: list

    class T(DataClass, slots=True):
        a: list
    g, t = G([1]), T([1])
    assert gc.is_tracked(g) is not _untracks(backend)
    if _untracks(backend):
        # a free-threaded build keeps the collector's bits in every object's
        # own header: there the sizes are equal
        smaller = not sysconfig.get_config_var('Py_GIL_DISABLED')
        assert (sys.getsizeof(g) < sys.getsizeof(t)) is smaller
        assert all(obj is not g for obj in gc.get_objects()) and gc.get_referents(g) == []
        with pytest.raises(TypeError, match="deallocator differs"):
            g.__class__ = T
    else:
        assert sys.getsizeof(g) == sys.getsizeof(t)


def test_weak_references(backend):
    """``weakref_slot=True``: a weak reference dies, and its callback runs, with
    the instance."""
    called = []

    class W(DataClass, slots=True, gc=False, weakref_slot=True):
        a: object

    w = W(1)
    ref = weakref.ref(w, lambda r: called.append('callback'))
    del w
    _settle()
    assert ref() is None and called == ['callback']
    assert _released(lambda a, b, c: W([a, b, c]))


@needs_is_tracked
def test_del_runs_once(backend):
    """A class with ``__del__`` keeps its instances untracked but stays a class
    the collector knows: ``__del__`` runs once per instance, as for any class,
    even after it resurrected the instance (the collector's header keeps that
    mark)."""
    saved, called = [], []

    class D(DataClass, slots=True, gc=False):
        a: object

        def __del__(self):
            called.append(self.a)
            if self.a == 1:
                saved.append(self)

    class T(DataClass, slots=True):
        a: object
    D(1)
    assert called == [1] and saved[0].a == 1
    del saved[:]
    assert called == [1]
    d = D(2)
    assert gc.is_tracked(d) is not _untracks(backend)
    assert sys.getsizeof(d) == sys.getsizeof(T(2))
    del d
    assert called == [1, 2]


@pytest.mark.skipif(sys.implementation.name == 'pypy',
                    reason='PyPy ignores a __del__ added to a class after it was made '
                           '(a documented difference of PyPy)')
def test_a_del_assigned_later_runs_once(backend):
    """PEP 442: a finalizer runs once per instance, even one assigned after the
    class was made without the collector's header, whose "finalized" mark the
    compiled core keeps for such instances itself; again for each new one."""
    saved, called = [], []

    class D(DataClass, slots=True, gc=False):
        a: object

    def __del__(self):
        called.append(self.a)
        saved.append(self)  # resurrected, every time it runs

    D.__del__ = __del__
    D(1)
    _settle()
    assert called == [1] and saved[0].a == 1
    for _ in range(3):
        saved.clear()  # dies again: not finalized again
        gc.collect()
    assert called == [1]
    D(2)
    _settle()
    saved.clear()
    _settle()
    assert called == [1, 2]
    del D.__del__
    D(3)
    _settle()
    assert called == [1, 2] and saved == []


@needs_is_tracked
def test_subclasses_of_a_slotted_class(backend):
    """A subclass is tracked again unless it says ``gc=False`` (which it
    inherits); a tracked one releases its own fields and its base's, its
    ``__dict__`` too, and a cycle through it is collected."""

    class G(DataClass, slots=True, gc=False):
        a: object

    class Tracked(G, slots=True, gc=True, weakref_slot=True):
        b: object = None

    class WithDict(G, slots=False, gc=True):
        b: object = None

    class Inherits(G, slots=True):
        b: object = None
    assert gc.is_tracked(Tracked(1)) and gc.is_tracked(WithDict(1))
    assert gc.is_tracked(Inherits([])) is not _untracks(backend)
    for cls in (Tracked, WithDict, Inherits):
        assert _released(lambda a, b, c: cls(a, [b, c])), cls
    for cls in (Tracked, WithDict):
        x = cls(None)
        x.a = x.b = [x]
        ref = weakref.ref(x)
        del x
        gc.collect()
        assert ref() is None, cls


def test_a_long_chain_is_released_without_deep_recursion(backend):
    """Releasing the head of a chain releases every link: a million nested
    releases would overflow the C stack, and a class the collector does not
    know cannot use CPython's trashcan (it needs the collector's header), so
    the compiled core defers past a depth, as the trashcan does. Mixed with a
    tracked subclass's links and with lists, and with links of two fields."""

    class Node(DataClass, slots=True, gc=False):
        next: object

    class Tracked(Node, slots=True, gc=True):
        pass

    class Pair(DataClass, slots=True, gc=False):
        next: object
        leaf: object

    links = (lambda i, n: Node(n), lambda i, n: Tracked(n) if i % 3 else Node(n),
             lambda i, n: Node([n]) if i % 2 else Node(n),
             lambda i, n: Pair(n, Pair(None, Node(None))))
    for link in links:
        tail = _Probe()
        ref, chain = weakref.ref(tail), tail
        for i in range(300_000):
            chain = link(i, chain)
        del tail, chain
        _settle()
        assert ref() is None
