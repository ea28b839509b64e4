"""One build of the checkout at a time, across the suite's worker processes.

``python -m build`` and ``pip install`` from the checkout write into it (its
``*.egg-info``, ``build/``, an sdist's staging directory), so two at once, on
two pytest-xdist workers, break each other. Tests that build from the checkout
do so inside ``building_the_checkout()``: an exclusive lock on a file named
after the checkout, in the temporary directory every worker shares.
"""

import contextlib
import hashlib
import os
import tempfile

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The suite also runs against an installed wheel, from a copy of the tests
# beside no package sources and no setup.py (tools/prove_wheels.py, and
# cibuildwheel's test-sources): the tests that build the tree, or read the
# checkout's own package, skip there; the others read the package imported.
SOURCE_TREE = (os.path.isfile(os.path.join(ROOT, 'setup.py'))
               and os.path.isdir(os.path.join(ROOT, 'dataclass_meta')))
NOT_A_SOURCE_TREE = ('the tests run against an installed package, beside no package '
                     'sources or setup.py')


@contextlib.contextmanager
def building_the_checkout():
    digest = hashlib.sha256(os.fsencode(ROOT)).hexdigest()[:16]
    path = os.path.join(tempfile.gettempdir(), f'dataclass_meta-build-{digest}.lock')
    with open(path, 'a+b') as handle:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        else:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_UN)
            else:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)
