"""``gc=False``: instances the cyclic collector never tracks (compiled core only)."""

import copy
import gc
import pickle
import sys

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
    import weakref

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
