"""The sdist carries everything needed to test the project, and installs without a compiler.

One sdist is built per module (``python -m build --sdist --no-isolation``: offline,
with the setuptools and wheel of the ``test`` extra) from the tree these tests run
in, a git checkout or an unpacked sdist alike.
"""

import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from .checkout_builds import NOT_A_SOURCE_TREE, SOURCE_TREE, building_the_checkout

pytestmark = pytest.mark.skipif(not SOURCE_TREE, reason=NOT_A_SOURCE_TREE)

ROOT = Path(__file__).resolve().parent.parent

# Files that no pattern in MANIFEST.in may lose: the build inputs, the legal and
# user-facing texts, the typing markers and the helpers tests import.
REQUIRED = (
    'LICENSE', 'README.md', 'CHANGELOG.rst', 'tox.ini', 'MANIFEST.in',
    'pyproject.toml', 'setup.cfg', 'setup.py',
    'src/speedups/speedups.h', 'src/speedups/module.c',
    'dataclass_meta/__init__.py', 'dataclass_meta/__init__.pyi', 'dataclass_meta/py.typed',
    'dataclass_meta_pytest.py', 'tests/__init__.py', 'tests/conftest.py', 'tests/strategies.py',
    'tests/reliability_helpers.py', 'tests/future_annotations_module.py',
    'tests/typing/README.md', 'tests/interop/conftest.py', 'tests/interop/interop_models.py',
    'tests/conformance/runner.py', 'tests/conformance/expected_failures.txt',
    'docs/guide.md', 'examples/tour.py', 'benchmarks/run.py',
)
# Folders whose every file belongs in the sdist, less what building or running
# the project leaves behind.
SHIPPED_DIRS = ('dataclass_meta', 'src', 'tests', 'docs', 'examples', 'benchmarks')
BUILD_OUTPUT = {'.pyc', '.pyo', '.so', '.pyd', '.o', '.obj'}


def _run(args, **kwargs):
    result = subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)
    assert result.returncode == 0, f'{args} failed:\n{result.stdout}\n{result.stderr}'
    return result


def _build_sdist(source, outdir):
    """The sdist built from ``source`` into ``outdir``, as ``python -m build`` makes it."""
    with building_the_checkout():  # it writes into the source tree
        _run([sys.executable, '-m', 'build', '--sdist', '--no-isolation',
              '--outdir', str(outdir), str(source)])
    (path,) = Path(outdir).glob('dataclass_meta-*.tar.gz')
    return path


def _members(sdist):
    """The sdist's file names, relative to its top folder."""
    with tarfile.open(sdist) as tar:
        return {name.partition('/')[2] for name in tar.getnames()} - {''}


def _tree_files():
    """Files under ``SHIPPED_DIRS`` on disk, relative to the root, build output left out."""
    found = set()
    for top in SHIPPED_DIRS:
        for dirpath, dirnames, filenames in os.walk(ROOT / top):
            dirnames[:] = [d for d in dirnames
                           if not d.startswith('.') and d != '__pycache__'
                           and not d.endswith('.egg-info')]
            for name in filenames:
                path = Path(dirpath, name)
                if not name.startswith('.') and path.suffix not in BUILD_OUTPUT:
                    found.add(path.relative_to(ROOT).as_posix())
    return found


@pytest.fixture(scope='module')
def sdist(tmp_path_factory):
    """An sdist of this tree."""
    return _build_sdist(ROOT, tmp_path_factory.mktemp('sdist'))


def test_sdist_carries_the_required_files(sdist):
    """The build inputs, LICENSE, docs, typing markers and test helpers are in the sdist."""
    missing = sorted(set(REQUIRED) - _members(sdist))
    assert not missing, f'MANIFEST.in leaves out {missing}'


def test_sdist_carries_every_shipped_file(sdist):
    """Each file of the package, tests, docs, examples and benchmarks is in the sdist."""
    missing = sorted(_tree_files() - _members(sdist))
    assert not missing, f'MANIFEST.in leaves out {missing}'


def _unpack(sdist, into):
    """The sdist unpacked under ``into``: its top folder."""
    with tarfile.open(sdist) as tar:
        # 3.12+ warns unless a filter is named (3.10.12+ and 3.11.4+ have them too).
        kwargs = {'filter': 'data'} if hasattr(tarfile, 'data_filter') else {}
        tar.extractall(into, **kwargs)
    (source,) = Path(into).iterdir()
    return source


def test_sdist_carries_c_sources(sdist, tmp_path):
    """A ``src/speedups/*.c`` or ``*.h`` file reaches the sdist, and an sdist rebuilds itself."""
    source = _unpack(sdist, tmp_path / 'unpacked')
    (source / 'src' / 'speedups' / '_probe.c').write_text('/* not compiled */\n')
    (source / 'src' / 'speedups' / '_probe.h').write_text('/* not included */\n')
    rebuilt = _build_sdist(source, tmp_path / 'rebuilt')
    assert {'src/speedups/_probe.c', 'src/speedups/_probe.h'} <= _members(rebuilt)
    assert _members(sdist) <= _members(rebuilt)


def test_wheel_ships_no_c_sources(sdist, tmp_path):
    """The wheel built from the sdist has the package's modules and, where it was
    compiled, the extension: no C source or header."""
    source = _unpack(sdist, tmp_path / 'unpacked')
    _run([sys.executable, '-m', 'build', '--wheel', '--no-isolation',
          '--outdir', str(tmp_path / 'wheel'), str(source)])
    (wheel,) = (tmp_path / 'wheel').glob('dataclass_meta-*.whl')
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert not [n for n in names if n.endswith(('.c', '.h'))], names
    package = {n for n in names if n.startswith('dataclass_meta/')}
    modules = {f'dataclass_meta/{p.name}' for p in (ROOT / 'dataclass_meta').iterdir()
               if p.suffix in ('.py', '.pyi') or p.name == 'py.typed'}
    extensions = package - modules
    assert modules <= package
    assert all(n.startswith('dataclass_meta/_speedups.') and n.endswith(('.so', '.pyd'))
               for n in extensions), extensions
    assert len(extensions) <= 1


_IMPORT_CHECK = '''
import importlib.util, sys
import dataclass_meta
from dataclass_meta import DataClass

class P(DataClass, frozen=True):
    x: int
    y: int = 0

assert P(1) == P(1, 0) and repr(P(1)) == 'P(x=1, y=0)'
print(dataclass_meta.__file__)
print(importlib.util.find_spec('dataclass_meta._speedups') is not None)
'''


def test_install_without_a_compiler(sdist, tmp_path):
    """With no C compiler (``CC=false``) the sdist installs the pure package, which works."""
    env_dir = tmp_path / 'venv'
    venv.create(env_dir, with_pip=False)
    python = env_dir / ('Scripts/python.exe' if os.name == 'nt' else 'bin/python')
    site = _run([str(python), '-c', 'import sysconfig; print(sysconfig.get_path("purelib"))'],
                cwd=tmp_path).stdout.strip()
    # This environment's pip builds (with the test extra's setuptools and wheel) and
    # installs into the new venv's site-packages; the venv sees nothing else.
    env = {**os.environ, 'CC': 'false', 'CXX': 'false', 'PIP_NO_INDEX': '1'}
    env.pop('PYTHONPATH', None)
    _run([sys.executable, '-m', 'pip', 'install', '--no-build-isolation', '--no-deps',
          '--no-cache-dir', '--disable-pip-version-check', '--target', site, str(sdist)],
         cwd=tmp_path, env=env)

    env.pop('CC'), env.pop('CXX')
    out = _run([str(python), '-c', _IMPORT_CHECK], cwd=tmp_path, env=env).stdout.split()
    package_file, has_speedups = Path(out[0]), out[1] == 'True'
    assert package_file.is_relative_to(Path(site)), package_file
    installed = package_file.parent
    assert (installed / 'py.typed').is_file() and (installed / '__init__.pyi').is_file()
    if 'src/speedups/module.c' in _members(sdist):
        assert not has_speedups, 'the C extension was built with CC=false'
        # pip hid the build warning; the package itself says what happened.
        report = _run([str(python), '-m', 'dataclass_meta'], cwd=tmp_path, env=env).stdout
        assert 'backend: pure (compiled core not built: ' in report, report
    (dist_info,) = Path(site).glob('dataclass_meta-*.dist-info')
    assert 'dataclass_meta_pytest' in (dist_info / 'entry_points.txt').read_text()
    licence = [p for p in dist_info.rglob('LICENSE*') if p.is_file()]
    assert licence and 'MIT License' in licence[0].read_text()


def test_long_description_reads_on_an_index(sdist):
    """The README in the metadata is Markdown whose relative links point to the
    repository: an index shows it without the repository's files beside it."""
    with tarfile.open(sdist) as tar:
        (member,) = [m for m in tar.getmembers() if m.name.count('/') == 1
                     and m.name.endswith('/PKG-INFO')]
        metadata = tar.extractfile(member).read().decode('utf-8')
    assert 'Description-Content-Type: text/markdown' in metadata
    description = metadata.partition('\n\n')[2]
    assert '# dataclass_meta' in description and '](docs/guide.md' not in description
    assert '](https://github.com/dataclass-meta/dataclass_meta/blob/main/docs/guide.md' \
        in description
    assert ('](https://github.com/dataclass-meta/dataclass_meta/raw/main/benchmarks/'
            'results/summary.svg)') in description
