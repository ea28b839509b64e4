"""``functools.cached_property`` on slotted classes: a slot per cached property."""

import copy
import functools
import gc
import pickle
import sys
import threading
import types
import weakref

import pytest

from dataclass_meta import DataClass, asdict, astuple, fields, replace
from dataclass_meta._cached_property import SLOT_READS

from .implementation import mortal_classes  # noqa: F401

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')

# The two layouts (dataclass_meta/_cached_property.py): the slot under the
# property's name, or a descriptor before a hidden slot.
slot_reads = pytest.mark.skipif(not SLOT_READS, reason='3.12+ and PyPy: the slot under the name')
hidden_slot = pytest.mark.skipif(SLOT_READS, reason='CPython 3.10, 3.11: a hidden slot')


def _define(slots=True, frozen=False, **options):
    class C(DataClass, slots=slots, frozen=frozen, **options):
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


@slot_reads
def test_a_hit_is_a_plain_slot_read():
    """The class stays slotted (no ``__dict__``); under the property's name it
    has the slot's own member descriptor, so a computed value is read as a field
    is; the function is kept for the class's generated ``__getattr__``, which
    only an empty slot reaches."""
    C = _define()
    c = C(1)
    member = C.__dict__['double']
    assert not hasattr(c, '__dict__') and type(member) is types.MemberDescriptorType
    assert C.__dict__['_dataclass_cached'][0]['double'].__name__ == 'double'
    with pytest.raises(AttributeError):
        member.__get__(c, C)  # empty until the first read
    assert c.double == 2 and member.__get__(c, C) == 2
    assert C.__getattr__.__qualname__.endswith('C.__getattr__')


@hidden_slot
def test_slotted_class_has_no_dict_and_no_getattr():
    """The class stays slotted (no ``__dict__``) and gains no ``__getattr__``."""
    C = _define()
    c = C(1)
    assert not hasattr(c, '__dict__') and not hasattr(C, '__getattr__')
    with pytest.raises(AttributeError, match="'C' object has no attribute 'missing'"):
        c.missing  # noqa: B018


@hidden_slot
def test_class_access_and_doc_of_the_descriptor():
    """On the class: the descriptor, with the function's docstring and name."""
    C = _define()
    prop = C.__dict__['double']
    assert C.double is prop and prop.__doc__ == 'Twice x.' and prop.attrname == 'double'
    assert prop.func.__name__ == 'double'


@slot_reads
def test_class_access_and_doc():
    """On the class: the slot's member descriptor, documented as the function
    in ``__slots__`` (where the interpreter takes a slot's docstring from)."""
    C = _define()
    assert C.double is C.__dict__['double'] and C.double.__name__ == 'double'
    assert C.__slots__ == {'x': None, 'double': 'Twice x.'}
    assert C.double.__doc__ in (None, 'Twice x.')


def test_missing_attribute_raises_as_without_getattr():
    """Any other name raises the interpreter's own AttributeError (its text, and
    its ``name`` and ``obj`` for the "Did you mean" hint) or a descriptor's."""
    C = _define()

    class D(C):
        @property
        def broken(self):
            raise AttributeError('from the property')
    c = D(1)
    with pytest.raises(AttributeError) as info:
        c.missing  # noqa: B018
    assert str(info.value) == "'D' object has no attribute 'missing'"
    if sys.version_info >= (3, 10) and sys.implementation.name == 'cpython':
        assert (info.value.name, info.value.obj) == ('missing', c)
    assert getattr(c, 'missing', 'default') == 'default' and not hasattr(c, 'doubel')
    with pytest.raises(AttributeError, match='^from the property$'):
        c.broken  # noqa: B018


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
    ``del`` of a value never computed raises the AttributeError of the
    stdlib's ``__dict__`` (slotted: of an empty slot, as for a field, on 3.12+;
    the interpreter's usual wording on 3.10/3.11, whose texts vary)."""
    C = _define(slots)
    c = C(2)
    message = 'double'  # 3.12+ slotted: an empty slot's
    if slots and not SLOT_READS:  # 3.10/3.11 slotted: the descriptor's own words
        message = "'C' object has no attribute 'double'"
    elif not slots:  # the stdlib's own cached_property, in its words
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
    still works for the parent's instances."""
    C = _define()

    class D(C):
        @functools.cached_property
        def double(self):
            return -self.x * 2

    class E(C):
        double = 'plain'

    class F(C, slots=False):
        pass

    class G(D, slots=False):
        @functools.cached_property
        def double(self):  # the stdlib's own, in the instance __dict__
            return 'G'
    assert (C(1).double, D(1).double, E(1).double, F(3).double) == (2, -2, 'plain', 6)
    assert G(1).double == 'G' and D(2).double == -4 and C.calls == [1, 3]


@slot_reads
def test_super_reads_only_a_computed_value():
    """``super().name`` in an override reads the slot that both share, which
    holds the subclass's value once computed; before, it is empty and
    ``super()`` (which never calls ``__getattr__``) raises. (attrs has the same.)"""
    C = _define()

    class D(C):
        @functools.cached_property
        def double(self):
            return -super().double
    d = D(1)
    with pytest.raises(AttributeError):
        d.double  # noqa: B018
    d.double = 5
    assert super(D, d).double == 5


@hidden_slot
def test_super_reaches_the_parents_descriptor():
    """Before 3.12 each class's cached property has its own slot: ``super()``
    computes the parent's."""
    C = _define()

    class D(C):
        @functools.cached_property
        def double(self):
            return -super().double
    assert D(1).double == -2 and C.calls == [1]


def test_own_getattr_is_called_for_any_other_name():
    """A class's own ``__getattr__`` answers every other name, its AttributeError
    unchanged, and is not asked for a cached property."""
    asked = []
    error = AttributeError('mine')

    class C(DataClass, slots=True):
        x: int

        def __getattr__(self, name):
            asked.append(name)
            if name == 'answer':
                return 42
            raise error

        @functools.cached_property
        def double(self):
            return self.x * 2
    c = C(2)
    assert (c.double, c.answer, c.double) == (4, 42, 4) and asked == ['answer']
    with pytest.raises(AttributeError) as info:
        c.nothing  # noqa: B018
    assert info.value is error and asked == ['answer', 'nothing']


@pytest.mark.parametrize('sub_slots', [True, False])
def test_subclass_getattr_is_not_skipped(sub_slots):
    """A subclass's ``__getattr__`` (slotted or not) answers other names; the
    parent's cached property is still computed (attrs #1288)."""
    C = _define()

    class D(C, slots=sub_slots):
        def __getattr__(self, name):
            return f'D:{name}'

        @functools.cached_property
        def triple(self):
            return self.x * 3
    d = D(2)
    assert (d.double, d.triple, d.other) == (4, 6, 'D:other')
    assert (d.double, d.triple) == (4, 6) and C.calls == [2]


def test_mixin_getattr_before_or_after():
    """A mixin's ``__getattr__`` anywhere in the MRO answers other names; the
    cached properties of every data class in it are computed."""
    class Mixin:
        __slots__ = ()

        def __getattr__(self, name):
            if name == 'mixed':
                return 'mixin'
            raise AttributeError(f'mixin has no {name}')

    class A(DataClass, slots=True):
        @functools.cached_property
        def one(self):
            return 1

    class After(A, Mixin):
        @functools.cached_property
        def two(self):
            return 2

    class Before(Mixin, A):
        @functools.cached_property
        def two(self):
            return 2
    for cls in (After, Before):
        obj = cls()
        assert (obj.one, obj.two, obj.mixed) == (1, 2, 'mixin')
        with pytest.raises(AttributeError, match='^mixin has no other$'):
            obj.other  # noqa: B018


def test_attribute_error_inside_the_function_is_not_masked():
    """An AttributeError from within the function, even from a property it
    reads, reaches the caller with its own text (attrs #1230); the class's own
    ``__getattr__`` is not asked for the cached name."""
    class C(DataClass, slots=True):
        @property
        def inner(self):
            raise AttributeError('the real cause')

        @functools.cached_property
        def outer(self):
            return self.inner

    class D(C):
        def __getattr__(self, name):
            if name == 'inner':
                raise AttributeError('the real cause')
            return 'masked'
    for cls in (C, D) if SLOT_READS else (C,):
        with pytest.raises(AttributeError, match='^the real cause$'):
            cls().outer  # noqa: B018
    if not SLOT_READS:  # the descriptor's AttributeError goes to D's, as the stdlib's does
        assert D().outer == 'masked'


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


def test_cache_hash_never_carried_beside_it():
    """A slotted cached property's own state (its value read as it is) is filtered
    as ``cache_hash`` filters the default one: pickling and copying carry the value
    but not the cached hash."""
    C = _define(unsafe_hash=True, cache_hash=True)
    c = C(2)
    hash(c), c.double  # noqa: B018
    values, slots = c.__getstate__()
    assert '__dataclass_hash__' not in slots and 4 in slots.values()
    q = copy.copy(c)
    assert not hasattr(q, '__dataclass_hash__') and q.double == 4 and C.calls == [2]
    assert hash(q) == hash(c)


@pytest.mark.parametrize('cache_hash', [False, True])
def test_frozen_pickled_and_copied_fields_only(cache_hash):
    """A frozen slotted class (with ``cache_hash=True`` or not) pickles its fields
    only (the stdlib's state for one), so copying computes nothing, a copy computes
    its value when read, and hashes as the original."""
    C = _define(frozen=True, cache_hash=cache_hash)
    globals()['C'] = C
    C.__qualname__ = 'C'
    try:
        done, fresh = C(1), C(2)
        done.double  # noqa: B018
        for copier in (copy.copy, copy.deepcopy, lambda o: pickle.loads(pickle.dumps(o))):
            C.calls.clear()
            copies = copier(done), copier(fresh)
            assert C.calls == [] and hash(copies[0]) == hash(done) == hash((1,))
            assert (copies[0].double, copies[1].double) == (2, 4) and C.calls == [1, 2]
    finally:
        del globals()['C']


def test_replace_starts_empty():
    """``replace()`` makes a new instance through ``__init__``: computed again."""
    C = _define()
    c = C(1)
    c.double  # noqa: B018
    assert replace(c, x=4).double == 8 and C.calls == [1, 4]


def test_class_is_not_kept_alive(mortal_classes):
    """Nothing outside the class refers to it (the generated ``__getattr__``
    holds the functions and slots, not the class): it goes with its last
    reference, and its base lists it once (attrs #1220)."""
    C = _define()

    class D(C):
        @functools.cached_property
        def triple(self):
            return 3
    assert C.__subclasses__() == [D]
    D(1).triple  # noqa: B018
    refs = weakref.ref(C), weakref.ref(D)
    del C, D
    gc.collect()
    assert [ref() for ref in refs] == [None, None]


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
    if SLOT_READS:
        with pytest.raises(TypeError):
            C.__getattr__(types.SimpleNamespace(x=1), 'double')


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
