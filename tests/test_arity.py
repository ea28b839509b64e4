"""``_arity.py`` is generated: it must be what ``_gen_arity`` writes now.

A text comparison, as CPython checks its generated files: the generator only
builds a string here, nothing is compiled or executed.
"""

import ast
import difflib
import os
import subprocess
import sys
from pathlib import Path

from dataclass_meta import _arity, _gen_arity


def test_arity_module_is_current():
    """``python -m dataclass_meta._gen_arity`` would not change ``_arity.py``."""
    on_disk = Path(_arity.__file__).read_text(encoding='utf-8')
    fresh = _gen_arity.source()
    diff = ''.join(difflib.unified_diff(
        on_disk.splitlines(True), fresh.splitlines(True), '_arity.py', 'generated'))
    assert not diff, ('_arity.py differs from what _gen_arity writes; run '
                      '`python -m dataclass_meta._gen_arity`:\n' + diff)


def test_one_template_per_arity():
    """``TEMPLATES`` and ``EQ_TEMPLATES`` hold arities 0 to ``LARGEST`` in order."""
    assert [f.__name__ for f in _arity.TEMPLATES] == [
        f'_init{n}' for n in range(_gen_arity.LARGEST + 1)]
    assert [f.__name__ for f in _arity.EQ_TEMPLATES] == [
        f'_eq{n}' for n in range(_gen_arity.LARGEST + 1)]


def test_package_never_imports_the_generator():
    """The generator is a tool: using the package does not import it."""
    code = ('import sys, dataclass_meta\n'
            'class C(dataclass_meta.DataClass, order=True):\n'
            '    x: int = 0\n'
            'C(1) == C(); C(x=1) < C()\n'
            "print('dataclass_meta._gen_arity' in sys.modules)")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == 'False'


def test_import_leaves_out_what_only_the_pure_closures_or_errors_need():
    """``import dataclass_meta`` after ``dataclasses``, then making and using a
    class, imports neither contextlib nor threading, nor the modules it needs
    only on error paths (the "Did you mean" helper, the call-error rules); with
    the compiled core, not the pure closures' templates (``_arity``), and none
    of what 3.15's ``dataclasses`` imports lazily (``inspect``, ``re``, ``copy``;
    earlier versions import them with ``dataclasses``, before the probe)."""
    code = ('import sys, dataclasses\n'
            'before = set(sys.modules)\n'
            'import dataclass_meta\n'
            'class C(dataclass_meta.DataClass, frozen=True, order=True):\n'
            '    x: int\n'
            '    y: list = dataclass_meta.field(default_factory=list)\n'
            'c = C(1)\n'
            'c == C(1, []), c < C(2), repr(c), dataclass_meta.replace(c, x=3)\n'
            'dataclass_meta.asdict(c), dataclass_meta.fields(c)\n'
            'print(repr([dataclass_meta.BACKEND, sorted(set(sys.modules) - before)]))')
    env = {k: v for k, v in os.environ.items() if k != 'DATACLASS_META_PURE'}
    backend, added = ast.literal_eval(subprocess.run(
        [sys.executable, '-c', code], capture_output=True, text=True, check=True,
        env=env).stdout)
    assert 'dataclass_meta._backend' in added  # the probe sees the package's modules
    left_out = {'contextlib', 'threading', 'dataclass_meta._suggest', 'dataclass_meta._callrules'}
    if backend == 'compiled':
        left_out |= {'dataclass_meta._arity', 'inspect', 're', 'copy', 'weakref', 'functools',
                     'operator'}
    assert left_out.isdisjoint(added), sorted(left_out & set(added))
