"""What the running interpreter lacks, as skip marks that say why.

The suite runs on CPython and PyPy. A test that needs a CPython-only facility is
skipped elsewhere with the reason printed, never passed without checking.
"""

import gc
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
