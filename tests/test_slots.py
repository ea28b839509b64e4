"""``slots=True``: built once in the metaclass, so ``super()`` and hooks just work."""

import dataclasses
import inspect
import pickle
import sys
import weakref
from dataclasses import MISSING
from typing import ClassVar

import pytest

from dataclass_meta import DataClass, FrozenInstanceError, InitVar, field, fields

from .outcomes import define, outcome

# Classes defined inside a test use each backend in turn (tests/conftest.py).
pytestmark = pytest.mark.usefixtures('backend')

# 3.13's dataclasses is the contract; older ones differ in slots and weakref_slot.
STDLIB_CONTRACT = sys.version_info >= (3, 13)


def test_slots_replace_dict():
    """Instances have no ``__dict__``; class defaults stay visible through init."""
    class C(DataClass, slots=True):
        x: int
        y: int = 5

    c = C(1)
    assert C.__slots__ == ('x', 'y')
    assert not hasattr(c, '__dict__')
    assert c.y == 5
    with pytest.raises(AttributeError):
        c.z = 1


def test_zero_argument_super_and_class_cell():
    """``super()`` and ``__class__`` in a slotted class's methods see the one class."""
    class Base(DataClass, slots=True):
        x: int

        def describe(self):
            return 'base'

    class C(Base):
        y: int = 0

        def describe(self):
            return 'c+' + super().describe()

        def __post_init__(self):
            assert __class__ is C
            super().describe()

    assert C(1).describe() == 'c+base'
    assert type(C(1)) is C


def test_init_subclass_runs_once_with_keywords():
    """A parent's ``__init_subclass__`` runs exactly once, with its class keywords."""
    calls = []

    class Base(DataClass):
        def __init_subclass__(cls, *, tag=None, **kw):
            super().__init_subclass__(**kw)
            calls.append((cls.__name__, tag))

    class C(Base, slots=True, tag='t'):
        x: int

    assert calls == [('C', 't')]


def test_set_name_runs_once():
    """``__set_name__`` of class attributes runs once, on the final class."""
    owners = []

    class Tracker:
        def __set_name__(self, owner, name):
            owners.append(owner)

    class C(DataClass, slots=True):
        x: int
        tracker = Tracker()

    assert owners == [C]


def test_explicit_slots_is_an_error():
    """``slots=True`` with ``__slots__`` in the body is the stdlib's error."""
    with pytest.raises(TypeError, match='^C already specifies __slots__$'):
        class C(DataClass, slots=True):
            __slots__ = ('x',)
            x: int


def test_weakref_slot():
    """``weakref_slot=True`` adds ``__weakref__``; without slots it is an error."""
    class C(DataClass, slots=True, weakref_slot=True):
        x: int

    c = C(1)
    assert weakref.ref(c)() is c
    with pytest.raises(TypeError, match='^weakref_slot is True but slots is False$'):
        class D(DataClass, weakref_slot=True):
            x: int


def test_slots_inherit_and_skip_parent_slots():
    """A slotted child of a slotted parent adds slots only for its new fields."""
    class A(DataClass, slots=True):
        x: int

    class B(A):
        y: int = 0

    assert B.__slots__ == ('y',)
    assert B.__dataclass_params__.slots
    assert B(1, 2).x == 1 and not hasattr(B(1), '__dict__')


def test_field_doc_becomes_slot_doc():
    """``field(doc=...)`` documents the slot descriptor (3.14's behaviour)."""
    class C(DataClass, slots=True):
        x: int = field(doc='the x coordinate')
        y: int = 0

    assert inspect.getdoc(C.__dict__['x']) == 'the x coordinate'
    assert C.__dataclass_fields__['x'].doc == 'the x coordinate'


def test_signature_of_slotted_class():
    """Slotted classes still have the generated signature and doc."""
    class C(DataClass, slots=True):
        x: int
        y: list = field(default_factory=list)

    assert str(inspect.signature(C)) == '(x: int, y: list = <factory>) -> None'
    assert C.__doc__ == 'C(x: int, y: list = <factory>)'


def test_redeclared_field_takes_inherited_default():
    """A slotted subclass redeclaring a field keeps the base's default, as
    ``@dataclass(slots=True)`` does (it looks before adding slots)."""
    class Base(DataClass):
        x: int = 5

    class Child(Base, slots=True):
        x: int

    @dataclasses.dataclass
    class StdBase:
        x: int = 5

    @dataclasses.dataclass(slots=True)
    class StdChild(StdBase):
        x: int

    assert fields(Child)[0].default == dataclasses.fields(StdChild)[0].default == 5
    assert Child().x == StdChild().x == 5


def test_redeclared_as_initvar_gets_no_slot():
    """A base field redeclared as an InitVar (with a default) is no field: no slot,
    no clash with the InitVar's default."""
    class Base(DataClass):
        a: int
        c: int

    class Child(Base, slots=True):
        c: InitVar[int] = 0

    @dataclasses.dataclass
    class StdBase:
        a: int
        c: int

    @dataclasses.dataclass(slots=True)
    class StdChild(StdBase):
        c: InitVar[int] = 0

    assert Child.__slots__ == StdChild.__slots__ == ('a',)
    assert [f.name for f in fields(Child)] == ['a']


def test_pickle_subclass_of_frozen_slotted_class_keeps_its_fields():
    """A non-slotted frozen subclass inherits ``__getstate__``/``__setstate__``
    and still pickles its own fields (the stdlib reads ``fields(self)``)."""
    class Base(DataClass, frozen=True, slots=True):
        x: int

    class Child(Base, frozen=True, slots=False):
        y: int

    globals().update(Base=Base, Child=Child)  # pickle finds classes by name
    Base.__qualname__, Child.__qualname__ = 'Base', 'Child'
    try:
        restored = pickle.loads(pickle.dumps(Child(1, 2)))
    finally:
        del globals()['Base'], globals()['Child']
    assert (restored.x, restored.y) == (1, 2)


def test_slots_follow_field_order_after_redeclaration():
    """A base InitVar redeclared as a field keeps its place: ``__slots__`` lists
    the fields in ``fields()`` order, as the stdlib's does."""
    class Base(DataClass):
        a: int
        c: InitVar[int]
        b: int

    class Child(Base, slots=True):
        c: int
        d: int

    @dataclasses.dataclass
    class StdBase:
        a: int
        c: InitVar[int]
        b: int

    @dataclasses.dataclass(slots=True)
    class StdChild(StdBase):
        c: int
        d: int

    assert Child.__slots__ == StdChild.__slots__ == ('a', 'c', 'b', 'd')


def test_unannotated_names_of_inherited_fields_do_not_clash_with_slots():
    """A slotted subclass may assign an inherited field's name without an
    annotation: no slot clash; a ``field()`` there is the stdlib's TypeError."""
    class Base(DataClass):
        d: int = 1

    class Plain(Base, slots=True):
        d = 5

    assert Plain.__slots__ == ('d',) and Plain().d == 1  # the stdlib's result too
    with pytest.raises(TypeError, match="^'d' is a field but has no type annotation$"):
        class Child(Base, slots=True):
            d = field(default=2)


@pytest.mark.parametrize('order', [('d', 'f'), ('f', 'd')])
def test_unannotated_field_named_first_in_the_body_order(order):
    """Of several unannotated ``field()``s (one for an inherited field's name, which
    a slotted class moves out of its namespace), the error names the body's first,
    as the stdlib's does."""
    def body():
        return {'__annotations__': {'c': int}, **{n: dataclasses.field() for n in order}}

    errors = []
    for ours in (False, True):
        parent = define(ours, 'P', {'__annotations__': {'c': int, 'd': int}})
        errors.append(outcome(lambda: define(ours, 'C', body(), (parent,), slots=True)))
    assert errors[0] == errors[1] == (
        'raised', TypeError, f'{order[0]!r} is a field but has no type annotation')


def test_inherited_weakref_slot_follows_slots_false():
    """``slots=False`` below a ``weakref_slot=True`` parent drops the inherited flag."""
    import weakref

    class P(DataClass, slots=True, weakref_slot=True):
        x: int

    class C(P, slots=False):
        y: int = 0

    assert C.__dataclass_params__.weakref_slot is False
    c = C(1)
    assert weakref.ref(c)() is c


def test_iterator_slots_in_a_base_cannot_be_determined():
    """A base whose ``__slots__`` is an iterator: the stdlib's ``TypeError``."""
    class Root:
        __slots__ = iter(['x'])

    class Root2(Root):
        __slots__ = ('y',)

    with pytest.raises(TypeError, match="^Slots of 'Root' cannot be determined$"):
        class C(DataClass, Root2, slots=True):
            z: int
    if sys.version_info >= (3, 11):  # 3.10 does not check, and slots it
        with pytest.raises(TypeError, match="^Slots of 'Root' cannot be determined$"):
            @dataclasses.dataclass(slots=True)
            class S(Root2):
                z: int


@pytest.mark.parametrize('order', ['generic-first', 'dataclass-first'])
def test_weakref_slot_on_a_generic_class(order):
    """``Generic[T]`` (a C type on 3.12+, without ``__slots__``) has no ``__weakref__``:
    ``weakref_slot=True`` adds one, as the stdlib does."""
    import typing
    T = typing.TypeVar('T')

    bases = (typing.Generic[T], DataClass)
    bases = bases if order == 'generic-first' else bases[::-1]

    class C(*bases, slots=True, weakref_slot=True):
        x: int

    assert C.__slots__ == ('x', '__weakref__')
    assert weakref.ref(C(1))() is not None
    if sys.version_info >= (3, 11):  # 3.10 has no weakref_slot
        @dataclasses.dataclass(slots=True, weakref_slot=True)
        class S(typing.Generic[T]):
            x: int
        assert S.__slots__ == C.__slots__


def test_redeclared_slot_field_has_no_default():
    """Re-annotating a slotted parent's field does not take its slot as a default."""
    class P(DataClass, slots=True):
        x: int

    class C(P):
        x: int
        y: int

    assert fields(C)[0].default is MISSING and C(1, 2).x == 1


@pytest.mark.parametrize('frozen', [False, True])
def test_slotted_defaults_and_init_false(frozen):
    """Slotted classes keep defaults (taken out of the namespace) and init=False values."""
    class C(DataClass, slots=True, frozen=frozen):
        x: int
        y: int = 5
        z: int = field(init=False, default=9)
        w: list = field(init=False, default_factory=list)

    c = C(1)
    assert (c.x, c.y, c.z, c.w) == (1, 5, 9, [])
    assert fields(C)[1].default == 5 and fields(C)[2].default == 9
    assert not hasattr(c, '__dict__')


def test_frozen_slotted_init_and_pickle():
    """A frozen slotted class stores through its slots and pickles with its state."""
    class C(DataClass, slots=True, frozen=True):
        x: int
        y: str = 'y'

    globals()['FrozenSlottedGap'] = C
    C.__qualname__ = 'FrozenSlottedGap'
    c = C(1)
    assert (c.x, c.y) == (1, 'y') and C.__getstate__(c) == [1, 'y']
    assert pickle.loads(pickle.dumps(c)) == c
    with pytest.raises(FrozenInstanceError):
        c.x = 2


def _slots_both_ways(specs, **options):
    """Our last class and the stdlib's (3.13+, else None), for (name, parent indexes,
    annotations, options) specs."""
    result = []
    for ours in (True, False) if STDLIB_CONTRACT else (True,):
        made = []
        for name, parents, annotations, opts in specs:
            bases = tuple(made[i] for i in parents)
            made.append(define(ours, name, {'__annotations__': annotations}, bases, **opts))
        result.append(made[-1])
    return (result + [None])[:2]


@pytest.mark.parametrize('specs, expected', [
    ([('P', (), {'x': int}, {'slots': True}), ('C', (0,), {'y': int}, {'slots': True})],
     ('y',)),
    ([('P', (), {'x': int}, {}), ('C', (0,), {'y': int}, {'slots': True})], ('x', 'y')),
    ([('P', (), {'x': int, 'v': InitVar[int], 'k': ClassVar[int]}, {}),
      ('C', (0,), {'y': int}, {'slots': True, 'weakref_slot': True})], ('x', 'y')),
    ([('P', (), {'x': int}, {'slots': True, 'weakref_slot': True}),
      ('C', (0,), {'y': int}, {'slots': True, 'weakref_slot': True})], ('y',)),
], ids=['slotted-parent', 'dict-parent', 'initvar-classvar-parent', 'weakref-twice'])
def test_slots_match_stdlib(specs, expected):
    """The slots a class adds are 3.13's, for parents slotted or not."""
    ours, theirs = _slots_both_ways(specs)
    assert tuple(ours.__slots__) == expected
    if STDLIB_CONTRACT:  # older stdlibs repeat inherited slots or lack weakref_slot
        assert tuple(theirs.__slots__) == expected


def test_slots_inherited_as_an_option():
    """A subclass of a slotted class is slotted too, adding only its own fields."""
    class Mixin:
        __slots__ = 'm'

    class P(Mixin, DataClass, slots=True, weakref_slot=True):
        x: int
        k: 'ClassVar[int]' = 3

    class C(P):
        y: int = 0

    assert C.__slots__ == ('y',) and C.k == 3 and 'k' not in P.__slots__
    c = C(1)
    assert not hasattr(c, '__dict__') and (c.x, c.y) == (1, 0)
    c.m = 5
    assert c.m == 5


def test_slot_docs_from_field_doc():
    """``field(doc=...)`` becomes the slot's docstring (3.14's behaviour)."""
    class C(DataClass, slots=True):
        x: int = field(doc='the x')
        y: int = 0

    assert C.__slots__ == {'x': 'the x', 'y': None}
    assert inspect.getdoc(C.x) == 'the x'


def test_weakref_slot_on_a_root_class():
    """``weakref_slot=True`` adds the ``__weakref__`` slot, so instances take weakrefs."""
    import weakref

    class C(DataClass, slots=True, weakref_slot=True):
        x: int

    c = C(1)
    assert C.__slots__ == ('x', '__weakref__') and weakref.ref(c)() is c


def test_inherited_slots_seen_through_the_whole_mro():
    """Slots and ``__dict__``/``__weakref__`` anywhere above are not added again."""
    import weakref

    class Plain:
        pass

    class Named:
        __slots__ = 'mm'

    class A(Named, DataClass, slots=True):
        mm: int
        a: int

    class B(A):
        b: int

    class C(B):
        c: int

    assert (A.__slots__, B.__slots__, C.__slots__) == (('a',), ('b',), ('c',))
    assert C(1, 2, 3, 4).mm == 1

    class P(DataClass, Plain):
        p: int

    class Q(P, slots=True, weakref_slot=True):
        q: int

    assert Q.__slots__ == ('p', 'q') and weakref.ref(Q(1, 2))() is not None
