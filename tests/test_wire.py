"""Instances on the wire: the compiled core's compact pickle (``_wire``), and
the stdlib's promises it keeps on both backends — compared with the same
classes made by ``@dataclass`` where the result can be compared."""

import copy
import copyreg
import dataclasses
import functools
import io
import os
import pickle
import subprocess
import sys
import threading

import pytest
from hypothesis import given, settings, strategies as st

import dataclass_meta
from dataclass_meta import DataClass, field, _wire

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


# Importable (pickle finds classes by name): one of each shape, with a twin
# made by @dataclass.
class Plain(DataClass):
    a: int
    b: object = 'b'


class Slotted(DataClass, slots=True):
    a: int
    b: object = 'b'


class Frozen(DataClass, frozen=True):
    a: int
    b: object = 'b'


class FrozenSlotted(DataClass, frozen=True, slots=True):
    a: int
    b: object = 'b'


SHAPES = {Plain: {}, Slotted: {'slots': True}, Frozen: {'frozen': True},
          FrozenSlotted: {'frozen': True, 'slots': True}}
_TWINS = {}


def twin(cls):
    """The same class made by ``@dataclass``, registered under a name of this
    module so that pickle finds it."""
    found = _TWINS.get(cls)
    if found is None:
        made = dataclasses.make_dataclass(
            'Std' + cls.__name__, [('a', int), ('b', object, dataclasses.field(default='b'))],
            **SHAPES[cls])
        made.__module__ = __name__
        globals()[made.__name__] = found = _TWINS[cls] = made
    return found


@pytest.fixture(params=list(SHAPES), ids=lambda c: c.__name__)
def shape(request):
    return request.param


def _state(obj):
    """What an instance holds: its fields (or None where unset) and its ``__dict__``."""
    fields = tuple(getattr(obj, name, None) for name in ('a', 'b'))
    return fields, dict(getattr(obj, '__dict__', {}))


def _compact(obj):
    """Whether ``obj`` pickles in the compact format (its loader first)."""
    reduced = type(obj).__reduce_ex__(obj, 4)
    return type(reduced[0]).__name__ == 'compiled_function'



compiled_only = pytest.mark.skipif(dataclass_meta.BACKEND != 'compiled',
                                   reason='the compact pickle is the compiled core\'s')


# -- the format -------------------------------------------------------------

@compiled_only
def test_compact_pickle_is_a_loader_and_the_values(shape):
    obj = shape(1, 'two')
    loader, values = type(obj).__reduce_ex__(obj, 4)
    assert values == (1, 'two')
    assert loader(*values) == obj
    assert loader.__reduce__() == (_wire.loader, (shape, ('a', 'b')))
    assert len(pickle.dumps([shape(i, str(i)) for i in range(100)], 4)) < len(
        pickle.dumps([twin(shape)(i, str(i)) for i in range(100)], 4)) * 0.8


@compiled_only
def test_one_loader_per_pickle_many_instances():
    payload = pickle.dumps([Slotted(i) for i in range(50)])
    assert payload.count(b'loader') == 1
    assert pickle.loads(payload) == [Slotted(i) for i in range(50)]


def test_the_pure_backend_keeps_the_stdlib_route(shape):
    with dataclass_meta._backend.use(dataclass_meta._backend.PURE):
        class C(DataClass, **SHAPES[shape]):
            a: int
    assert '__reduce_ex__' not in C.__dict__


# -- the stdlib's promises, both backends ------------------------------------

VALUES = st.one_of(st.integers(), st.text(max_size=5), st.floats(allow_nan=False), st.none(),
                   st.booleans(), st.binary(max_size=4),
                   st.lists(st.integers(), max_size=3), st.tuples(st.integers()),
                   st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))


@settings(max_examples=60, deadline=None)
@given(a=st.integers(), b=VALUES, protocol=st.sampled_from(PROTOCOLS),
       which=st.sampled_from(list(SHAPES)))
def test_round_trip_matches_the_stdlib(a, b, protocol, which):
    ours, theirs = which(a, b), twin(which)(a, b)
    if protocol < 2 and SHAPES[which].get('slots') and not SHAPES[which].get('frozen'):
        with pytest.raises(TypeError):  # the stdlib's: slots without __getstate__
            pickle.dumps(theirs, protocol)
        return
    back, std = pickle.loads(pickle.dumps(ours, protocol)), pickle.loads(
        pickle.dumps(theirs, protocol))
    assert back == ours and type(back) is which
    assert _state(back) == _state(std)
    assert _state(copy.copy(ours)) == _state(copy.copy(theirs))
    assert _state(copy.deepcopy(ours)) == _state(copy.deepcopy(theirs))


def test_loading_runs_no_code_of_the_class(slots):
    calls = []

    class Counted(DataClass, slots=slots):
        a: int = field(converter=lambda v: calls.append('convert') or v)

        def __post_init__(self):
            calls.append('post_init')

    Counted.__qualname__ = Counted.__name__ = 'Counted'
    globals()['Counted'] = Counted
    try:
        obj = Counted(1)
        calls.clear()
        assert pickle.loads(pickle.dumps(obj)).a == 1
        assert copy.deepcopy(obj).a == 1
        assert calls == []
    finally:
        del globals()['Counted']


class Cyclic(DataClass, slots=True):
    items: list
    other: object = None


def test_a_cycle_through_a_field_still_loads():
    obj = Cyclic([])
    obj.items.append(obj)
    obj.other = obj
    back = pickle.loads(pickle.dumps(obj))
    assert back.items[0] is back and back.other is back
    deep = copy.deepcopy(obj)
    assert deep.items[0] is deep


class WithInitFalse(DataClass, slots=True):
    a: int
    b: int = field(init=False)


def test_an_unset_field_stays_unset():
    back = pickle.loads(pickle.dumps(WithInitFalse(1)))
    assert back.a == 1 and not hasattr(back, 'b')


def test_extra_dict_entries_travel():
    obj = Plain(1)
    obj.extra = 'x'
    back = pickle.loads(pickle.dumps(obj))
    assert back.extra == 'x' and back == obj


class Base(DataClass, slots=True):
    a: int


class OwnReduce(Base, slots=True):
    def __reduce__(self):
        return OwnReduce, (self.a + 1,)


class OwnState(Base, slots=True):
    def __getstate__(self):
        return {'a': -self.a}

    def __setstate__(self, state):
        object.__setattr__(self, 'a', state['a'])


class DictBase(DataClass):
    a: int


NEW_CALLS = []


class OwnNewArgs(DictBase):
    def __new__(cls, *args, **kwargs):
        NEW_CALLS.append(args)
        return super().__new__(cls)

    def __getnewargs__(self):
        return (7,)


class OwnReduceEx(Base, slots=True):
    def __reduce_ex__(self, protocol):
        return OwnReduceEx, (42,)


@pytest.mark.parametrize('cls, expected', [
    (OwnReduce, 2), (OwnState, -1), (OwnReduceEx, 42)])
def test_a_class_s_own_pickling_wins(cls, expected):
    assert pickle.loads(pickle.dumps(cls(1))).a == expected
    assert copy.copy(cls(1)).a == expected


def test_getnewargs_and_new_win():
    payload = pickle.dumps(OwnNewArgs(1))
    NEW_CALLS.clear()
    assert pickle.loads(payload).a == 1 and NEW_CALLS == [(7,)]


def test_a_dispatch_table_wins():
    table = copyreg.dispatch_table.copy()
    table[Slotted] = lambda obj: (Slotted, (99,))
    out = io.BytesIO()
    pickler = pickle.Pickler(out)
    pickler.dispatch_table = table
    pickler.dump(Slotted(1))
    assert pickle.loads(out.getvalue()).a == 99


class Changing(DataClass, slots=True):
    a: int


def test_a_state_method_set_later_counts_at_once():
    assert pickle.loads(pickle.dumps(Changing(1))).a == 1
    Changing.__getstate__ = lambda self: (None, {'a': self.a * 10})
    try:
        assert pickle.loads(pickle.dumps(Changing(1))).a == 10
    finally:
        del Changing.__getstate__
    assert pickle.loads(pickle.dumps(Changing(2))).a == 2


def test_earlier_pickles_still_load(shape):
    """The stdlib's route (what earlier releases wrote) loads into today's class."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, 4)
    pickler.dispatch_table = {shape: lambda obj: object.__reduce_ex__(obj, 4)}
    pickler.dump(shape(1, [2]))
    assert pickle.loads(out.getvalue()) == shape(1, [2])


class CachedHash(DataClass, frozen=True, slots=True, cache_hash=True):
    a: int
    b: str = ''


class CachedHashDict(DataClass, frozen=True, cache_hash=True):
    a: int


class Computed(DataClass, slots=True):
    a: int

    @functools.cached_property
    def double(self):
        return self.a * 2


@pytest.mark.parametrize('cls', [CachedHash, CachedHashDict])
def test_a_cached_hash_never_travels(cls):
    obj = cls(1)
    hash(obj)
    back = pickle.loads(pickle.dumps(obj))
    assert back == obj and hash(back) == hash(obj)
    if dataclass_meta.BACKEND == 'compiled':
        assert _compact(obj)


def test_a_computed_cached_property_travels():
    obj = Computed(2)
    assert obj.double == 4
    back = pickle.loads(pickle.dumps(obj))
    assert back.a == 2 and back.double == 4
    assert not _compact(obj)  # its slot is state: the stdlib's route carries it


class NoGC(DataClass, slots=True, gc=False):
    a: int
    b: str = ''


def test_gc_false_instances_round_trip():
    import gc
    back = pickle.loads(pickle.dumps(NoGC(1, 'x')))
    assert back == NoGC(1, 'x')
    if dataclass_meta.BACKEND == 'compiled' and hasattr(gc, 'is_tracked'):
        assert not gc.is_tracked(back)


@compiled_only
def test_the_loader_refuses_keywords_and_a_damaged_pickle():
    loader = _wire.loader(Slotted, ('a', 'b'))
    with pytest.raises(TypeError, match='keyword'):
        loader(1, b=2)
    with pytest.raises(TypeError, match=r"Slotted: a pickle of 2 field\(s\) \('a', 'b'\) "
                                        r"holds 1 value\(s\): it is damaged"):
        loader(1)


def test_threads_pickle_and_load_at_once():
    items = [Slotted(i, str(i)) for i in range(200)] + [Plain(i) for i in range(200)]
    errors = []

    def work():
        try:
            for _ in range(20):
                assert pickle.loads(pickle.dumps(items)) == items
        except BaseException as exc:  # reported below
            errors.append(exc)

    stop = []

    def change():  # the class's version tag changes under the other threads
        while not stop:
            Slotted.note = 1
            del Slotted.note

    threads = [threading.Thread(target=work) for _ in range(4)]
    changer = threading.Thread(target=change)
    changer.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.append(True)
    changer.join()
    assert errors == []


# -- evolution: the compact pickle carries the names --------------------------

def _evolve(before, after, value, slots=False):
    """``value`` (kwargs) pickled with the class of ``before``'s body, loaded
    with ``after``'s, by the compiled loader where there is one."""
    def define(body):
        namespace = {'DataClass': DataClass, 'field': field}
        exec(f'class Evolving(DataClass, slots={slots}):\n' + body, namespace)
        cls = namespace['Evolving']
        cls.__module__, cls.__qualname__ = __name__, 'Evolving'
        globals()['Evolving'] = cls
        return cls
    try:
        payload = pickle.dumps(define(before)(**value))
        define(after)
        return pickle.loads(payload)
    finally:
        globals().pop('Evolving', None)


@compiled_only
def test_a_field_added_without_a_default_is_named(slots):
    with pytest.raises(TypeError, match="cannot load a pickled 'Evolving': its field 'b' was "
                                        "added since the pickle was written, without a default"):
        _evolve('    a: int\n', '    a: int\n    b: int\n', {'a': 1}, slots)


@compiled_only
def test_a_factory_fills_an_added_field(slots):
    got = _evolve('    a: int\n', '    b: list = field(default_factory=list)\n    a: int = 0\n',
                  {'a': 1}, slots)
    assert (got.a, got.b) == (1, [])


@compiled_only
def test_a_removed_field_is_named(slots):
    with pytest.raises(TypeError, match=r"the pickle holds field\(s\) 'b' that the class no "
                                        r"longer has \(removed or renamed\)"):
        _evolve('    a: int\n    b: int\n', '    a: int\n', {'a': 1, 'b': 2}, slots)


@compiled_only
def test_a_setstate_of_its_own_takes_a_renamed_field(slots):
    after = ('    a: int\n    c: int = 0\n'
             '    def __setstate__(self, state):\n'
             '        fields = state[1] if type(state) is tuple else state\n'
             '        object.__setattr__(self, "a", fields["a"])\n'
             '        object.__setattr__(self, "c", fields["b"])\n')
    got = _evolve('    a: int\n    b: int\n', after, {'a': 1, 'b': 2}, slots)
    assert (got.a, got.c) == (1, 2)


# -- across backends and processes --------------------------------------------

def _in_subprocess(code, pure, stdin=b''):
    env = {k: v for k, v in os.environ.items() if not k.startswith('DATACLASS_META_')}
    if pure:
        env['DATACLASS_META_PURE'] = '1'
    return subprocess.run([sys.executable, '-c', code], cwd=_ROOT, env=env, input=stdin,
                          capture_output=True, check=True).stdout


_WRITE = ('import pickle, sys; from tests.test_wire import Slotted, Plain, FrozenSlotted; '
          'sys.stdout.buffer.write(pickle.dumps([Slotted(1, "x"), Plain(2, 2.5), '
          'FrozenSlotted(3, None)]))')
_READ = ('import pickle, sys, dataclass_meta; from tests.test_wire import Slotted, Plain, '
         'FrozenSlotted; got = pickle.loads(sys.stdin.buffer.read()); '
         'assert got == [Slotted(1, "x"), Plain(2, 2.5), FrozenSlotted(3, None)], got; '
         'print(dataclass_meta.BACKEND)')


@pytest.mark.parametrize('writer_pure, reader_pure', [(False, True), (True, False)],
                         ids=['compiled-to-pure', 'pure-to-compiled'])
def test_pickles_cross_backends(writer_pure, reader_pure):
    payload = _in_subprocess(_WRITE, writer_pure)
    assert _in_subprocess(_READ, reader_pure, payload).strip() in (b'pure', b'compiled')


def test_the_route_reads_a_class_another_thread_changes():
    """Working out a class's route reads its dict while another thread may store
    on the class (``copyreg`` caches ``__slotnames__`` there on a first pickle)."""
    class Shared(DataClass, slots=True):
        a: object

    stop, errors = [], []

    def change():
        i = 0
        while not stop:
            setattr(Shared, f'n{i % 20}', i)
            i += 1
            if i % 20 == 0:
                for k in range(20):
                    delattr(Shared, f'n{k}')

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    changer = threading.Thread(target=change)
    changer.start()
    try:
        for _ in range(5000):
            _wire.route(Shared)
    except RuntimeError as exc:
        errors.append(exc)
    finally:
        stop.append(True)
        changer.join()
        sys.setswitchinterval(switch)
    assert errors == []
