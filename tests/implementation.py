"""What the running interpreter lacks, as skip marks that say why.

The suite runs on CPython and PyPy. A test that needs a CPython-only facility is
skipped elsewhere with the reason printed, never passed without checking.
"""

import sys

import pytest

PYPY = sys.implementation.name == 'pypy'

try:
    import tracemalloc
except ImportError:  # PyPy: the module is there, its C part (_tracemalloc) is not
    tracemalloc = None

needs_tracemalloc = pytest.mark.skipif(
    tracemalloc is None, reason='no tracemalloc on this interpreter (PyPy): '
                                'allocated memory cannot be traced')
