"""Which backend is active and why, in words: for ``python -m dataclass_meta``,
the tour and pytest's header.

``pip install`` prints the warning of a failed C build only with ``-v``, so a
user without a compiler gets the pure backend without noticing; this says so
wherever a user looks. The reason is worked out when asked (the import of the
package does not pay for it): a compiled core that exists but was not used was
either switched off by ``DATACLASS_META_PURE=1`` or failed to load.
"""

import os
import sys

from ._backend import BACKEND

_SPEEDUPS = __package__ + '._speedups'


def describe_backend():
    """``'compiled'``, or ``'pure (...)'`` with the reason the compiled core is not used."""
    if BACKEND == 'compiled':
        return 'compiled'
    return f'pure ({_why_pure()})'


def _why_pure():
    import importlib.util  # only when asked: importing the package stays lean

    if importlib.util.find_spec(_SPEEDUPS) is None:
        return ('compiled core not built: pip builds it where a C compiler and the '
                'Python headers are present, and shows why it did not with -v')
    if os.environ.get('DATACLASS_META_PURE', '') == '1':
        return 'DATACLASS_META_PURE=1'
    from ._backend import load_failure
    why = load_failure()
    if why is not None:
        return f'compiled core did not load: {why}'
    return 'DATACLASS_META_PURE=1 when the package was first imported'


def main():
    """``python -m dataclass_meta``: version, backend and why, interpreter."""
    from . import __version__  # set after the package's imports
    print(f'dataclass_meta {__version__}')
    print(f'backend: {describe_backend()}')
    if BACKEND == 'compiled':
        print(f'compiled core: {sys.modules[_SPEEDUPS].__file__}')
    print(f'python: {sys.version.split()[0]} ({sys.implementation.name}) {sys.executable}')
