"""Compiles the C core with warnings as errors: gcc and clang, every CPython given,
with and without the GIL, and cross-compiled for other platforms with zig.

    python tools/check_c.py [PYTHON ...]
    python tools/check_c.py --cross aarch64-macos=DIR --cross x86_64-windows-gnu=DIR PYTHON

Each source of ``src/speedups`` is compiled alone, ``-std=c11 -Wall -Wextra
-Werror -O2``, against the headers of each interpreter given (default: this
one). clang is ``clang`` on ``PATH``, else zig's (``pip install ziglang``: its
``python -m ziglang cc`` is clang); a compiler that is missing is named and
skipped. For CPython 3.13+ each compiler runs again as on a free-threaded
build (``Py_GIL_DISABLED`` defined over the interpreter's ``pyconfig.h``: the
free-threaded build's headers differ in that file only).

``--cross TARGET=DIR`` compiles with zig for ``TARGET`` against the
interpreter's headers with ``DIR/pyconfig.h`` in place of its own: that file
must be the target's (for Windows, CPython's ``PC/pyconfig.h``, or
``PC/pyconfig.h.in`` from 3.13, of the same release; for macOS, the
``include/python3.X/pyconfig.h`` of a macOS build). Compiling is all it checks:
nothing is linked or run.

Prints one line per configuration and exits non-zero if any file failed.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted((ROOT / 'src' / 'speedups').glob('*.c'))
FLAGS = ['-std=c11', '-Wall', '-Wextra', '-Werror', '-O2']

_HEADERS = ('import sys, sysconfig; '
            'print(sysconfig.get_paths()["include"]); '
            'print(sysconfig.get_config_h_filename()); '
            'print("%d.%d" % sys.version_info[:2]); '
            'print(int(bool(sysconfig.get_config_var("Py_GIL_DISABLED"))))')


def interpreter(python):
    """The include directory, ``pyconfig.h``, version and free-threadedness of ``python``."""
    out = subprocess.run([python, '-c', _HEADERS], check=True, capture_output=True,
                         text=True).stdout.split('\n')
    return Path(out[0]), Path(out[1]), out[2], out[3] == '1'


def compilers():
    """``(name, argv)`` of gcc and clang, where each can be had."""
    found = []
    if shutil.which('gcc'):
        found.append(('gcc', ['gcc']))
    if shutil.which('clang'):
        found.append(('clang', ['clang']))
    elif zig() is not None:
        found.append(('clang (zig)', zig()))
    return found


def zig():
    try:
        import ziglang  # noqa: F401  (the package ships the binary)
    except ImportError:
        return None
    return [sys.executable, '-m', 'ziglang', 'cc']


def version(argv):
    out = subprocess.run(argv + ['--version'], capture_output=True, text=True).stdout
    return out.splitlines()[0] if out else '?'


def headers_with(include, pyconfig_text, scratch):
    """A copy of ``include`` whose ``pyconfig.h`` is ``pyconfig_text``: Python.h
    includes ``"pyconfig.h"`` from its own directory before any ``-I``."""
    copy = Path(scratch) / 'include'
    shutil.copytree(include, copy)
    (copy / 'pyconfig.h').write_text(pyconfig_text)
    return copy


def compile_all(argv, include, extra=()):
    """Every source compiled alone; the failures' output."""
    # Objects go to a scratch directory, the compilers' working directory too:
    # zig's cc writes beside its working directory whatever -o says.
    with tempfile.TemporaryDirectory() as out:
        def one(source):
            result = subprocess.run(
                argv + FLAGS + list(extra) + ['-I', str(include), '-I', str(source.parent),
                                              '-c', str(source),
                                              '-o', str(Path(out) / (source.stem + '.o'))],
                capture_output=True, text=True, cwd=out)
            return None if result.returncode == 0 and not result.stderr.strip() else \
                f'{source.name}:\n{result.stderr}'
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            return [failure for failure in pool.map(one, SOURCES) if failure]


def report(label, failures):
    print(f'{label}: {len(SOURCES)} files, '
          + ('no warning' if not failures else f'{len(failures)} failed'), flush=True)
    for failure in failures:
        print('    ' + failure.replace('\n', '\n    '), flush=True)
    return not failures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('pythons', nargs='*', default=[sys.executable])
    parser.add_argument('--cross', action='append', default=[], metavar='TARGET=DIR',
                        help="zig's target and a directory holding its pyconfig.h")
    args = parser.parse_args(argv)
    ok = True
    found = compilers()
    for name, cc in found:
        print(f'{name}: {version(cc)}')
    missing = {'gcc', 'clang'} - {name.split()[0] for name, _ in found}
    for name in sorted(missing):
        print(f'{name}: not found (clang: install it, or pip install ziglang)')
    for python in args.pythons:
        include, pyconfig, ver, free_threaded = interpreter(python)
        with tempfile.TemporaryDirectory() as scratch:
            ft_include = None
            if not free_threaded and tuple(map(int, ver.split('.'))) >= (3, 13):
                ft_include = headers_with(
                    include, f'#define Py_GIL_DISABLED 1\n#include "{pyconfig}"\n', scratch)
            for name, cc in found:
                build = 'free-threaded' if free_threaded else 'GIL'
                ok &= report(f'{name}, CPython {ver} ({build})', compile_all(cc, include))
                if ft_include is not None:
                    ok &= report(f'{name}, CPython {ver} (Py_GIL_DISABLED)',
                                 compile_all(cc, ft_include))
            for spec in args.cross:
                target, _, directory = spec.partition('=')
                if zig() is None:
                    print(f'{target}: zig not found (pip install ziglang)')
                    ok = False
                    continue
                text = (Path(directory) / 'pyconfig.h').read_text()
                cross = headers_with(include, text, Path(scratch) / target)
                ok &= report(f'zig cc -target {target}, CPython {ver} headers, '
                             f'{Path(directory) / "pyconfig.h"}',
                             compile_all(zig(), cross, ['-target', target]))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
