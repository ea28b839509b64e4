"""No exec, eval or compile: every class option, defined and used under an audit hook
and, where the interpreter raises no such audit events (PyPy), a profile hook.

The one code object the package makes is a relabelled template (``_relabel``):
``code.replace`` of a function compiled from the package's own ``_templates.py``,
changing its names only. The hooks allow exactly that call, from
``_relabel.relabel``, with the template's bytecode unchanged; anything else that
makes a code object fails these tests."""

import copy
import pickle
import sys
import types

import pytest

from dataclass_meta import (
    KW_ONLY, DataClass, InitVar, asdict, astuple, field, fields, make_dataclass, replace)

from dataclass_meta import _relabel

from .implementation import PYPY

_events = []
_watching = False
_relabelled = []  # the code.__new__ events allowed: relabelling, bytecode kept


def _relabelling(frame, bytecode=None):
    """Whether ``frame`` is ``_relabel.relabel`` making a code object from its
    template's (with ``bytecode`` unchanged, where the event gives it)."""
    if frame is None or frame.f_code is not _relabel.relabel.__code__:
        return False
    return bytecode is None or frame.f_locals['code'].co_code == bytecode


def _hook(event, args):
    if _watching and event in ('exec', 'compile', 'code.__new__'):
        if event == 'code.__new__' and _relabelling(sys._getframe(1), args[0]):
            _relabelled.append(sys._getframe(1).f_locals['code'].co_name)
            return
        _events.append((event, repr(args)[:200]))


sys.addaudithook(_hook)  # hooks cannot be removed: the flag switches it off


def _is_forbidden(function):
    """exec, eval, compile, or a method of a code object (``replace`` ...)."""
    return (function is exec or function is eval or function is compile
            or isinstance(getattr(function, '__self__', None), types.CodeType))


def _profile(frame, event, arg):
    if event == 'c_call' and _is_forbidden(arg):
        if getattr(arg, '__name__', None) == 'replace' and _relabelling(frame):
            _relabelled.append(frame.f_locals['code'].co_name)
            return
        _events.append((event, getattr(arg, '__qualname__', repr(arg))))


@pytest.fixture(params=[
    pytest.param('audit', marks=pytest.mark.skipif(
        PYPY, reason='PyPy raises no audit events for exec and compile: '
                     'the audit check would pass without checking anything')),
    'profile'])
def audit(request):
    """Collect the exec/compile audit events raised while the test body runs or
    (``profile``, which works on PyPy too) the calls of exec, eval, compile and
    code-object methods that ``sys.setprofile`` sees."""
    global _watching
    # Warm up the lazy imports the package itself may do (inspect, typing).
    import contextvars  # noqa: F401
    import inspect  # noqa: F401
    import typing  # noqa: F401
    # Importing a module runs its code (an exec event): the templates are
    # imported on the first class a process makes.
    _relabel.templates()
    _events.clear()
    _relabelled.clear()
    if request.param == 'audit':
        _watching = True
    else:
        previous = sys.getprofile()
        sys.setprofile(_profile)
    try:
        yield _events
    finally:
        if request.param == 'audit':
            _watching = False
        else:
            sys.setprofile(previous)


def _register(name, options):
    """A module-level name for a class defined in a test, so that pickle finds it."""
    qualname = f'_{name}_' + '_'.join(f'{k}_{v}' for k, v in sorted(options.items()))
    _pending.append(qualname)
    return qualname


_pending = []  # registered names, and the InitVar values __post_init__ saw


def _publish(cls):
    globals()[cls.__qualname__] = cls
    return cls


OPTION_SETS = [
    {},
    {'frozen': True},
    {'order': True},
    {'unsafe_hash': True},
    {'eq': False},
    {'slots': True},
    {'slots': True, 'frozen': True, 'weakref_slot': True},
    {'kw_only': True},
    {'init': False},
    {'repr': False, 'match_args': False},
]


@pytest.mark.parametrize('options', OPTION_SETS, ids=str)
def test_class_creation_and_use_never_exec(audit, options):
    """Defining and using a class with these options fires no exec/compile event."""
    class Base(DataClass, **options):
        a: int = 0

    class C(Base):
        __qualname__ = _register('C', options)

        b: int = 1
        _: KW_ONLY
        c: tuple = field(default_factory=tuple)
        d: InitVar[int] = 5

        def __post_init__(self, d):
            _pending.append(d)

    _publish(C)
    if options.get('init') is False:
        assert audit == []
        return
    obj = C(a=1, b=2, c=(3,))
    repr(obj), obj == C(a=1, b=2), hash(C) if options.get('eq') is False else None
    if options.get('order'):
        obj < C(a=2, b=2)
    if options.get('frozen') or options.get('unsafe_hash'):
        hash(obj)
    fields(obj), asdict(obj), astuple(obj), replace(obj, a=5)
    copy.copy(obj), copy.deepcopy(obj), pickle.loads(pickle.dumps(obj))
    str(C.__doc__)
    import inspect
    str(inspect.signature(C))
    assert audit == []


def test_make_dataclass_never_execs(audit):
    """make_dataclass builds through the metaclass without exec."""
    P = make_dataclass('P', ['x', ('y', int, field(default=2))], frozen=True)
    assert P(1) == P(1, 2)
    assert audit == []


def test_relabelling_is_what_the_hooks_allow(audit):
    """The pure methods of a plain class are relabelled templates, seen by the
    hooks as the one allowed ``code.replace`` each, from ``_relabel.relabel``."""
    from dataclass_meta import _backend

    with _backend.use(_backend.PURE):
        class R(DataClass, order=True, unsafe_hash=True):
            a: int
            b: int = 0
    assert R(1) < R(2) and R(1) == R(1, 0) and hash(R(1)) == hash((1, 0))
    assert audit == []
    assert sorted(_relabelled) == sorted(['__init__', '__repr__', '__eq__', '__lt__', '__le__',
                                          '__gt__', '__ge__', '__hash__'])


@pytest.mark.skipif(PYPY, reason='PyPy raises no audit events: no hook can refuse a code object')
def test_a_hook_refusing_code_objects_gets_the_closures():
    """Where an audit hook refuses ``code.__new__``, every method is the plain
    closure and behaves the same (a fresh process: hooks cannot be removed)."""
    import subprocess
    code = """if True:
        import sys
        def refuse(event, args):
            if event == 'code.__new__':
                raise RuntimeError('no code objects here')
        import dataclass_meta
        from dataclass_meta import DataClass, field, replace, _backend
        sys.addaudithook(refuse)
        for backend in _backend.available():
            with _backend.use(backend):
                class P(DataClass, order=True, frozen=True):
                    x: int
                    y: list = field(default_factory=list, hash=False)
            p = P(1)
            assert P.__init__.__code__.co_filename.endswith(('_init.py', '.c')) \
                if hasattr(P.__init__, '__code__') else True
            assert repr(p) == 'P(x=1, y=[])' and p == P(1, []) and p < P(2)
            assert replace(p, x=3) == P(3) and hash(p) == hash((1,))
            try:
                P(1, 2, 3)
            except TypeError as exc:
                assert 'takes from 2 to 3 positional arguments but 4 were given' in str(exc)
        print('ok')
    """
    run = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)
    assert run.stdout.strip() == 'ok', run.stderr


def test_hook_sees_exec(audit):
    """The check works: a real exec is recorded (so the other tests can fail)."""
    exec('1')
    assert audit and audit[0][0] in ('exec', 'compile', 'c_call')


@pytest.mark.parametrize('forbidden', [
    lambda: eval('1'), lambda: compile('1', 'f', 'eval'),
    lambda: (lambda: 0).__code__.replace(co_name='f')], ids=['eval', 'compile', 'code'])
def test_hook_sees_eval_compile_and_code_objects(audit, forbidden):
    """eval, compile and a code object's ``replace`` are recorded too."""
    forbidden()
    assert audit


def test_audited_methods_are_the_active_backend():
    """The audit above saw the compiled methods when the compiled core is active
    (its ``__repr__`` is always one; ``==`` and the orderings of a dict-based
    class are relabelled templates on either backend)."""
    import dataclass_meta

    class C(DataClass, order=True):
        a: int = 0

    kind = type(C.__dict__['__repr__'].__wrapped__).__name__
    assert kind == {'compiled': 'compiled_function', 'pure': 'function'}[dataclass_meta.BACKEND]


def test_other_backend_never_execs():
    """This module again, in a fresh process, on the other backend."""
    import os
    import subprocess

    import dataclass_meta
    if os.environ.get('DATACLASS_META_AUDIT_CHILD'):
        pytest.skip('already the run on the other backend')
    env = {k: v for k, v in os.environ.items() if not k.startswith('DATACLASS_META_')}
    env['DATACLASS_META_AUDIT_CHILD'] = '1'
    if dataclass_meta.BACKEND == 'compiled':
        env['DATACLASS_META_PURE'] = '1'
        env['DATACLASS_META_EXPECT_BACKEND'] = 'pure'
    else:
        try:
            import dataclass_meta._speedups  # noqa: F401
        except ImportError:
            pytest.skip('the compiled core is not built')
        env['DATACLASS_META_EXPECT_BACKEND'] = 'compiled'
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    run = subprocess.run(
        [sys.executable, '-m', 'pytest', '-q', '-n0', '-p', 'no:cacheprovider', __file__,
         os.path.join(root, 'tests', 'test_backend.py') + '::test_expected_backend_is_active'],
        cwd=root, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
