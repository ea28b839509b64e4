"""The generated ``__init__`` on each of its paths (relabelled templates, keyword binding,
the general path) behaves exactly as ``@dataclass``'s: values, order, errors."""

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import DataClass, InitVar, field

from .outcomes import outcome

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

    std = dataclasses.dataclass(**options)(type('C', (), body()))
    ours = type(DataClass)('C', (DataClass,), body(), **options)
    return std, ours, log


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


def test_private_sentinel_never_leaks_into_signature():
    """The template's padding is invisible: the signature is the fields'."""
    import inspect

    class C(DataClass):
        x: int
        y: int = 0

    assert str(inspect.signature(C)) == '(x: int, y: int = 0) -> None'


def test_lazy_signature_is_a_full_signature():
    """The deferred ``__signature__`` reads, compares, hashes, pickles like the stdlib's."""
    import inspect
    import pickle

    class C(DataClass):
        x: int
        y: 'list[int]' = field(default_factory=list)
        z: int = field(default=3, kw_only=True)

    @dataclasses.dataclass
    class S:
        x: int
        y: 'list[int]' = dataclasses.field(default_factory=list)
        z: int = dataclasses.field(default=3, kw_only=True)

    ours, theirs = inspect.signature(C.__init__), inspect.signature(S.__init__)
    assert isinstance(C.__init__.__signature__, inspect.Signature)
    assert ours == theirs and hash(ours) == hash(theirs) and str(ours) == str(theirs)
    assert str(inspect.signature(C)) == str(inspect.signature(S))
    assert str(ours.replace(return_annotation=int)).endswith('-> int')
    empty = inspect.Signature(return_annotation=None)
    assert pickle.loads(pickle.dumps(ours.replace(parameters=[]))) == empty
    assert repr(ours) == repr(theirs)
    assert C.__doc__ == 'C' + str(inspect.signature(S)).replace(' -> None', '')


def test_signature_set_or_deleted_is_the_users():
    """Setting or deleting ``__init__.__signature__`` works as on a function; a
    generated closure ``__init__`` then no longer counts as generated
    (``replace()`` calls it by keyword), on either backend. (An ``init=False``
    field with a factory: no relabelled template, which is a real function.)"""
    import inspect

    from dataclass_meta import replace
    from dataclass_meta._signature import is_generated_init

    class C(DataClass):
        x: int
        y: list = field(init=False, default_factory=list)

    class D(DataClass):
        x: int
        y: list = field(init=False, default_factory=list)

    assert is_generated_init(C.__init__, C) and is_generated_init(D.__init__, D)
    assert not is_generated_init(C.__init__, D)  # made for another class
    P = inspect.Parameter
    mine = inspect.Signature([P('self', P.POSITIONAL_ONLY), P('x', P.KEYWORD_ONLY)])
    C.__init__.__signature__ = mine
    assert C.__init__.__signature__ is mine and C.__init__.__dict__['__signature__'] is mine
    assert str(inspect.signature(C)) == '(*, x)'
    assert not is_generated_init(C.__init__, C)
    assert replace(C(1), x=2) == C(2)
    del D.__init__.__signature__
    assert '__signature__' not in D.__init__.__dict__
    assert not is_generated_init(D.__init__, D)
    with pytest.raises(AttributeError):
        del D.__init__.__signature__
    assert replace(D(1), x=2) == D(2)


def test_replace_through_an_init_made_for_another_class():
    """An ``__init__`` borrowed from another data class, or a user's wrapper of one
    (``functools.wraps`` copies its ``__dict__``), is not this class's generated
    one: ``replace()`` passes keywords, as the stdlib's does, on either backend."""
    import functools

    from dataclass_meta import replace

    class B(DataClass):
        x: int
        y: int = 0

    class D(DataClass):
        y: int = 5
        x: int = 1
        __init__ = B.__init__

    class W(DataClass):
        x: int

        @functools.wraps(B.__init__)
        def __init__(self, **kw):
            self.x = kw['x']

    @dataclasses.dataclass
    class SD:
        y: int = 5
        x: int = 1
        __init__ = dataclasses.dataclass(type('SB', (), {'__annotations__': {'x': int, 'y': int},
                                                         'y': 0})).__init__

    ours, theirs = replace(D(1, 2), x=7), dataclasses.replace(SD(1, 2), x=7)
    assert (ours.y, ours.x) == (theirs.y, theirs.x) == (2, 7)
    assert replace(W(x=2), x=3).x == 3


def test_pure_backend_replace_loads_no_extension():
    """With ``DATACLASS_META_PURE=1`` the compiled core stays unloaded, through
    ``replace()`` too."""
    import os
    import subprocess
    import sys
    code = ('import sys, dataclass_meta as dm\n'
            'class C(dm.DataClass):\n'
            '    x: int\n'
            'assert dm.replace(C(1), x=2) == C(2)\n'
            'print("dataclass_meta._speedups" in sys.modules)')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True, env=dict(os.environ, DATACLASS_META_PURE='1')).stdout
    assert out.strip() == 'False'


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
    for given in range(n + 2):
        args = tuple(range(given))
        assert construction(ours, log, args, {}) == construction(std, log, args, {})
    if required == 0:
        assert ours().__getattribute__(NAMES[n - 1]) is std().__getattribute__(NAMES[n - 1])
