"""Builds the optional compiled core; without a compiler the pure package installs."""

import glob
import platform
import re
import warnings

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The compiled core's C sources, one concern a file (see src/speedups/speedups.h).
# They live outside the package: the sdist carries them, the wheel does not.
SOURCES = sorted(glob.glob('src/speedups/*.c'))


class optional_build_ext(build_ext):
    """``build_ext`` that warns instead of failing: ``_speedups`` is optional."""

    def run(self):
        try:
            super().run()
        except Exception as exc:  # no compiler at all (DistutilsPlatformError, ...)
            self._skip(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # CCompilerError, CompileError, LinkError, ...
            self._skip(exc)

    def _skip(self, exc):
        warnings.warn(f'dataclass_meta: the compiled core was not built ({exc}); '
                      f'the pure-Python backend will be used', stacklevel=1)


# The README as an index shows it: there the repository's files are not beside
# it, so its relative links and its image point to the repository instead.
REPOSITORY = 'https://github.com/dataclass-meta/dataclass_meta/'


def long_description():
    """README.md with each relative link made absolute: ``docs/guide.md`` becomes
    ``.../blob/main/docs/guide.md``, and an image's path ``.../raw/main/...``."""
    with open('README.md', encoding='utf-8') as f:
        text = f.read()

    def absolute(match):
        image, target = match.group(1), match.group(2)
        return f'{image}]({REPOSITORY}{"raw" if image.startswith("!") else "blob"}/main/{target})'
    # [text](path) and ![alt](path), where path is neither a URL nor an anchor
    return re.sub(r'(!?\[[^\]\n]*)\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)', absolute, text)


# The compiled core is CPython's: PyPy's C-API emulation builds it but cannot
# load it (it lacks symbols such as PySuper_Type), and PyPy's JIT runs the pure
# closures at the stdlib's speed. So PyPy installs the pure package only.
CPYTHON = platform.python_implementation() == 'CPython'

setup(
    long_description=long_description(),
    ext_modules=[Extension('dataclass_meta._speedups', SOURCES,
                           depends=['src/speedups/speedups.h'],
                           include_dirs=['src/speedups'], optional=True)] if CPYTHON else [],
    cmdclass={'build_ext': optional_build_ext},
)
