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


def _signature(params):
    """The signature of a small generated method: ``(self, other)`` and so on."""
    import inspect
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return inspect.Signature([inspect.Parameter(name, kind) for name in params])


if speedups is not None:
    speedups.set_signature_factory(_signature)
