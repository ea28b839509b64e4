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
    """``'compiled'``, or ``'pure (...)'`` with the reason the compiled core is not
    used; on a free-threaded build, then whether the GIL is enabled
    (``'compiled; free-threaded, GIL disabled'``)."""
    text = 'compiled' if BACKEND == 'compiled' else f'pure ({_why_pure()})'
    gil = _gil()
    return text if gil is None else f'{text}; free-threaded, GIL {gil}'


def describe_internals():
    """What the compiled core found of CPython's internals it relies on: ``'as
    assumed'``, or which did not hold, and what the core then declines."""
    probed = sys.modules[_SPEEDUPS].INTERNALS  # (name, holds); the last: the tests' switch
    failed = [name for name, holds in probed if not holds]
    if not failed:
        return 'as assumed (' + ', '.join(name for name, _ in probed[:-1]) + ')'
    return (f'not as assumed ({", ".join(failed)}): classes are called through '
            f'type.__call__ and gc=False keeps the collector\'s header')


def _gil():
    """``'disabled'`` or ``'enabled'`` (``PYTHON_GIL=1``, or an extension that
    needs it) on a free-threaded build; None elsewhere, where it is always on."""
    import sysconfig
    if not sysconfig.get_config_var('Py_GIL_DISABLED'):
        return None
    return 'enabled' if sys._is_gil_enabled() else 'disabled'


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
    """``python -m dataclass_meta``: version, backend and why, the GIL, interpreter."""
    from . import __version__  # set after the package's imports
    print(f'dataclass_meta {__version__}')
    print(f'backend: {describe_backend()}')
    if BACKEND == 'compiled':
        print(f'compiled core: {sys.modules[_SPEEDUPS].__file__}')
        print(f'CPython internals: {describe_internals()}')
    gil = _gil()
    print(f'GIL: {"enabled" if gil is None else f"{gil} (free-threaded build)"}')
    print(f'python: {sys.version.split()[0]} ({sys.implementation.name}) {sys.executable}')
