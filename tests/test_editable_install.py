"""After the README's ``pip install -e`` (and after a plain install, from a wheel), type
checkers find the package from any directory.

setuptools' default editable install for a flat layout like this one is an
import hook (a ``__editable__..._finder`` module run from a ``.pth`` file) that
only a running interpreter follows: mypy and pyright report "Cannot find
implementation or library stub" / "Import could not be resolved". ``setup.cfg``
asks for a strict editable install instead (a tree of links named by a plain
``.pth`` path), which every checker reads. Offline, like tests/test_packaging.py:
this environment's pip, setuptools and wheel, ``--no-build-isolation --no-deps``.
"""

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from .checkout_builds import NOT_A_SOURCE_TREE, SOURCE_TREE, building_the_checkout

from tests.test_typing import unavailable

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not SOURCE_TREE, reason=NOT_A_SOURCE_TREE)

# Uses the package's types: a checker that did not resolve the import would see
# ``P`` as ``Any`` (or stop at the import) and report no argument error on line 6.
_USER_CODE = '''\
from dataclass_meta import DataClass


class P(DataClass, frozen=True):
    x: int
P("not an int")
'''
WRONG_ARGUMENT_LINE = 6


def _run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)


def _install(base, *options, editable=True):
    """(venv python, a directory outside the checkout holding ``use.py``)."""
    env_dir = base / 'venv'
    venv.create(env_dir, with_pip=False)
    python = env_dir / ('Scripts/python.exe' if os.name == 'nt' else 'bin/python')
    site = _run([str(python), '-c', 'import sysconfig; print(sysconfig.get_path("purelib"))'],
                cwd=base, check=True).stdout.strip()
    env = {**os.environ, 'PIP_NO_INDEX': '1'}
    env.pop('PYTHONPATH', None)
    if not editable:
        env['CC'] = 'false'  # the types are the same without the optional C core: skip its build
    # The README's command, less the extra's dependencies (offline) and the network.
    with building_the_checkout():  # pip writes into the checkout (build/, egg-info)
        result = _run([sys.executable, '-m', 'pip', 'install', '--no-build-isolation',
                       '--no-deps', '--no-cache-dir', '--disable-pip-version-check',
                       '--target', site, *options, *(['-e'] if editable else []), str(ROOT)],
                      cwd=base, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    elsewhere = base / 'elsewhere'
    elsewhere.mkdir()
    (elsewhere / 'use.py').write_text(_USER_CODE)
    return python, elsewhere


@pytest.fixture(scope='module')
def installed(tmp_path_factory):
    """The package installed as the README says, and a directory outside the checkout."""
    return _install(tmp_path_factory.mktemp('editable'))


@pytest.fixture(scope='module')
def wheel_installed(tmp_path_factory):
    """The package installed from a wheel (``pip install .``), likewise."""
    return _install(tmp_path_factory.mktemp('wheel'), editable=False)


def test_interpreter_imports_the_checkout(installed):
    """From outside the checkout, the venv's Python imports the package from the checkout."""
    python, elsewhere = installed
    out = _run([str(python), '-c', 'import dataclass_meta; print(dataclass_meta.__file__)'],
               cwd=elsewhere, env={k: v for k, v in os.environ.items() if k != 'PYTHONPATH'})
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).resolve() == ROOT / 'dataclass_meta' / '__init__.py'


def _command(checker, python):
    return {
        'mypy': [sys.executable, '-m', 'mypy', '--python-executable', str(python),
                 '--no-incremental', '--no-error-summary', 'use.py'],
        'pyright': [sys.executable, '-m', 'pyright', '--pythonpath', str(python), 'use.py'],
        'ty': [sys.executable, '-m', 'ty', 'check', '--python', str(python),
               '--output-format', 'concise', '--no-progress', '--color', 'never', 'use.py'],
        # The default preset checks call arguments (the unconfigured one does not).
        'pyrefly': [sys.executable, '-m', 'pyrefly', 'check', '--preset', 'default',
                    '--python-interpreter-path', str(python), '--output-format', 'min-text',
                    '--summary=none', 'use.py'],
    }[checker]


@pytest.mark.parametrize('kind', ['installed', 'wheel_installed'])
@pytest.mark.parametrize('checker', [
    pytest.param(checker, marks=pytest.mark.skipif(unavailable(checker) is not None,
                                                   reason=str(unavailable(checker))))
    for checker in ('mypy', 'pyright', 'ty', 'pyrefly')])
def test_checker_resolves_the_installed_package(request, kind, checker):
    """The checker, run outside the checkout on the venv, reads the package's types,
    installed editable as the README says or from a wheel."""
    python, elsewhere = request.getfixturevalue(kind)
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'MYPYPATH')}
    result = _run(_command(checker, python), cwd=elsewhere, env={**env, 'NO_COLOR': '1'})
    output = result.stdout + result.stderr
    error_lines = [line for line in output.splitlines() if 'error' in line.lower()
                   and 'use.py' in line]
    # Exactly one error, the wrong argument: the import resolved and P is known.
    assert len(error_lines) == 1, output
    assert f'use.py:{WRONG_ARGUMENT_LINE}:' in error_lines[0], output
    assert 'import' not in output.lower() and 'stub' not in output.lower(), output


@pytest.mark.skipif(unavailable('mypy') is not None, reason=str(unavailable('mypy')))
def test_import_hook_install_is_invisible_to_mypy(tmp_path):
    """Why setup.cfg names the mode: setuptools' default for this layout hides the package."""
    python, elsewhere = _install(tmp_path, '--config-settings', 'editable_mode=lenient')
    result = _run(_command('mypy', python), cwd=elsewhere,
                  env={k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'MYPYPATH')})
    assert 'Cannot find implementation or library stub' in result.stdout, result.stdout
