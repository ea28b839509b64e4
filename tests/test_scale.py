"""Scale: a class with 500 fields and an inheritance chain 100 deep work in full."""

import dataclasses
import inspect
import pickle

import pytest

from dataclass_meta import (
    DataClass, FrozenInstanceError, asdict, astuple, field, fields, make_dataclass,
    replace)

WIDTH = 500
DEPTH = 100


@pytest.fixture(params=[{}, {'frozen': True}, {'slots': True},
                        {'frozen': True, 'slots': True, 'order': True}],
                ids=['plain', 'frozen', 'slots', 'frozen-slots-order'])
def options(request):
    """Run the test for several option sets."""
    return request.param


def wide(options, name='Wide'):
    """A class with WIDTH int fields: f0..f249 required, f250..f499 defaulting to i."""
    half = WIDTH // 2
    specs = [(f'f{i}', int) for i in range(half)]
    specs += [(f'f{i}', int, field(default=i)) for i in range(half, WIDTH)]
    return make_dataclass(name, specs, module=__name__, **options)


def test_wide_class_init_repr_eq(options):
    """500 fields: positional, keyword and default arguments, repr, eq, fields order."""
    Wide = wide(options)
    values = list(range(1000, 1000 + WIDTH))
    a = Wide(*values)
    b = Wide(**{f'f{i}': v for i, v in enumerate(values)})
    assert a == b
    assert [f.name for f in fields(Wide)] == [f'f{i}' for i in range(WIDTH)]
    assert astuple(a) == tuple(values)
    assert repr(a) == 'Wide(' + ', '.join(f'f{i}={v}' for i, v in enumerate(values)) + ')'
    short = Wide(*range(WIDTH // 2))
    assert astuple(short) == tuple(range(WIDTH))
    assert short != a
    assert replace(a, f499=-1).f499 == -1 and replace(a, f499=-1) != a
    assert asdict(a)['f250'] == 1250
    assert len(inspect.signature(Wide).parameters) == WIDTH
    assert Wide.__match_args__ == tuple(f'f{i}' for i in range(WIDTH))


def test_wide_class_frozen_hash_order_pickle(options):
    """500 fields: hash, ordering, pickling and the frozen guard where options ask."""
    Wide = wide(options)
    globals()['Wide'] = Wide  # pickle finds it here
    a = Wide(*range(WIDTH // 2))
    assert pickle.loads(pickle.dumps(a)) == a
    if options.get('frozen'):
        assert hash(a) == hash(tuple(range(WIDTH)))
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'f7'"):
            a.f7 = 0
    if options.get('order'):
        assert a < replace(a, f499=WIDTH) and not a < a
    if options.get('slots'):
        assert len(Wide.__slots__) == WIDTH and not hasattr(a, '__dict__')


def test_wide_class_matches_stdlib():
    """500 fields: the same signature and repr as ``@dataclasses.dataclass``."""
    Wide = wide({})
    specs = [(f.name, f.type, dataclasses.field(default=f.default)) for f in fields(Wide)]
    Theirs = dataclasses.make_dataclass('Wide', specs)
    args = list(range(WIDTH // 2))
    assert str(inspect.signature(Wide)) == str(inspect.signature(Theirs))
    assert repr(Wide(*args)) == repr(Theirs(*args))


def chain(depth, **options):
    """C0 <- C1 <- ... each adding one field ``fi`` (default i) and overriding f0."""
    cls = make_dataclass('C0', [('f0', int, field(default=0))], module=__name__, **options)
    classes = [cls]
    for i in range(1, depth):
        cls = make_dataclass(f'C{i}', [(f'f{i}', int, field(default=i)),
                                       ('f0', int, field(default=-i))], bases=(cls,),
                             module=__name__)
        classes.append(cls)
    return classes


def test_deep_chain_fields_init_repr_eq(options):
    """100 levels: fields in base-first order, overrides in place, options inherited."""
    classes = chain(DEPTH, **options)
    last = classes[-1]
    assert [f.name for f in fields(last)] == [f'f{i}' for i in range(DEPTH)]
    instance = last()
    assert astuple(instance) == (-(DEPTH - 1),) + tuple(range(1, DEPTH))
    assert instance == last(*astuple(instance))
    assert instance != classes[-2](*astuple(instance)[:-1])  # a parent never equals
    text = ', '.join(f'f{i}={v}' for i, v in enumerate(astuple(instance)))
    assert repr(instance) == f'C{DEPTH - 1}({text})'
    assert last.__mro__[:DEPTH] == tuple(reversed(classes))
    for key, value in options.items():
        assert getattr(last.__dataclass_params__, key) is value
    middle = classes[DEPTH // 2](f0=5)
    assert middle.f0 == 5 and len(fields(middle)) == DEPTH // 2 + 1


def test_deep_chain_slots_are_not_repeated():
    """100 slotted levels: each level slots only its new field."""
    classes = chain(DEPTH, slots=True, frozen=True)
    assert classes[0].__slots__ == ('f0',)
    assert all(cls.__slots__ == (f'f{i}',) for i, cls in enumerate(classes) if i)
    instance = classes[-1]()
    assert not hasattr(instance, '__dict__')
    globals().update({cls.__name__: cls for cls in classes})  # pickle finds them here
    assert pickle.loads(pickle.dumps(instance)) == instance


def test_deep_chain_with_post_init_and_super():
    """100 levels of ``__post_init__`` calling zero-argument ``super()`` all run, in order."""
    class Root(DataClass):
        trail: list = field(default_factory=list)

        def __post_init__(self):
            self.trail.append(0)

    cls = Root
    for i in range(1, DEPTH):
        class Level(cls, slots=i % 2 == 0):
            def __post_init__(self, i=i):
                super().__post_init__()
                self.trail.append(i)
        cls = Level
    assert cls().trail == list(range(DEPTH))
