"""The generated ``__repr__``."""

import threading

from dataclass_meta import DataClass, field
import pytest

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
    """A cycle prints ``...`` as the stdlib's ``recursive_repr`` does."""
    class Node(DataClass):
        value: int
        next: object = None

    n = Node(1)
    n.next = n
    assert repr(n).endswith('Node(value=1, next=...)')


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
