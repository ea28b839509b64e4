"""``__hash__``: the stdlib's (unsafe_hash, eq, frozen, explicit hash) table."""

import itertools

import pytest

from dataclass_meta import DataClass, field

from .access_log import reads_match_the_stdlib
from .outcomes import define

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


def _define(decorate, unsafe_hash, eq, frozen, explicit):
    body = {'__annotations__': {'x': int}, 'x': 0}
    if explicit:
        body['__hash__'] = lambda self: 42
    return define(not decorate, 'C', body, unsafe_hash=unsafe_hash, eq=eq, frozen=frozen)


def _outcome(decorate, *key):
    try:
        cls = _define(decorate, *key)
    except TypeError as e:
        return 'raise', str(e)
    h = cls.__dict__.get('__hash__', 'inherited')
    if h is None:
        return 'none', None
    return ('hash', hash(cls(1))) if h != 'inherited' else ('inherited', None)


@pytest.mark.parametrize('key', list(itertools.product([False, True], repeat=4)),
                         ids=lambda k: 'u%d-e%d-f%d-x%d' % k)
def test_hash_table_matches_stdlib(key):
    """All 16 rows of the table behave as ``@dataclass``: add, None, raise or keep."""
    assert _outcome(False, *key) == _outcome(True, *key)


def test_hash_uses_hash_then_compare_flags():
    """``hash=`` overrides ``compare=`` per field when choosing hashed fields."""
    class C(DataClass, frozen=True):
        a: int
        b: int = field(compare=False, hash=True)
        c: int = field(hash=False)

    assert hash(C(1, 2, 3)) == hash((1, 2))


def test_eq_without_frozen_is_unhashable():
    """A mutable class with ``__eq__`` gets ``__hash__ = None``."""
    class C(DataClass):
        x: int

    assert C.__hash__ is None
    with pytest.raises(TypeError):
        hash(C(1))


@pytest.mark.parametrize('lib', ['ours', 'stdlib'])
def test_hash_with_eq_in_body_and_explicit_none(lib):
    """``__eq__`` in the body does not count as an explicit ``__hash__``; None does."""
    def make(namespace, **options):
        return define(lib == 'ours', 'C', {'__annotations__': {'x': int}, **namespace},
                      **options)

    eq = make({'__eq__': lambda s, o: True}, frozen=True)
    assert eq.__hash__ is not None and hash(eq(1)) == hash((1,))
    none = make({'__hash__': None}, frozen=True)
    assert none.__hash__ is None


# -- reads and side effects, in order -------------------------------------------------

test_hash_reads_as_the_stdlib = reads_match_the_stdlib('hash')
