"""Class mutation interleaved with everything the compiled core caches per class.

The core keeps per-class decisions keyed by the class's version tag (the
construction plan, the field layout, ``==``'s and ``hash``'s own slots,
``replace()``'s fast path, the pickle route). Here hypothesis draws sequences
that construct, compare, hash, replace, copy and pickle instances while
``__init__``, ``__eq__``, ``__hash__``, ``__getstate__``/``__setstate__`` and
other class attributes are swapped in and out, with the collector running at
every allocation; each result must be what the class has at that moment, as
``type.__call__``, ``dataclasses.replace`` and pickle would give it. The
suite's debug-build and sanitizer stages run it too.
"""

import copy
import gc
import pickle

from hypothesis import HealthCheck, given, settings, strategies as st

from dataclass_meta import DataClass, replace

OPS = ['make', 'make_kw', 'eq', 'hash', 'replace', 'pickle', 'copy', 'swap_init',
       'swap_eq', 'swap_hash', 'swap_state', 'touch', 'collect']

_made = []


def _define(slots, frozen):
    class C(DataClass, slots=slots, frozen=frozen):
        x: int
        y: int = 0
    C.__qualname__ = C.__name__ = 'Stressed'  # pickled by name below
    globals()['Stressed'] = C
    _made.append(C)
    return C


class _Model:
    """What the class has now: the swaps applied."""

    def __init__(self, cls):
        self.cls = cls
        own = cls.__dict__
        self.originals = {name: own.get(name, _ABSENT) for name in
                          ('__init__', '__eq__', '__hash__', '__getstate__', '__setstate__')}
        self.scale, self.never_equal, self.const_hash, self.bumped = 1, False, False, False

    def put(self, name, value):
        if value is _ABSENT:
            if name in self.cls.__dict__:
                delattr(self.cls, name)
        else:
            setattr(self.cls, name, value)

    def toggle(self, name, replacement, flag):
        on = not getattr(self, flag)
        self.put(name, replacement if on else self.originals[name])
        setattr(self, flag, on)


_ABSENT = object()


def _scaled_init(original):
    def __init__(self, x, y=0):
        original(self, x * 10, y * 10)
    return __init__


def _getstate(self):
    return {'x': self.x + 1, 'y': self.y}


def _setstate(self, state):
    for name, value in state.items():
        object.__setattr__(self, name, value)


def _fields(obj):
    return obj.x, obj.y


def _run(cls, model, ops):
    obj = cls(1, 2)
    for i, op in enumerate(ops):
        scale = 10 if model.scale == 10 else 1
        if op == 'make':
            obj = cls(i, i + 1)
            assert _fields(obj) == (i * scale, (i + 1) * scale)
        elif op == 'make_kw':
            obj = cls(y=i, x=3)
            assert _fields(obj) == (3 * scale, i * scale)
        elif op == 'eq':
            assert (cls(1, 2) == cls(1, 2)) is (not model.never_equal)
        elif op == 'hash' and cls.__hash__ is not None:
            if model.const_hash:
                assert hash(cls(1, 2)) == 7
            else:
                assert hash(cls(1, 2)) == hash(cls(1, 2))
        elif op == 'replace':
            before = _fields(obj)
            obj = replace(obj, y=5)  # through the class's __init__ now
            assert _fields(obj) == (before[0] * scale, 5 * scale)
        elif op in ('pickle', 'copy'):
            back = (pickle.loads(pickle.dumps(obj)) if op == 'pickle' else copy.copy(obj))
            expected = _fields(obj)
            if model.bumped:
                expected = (expected[0] + 1, expected[1])
            assert type(back) is cls and _fields(back) == expected
        elif op == 'swap_init':
            model.put('__init__', _scaled_init(model.originals['__init__'])
                      if model.scale == 1 else model.originals['__init__'])
            model.scale = 10 if model.scale == 1 else 1
        elif op == 'swap_eq':
            model.toggle('__eq__', lambda self, other: False, 'never_equal')
        elif op == 'swap_hash' and cls.__hash__ is not None:
            model.toggle('__hash__', lambda self: 7, 'const_hash')
        elif op == 'swap_state':
            on = not model.bumped
            model.put('__getstate__', _getstate if on else model.originals['__getstate__'])
            model.put('__setstate__', _setstate if on else model.originals['__setstate__'])
            model.bumped = on
        elif op == 'touch':
            cls.note = i  # the version tag changes; nothing else does
        elif op == 'collect':
            gc.collect()


# ``backend`` only picks the backend classes are made with: the same for every input.
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(st.sampled_from(OPS), max_size=30), slots=st.booleans(),
       frozen=st.booleans())
def test_mutation_interleaved_with_every_cached_path(backend, ops, slots, frozen):
    cls = _define(slots, frozen)
    threshold = getattr(gc, 'get_threshold', lambda: None)()  # PyPy has no thresholds
    if threshold is not None:
        gc.set_threshold(1)  # a collection at (nearly) every allocation
    try:
        _run(cls, _Model(cls), ops)
    finally:
        if threshold is not None:
            gc.set_threshold(*threshold)
        globals().pop('Stressed', None)
        _made.clear()
