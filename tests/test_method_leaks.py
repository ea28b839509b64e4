"""Reference leaks in the generated methods, on every path, success and error.

Written for the compiled core (every error path of every C method) and run on
both backends. A debug build counts references (``sys.gettotalrefcount``);
elsewhere allocated blocks and traced memory must not grow with the repetitions.
"""

import collections
import copy
import pickle
import gc
import sys
import weakref

import pytest

from dataclass_meta import DataClass, InitVar, KW_ONLY, asdict, astuple, field, fields, replace

from .implementation import needs_tracemalloc, tracemalloc


class Boom(Exception):
    pass


class Raising:
    """Every dunder that the generated methods call raises."""

    def __eq__(self, other):
        raise Boom('eq')

    def __lt__(self, other):
        raise Boom('lt')

    def __hash__(self):
        raise Boom('hash')

    def __repr__(self):
        raise Boom('repr')


class BadBool:
    def __eq__(self, other):
        return self

    def __bool__(self):
        raise Boom('bool')

    __hash__ = object.__hash__


class C(DataClass, order=True, unsafe_hash=True):
    x: object
    y: object = 0
    _: KW_ONLY
    z: list = field(default_factory=list, compare=False)
    iv: InitVar[int] = 0

    def __post_init__(self, iv):
        if iv == 1:
            raise Boom('post_init')


class F(DataClass, frozen=True):
    x: object


class G(F):
    pass


class Odd(DataClass):
    """``__class__`` is a property: the methods read it as Python code would."""
    x: int = 0

    @property
    def __class__(self):
        raise Boom('__class__')


class Wide(DataClass):  # more parameters than the compiled init's stack buffer
    a0: int = 0; a1: int = 0; a2: int = 0; a3: int = 0; a4: int = 0  # noqa: E702
    a5: int = 0; a6: int = 0; a7: int = 0; a8: int = 0; a9: int = 0  # noqa: E702
    b0: int = 0; b1: int = 0; b2: int = 0; b3: int = 0; b4: int = 0  # noqa: E702
    b5: int = 0; b6: int = 0; b7: int = 0; b8: int = 0; b9: int = 0  # noqa: E702


class Unbound(DataClass):
    iv: InitVar[int] = field(default=0, init=False)

    def __post_init__(self, iv):
        pass


def _factory_raises():
    raise Boom('factory')


class Factory(DataClass):
    x: list = field(default_factory=_factory_raises)


class R(DataClass):
    """replace()'s positional fast path (C's keyword-only field takes the other)."""
    x: object
    y: object = 0


class RS(DataClass, slots=True, frozen=True):
    x: object
    y: object = 0


class N(DataClass, slots=True, gc=False, weakref_slot=True):
    """gc=False of slots alone: the compiled core's own deallocator."""
    x: object
    y: object = 0


class NT(N, slots=True, gc=True):
    """Tracked again: subtype_dealloc, then N's deallocator for N's slots."""
    z: object = 0


class U(DataClass, slots=True, untrack_atomic=True):
    """A mutable class whose assignments go through the untracking __setattr__."""
    x: object
    y: object = 0


def _attempt(call):
    try:
        call()
    except (Boom, TypeError, AttributeError, NameError, Exception):
        pass


def exercise():
    """Each generated method once on its good path and on each of its error paths."""
    a, b = C(1, 2, z=[3]), C(1, 2)
    a == b, a != b, a < b, a <= b, a > b, a >= b, hash(b), repr(a)
    C(1) == C(2), C(1) == 1
    _attempt(lambda: C(1) < 1)
    unset = C.__new__(C)
    nested = C([C(1, {'k': (C(2), [3])})], collections.OrderedDict(a=[C(4)]), z={1})
    asdict(nested), astuple(nested)
    asdict(nested, dict_factory=list), astuple(nested, tuple_factory=list)
    ops = [
        lambda: asdict(unset), lambda: astuple(C([unset])), lambda: asdict(C({F(1): 1})),
        lambda: asdict(C(1), dict_factory=_factory_raises),
        lambda: astuple(C(1), tuple_factory=_factory_raises),
        lambda: asdict(C(Odd())), lambda: astuple(C((Raising(),))),
        lambda: C.__eq__(a), lambda: C.__eq__(a, b, 1), lambda: C.__eq__(a, b, x=1),
        lambda: C.__eq__(a, self=a), lambda: C.__eq__(a, other=b),
        lambda: unset == a, lambda: a == unset, lambda: C(Raising()) == C(Raising()),
        lambda: C(BadBool()) == C(BadBool()),
        lambda: unset < a, lambda: a < unset, lambda: C(Raising()) < C(Raising()),
        lambda: hash(unset), lambda: hash(C(Raising())), lambda: hash(C([])),
        lambda: repr(unset), lambda: repr(C(Raising())), lambda: C.__repr__(),
        lambda: Odd() == Odd(), lambda: Odd() < Odd(), lambda: repr(Odd()),
        lambda: C(), lambda: C(1, 2, 3), lambda: C(1, w=2), lambda: C(1, x=1),
        lambda: C(1, iv=1), lambda: C.__init__(), lambda: C(**{'x': 1, 'y': 2}),
        lambda: C.__init__(self=C.__new__(C), x=1, iv=2), lambda: C.__init__(x=1),
        lambda: C.__init__(self=C.__new__(C), x=1, zz=2),
        lambda: Wide(*range(20)), lambda: Wide(1, b9=2), lambda: Wide(c=1),
        lambda: Unbound(), lambda: Factory(),
        lambda: setattr(F(1), 'x', 2), lambda: delattr(F(1), 'x'),
        lambda: setattr(G(1), 'x', 2), lambda: setattr(G(1), 'new', 2),
        lambda: delattr(G(1), 'new'), lambda: F.__setattr__(G(1), [], 1),
        lambda: F.__setattr__(F(1)), lambda: F.__delattr__(F(1), 'x', 1),
        lambda: replace(R(1), y=2), lambda: R.__replace__(R(1), x=[]),
        lambda: replace(RS(1), y=2), lambda: replace(RS.__new__(RS), y=2),
        lambda: replace(R(1), z=2), lambda: replace(R.__new__(R)), lambda: replace(C(1), y=5),
        lambda: replace(C(1), iv=1), lambda: replace(Odd(), x=1), lambda: R.__replace__(),
        lambda: R.__replace__(R(1), 2), lambda: replace(Wide(), a0=1),
        lambda: replace(G(1), x=2), lambda: replace(), lambda: replace(R(1), 2),
        lambda: replace(object()), lambda: replace(obj=R(1)),
        lambda: fields(C), lambda: fields(a), lambda: fields(object()), lambda: fields(),
        lambda: fields(class_or_instance=C), lambda: fields(C, C), lambda: fields(Odd()),
    ]
    for op in ops:
        _attempt(op)
    n = N([1], {2: (3,)})
    weakref.ref(n), replace(n, y=[4]), copy.copy(n), copy.deepcopy(n), repr(n), n == N(1)
    NT([1], [2], [3]), replace(NT(1, z=[2]), x=[3]), NT.__new__(NT), N.__new__(N)
    recursive = C([])
    recursive.x.append(recursive)
    repr(recursive)
    recursive.x.clear()
    # untrack_atomic=True on a mutable class: stores, containers, errors
    u = U(1)
    u.x, u.y = 2.5, [u]
    del u.y
    u.y = u.x = None
    for call in (lambda: setattr(u, 'z', 1), lambda: delattr(u, 'y'), lambda: U.__setattr__(u),
                 lambda: U.__setattr__(u, 1, 2), lambda: U.__delattr__(u, 'nope')):
        _attempt(call)
    copy.copy(U(1, 'a')), copy.deepcopy(U([1])), replace(U(1), y=[2]), pickle.loads(pickle.dumps(U(1)))
    # the compact pickle and its loader: fast, general and native routes, errors
    for obj in (RS(1, 'two'), R(1.5, None), N(1), RS(1, [2]), R(b'x', R(1))):
        pickle.loads(pickle.dumps(obj)), copy.copy(obj)
        _attempt(lambda: pickle.loads(pickle.dumps(obj, 1)))  # slots, no __getstate__: refused
    loader = RS.__reduce_ex__(RS(1), 4)[0]
    for call in (lambda: loader(1), lambda: loader(1, y=2), lambda: RS.__reduce_ex__(RS(1)),
                 lambda: RS.__reduce_ex__(RS(1), 'x'), lambda: pickle.dumps(loader),
                 lambda: RS.__reduce_ex__(R(1), 4)):
        _attempt(call)


def _measure(rounds):
    for _ in range(rounds):
        exercise()


@pytest.mark.skipif(not hasattr(sys, 'gettotalrefcount'), reason='needs a debug build')
def test_no_reference_leaks_debug_build():
    """The total reference count does not grow with the repetitions."""
    _measure(50)
    gc.collect()
    before = sys.gettotalrefcount()
    _measure(500)
    gc.collect()
    assert sys.gettotalrefcount() - before < 500


@needs_tracemalloc
def test_no_memory_growth():
    """Allocated blocks and traced memory stay put over 2,000 rounds of every path."""
    _measure(200)  # warm up: caches, interned strings, lazily built signatures
    gc.collect()
    tracemalloc.start()
    try:
        _measure(200)
        gc.collect()
        blocks = sys.getallocatedblocks()
        start, _ = tracemalloc.get_traced_memory()
        _measure(2000)
        gc.collect()
        end, _ = tracemalloc.get_traced_memory()
        grown = sys.getallocatedblocks() - blocks
    finally:
        tracemalloc.stop()
    # one leaked object per path and round would be ~90,000 blocks and megabytes
    assert grown < 1000
    assert end - start < 64 * 1024
