"""``__hash__``: the stdlib's (unsafe_hash, eq, frozen, explicit hash) table."""

import itertools
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataclass_meta import DataClass, field

from .access_log import reads_match_the_stdlib
from .outcomes import define, outcome

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


class _LaneHash:
    """A field value whose ``hash()`` is ``lane`` (``-1`` becomes ``-2``, as
    for any object), or raises where ``lane`` is an exception."""

    def __init__(self, lane):
        self.lane = lane

    def __hash__(self):
        if isinstance(self.lane, Exception):
            raise self.lane
        return self.lane

    def __eq__(self, other):
        return self is other


_lanes = st.one_of(
    st.integers(), st.sampled_from([-1, -2, 2**61 - 1, -(2**61), 2**64]),
    st.floats(allow_nan=True), st.text(max_size=4), st.none(), st.booleans(),
    st.tuples(st.integers(), st.text(max_size=2)),
    st.builds(_LaneHash, st.one_of(st.integers(), st.just(-1),
                                   st.just(ValueError('no hash')))))


@pytest.mark.parametrize('slots', [False, True])
@settings(max_examples=150, deadline=None)
@given(values=st.lists(_lanes, max_size=20))
def test_hash_is_the_stdlibs_tuple_hash(slots, values):
    """The compiled hash hashes the fields as the tuple of them would be hashed
    (every lane, -1 from a ``__hash__``, an error, beyond 16 fields), without
    building the tuple: the value and the error are ``@dataclass``'s."""
    names = [f'f{i}' for i in range(len(values))]
    body = {'__annotations__': dict.fromkeys(names, object)}
    stdlib = define(False, 'C', dict(body), frozen=True, slots=slots)
    ours = define(True, 'C', dict(body), frozen=True, slots=slots)
    expected = outcome(lambda: hash(stdlib(*values)))
    assert outcome(lambda: hash(ours(*values))) == expected
    assert outcome(lambda: hash(tuple(values))) == expected


@pytest.mark.parametrize('slots', [False, True])
def test_hash_reads_every_field_before_hashing_any(slots):
    """As building the tuple does: a later field that cannot be read raises
    before an earlier field's ``__hash__`` runs."""
    body = {'__annotations__': {'a': object, 'b': object}}
    results = []
    for ours in (False, True):
        cls = define(ours, 'C', dict(body), eq=True, unsafe_hash=True, slots=slots)
        obj = cls(_LaneHash(ValueError('hashed a')), 2)
        del obj.b
        results.append(outcome(lambda: hash(obj)))
    assert results[0] == results[1]
    assert results[0][1] is AttributeError


@pytest.mark.parametrize('slots', [False, True])
def test_eq_and_hash_follow_the_class_after_creation(slots):
    """``==`` and ``hash()`` call what the class has now: a method assigned or
    deleted after creation, or a subclass's own."""
    class C(DataClass, frozen=True, slots=slots):
        x: int

    class Sub(C, frozen=True, slots=slots):
        def __eq__(self, other):
            return 'sub eq'

        def __hash__(self):
            return 5

    class Plain(C):
        pass

    a, b = C(1), C(1)
    assert (a == b, hash(a)) == (True, hash((1,)))
    assert (Sub(1) == Sub(1), hash(Sub(1))) == ('sub eq', 5)
    assert (Plain(1) == Plain(1), hash(Plain(1))) == (True, hash((1,)))
    C.__eq__ = lambda self, other: 'replaced'
    C.__hash__ = lambda self: 7
    assert (a == b, hash(a), a != b) == ('replaced', 7, False)
    assert (Plain(1) == Plain(1), hash(Plain(1))) == (True, hash((1,)))
    del C.__eq__, C.__hash__
    assert (a == b, a == a, hash(a)) == (False, True, object.__hash__(a))


# Each: what is done to the class (x, y) after its first == and hash().
_AFTER_FIRST_USE = {
    'nothing': lambda cls, log: None,
    'property over a field': lambda cls, log: setattr(
        cls, 'y', property(lambda self: log.append('get y') or 2)),
    'field slot emptied': lambda cls, log: None,
    'own __getattribute__': lambda cls, log: setattr(
        cls, '__getattribute__',
        lambda self, name: log.append(('get', name)) or object.__getattribute__(self, name)),
}


@pytest.mark.parametrize('change', list(_AFTER_FIRST_USE))
def test_eq_and_hash_after_the_first_use_see_the_class_now(change):
    """What a slotted class's first ``==`` and ``hash()`` decide (the compiled
    core keeps it per class) does not outlive a change to the class: a field's
    descriptor or a ``__getattribute__`` assigned later, an emptied slot;
    every result, read and error is the stdlib's."""
    def run(ours):
        log = []
        cls = define(ours, 'C', {'__annotations__': {'x': int, 'y': int}},
                     frozen=True, slots=True)
        a, b = cls(1, 2), cls(1, 2)
        seen = [a == b, hash(a) == hash((1, 2)), a == b, hash(b) == hash((1, 2))]
        _AFTER_FIRST_USE[change](cls, log)
        if change == 'field slot emptied':
            object.__delattr__(b, 'y')  # (a frozen instance)
        seen += [outcome(lambda: a == b), outcome(lambda: b == a), outcome(lambda: a == a),
                 outcome(lambda: hash(a)), outcome(lambda: hash(b))]
        return seen, log

    ours, stdlib = run(True), run(False)
    if sys.version_info < (3, 13):  # the stdlib's older == compared tuples (all reads first)
        ours, stdlib = ours[0], stdlib[0]
    assert ours == stdlib
