"""``replace()``, ``__replace__`` and copies: the stdlib's results, errors and
keyword order, on the positional fast path and the keyword path, in its order of
reads."""

import copy
import dataclasses
import sys

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import DataClass, InitVar, field, replace

from .access_log import reads_match_the_stdlib
from .outcomes import define, outcome

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


class Unset(DataClass, init=False):
    """A field that ``__init__`` never sets, then an InitVar."""

    x: int
    y: InitVar[int]


# What Python 3.13's dataclasses.replace() raises for the same class.
@pytest.mark.parametrize('changes, error, message', [
    ({}, AttributeError, "'Unset' object has no attribute 'x'"),
    ({'x': 1}, TypeError, "InitVar 'y' must be specified with replace()"),
    ({'y': 2}, AttributeError, "'Unset' object has no attribute 'x'"),
    ({'x': 1, 'y': 2}, TypeError, 'Unset() takes no arguments'),
])
def test_unset_field_errors_in_stdlib_order(changes, error, message):
    """An unset field raises AttributeError before a later InitVar's TypeError,
    and only when it is not among the changes."""
    with pytest.raises(error) as info:
        replace(Unset(), **changes)
    assert str(info.value) == message


def test_init_false_field_reported_before_later_initvar():
    """The first offending field in definition order decides the error."""
    class C(DataClass):
        a: int = field(default=0, init=False)
        b: InitVar[int] = None

    with pytest.raises(TypeError, match='field a is declared with init=False'):
        replace(C(), a=1)


# -- the positional fast path and the keyword path ------------------------------------

class P(DataClass):
    a: int
    b: int = 2
    c: list = field(default_factory=list)


@dataclasses.dataclass
class S:
    a: int
    b: int = 2
    c: list = dataclasses.field(default_factory=list)


def result(fn, *args, **kwargs):
    """The values made, or the error with the stdlib class's name put as ours."""
    return outcome(lambda: fn(*args, **kwargs), dataclasses.astuple,
                   lambda exc: (type(exc), str(exc).replace('S.', 'P.')))


@settings(max_examples=60, deadline=None)
@given(changes=st.dictionaries(st.sampled_from(['a', 'b', 'c', 'zz']), st.integers(), max_size=4))
def test_replace_matches_stdlib(changes):
    """Any mix of known and unknown names: same values or the same error text."""
    assert result(replace, P(1), **changes) == result(dataclasses.replace, S(1), **changes)


def test_unchanged_values_are_shared_not_copied():
    """A field not changed is passed along as the same object, no factory call."""
    p = P(1, c=[1])
    assert replace(p, a=5).c is p.c


def test_init_false_and_initvar_errors():
    """The stdlib's texts for an ``init=False`` field and a missing InitVar."""
    class C(DataClass):
        x: int
        y: int = field(default=0, init=False)
        z: InitVar[int] = None

    class D(DataClass):
        x: int
        scale: InitVar[int]

        def __post_init__(self, scale):
            self.x *= scale

    with pytest.raises(TypeError, match='^field y is declared with init=False, it cannot '
                                        r'be specified with replace\(\)$'):
        replace(C(1), y=2)
    with pytest.raises(TypeError, match=r"^InitVar 'scale' must be specified with replace\(\)$"):
        replace(D(1, 2))
    assert replace(D(1, 2), scale=3).x == 6
    assert replace(C(1), x=2).x == 2


def test_hand_written_init_gets_keywords_in_stdlib_order():
    """With its own ``__init__`` a class is called by keyword: changes first."""
    seen = []

    class C(DataClass, init=False):
        x: int
        y: int

        def __init__(self, **kwargs):
            seen.append(list(kwargs))
            self.x, self.y = kwargs['x'], kwargs['y']

    @dataclasses.dataclass(init=False)
    class S:
        x: int
        y: int

        def __init__(self, **kwargs):
            seen.append(list(kwargs))
            self.x, self.y = kwargs['x'], kwargs['y']

    replace(C(x=1, y=2), y=5)
    s = S(x=1, y=2)
    dataclasses.replace(s, y=5)
    assert seen[1] == seen[3] == ['y', 'x']


def test_subclass_instance_and_custom_new():
    """A subclass instance, or a class with ``__new__``, is rebuilt by keyword."""
    seen = []

    class C(DataClass):
        x: int
        y: int = 0

        def __new__(cls, *args, **kwargs):
            seen.append((args, kwargs))
            return super().__new__(cls)

    class D(C):
        z: int = 1

    replace(C(1), y=2)
    assert seen[-1] == ((), {'y': 2, 'x': 1})
    d = C.__replace__(D(1, 2, 3), y=5)
    assert type(d) is D and (d.x, d.y, d.z) == (1, 5, 3)


def test_replace_uses_generated_method_not_hand_written():
    """``replace()`` ignores a hand-written ``__replace__``, as the stdlib's does."""
    class C(DataClass):
        x: int

        def __replace__(self, **changes):
            return 'custom'

    assert replace(C(1), x=2) == C(2)
    assert C(1).__replace__(x=2) == 'custom'


def test_keyword_only_fields_and_initvar_defaults():
    """Keyword-only fields and InitVars with defaults take the keyword path."""
    class C(DataClass):
        x: int
        y: int = field(default=0, kw_only=True)
        scale: InitVar[int] = 1

        def __post_init__(self, scale):
            self.x *= scale

    @dataclasses.dataclass
    class S:
        x: int
        y: int = dataclasses.field(default=0, kw_only=True)
        scale: InitVar[int] = 1

        def __post_init__(self, scale):
            self.x *= scale

    for changes in ({}, {'y': 3}, {'scale': 4}, {'x': 2, 'scale': 2}):
        ours, theirs = replace(C(3, y=1), **changes), dataclasses.replace(S(3, y=1), **changes)
        assert (ours.x, ours.y) == (theirs.x, theirs.y)


# -- the compiled __replace__ takes its fast path only while it cannot be seen --

def test_init_reassigned_after_a_replace_is_used(backend):
    """The first replace() works out the fast path; a later ``C.__init__ = f``
    still takes effect, with the stdlib's keyword call."""
    class C(DataClass):
        x: int
        y: int = 0

    assert replace(C(1), y=2) == C(1, 2)
    seen = []
    generated = C.__init__

    def __init__(self, *args, **kwargs):
        seen.append((args, kwargs))
        generated(self, *args, **kwargs)
    C.__init__ = __init__
    c = C(1)
    result = replace(c, y=5)
    assert seen[-1] == ((), {'y': 5, 'x': 1})
    assert (result.x, result.y) == (1, 5)
    C.__init__ = generated  # the generated one again: the fast path again
    assert copy_replace(C(3), x=4) == C(4, 0)


def copy_replace(obj, **changes):
    return type(obj).__replace__(obj, **changes)


def test_class_attribute_read_and_foreign_class(backend):
    """``self.__class__`` is read after the fields; a property naming another
    class gets the changes, then the rest, by keyword."""
    calls = []

    class Other:
        def __init__(self, **kwargs):
            calls.append(kwargs)

    class C(DataClass):
        x: int
        y: int = 0

        @property
        def __class__(self):
            calls.append('class')
            return Other

    result = replace(C(1), y=2)
    assert type(result) is Other and calls == ['class', {'y': 2, 'x': 1}]


@pytest.mark.parametrize('options', [{}, {'slots': True}, {'frozen': True},
                                     {'slots': True, 'frozen': True}])
def test_slotted_and_frozen_match_stdlib(backend, options):
    """Fields read from slots and stored frozen: the stdlib's values, and a
    slot left unset raises the stdlib's AttributeError."""
    def body():
        return {'__annotations__': {'a': int, 'b': int, 'c': int}, 'c': 3, '__module__': __name__}
    C = DataClass.__class__('C', (DataClass,), body(), **options)
    S = dataclasses.dataclass(type('C', (), body()), **options)
    for changes in ({}, {'a': 9}, {'c': 0, 'b': 1}):
        assert dataclasses.astuple(replace(C(1, 2), **changes)) == \
            dataclasses.astuple(dataclasses.replace(S(1, 2), **changes))
    if options.get('slots'):
        ours, theirs = C(1, 2), S(1, 2)
        object.__delattr__(ours, 'b')
        object.__delattr__(theirs, 'b')
        with pytest.raises(AttributeError) as ours_err:
            replace(ours, a=5)
        with pytest.raises(AttributeError) as theirs_err:
            dataclasses.replace(theirs, a=5)
        assert str(ours_err.value) == str(theirs_err.value)


def test_call_errors_and_signature(backend):
    """``__replace__(self, /, **changes)``: the interpreter's texts for a call
    that does not bind, and the same signature on both backends."""
    import inspect

    class C(DataClass):
        x: int

    assert str(inspect.signature(C.__replace__)) == '(self, /, **changes)'
    with pytest.raises(TypeError, match=r"__replace__\(\) missing 1 required positional "
                                        r"argument: 'self'$"):
        C.__replace__(x=1)
    with pytest.raises(TypeError, match=r'__replace__\(\) takes 1 positional argument '
                                        r'but 2 were given$'):
        C.__replace__(C(1), 2)


def test_str_subclass_keys_and_instance_dict_field(backend):
    """Changes keyed by a str subclass name the field they spell; an instance
    attribute shadowing nothing is not a field."""
    class Name(str):
        __slots__ = ()

    class C(DataClass):
        x: int
        y: int = 0

    c = C(1)
    c.extra = 5
    result = replace(c, **{Name('y'): 7})
    assert (result.x, result.y) == (1, 7) and not hasattr(result, 'extra')


def test_public_replace_matches_the_pure_function():
    """``dataclass_meta.replace`` is the backend's (the C dispatch where the
    compiled core is active); every backend's and the pure function have the
    same signature, doc, results and errors, for our classes, stdlib data
    classes and other objects."""
    import inspect

    from dataclass_meta import _backend, _functions

    assert replace is _backend.backend.public_replace
    assert _backend.PURE.public_replace is _functions.replace

    @dataclasses.dataclass
    class Std:
        a: int
        b: int = 0

    class Sub(P):  # inherits P's entry, which is not its own
        d: int = 4

    cases = [((P(1),), {'b': 5}), ((P(1),), {'zz': 1}), ((Std(1),), {'b': 2}),
             ((Sub(1),), {'d': 9}), ((object(),), {}), ((), {}), ((P(1), 2), {}),
             ((), {'obj': P(1)})]
    backends = [b.public_replace for b in _backend.available()]
    for ours in backends:
        assert str(inspect.signature(ours)) == '(obj, /, **changes)'
        assert inspect.getdoc(ours) == inspect.getdoc(_functions.replace)
        for args, kwargs in cases:
            assert result(ours, *args, **kwargs) == result(_functions.replace, *args, **kwargs)
    assert result(replace, Sub(1), d=9) == ('ok', (1, 2, [], 9))


# -- the rules, and copy.replace ------------------------------------------------------

def test_replace_rules():
    """replace keeps other fields, rejects init=False, requires InitVars."""
    class C(DataClass):
        x: int
        y: int = 0
        z: int = field(default=5, init=False)
        iv: InitVar[int] = 1

    class D(DataClass):
        x: int
        iv: InitVar[int]

        def __post_init__(self, iv):
            pass

    c = C(1, 2)
    assert replace(c, y=3) == C(1, 3)
    assert c.__replace__(x=9) == C(9, 2)
    with pytest.raises(TypeError, match='^field z is declared with init=False, it cannot '
                                        'be specified with replace\\(\\)$'):
        replace(c, z=1)
    with pytest.raises(TypeError, match="^InitVar 'iv' must be specified with replace"):
        replace(D(1, 2), x=2)
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        replace(c, nope=1)


@pytest.mark.skipif(sys.version_info < (3, 13), reason='copy.replace is new in 3.13')
def test_copy_replace():
    """``copy.replace`` uses the generated ``__replace__``."""
    class Child(DataClass):
        name: str

    assert copy.replace(Child('a'), name='b') == Child('b')


def test_replace_errors_name_the_right_field():
    """``replace()`` names the init=False field given, or the InitVar missing."""
    class C(DataClass):
        x: int
        iv: InitVar[int]
        y: int = field(init=False, default=0)

        def __post_init__(self, iv):
            pass

    c = C(1, 2)
    with pytest.raises(TypeError, match='^field y is declared with init=False'):
        replace(c, x=2, iv=1, y=3)
    with pytest.raises(TypeError, match="^InitVar 'iv' must be specified with replace"):
        replace(c, x=2)
    assert replace(c, iv=5) == c


# -- through another class's __init__, and on the pure backend -----------------------

def test_replace_through_an_init_made_for_another_class():
    """An ``__init__`` borrowed from another data class, or a user's wrapper of one
    (``functools.wraps`` copies its ``__dict__``), is not this class's generated
    one: ``replace()`` passes keywords, as the stdlib's does, on either backend."""
    import functools

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
    code = ('import sys, dataclass_meta as dm\n'
            'class C(dm.DataClass):\n'
            '    x: int\n'
            'assert dm.replace(C(1), x=2) == C(2)\n'
            'print("dataclass_meta._speedups" in sys.modules)')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True, env=dict(os.environ, DATACLASS_META_PURE='1')).stdout
    assert out.strip() == 'False'


# -- reads and side effects, in order -------------------------------------------------

test_replace_and_copies_read_as_the_stdlib = reads_match_the_stdlib(
    'replace', 'copy.replace', 'copy', 'deepcopy')


def _slotted_view(obj):
    """An instance as the copy comparisons see it: its class's name and its
    fields (``'unset'`` for an empty slot)."""
    return type(obj).__name__, tuple(getattr(obj, name, 'unset') for name in ('x', 'y', 'z'))


def _logging(log, tag):
    """A function that logs ``tag`` and its arguments, and returns None."""
    return lambda *args: log.append((tag, len(args))) and None


# Each case: the body extras and options of class C (x, y and z: int = 3),
# then what is done to it after creation. The compiled core copies the slots
# only where nothing can tell; each case here must behave as the stdlib.
_COPY_CASES = {
    'plain': ({}, None),
    'frozen': ({'frozen': True}, None),
    'post_init': ({'__post_init__': 'log'}, None),
    'initvar': ({'__annotations__': {'v': InitVar[int]}, 'v': 0}, None),
    'init_false_field': ({'__annotations__': {'w': int}, 'w': 'field(init=False, default=5)'},
                         None),
    'setattr_later': ({}, lambda cls, log: setattr(cls, '__setattr__', _logged_setattr(log))),
    'new_later': ({}, lambda cls, log: setattr(cls, '__new__', _logged_new(log))),
    'init_later': ({}, lambda cls, log: setattr(cls, '__init__', _logged_init(cls, log))),
    'descriptor_later': ({}, lambda cls, log: setattr(cls, 'y', _logged_property(cls, log))),
}


def _logged_setattr(log):
    def __setattr__(self, name, value):
        log.append(('setattr', name))
        object.__setattr__(self, name, value)
    return __setattr__


def _logged_new(log):
    def __new__(klass, *args, **kwargs):
        log.append(('new', sorted(kwargs)))
        return object.__new__(klass)
    return __new__


def _logged_init(cls, log):
    original = cls.__init__

    def __init__(self, *args, **kwargs):
        log.append(('init', args, sorted(kwargs)))
        original(self, *args, **kwargs)
    return __init__


def _logged_property(cls, log):
    slot = cls.__dict__['y']

    def get(self):
        log.append('get y')
        return slot.__get__(self)

    def set_(self, value):
        log.append(('set y', value))
        slot.__set__(self, value)
    return property(get, set_)


@pytest.mark.parametrize('case', list(_COPY_CASES))
def test_slotted_replace_as_a_copy_only_where_nothing_can_tell(case):
    """``replace()`` of a slotted class: the compiled core copies the slots
    where the stdlib's reads and ``__init__`` run no code of anyone's; with a
    ``__post_init__``, an InitVar, an ``init=False`` field, a ``__setattr__``,
    ``__new__``, ``__init__`` or descriptor assigned after creation, on a
    subclass instance, and on an instance made by ``object.__new__`` then
    ``C.__init__``, every call, read and result is the stdlib's."""
    extra, change = _COPY_CASES[case]

    def run(ours):
        log = []
        body = {'__annotations__': {'x': int, 'y': int, 'z': int}, 'z': 3}
        options = {'slots': True}
        for key, value in extra.items():
            if key == '__annotations__':
                body['__annotations__'] = {**body['__annotations__'], **value}
            elif key == '__post_init__':
                body[key] = _logging(log, 'post_init')
            elif key in ('frozen',):
                options[key] = value
            else:
                body[key] = (field(init=False, default=5) if ours else
                             dataclasses.field(init=False, default=5)) \
                    if value == 'field(init=False, default=5)' else value
        cls = define(ours, 'C', body, **options)
        make = replace if ours else dataclasses.replace
        # A subclass instance, before the change (on 3.10 the stdlib's slotted
        # subclass has its own slots for inherited fields, which ours has not).
        sub = define(ours, 'S', {'__annotations__': {'s': int}, 's': 0}, bases=(cls,),
                     **options)
        seen = [outcome(lambda: make(sub(1, 2), x=3), _slotted_view)]
        # Replaced before the change, by each route: what a class's first
        # calls decide must not outlive the change.
        seen.append(outcome(lambda: make(cls(1, 2), x=3), _slotted_view))
        seen.append(outcome(lambda: make(cls(1, 2), x=3), _slotted_view))
        if sys.version_info >= (3, 13):  # the stdlib's __replace__
            seen.append(outcome(lambda: cls(1, 2).__replace__(y=3), _slotted_view))
        if change is not None:
            change(cls, log)
        obj = cls(1, 2)
        seen.append(outcome(lambda: make(obj, x=9), _slotted_view))
        seen.append(outcome(lambda: make(obj, y=8, x=7), _slotted_view))
        bare = object.__new__(cls)
        seen.append(outcome(lambda: make(bare, x=1), _slotted_view))
        cls.__init__(bare, 4, 5)
        seen.append(outcome(lambda: make(bare, z=6), _slotted_view))
        if sys.version_info >= (3, 13):
            seen.append(outcome(lambda: obj.__replace__(z=1, x=2), _slotted_view))
            seen.append(outcome(lambda: bare.__replace__(), _slotted_view))
        return seen, log

    assert run(True) == run(False)
