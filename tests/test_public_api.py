"""The public surface: exactly the stdlib's 13 names plus ours, and shared objects."""

import dataclasses

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
        'namespace_annotations'}


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
