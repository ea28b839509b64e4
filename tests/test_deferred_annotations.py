"""PEP 649/749 deferred annotations (3.14+), each case compared with ``@dataclass``."""

import dataclasses
import re
import sys
import typing
from typing import ClassVar

import pytest

from dataclass_meta import KW_ONLY, DataClass, DataClassMeta, InitVar, fields, namespace_annotations

pytestmark = pytest.mark.skipif(sys.version_info < (3, 14),
                                reason='deferred annotations are 3.14+ (PEP 649)')

if sys.version_info >= (3, 14):
    import annotationlib
    from annotationlib import Format


def _twins(slots=False):
    """The same body, ``Later`` defined after the class, built both ways."""
    @dataclasses.dataclass(slots=slots)
    class Std:
        a: int
        b: Later  # noqa: F821 - defined below, on purpose
        c: ClassVar[Later]  # noqa: F821
        d: InitVar[Later] = None  # noqa: F821
        _: KW_ONLY
        e: 'list[Later]' = None  # noqa: F821

        def __post_init__(self, d):
            pass

    class Ours(DataClass, slots=slots):
        a: int
        b: Later  # noqa: F821
        c: ClassVar[Later]  # noqa: F821
        d: InitVar[Later] = None  # noqa: F821
        _: KW_ONLY
        e: 'list[Later]' = None  # noqa: F821

        def __post_init__(self, d):
            pass

    return Std, Ours


def _plain(annotations):
    """Annotations with each ``ForwardRef``'s owner left out (it names the class)."""
    return {k: re.sub(r", owner=<class '[^']*'>", '', repr(v)) for k, v in annotations.items()}


def _kinds(cls):
    return {name: (f._field_type.name, f.kw_only, repr(f.type))
            for name, f in cls.__dataclass_fields__.items()}


def test_names_defined_later_do_not_fail(slots):
    """A field annotated with a class defined later is a field, as in 3.14's stdlib."""
    Std, Ours = _twins(slots)
    assert [f.name for f in fields(Ours)] == [f.name for f in dataclasses.fields(Std)] == [
        'a', 'b', 'e']
    assert isinstance(Ours.__dataclass_fields__['b'].type, annotationlib.ForwardRef)
    assert _kinds(Ours).keys() == _kinds(Std).keys()
    for name in _kinds(Std):
        assert _kinds(Ours)[name][:2] == _kinds(Std)[name][:2], name
    assert Ours(1, 2, e=3).e == Std(1, 2, e=3).e == 3


@pytest.mark.parametrize('format', ['VALUE', 'FORWARDREF', 'STRING'])
def test_init_annotations_in_every_format(format):
    """``get_annotations(C.__init__, format=...)`` as 3.14's ``__init__`` gives it."""
    Std, Ours = _twins()
    fmt = Format[format]
    if fmt is Format.VALUE:  # Later is still undefined
        for cls in (Std, Ours):
            with pytest.raises(NameError, match="'Later'"):
                annotationlib.get_annotations(cls.__init__, format=fmt)
    else:
        assert (_plain(annotationlib.get_annotations(Ours.__init__, format=fmt))
                == _plain(annotationlib.get_annotations(Std.__init__, format=fmt)))


def test_init_annotations_once_names_exist():
    """Once the name exists, VALUE and ``get_type_hints`` resolve it, like the stdlib."""
    Std, Ours = _twins()
    later = type('Later', (), {})
    globals()['Later'] = later
    try:
        for fmt in (Format.VALUE, Format.FORWARDREF):
            assert (_plain(annotationlib.get_annotations(Ours.__init__, format=fmt))
                    == _plain(annotationlib.get_annotations(Std.__init__, format=fmt)))
        assert annotationlib.get_annotations(Ours.__init__)['b'] is later
        assert (_plain(typing.get_type_hints(Ours.__init__))
                == _plain(typing.get_type_hints(Std.__init__)))
    finally:
        del globals()['Later']


def test_init_annotate_rejects_other_formats():
    """``__init__.__annotate__`` raises ``NotImplementedError`` as the stdlib's does."""
    Std, Ours = _twins()
    for cls in (Std, Ours):
        with pytest.raises(NotImplementedError):
            cls.__init__.__annotate__(Format.VALUE_WITH_FAKE_GLOBALS)


def test_class_creation_evaluates_each_annotation_once(slots):
    """Class creation evaluates the class's annotations once, as ``@dataclass``
    does (slotted classes too), and never the annotations of ``__init__``."""
    calls = []

    def counted(tp):
        calls.append(tp)
        return tp

    class Ours(DataClass, slots=slots):
        x: counted(int)
        y: counted(str) = ''

    assert len(calls) == 2
    calls.clear()

    @dataclasses.dataclass(slots=slots)
    class Std:
        x: counted(int)
        y: counted(str) = ''

    assert len(calls) == 2
    calls.clear()
    Ours(1)
    repr(Ours(1))
    assert calls == []
    # Both keep what was evaluated: a read of the class's annotations, or a
    # pickler that sends the class without its annotate function (cloudpickle),
    # finds them without evaluating again.
    assert Ours.__annotations__ == Std.__annotations__ == {'x': int, 'y': str}
    assert calls == []
    assert Ours.__dict__['__annotations_cache__'] == Std.__dict__['__annotations_cache__']


def test_namespace_annotations_lets_a_metaclass_add_fields():
    """``namespace_annotations`` gives a metaclass the body's annotations as a dict."""
    class Stamped(DataClassMeta):
        def __new__(mcls, name, bases, ns, **kw):
            annotations = namespace_annotations(ns)
            assert '__annotate_func__' not in ns
            annotations['created'] = int
            ns['created'] = 0
            return super().__new__(mcls, name, bases, ns, **kw)

    class C(metaclass=Stamped):
        x: Undefined  # noqa: F821 - a forward reference survives the rewrite

    assert [f.name for f in fields(C)] == ['x', 'created']
    assert isinstance(fields(C)[0].type, annotationlib.ForwardRef)
    assert C(1).created == 0
