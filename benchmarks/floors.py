"""The public C API's floors (``floors.c``), built on first use for this Python.

A floor is the least work any C implementation of an operation must do here
(allocate and store; read and compare, hash or format), called the way the
operation calls it. ``load()`` returns the module, or None where it cannot be
built (PyPy, no compiler, no setuptools): the benchmark then shows no floors.
"""

import importlib.util
import os
import sys
import sysconfig
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, 'floors.c')
NAME = '_floors'


def _built_path():
    """Where this interpreter's build lives (one per ABI, beside the source)."""
    suffix = sysconfig.get_config_var('EXT_SUFFIX') or '.so'
    return os.path.join(HERE, '.build', NAME + suffix)


def _build(target):
    from setuptools import Distribution, Extension
    with tempfile.TemporaryDirectory() as temp:
        dist = Distribution({'name': NAME, 'ext_modules': [Extension(NAME, [SOURCE])]})
        command = dist.get_command_obj('build_ext')
        command.build_lib, command.build_temp = temp, os.path.join(temp, 'tmp')
        command.ensure_finalized()
        command.run()
        os.makedirs(os.path.dirname(target), exist_ok=True)
        os.replace(command.get_ext_fullpath(NAME), target)


def load():
    """The compiled floors, built if missing or older than ``floors.c``; or None."""
    if sys.implementation.name != 'cpython':
        return None
    target = _built_path()
    try:
        if not os.path.exists(target) or os.path.getmtime(target) < os.path.getmtime(SOURCE):
            _build(target)
        spec = importlib.util.spec_from_file_location(NAME, target)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 -- any build failure: no floors, say why
        print(f'  (no C API floors: {type(exc).__name__}: {exc})', file=sys.stderr)
        return None
    return module
