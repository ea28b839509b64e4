"""The compiled methods against the pure closures, on odd inputs.

One class body is built twice in one process, once per backend (``use``),
under the same qualname; hypothesis then
throws values at both (NaN, objects whose ``__eq__``/``__hash__``/``__repr__``/
``__bool__`` misbehave, recursive structures, instances of the other class, of
a subclass, non-instances, bad argument lists) and every result or exception
(type and message) must be the same.
"""

import math

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import DataClass, InitVar, KW_ONLY, field
from dataclass_meta._backend import PURE, compiled, use

from .outcomes import outcome

pytestmark = pytest.mark.skipif(compiled() is None,
                                reason='needs the compiled core beside the pure one')


class Boom(Exception):
    pass


class Odd:
    """A value whose dunders do what ``how`` says."""

    def __init__(self, how):
        self.how = how

    def __eq__(self, other):
        if self.how == 'eq-raises':
            raise Boom('eq')
        if self.how == 'eq-notimpl':
            return NotImplemented
        if self.how == 'eq-falsy':
            return Falsy()
        return self is other

    def __lt__(self, other):
        if self.how == 'eq-raises':
            raise Boom('lt')
        return NotImplemented

    def __hash__(self):
        if self.how == 'hash-raises':
            raise Boom('hash')
        return 7

    def __repr__(self):
        if self.how == 'repr-raises':
            raise Boom('repr')
        return f'Odd({self.how})'


class Falsy:
    """An ``__eq__`` result that is false, or whose truth raises."""

    def __bool__(self):
        return False

    def __repr__(self):
        return 'Falsy()'


HOWS = ['eq-raises', 'eq-notimpl', 'eq-falsy', 'hash-raises', 'repr-raises', 'plain']
SHARED_ODD = {how: Odd(how) for how in HOWS}
SELF = object()      # a value meaning: the instance itself (recursion)
NESTED = object()    # a value meaning: another instance of the same class
UNSET = object()     # a value meaning: the field is never assigned

atoms = st.one_of(
    st.integers(), st.floats(allow_nan=True), st.text(max_size=3), st.none(),
    st.sampled_from(HOWS).map(SHARED_ODD.__getitem__), st.sampled_from([SELF, NESTED, UNSET]),
    st.builds(Odd, st.sampled_from(HOWS)))
values = st.one_of(atoms, st.lists(atoms, max_size=2), st.tuples(atoms))

OPTIONS = [
    dict(order=True, unsafe_hash=True),
    dict(frozen=True, order=True),
    dict(slots=True, order=True, unsafe_hash=True),
    dict(frozen=True, slots=True),
]


def define(options):
    """The same class body, a fresh class (named alike on both backends)."""
    class T(DataClass, **options):
        a: object
        b: object = 0
        c: object = field(default=None, compare=False, repr=False)
        _: KW_ONLY
        d: list = field(default_factory=list, hash=False)
        iv: InitVar[object] = None

        def __post_init__(self, iv):
            if iv == 'boom':
                raise Boom('post_init')

    class Sub(T):
        pass
    return T, Sub


def twins(options):
    """The class body defined on the compiled backend, then on the pure one."""
    pair = []
    for backend in (compiled(), PURE):
        with use(backend):
            pair.append(define(options))
    return tuple(pair)


TWINS = [twins(options) for options in OPTIONS] if compiled() is not None else []


def test_twins_are_of_both_backends():
    """The twins really differ in backend."""
    (compiled, _), (pure, _) = TWINS[0]
    assert type(compiled.__dict__['__repr__']).__name__ == 'compiled_function'
    assert type(pure.__dict__['__repr__'].__wrapped__).__name__ == 'function'


def build(cls, a, b, d):
    """An instance with values ``a, b, d`` (markers resolved for this class)."""
    obj = object.__new__(cls)
    for name, value in (('a', a), ('b', b), ('d', d)):
        if value is UNSET:
            continue
        if value is NESTED:
            value = build(cls, 1, 2, [])
        elif isinstance(value, list):
            value = [obj if v is SELF else v for v in value if v is not UNSET and v is not NESTED]
        elif value is SELF:
            value = obj
        object.__setattr__(obj, name, value)
    return obj


def result(call):
    """What a call gives: a normalised result, or the exception's type and text."""
    return outcome(call, _normalised, _raised)


def _raised(exc):
    if isinstance(exc, RecursionError):  # the depth (and so the text) is the interpreter's
        return (RecursionError,)
    return type(exc), str(exc)


def _normalised(result):
    if isinstance(result, float) and math.isnan(result):
        return ('nan',)
    if isinstance(result, (bool, int, str, type(None), type(NotImplemented))):
        return ('value', result)
    return ('object', id(result))  # a value of ours, returned itself


OPS = {
    'eq': lambda x, y: x == y, 'ne': lambda x, y: x != y,
    'eq-direct': lambda x, y: type(x).__eq__(x, y),
    'lt': lambda x, y: x < y, 'le': lambda x, y: x <= y,
    'gt-direct': lambda x, y: type(x).__gt__(x, y),
    'ge': lambda x, y: x >= y,
    'hash': lambda x, y: hash(x), 'repr': lambda x, y: repr(x),
    'eq-bool': lambda x, y: bool(x == y),
}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(OPTIONS))), values, values, values, values, values,
       st.sampled_from(['same', 'sub', 'int', 'object', 'self']), st.sampled_from(sorted(OPS)))
def test_methods_agree(which, a1, b1, a2, b2, d, other_kind, op):
    """Every comparison, hash and repr gives what the pure closure gives."""
    results = []
    for T, Sub in TWINS[which]:
        x = build(T, a1, b1, d)
        y = {'same': lambda: build(T, a2, b2, d), 'sub': lambda: build(Sub, a2, b2, d),
             'int': lambda: 1, 'object': object, 'self': lambda: x}[other_kind]()
        results.append(result(lambda: OPS[op](x, y)))
    compiled, pure = results
    if compiled[0] == pure[0] == 'ok' and compiled[1][0] == pure[1][0] == 'object':
        return  # the same shared value, or new instances: not comparable by id
    assert compiled == pure


CALLS = [
    ((), {}), ((1,), {}), ((1, 2), {}), ((1, 2, 3), {}), ((1, 2, 3, 4), {}),
    ((1,), {'b': 2}), ((1,), {'a': 2}), ((), {'a': 1, 'b': 2}), ((), {'b': 2}),
    ((1,), {'d': [1]}), ((1,), {'iv': 'boom'}), ((1,), {'c': 1}), ((1,), {'zz': 1}),
    ((1,), {'d': 1, 'iv': 2, 'b': 3}), ((1, 2), {'a': 1}),
]


@pytest.mark.parametrize('which', range(len(OPTIONS)))
@pytest.mark.parametrize('args, kwargs', CALLS, ids=str)
def test_init_agrees(which, args, kwargs):
    """Every call of ``__init__``, good or bad, has the same outcome on both."""
    states = [outcome(lambda: T(*args, **kwargs),
                      lambda obj: repr(obj) + repr([getattr(obj, n, None) for n in 'abcd']))
              for T, _ in TWINS[which]]
    assert states[0] == states[1]


WRONG = [
    ('__eq__', ()), ('__eq__', (1, 2, 3)), ('__lt__', (1,)), ('__hash__', ()),
    ('__repr__', (1, 2)),
]


@pytest.mark.parametrize('name, args', WRONG, ids=str)
def test_wrong_argument_counts_agree(name, args):
    """Calling a method unbound with a wrong argument count: the same TypeError."""
    (compiled, _), (pure, _) = TWINS[0]
    outcomes = [result(lambda: getattr(cls, name)(*args)) for cls in (compiled, pure)]
    assert outcomes[0] == outcomes[1]


def test_keyword_arguments_agree():
    """``C.__eq__(a, other=b)`` binds by name on both; unknown names fail alike."""
    for kwargs in ({'other': 1}, {'self': 1}, {'nope': 1}):
        got = []
        for T, _ in TWINS[0]:
            x = T(1)
            got.append(result(lambda: T.__eq__(x, **kwargs)))
        assert got[0] == got[1], kwargs


def test_frozen_agrees():
    """Frozen ``__setattr__``/``__delattr__``: the same errors, subclasses alike."""
    (ct, csub), (pt, psub) = TWINS[1]
    for (T, Sub) in ((ct, csub), (pt, psub)):
        Sub.__qualname__ = 'Sub'
    calls = [
        lambda T, S: setattr(T(1), 'a', 2), lambda T, S: delattr(T(1), 'a'),
        lambda T, S: setattr(T(1), 'new', 2), lambda T, S: setattr(S(1), 'new', 2),
        lambda T, S: setattr(S(1), 'a', 2), lambda T, S: T.__setattr__(S(1), [], 2),
        lambda T, S: T.__delattr__(S(1), 'nope'),
    ]
    for call in calls:
        assert result(lambda: call(ct, csub)) == result(lambda: call(pt, psub))



def _mutating_init_log(backend):
    """What the stores of a slotted class's __init__ went through when its
    default factories change the class while __init__ runs: a __setattr__
    added, then a field's slot replaced by a property."""
    log = []

    def factory():
        def __setattr__(self, name, value):
            log.append(name)
            object.__setattr__(self, name, value)
        M.__setattr__ = __setattr__
        return 0

    def factory2():
        M.c = property(lambda self: 'c', lambda self, value: log.append(('c', value)))
        return 1

    with use(backend):
        class M(DataClass, slots=True):
            a: int = field(default_factory=factory)
            b: int = field(default_factory=factory2)
            c: int = 2
    M()
    return log


def test_class_changed_during_init_agrees():
    """Stores after the class changed go through what it is now, on both backends."""
    assert _mutating_init_log(compiled()) == _mutating_init_log(PURE)
