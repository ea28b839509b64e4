"""``_templates.py`` is generated: it must be what ``tools/gen_templates.py``
writes now.

A text comparison, as CPython checks its generated files: the generator only
builds a string here, nothing is compiled or executed.
"""

import ast
import difflib
import os
import subprocess
import sys
from pathlib import Path

from dataclass_meta import _templates

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    """``tools/gen_templates.py`` as a module (it is not part of the package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location('gen_templates',
                                                  ROOT / 'tools' / 'gen_templates.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_templates_module_is_current():
    """``python tools/gen_templates.py`` would not change ``_templates.py``."""
    on_disk = Path(_templates.__file__).read_text(encoding='utf-8')
    fresh = _generator().source()
    diff = ''.join(difflib.unified_diff(
        on_disk.splitlines(True), fresh.splitlines(True), '_templates.py', 'generated'))
    assert not diff, ('_templates.py differs from what tools/gen_templates.py writes; '
                      'run `python tools/gen_templates.py`:\n' + diff)


def test_one_template_per_field_count():
    """Every table holds the templates for 0 to ``LARGEST`` fields, in order."""
    largest = _generator().LARGEST
    tables = {'EQ': _templates.EQ, 'HASH': _templates.HASH, 'REPR': _templates.REPR,
              **{name.strip('_').upper(): t for name, t in _templates.ORDER.items()}}
    for (frozen, factory, post), table in _templates.INITS.items():
        kind = 'init' + '_frozen' * frozen + '_factory' * factory + '_post' * post
        tables[kind.upper()] = table
    assert len(tables) == 15
    for name, table in tables.items():
        assert [f.__name__ for f in table] == [
            f'{name.lower()}_{n}' for n in range(largest + 1)], name


def test_import_leaves_out_what_only_the_pure_closures_or_errors_need():
    """``import dataclass_meta`` after ``dataclasses``, then making and using a
    class, imports neither contextlib nor threading, nor the modules it needs
    only on error paths (the "Did you mean" helper, the call-error rules); with
    the compiled core, none
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
        left_out |= {'inspect', 're', 'copy', 'weakref', 'functools', 'operator'}
    assert left_out.isdisjoint(added), sorted(left_out & set(added))
