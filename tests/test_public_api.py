"""The public surface: exactly the stdlib's 13 names plus ours, shared objects,
and what importing the package imports."""

import ast
import dataclasses
import os
import subprocess
import sys

import dataclass_meta


def test_all_names_import():
    """Every name in ``__all__`` exists and nothing private is exported."""
    for name in dataclass_meta.__all__:
        assert hasattr(dataclass_meta, name), name
        assert not name.startswith('_')
    assert set(dataclass_meta.__all__) == {
        'DataClass', 'DataClassMeta', 'field', 'Field', 'fields', 'asdict',
        'astuple', 'replace', 'is_dataclass', 'make_dataclass', 'MISSING',
        'KW_ONLY', 'InitVar', 'FrozenInstanceError', 'BACKEND', 'describe_backend',
        'namespace_annotations', 'combined_metaclass'}


def test_backend_names_the_implementation():
    """``BACKEND`` says which generated methods are in use: 'compiled' or 'pure'."""
    assert dataclass_meta.BACKEND in ('compiled', 'pure')


def test_stdlib_objects_are_shared():
    """Sentinels and exceptions are the stdlib's own; Field is a subclass."""
    assert dataclass_meta.MISSING is dataclasses.MISSING
    assert dataclass_meta.KW_ONLY is dataclasses.KW_ONLY
    assert dataclass_meta.InitVar is dataclasses.InitVar
    assert dataclass_meta.FrozenInstanceError is dataclasses.FrozenInstanceError
    assert issubclass(dataclass_meta.Field, dataclasses.Field)


def test_stdlib_functions_accept_our_classes():
    """dataclasses.fields/asdict/astuple/replace/is_dataclass work on our classes."""
    class C(dataclass_meta.DataClass):
        x: int
        y: list = dataclasses.field(default_factory=list)

    c = C(1)
    assert dataclasses.is_dataclass(C) and dataclasses.is_dataclass(c)
    assert [f.name for f in dataclasses.fields(C)] == ['x', 'y']
    assert dataclasses.asdict(c) == {'x': 1, 'y': []}
    assert dataclasses.astuple(c) == (1, [])
    assert dataclasses.replace(c, x=2) == C(2)


def test_base_class_is_not_a_data_class():
    """``DataClass`` itself has no fields; its subclasses are data classes."""
    assert not dataclass_meta.is_dataclass(dataclass_meta.DataClass)
    assert dataclass_meta.DataClass.__slots__ == ()


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
