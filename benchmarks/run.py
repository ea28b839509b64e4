"""dataclass_meta against @dataclass, attrs, msgspec and a hand-written class.

    python benchmarks/run.py                 # full run, a few minutes
    python benchmarks/run.py --quick         # a smoke setting, seconds
    python benchmarks/run.py --out DIR       # where the .md/.json/.svg go

One process times every contender in interleaved rounds; within a round each
contender is timed between two timings of its stdlib reference (ref, contender,
ref), so the ratio survives a machine whose speed drifts. A ratio is the median
over rounds of contender / mean(ref before, ref after). Peers that are not
installed (``pip install -e '.[bench]'``) are left out; the rest still runs.
"""

import argparse
import copy
import gc
import json
import os
import pickle
import platform
import statistics
import subprocess
import sys
import time
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [HERE, ROOT]

from kits import (  # noqa: E402
    D_FIELDS, F_FIELDS, P_FIELDS, PARENT_FIELDS, DataClassMetaKit, _pure_factories, int_fields,
    kits, runtime_named)
from report import (  # noqa: E402
    against_msgspec, floor_ratio, metaclass_floor_ratio, pickle_table, travel_table,
    write_reports)

# (key, label, statement, needs) -- ``needs`` builds the statement's globals
# from a kit and its classes, or raises LookupError where the kit cannot do it.
DOC = 'A docstring.'


def _class_op(n, doc):
    return lambda kit, c: {'make': kit.maker(int_fields(n), DOC if doc else None)}


def _need(value):
    if value is None:
        raise LookupError
    return value


OPERATIONS = [
    ('class5', 'class creation, 5 fields', 'make()', _class_op(5, False)),
    ('class5_doc', 'class creation, 5 fields + docstring', 'make()', _class_op(5, True)),
    ('class5_call', 'class creation, 5 fields, metaclass call', 'make()',
     lambda kit, c: {'make': kit.caller(int_fields(5))}),
    ('class20', 'class creation, 20 fields', 'make()', _class_op(20, False)),
    ('class20_doc', 'class creation, 20 fields + docstring', 'make()', _class_op(20, True)),
    ('init_pos', 'init, positional', 'P(1, 2, 3, 4, 5)', lambda k, c: {'P': c.P}),
    ('init_pos_made', 'init, positional, make_dataclass', 'M(1, 2, 3, 4, 5)',
     lambda k, c: {'M': _need(c.M)}),
    ('init_pos_runtime', 'init, positional, run-time names, make_dataclass',
     'R(1, 2, 3, 4, 5)', lambda k, c: {'R': _need(c.R)}),
    ('init_pos_called', 'init, positional, run-time names, metaclass call',
     'N(1, 2, 3, 4, 5)', lambda k, c: {'N': _need(c.N)}),
    ('init_kw', 'init, keyword', 'P(a=1, b=2, c=3, d=4, e=5)', lambda k, c: {'P': c.P}),
    ('init_defaults', 'init, defaults omitted', 'D(1, 2)', lambda k, c: {'D': c.D}),
    ('init_factory', 'init, a default_factory', 'F(1, 2)', lambda k, c: {'F': c.F}),
    ('eq', '==', 'a == b', lambda k, c: {'a': c.P(1, 2, 3, 4, 5), 'b': c.P(1, 2, 3, 4, 5)}),
    ('eq_made', '==, make_dataclass', 'a == b',
     lambda k, c: {'a': _need(c.M)(1, 2, 3, 4, 5), 'b': c.M(1, 2, 3, 4, 5)}),
    ('eq_runtime', '==, run-time names, make_dataclass', 'a == b',
     lambda k, c: {'a': _need(c.R)(1, 2, 3, 4, 5), 'b': c.R(1, 2, 3, 4, 5)}),
    ('eq_called', '==, run-time names, metaclass call', 'a == b',
     lambda k, c: {'a': _need(c.N)(1, 2, 3, 4, 5), 'b': c.N(1, 2, 3, 4, 5)}),
    ('lt', '<', 'a < b', lambda k, c: {'a': c.P(1, 2, 3, 4, 5), 'b': c.P(1, 2, 3, 4, 6)}),
    ('hash', 'hash', 'hash(a)', lambda k, c: {'a': _hashable(c.P(1, 2, 3, 4, 5))}),
    ('repr', 'repr', 'repr(a)', lambda k, c: {'a': c.P(1, 2, 3, 4, 5)}),
    ('getattr', 'attribute read', 'a.c', lambda k, c: {'a': c.P(1, 2, 3, 4, 5)}),
    ('setattr', 'attribute write', 'a.c = 7', lambda k, c: {'a': _mutable(k, c.P(1, 2, 3, 4, 5))}),
    ('asdict', 'asdict, parent + 10 children', 'asdict(p)',
     lambda k, c: {'asdict': k.asdict, 'p': c.parent}),
    ('astuple', 'astuple, parent + 10 children', 'astuple(p)',
     lambda k, c: {'astuple': _need(k.astuple), 'p': c.parent}),
    ('replace', 'replace one field', 'replace(a, c=7)',
     lambda k, c: {'replace': k.replace, 'a': c.P(1, 2, 3, 4, 5)}),
    ('fields', 'fields() of an instance', 'fields(a)',
     lambda k, c: {'fields': _need(k.fields), 'a': c.P(1, 2, 3, 4, 5)}),
    ('copy', 'copy.copy', 'copy(a)', lambda k, c: {'copy': copy.copy, 'a': c.P(1, 2, 3, 4, 5)}),
    # Our options beyond the stdlib, against the stdlib's nearest: the hash of a
    # cache_hash=True class after its first call against @dataclass(frozen=True)'s;
    # a slotted class's cached_property read after the first against a plain slot
    # read of @dataclass(slots=True). Only dataclass_meta's kits take part.
    ('hash_cached', 'hash, cache_hash=True, after the first', 'hash(a)',
     lambda k, c: _cache_hash_instance(k, c)),
    ('cached_read', 'cached_property read on slots, after the first', 'a.c',
     lambda k, c: _cached_property_instance(k, c)),
    # Five fields, each with a converter and a validator: ours and attrs' own,
    # the stdlib's written in __post_init__ (how it is done there).
    ('init_convert', 'init, 5 converters + validators', "V(1, '2', 3, '4', 5)",
     lambda k, c: _converting_class(k)),
    ('pickle', 'pickle round trip', 'loads(dumps(a))',
     lambda k, c: {'loads': pickle.loads, 'dumps': pickle.dumps, 'a': c.P(1, 2, 3, 4, 5)}),
]

# (name, operation, contender, bound): ratio contender / its stdlib reference.
# Class creation for both backends; the instance operations here are the pure
# closures' bounds (every one at most 1.3 of @dataclass's on CPython).
_PURE = 1.3
TARGETS = [
    ('class creation, 5 fields', 'class5', 'dm', 0.15),
    ('class creation, 5 fields + docstring', 'class5_doc', 'dm', 0.15),
    ('class creation, 20 fields', 'class20', 'dm', 0.15),
    ('class creation, 20 fields + docstring', 'class20_doc', 'dm', 0.15),
    ('class creation, 5 fields, metaclass call', 'class5_call', 'dm', 0.15),
    ('init, positional', 'init_pos', 'dm', _PURE),
    ('init, positional, run-time names, make_dataclass', 'init_pos_runtime', 'dm', _PURE),
    ('init, positional, run-time names, metaclass call', 'init_pos_called', 'dm', _PURE),
    ('init, keyword', 'init_kw', 'dm', _PURE),
    ('init, defaults omitted', 'init_defaults', 'dm', _PURE),
    ('init, a default_factory', 'init_factory', 'dm', _PURE),
    ('init, frozen', 'init_pos', 'dm_frozen', _PURE),
    ('init, slots', 'init_pos', 'dm_slots', _PURE),
    ('==', 'eq', 'dm', _PURE),
    ('==, run-time names, make_dataclass', 'eq_runtime', 'dm', _PURE),
    ('==, run-time names, metaclass call', 'eq_called', 'dm', _PURE),
    ('<', 'lt', 'dm', _PURE),
    ('hash (frozen)', 'hash', 'dm_frozen', _PURE),
    ('repr', 'repr', 'dm', _PURE),
    ('asdict, nested', 'asdict', 'dm', _PURE),
    ('astuple, nested', 'astuple', 'dm', _PURE),
    ('replace', 'replace', 'dm', _PURE),
    ('hash, cache_hash, after the first', 'hash_cached', 'dm_frozen', 0.3),
    ('cached_property read on slots, after the first', 'cached_read', 'dm_slots', 1.1),
]


_CACHE_HASH = '''
class H(DataClass, frozen=True, cache_hash=True):
    a: int
    b: int
    c: int
    d: int
    e: int = 0
'''
_CACHED_PROPERTY = '''
class S(DataClass, slots=True):
    a: int
    b: int
    d: int
    e: int = 0

    @functools.cached_property
    def c(self):
        return 3
'''


_CHECK = '''
def check(instance, field, value):
    if value < 0:
        raise ValueError(value)
'''
_CONVERTING = {
    'dm': 'class V(DataClass):\n' + ''.join(
        f'    {n}: int = field(converter=int, validator=check)\n' for n in 'abcde'),
    'attrs': '@attrs.define\nclass V:\n' + ''.join(
        f'    {n}: int = attrs.field(converter=int, validator=check)\n' for n in 'abcde'),
    'std': '@dataclasses.dataclass\nclass V:\n' + ''.join(
        f'    {n}: int\n' for n in 'abcde') + '    def __post_init__(self):\n' + ''.join(
        f'        self.{n} = int(self.{n})\n' for n in 'abcde') + ''.join(
        f'        check(self, None, self.{n})\n' for n in 'abcde'),
}


def _converting_class(kit):
    """``V``: five fields, each converted by ``int`` and checked, made by the
    kit (plain flavour only: dm, dm_pure, attrs.define, @dataclass)."""
    kind = 'dm' if kit.name in ('dm', 'dm_pure') else kit.name
    if kind not in _CONVERTING:
        raise LookupError
    if kind == 'dm':
        return {'V': kit.build_source(_CHECK + _CONVERTING['dm'], 'V')}
    ns = dict(vars(kit.module()))
    exec(_CHECK + _CONVERTING[kind], ns)
    return {'V': ns['V']}


def _cache_hash_instance(kit, classes):
    """``a``: a warmed ``cache_hash`` instance (dm, frozen), or the stdlib's frozen P."""
    if kit.name == 'std_frozen':
        return {'a': _hashable(classes.P(1, 2, 3, 4, 5))}
    if not (kit.name.startswith('dm') and kit.frozen and not kit.slots):
        raise LookupError
    a = kit.build_source(_CACHE_HASH, 'H')(1, 2, 3, 4, 5)
    hash(a)
    return {'a': a}


def _cached_property_instance(kit, classes):
    """``a``: a slotted instance whose ``c`` is a computed cached_property (dm), or
    the stdlib's slotted P or msgspec's P, whose ``c`` is a plain slot."""
    if kit.name in ('std_slots', 'msgspec'):
        return {'a': classes.P(1, 2, 3, 4, 5)}
    if not (kit.name.startswith('dm') and kit.slots and not kit.frozen):
        raise LookupError
    a = kit.build_source(_CACHED_PROPERTY, 'S')(1, 2, 4, 5)
    a.c  # noqa: B018 -- computed once, before timing
    return {'a': a}


def _hashable(obj):
    hash(obj)  # TypeError: unhashable, the kit sits this one out
    return obj


def _mutable(kit, obj):
    if kit.frozen:
        raise LookupError
    return obj


class Classes:
    """The classes a kit builds once for the instance-level operations."""

    def __init__(self, kit):
        self.P = kit.build('P', P_FIELDS)
        self.D = kit.build('D', D_FIELDS)
        self.F = kit.build('F', F_FIELDS)
        self.Parent = kit.build('Parent', PARENT_FIELDS)
        self.parent = self.Parent('p', [self.P(i, 2, 3, 4, 5) for i in range(10)])
        self.M = self.R = self.N = None
        try:  # P again, from make_dataclass: it should construct and compare as fast
            self.M = kit.made('M', P_FIELDS)
            # and with names built at run time, by make_dataclass and a metaclass call
            self.R = kit.made('R', runtime_named(P_FIELDS))
            self.N = kit.caller(runtime_named(P_FIELDS))()
        except LookupError:
            pass


# -- timing -------------------------------------------------------------------

REPEAT = 5
# PyPy's JIT compiles a loop only after it has run a while, and keeps adding
# bridges for a few thousand more iterations: timing before that measures its
# interpreter. So on PyPy every timer first runs this long, untimed.
PYPY = platform.python_implementation() == 'PyPy'


def warm_up(timer, seconds):
    """Run ``timer`` for about ``seconds`` untimed (no-op for 0)."""
    end, number = time.perf_counter() + seconds, 1
    while time.perf_counter() < end:
        timer.timeit(number)
        number = min(number * 2, 1 << 16)


def calibrate(timer, min_time):
    """Loops per timing so that one timing lasts at least ``min_time``."""
    number = 1
    while True:
        if timer.timeit(number) >= min_time or number >= 1 << 24:
            return number
        number *= 2


def interleaved(timers, refs, rounds, min_time, warmup=0.0, repeat=REPEAT):
    """Per contender: seconds per loop and ratios to its reference, one per round.

    Each round times every contender as ``ref, contender, ref`` back to back and
    divides by the mean of the two ``ref`` timings, so a change of machine speed
    between rounds (or within one, with the order alternating) cancels out. Each
    timing is the best of ``repeat`` short ones, so a preemption by another
    process (the machine is shared) does not count.
    """
    for timer in timers.values():
        warm_up(timer, warmup)
    numbers = {name: calibrate(timer, min_time) for name, timer in timers.items()}

    def run(name):  # best of a few short timings: other processes only add time
        return min(timers[name].repeat(repeat, numbers[name])) / numbers[name]
    times = {name: [] for name in timers}
    ratios = {name: [] for name in timers if refs[name] in timers}
    order = list(timers)
    for r in range(rounds):
        for name in (order if r % 2 == 0 else order[::-1]):
            ref = refs[name]
            if ref == name or ref not in timers:
                times[name].append(run(name))
                continue
            before, t, after = run(ref), run(name), run(ref)
            times[name].append(t)
            ratios[name].append(2 * t / (before + after))
    return times, {n: (r or [1.0]) for n, r in ratios.items()}


def bench_operations(contenders, classes, rounds, min_time, only=None, warmup=0.0):
    results = {}
    for key, label, stmt, needs in OPERATIONS:
        if only and key not in only:
            continue
        timers = {}
        for kit in contenders:
            if kit.operations is not None and key not in kit.operations:
                continue
            try:
                ns = needs(kit, classes[kit.name])
                timer = timeit.Timer(stmt, globals=ns)
                timer.timeit(1)
            except (LookupError, TypeError, AttributeError):
                continue  # this contender cannot do this operation
            timers[kit.name] = timer
        refs = {kit.name: kit.ref for kit in contenders}
        times, ratios = interleaved(timers, refs, rounds, min_time, warmup)
        results[key] = {
            'label': label, 'statement': stmt,
            'seconds': {n: statistics.median(t) for n, t in times.items() if t},
            'ratio': {n: statistics.median(r) for n, r in ratios.items()},
        }
        print(f'  {label:40s} ' + ' '.join(
            f'{n}={v:.2f}' for n, v in results[key]['ratio'].items()), flush=True)
    return results


def memory_per_instance(contenders, classes, count):
    """Bytes per instance of the 5-int-field class, from tracemalloc (``{}``
    where there is none: PyPy has no tracemalloc)."""
    try:
        import tracemalloc
    except ImportError:
        return {}
    result = {}
    for kit in contenders:
        if kit.operations is not None:  # a floor: not a class of its own
            continue
        P = classes[kit.name].P
        keep = [None] * count
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for i in range(count):
            keep[i] = P(1, 2, 3, 4, 5)
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        result[kit.name] = round((after - before) / count, 1)
        del keep
    return result


_GC_CLASSES = '''
class Plain(DataClass):
    a: int
    b: int
    c: int
    d: int
    e: int = 0


class Untracked(DataClass, gc=False):
    a: int
    b: int
    c: int
    d: int
    e: int = 0
'''


def gc_collect(count, runs):
    """A full ``gc.collect()`` with ``count`` instances of a 5-field class held in a
    dict, plain and with ``gc=False``: median seconds of each, and their ratio
    (the two timed alternately, one dict alive at a time). Empty where
    ``gc=False`` cannot untrack (the pure backend, PyPy)."""
    from dataclass_meta import DataClass
    ns = {'DataClass': DataClass}
    exec(_GC_CLASSES, ns)
    if ns['Untracked'].__dataclass_params__.gc:
        return {}
    pair = [('plain', ns['Plain']), ('gc_false', ns['Untracked'])]
    times = {'plain': [], 'gc_false': []}
    for r in range(runs):
        for name, cls in (pair if r % 2 == 0 else pair[::-1]):
            held = {i: cls(i, 2, 3, 4, 5) for i in range(count)}
            gc.collect()
            start = time.perf_counter()
            gc.collect()
            times[name].append(time.perf_counter() - start)
            del held
    plain, untracked = (statistics.median(times[n]) for n in ('plain', 'gc_false'))
    return {'instances': count, 'seconds': {'plain': plain, 'gc_false': untracked},
            'ratio': untracked / plain}


# -- pickle of many instances -------------------------------------------------

# pickle.dumps of a list of instances and pickle.loads of its payload: slotted
# classes of three fields (an int, a str, an int; no contender checks the
# annotations) and the dict-based ones beside them. Targets, against msgspec's
# Struct (its seconds and bytes in the same run): dumps and loads at most its
# time, the payload at most 1.1 of its bytes.
PICKLE_KITS = ('std', 'std_slots', 'dm', 'dm_slots', 'dm_pure', 'dm_pure_slots',
               'attrs', 'msgspec')
PICKLE_FIELDS = [('a', None, None), ('b', None, None), ('c', None, None)]
PICKLE_BOUNDS = {'dumps': 1.0, 'loads': 1.0, 'bytes': 1.1}


def pickle_instances(contenders, count, rounds, min_time, warmup=0.0):
    """Per contender: seconds of ``pickle.dumps(items)`` and ``pickle.loads(payload)``
    for ``count`` instances, their ratios to its stdlib reference, and the
    payload's bytes per instance."""
    dumps, loads, size = {}, {}, {}
    for kit in contenders:
        if kit.name not in PICKLE_KITS:
            continue
        T = kit.build('T3', PICKLE_FIELDS)  # in the kit's module: pickled by reference
        items = [T(i, str(i), -i) for i in range(count)]
        payload = pickle.dumps(items)
        assert pickle.loads(payload) == items, kit.name
        size[kit.name] = len(payload) / count
        dumps[kit.name] = timeit.Timer('dumps(items)',
                                       globals={'dumps': pickle.dumps, 'items': items})
        # Bound to a local, the list is freed after the timing (one loop per
        # timing at full size), not inside it.
        loads[kit.name] = timeit.Timer('out = loads(payload)',
                                       globals={'loads': pickle.loads, 'payload': payload})
    refs = {kit.name: kit.ref for kit in contenders}
    result = {'instances': count, 'protocol': pickle.DEFAULT_PROTOCOL, 'bytes': size}
    for op, timers in (('dumps', dumps), ('loads', loads)):
        # A timing lasts long at full size: one each, over more rounds.
        times, ratios = interleaved(timers, refs, rounds, min_time, warmup, repeat=1)
        result[op] = {'seconds': {n: statistics.median(t) for n, t in times.items()},
                      'ratio': {n: statistics.median(r) for n, r in ratios.items()}}
    return result


# -- travelled classes --------------------------------------------------------

# A class that travels by value (cloudpickle, as Dask, Ray and joblib send one)
# is remade on arrival with the receiving process's backend: its methods should
# run as fast as those of the same class defined here. Bound: travelled / local.
TRAVEL_BOUND = 1.15
_TRAVEL_CLASSES = ''.join(f'''
class {name}(DataClass{options}):
    a: int
    b: int
    c: int
    d: int
    e: int = 0
''' for name, options in (('P', ''), ('S', ', slots=True'),
                          ('H', ', frozen=True, cache_hash=True'),
                          ('K', ', frozen=True, slots=True, cache_hash=True')))
# Run as ``python -c``: the classes are defined in the child's __main__, which
# cloudpickle always sends by value (nothing in this process can import them).
# One payload per class, so that one that cannot travel leaves the others.
_SEND = ('import pickle\nimport sys\nimport cloudpickle\nfrom dataclass_meta import DataClass\n'
         + _TRAVEL_CLASSES + '\nsys.stdout.buffer.write(pickle.dumps('
         '[cloudpickle.dumps(c) for c in (P, S, H, K)]))\n')
TRAVEL_OPERATIONS = [  # (key, label, statement, class)
    ('init', 'construction', 'C(1, 2, 3, 4, 5)', 'P'),
    ('init_slots', 'construction, slots', 'C(1, 2, 3, 4, 5)', 'S'),
    ('eq', '==', 'a == b', 'P'),
    ('eq_slots', '==, slots', 'a == b', 'S'),
    ('hash_cached', 'hash, cache_hash=True, after the first', 'hash(a)', 'H'),
    ('hash_cached_slots', 'hash, cache_hash=True, slots, after the first', 'hash(a)', 'K'),
]


def _travel_namespace(cls):
    a, b = cls(1, 2, 3, 4, 5), cls(1, 2, 3, 4, 5)
    if cls.__hash__ is not None:
        hash(a)  # cached before timing
    return {'C': cls, 'a': a, 'b': b}


def _arrive(payload, local, pure):
    """The class in ``payload``, remade here (on the pure backend if ``pure``)."""
    import cloudpickle
    with _pure_factories(pure):
        cls = cloudpickle.loads(payload)
    assert cls.__module__ == '__main__' and cls is not local  # sent by value
    # made by the same backend (a dict-based cache_hash class arrives with a plain
    # __hash__ under cloudpickle: its row then shows what the lost cache costs)
    for method in ('__init__', '__eq__'):
        assert type(vars(cls)[method]) is type(vars(local)[method]), method
    return cls


def travel(rounds, min_time, warmup=0.0):
    """Per backend and operation: the ratio travelled / local (interleaved, the
    local class the reference), or the error of a class that does not arrive;
    ``{}`` where cloudpickle does not import."""
    try:
        import cloudpickle  # noqa: F401
    except Exception:  # not installed; on PyPy 3.11 its import itself fails
        return {}
    import dataclass_meta
    backends = (['compiled'] if dataclass_meta.BACKEND == 'compiled' else []) + ['pure']
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in [os.environ.get('PYTHONPATH')] if p]))
    out = {}
    for backend in backends:
        pure = backend == 'pure'
        # A child process per backend: cloudpickle gives back the class it
        # already made for a payload it has seen, so each payload is new here.
        sent = pickle.loads(subprocess.run(
            [sys.executable, '-c', _SEND], capture_output=True, check=True,
            env=dict(env, DATACLASS_META_PURE='1') if pure else env).stdout)
        kit = DataClassMetaKit(pure=pure)
        here, away = {}, {}
        for name, payload in zip('PSHK', sent):
            here[name] = kit.build_source(_TRAVEL_CLASSES, name)
            try:
                away[name] = _arrive(payload, here[name], pure)
            except Exception as exc:  # reported in its rows, not timed
                away[name] = f'{type(exc).__name__}: {exc}'
        rows = out[backend] = {}
        for key, label, stmt, name in TRAVEL_OPERATIONS:
            rows[key] = {'label': label, 'statement': stmt}
            if isinstance(away[name], str):
                rows[key]['error'] = away[name]
                continue
            timers = {'local': timeit.Timer(stmt, globals=_travel_namespace(here[name])),
                      'travelled': timeit.Timer(stmt, globals=_travel_namespace(away[name]))}
            times, ratios = interleaved(timers, {'local': 'local', 'travelled': 'local'},
                                        rounds, min_time, warmup)
            rows[key]['seconds'] = {n: statistics.median(t) for n, t in times.items()}
            rows[key]['ratio'] = statistics.median(ratios['travelled'])
    return out


def import_times(modules, runs):
    """Cumulative ``-X importtime`` of each module, in ms, fresh processes.

    Returns ({module: median}, {module: median of (module - first module) over
    back-to-back runs}): the paired difference survives a drifting machine.
    """
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [ROOT] + [p for p in [os.environ.get('PYTHONPATH')] if p]))
    env.pop('PYTHONDONTWRITEBYTECODE', None)  # users import from cached bytecode
    samples = {m: [] for m in modules}
    for run in range(runs + 1):  # run 0 writes the bytecode caches
        for module in modules:
            samples[module].append(None)
            proc = subprocess.run([sys.executable, '-X', 'importtime', '-c', f'import {module}'],
                                  capture_output=True, text=True, env=env)
            for line in proc.stderr.splitlines():
                parts = line.split('|')
                if run and len(parts) == 3 and parts[2].strip() == module:
                    samples[module][-1] = int(parts[1].split(':')[-1]) / 1000
    base = samples[modules[0]]
    found = {m: [v for v in s if v is not None] for m, s in samples.items()}
    found = {m: s for m, s in found.items() if s}
    medians = {m: statistics.median(s) for m, s in found.items()}
    extra = {}
    if modules[0] in found:
        for m, s in found.items():
            paired = [a - b for a, b in zip(samples[m], base) if None not in (a, b)]
            # Fastest against fastest: load from other processes only adds time.
            extra[m] = {'paired_median': statistics.median(paired),
                        'fastest': min(s) - min(found[modules[0]])}
    return medians, extra


def scaling(contenders, sizes, depths, rounds):
    """Class-creation seconds by field count and by inheritance depth."""
    by_fields, by_depth = {}, {}
    for kit in contenders:
        by_fields[kit.name] = {n: [] for n in sizes}
        by_depth[kit.name] = {d: [] for d in depths}
    makers = {(k.name, n): k.maker(int_fields(n)) for k in contenders for n in sizes}
    chains = {}
    for kit in contenders:  # a chain of classes, one field each, to subclass
        tail, built = None, {}
        for level in range(1, max(depths) + 1):
            fields = [(f'g{level}', None, None)]
            tail = kit.build(f'L{level}', fields, base=tail)
            if level in depths:
                built[level] = kit.maker([('leaf', None, None)], base=tail)
        chains[kit.name] = built
    for _ in range(rounds):
        for kit in contenders:
            for n in sizes:
                by_fields[kit.name][n].append(_once(makers[kit.name, n]))
            for d in depths:
                by_depth[kit.name][d].append(_once(chains[kit.name][d]))
    med = lambda table: {k: {n: statistics.median(v) for n, v in row.items()}  # noqa: E731
                         for k, row in table.items()}
    return {'fields': med(by_fields), 'depth': med(by_depth)}


def _once(make):
    timer = timeit.Timer('make()', globals={'make': make})
    number = calibrate(timer, 0.002)
    return min(timer.repeat(REPEAT, number)) / number


def growth_exponent(points):
    """Least-squares slope of log(time) on log(size), sizes >= 10: 1.0 is linear
    (a fixed cost per class pulls it below 1; quadratic work pushes it to 2)."""
    import math
    xs, ys = zip(*[(math.log(n), math.log(t)) for n, t in points.items() if n >= 10]
                 or [(math.log(n), math.log(t)) for n, t in points.items()])
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var if var else 1.0


# -- machine ------------------------------------------------------------------

def machine():
    model = platform.processor() or platform.machine()
    try:
        with open('/proc/cpuinfo') as f:
            model = next(line.split(':', 1)[1].strip() for line in f
                         if line.startswith('model name'))
    except (OSError, StopIteration):
        pass
    versions = {}
    for name in ('dataclass_meta', 'attrs', 'msgspec'):
        try:
            versions[name] = __import__(name).__version__
        except ImportError:
            pass
    import dataclass_meta
    return {'python': platform.python_version(), 'backend': dataclass_meta.BACKEND,
            'implementation': platform.python_implementation(),
            'platform': platform.platform(), 'cpu': model, 'cpus': os.cpu_count(),
            'versions': versions}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--quick', action='store_true', help='tiny setting (smoke test)')
    parser.add_argument('--out', default=os.path.join(HERE, 'results'))
    parser.add_argument('--rounds', type=int, help='interleaved rounds per operation')
    parser.add_argument('--only', nargs='*', help='operation keys to run, and '
                        "'pickle_instances' or 'travel' for those sections (default: all)")
    parser.add_argument('--contenders', nargs='*', help='contender names (default: all)')
    parser.add_argument('--no-extras', action='store_true',
                        help='skip memory, import time and scaling')
    parser.add_argument('--no-floors', action='store_true',
                        help="skip the C API's floors (benchmarks/floors.c)")
    args = parser.parse_args(argv)
    quick = args.quick
    rounds = args.rounds or (3 if quick else 21)
    min_time = 0.0001 if quick else 0.0005
    warmup = (0.05 if quick else 1.0) if PYPY else 0.0

    contenders = [k for k in kits(floors=not args.no_floors)
                  if not args.contenders or k.name in args.contenders]
    classes = {kit.name: Classes(kit) for kit in contenders}
    info = machine()
    print(f'Python {info["python"]} on {info["cpu"]}; contenders: '
          + ', '.join(k.name for k in contenders), flush=True)
    results = {'machine': info, 'quick': quick, 'rounds': rounds,
               'contenders': {k.name: {'label': k.label, 'ref': k.ref} for k in contenders}}
    results['operations'] = bench_operations(contenders, classes, rounds, min_time, args.only,
                                             warmup)
    if not args.only or 'pickle_instances' in args.only:
        results['pickle_instances'] = pickle_instances(
            contenders, 2_000 if quick else 200_000, args.rounds or (3 if quick else 7),
            min_time, warmup)
        print('\n'.join(pickle_table(results)), flush=True)
    if not args.only or 'travel' in args.only:
        results['travel'] = travel(rounds, min_time, warmup)
        print('\n'.join(travel_table(results)), flush=True)
    if args.no_extras:
        return results
    results['memory'] = memory_per_instance(contenders, classes, 100 if quick else 10000)
    print('  memory per instance (bytes):', results['memory'], flush=True)
    results['gc_collect'] = gc_collect(10_000 if quick else 1_000_000, 3 if quick else 7)
    print('  gc.collect() over instances in a dict:', results['gc_collect'], flush=True)
    modules = ['dataclasses', 'dataclass_meta', 'attrs', 'msgspec']
    results['import_ms'], results['import_extra_ms'] = import_times(
        modules, 2 if quick else 30)
    print('  import (ms):', results['import_ms'], flush=True)
    pair = [k for k in contenders if k.name in ('std', 'dm')]
    sizes = [1, 10] if quick else [1, 10, 50, 100, 200, 500]
    depths = [1, 5] if quick else [1, 10, 25, 50, 100]
    results['scaling'] = scaling(pair, sizes, depths, 1 if quick else 5)
    results['scaling']['exponent'] = {
        axis: {k: growth_exponent(v) for k, v in results['scaling'][axis].items()}
        for axis in ('fields', 'depth')}
    print('  scaling exponents:', results['scaling']['exponent'], flush=True)
    results['targets'] = targets(results)
    os.makedirs(args.out, exist_ok=True)
    paths = write_reports(results, args.out)
    print('wrote', ', '.join(paths))
    return results


# The compiled core's bounds: class creation as above, no instance operation
# slower than @dataclass's (positional construction of a dict-based class, whose
# call CPython 3.13+ inlines only where the metaclass is type, within 1.1), and
# the operations it does far better kept there; the TARGETS above then apply
# to the pure closures (dm_pure*).
COMPILED_TARGETS = [
    ('init, positional', 'init_pos', 'dm', 1.1),
    ('init, positional, make_dataclass', 'init_pos_made', 'dm', 1.1),
    ('init, positional, run-time names, make_dataclass', 'init_pos_runtime', 'dm', 1.1),
    ('init, positional, run-time names, metaclass call', 'init_pos_called', 'dm', 1.1),
    ('init, keyword', 'init_kw', 'dm', 0.7),
    ('init, defaults omitted', 'init_defaults', 'dm', 1.0),
    ('init, a default_factory', 'init_factory', 'dm', 1.0),
    ('init, frozen', 'init_pos', 'dm_frozen', 0.5),
    ('init, slots', 'init_pos', 'dm_slots', 1.0),
    ('==', 'eq', 'dm', 1.0),
    ('==, make_dataclass', 'eq_made', 'dm', 1.0),
    ('==, run-time names, make_dataclass', 'eq_runtime', 'dm', 1.0),
    ('==, run-time names, metaclass call', 'eq_called', 'dm', 1.0),
    ('==, slots', 'eq', 'dm_slots', 0.45),
    ('<', 'lt', 'dm', 1.0),
    ('hash (frozen)', 'hash', 'dm_frozen', 1.0),
    ('repr', 'repr', 'dm', 1.0),
    ('asdict, nested', 'asdict', 'dm', 0.3),
    ('astuple, nested', 'astuple', 'dm', 0.3),
    ('replace', 'replace', 'dm', 0.4),
    ('hash, cache_hash, after the first', 'hash_cached', 'dm_frozen', 0.3),
    ('cached_property read on slots, after the first', 'cached_read', 'dm_slots', 1.1),
]


# Slotted classes against msgspec's ``Struct`` with the same fields and options:
# (name, operation, our contender, msgspec's, bound), the ratio of the two times
# in the same run; for both backends. The cached_property read is set against a
# plain field read of the Struct, with the bound of a cached read against a
# plain slot read.
MSGSPEC_ROWS = [
    ('construction, positional', 'init_pos', 'dm_slots', 'msgspec', 1.0),
    ('construction, keyword', 'init_kw', 'dm_slots', 'msgspec', 1.0),
    ('construction, frozen', 'init_pos', 'dm_frozen_slots', 'msgspec_frozen', 1.0),
    ('construction, gc=False', 'init_pos', 'dm_slots_nogc', 'msgspec_nogc', 1.0),
    ('==', 'eq', 'dm_slots', 'msgspec', 1.0),
    ('hash (frozen)', 'hash', 'dm_frozen_slots', 'msgspec_frozen', 1.0),
    ('repr', 'repr', 'dm_slots', 'msgspec', 1.0),
    ('replace', 'replace', 'dm_slots', 'msgspec', 1.0),
    ('cached_property read', 'cached_read', 'dm_slots', 'msgspec', 1.1),
]


def _msgspec_rows(results):
    """The ``MSGSPEC_ROWS`` targets of a run, of each backend it has."""
    ops, out = results['operations'], []
    backends = [('dm', results['machine']['backend'])]
    if 'dm_pure' in results['contenders']:
        backends.append(('dm_pure', 'pure'))
    for prefix, backend in backends:
        for name, key, who, theirs, bound in MSGSPEC_ROWS:
            ours = who.replace('dm', prefix, 1)
            secs = ops.get(key, {}).get('seconds', {})
            if ours in secs and theirs in secs:
                ratio = secs[ours] / secs[theirs]
                out.append({'name': f'slots, {name}, {backend} / msgspec', 'operation': key,
                            'contender': ours, 'bound': bound, 'ratio': ratio,
                            'met': ratio <= bound})
    return out


def _pickle_rows(results):
    """The ``PICKLE_BOUNDS`` targets of a run: each backend's slotted class
    against msgspec's Struct."""
    done, out = results.get('pickle_instances'), []
    for who in ('dm_slots', 'dm_pure_slots'):
        backend = 'pure' if who == 'dm_pure_slots' else results['machine']['backend']
        for measure, bound in PICKLE_BOUNDS.items():
            ratio = against_msgspec(done, who, measure) if done else None
            if ratio is not None:
                what = 'bytes per instance' if measure == 'bytes' else measure
                out.append({'name': f'pickle of {done["instances"]:,} slotted instances, '
                                    f'{what}, {backend} / msgspec',
                            'operation': f'pickle_{measure}', 'contender': who,
                            'bound': bound, 'ratio': ratio, 'met': ratio <= bound})
    return out


# On PyPy (pure closures only) the bounds are its own: class creation at most
# half of @dataclass's, every instance operation at most the stdlib's time.
PYPY_BOUNDS = {'class': 0.5, 'instance': 1.0}


def _target_rows():
    if PYPY:
        return [(name, key, who, PYPY_BOUNDS['class' if key.startswith('class') else 'instance'])
                for name, key, who, _ in TARGETS]
    if 'dm_pure' not in _CONTENDERS:
        return TARGETS
    rows = [(f'{name}, compiled', key, who, bound)
            for name, key, who, bound in TARGETS if key.startswith('class')]
    rows += [(f'{name}, compiled', key, who, bound)
             for name, key, who, bound in COMPILED_TARGETS]
    rows += [(f'{name}, pure', key, who.replace('dm', 'dm_pure', 1), bound)
             for name, key, who, bound in TARGETS if not key.startswith('class')]
    return rows


_CONTENDERS = set()


def targets(results):
    ops = results['operations']
    _CONTENDERS.update(results['contenders'])
    out = []
    for name, key, who, bound in _target_rows():
        ratio = ops.get(key, {}).get('ratio', {}).get(who)
        out.append({'name': name, 'operation': key, 'contender': who, 'bound': bound,
                    'ratio': ratio, 'met': None if ratio is None else ratio <= bound,
                    'floor': floor_ratio(results, key, who),
                    'metaclass_floor': metaclass_floor_ratio(results, key, who)})
    extra = results['import_extra_ms'].get('dataclass_meta', {}).get('fastest')
    if extra is not None:
        out.append({'name': 'import, ms over `import dataclasses`', 'operation': 'import',
                    'contender': 'dm', 'bound': 3.5, 'ratio': extra, 'met': extra <= 3.5})
    mem = results['memory']
    for who, ref in (('dm', 'std'), ('dm_slots', 'std_slots'), ('dm_pure', 'std')):
        if who in mem and ref in mem:
            out.append({'name': f'memory per instance, {who} / {ref}', 'operation': 'memory',
                        'contender': who, 'bound': 1.0, 'ratio': mem[who] / mem[ref],
                        'met': mem[who] <= mem[ref]})
    collect = results.get('gc_collect') or {}
    if collect:
        out.append({'name': f'full gc.collect() over {collect["instances"]:,} instances in '
                            f'a dict, gc=False / plain', 'operation': 'gc_collect',
                    'contender': 'dm', 'bound': 0.1, 'ratio': collect['ratio'],
                    'met': collect['ratio'] <= 0.1})
    convert = ops.get('init_convert', {}).get('ratio', {})
    for who in ('dm', 'dm_pure'):
        if who in convert and 'attrs' in convert:
            ratio = convert[who] / convert['attrs']
            out.append({'name': f'init, 5 converters + validators, {who} / attrs',
                        'operation': 'init_convert', 'contender': who, 'bound': 1.0,
                        'ratio': ratio, 'met': ratio <= 1.0})
    out += _msgspec_rows(results)
    out += _pickle_rows(results)
    for backend, rows in results.get('travel', {}).items():
        who = 'dm' if backend == results['machine']['backend'] else 'dm_pure'
        for key, row in rows.items():  # no ratio: the class did not arrive
            ratio = row.get('ratio')
            out.append({'name': f'travelled class / local, {row["label"]}, {backend}',
                        'operation': f'travel_{key}', 'contender': who, 'bound': TRAVEL_BOUND,
                        'ratio': ratio, 'met': ratio is not None and ratio <= TRAVEL_BOUND})
    ops_msgspec = [(k, ops[k]['seconds']) for k in ('class5', 'class20') if k in ops]
    for key, secs in ops_msgspec:
        if 'msgspec' in secs and 'dm' in secs:
            ratio = secs['dm'] / secs['msgspec']
            out.append({'name': f'{ops[key]["label"]}, dm / msgspec', 'operation': key,
                        'contender': 'dm', 'bound': 3.0, 'ratio': ratio, 'met': ratio <= 3.0})
    for axis, exps in results['scaling']['exponent'].items():
        if 'dm' in exps:
            out.append({'name': f'class creation growth with {axis} (log-log slope)',
                        'operation': f'scaling_{axis}', 'contender': 'dm', 'bound': 1.2,
                        'ratio': exps['dm'], 'met': exps['dm'] <= 1.2})
    return out


if __name__ == '__main__':
    main()
