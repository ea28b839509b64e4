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
