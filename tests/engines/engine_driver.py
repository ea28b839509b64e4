"""``python engine_driver.py ENGINE BACKEND``: an engine runs a task on a worker
process with data classes defined here, in ``__main__``, as a notebook defines
them. The worker builds, compares and transforms instances and sends them back;
this process computes the same itself and exits non-zero (an AssertionError, with
the worker's traceback where the worker failed) on any difference.
tests/engines/test_engines.py runs it for each engine and backend.
"""

import os
import sys
import traceback

import dataclass_meta
from dataclass_meta import DataClass, field
from engine_models import Account


class Point(DataClass, frozen=True, order=True, slots=True):
    x: int
    y: int = 0


class Reading(DataClass):
    value: int = field(converter=int)
    unit: str = 'm'


class Key(DataClass, frozen=True, cache_hash=True):
    name: str  # its hash differs between processes: a cached hash must not travel
    parts: tuple = ()


class Bag(DataClass):
    items: list = field(default_factory=list)
    label: str = ''


CLASSES = [Point, Reading, Key, Bag, Account]
# A bound on waiting for the worker: Dask, for one, waits forever on a task
# its worker could not unpickle (the worker logs why, to stderr).
TIMEOUT = 60  # seconds; a task takes well under one


def make():
    return [Point(1, 2), Reading('7'), Key('k', (1, 2)), Bag([1], 'b'), Account('ann', 3)]


def outcome(call):
    """The call's result, or the name of the error it raises."""
    try:
        return repr(call())
    except Exception as exc:
        return type(exc).__name__


def observe(sent):
    """What a user sees here of the classes and of ``sent``, the driver's instances."""
    made = make()
    point, reading, key, bag, account = made
    pairs = list(zip(sent, made))
    copies = [dataclass_meta.replace(point, y=5), dataclass_meta.replace(reading, value='8'),
              dataclass_meta.replace(key, parts=()), dataclass_meta.replace(bag, label='c'),
              dataclass_meta.replace(account, balance=4)]
    return {
        'pid': os.getpid(),
        'backend': dataclass_meta.BACKEND,
        # each class's module, and whether the class is that module's attribute
        # here (not so for a class that cloudpickle sent by value)
        'homes': [(cls.__module__,
                   cls is getattr(sys.modules.get(cls.__module__), cls.__name__, None))
                  for cls in CLASSES],
        'repr': [repr(x) for x in made + copies],
        'converted': [type(reading.value).__name__, type(copies[1].value).__name__],
        'sent_equal': [s == m for s, m in pairs],
        'sent_class': [type(s) is type(m) for s, m in pairs],
        'sent_hash': [hash(s) == hash(m) for s, m in pairs if type(m).__hash__ is not None],
        'eq': [point == Point(1, 2), point != Point(1), point == (1, 2), key == Key('k', (1, 2)),
               bag == Bag([1], 'b'), account == Account('ann', 3)],
        'order': [Point(1) < point, point <= sent[0], Account('ann') < account,
                  sorted([Point(0, 9), sent[0], Point(1)]) == [Point(0, 9), Point(1), point]],
        'hash': [hash(point), hash(point) == hash(Point(1, 2)),
                 hash(key) == hash(Key('k', (1, 2))), sent[2] in {key}, sent[4] in {account}],
        'outcomes': [outcome(lambda: setattr(point, 'x', 0)), outcome(lambda: point < Point),
                     outcome(lambda: hash(bag)), outcome(lambda: Reading('x'))],
        'asdict': [dataclass_meta.asdict(x) for x in made + copies],
        'instances': made + copies,  # sent back to the driver
    }


def task(sent):
    """The worker's part: its observations, or its own traceback."""
    try:
        return observe(sent)
    except Exception:
        return {'error': traceback.format_exc()}


def run_joblib(sent):
    from joblib import Parallel, delayed
    # n_jobs=1 would run the task in this process
    (seen,) = Parallel(n_jobs=2, backend='loky', timeout=TIMEOUT)([delayed(task)(sent)])
    return seen


def run_dask(sent):
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        return client.submit(task, sent).result(timeout=TIMEOUT)


def run_ray(sent):
    import ray
    # A cluster on this machine (not local_mode, which runs tasks in the driver);
    # the object store's floor, enough for a few small objects.
    ray.init(num_cpus=1, include_dashboard=False, object_store_memory=80 * 2**20)
    try:
        return ray.get(ray.remote(task).remote(sent), timeout=TIMEOUT)
    finally:
        ray.shutdown()


def run_multiprocessing(method):
    def run(sent):
        import multiprocessing
        with multiprocessing.get_context(method).Pool(1) as pool:
            return pool.apply_async(task, (sent,)).get(TIMEOUT)
    return run


ENGINES = {'joblib': run_joblib, 'dask': run_dask, 'ray': run_ray,
           'spawn': run_multiprocessing('spawn'),
           'forkserver': run_multiprocessing('forkserver')}
# Where the worker finds the classes of __main__: cloudpickle sends them by
# value; multiprocessing's pickle sends every class by reference, and its child
# re-imports this script as __mp_main__. engine_models' class goes by reference.
MAIN_HOMES = {'joblib': ('__main__', False), 'dask': ('__main__', False),
              'ray': ('__main__', False), 'spawn': ('__mp_main__', True),
              'forkserver': ('__mp_main__', True)}


def main(engine, backend):
    assert dataclass_meta.BACKEND == backend, f'{dataclass_meta.BACKEND} active, not {backend}'
    sent = make()
    seen = ENGINES[engine](sent)
    assert 'error' not in seen, f'the task failed on the worker:\n{seen.get("error")}'
    mine = observe(sent)
    assert seen.pop('pid') != mine.pop('pid'), 'the task ran in the driver'
    homes = seen.pop('homes')
    assert homes == [MAIN_HOMES[engine]] * 4 + [('engine_models', True)], homes
    assert mine.pop('homes') == [('__main__', True)] * 4 + [('engine_models', True)]
    back, local = seen.pop('instances'), mine.pop('instances')
    differ = {name: {'worker': seen.get(name), 'driver': value}
              for name, value in mine.items() if seen.get(name) != value}
    assert not differ, differ
    # The instances come home as the driver's own classes, equal to its own.
    assert [type(b) for b in back] == [type(x) for x in local]
    assert back == local
    assert [repr(b) for b in back] == [repr(x) for x in local]
    assert ([hash(b) for b in back if type(b).__hash__ is not None]
            == [hash(x) for x in local if type(x).__hash__ is not None])
    print(f'{engine} ({backend}): the worker agrees')


if __name__ == '__main__':  # spawn and Dask's workers import this script again
    main(*sys.argv[1:])
