"""What the running interpreter lacks, as skip marks that say why.

The suite runs on CPython and PyPy. A test that needs a CPython-only facility is
skipped elsewhere with the reason printed, never passed without checking.
"""

import gc
import os
import signal
import subprocess
import sys
import weakref

import pytest

PYPY = sys.implementation.name == 'pypy'

try:
    import tracemalloc
except ImportError:  # PyPy: the module is there, its C part (_tracemalloc) is not
    tracemalloc = None

needs_tracemalloc = pytest.mark.skipif(
    tracemalloc is None, reason='no tracemalloc on this interpreter (PyPy): '
                                'allocated memory cannot be traced')


def classes_are_immortal():
    """Whether a class that nothing refers to survives ``gc.collect()``: a
    free-threaded 3.13 makes every class immortal once a second thread has
    started (CPython gh-117783, its free-threading HOWTO's "Immortalization";
    3.14 replaced it by deferred reference counting)."""
    class Probe:
        pass
    ref = weakref.ref(Probe)
    del Probe
    gc.collect()
    return ref() is not None


@pytest.fixture
def mortal_classes():
    """Skip a test that checks that classes are freed where the interpreter
    keeps every class forever (asked when the test runs: on 3.13t, once any
    earlier test has started a thread)."""
    if classes_are_immortal():
        pytest.skip('classes are immortal on this interpreter (a free-threaded 3.13 '
                    'after a second thread started, CPython gh-117783): none can be freed')


def run_in_a_child(statement, attempts=3):
    """Run ``statement`` in a fresh interpreter started from the checkout and
    return what it printed; fail with its output if it did not exit cleanly.

    For deep recursion on PyPy: there a stack overflow that lands inside the
    interpreter's own code (its garbage collector or JIT) aborts the process
    with SIGABRT instead of raising ``RecursionError`` (seen once in a CI run of
    PyPy 8.0.1, never reproduced). In a child that abort cannot take the whole
    session down, and it is retried: it is the interpreter's, whatever the code
    under test does. Any other ending counts at once.
    """
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for _ in range(attempts):
        child = subprocess.run([sys.executable, '-c', statement], cwd=root,
                               capture_output=True, text=True, timeout=300)
        if child.returncode != -signal.SIGABRT:
            break
    assert child.returncode == 0, child.stdout + child.stderr
    return child.stdout
