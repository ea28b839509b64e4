"""A class definition's error shows the class statement first, then one frame of the
package (``DataClassMeta.__new__``), as ``@dataclass``'s show the decorator line; the
user's own code that ran inside keeps its frames."""

import traceback

import pytest

from dataclass_meta import DataClass, DataClassMeta, field, make_dataclass

DEFINITIONS = {
    'unknown option': 'class C(DataClass, frozn=True):\n    x: int\n',
    'option not a bool': "class C(DataClass, frozen='yes'):\n    x: int\n",
    'order without eq': 'class C(DataClass, order=True, eq=False):\n    x: int\n',
    'frozen under non-frozen': ('class B(DataClass):\n    x: int\n\n'
                                'class C(B, frozen=True):\n    y: int\n'),
    'field order': 'class C(DataClass):\n    x: int = 0\n    y: int\n',
    'mutable default': 'class C(DataClass):\n    x: list = []\n',
    'field without annotation': 'class C(DataClass):\n    x = field(default=1)\n',
    'reserved field name': 'class C(DataClass):\n    __post_init__: int = 0\n',
    'own __lt__ with order': ('class C(DataClass, order=True):\n    x: int\n'
                              '    def __lt__(self, other):\n        return True\n'),
    'slots given twice': "class C(DataClass, slots=True):\n    __slots__ = ('x',)\n    x: int\n",
}


def _frames(exc):
    """(module, function) of each traceback entry."""
    return [(frame.f_globals.get('__name__'), frame.f_code.co_name)
            for frame, _ in traceback.walk_tb(exc.__traceback__)]


def _package(frames):
    return [f for f in frames if f[0] == 'dataclass_meta' or f[0].startswith('dataclass_meta.')]


def _define(source):
    with pytest.raises((TypeError, ValueError)) as info:
        exec(compile(source, 'user.py', 'exec'),
             {'__name__': 'user', 'DataClass': DataClass, 'field': field})
    return _frames(info.value)[1:]  # below this module's exec()


@pytest.mark.parametrize('source', DEFINITIONS.values(), ids=DEFINITIONS)
def test_definition_error_starts_at_the_class_statement(source, monkeypatch):
    """The class statement, then ``DataClassMeta.__new__``: the only package frame,
    where the pipeline's own frames were three to six."""
    after = _define(source)
    assert after == [('user', '<module>'), ('dataclass_meta._meta', '__new__')]
    # The same definition through the undecorated __new__: what it showed before.
    monkeypatch.setattr(DataClassMeta, '__new__', staticmethod(DataClassMeta.__new__.__wrapped__))
    before = _define(source)
    assert before[0] == ('user', '<module>')
    assert len(_package(before)) >= 2, before


def test_framework_frames_stay():
    """A framework's ``__init_subclass__`` between the statement and the error is shown."""
    class Model(DataClass):
        def __init_subclass__(cls, **kwargs):
            super().__init_subclass__(**kwargs)

    with pytest.raises(TypeError, match="unknown option 'frozn'") as info:
        class C(Model, frozn=True):
            x: int
    assert [name for _, name in _frames(info.value)] == [
        'test_framework_frames_stay', '__new__', '__init_subclass__']
    assert _package(_frames(info.value)) == [('dataclass_meta._meta', '__new__')]


def test_other_errors_keep_every_frame():
    """An exception other than a definition's ``TypeError``/``ValueError`` (here a
    descriptor's ``__set_name__``) keeps the package's frames, for a bug report."""
    class Broken:
        def __set_name__(self, owner, name):
            raise LookupError(name)

    with pytest.raises((LookupError, RuntimeError)) as info:  # 3.10, 3.11: RuntimeError
        class C(DataClass):
            x: int = 0
            probe = Broken()
    error = info.value if isinstance(info.value, LookupError) else info.value.__cause__
    assert isinstance(error, LookupError)
    assert _frames(error)[-1][1] == '__set_name__'
    assert len(_package(_frames(info.value))) >= 2


def test_make_dataclass_error_starts_at_the_call():
    """``make_dataclass`` shows its own frame and ``__new__`` below the caller's line."""
    with pytest.raises(ValueError, match='mutable default') as info:
        make_dataclass('C', [('x', list, [])])
    assert [name for _, name in _frames(info.value)] == [
        'test_make_dataclass_error_starts_at_the_call', 'make_dataclass', '__new__']


def test_metaclass_new_is_still_the_metaclass_new():
    """The wrapper keeps ``__new__``'s name, and zero-argument ``super()`` still works
    in a metaclass derived from ours."""
    assert DataClassMeta.__new__.__qualname__ == 'DataClassMeta.__new__'

    class Meta(DataClassMeta):
        def __new__(mcls, name, bases, namespace, **kwargs):
            return super().__new__(mcls, name, bases, namespace, **kwargs)

    class P(metaclass=Meta):
        x: int

    assert P(1).x == 1
    with pytest.raises(TypeError) as info:
        class Q(P, frozen=True):
            y: int
    assert [name for _, name in _frames(info.value)] == [
        'test_metaclass_new_is_still_the_metaclass_new', '__new__', '__new__']
