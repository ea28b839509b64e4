"""The generated ``__repr__``."""

import threading

import pytest

from dataclass_meta import DataClass, field

from .access_log import instance, logged_class, reads_match_the_stdlib

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


def test_repr_uses_qualname_and_field_reprs(slots):
    """``Outer.C(x=1, s='a')``, skipping repr=False fields."""
    class C(DataClass, slots=slots):
        x: int
        s: str = 'a'
        hidden: int = field(default=0, repr=False)

    assert repr(C(1)) == 'test_repr_uses_qualname_and_field_reprs.<locals>.C(x=1, s=\'a\')'


def test_recursive_repr_prints_ellipsis():
    """A cycle prints ``...`` where it closes, as the stdlib's ``recursive_repr``
    does; repeated and nested reprs print in full."""
    class Node(DataClass):
        value: int
        next: object = None

    n = Node(1)
    n.next = n
    assert repr(n) == 'test_recursive_repr_prints_ellipsis.<locals>.Node(value=1, next=...)'
    assert repr(n) == repr(n)
    chain = Node(1, Node(2))
    assert repr(chain).count('Node(') == 2 and '...' not in repr(chain)


def test_repr_single_and_no_fields():
    """One field and zero fields format correctly."""
    class One(DataClass):
        x: tuple

    class Zero(DataClass):
        pass

    assert repr(One((1, 2))).endswith('One(x=(1, 2))')
    assert repr(Zero()).endswith('Zero()')


def test_repr_guard_is_per_thread():
    """Another thread printing the same object mid-repr is not told ``...``."""
    entered, release = threading.Event(), threading.Event()

    class Slow:
        calls = 0

        def __repr__(self):
            Slow.calls += 1
            if Slow.calls == 1:  # the first repr holds the guard open
                entered.set()
                release.wait(5)
            return 'slow'

    class C(DataClass):
        x: object

    c = C(Slow())
    results = []
    t = threading.Thread(target=lambda: results.append(repr(c)))
    t.start()
    entered.wait(5)
    try:
        inner = repr(c)
    finally:
        release.set()
        t.join(5)
    assert inner.endswith('C(x=slow)')
    assert results[0].endswith('C(x=slow)')


def test_explicit_repr_is_kept():
    """A ``__repr__`` in the body wins; ``repr=False`` generates none."""
    class C(DataClass):
        x: int

        def __repr__(self):
            return 'mine'

    class D(DataClass, repr=False):
        x: int

    assert repr(C(1)) == 'mine'
    assert '__repr__' not in D.__dict__


# -- reads and side effects, in order -------------------------------------------------

def test_repr_reads_then_reprs_each_field_in_turn():
    """The stdlib's f-string reads a field and repr()s it before the next read."""
    got = []
    for ours in (False, True):
        log = []
        cls = logged_class([('a', True, True, None), ('b', True, True, None)],
                     {'order': False, 'frozen': False, 'slots': False, 'unsafe_hash': False},
                     log, ours, 'R')
        obj = instance(cls, [(1, 'tag'), (2, 'tag')], log)
        del log[:]
        got.append((repr(obj), log))
    assert got[0] == ('R(a=P1, b=P2)', [('get', '__class__'), ('get', 'a'), ('repr', 1),
                                        ('get', 'b'), ('repr', 2)])
    assert got[1] == got[0]


test_repr_reads_as_the_stdlib = reads_match_the_stdlib('repr')
