"""The docs hold: every example runs and shows what it prints, every link and
path they name exists, and nothing cites a file the project does not contain."""

import json
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / 'README.md', *(ROOT / 'docs').glob('*.md')])
RUNNER = ROOT / 'tests' / 'doc_examples.py'


def _ids(paths):
    return [str(p.relative_to(ROOT)) for p in paths]


@pytest.fixture(scope='module')
def results():
    """Each doc file's examples, run in a fresh interpreter of this Python."""
    return {}


def _run(path, cache):
    if path not in cache:
        out = subprocess.run([sys.executable, str(RUNNER), str(path.relative_to(ROOT))],
                             cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        cache[path] = json.loads(out.stdout)
    return cache[path]


# Pages whose blocks are still excerpts of larger files (tools.md quotes
# tests/typing/ and tests/interop/ and shows type checkers' errors) rather than
# self-contained runs. Strict: once a page's blocks all run, its xfail fails,
# and it comes off this list.
_EXCERPTS = {'docs/tools.md'}
_PAGES = [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason='excerpts, not runs'))
          if str(p.relative_to(ROOT)) in _EXCERPTS else p for p in DOCS]


@pytest.mark.parametrize('path', _PAGES, ids=_ids(DOCS))
def test_examples_run_and_show_their_output(path, results):
    """Every ``python`` block of the file runs; shown output and ``# ->`` values match."""
    failed = [f'{file}:{line}\n{detail}' for file, line, status, detail in _run(path, results)
              if status == 'failed']
    assert not failed, '\n\n'.join(failed)


def test_skipped_examples_are_rare(results):
    """``<!-- not run: reason -->`` stays the exception: under 10% of the blocks."""
    every = [r for path in DOCS if str(path.relative_to(ROOT)) not in _EXCERPTS
             for r in _run(path, results)]
    skipped = [r for r in every if r[2] == 'skipped' and r[3].startswith('not run')]
    assert len(every) > 10
    assert len(skipped) * 10 < len(every), skipped


def test_runner_checks_shown_values(tmp_path):
    """The runner fails a block whose ``# ->`` value or doctest output is wrong."""
    page = tmp_path / 'page.md'
    page.write_text('```python\nx = 1 + 1\nx  # -> 3\n```\n\n'
                    '```python\n>>> x\n2\n```\n\n'
                    '```python\n>>> x + 1\n4\n```\n\n'
                    '<!-- not run: shows a mistake -->\n```python\n1 / 0\n```\n'
                    '```sh\nexit 1\n```\n')
    out = subprocess.run([sys.executable, str(RUNNER), str(page)], capture_output=True,
                         text=True, timeout=60)
    statuses = [(line, status) for _, line, status, _ in json.loads(out.stdout)]
    assert statuses == [(2, 'failed'), (7, 'ok'), (12, 'failed'), (18, 'skipped')]


# Files of the authors' workspace, not of this project.
_FOREIGN = re.compile(r'DESIGN\.md|STYLE\.md|PERF-NOTES|DESIGN §|/work/shared|\.\./shared/')
_TEXT = sorted({*DOCS, ROOT / 'CHANGELOG.rst', ROOT / 'pyproject.toml', ROOT / 'setup.cfg',
                ROOT / 'setup.py', ROOT / 'tox.ini', ROOT / 'MANIFEST.in',
                *(ROOT / 'tests').rglob('*.py'), *(ROOT / 'dataclass_meta').glob('*.py'),
                *(ROOT / 'examples').rglob('*.py'), *(ROOT / 'benchmarks').glob('*.py'),
                *(ROOT / 'src').rglob('*.[ch]'), ROOT / 'dataclass_meta_pytest.py'}
               - {pathlib.Path(__file__).resolve()})
_TEXT = [path for path in _TEXT if path.is_file()]  # beside an installed package: fewer


@pytest.mark.parametrize('path', _TEXT, ids=_ids(_TEXT))
def test_no_reference_to_files_outside_the_project(path):
    """Nothing cites a design note or workspace path the project does not ship."""
    found = _FOREIGN.findall(path.read_text(encoding='utf-8'))
    assert not found, found


_LINK = re.compile(r'\]\(([^)#\s]+)(?:#[^)]*)?\)')


@pytest.mark.parametrize('path', DOCS, ids=_ids(DOCS))
def test_links_point_to_existing_files(path):
    """Every relative Markdown link names a file or directory that exists."""
    prose = re.sub(r'^```.*?^```|`[^`\n]*`', '', path.read_text(encoding='utf-8'),
                   flags=re.S | re.M)  # links are not in code
    targets = [t for t in _LINK.findall(prose) if not re.match(r'[a-z]+:', t)]
    missing = [t for t in targets if not (path.parent / t).exists()]
    assert not missing, missing


def test_api_reference_lists_every_public_name():
    """docs/api.md documents each name of ``__all__`` (Sphinx renders it, tox -e docs)."""
    import dataclass_meta
    text = (ROOT / 'docs' / 'api.md').read_text(encoding='utf-8')
    missing = [name for name in dataclass_meta.__all__
               if f'dataclass_meta.{name}\n' not in text]
    assert not missing, missing


def test_every_page_is_in_the_sphinx_toctree():
    """A page left out of docs/index.md would be built with a warning, or not at all."""
    index = (ROOT / 'docs' / 'index.md').read_text(encoding='utf-8')
    listed = set(re.findall(r'^(\w+)$', index, flags=re.M))
    pages = {p.stem for p in (ROOT / 'docs').glob('*.md')} - {'index'}
    assert pages <= listed, pages - listed
