"""Which implementation of the generated methods is active: compiled or pure.

``_speedups`` (the optional C extension) provides the generated methods as C-level
closures; the pure-Python closures are the reference and the fallback. The
compiled one is used when it was built, unless ``DATACLASS_META_PURE=1`` is set
in the environment when the package is first imported.
"""

import os

speedups = None
if os.environ.get('DATACLASS_META_PURE', '') != '1':
    try:
        from . import _speedups as speedups
    except ImportError:  # not built (no compiler at install time): the pure backend
        speedups = None

#: ``'compiled'`` or ``'pure'``: the backend this process uses.
BACKEND = 'pure' if speedups is None else 'compiled'
