"""The generated ``__init__``: binding, defaults, factories, InitVar, post-init,
errors; on each of its paths (relabelled templates, keyword binding, the general
path) exactly as ``@dataclass``'s: values, order of stores, errors."""

import dataclasses
import inspect

import pytest
from hypothesis import given, settings, strategies as st

import dataclass_meta
from dataclass_meta import (
    KW_ONLY, DataClass, DataClassMeta, InitVar, asdict, astuple, field, make_dataclass,
    replace)

from .outcomes import both_ways, define, outcome

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


def test_positional_keyword_and_defaults(slots):
    """Arguments bind positionally and by keyword; defaults fill the rest."""
    class C(DataClass, slots=slots):
        x: int
        y: str = 'a'
        z: float = 1.5

    assert (C(1).x, C(1).y, C(1).z) == (1, 'a', 1.5)
    c = C(2, z=3.0)
    assert (c.x, c.y, c.z) == (2, 'a', 3.0)
    c = C(y='b', x=3)
    assert (c.x, c.y) == (3, 'b')


def test_default_factory_called_per_instance(slots):
    """Each instance gets its own factory value; a given value skips the factory."""
    calls = []

    def make():
        calls.append(1)
        return []

    class C(DataClass, slots=slots):
        items: list = field(default_factory=make)

    a, b = C(), C()
    assert a.items is not b.items and len(calls) == 2
    given = [1]
    assert C(given).items is given and len(calls) == 2


def test_init_false_fields(slots):
    """init=False fields: a factory runs, a default is the class's (or slot's)."""
    class C(DataClass, slots=slots):
        x: int
        made: list = field(default_factory=list, init=False)
        fixed: int = field(default=7, init=False)

    c = C(1)
    assert c.made == [] and c.fixed == 7
    assert 'made' not in inspect.signature(C).parameters


def test_post_init_receives_initvars_in_order():
    """__post_init__ gets the InitVars positionally, in field order."""
    class C(DataClass):
        a: int
        scale: InitVar[int]
        b: int = 0
        offset: InitVar[int] = 100

        def __post_init__(self, scale, offset):
            self.total = (self.a + self.b) * scale + offset

    assert C(1, 2).total == 102
    assert C(1, 2, 3, 4).total == 12
    assert not hasattr(C(1, 2), 'scale')
    assert [f.name for f in dataclasses.fields(C)] == ['a', 'b']


def test_kw_only_fields_assigned_in_field_order():
    """Fields are stored in definition order even when keyword-only ones interleave."""
    order = []

    class C(DataClass):
        a: int = field(kw_only=True)
        b: int = 0

        def __setattr__(self, name, value):
            order.append(name)
            super().__setattr__(name, value)

    C(a=1, b=2)
    assert order == ['a', 'b']
    assert str(inspect.signature(C)) == '(b: int = 0, *, a: int) -> None'


def test_kw_only_marker():
    """Fields after ``_: KW_ONLY`` are keyword-only; ``_`` is not a field."""
    class C(DataClass):
        x: int
        _: KW_ONLY
        y: int
        z: int = 3

    assert str(inspect.signature(C)) == '(x: int, *, y: int, z: int = 3) -> None'
    assert C(1, y=2).z == 3
    assert [f.name for f in dataclasses.fields(C)] == ['x', 'y', 'z']


def test_field_named_self():
    """A field called ``self`` works: the instance parameter is renamed."""
    class C(DataClass):
        self: int

    assert C(self=3).self == 3
    sig = inspect.signature(C.__init__)
    assert list(sig.parameters) == ['__dataclass_self__', 'self']


@pytest.mark.parametrize('args, kwargs', [
    ((), {}),
    ((1, 2, 3, 4), {}),
    ((1, 2, 3, 4), {'z': 1}),
    ((1,), {'q': 1}),
    ((1,), {'x': 1}),
    ((1, 2), {}),
    ((), {'y': 2}),
    ((1, 2, 3, 4, 5), {'x': 1}),
    # Several wrong keywords: CPython reports the first; PyPy a parameter given
    # twice before any unknown keyword, and several unknown ones by count.
    ((1,), {'x': 1, 'q': 2, 'z': 1}),
    ((1,), {'q': 2, 'x': 1, 'z': 1}),
    ((1, 2), {'q': 2, 'y': 1, 'x': 3}),
    ((1,), {'q': 2, 'r': 3, 'z': 1}),
    ((1,), {'q': 2, 'r': 3, 'x': 1}),
    ((1, 2, 3), {'q': 2, 'z': 1}),
    ((), {'q': 2}),
    ((1,), {'self': 1, 'z': 1}),
])
def test_call_errors_are_the_interpreters(args, kwargs):
    """Wrong calls raise the same TypeError text as an exec-built ``__init__``
    (a function written out in source) on the running interpreter."""
    @dataclasses.dataclass
    class C:
        x: int
        y: int = 1
        _: KW_ONLY
        z: int
        w: int = 2

    with pytest.raises(TypeError) as expected:
        C(*args, **kwargs)
    C = type('C', (DataClass,), {'__annotations__': dict(C.__annotations__),
                                 'y': 1, 'w': 2, '__qualname__': C.__qualname__})
    with pytest.raises(TypeError) as got:
        C(*args, **kwargs)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize('keyword', ['f0', 'P0', 'p0x', 'kx', 'selff', 'zzzz', 'a', 'w2',
                                     'p_0', 'rat', 'kw_onlyy', 'é0', 'x' * 45])
@pytest.mark.parametrize('slots', [False, True], ids=['dict', 'slots'])
def test_unexpected_keyword_suggests_like_a_def(keyword, slots):
    """3.13+ ends an unexpected keyword's error with the interpreter's "Did you mean"
    (among every parameter but positional-only ones, ``self`` included), as a
    ``def`` does; older Pythons add nothing, and neither do we there."""
    class C(DataClass, slots=slots):
        p0: int
        rate: float = 0.0
        _: KW_ONLY
        kw: int = 1
        kw_only: int = 2
        w: int = 3

    def __init__(self, p0, rate=0.0, *, kw=1, kw_only=2, w=3):
        pass
    __init__.__qualname__ = C.__init__.__qualname__
    with pytest.raises(TypeError) as expected:
        __init__(None, 1, **{keyword: 1})
    with pytest.raises(TypeError) as got:
        C(1, **{keyword: 1})
    assert str(got.value) == str(expected.value)
    with pytest.raises(TypeError) as replaced:
        replace(C(1), **{keyword: 1})
    assert str(replaced.value) == str(expected.value)


def test_replace_suggests_as_the_stdlib():
    """``replace()`` with a misspelt field: the stdlib's error, suggestion and all."""
    S = dataclasses.make_dataclass('C', [('p0', int)])
    C = make_dataclass('C', [('p0', int)])
    with pytest.raises(TypeError) as expected:
        dataclasses.replace(S(1), f0=2)
    with pytest.raises(TypeError) as got:
        replace(C(1), f0=2)
    assert str(got.value) == str(expected.value)


def test_missing_lists_names_like_python():
    """Three missing arguments are listed "'a', 'b', and 'c'"."""
    class C(DataClass):
        a: int
        b: int
        c: int

    with pytest.raises(TypeError, match=r"missing 3 required positional arguments: "
                                        r"'a', 'b', and 'c'"):
        C()


def test_explicit_init_is_kept():
    """An ``__init__`` written in the class body wins, as with ``@dataclass``."""
    class C(DataClass):
        x: int

        def __init__(self):
            self.x = 42

    assert C().x == 42


def test_init_false_option():
    """``init=False`` generates no ``__init__``."""
    class C(DataClass, init=False):
        x: int = 1

    assert '__init__' not in C.__dict__
    assert C().x == 1


def test_descriptor_default():
    """A descriptor default is used through the descriptor, as the stdlib does."""
    class D:
        def __set_name__(self, owner, name):
            self.name = '_' + name

        def __get__(self, obj, owner=None):
            return 100 if obj is None else getattr(obj, self.name, 100)

        def __set__(self, obj, value):
            setattr(obj, self.name, value * 2)

    class C(DataClass):
        x: int = D()

    assert C().x == 200 and C(1).x == 2


def test_initvar_without_init_fails_like_the_stdlib():
    """An ``init=False`` InitVar cannot reach ``__post_init__``: NameError, as
    the stdlib's generated ``__init__`` raises, rather than shifted arguments."""
    class C(DataClass):
        a: InitVar[int] = field(default=0, init=False)
        b: InitVar[int] = 1

        def __post_init__(self, a, b):
            pass

    @dataclasses.dataclass
    class Std:
        a: InitVar[int] = dataclasses.field(default=0, init=False)
        b: InitVar[int] = 1

        def __post_init__(self, a, b):
            pass

    with pytest.raises(NameError) as std:
        Std()
    with pytest.raises(NameError) as ours:
        C()
    assert str(ours.value) == str(std.value) == "name 'a' is not defined"


def test_post_init_gets_initvars_in_definition_order():
    """A keyword-only InitVar declared first is passed first, as the stdlib
    passes InitVars in definition order rather than parameter order."""
    seen = []

    class C(DataClass):
        a: InitVar[int] = field(kw_only=True)
        b: InitVar[int]

        def __post_init__(self, a, b):
            seen.append((a, b))

    @dataclasses.dataclass
    class Std:
        a: InitVar[int] = dataclasses.field(kw_only=True)
        b: InitVar[int]

        def __post_init__(self, a, b):
            seen.append((a, b))

    C(2, a=1)
    Std(2, a=1)
    assert seen == [(1, 2), (1, 2)]


_SELF_CALLS = [
    ('self', {'x': 1}), ('self', {'x': 1, 'y': 5}), ('self', {}), (None, {'x': 1}),
    (None, {}), (None, {'zz': 1}), (None, {'x': 1, 'zz': 1}), ('self', {'zz': 1}),
    ('self', {'x': 1, 'self': 2}),
]


@pytest.mark.parametrize('spec', ['plain', 'factory', 'kw_only', 'field-self', 'post_init'])
def test_self_by_keyword_as_in_the_stdlib(backend, spec):
    """``C.__init__(self=obj, x=1)`` binds ``self`` by name as the stdlib's does
    (``__dataclass_self__`` when a field is called ``self``); calls without it
    raise the interpreter's errors, ``self`` counted among the missing."""
    from dataclass_meta import _backend
    body = {'plain': {'x': (int, dataclasses.MISSING), 'y': (int, 0)},
            'factory': {'x': (int, dataclasses.MISSING), 'y': (list, list)},
            'kw_only': {'x': (int, dataclasses.MISSING), 'y': (int, 0)},
            'field-self': {'x': (int, dataclasses.MISSING), 'self': (int, 0)},
            'post_init': {'x': (int, dataclasses.MISSING), 'y': (int, 0)}}[spec]

    def namespace(our):
        ns = {'__annotations__': {}}
        for name, (tp, default) in body.items():
            ns['__annotations__'][name] = tp
            if default is list:
                ns[name] = (field if our else dataclasses.field)(default_factory=list)
            elif default is not dataclasses.MISSING:
                ns[name] = default
        if spec == 'post_init':
            ns['__post_init__'] = lambda self: setattr(self, 'seen', True)
        return ns

    options = {'kw_only': True} if spec == 'kw_only' else {}
    std = dataclasses.dataclass(type('S', (), namespace(False)), **options)
    with _backend.use(backend):
        ours = DataClassMeta('S', (DataClass,), namespace(True), **options)
    first = '__dataclass_self__' if spec == 'field-self' else 'self'
    for target, kwargs in _SELF_CALLS:
        outcomes = []
        for cls in (std, ours):
            kw = {('self' if k == 'self' and target is None else k): v
                  for k, v in kwargs.items()}
            if target is not None:
                kw[first] = obj = object.__new__(cls)
            outcomes.append(outcome(
                lambda: cls.__init__(**kw),
                lambda result: (result, repr(obj).replace(cls.__qualname__, 'S'),
                                getattr(obj, 'seen', False)),
                lambda exc: (type(exc), str(exc).replace(cls.__qualname__, 'S'))))
        assert outcomes[1] == outcomes[0], (target, kwargs)


# -- each path (templates, keyword binding, the general one) as the stdlib's ----------

NAMES = list('abcdefghijklmn')  # 14: past the largest template (12 fields)


def twins(spec, **options):
    """The same class from ``@dataclass`` and from ``DataClass``, both named ``C``.

    ``spec`` is a list of (name, default, extra field() keywords); each records
    its stores (in order) through ``__setattr__`` when not frozen.
    """
    log = []

    def body():
        ns = {'__annotations__': {}, '__qualname__': 'C', '__module__': __name__}
        for name, default, extra in spec:
            ns['__annotations__'][name] = int
            if extra:
                ns[name] = dataclasses.field(**extra)
            elif default is not None:
                ns[name] = default
        if not options.get('frozen'):
            def __setattr__(self, name, value):
                log.append(name)
                object.__setattr__(self, name, value)
            ns['__setattr__'] = __setattr__
        return ns

    return (*both_ways('C', body, **options), log)


def construction(cls, log, args, kwargs):
    """What a call does: the stores in order and the values, or the error."""
    del log[:]
    names = [f.name for f in dataclasses.fields(cls)]
    return outcome(lambda: cls(*args, **kwargs),
                   lambda obj: (list(log), [getattr(obj, n, '<unset>') for n in names]))


def shapes():
    """Field lists: required then defaulted fields, sometimes keyword-only ones."""
    return st.tuples(st.integers(0, 14), st.integers(0, 3), st.integers(0, 2)).map(
        lambda t: [(NAMES[i], None, None) for i in range(t[0] - min(t[0], t[1]))]
        + [(NAMES[i], i * 10, None) for i in range(t[0] - min(t[0], t[1]), t[0])]
        + [(f'k{i}', None if i == 0 else i, {'kw_only': True} if i == 0 else
            {'default': i, 'kw_only': True}) for i in range(t[2])])


@settings(max_examples=150, deadline=None)
@given(shape=shapes(), nargs=st.integers(0, 14), frozen=st.booleans(),
       slots=st.booleans(), data=st.data())
def test_any_call_matches_stdlib(shape, nargs, frozen, slots, data):
    """Any mix of positional and keyword arguments: same stores, values or error text."""
    std, ours, log = twins(shape, frozen=frozen, slots=slots)
    names = [name for name, _, _ in shape] + ['self', 'zz']
    keywords = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names)))
    args = tuple(range(100, 100 + nargs))
    kwargs = {name: -i for i, name in enumerate(keywords)}
    assert construction(ours, log, args, kwargs) == construction(std, log, args, kwargs)


@pytest.mark.parametrize('n', range(0, 15))
def test_every_arity_positional_and_keyword(n, slots):
    """Each template field count (and beyond) stores every field, by position or keyword."""
    std, ours, log = twins([(name, None, None) for name in NAMES[:n]], slots=slots)
    args = tuple(range(n))
    assert construction(ours, log, args, {}) == construction(std, log, args, {})
    kwargs = dict(zip(NAMES, args))
    assert construction(ours, log, (), kwargs) == construction(std, log, (), kwargs)
    assert construction(ours, log, args + (1,), {}) == construction(std, log, args + (1,), {})


def test_missing_and_too_many_messages():
    """The interpreter's own texts, naming the class's ``__init__``."""
    class C(DataClass):
        x: int
        y: int = 0

    with pytest.raises(TypeError, match=r"\.C\.__init__\(\) missing 1 required positional "
                                        r"argument: 'x'$"):
        C()
    with pytest.raises(TypeError, match=r'\.C\.__init__\(\) takes from 2 to 3 positional '
                                        r'arguments but 4 were given$'):
        C(1, 2, 3)
    with pytest.raises(TypeError, match=r"got multiple values for argument 'x'$"):
        C(1, x=2)
    with pytest.raises(TypeError, match=r"got an unexpected keyword argument 'z'$"):
        C(1, z=2)


def test_factories_run_in_field_order_between_stores():
    """Default factories are called at their field's turn, after earlier stores."""
    events = []

    def factory(name):
        def make():
            events.append(('call', name))
            return name
        return make

    def body():
        return {'__annotations__': {'a': int, 'b': list, 'c': int, 'd': list},
                'b': field(default_factory=factory('b'), init=False),
                'c': 3, 'd': field(default_factory=factory('d')),
                '__setattr__': lambda self, n, v: (events.append(('set', n)),
                                                   object.__setattr__(self, n, v))}

    class C(DataClass):
        locals().update(body())

    @dataclasses.dataclass
    class S:
        locals().update(body())

    C(1)
    ours, events[:] = events[:], []
    S(1)
    assert ours == events


def test_factory_skipped_when_value_given_and_called_per_instance():
    """A given value wins; an omitted one gets a fresh factory result each time."""
    class C(DataClass):
        a: int
        items: list = field(default_factory=list)

    given_list = [1]
    assert C(1, given_list).items is given_list
    assert C(1).items == [] and C(1).items is not C(1).items


def test_post_init_gets_initvars_in_field_order():
    """InitVars reach ``__post_init__`` in definition order, keyword-only ones too."""
    seen = []

    class C(DataClass):
        p: InitVar[int] = field(kw_only=True, default=1)
        x: int = 0
        q: InitVar[int] = 2

        def __post_init__(self, p, q):
            seen.append((p, q, self.x))

    C(5, 6, p=7)
    C()
    assert seen == [(7, 6, 5), (1, 2, 0)]
    assert not hasattr(C(), 'p') or C.p == 1


def test_post_init_without_initvars_runs_after_stores():
    """On the template path, ``__post_init__`` runs once all fields are set."""
    class C(DataClass):
        x: int
        y: int = 2

        def __post_init__(self):
            self.total = self.x + self.y

    assert C(1).total == 3 and C(1, 5).total == 6 and C(x=1, y=1).total == 2


def test_slots_default_for_init_false_field(slots):
    """``init=False`` fields with a default: set in ``__init__`` when slotted."""
    std, ours, log = twins([('a', None, None), ('b', None, {'default': 5, 'init': False})],
                           slots=slots)
    assert construction(ours, log, (1,), {}) == construction(std, log, (1,), {})


@pytest.mark.parametrize('name', ['self', 'kw', 'more', 'v0', 'post', 'store', 'bind', 'names'])
def test_field_names_that_the_templates_use_internally(name, slots):
    """A field may be called like a template's own parameters or closure names."""
    std, ours, log = twins([(name, None, None), ('other', 1, None)], slots=slots)
    for args, kwargs in [((5,), {}), ((), {name: 5}), ((5, 6), {}), ((), {name: 5, 'other': 6}),
                         ((5,), {name: 6}), ((), {})]:
        assert construction(ours, log, args, kwargs) == construction(std, log, args, kwargs)


def test_post_init_added_later_is_not_called_like_stdlib():
    """``__post_init__`` is looked for once, at class creation, as the stdlib does."""
    class C(DataClass):
        x: int

    C.__post_init__ = lambda self: setattr(self, 'seen', True)
    assert not hasattr(C(1), 'seen')


@pytest.mark.parametrize('n', range(1, 15))
@pytest.mark.parametrize('required', [0, 1, 3])
def test_trailing_defaults_omitted(n, required, slots):
    """Each arity with some trailing defaults: any number of positional arguments."""
    required = min(required, n)
    spec = [(NAMES[i], None if i < required else (i, 'default'), None) for i in range(n)]
    std, ours, log = twins(spec, slots=slots)
    for count in range(n + 2):
        args = tuple(range(count))
        assert construction(ours, log, args, {}) == construction(std, log, args, {})
    if required == 0:
        assert ours().__getattribute__(NAMES[n - 1]) is std().__getattribute__(NAMES[n - 1])


# -- binding, defaults and factories against hand-written functions ------------------

def test_init_defaults_factories_init_false_and_initvars():
    """Keyword-only defaults, init=False factories, and InitVars in any position."""
    seen = []

    class C(DataClass):
        a: int
        iv: InitVar[int]
        b: list = field(default_factory=list)
        c: int = field(init=False, default=7)
        d: dict = field(init=False, default_factory=dict)
        _: KW_ONLY
        e: int = 5
        f: str = 'f'

        def __post_init__(self, iv):
            seen.append(iv)

    c = C(1, 2)
    assert (c.a, c.b, c.c, c.d, c.e, c.f, seen) == (1, [], 7, {}, 5, 'f', [2])
    assert C(1, 2).b is not c.b
    assert astuple(C(1, 3, [1], e=0)) == (1, [1], 7, {}, 0, 'f')
    assert astuple(C(1, 3, f='g')) == (1, [], 7, {}, 5, 'g')


def test_init_positional_with_keyword_only():
    """All positionals given together with keyword-only arguments bind correctly."""
    class C(DataClass):
        x: int
        y: int
        _: KW_ONLY
        z: int

    assert astuple(C(1, 2, z=3)) == (1, 2, 3)


@st.composite
def shapes_and_calls(draw):
    """A field layout (counts of each kind) and a call to its ``__init__``."""
    counts = draw(st.tuples(*[st.integers(0, 2)] * 4))
    names = [f'{k}{i}' for k, n in zip('abcd', counts) for i in range(n)]
    npos = draw(st.integers(0, len(names) + 2))
    keys = draw(st.lists(st.sampled_from(names + ['zz']), unique=True, max_size=4))
    return counts, npos, keys


def reference_init(counts):
    """A hand-written ``__init__`` of the same shape, for the interpreter's own errors."""
    a, b, c, d = ([f'{k}{i}' for i in range(n)] for k, n in zip('abcd', counts))
    params = a + [f'{n}=0' for n in b] + (['*'] if c or d else []) + c + [f'{n}=0' for n in d]
    namespace = {}
    exec(f"def __init__(self, {', '.join(params)}): return locals()", namespace)
    function = namespace['__init__']
    function.__qualname__ = 'C.__init__'
    return function


@settings(max_examples=150, deadline=None)
@given(shapes_and_calls())
def test_init_binds_like_a_hand_written_function(shape):
    """Any call binds, or fails with the same message, as a hand-written ``__init__``."""
    counts, npos, keys = shape
    a, b, c, d = ([f'{k}{i}' for i in range(n)] for k, n in zip('abcd', counts))
    specs = ([(n, int) for n in a] + [(n, int, field(default=0)) for n in b]
             + [(n, int, field(kw_only=True)) for n in c]
             + [(n, int, field(default=0, kw_only=True)) for n in d])
    C = make_dataclass('C', specs)
    args, kwargs = tuple(range(100, 100 + npos)), {k: i for i, k in enumerate(keys)}
    expected = outcome(lambda: reference_init(counts)(None, *args, **kwargs),
                       lambda bound: {k: v for k, v in bound.items() if k != 'self'})
    assert outcome(lambda: asdict(C(*args, **kwargs))) == expected


@pytest.mark.parametrize('ours', [True, False], ids=['ours', 'stdlib'])
def test_init_false_default_stays_on_the_class(ours):
    """An ``init=False`` field with a plain default is read from the class, not stored."""
    lib = dataclass_meta if ours else dataclasses
    C = define(ours, 'C', {'__annotations__': {'x': int, 'y': int},
                           'y': lib.field(init=False, default=3)})
    c = C(1)
    assert c.y == 3 and vars(c) == {'x': 1}
