"""The active backend, and why the pure one is active, shown where a user looks.

``pip install`` hides the warning of a failed C build unless ``-v``; the tour,
pytest's header and ``python -m dataclass_meta`` say which backend runs. A
package without its compiled core is made here by copying the sources without
the extension, and a broken core by putting a file that is no extension in its place.
"""

import importlib.machinery
import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import dataclass_meta
from dataclass_meta import describe_backend

ROOT = Path(__file__).resolve().parent.parent
NOT_BUILT = 'pure (compiled core not built: pip builds it where a C compiler'


def _clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith('DATACLASS_META_') and k != 'PYTHONPATH'}
    return {**env, **extra}


# What makes a subprocess choose this process's backend (the suite also runs with
# DATACLASS_META_PURE=1): for the checks that compare with describe_backend().
_SAME_BACKEND = {k: os.environ[k] for k in ('DATACLASS_META_PURE',) if k in os.environ}


def _run(args, cwd, **env):
    result = subprocess.run(args, cwd=cwd, env=_clean_env(**env), capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def _copy_without_core(destination):
    """The package's Python sources in ``destination``, no compiled extension."""
    package = Path(dataclass_meta.__file__).parent  # the checkout's, or an installed one
    shutil.copytree(package, destination / 'dataclass_meta',
                    ignore=shutil.ignore_patterns('*.so', '*.pyd', '__pycache__'))
    return destination


def _installed():
    try:
        importlib.metadata.distribution('dataclass_meta')
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def test_describe_backend_matches_backend():
    """``describe_backend()`` starts with ``BACKEND``; only the pure one gives a reason."""
    text, _, gil = describe_backend().partition('; ')
    if dataclass_meta.BACKEND == 'compiled':
        assert text == 'compiled'
    else:
        assert text.startswith('pure (') and text.endswith(')')
    free_threaded = sysconfig.get_config_var('Py_GIL_DISABLED')
    assert gil == (f'free-threaded, GIL {"enabled" if sys._is_gil_enabled() else "disabled"}'
                   if free_threaded else '')


def test_main_prints_version_and_backend(tmp_path):
    """``python -m dataclass_meta``: the version, then the backend, then the interpreter."""
    out = _run([sys.executable, '-m', 'dataclass_meta'], ROOT, **_SAME_BACKEND).splitlines()
    assert out[0] == f'dataclass_meta {dataclass_meta.__version__}'
    assert out[1] == f'backend: {describe_backend()}'
    if sysconfig.get_config_var('Py_GIL_DISABLED'):
        gil = f'{"enabled" if sys._is_gil_enabled() else "disabled"} (free-threaded build)'
    else:
        gil = 'enabled'
    assert out[-2] == f'GIL: {gil}'
    assert out[-1].startswith(f'python: {sys.version.split()[0]} ')


def test_forced_pure_names_the_variable():
    """With the core built, ``DATACLASS_META_PURE=1`` is named as the reason."""
    if importlib.util.find_spec('dataclass_meta._speedups') is None:
        pytest.skip('the compiled core is not built here')
    out = _run([sys.executable, '-m', 'dataclass_meta'], ROOT, DATACLASS_META_PURE='1')
    assert out.splitlines()[1].partition(';')[0] == 'backend: pure (DATACLASS_META_PURE=1)'


def test_missing_core_is_reported(tmp_path):
    """Without the extension, ``python -m dataclass_meta`` says it was not built."""
    source = _copy_without_core(tmp_path)
    out = _run([sys.executable, '-m', 'dataclass_meta'], tmp_path, PYTHONPATH=str(source))
    assert out.splitlines()[1].startswith('backend: ' + NOT_BUILT), out


def test_broken_core_is_reported(tmp_path):
    """A core that exists but cannot load is reported with the loader's error."""
    source = _copy_without_core(tmp_path)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (source / 'dataclass_meta' / f'_speedups{suffix}').write_bytes(b'not a shared object')
    out = _run([sys.executable, '-m', 'dataclass_meta'], tmp_path, PYTHONPATH=str(source))
    assert out.splitlines()[1].startswith('backend: pure (compiled core did not load: '), out


# Loads the package with its compiled core warning while it loads (as a
# free-threaded Python warns of a core that needs the GIL), under -W error.
_WARNING_CORE = """
import importlib.machinery, sys, warnings

class Warns(importlib.machinery.PathFinder):
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != 'dataclass_meta._speedups':
            return None
        spec = super().find_spec(name, path, target)
        create = spec.loader.create_module
        def create_module(spec):
            warnings.warn('the core warns', RuntimeWarning)
            return create(spec)
        spec.loader.create_module = create_module
        return spec

sys.meta_path.insert(0, Warns)
import dataclass_meta
print(dataclass_meta.BACKEND)
print(dataclass_meta.describe_backend())
"""


def test_core_warning_while_loading_falls_back_to_pure():
    """A warning raised while the compiled core loads neither fails the import
    (under -W error) nor escapes: the pure backend serves, and says why."""
    if importlib.util.find_spec('dataclass_meta._speedups') is None:
        pytest.skip('the compiled core is not built here')
    out = _run([sys.executable, '-W', 'error', '-c', _WARNING_CORE], ROOT).splitlines()
    assert out[0] == 'pure'
    assert out[1].startswith('pure (compiled core did not load: RuntimeWarning while loading: '
                             'the core warns)')


def test_tour_names_the_backend_first():
    """The tour's first line is the active backend."""
    out = _run([sys.executable, str(ROOT / 'examples' / 'tour.py')], ROOT, **_SAME_BACKEND)
    assert out.splitlines()[0].split() == ['backend:', *describe_backend().split()]


# A test that uses the package, and one that checks that nothing loaded it.
USES_PACKAGE = 'def test_uses():\n    import dataclass_meta\n'
UNUSED = ('import sys\n\n\ndef test_nothing():\n'
          '    assert not [m for m in sys.modules if m.split(".")[0] == "dataclass_meta"]\n')


def _pytest(tmp_path, test, **env):
    """pytest's output for the one test file ``test``, plugin loaded."""
    (tmp_path / 'test_one.py').write_text(test)
    # An installed package's entry point loads the plugin (a second -p would be
    # an error); sources only on a path need -p.
    load = [] if _installed() else ['-p', 'dataclass_meta_pytest']
    args = [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', *load,
            str(tmp_path / 'test_one.py')]
    return _run(args, tmp_path, **env)


@pytest.mark.parametrize('core', ['as built', 'missing'])
def test_pytest_names_the_backend_of_a_session_using_it(tmp_path, core):
    """A session that imports the package gets one line with its version and
    backend (in the summary: the header came before the import)."""
    env = dict(_SAME_BACKEND)
    if core == 'missing':
        env = {'PYTHONPATH': str(_copy_without_core(tmp_path / 'copy'))}
    out = _pytest(tmp_path, USES_PACKAGE, **env)
    expected = describe_backend() if core == 'as built' else NOT_BUILT
    line = [line for line in out.splitlines() if line.startswith('dataclass_meta ')]
    assert len(line) == 1, out
    assert line[0].startswith(f'dataclass_meta {dataclass_meta.__version__}, backend: '
                              + expected), out


def test_pytest_session_without_the_package_does_not_load_it(tmp_path):
    """The plugin imports nothing of the package for a session that does not use
    it: no compiled core loaded (it could change a free-threaded interpreter),
    and no line about it."""
    out = _pytest(tmp_path, UNUSED, **_SAME_BACKEND)
    assert '1 passed' in out
    assert 'dataclass_meta 0' not in out and 'backend:' not in out, out
