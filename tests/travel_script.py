"""Classes sent by value, in two processes: ``home PICKLER FILE`` defines data
classes in ``__main__`` (and in a function), pickles them with the function that
observes them, and prints its own observations; ``away PICKLER FILE``, a fresh
process that never saw this module's classes, loads the payload and prints
what the same function observes there. tests/test_travel.py compares the two.
"""

import json
import sys

MODE, PICKLER, PATH = sys.argv[1:4]
pickler = __import__(PICKLER)


def observe(cases, make_again, pickler_name):
    """What a user sees of each class: reprs, comparisons, errors, signatures."""
    import copy
    import dataclasses
    import inspect
    import re

    import dataclass_meta
    pickle = __import__(pickler_name)  # the instances of a travelled class go the same way

    def attempt(call):
        try:
            text = repr(call())
        except Exception as exc:  # the error's type and text are observed
            text = f'{type(exc).__name__}: {exc}'
        return re.sub('0x[0-9a-f]+', '0x...', text)

    out = {}
    for name, (cls, args, kwargs) in cases.items():
        a, b = cls(*args, **kwargs), cls(*args, **kwargs)
        seen = out[name] = {}
        seen['repr'] = attempt(lambda: a)
        seen['eq'] = attempt(lambda: a == b)
        seen['hash'] = attempt(lambda: hash(a) if type(a).__hash__ is not object.__hash__ else 'id')
        seen['lt'] = attempt(lambda: a < b)
        seen['fields'] = [(f.name, str(f.type), f.init, f.repr, f.compare, f.hash, f.kw_only,
                           dict(f.metadata), f.default is dataclasses.MISSING,
                           f.default_factory is dataclasses.MISSING)
                          for f in dataclasses.fields(cls)]
        seen['params'] = repr(cls.__dataclass_params__)
        seen['asdict'] = attempt(lambda: dataclasses.asdict(a))
        seen['astuple'] = attempt(lambda: dataclass_meta.astuple(a))
        seen['match_args'] = attempt(lambda: cls.__match_args__)
        seen['signature'] = attempt(lambda: str(inspect.signature(cls)))
        seen['doc'] = cls.__doc__
        seen['pickled'] = attempt(lambda: pickle.loads(pickle.dumps(a)))
        seen['deepcopy'] = attempt(lambda: copy.deepcopy(a))
        seen['set'] = attempt(lambda: setattr(a, dataclasses.fields(a)[0].name, 7) or a)
        seen['del'] = attempt(lambda: delattr(b, dataclasses.fields(b)[0].name) or b)
        seen['new_attr'] = attempt(lambda: setattr(cls(*args, **kwargs), 'zzz', 1))
        seen['replace'] = attempt(lambda: dataclass_meta.replace(cls(*args, **kwargs)))
        seen['no_args'] = attempt(lambda: cls())
        seen['slots'] = attempt(lambda: (cls.__dict__.get('__slots__'),
                                         hasattr(cls(*args, **kwargs), '__dict__')))
        seen['is_dataclass'] = dataclasses.is_dataclass(cls)
        seen['backend'] = type(cls.__init__).__name__ if dataclass_meta.BACKEND == 'compiled' \
            else 'pure'
        seen['tracked'] = attempt(lambda: __import__('gc').is_tracked(cls(*args, **kwargs)))
    out['extra'] = make_again()
    return out


if MODE == 'home':
    import functools
    import typing
    from typing import ClassVar, Generic, TypeVar

    from dataclass_meta import (DataClass, DataClassMeta, InitVar, KW_ONLY, field,
                                make_dataclass)
    from travel_base import ImportableBase

    class Plain(DataClass):
        x: int
        y: str = 'y'

    class Point(DataClass, frozen=True, order=True, slots=True, weakref_slot=True):
        x: int
        y: int = 0

        def norm(self):
            return abs(self.x) + abs(self.y)

    class Hashed(DataClass, unsafe_hash=True, eq=True, kw_only=True, match_args=False):
        a: int
        b: list = field(default_factory=list, hash=False, compare=False)

    class Quiet(DataClass, repr=False, init=False, eq=False):
        a: int = 1

    class Cached(DataClass, frozen=True, slots=True, cache_hash=True):
        a: int
        b: tuple = ()

        @functools.cached_property
        def total(self):
            return self.a + len(self.b)

    class DictHash(DataClass, frozen=True, cache_hash=True):  # no SlotLayout to carry
        a: int
        b: str = 'h'

    class NoGC(DataClass, frozen=True, slots=True, gc=False):
        a: int
        b: str = 's'

    def positive(instance, attribute, value):
        if value < 0:
            raise ValueError('must be positive')

    class Hooks(DataClass):
        n: int = field(converter=int, validator=positive)
        _token: str = field(default='', alias='token')
        secret: str = field(default='x', repr=False, metadata={'unit': 'm'})
        scale: InitVar[int] = 1
        K: ClassVar[int] = 3
        _: KW_ONLY
        late: int = 0

        def __post_init__(self, scale):
            self.n = self.n * scale

    class Sub(Point):
        z: int = 9

    class Away(ImportableBase):
        extra: str = 'e'

    T = TypeVar('T')

    class Box(DataClass, Generic[T]):
        item: T

    Made = make_dataclass('Made', [('a', int), ('b', int, field(default=2))],
                          frozen=True)

    class Registry(DataClassMeta):
        """A framework's metaclass: a keyword, a registry and a field hook."""

        __class_keywords__ = ('table',)
        seen = []

        def __transform_fields__(cls, fields):
            for f in fields:
                f.metadata = {**f.metadata, 'hooked': True}
            return super().__transform_fields__(fields)

    class Model(DataClass, metaclass=Registry, frozen=True):
        def __init_subclass__(cls, *, table=None, **kwargs):
            super().__init_subclass__(**kwargs)
            cls.__table__ = table or cls.__name__.lower()

    class User(Model, table='users'):
        id: int
        name: str = ''

    def inside():
        class Local(DataClass, order=True):
            v: float
        return Local

    Local = inside()

    cases = {
        'plain': (Plain, (1,), {}),
        'point': (Point, (1, 2), {}),
        'hashed': (Hashed, (), {'a': 1}),
        'quiet': (Quiet, (), {}),
        'cached': (Cached, (1, (2,)), {}),
        'dicthash': (DictHash, (3,), {}),
        'nogc': (NoGC, (1,), {}),
        'hooks': (Hooks, ('3',), {'token': 't', 'scale': 2, 'late': 4}),
        'sub': (Sub, (1, 2, 3), {}),
        'away': (Away, (1,), {}),
        'made': (Made, (1,), {}),
        'user': (User, (1, 'ann'), {}),
        'local': (Local, (1.5,), {}),
    }
    if PICKLER != 'dill':  # dill sends a TypeVar by reference only
        cases['box'] = (Box, ([1],), {})
        if sys.version_info >= (3, 12):  # 3.10/3.11 cannot parse PEP 695's syntax
            from travel_generic import Pair
            cases['pep695'] = (Pair, (1, 'a'), {})

    def make_again():
        """What the class-level work and the methods give beyond the cases."""
        user = cases['user'][0]
        hooks = cases['hooks'][0]
        cached = cases['cached'][0](1, (2, 3))
        point = cases['point'][0]
        return {
            'table': user.__table__,
            'hooked': [f.metadata.get('hooked') for f in user.__dataclass_fields__.values()],
            'meta': type(user).__name__,
            'validator': _error(lambda: hooks(-1)),
            'converter': repr(hooks('5', token='a')),
            'by_name': _error(lambda: repr(hooks(2, _token='b'))),
            'cached': [cached.total, cached.total, hash(cached) == hash(cached)],
            'norm': point(3, -4).norm(),
            'sorted': repr(sorted([point(2, 1), point(1, 5)])),
            'weakref': _error(lambda: __import__('weakref').ref(point(1, 1)) is not None),
            'subclass': issubclass(cases['sub'][0], point),
            'box': repr(cases['box'][0][int](item=3)) if 'box' in cases else None,
        }

    def _error(call):
        try:
            return call()
        except Exception as exc:
            return f'{type(exc).__name__}: {exc}'

    # dill sends a function's globals along only when asked (recurse=True)
    options = {'recurse': True} if PICKLER == 'dill' else {}
    payload = pickler.dumps((cases, make_again, observe), **options)
    with open(PATH, 'wb') as f:
        f.write(payload)
    again = pickler.loads(payload)  # a second load in this process: the same classes
    print(json.dumps({'home': observe(cases, make_again, PICKLER),
                      'same': PICKLER == 'dill'
                      or all(again[0][k][0] is v[0] for k, v in cases.items())},
                     default=repr))
else:
    with open(PATH, 'rb') as f:
        payload = f.read()
    cases, make_again, look = pickler.loads(payload)
    second = pickler.loads(payload)  # cloudpickle's promise: the same classes again
    print(json.dumps({'away': look(cases, make_again, PICKLER),
                      'same': PICKLER == 'dill'
                      or all(second[0][k][0] is v[0] for k, v in cases.items())},
                     default=repr))
