"""``functools.cached_property`` on slotted classes: a slot per cached property."""

import copy
import functools
import gc
import pickle
import threading
import weakref

import pytest

from dataclass_meta import DataClass, asdict, astuple, fields, replace

from .implementation import mortal_classes  # noqa: F401

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')


def _define(slots=True, frozen=False):
    class C(DataClass, slots=slots, frozen=frozen):
        x: int
        calls = []

        @functools.cached_property
        def double(self):
            """Twice x."""
            C.calls.append(self.x)
            return self.x * 2
    return C


@pytest.mark.parametrize('frozen', [False, True])
def test_computed_once_per_instance(slots, frozen):
    """Computed on first read, then read back, per instance; as on a dict class."""
    C = _define(slots, frozen)
    a, b = C(1), C(5)
    assert (a.double, a.double, b.double, a.double) == (2, 2, 10, 2)
    assert C.calls == [1, 5]


def test_slotted_class_has_no_dict_and_no_getattr():
    """The class stays slotted (no ``__dict__``) and gains no ``__getattr__``."""
    C = _define()
    c = C(1)
    assert not hasattr(c, '__dict__') and not hasattr(C, '__getattr__')
    with pytest.raises(AttributeError, match="'C' object has no attribute 'missing'"):
        c.missing  # noqa: B018


def test_class_access_and_doc():
    """On the class: the descriptor, with the function's docstring and name."""
    C = _define()
    prop = C.__dict__['double']
    assert C.double is prop and prop.__doc__ == 'Twice x.' and prop.attrname == 'double'
    assert prop.func.__name__ == 'double'


def test_not_a_field():
    """Not in ``fields()``, ``asdict()``, ``astuple()``, ``repr``, ``==``; before or after."""
    C = _define()
    c = C(3)
    before = (fields(c), asdict(c), astuple(c), repr(c))
    c.double  # noqa: B018
    assert (fields(c), asdict(c), astuple(c), repr(c)) == before
    assert [f.name for f in fields(c)] == ['x'] and asdict(c) == {'x': 3}
    assert c == C(3)


def test_del_resets_and_assignment_replaces(slots):
    """``del`` forgets the value (computed again on the next read); assignment sets it;
    ``del`` of a value never computed raises the stdlib's AttributeError."""
    C = _define(slots)
    c = C(2)
    message = "'C' object has no attribute 'double'"
    if not slots:  # the stdlib's own cached_property, in the interpreter's words
        with pytest.raises(AttributeError) as plain:
            del type('C', (), {'double': functools.cached_property(len)})().double
        message = str(plain.value)
    with pytest.raises(AttributeError) as info:
        del c.double
    assert str(info.value) == message
    assert c.double == 4
    del c.double
    assert c.double == 4 and C.calls == [2, 2]
    c.double = 'set'
    assert c.double == 'set'


def test_frozen_refuses_assignment():
    """A frozen class's ``__setattr__`` refuses it, as for any attribute of it."""
    from dataclass_meta import FrozenInstanceError
    C = _define(frozen=True)
    c = C(1)
    with pytest.raises(FrozenInstanceError):
        c.double = 3


def test_errors_propagate_unchanged(slots):
    """An exception from the function is the caller's, even an AttributeError; nothing kept."""
    class C(DataClass, slots=slots):
        x: int

        @functools.cached_property
        def boom(self):
            raise AttributeError('from the function')
    c = C(1)
    for _ in range(2):
        with pytest.raises(AttributeError, match='^from the function$'):
            c.boom  # noqa: B018


def test_subclass_overrides():
    """A subclass's own cached property, property or attribute wins; the parent's
    still works for the parent's instances and through ``super()``."""
    C = _define()

    class D(C):
        @functools.cached_property
        def double(self):
            return -super().double

    class E(C):
        double = 'plain'

    class F(C, slots=False):
        pass
    assert (C(1).double, D(1).double, E(1).double, F(3).double) == (2, -2, 'plain', 6)


@pytest.mark.parametrize('protocol', range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_pickled_and_copied_like_a_cached_value(protocol):
    """A computed value is carried by pickle and copy (as the stdlib carries ``__dict__``);
    one not yet computed is computed on the new instance."""
    C = _define()
    globals()['C'] = C
    C.__qualname__ = 'C'
    try:
        done, fresh = C(1), C(2)
        done.double  # noqa: B018
        for copier in (copy.copy, copy.deepcopy,
                       lambda o: pickle.loads(pickle.dumps(o, protocol))):
            C.calls.clear()
            assert copier(done).double == 2 and C.calls == []
            assert copier(fresh).double == 4 and C.calls == [2]
    finally:
        del globals()['C']


def test_replace_starts_empty():
    """``replace()`` makes a new instance through ``__init__``: computed again."""
    C = _define()
    c = C(1)
    c.double  # noqa: B018
    assert replace(c, x=4).double == 8 and C.calls == [1, 4]


def test_class_is_not_kept_alive(mortal_classes):
    """Nothing outside the class refers to it: it goes with its last reference."""
    C = _define()
    C(1).double  # noqa: B018
    ref = weakref.ref(C)
    del C
    gc.collect()
    assert ref() is None


def test_name_of_a_field_is_an_error():
    """A cached property named like a field (its own or inherited) is refused, naming both."""
    with pytest.raises(TypeError, match="^cached_property 'x' of data class 'C' has the name "
                                        "of a field: rename one of them$"):
        class C(DataClass, slots=True):
            x: int

            @functools.cached_property
            def x(self):
                return 1

    class Base(DataClass, slots=True):
        y: int
    with pytest.raises(TypeError, match="^cached_property 'y' of data class 'D'"):
        class D(Base):
            @functools.cached_property
            def y(self):
                return 1


def test_one_property_under_two_names():
    """The stdlib's error for one cached_property under two names."""
    prop = functools.cached_property(lambda self: 1)
    with pytest.raises(TypeError, match=r"^Cannot assign the same cached_property to two "
                                        r"different names \('a' and 'b'\)\.$"):
        type('C', (DataClass,), {'a': prop, 'b': prop}, slots=True)


def test_foreign_instance_is_refused():
    """The descriptor used on an object of another class raises, never reads its memory."""
    C = _define()
    with pytest.raises(TypeError, match="doesn't apply to (a )?'object' object"):
        C.__dict__['double'].__get__(object(), object)
    with pytest.raises(TypeError):
        C.__dict__['double'].__set__(object(), 1)


def test_subclasses_of_cached_property_are_left_alone():
    """A subclass of ``cached_property`` keeps its own ``__get__`` (not converted)."""
    class Mine(functools.cached_property):
        def __get__(self, instance, owner=None):
            return 'mine'

    class C(DataClass, slots=True):
        @Mine
        def value(self):
            return 1
    assert type(C.__dict__['value']) is Mine and C().value == 'mine'


def test_dict_class_keeps_the_stdlib_descriptor():
    """Where instances have a ``__dict__``, nothing changes: the stdlib's own."""
    C = _define(slots=False)
    assert type(C.__dict__['double']) is functools.cached_property
    assert '_C__cached_double' not in dir(C)


def test_threads_see_one_value():
    """Concurrent first reads each return a value that the instance then keeps."""
    class C(DataClass, slots=True):
        @functools.cached_property
        def token(self):
            return object()
    c = C()
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(c.token)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert c.token in seen and all(c.token is c.token for _ in range(3))
