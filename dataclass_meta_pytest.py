"""pytest plugin: explain a failing ``==`` between two data class instances, and
name the active backend in the session header.

pytest explains unequal ``@dataclass`` instances field by field only when their
``__eq__`` is the generated one, which it recognises by the file name of
exec'd code (``<string>``); ours are closures (pure or compiled), so it would
show only the two reprs. This hook gives pytest's explanation (same wording) for
instances whose ``__eq__`` is ours, asking the package's backends whether they
made it. pytest loads it through the ``pytest11`` entry point. It is a module of
its own, outside the package, and imports nothing of the package unless the
session did: a session that never uses data classes of ours pays nothing, and
the compiled core is not loaded (on a free-threaded Python it could otherwise
change the interpreter, and any import may warn).
"""

import dataclasses
import pprint
import sys

import pytest

_INDENT = '  '


@pytest.hookimpl(tryfirst=True)
def pytest_assertrepr_compare(config, op, left, right):
    """The summary, then matching and differing fields and a drill-down."""
    if op != '==' or type(left) is not type(right) or not _generated_eq(type(left)):
        return None
    verbose = _verbosity(config)
    return [_summary(left, right, verbose), *_explain_fields(config, left, right, verbose)]


def _explain_fields(config, left, right, verbose):
    """The lines pytest's ``_compare_eq_cls`` gives for a generated ``__eq__``."""
    names = [f.name for f in left.__dataclass_fields__.values()
             if f._field_type is dataclasses._FIELD and f.compare]
    same = [name for name in names if getattr(left, name) == getattr(right, name)]
    diff = [name for name in names if name not in same]
    lines = ['']
    if same and verbose < 2:
        lines.append(f'Omitting {len(same)} identical items, use -vv to show')
    elif same:
        lines += ['Matching attributes:', *pprint.pformat(same).splitlines()]
    if diff:
        lines += ['Differing attributes:', *pprint.pformat(diff).splitlines()]
    for name in diff:
        a, b = getattr(left, name), getattr(right, name)
        lines += ['', f'Drill down into differing attribute {name}:',
                  f'{_INDENT}{name}: {a!r} != {b!r}']
        lines += [_INDENT + line for line in _explain(config, a, b, verbose)]
    return lines


def _generated_eq(cls):
    """Whether ``cls.__eq__`` is made by one of the package's backends (not
    hand-written, not the stdlib's)."""
    backend = sys.modules.get('dataclass_meta._backend')
    if backend is None or not hasattr(cls, '__dataclass_fields__'):
        return False  # no class of ours exists before the package is imported
    return backend.made_by_any(getattr(cls, '__eq__', None))


def _explain(config, left, right, verbose):
    """What pytest says about two field values, without its summary line."""
    if type(left) is type(right) and _generated_eq(type(left)):
        return _explain_fields(config, left, right, verbose)
    for result in config.hook.pytest_assertrepr_compare(
            config=config, op='==', left=left, right=right):
        if result:  # [summary, '', explanation...]
            return result[2:] if result[1:2] == [''] else result[1:]
    return []


def _verbosity(config):
    """Assertion verbosity: pytest 8+ can set it apart from -v (``verbosity_assertions``)."""
    get = getattr(config, 'get_verbosity', None)
    if get is None:
        return config.getoption('verbose')
    return get(getattr(config, 'VERBOSITY_ASSERTIONS', None))


def _summary(left, right, verbose):
    """``left == right``, each shortened in the middle as pytest does below -vv."""
    if verbose > 1:
        return f'{left!r} == {right!r}'
    size = (80 - 15 - 2 - 2) // 2  # pytest's: 15 columns of indentation
    return f'{_ellipsize(repr(left), size)} == {_ellipsize(repr(right), size)}'


def _ellipsize(text, size):
    if len(text) <= size:
        return text
    head = max(0, (size - 3) // 2)
    tail = max(0, size - 3 - head)
    return text[:head] + '...' + text[len(text) - tail:]


def pytest_report_header(config):
    """``dataclass_meta 0.1.0, backend: compiled`` (or ``pure (why)``) in pytest's
    header, where the package is already imported (by a conftest, a plugin);
    otherwise in the summary at the end, if the session imported it.

    A failed C build is silent under ``pip install``; this line shows which
    implementation the tests ran on. The package is never imported here.
    """
    return _backend_line()


def pytest_terminal_summary(terminalreporter):
    if not _HEADER_SHOWN and terminalreporter.verbosity >= 0 and 'dataclass_meta' in sys.modules:
        terminalreporter.write_line(_backend_line())


_HEADER_SHOWN = []


def _backend_line():
    package = sys.modules.get('dataclass_meta')
    if package is None or not hasattr(package, '__version__'):  # not (fully) imported
        return None
    _HEADER_SHOWN.append(True)
    return f'dataclass_meta {package.__version__}, backend: {package.describe_backend()}'
