"""Fields: what ``field()`` takes and shows, what a class collects from its
annotations, and the fields merged from bases (reverse MRO), which match
``@dataclass``'s order and overrides for chains, diamonds and mixins; deep
chains stay cheap to build."""

import dataclasses
import sys
from dataclasses import MISSING

import pytest
from hypothesis import given, settings, strategies as st

import dataclass_meta
from dataclass_meta import DataClass, field, fields

from .outcomes import both_ways, define


# -- field() and the fields a class collects -----------------------------------------

def test_field_options_reach_the_field():
    """Every ``field()`` argument is stored on the Field, with the stdlib's defaults."""
    f = field()
    assert (f.default, f.default_factory, f.init, f.repr, f.hash, f.compare,
            f.kw_only, f.doc) == (MISSING, MISSING, True, True, None, True, MISSING, None)
    assert f.metadata == {}

    class C(DataClass):
        x: int = field(default=1, init=False, repr=False, hash=False, compare=False,
                       metadata={'unit': 'm'}, kw_only=True, doc='the x')

    (x,) = fields(C)
    assert (x.name, x.type, x.default, x.init, x.repr, x.hash, x.compare, x.kw_only,
            x.doc) == ('x', int, 1, False, False, False, False, True, 'the x')
    assert dict(x.metadata) == {'unit': 'm'}
    with pytest.raises(TypeError):
        x.metadata['unit'] = 'ft'  # read-only, as the stdlib's


@pytest.mark.parametrize('lib', [dataclass_meta, dataclasses], ids=['ours', 'stdlib'])
def test_repr_compare_hash_flags(lib):
    """``repr``/``compare``/``hash`` flags select the fields of each method."""
    class C(DataClass, frozen=True, order=True):
        a: int
        b: int = lib.field(default=0, repr=False)
        c: int = lib.field(default=0, compare=False)
        d: int = lib.field(default=0, hash=False)
        e: int = lib.field(default=0, compare=False, hash=True)

    assert repr(C(1, 2, 3, 4, 5)) == 'test_repr_compare_hash_flags.<locals>.C(a=1, c=3, d=4, e=5)'
    assert C(1, c=3) == C(1, c=4) and C(1, b=1) != C(1, b=2) and C(1, d=1) != C(1)
    assert C(1, c=9) < C(1, b=1) and not C(1, c=9) < C(1, c=0)
    assert hash(C(1, 2, 3, 4, 5)) == hash((1, 2, 5))


def test_field_types_and_class_defaults():
    """Fields keep their annotation; class attributes hold plain defaults, or nothing."""
    class C(DataClass):
        a: int
        d: float = field(repr=False)
        b: str = field(default='b')
        c: list = field(default_factory=list)

    assert [f.type for f in fields(C)] == [int, float, str, list]
    assert C.b == 'b' and 'c' not in C.__dict__ and 'd' not in C.__dict__


def test_field_repr_shows_doc_as_314():
    """``repr(field(doc=...))`` is 3.14's on every Python: ``doc`` before ``_field_type``."""
    text = repr(field(default=1, doc='the x'))
    assert text.startswith('Field(name=None,type=None,default=1,')
    assert text.endswith(",kw_only=%r,doc='the x',_field_type=None)" % dataclasses.MISSING)
    if sys.version_info >= (3, 14):
        assert text == repr(dataclasses.field(default=1, doc='the x'))


def test_recursive_field_repr():
    """A field that is its own type shows ``type=...``, as the stdlib's guard gives."""
    f = field()
    f.type = f
    f.name = 'id'
    text = repr(f)
    assert ',type=...,' in text and text.count(',doc=None,') == 1
    std = dataclasses.field()
    std.type = std
    std.name = 'id'
    assert ',type=...,' in repr(std)


def _slots(f):
    """Every stdlib slot of a field this Python has, as (name, value) pairs."""
    return [(name, getattr(f, name)) for name in dataclasses.Field.__slots__
            if name != '_field_type']


@pytest.mark.parametrize('slots', [False, True])
def test_stdlib_field_in_the_body_is_made_ours_keeping_every_attribute(backend, slots):
    """``dataclasses.field()`` in a body gives a ``dataclass_meta.Field`` (still a
    ``dataclasses.Field``) whose every stdlib attribute is what the stdlib keeps."""
    extra = {'doc': 'the x'} if sys.version_info >= (3, 14) else {}

    def body():
        return {'__annotations__': {'x': int, 'y': list, 'z': str},
                'x': dataclasses.field(default=1, repr=False, hash=True, compare=False,
                                       metadata={'m': 1}, kw_only=True, **extra),
                'y': dataclasses.field(default_factory=list, init=False),
                'z': dataclasses.field()}

    std, ours = both_ways('C', body, slots=slots)
    for f, expected in zip(fields(ours), dataclasses.fields(std)):
        assert type(f) is dataclass_meta.Field and isinstance(f, dataclasses.Field)
        assert _slots(f) == _slots(expected)
        assert (f.converter, f.validator, f.alias) == (None, None, f.name)
    assert fields(ours)[0].doc == extra.get('doc')
    assert ours.__dataclass_fields__['x'] is fields(ours)[0]
    assert (ours(z='a', x=2).x, ours(z='a').y) == (2, [])


def test_fields_of_a_stdlib_parent_are_made_ours(backend):
    """A ``@dataclasses.dataclass`` parent keeps its own fields; the child holds ours."""
    @dataclasses.dataclass
    class Std:
        a: int = dataclasses.field(default=1, metadata={'m': 1})

    class C(Std, DataClass):
        b: int = 2

    assert [type(f) for f in fields(C)] == [dataclass_meta.Field] * 2
    assert _slots(fields(C)[0]) == _slots(dataclasses.fields(Std)[0])
    assert type(dataclasses.fields(Std)[0]) is dataclasses.Field
    assert C() == C(1, 2) and repr(C(3)).endswith('C(a=3, b=2)')


def _replace_field(f, **changes):
    """``copy.replace(f, ...)`` where Python has it (3.13+), else the method it calls."""
    if sys.version_info >= (3, 13):
        import copy
        return copy.replace(f, **changes)
    return f.__replace__(**changes)


def test_field_replace_derives_a_changed_copy(backend):
    """``copy.replace(f, **changes)``: a new field, the original untouched, every other
    attribute (a subclass's own too) kept; metadata stored as ``field()`` stores it."""
    class Tagged(dataclass_meta.Field):
        __slots__ = ('tag',)

    f = Tagged(1, MISSING, True, True, None, True, {'a': 1}, MISSING, 'doc', converter=int)
    f.tag = 't'
    g = _replace_field(f, default=2, metadata={'b': 2}, alias='x', name='n')
    assert (type(g), g.tag, g.default, dict(g.metadata), g.alias, g.name) == (
        Tagged, 't', 2, {'b': 2}, 'x', 'n')
    assert (g.converter, g.doc, g.init, g.kw_only) == (int, 'doc', True, MISSING)
    assert (f.default, dict(f.metadata), f.alias, f.name) == (1, {'a': 1}, None, None)
    assert isinstance(g.metadata, type(dataclasses.field(metadata={}).metadata))
    assert _replace_field(f, metadata=None).metadata == {}


def test_field_replace_in_a_hook_changes_one_field(backend):
    """In a field hook one call derives the changed field; the parent keeps its own."""
    class Base(DataClass):
        def __transform_fields__(cls, fields):
            return [_replace_field(f, converter=int) if f.name == 'n' else f
                    for f in fields]

    class A(Base):
        n: int = 0

    class B(A):
        m: int = 1

    assert (A('2').n, B('3').n) == (2, 3)
    assert A.__dataclass_fields__['n'] is not B.__dataclass_fields__['n']
    assert fields(B)[0].alias == 'n' and fields(B)[0].default == 0


@pytest.mark.parametrize('changes, error, message', [
    ({'default_factory': list}, ValueError, 'cannot specify both default and default_factory'),
    ({'default': []}, ValueError,
     "mutable default <class 'list'> for field x is not allowed: use default_factory"),
    ({'_field_type': None}, TypeError,
     "Field.__replace__() got an unexpected keyword argument '_field_type'"),
    ({'colour': 1}, TypeError, "Field.__replace__() got an unexpected keyword argument 'colour'"),
])
def test_field_replace_checks_as_the_class_body_does(changes, error, message):
    """A replaced field of a class is checked as one written in its body, with the
    stdlib's errors; an unknown keyword is refused as a call would be."""
    class C(DataClass):
        x: int = 0

    with pytest.raises(error) as info:
        _replace_field(fields(C)[0], **changes)
    assert str(info.value) == message


def test_field_replace_keeps_the_kind_checks_of_a_classvar():
    """A ClassVar stays one: ``kw_only`` or a default factory is the stdlib's error."""
    from typing import ClassVar

    class C(DataClass):
        k: ClassVar[int] = 0

    k = C.__dataclass_fields__['k']
    with pytest.raises(TypeError, match='^field k is a ClassVar but specifies kw_only$'):
        _replace_field(k, kw_only=True)
    with pytest.raises(TypeError, match='^field k cannot have a default factory$'):
        _replace_field(k, default=MISSING, default_factory=int)
    assert _replace_field(k, default=1).default == 1


# -- fields merged from the bases ----------------------------------------------------

def build(spec, ours):
    """Classes from (bases as indexes into earlier classes, own field defaults)."""
    made = []
    for i, (base_ids, own) in enumerate(spec):
        bases = tuple(made[j] for j in base_ids)
        ns = {'__annotations__': {name: int for name in own}, **own}
        made.append(define(ours, f'K{i}', ns, bases))
    return made


def hierarchies():
    """Up to six classes, each with up to two earlier bases and a few fields."""
    def one(i):
        return st.tuples(
            st.lists(st.integers(0, max(i - 1, 0)), unique=True, max_size=2 if i else 0),
            st.dictionaries(st.sampled_from('abcdef'), st.integers(0, 9), max_size=3))
    return st.integers(1, 6).flatmap(lambda n: st.tuples(*[one(i) for i in range(n)]))


@settings(max_examples=80, deadline=None)
@given(spec=hierarchies())
def test_merge_matches_stdlib(spec):
    """Every class of a random hierarchy has the stdlib's fields, order and defaults."""
    try:
        theirs = build(spec, ours=False)
    except TypeError:  # no consistent MRO (or another error): ours must refuse too
        with pytest.raises(TypeError):
            build(spec, ours=True)
        return
    mine = build(spec, ours=True)
    for a, b in zip(mine, theirs):
        assert ([(n, f.default) for n, f in a.__dataclass_fields__.items()]
                == [(n, f.default) for n, f in b.__dataclass_fields__.items()])


def test_deep_chain_has_every_field_in_order():
    """A 150-deep chain, one field per level: all fields, oldest first."""
    cls = DataClass
    for level in range(150):
        cls = type(DataClass)(f'L{level}', (cls,), {'__annotations__': {f'f{level}': int},
                                                  f'f{level}': level})
    assert list(cls.__dataclass_fields__) == [f'f{i}' for i in range(150)]
    assert cls().f149 == 149


def test_fields_merge_in_reverse_mro():
    """Fields come base first; a redefinition keeps its place but takes the new spec."""
    class A(DataClass):
        x: int = 1
        y: int = 2

    class B(A):
        z: int = 3
        x: int = 10

    assert [f.name for f in fields(B)] == ['x', 'y', 'z']
    assert B().x == 10


def test_fields_of_three_levels_in_base_first_order():
    """Fields merge over the whole MRO, base first, overrides keeping their place."""
    class A(DataClass):
        a: int = 1
        x: int = 0

    class B(A):
        b: int = 2

    class C(B):
        x: int = 9
        c: int = 3

    assert [(f.name, f.default) for f in fields(C)] == [
        ('a', 1), ('x', 9), ('b', 2), ('c', 3)]


def test_diamond_fields_match_stdlib():
    """Multiple inheritance collects fields in the stdlib's order."""
    def build(decorate, base=()):
        A = decorate(type('A', base, {'__annotations__': {'a': int}, 'a': 0}))
        B = decorate(type('B', (A,), {'__annotations__': {'b': int}, 'b': 0}))
        D = decorate(type('D', (A,), {'__annotations__': {'d': int}, 'd': 0}))
        E = decorate(type('E', (B, D), {'__annotations__': {'e': int}, 'e': 0}))
        return [f.name for f in dataclasses.fields(E)]

    assert build(lambda c: c, (DataClass,)) == build(dataclasses.dataclass)
