"""``cache_hash=True``: the hash computed once per instance, never carried to another."""

import copy
import pickle
import subprocess
import sys

import pytest

from dataclass_meta import DataClass, field, make_dataclass, replace

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


class Counted:
    """A value whose ``__hash__`` counts its calls."""

    calls = 0

    def __init__(self, value):
        self.value = value

    def __hash__(self):
        Counted.calls += 1
        return hash(self.value)

    def __eq__(self, other):
        return isinstance(other, Counted) and other.value == self.value


def _frozen(slots, **options):
    class P(DataClass, frozen=True, cache_hash=True, slots=slots, **options):
        a: int
        b: object = None
    return P


@pytest.fixture(autouse=True)
def _reset():
    Counted.calls = 0


def test_hash_is_computed_once(slots):
    """The first ``hash()`` computes (the fields' hashes once); later calls do not."""
    P = _frozen(slots)
    p = P(1, Counted('x'))
    assert hash(p) == hash((1, Counted('x')))
    Counted.calls = 0
    assert hash(p) == hash(p) == hash((1, Counted('x')))
    assert Counted.calls == 1  # the hash((1, Counted('x'))) above, none from p


def test_same_value_as_without_cache_hash(slots):
    """The cached hash is the one the class computes without ``cache_hash``."""
    P = _frozen(slots)

    class Plain(DataClass, frozen=True, slots=slots):
        a: int
        b: object = None
    assert hash(P(3, 'z')) == hash(Plain(3, 'z')) == hash((3, 'z'))
    assert {P(3, 'z'): 1}[P(3, 'z')] == 1


def test_unsafe_hash_class(slots):
    """``unsafe_hash=True`` on a mutable class: cached too (stale after a change)."""
    class U(DataClass, unsafe_hash=True, cache_hash=True, slots=slots):
        a: int
    u = U(1)
    first = hash(u)
    u.a = 2
    assert hash(u) == first == hash((1,))


def test_not_in_fields_vars_or_repr(slots):
    """The kept hash is no field and never shows: not in ``vars()``, ``repr`` or ``==``."""
    P = _frozen(slots)
    p = P(1)
    hash(p)
    assert [f.name for f in P.__dataclass_fields__.values()] == ['a', 'b']
    assert repr(p).endswith('P(a=1, b=None)') and p == P(1)
    if not slots:
        assert vars(p) == {'a': 1, 'b': None}


@pytest.mark.parametrize('protocol', range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_never_pickled(slots, protocol):
    """The state leaves the cached hash out: an unpickled instance computes its own."""
    P = _frozen(slots)
    globals()['P'] = P  # pickled by reference
    P.__qualname__ = 'P'
    try:
        p = P(1, 'x')
        hash(p)
        data = pickle.dumps(p, protocol)
        assert b'__dataclass_hash__' not in data
        q = pickle.loads(data)
        assert q == p and not hasattr(q, '__dataclass_hash__')
        assert hash(q) == hash(p)
    finally:
        del globals()['P']


def test_string_hash_differs_between_processes():
    """Why it must not be pickled: another process hashes the same ``str`` differently."""
    code = 'print(hash("dataclass_meta"))'
    outs = {subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                           env={'PYTHONHASHSEED': seed}).stdout for seed in ('1', '2')}
    assert len(outs) == 2


@pytest.mark.parametrize('copier', [copy.copy, copy.deepcopy])
def test_never_copied(slots, copier):
    """``copy`` and ``deepcopy`` give an instance without the cached hash."""
    P = _frozen(slots)
    p = P(1, 'x')
    hash(p)
    q = copier(p)
    assert q == p and not hasattr(q, '__dataclass_hash__')
    assert hash(q) == hash(p) and hasattr(q, '__dataclass_hash__')


def test_never_replaced(slots):
    """``replace()`` builds a new instance through ``__init__``: its hash is its own."""
    P = _frozen(slots)
    p = P(1, 'x')
    hash(p)
    q = replace(p, a=2)
    assert not hasattr(q, '__dataclass_hash__') and hash(q) == hash((2, 'x'))
    r = replace(p)
    assert not hasattr(r, '__dataclass_hash__') and hash(r) == hash(p)


def test_dict_class_pickles_its_other_state():
    """A class with a ``__dict__``: the state is the ``__dict__``, as without the option."""
    P = _frozen(False)
    p = P(1, 'x')
    hash(p)
    assert p.__getstate__() == {'a': 1, 'b': 'x'}


def test_inherited():
    """A subclass takes ``cache_hash`` from its parent (and its slot); it may turn it off."""
    P = _frozen(False)

    class Q(P):
        c: int = 0

    class R(P, cache_hash=False):
        c: int = 0
    assert Q.__dataclass_params__.cache_hash and not R.__dataclass_params__.cache_hash
    q = Q(1, 'x', Counted(2))
    hash(q)
    Counted.calls = 0
    hash(q)
    assert Counted.calls == 0
    r = R(1, 'x', Counted(2))
    hash(r), hash(r)
    assert Counted.calls == 2 and not hasattr(r, '__dataclass_hash__')
    assert '__dataclass_hash__' not in Q.__dict__.get('__slots__', ())


def test_make_dataclass():
    """``make_dataclass`` takes the option like the ten others."""
    C = make_dataclass('C', [('a', int)], frozen=True, cache_hash=True)
    c = C(1)
    assert hash(c) == hash((1,)) and c.__dataclass_hash__ == hash((1,))


def test_repr_of_params():
    """``__dataclass_params__`` names the option where it is on, as the stdlib's ten."""
    P = _frozen(False)
    assert repr(P.__dataclass_params__).endswith(',cache_hash=True)')

    class Plain(DataClass):
        pass
    assert 'cache_hash' not in repr(Plain.__dataclass_params__)


def test_hash_error_is_not_kept():
    """A field that cannot be hashed raises each time; nothing is kept."""
    class P(DataClass, frozen=True, cache_hash=True):
        a: object
    p = P([])
    for _ in range(2):
        with pytest.raises(TypeError, match='unhashable'):
            hash(p)
    assert not hasattr(p, '__dataclass_hash__')


@pytest.mark.parametrize('options, message', [
    ({}, "data class 'C' has cache_hash=True but no generated __hash__ to cache: make it "
         "frozen (with eq=True) or pass unsafe_hash=True"),
    ({'eq': False, 'frozen': True},
     "data class 'C' has cache_hash=True but no generated __hash__ to cache"),
])
def test_without_a_hash_is_an_error(options, message):
    """No generated ``__hash__`` (unhashable, or inherited): an error naming the class."""
    with pytest.raises(TypeError, match='^' + message.replace('(', r'\(').replace(')', r'\)')):
        class C(DataClass, cache_hash=True, **options):
            a: int


def test_own_hash_is_an_error():
    """A ``__hash__`` in the class body is the class's own: nothing generated to cache."""
    with pytest.raises(TypeError, match="^data class 'C' has cache_hash=True and its own "
                                        "__hash__"):
        class C(DataClass, frozen=True, cache_hash=True):
            a: int

            def __hash__(self):
                return 1


def test_inherited_cache_hash_error_names_the_parent_and_the_keyword():
    """``cache_hash=True`` inherited where it cannot hold: the parent it came from,
    and ``cache_hash=False`` to override it, first among the remedies."""
    class FrozenModel(DataClass, frozen=True, cache_hash=True):
        pass

    with pytest.raises(TypeError) as info:
        class K2(FrozenModel, eq=False):
            a: int
    assert str(info.value) == (
        "data class 'K2' has cache_hash=True from its parent 'FrozenModel' but no generated "
        "__hash__ to cache: pass cache_hash=False, make it frozen (with eq=True) or pass "
        "unsafe_hash=True")
    with pytest.raises(TypeError) as info:
        class K3(FrozenModel):
            def __hash__(self):
                return 1
    assert str(info.value) == (
        "data class 'K3' has cache_hash=True from its parent 'FrozenModel' and its own "
        "__hash__: cache_hash caches the generated one; pass cache_hash=False, or remove "
        "the __hash__")

    class K4(FrozenModel, eq=False, cache_hash=False):  # the remedy works
        a: int

    assert K4(1).a == 1 and not K4.__dataclass_params__.cache_hash


@pytest.mark.parametrize('value', [1, 'yes', None])
def test_not_a_bool_is_an_error(value):
    """The option is ``True`` or ``False``, like the ten others."""
    with pytest.raises(TypeError, match=f"^option 'cache_hash' of data class 'C' must be "
                                        f"True or False, not {value!r}"):
        class C(DataClass, frozen=True, cache_hash=value):
            a: int


def test_field_named_like_the_slot_is_refused():
    """The slot's name is reserved for fields."""
    with pytest.raises(TypeError, match="has a name that data classes reserve"):
        class C(DataClass):
            __dataclass_hash__: int = field(default=0)


def test_foreign_object_is_refused():
    """The generated ``__hash__`` called on an object of another class raises, not reads."""
    P = _frozen(True)
    with pytest.raises(TypeError):
        P.__hash__(object())
