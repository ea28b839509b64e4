"""The module-level functions other than asdict/astuple and replace: fields,
is_dataclass, make_dataclass, as the stdlib's; and the errors all of them give
for what is not a data class."""

import dataclasses
import inspect
import pickle
import sys
import typing
from typing import ClassVar, Generic, TypeVar

import pytest

import dataclass_meta as dm
from dataclass_meta import DataClass, InitVar, field, fields, is_dataclass, make_dataclass

from .outcomes import outcome

T = TypeVar('T')


class Child(DataClass):
    name: str
    tags: list = field(default_factory=list)


def test_functions_reject_non_dataclasses(backend):
    """Non-data-classes get the stdlib's TypeErrors."""
    for func, msg in [(dm.asdict, 'asdict() should be called on dataclass instances'),
                      (dm.astuple, 'astuple() should be called on dataclass instances'),
                      (dm.replace, 'replace() should be called on dataclass instances')]:
        with pytest.raises(TypeError, match=f'^{msg}'.replace('(', r'\(').replace(')', r'\)')):
            func(object())
    with pytest.raises(TypeError, match='^must be called with a dataclass type or instance$'):
        dm.fields(object())
    with pytest.raises(TypeError):
        dm.asdict(Child)  # a class, not an instance
    assert dm.is_dataclass(Child) and dm.is_dataclass(Child('a'))
    assert not dm.is_dataclass(DataClass) and not dm.is_dataclass(1)


def test_is_dataclass_of_generic_aliases():
    """Aliases are not data classes; an instance of a ``GenericAlias`` subclass may
    be (3.10's ``isinstance(list[int], type)`` is true): as the stdlib answers."""
    import types
    import typing
    T = typing.TypeVar('T')

    class A(DataClass, typing.Generic[T]):
        x: T

    class B(DataClass):
        x: int
        __class_getitem__ = classmethod(types.GenericAlias)

    class G(types.GenericAlias, DataClass):
        origin: type
        args: type

    @dataclasses.dataclass
    class S(types.GenericAlias):
        origin: type
        args: type

    for obj in (A[int], B[int], list[int], G, G(list, int), S, S(list, int)):
        assert dm.is_dataclass(obj) == dataclasses.is_dataclass(obj), obj
    assert not dm.is_dataclass(B[int]) and dm.is_dataclass(G(list, int))


def test_fields_excludes_pseudo_fields():
    """ClassVars and InitVars are in ``__dataclass_fields__`` but not ``fields()``."""
    import typing

    class C(DataClass):
        x: int
        cv: typing.ClassVar[int] = 1
        iv: InitVar[int] = 0

    assert [f.name for f in dm.fields(C)] == ['x']
    assert set(C.__dataclass_fields__) == {'x', 'cv', 'iv'}


class _Kind:
    """A field-like object whose ``_field_type`` read is logged (and may raise or
    add to the mapping it sits in)."""

    def __init__(self, log, name, kind, action=None):
        self.log, self.name, self.kind, self.action = log, name, kind, action

    @property
    def _field_type(self):
        self.log.append(self.name)
        if self.action is not None:
            self.action()
        return self.kind


def _chained(e):
    """An exception's type, text and chaining."""
    return type(e), str(e), type(e.__context__), e.__suppress_context__, e.__cause__


def test_fields_matches_the_stdlib_on_every_path():
    """``fields()`` of every backend (in C with the compiled core) and the
    stdlib's give the same tuples, errors, exception chaining and
    ``_field_type`` reads, in order."""
    from dataclass_meta import _backend, _functions

    assert dm.fields is _backend.backend.public_fields
    assert _backend.PURE.public_fields is _functions.fields

    class Mapping:
        def __init__(self, items):
            self.items = items

        def values(self):
            return iter(self.items)

    def holder(fields_value):
        class Holder:
            __dataclass_fields__ = fields_value
        return Holder

    class RaisingFields:
        @property
        def __dataclass_fields__(self):
            raise ValueError('no fields here')

    @dataclasses.dataclass
    class S:
        x: int
        y: InitVar[int] = 0

    class C(DataClass):
        x: int
        y: InitVar[int] = 0

    def cases(log):
        grow = {}
        grow['a'] = _Kind(log, 'a', dataclasses._FIELD, lambda: grow.setdefault('b', 1))
        return [
            ((S,), {}), ((S(1),), {}), ((C,), {}), ((C(1),), {}),
            ((), {'class_or_instance': C}), ((), {}), ((C, C), {}), ((), {'cls': C}),
            ((C,), {'class_or_instance': C}), ((object(),), {}), ((RaisingFields(),), {}),
            ((holder(Mapping([_Kind(log, 'p', dataclasses._FIELD),
                              _Kind(log, 'q', dataclasses._FIELD_CLASSVAR),
                              _Kind(log, 'r', dataclasses._FIELD)])),), {}),
            ((holder(Mapping([_Kind(log, 's', dataclasses._FIELD),
                              _Kind(log, 't', None, lambda: 1 / 0),
                              _Kind(log, 'u', dataclasses._FIELD)])),), {}),
            ((holder(grow),), {}), ((holder(Mapping(None)),), {}), ((holder(None),), {}),
        ]

    for ours in [b.public_fields for b in _backend.available()]:
        assert str(inspect.signature(ours)) == '(class_or_instance)'
        assert inspect.getdoc(ours) == inspect.getdoc(_functions.fields)
        std_log, our_log = [], []
        for (args, kwargs), (oargs, okwargs) in zip(cases(std_log), cases(our_log)):
            expected = outcome(lambda: dataclasses.fields(*args, **kwargs), error=_chained)
            got = outcome(lambda: ours(*oargs, **okwargs), error=_chained)
            if expected[0] == 'ok':
                got = (got[0], [(f.name, f._field_type) for f in got[1]])
                expected = (expected[0], [(f.name, f._field_type) for f in expected[1]])
            assert got == expected, (args, kwargs)
        assert our_log == std_log and std_log


def _fresh(name):
    """An equal string made at run time: a new object, not interned."""
    return ''.join([name[:1], name[1:]])


@pytest.mark.parametrize('how', ['make_dataclass', 'metaclass call'])
def test_run_time_field_names_are_interned(how):
    """Field names built at run time (read from a schema, say) are interned when
    the class is made, as names written in source are: the fields, the generated
    methods and the instance's ``__dict__`` keys all hold the interned string."""
    names = [_fresh(n) for n in ('alpha_rt', 'beta_rt')]
    if how == 'make_dataclass':
        C = dm.make_dataclass('C', [(n, int) for n in names])
    else:
        C = dm.DataClassMeta('C', (DataClass,), {'__annotations__': dict.fromkeys(names, int)})
    obj = C(1, 2)
    for f, key in zip(dm.fields(C), vars(obj)):
        assert f.name is sys.intern(_fresh(f.name)) and key is f.name
    assert obj == C(1, 2) and repr(obj) == 'C(alpha_rt=1, beta_rt=2)'


def test_make_dataclass():
    """make_dataclass builds through DataClassMeta with the stdlib's field forms."""
    C = dm.make_dataclass('C', ['a', ('b', int), ('c', list, field(default_factory=list))],
                          frozen=True, namespace={'double': lambda self: self.b * 2})
    assert issubclass(C, DataClass) and isinstance(C, dm.DataClassMeta)
    any_ = "'typing.Any'" if sys.version_info < (3, 14) else 'Any'  # 3.14: typing.Any
    assert str(inspect.signature(C)) == f"(a: {any_}, b: int, c: list = <factory>) -> None"
    assert C(1, 2).double() == 4
    assert C.__module__ == __name__
    assert C.__dataclass_params__.frozen


def test_make_dataclass_decorator():
    """3.14's ``decorator=``: called on a plain class with the options given."""
    calls = []

    def custom(cls, **options):
        calls.append((cls.__bases__, cls.__annotations__, options))
        made = dataclasses.dataclass(cls, **options)
        made.custom = True
        return made

    C = dm.make_dataclass('C', [('x', int), ('y', int, field(default=2))],
                          frozen=True, decorator=custom)
    assert calls == [((object,), {'x': int, 'y': int}, {'frozen': True})]
    assert C.custom and C(1) == C(1, 2) and C.__module__ == __name__
    assert dataclasses.is_dataclass(C) and not issubclass(C, DataClass)
    if sys.version_info >= (3, 14):
        S = dataclasses.make_dataclass('S', [('x', int)], decorator=dataclasses.dataclass)
        assert dataclasses.fields(S)[0].name == 'x'


@pytest.mark.skipif(sys.version_info < (3, 14), reason='3.14+: deferred annotations')
def test_make_dataclass_untyped_fields_are_any_in_every_format():
    """3.14's ``make_dataclass``: a field given by name is ``typing.Any`` through an
    annotate function, in each format as the stdlib's."""
    import annotationlib
    import typing
    Format = annotationlib.Format
    C = dm.make_dataclass('C', ['x', ('y', int)])
    S = dataclasses.make_dataclass('S', ['x', ('y', int)])
    assert C.__annotations__ == S.__annotations__ == {'x': typing.Any, 'y': int}
    for format in (Format.VALUE, Format.FORWARDREF, Format.STRING):
        assert (annotationlib.get_annotations(C, format=format)
                == annotationlib.get_annotations(S, format=format))
    assert [f.type for f in dm.fields(C)] == [f.type for f in dataclasses.fields(S)]
    assert C(1, 2) == C(x=1, y=2)


@pytest.mark.skipif(sys.version_info < (3, 14), reason='3.14+: deferred annotations')
def test_make_dataclass_does_not_import_typing():
    """Without ``typing`` imported, FORWARDREF gives ``ForwardRef('Any', module='typing')``
    and making the class imports nothing, as the stdlib's."""
    import subprocess
    code = (
        'import sys, annotationlib\n'
        'from dataclass_meta import make_dataclass\n'
        'assert "typing" not in sys.modules\n'
        'C = make_dataclass("C", ["x", ("y", int)])\n'
        'assert "typing" not in sys.modules\n'
        'got = C.__annotate__(annotationlib.Format.FORWARDREF)\n'
        'assert got == {"x": annotationlib.ForwardRef("Any", module="typing"), "y": int}, got\n'
        'assert "typing" not in sys.modules\n')
    run = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_make_dataclass_inherits_options_and_pickles():
    """Options not given are inherited from the bases; instances pickle."""
    P = dm.make_dataclass('P', [('x', int, field(default=0))], bases=(Child,),
                          module=__name__)
    globals()['P'] = P
    p = P('n', [], 3)
    assert pickle.loads(pickle.dumps(p)) == p


@pytest.mark.parametrize('spec, msg', [
    ([('x', int, field(), 4)], "Invalid field: ('x', <class 'int'>"),
    (['1x'], "Field names must be valid identifiers: '1x'"),
    (['class'], "Field names must not be keywords: 'class'"),
    (['a', 'a'], "Field name duplicated: 'a'"),
])
def test_make_dataclass_rejects_bad_fields(spec, msg):
    """Bad field specs raise the stdlib's TypeErrors."""
    with pytest.raises(TypeError) as ours:
        dm.make_dataclass('C', spec)
    with pytest.raises(TypeError) as stdlib:
        dataclasses.make_dataclass('C', spec)
    assert str(ours.value) == str(stdlib.value)
    assert str(ours.value).startswith(msg)


def test_classvar_is_found_by_get_origin():
    """3.14 tests ``typing.get_origin(tp) is ClassVar``: any alias with that origin."""
    import typing

    class C(DataClass):
        a: typing.ClassVar[int] = 1
        b: typing.ClassVar = 2
        c: int = 3

    @dataclasses.dataclass
    class S:
        a: typing.ClassVar[int] = 1
        b: typing.ClassVar = 2
        c: int = 3

    assert [f.name for f in dm.fields(C)] == [f.name for f in dataclasses.fields(S)] == ['c']


@pytest.mark.skipif(not hasattr(sys, 'getsizeof') or sys.implementation.name == 'pypy',
                    reason='CPython instance dicts')
def test_made_classes_share_instance_dict_keys(backend):
    """Instances of a ``make_dataclass`` or ``DataClassMeta(...)`` class keep their
    fields in a key-sharing instance dict, as a class statement's do."""
    specs = [('a', int), ('b', int), ('c', int), ('d', int), ('e', int, 0)]

    class Stated(DataClass):
        a: int
        b: int
        c: int
        d: int
        e: int = 0
    made = dm.make_dataclass('Made', specs)
    called = dm.DataClassMeta('Called', (DataClass,), {
        '__annotations__': {name: int for name, *_ in specs}, 'e': 0,
        '__module__': __name__})
    std = dataclasses.make_dataclass('Std', specs)
    sizes = {cls.__name__: sys.getsizeof(vars(cls(1, 2, 3, 4, 5)))
             for cls in (Stated, made, called, std)}
    assert set(sizes.values()) == {sizes['Std']}, sizes
    # the measure tells shared keys from a dict of its own
    assert sys.getsizeof(dict(vars(std(1, 2, 3, 4, 5)))) != sizes['Std']


def test_fields_and_is_dataclass():
    """``fields`` skips ClassVar and InitVar; ``is_dataclass`` takes classes and instances."""
    class C(DataClass):
        k: ClassVar[int] = 0
        x: int
        iv: InitVar[int] = 0

    assert [f.name for f in fields(C)] == [f.name for f in fields(C(1))] == ['x']
    assert is_dataclass(C) and is_dataclass(C(1)) and not is_dataclass(int)
    assert not is_dataclass(DataClass) and not is_dataclass(3)


def test_make_dataclass_options_namespace_module_and_generics():
    """make_dataclass passes options, namespace, bases and module; keeps __orig_bases__."""
    C = make_dataclass('C', ['a', ('b', int), ('c', int, field(default=2))],
                       namespace={'double': lambda self: self.c * 2}, frozen=True,
                       order=True)
    assert C.__dataclass_params__.frozen
    assert C('a', 1).double() == 4 and C(1, 1) < C(1, 2)
    # 3.14+: typing.Any itself, through the class's annotate function
    assert fields(C)[0].type == ('typing.Any' if sys.version_info < (3, 14) else typing.Any)
    G = make_dataclass('G', [('x', 'T')], bases=(Generic[T],), module='somewhere')
    assert G.__module__ == 'somewhere' and G.__orig_bases__ == (Generic[T],)
    assert G[int](1).x == 1


def test_make_dataclass_module_is_the_callers():
    """Without ``module=``, the class belongs to the caller, and so pickles from there."""
    assert make_dataclass('C', ['x']).__module__ == __name__
    assert MadeHere.__module__ == __name__
    assert pickle.loads(pickle.dumps(MadeHere(1))) == MadeHere(1)


MadeHere = make_dataclass('MadeHere', [('x', int)])


def test_is_dataclass_looks_at_the_class():
    """An instance attribute named ``__dataclass_fields__`` does not make a data class."""
    import types
    assert not is_dataclass(types.SimpleNamespace(__dataclass_fields__={}))
