"""String annotations: ClassVar, InitVar and KW_ONLY are recognised as the stdlib does."""

import dataclasses
import inspect
import sys
import typing

from dataclass_meta import DataClass, fields, make_dataclass

from . import future_annotations_module as m

# A module-level name bound to a string: a string annotation naming it must not
# send the ClassVar/InitVar detection into a loop.
Alias = 'Alias'


def test_pseudo_fields_recognised_from_strings():
    """"ClassVar[...]", "InitVar[...]" (any module alias) and "KW_ONLY" work."""
    kinds = {name: f._field_type for name, f in m.Order.__dataclass_fields__.items()}
    assert kinds == {
        'item': dataclasses._FIELD, 'count': dataclasses._FIELD,
        'limit': dataclasses._FIELD_CLASSVAR, 'typed_limit': dataclasses._FIELD_CLASSVAR,
        'scale': dataclasses._FIELD_INITVAR, 'other_scale': dataclasses._FIELD_INITVAR,
        'meta_scale': dataclasses._FIELD_INITVAR, 'note': dataclasses._FIELD}
    assert [f.name for f in fields(m.Order)] == ['item', 'count', 'note']
    assert m.Order(m.Item('a'), 2, 3, note='n').count == 6


def test_dotted_paths_of_any_depth():
    """"Proxy.Nested.ClassVar[int]" is a ClassVar, as 3.15's stdlib reads it; a
    path through an unknown name is a plain field."""
    kinds = {name: f._field_type for name, f in m.Deep.__dataclass_fields__.items()}
    assert kinds == {'x': dataclasses._FIELD, 'cv': dataclasses._FIELD_CLASSVAR,
                     'iv': dataclasses._FIELD_INITVAR, 'missing': dataclasses._FIELD}


def test_lookup_errors_leave_a_plain_field():
    """A module attribute whose lookup raises (3.15: a lazy import that cannot be
    resolved) makes a plain field, not an error."""
    import sys
    import types
    module = types.ModuleType('_dm_raising_module')

    def __getattr__(name):
        raise ImportError(name)
    module.__getattr__ = __getattr__
    sys.modules[module.__name__] = module
    try:
        from dataclass_meta import DataClass
        C = type('C', (DataClass,), {'__module__': module.__name__,
                                     '__annotations__': {'x': 'lazy.ClassVar[int]'}})
        assert C.__dataclass_fields__['x']._field_type is dataclasses._FIELD
    finally:
        del sys.modules[module.__name__]


def test_signature_keeps_strings():
    """The signature shows the string annotations, as the stdlib's does."""
    assert str(inspect.signature(m.Order)) == (
        "(item: 'Item', count: 'int' = 1, scale: 'InitVar[int]' = 1, "
        "other_scale: 'dataclasses.InitVar[int]' = 1, "
        "meta_scale: 'dataclass_meta.InitVar[int]' = 1, *, note: 'str' = '') -> None")


def test_type_hints_of_init_resolve_in_the_class_module():
    """``get_type_hints(C.__init__)`` resolves names in the class's module."""
    hints = typing.get_type_hints(m.Line.__init__)
    assert hints['item'] is m.Item and hints['count'] is int
    assert hints['return'] is type(None)
    assert typing.get_type_hints(m.Line)['item'] is m.Item


def test_string_annotations_resolve_through_module_names():
    """``typing.ClassVar[...]`` and ``dataclasses.InitVar[...]`` strings are detected."""
    class C(DataClass):
        a: 'typing.ClassVar[int]' = 1
        b: 'dataclasses.InitVar[int]' = 2
        c: 'Alias' = 3
        d: 'sys.ClassVar' = 4  # sys has no ClassVar: a field
        e: 'nothing.ClassVar' = 5  # noqa: F821 - no such module
        f: '[int]' = 6

    assert [f.name for f in fields(C)] == ['c', 'd', 'e', 'f']
    assert C.__dataclass_fields__['b']._field_type is dataclasses._FIELD_INITVAR
    assert C.__dataclass_fields__['a']._field_type is dataclasses._FIELD_CLASSVAR


def test_string_annotation_in_unknown_module():
    """A class whose module is not imported still gets its string annotations as fields."""
    C = make_dataclass('C', [('x', 'ClassVar[int]')], module='no_such_module')
    assert [f.name for f in fields(C)] == ['x']
