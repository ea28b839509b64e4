"""``dataclass_meta.mypy_plugin``: mypy sees options inherited as the runtime makes them,
and types ``field(converter=...)`` as the typing spec does.

mypy runs once with the plugin over ``tests/typing/mypy_plugin/`` (marked as in
``tests/typing/README.md``) and over the ``pass_*.py`` files of ``tests/typing/``,
which must stay clean with the plugin on.
"""

import os
import runpy
import subprocess
import sys

import pytest

from tests.test_typing import FILES, ROOT, TYPING, expected_lines, parse_mypy, unavailable

pytestmark = pytest.mark.skipif(unavailable('mypy') is not None, reason=str(unavailable('mypy')))

PLUGIN_FILES = sorted((TYPING / 'mypy_plugin').glob('*.py'))
PASS_FILES = [p for p in FILES if p.name.startswith('pass_')]


@pytest.fixture(scope='module')
def report(tmp_path_factory):
    """mypy's errors with the plugin, {path: {line: [message]}}."""
    config = tmp_path_factory.mktemp('mypy') / 'mypy.ini'
    config.write_text('[mypy]\nplugins = dataclass_meta.mypy_plugin\n')
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', '--config-file', str(config), '--no-error-summary',
         '--show-error-codes', '--hide-error-context', '--no-pretty',
         '--cache-dir', str(ROOT / '.mypy_cache' / 'plugin'),
         *map(str, PLUGIN_FILES + PASS_FILES)],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    if result.returncode not in (0, 1):
        pytest.fail(f'mypy did not run:\n{result.stdout}{result.stderr}')
    return parse_mypy(result.stdout)


@pytest.mark.parametrize('path', PLUGIN_FILES + PASS_FILES,
                         ids=lambda p: p.relative_to(TYPING).as_posix())
def test_plugin_verdicts(report, path):
    """Every marked line is a mypy error with the plugin, and no other line is."""
    found = report.get(path.resolve(), {})
    wanted = expected_lines(path, 'mypy')
    unexpected = {line: found[line] for line in sorted(set(found) - wanted)}
    assert not unexpected, f'errors on unmarked lines: {unexpected}'
    assert not sorted(wanted - set(found)), f'no error on marked lines {sorted(wanted - set(found))}'


@pytest.mark.parametrize('path', [p for p in PLUGIN_FILES if p.name.startswith('pass_')],
                         ids=lambda p: p.name)
def test_plugin_clean_files_run(path):
    """What mypy accepts with the plugin also runs: the plugin agrees with the runtime."""
    runpy.run_path(str(path), run_name=f'typing_{path.stem}')


def test_without_the_plugin_mypy_rejects_plain_inheritance():
    """The plugin is what changes the verdict: plain mypy calls ``Release`` non-frozen."""
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', '--no-incremental', '--config-file', '',
         '--hide-error-context', '--no-pretty', str(TYPING / 'mypy_plugin' / 'pass_inherited.py')],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert 'Non-frozen dataclass cannot inherit from a frozen dataclass' in result.stdout, (
        result.stdout + result.stderr)


def test_without_the_plugin_mypy_rejects_a_converted_call():
    """The plugin is what types converters: plain mypy wants the field's own type."""
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', '--no-incremental', '--config-file', '',
         '--hide-error-context', '--no-pretty',
         str(TYPING / 'mypy_plugin' / 'pass_converters.py')],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert 'Argument 2 to "Server" has incompatible type "str"; expected "int"' in (
        result.stdout), result.stdout + result.stderr


MODELS = """
from dataclass_meta import DataClass, field


def to_port(value: str | int) -> int:
    return int(value)


class Server(DataClass):
    port: int = field(converter=to_port, alias='p')
"""


def test_converters_of_a_class_read_from_the_cache(tmp_path):
    """A class whose module mypy reads from its cache (incremental run) keeps its
    converters: the plugin's record lives in mypy's own serialized metadata."""
    (tmp_path / 'models.py').write_text(MODELS)
    config = tmp_path / 'mypy.ini'
    config.write_text('[mypy]\nplugins = dataclass_meta.mypy_plugin\n')
    use = tmp_path / 'use.py'

    def check(source):
        use.write_text(f'from models import Server\n{source}\n')
        return subprocess.run(
            [sys.executable, '-m', 'mypy', '--config-file', str(config),
             '--cache-dir', str(tmp_path / 'cache'), '--hide-error-context', '--no-pretty',
             '--no-error-summary', 'models.py', 'use.py'],
            cwd=tmp_path, capture_output=True, text=True, timeout=300,
            env={**os.environ, 'PYTHONPATH': str(ROOT)})

    first = check("Server(p='80')")
    assert first.returncode == 0, first.stdout + first.stderr
    second = check("Server(p='80')\nServer(p=b'80')\nServer(port='80')")
    errors = [line for line in second.stdout.splitlines() if ': note: ' not in line]
    assert errors == [
        'use.py:3: error: Argument "p" to "Server" has incompatible type "bytes"; '
        'expected "str | int"  [arg-type]',
        'use.py:4: error: Unexpected keyword argument "port" for "Server"  [call-arg]',
    ], second.stdout + second.stderr


def test_copy_replace_takes_the_converters_input(tmp_path):
    """``copy.replace()`` (3.13's typeshed, checked here whatever Python runs mypy)
    takes a converted field's change as the converter's input, like ``replace()``."""
    (tmp_path / 'models.py').write_text(
        MODELS + '\nimport copy\ns = Server(p=1)\n'
        'copy.replace(s, p="2")\ncopy.replace(s, p=b"2")\n')
    config = tmp_path / 'mypy.ini'
    config.write_text('[mypy]\nplugins = dataclass_meta.mypy_plugin\n')
    result = subprocess.run(
        [sys.executable, '-m', 'mypy', '--config-file', str(config), '--no-incremental',
         '--python-version', '3.13', '--hide-error-context', '--no-pretty',
         '--no-error-summary', 'models.py'],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**os.environ, 'PYTHONPATH': str(ROOT)})
    assert result.stdout.splitlines() == [
        'models.py:15: error: Argument "p" to "__replace__" of "Server" has incompatible type '
        '"bytes"; expected "str | int"  [arg-type]'], result.stdout + result.stderr
