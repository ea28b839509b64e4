"""String annotations: ClassVar, InitVar and KW_ONLY are recognised as the stdlib does."""

import dataclasses
import inspect
import typing

from dataclass_meta import fields

from . import future_annotations_module as m


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
