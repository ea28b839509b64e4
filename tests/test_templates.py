"""``_templates.py`` is generated: it must be what ``tools/gen_templates.py``
writes now.

A text comparison, as CPython checks its generated files: the generator only
builds a string here, nothing is compiled or executed.
"""

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dataclass_meta import _templates

from .implementation import PYPY

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
        kind = ('init' + '_frozen' * frozen + '_factory' * bool(factory)
                + '_last' * (factory == 'last') + '_post' * post)
        tables[kind.upper()] = table
    assert len(tables) == 19
    for name, table in tables.items():
        assert [f.__name__ for f in table] == [
            f'{name.lower()}_{n}' for n in range(largest + 1)], name


@pytest.mark.skipif(PYPY, reason='PyPy raises no audit events: no hook can refuse a code '
                                  'object, so no run there has closures for templates')
def test_closures_pass_the_differential_tests():
    """With templates refused (an audit hook on ``code.__new__``), every method is
    the plain closure: the path, read-order and stdlib-comparison tests of the
    generated methods pass on that route too, so both routes give the stdlib's
    results. (``test_differential.py``'s generated classes are left to the
    default run: a minute of both backends on every Python.)"""
    env = {k: v for k, v in os.environ.items() if k != 'DATACLASS_META_TEST_CLOSURES'}
    env['DATACLASS_META_TEST_CLOSURES'] = '1'
    probe = ('import runpy; runpy.run_path(' + repr(str(ROOT / 'tests' / 'conftest.py'))
             + ')\nfrom dataclass_meta import DataClass, _relabel\n'
             'class C(DataClass, order=True):\n    x: int\n'
             'print(_relabel.is_template(C.__init__), _relabel.is_template(C.__lt__))')
    out = subprocess.run([sys.executable, '-c', probe], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=True).stdout.split()
    assert out == ['False', 'False']
    files = ['test_init.py', 'test_init_signature.py', 'test_eq_order.py',
             'test_compare_semantics.py', 'test_repr.py', 'test_hash.py', 'test_replace.py',
             'test_asdict.py']
    run = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-n0', '-p', 'no:cacheprovider',
                          *[str(ROOT / 'tests' / f) for f in files]],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]


def _relabelled(backend, method):
    """Whether ``method`` is a relabelled template, where ``backend`` makes one."""
    from dataclass_meta import _relabel
    return _relabel.is_template(method)


def test_relabelled_methods_look_like_the_stdlibs(backend):
    """A relabelled method is named for its class and module; ``__init__`` has
    the stdlib's signature, defaults and type hints, and its call errors."""
    import dataclasses
    import inspect
    import typing

    from dataclass_meta import DataClass, field

    class C(DataClass, order=True):
        x: int
        y: str = 'a'
        z: list = field(default_factory=list)

    @dataclasses.dataclass(order=True)
    class S:
        x: int
        y: str = 'a'
        z: list = dataclasses.field(default_factory=list)

    assert _relabelled(backend, C.__eq__)  # dict-based: both backends
    for name in ('__init__', '__eq__', '__lt__', '__ge__'):
        method = C.__dict__[name]
        assert method.__qualname__ == f'{C.__qualname__}.{name}' and method.__name__ == name
        assert method.__module__ == C.__module__ == S.__module__
    assert str(inspect.signature(C)) == str(inspect.signature(S))
    assert str(inspect.signature(C.__init__)) == str(inspect.signature(S.__init__))
    assert typing.get_type_hints(C.__init__) == typing.get_type_hints(S.__init__)
    if _relabelled(backend, C.__init__):
        assert C.__init__.__defaults__ == S.__init__.__defaults__
    for call in (lambda k: k(), lambda k: k(1, 2, 3, 4), lambda k: k(1, w=2),
                 lambda k: k(1, x=2)):
        with pytest.raises(TypeError) as ours:
            call(C)
        with pytest.raises(TypeError) as theirs:
            call(S)
        assert str(ours.value).replace(C.__qualname__, S.__qualname__) == str(theirs.value)


@pytest.mark.parametrize('frozen', [False, True])
@pytest.mark.parametrize('post', [False, True])
def test_only_the_last_field_with_a_factory(frozen, post):
    """Where only the last field has a default factory, the pure backend's
    template checks that field alone (the stdlib's bytecode); the stores, the
    factory's calls and the marker passed on purpose behave as the stdlib's."""
    import dataclasses

    from dataclass_meta import DataClass, _backend, field

    def body():
        calls = []

        def __post_init__(self):
            calls.append(self.c)
        ns = {'__annotations__': {'a': int, 'b': object, 'c': list},
              'c': field(default_factory=list), 'calls': calls}
        return dict(ns, __post_init__=__post_init__) if post else ns

    with _backend.use(_backend.PURE):
        C = type('C', (DataClass,), body(), frozen=frozen)
    S = dataclasses.dataclass(frozen=frozen)(type('S', (), {
        **body(), 'c': dataclasses.field(default_factory=list)}))
    kept = C.__init__.__code__.co_freevars
    assert {'_FACTORY', '_d'} <= set(kept) and '_d0' not in kept
    marker = C.__init__.__defaults__[0]
    for cls in (C, S):
        a, b = cls(1, 2), cls(1, 2)
        assert a.c == [] and a.c is not b.c and cls(1, 2, [5]).c == [5]
        assert cls(1, marker).b is marker  # stored as given, as the stdlib does
    assert C.calls == S.calls == ([[], [], [5], []] if post else [])


def test_string_annotations_resolve_in_the_class_module():
    """``typing.get_type_hints`` of a relabelled ``__init__`` reads string
    annotations in the class's module, as the stdlib's does."""
    import typing

    from . import future_annotations_module as m

    assert typing.get_type_hints(m.Item.__init__)['name'] is str


def test_a_field_named_self_and_one_named_like_a_templates_own(backend):
    """``self`` as a field renames ``__init__``'s first parameter (the stdlib's
    ``__dataclass_self__``); a field named like a value a template keeps
    (``_setattr``) gets the plain closure, with the same behaviour."""
    import inspect

    from dataclass_meta import DataClass

    class A(DataClass):
        self: int

    class F(DataClass, frozen=True):
        _setattr: int
        _n0: int = 2

    assert list(inspect.signature(A.__init__).parameters) == ['__dataclass_self__', 'self']
    assert A(self=3).self == 3 and A(3) == A(3)
    assert not _relabelled(backend, F.__init__)
    assert F(1)._n0 == 2 and F(1, 5) == F(_setattr=1, _n0=5)


def test_more_fields_than_the_largest_template(backend):
    """Past the largest template, the closures serve, with the same results."""
    from dataclass_meta import make_dataclass

    n = _generator().LARGEST + 1
    names = [f'a{i}' for i in range(n)]
    C = make_dataclass('C', names, order=True, unsafe_hash=True)
    c = C(*range(n))
    assert not _relabelled(backend, C.__eq__) and not _relabelled(backend, C.__init__)
    assert c == C(*range(n)) and c < C(*range(1, n + 1)) and hash(c) == hash(tuple(range(n)))
    assert repr(c).startswith('C(a0=0, a1=1,')


def test_a_traceback_shows_the_template_line(backend):
    """An error raised by a field's ``==`` inside a relabelled ``__eq__`` shows the
    template's line, whose ``f0`` is the first field."""
    import traceback

    from dataclass_meta import DataClass

    class Bad:
        def __eq__(self, other):
            raise ValueError('no')

    class C(DataClass):
        x: object

    with pytest.raises(ValueError) as info:
        C(Bad()) == C(Bad())
    frame = traceback.extract_tb(info.tb)[-2]
    assert frame.name == '__eq__' and frame.filename == _templates.__file__
    assert 'self.f0 == other.f0' in frame.line
