"""Backend selection: the compiled core when built, the pure closures on request."""

import gc
import importlib.util
import inspect
import os
import pickle
import re
import subprocess
import sys
import sysconfig
import weakref
from types import SimpleNamespace

import pytest

import dataclass_meta
from dataclass_meta import DataClass, field

from .implementation import mortal_classes  # noqa: F401

compiled = pytest.mark.skipif(dataclass_meta.BACKEND != 'compiled',
                              reason='the compiled core is not active')

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _backend_in_subprocess(**env):
    """``dataclass_meta.BACKEND`` in a fresh interpreter with ``env`` added."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith('DATACLASS_META_')}
    environ.update(env)
    out = subprocess.run(
        [sys.executable, '-c', 'import dataclass_meta; print(dataclass_meta.BACKEND)'],
        cwd=_ROOT, env=environ, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_expected_backend_is_active():
    """Where the test run asks for a backend (tox, CI), it is the one in use."""
    expected = os.environ.get('DATACLASS_META_EXPECT_BACKEND')
    if os.environ.get('DATACLASS_META_PURE') == '1':
        expected = 'pure'
    if expected is None:
        pytest.skip('no backend expected by this run')
    assert dataclass_meta.BACKEND == expected


def test_env_var_forces_pure():
    """``DATACLASS_META_PURE=1`` selects the pure backend even when the core is built."""
    assert _backend_in_subprocess(DATACLASS_META_PURE='1') == 'pure'


def test_other_values_do_not_force_pure():
    """Only ``1`` forces it; without the variable the built core is used."""
    try:
        import dataclass_meta._speedups  # noqa: F401
    except ImportError:
        expected = 'pure'
    else:
        expected = 'compiled'
    assert _backend_in_subprocess() == expected
    assert _backend_in_subprocess(DATACLASS_META_PURE='0') == expected


@pytest.mark.skipif(not sysconfig.get_config_var('Py_GIL_DISABLED'),
                    reason='the GIL is off only on a free-threaded build')
def test_import_keeps_the_gil_off():
    """On a free-threaded build, importing the package (its compiled core too,
    under ``-W error``) leaves the GIL off."""
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith('DATACLASS_META_') and k != 'PYTHON_GIL'}
    out = subprocess.run(
        [sys.executable, '-W', 'error', '-c',
         'import sys, dataclass_meta; print(dataclass_meta.describe_backend(), '
         'sys._is_gil_enabled())'],
        cwd=_ROOT, env=environ, capture_output=True, text=True, check=True)
    built = importlib.util.find_spec('dataclass_meta._speedups') is not None
    words = out.stdout.split()
    assert words[0].startswith('compiled;' if built else 'pure (') and words[-1] == 'False', (
        out.stdout)
    assert 'free-threaded, GIL disabled' in out.stdout


# Slotted and frozen: every generated method is a C closure with the compiled
# core (a dict-based class gets relabelled templates for ==, the orderings and
# hash: see test_each_operation_takes_the_faster_route).
class Point(DataClass, order=True, frozen=True, slots=True):
    x: int
    y: list = field(default_factory=list, compare=False)


GENERATED = ['__init__', '__repr__', '__eq__', '__lt__', '__le__', '__gt__', '__ge__',
             '__hash__', '__setattr__', '__delattr__']


def test_generated_methods_are_of_the_active_backend():
    """Compiled: every generated method is a ``compiled_function``; pure: functions."""
    for name in GENERATED:
        method = Point.__dict__[name]
        kind = type(method).__name__
        assert kind == ('compiled_function' if dataclass_meta.BACKEND == 'compiled'
                        else 'function'), name


@compiled
def test_each_operation_takes_the_faster_route():
    """With the compiled core, a dict-based class's ==, orderings and hash are
    relabelled templates (real functions, from ``_templates.py``, which
    ``made`` counts as generated); its repr and frozen guards stay C closures,
    as does every method of a slotted class."""
    from dataclass_meta import _backend, _templates

    class Plain(DataClass, order=True, frozen=True):
        x: int

    backend = _backend.compiled()
    for name in ('__eq__', '__lt__', '__le__', '__gt__', '__ge__', '__hash__'):
        method = Plain.__dict__[name]
        assert inspect.isfunction(method) and backend.made(method), name
        assert method.__code__.co_filename == _templates.__file__
        assert method.__qualname__ == f'{Plain.__qualname__}.{name}'
        assert method.__code__.co_name == name  # its template's (tracebacks show it)
        assert type(Point.__dict__[name]).__name__ == 'compiled_function', name
    for name in ('__repr__', '__setattr__', '__delattr__'):
        assert type(Plain.__dict__[name]).__name__ == 'compiled_function', name
    assert type(Plain.__dict__['__init__']).__name__ == 'compiled_function'  # frozen

    class Mutable(DataClass):
        x: int

    class WithFactory(DataClass):
        x: list = field(default_factory=list)

    class Slotted(DataClass, slots=True):
        x: int

    # A mutable dict-based __init__ is a template from 3.11 (the interpreter's
    # specialised stores), but on 3.14+ where a default factory is due; slots
    # are stored by offset in C everywhere.
    version = sys.version_info[:2]
    assert inspect.isfunction(Mutable.__init__) == (version >= (3, 11))
    assert inspect.isfunction(WithFactory.__init__) == ((3, 11) <= version < (3, 14))
    assert type(Slotted.__dict__['__init__']).__name__ == 'compiled_function'
    assert Mutable(1).x == Mutable(x=1).x == 1
    assert WithFactory().x == [] and WithFactory([1]).x == [1] and Slotted(2).x == 2
    assert Plain(1) < Plain(2) and Plain(1) == Plain(1) and hash(Plain(1)) == hash((1,))


@compiled
@pytest.mark.parametrize('name', GENERATED)
def test_compiled_methods_look_like_functions(name):
    """Names, module, binding, weak references and pickling as for a function."""
    method = Point.__dict__[name]
    assert method.__name__ == name
    assert method.__qualname__ == f'Point.{name}'
    assert method.__module__ == __name__
    assert method.__doc__ is None
    assert getattr(Point, name) is method  # from the class: the function itself
    p = Point(1)
    bound = getattr(p, name)
    assert bound.__self__ is p and bound.__func__ is method
    assert weakref.ref(method)() is method
    assert pickle.loads(pickle.dumps(method)) is method
    assert repr(method).startswith(f'<compiled function Point.{name} at 0x')
    assert inspect.isroutine(method)


@compiled
@pytest.mark.parametrize('name', GENERATED)
def test_compiled_methods_do_not_pretend_to_be_python_functions(name):
    """No ``__code__``, ``__closure__``, ``__globals__`` or ``__defaults__``: a tool
    reading the function protocol finds none of it, rather than half of it."""
    method = Point.__dict__[name]
    for attr in ('__code__', '__closure__', '__globals__', '__defaults__'):
        assert not hasattr(method, attr), attr
    assert not inspect.isfunction(method)
    if name == '__repr__':
        assert not hasattr(method.__wrapped__, '__code__')


@compiled
def test_each_module_object_has_its_own_state():
    """Multi-phase init: a second module object made from the extension has its own
    compiled_function type and hooks; the first one's are untouched."""
    import importlib.util
    from dataclass_meta import _speedups
    spec = importlib.util.find_spec('dataclass_meta._speedups')
    other = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(other)
    assert other is not _speedups
    assert other.compiled_function is not _speedups.compiled_function
    from dataclass_meta._backend import HOOKS
    with pytest.raises(RuntimeError, match='configure'):
        other.eq('__eq__', _names_plan('x'))
    other.configure(SimpleNamespace(
        **{**vars(HOOKS), 'signature': lambda params: 'other: ' + ', '.join(params)}))
    with pytest.raises(RuntimeError, match='already configured'):
        other.configure(HOOKS)
    eq = other.eq('__eq__', _names_plan('x'))
    assert type(eq) is other.compiled_function
    assert eq.__signature__ == 'other: self, other'
    mine = _speedups.eq('__eq__', _names_plan('x'))
    assert type(mine) is _speedups.compiled_function
    assert str(mine.__signature__) == '(self, other)'


@compiled
def test_the_compiled_function_type_names_its_module():
    """``type(f).__module__`` is the extension's name, as for any type (no member
    descriptor in the type's dict shadows it); each function keeps its own."""
    import pydoc
    from dataclass_meta import _speedups
    kind = _speedups.compiled_function
    assert kind.__module__ == 'dataclass_meta._speedups'
    assert kind.__doc__ is None
    assert inspect.getmodule(kind) is _speedups
    assert pickle.loads(pickle.dumps(kind)) is kind
    assert 'in module dataclass_meta._speedups' in pydoc.render_doc(kind, renderer=pydoc.plaintext)
    method = Point.__dict__['__eq__']
    assert type(method) is kind and method.__module__ == __name__

    class Local(DataClass, slots=True):
        x: int
    first, second = Local.__dict__['__eq__'], Local.__dict__['__repr__']
    first.__module__, first.__doc__ = 'elsewhere', 'Documented.'
    assert (first.__module__, second.__module__) == ('elsewhere', __name__)
    assert (first.__doc__, second.__doc__) == ('Documented.', None)
    assert '__module__' not in first.__dict__ and '__doc__' not in first.__dict__
    del first.__module__, first.__doc__
    assert (first.__module__, first.__doc__) == (None, None)
    assert kind.__module__ == 'dataclass_meta._speedups' and kind.__doc__ is None


@compiled
def test_compiled_function_attributes():
    """``__name__``/``__qualname__`` take strings only; other attributes go in ``__dict__``."""
    method = Point.__dict__['__eq__']
    with pytest.raises(TypeError, match='__name__ must be set to a string object'):
        method.__name__ = 1
    with pytest.raises(TypeError, match='__qualname__ must be set to a string object'):
        del method.__qualname__
    init = Point.__init__
    # 3.14+: an __annotate__ function, as 3.14's dataclasses gives __init__.
    annotations = '__annotate__' if sys.version_info >= (3, 14) else '__annotations__'
    assert annotations in init.__dict__
    # The signature is built on first read (no inspect at class creation), then kept.
    assert '__signature__' not in init.__dict__
    assert str(inspect.signature(Point)) == '(x: int, y: list = <factory>) -> None'
    assert init.__dict__['__signature__'] is init.__signature__
    assert init.__annotations__ == {'x': int, 'y': list, 'return': None}


@compiled
def test_compiled_methods_are_collected_with_their_class(mortal_classes):
    """A class and its compiled methods (which may refer back to it) are collected."""
    def make():
        class C(DataClass, frozen=True, order=True):
            x: int
        C(1) < C(2), hash(C(1)), repr(C(1))
        return weakref.ref(C), weakref.ref(C.__dict__['__setattr__'])

    refs = make()
    gc.collect()
    assert [ref() for ref in refs] == [None, None]


def _plan(**changes):
    """An ``init`` plan record as ``_init.py`` makes one, with ``changes``."""
    values = dict(names=('x',), n_positional=1, defaults=(None,), steps=(('x', 0, None),),
                  initvars=(), unbound=None, frozen=False, has_post_init=False,
                  binder=print, take_self=print, converters=None, validations=(),
                  direct=False, untrack=False)
    values.update(changes)
    return SimpleNamespace(**values)


def _names_plan(*names, cls=None):
    """A plan record for the small methods: every selection is ``names``."""
    return SimpleNamespace(cls=cls, field_names=names, repr_names=names,
                           compare_names=names, hash_names=names)


@compiled
def test_bad_arguments_to_the_constructors():
    """The module's constructors check what they are given."""
    from dataclass_meta import _speedups
    with pytest.raises(TypeError):
        _speedups.eq('__eq__', SimpleNamespace(compare_names=['x']))
    with pytest.raises(TypeError):
        _speedups.hash('__hash__', SimpleNamespace(hash_names=(1,)))
    with pytest.raises(TypeError):
        _speedups.frozen('__setattr__', _names_plan('x', cls=Point()))
    with pytest.raises(ValueError, match="'__setattr__' or '__delattr__'"):
        _speedups.frozen('__getattr__', _names_plan('x', cls=Point))
    with pytest.raises(ValueError, match="'__replace__' or 'replace'"):
        _speedups.replace('__copy__', _names_plan('x', cls=Point))
    with pytest.raises(AttributeError, match='repr_names'):
        _speedups.repr('__repr__', SimpleNamespace())
    _speedups.init('__init__', _plan())
    with pytest.raises(ValueError):
        _speedups.init('__init__', _plan(defaults=()))
    with pytest.raises(ValueError):
        _speedups.init('__init__', _plan(steps=(('x', -1, None),)))
    with pytest.raises(ValueError):
        _speedups.init('__init__', _plan(steps=(('x', 'a', None),)))
    with pytest.raises(ValueError):
        _speedups.init('__init__', _plan(initvars=(5,)))
    with pytest.raises(TypeError):
        _speedups.init('__init__', _plan(steps=[]))


@compiled
def test_init_reads_the_plan_once_by_attribute():
    """``init(name, plan)`` reads each of the plan's thirteen attributes once, in order."""
    from dataclass_meta import _speedups
    plan, reads = _plan(), []

    class Recording:
        def __getattr__(self, name):
            reads.append(name)
            return getattr(plan, name)

    init = _speedups.init('__init__', Recording())
    assert reads == ['names', 'n_positional', 'defaults', 'steps', 'initvars', 'unbound',
                     'frozen', 'has_post_init', 'binder', 'take_self', 'converters',
                     'validations', 'direct', 'untrack']
    with pytest.raises(AttributeError, match='binder'):
        _speedups.init('__init__', _plan_without('binder', plan))

    class Box:
        pass
    box = Box()
    init(box, 5)
    assert box.x == 5


def _plan_without(name, plan):
    """``plan`` lacking the attribute ``name``."""
    return SimpleNamespace(**{k: v for k, v in vars(plan).items() if k != name})


@compiled
@pytest.mark.parametrize('name, op', [('__lt__', '<'), ('__le__', '<='), ('__gt__', '>'),
                                      ('__ge__', '>=')])
def test_order_takes_its_operation_from_the_name(name, op):
    """``order(name, plan)``: the comparison is the one ``name`` names."""
    from dataclass_meta import _speedups

    class Pair(DataClass, eq=False):
        x: int
    method = _speedups.order(name, _names_plan('x'))
    for a, b in [(1, 2), (2, 2), (3, 2)]:
        expected = {'<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b}[op]
        assert method(Pair(a), Pair(b)) is expected


@compiled
@pytest.mark.parametrize('name', ['__eq__', '__ne__', '__lt', 'lt', ''])
def test_order_rejects_other_names(name):
    """Anything but the four orderings is a ValueError naming the choices."""
    from dataclass_meta import _speedups
    with pytest.raises(ValueError, match="expected '__lt__', '__le__', '__gt__' or '__ge__'"):
        _speedups.order(name, _names_plan('x'))


SIGNATURES = {'__repr__': '(self)', '__eq__': '(self, other)', '__lt__': '(self, other)',
              '__hash__': '(self)', '__setattr__': '(self, name, value)',
              '__delattr__': '(self, name)'}


@pytest.mark.parametrize('name', sorted(SIGNATURES))
def test_small_method_signatures_and_docs(name):
    """inspect and pydoc see the same signatures and inherited docs on both backends."""
    method = getattr(Point, name)
    assert str(inspect.signature(method)) == SIGNATURES[name]
    assert str(inspect.signature(getattr(Point(1), name))) == SIGNATURES[name].replace(
        'self, ', '').replace('(self)', '()')
    assert inspect.getdoc(method) == getattr(object, name).__doc__


@compiled
def test_cpython_internals_hold_as_assumed():
    """The compiled core's probe of what it assumes beyond CPython's API
    (src/speedups/internals.c) holds on every Python the suite runs on."""
    from dataclass_meta import _speedups
    assert [name for name, holds in _speedups.INTERNALS if not holds] == []
    out = subprocess.run([sys.executable, '-m', 'dataclass_meta'], cwd=_ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert 'CPython internals: as assumed (tp_cache and ht_module unused' in out


_DECLINED = """
import copy, gc, pickle, sys
from dataclass_meta import DataClass, _speedups, asdict, replace
assert dict(_speedups.INTERNALS)['declined by DATACLASS_META_INTERNALS=0'] is False
class P(DataClass, slots=True, frozen=True, order=True, gc=False, cache_hash=True):
    x: int
    y: int = 0
class T(DataClass, slots=True, frozen=True, order=True, cache_hash=True):
    x: int
    y: int = 0
p = P(1, 2)
assert p == P(1, 2) and p != P(2) and hash(p) == hash(P(1, 2)) and P(1) < P(2)
assert replace(p, y=5) == P(1, 5) and asdict(p) == {'x': 1, 'y': 2}
assert pickle.loads(pickle.dumps([p, P(3)])) == [p, P(3)] and copy.deepcopy(p) == p
assert sys.getsizeof(p) == sys.getsizeof(T(1, 2))  # the collector's header kept
if hasattr(gc, 'is_tracked'):
    assert not gc.is_tracked(p)  # still allocated untracked
print('declined, and working')
"""


@compiled
def test_declined_internals_leave_a_working_core():
    """Where the probe fails (forced here), the core declines what rests on the
    internals and every method still works, generically."""
    env = {k: v for k, v in os.environ.items() if not k.startswith('DATACLASS_META_')}
    env['DATACLASS_META_INTERNALS'] = '0'
    done = subprocess.run([sys.executable, '-c', _DECLINED], cwd=_ROOT, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == 'declined, and working'
    out = subprocess.run([sys.executable, '-m', 'dataclass_meta'], cwd=_ROOT, env=env,
                         capture_output=True, text=True, check=True).stdout
    assert ('CPython internals: not as assumed (declined by DATACLASS_META_INTERNALS=0): '
            'classes are called through type.__call__') in out


def test_help_is_the_same_on_both_backends():
    """``help(C)`` renders the same text whichever backend made the methods,
    but for the compiled core's ``__reduce_ex__`` (the compact pickle, which
    the pure backend leaves to ``object``: docs/guide.md, "Across processes")."""
    code = ('import pydoc, re, tests.test_backend as t; '
            'print(re.sub(" at 0x[0-9a-f]+", "", pydoc.render_doc(t.Point, renderer=pydoc.plaintext)))')
    texts = []
    for env in ({}, {'DATACLASS_META_PURE': '1'}):
        environ = {k: v for k, v in os.environ.items() if not k.startswith('DATACLASS_META_')}
        environ.update(env)
        texts.append(subprocess.run([sys.executable, '-c', code], cwd=_ROOT, env=environ,
                                    capture_output=True, text=True, check=True).stdout)
    reduce_ex = re.compile(r' \|  __reduce_ex__\(self, protocol\)\n \|      Helper for pickle\.\n'
                           r' \| *\n')  # pydoc's blank line has trailing spaces before 3.13
    built = dataclass_meta._backend.compiled() is not None  # the first run's backend
    assert reduce_ex.sub('', texts[0]) == texts[1]
    assert bool(reduce_ex.search(texts[0])) == built
    assert 'x: int' in texts[0]


def test_changing_the_class_after_use_is_seen():
    """A slot replaced by a property after the methods ran: they read the property."""
    class S(DataClass, slots=True, order=True, unsafe_hash=True):
        x: int

    a, b = S(1), S(2)
    assert (a == b, a < b, repr(a)[-6:]) == (False, True, 'S(x=1)')
    S.x = property(lambda self: 42)
    assert (a == b, a < b, repr(a)[-7:], hash(a) == hash(b)) == (True, False, 'S(x=42)', True)


def _run_isolated(code):
    """Runs ``code`` in a fresh interpreter on this checkout: a crash fails the test
    instead of killing the test run."""
    out = subprocess.run([sys.executable, '-c', code], cwd=_ROOT, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_repr_survives_a_field_repr_that_mutates_what_gc_shows_it():
    """A field's __repr__ that finds the repr's working list through the gc and
    clears it: no crash (the compiled repr's list is not visible to gc)."""
    out = _run_isolated('''if 1:
        import gc
        from dataclass_meta import DataClass

        class Evil:
            def __repr__(self):
                for r in gc.get_referrers(self):
                    if type(r) is list:
                        r.clear()
                return 'evil'

        class P(DataClass):
            x: object
            y: object

        print(repr(P(Evil(), Evil())))
    ''')
    assert out.strip() == 'P(x=evil, y=evil)'



def test_layout_cache_follows_the_class_between_calls():
    """The cached slot offsets are not used for a changed class: an instance's
    __class__ assigned to a layout-compatible class, a slot's descriptor
    swapped for another slot's, a __setattr__ added."""
    log = []

    class S(DataClass, slots=True, unsafe_hash=True):
        x: int
        y: int

    class T(S, slots=True):
        pass

    a, b = S(1, 2), S(1, 3)
    assert (repr(a)[-11:], a == b, hash(a) == hash(S(1, 2))) == ('S(x=1, y=2)', False, True)
    a.__class__ = T
    T.__init__(a, 5, 6)
    assert repr(a)[-11:] == 'T(x=5, y=6)'
    S.x = S.__dict__['y']  # x now reads and stores y's slot, as getattr does
    b.__init__(7, 8)
    assert (b.x, b.y, repr(b)[-10:]) == (8, 8, '(x=8, y=8)')

    def __setattr__(self, name, value):
        log.append(name)
        object.__setattr__(self, name, value)
    S.__setattr__ = __setattr__
    S(1, 2)
    assert log == ['x', 'y']
