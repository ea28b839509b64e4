"""Processes: instances cross process boundaries and come back equal.

The classes live in ``reliability_helpers`` so that a child started with
``spawn`` (a fresh interpreter) can import them to unpickle instances.
"""

import concurrent.futures
import functools
import multiprocessing
import os
import pickle
import subprocess
import sys
import threading

import pytest

from .reliability_helpers import (
    Frozen, FrozenSlotted, Nested, Point, frozen_guard, inspect_in_child, rebuild,
    replace_first, roundtrip, sample, send_back)

CONTEXTS = ['fork', 'spawn']
TIMEOUT = 60  # seconds: a bound against hanging on a dead child, never reached


_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(params=CONTEXTS)
def context(request):
    """A multiprocessing context: ``fork`` (copied parent) and ``spawn`` (fresh)."""
    return multiprocessing.get_context(request.param)


def _threads():
    """This process's threads, those started without ``threading`` too (the
    kernel's count where it gives one)."""
    try:
        return len(os.listdir('/proc/self/task'))
    except OSError:
        return threading.active_count()


def single_threaded_fork(test):
    """Run ``test(context)`` where forking is safe: a process with other threads
    (a pytest-xdist worker runs its own) may fork a child that deadlocks on a
    lock one of them held, so there the ``fork`` case runs in a fresh
    interpreter, which has none."""
    @functools.wraps(test)
    def run(context):
        if context.get_start_method() != 'fork' or _threads() == 1:
            return test(context)
        code = ('import multiprocessing; from tests.test_processes import ' + test.__name__
                + ' as t; t.__wrapped__(multiprocessing.get_context("fork"))')
        done = subprocess.run([sys.executable, '-c', code], cwd=_ROOT, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    return run


@single_threaded_fork
def test_pool_round_trip(context):
    """``Pool.map`` sends every kind of instance to a child and back unchanged."""
    objects = sample()
    with context.Pool(2) as pool:
        back = pool.map(roundtrip, objects)
        pool.close()
        pool.join()  # its helper threads too: a later fork must not see them
    assert back == objects
    assert [type(b) for b in back] == [type(o) for o in objects]
    assert back[-1].cached == 7  # an init=False, compare=False field travels too


@single_threaded_fork
def test_executor_child_sees_same_instances(context):
    """A ProcessPoolExecutor child sees the same repr, values and fields as the parent."""
    objects = sample()
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
        seen = list(pool.map(inspect_in_child, objects, timeout=TIMEOUT))
        guards = list(pool.map(frozen_guard, objects))
        copies = list(pool.map(replace_first, objects[:5]))
        rebuilt = list(pool.map(rebuild, [pickle.dumps(o) for o in objects]))
    local = [inspect_in_child(o) for o in objects]
    assert all(child[0] != local[0][0] for child in seen)
    assert [child[1:] for child in seen] == [mine[1:] for mine in local]
    assert guards == [frozen_guard(o) for o in objects]
    assert guards[1] == ('FrozenInstanceError', "cannot assign to field 'name'")
    assert copies == [replace_first(o) for o in objects[:5]]
    assert [pickle.loads(data) for data in rebuilt] == objects


@single_threaded_fork
def test_process_pipe_round_trip(context):
    """A child process sends a nested instance and its ``replace()`` copy through a pipe."""
    nested = Nested(Point(1), Frozen('x', (1,)), sample()[2], [FrozenSlotted(3)])
    parent_end, child_end = context.Pipe()
    process = context.Process(target=send_back, args=(child_end, nested))
    process.start()
    child_end.close()  # so that recv() sees EOF if the child dies
    try:
        assert parent_end.poll(TIMEOUT), 'no answer from the child'
        got, doubled = parent_end.recv()
    finally:
        process.join(TIMEOUT)
        if process.is_alive():
            process.kill()
    assert process.exitcode == 0
    assert got == nested and got is not nested
    assert doubled == replace_first(nested) and doubled.point == Point(2)
