"""pydantic's ``TypeAdapter`` validates into data classes (it treats them as stdlib ones)."""

import pydantic
import pytest
from pydantic import TypeAdapter

from interop_models import EXPECTED


def test_validate_python(models, person):
    """A dict validates into nested instances of the right classes, coercing in lax mode."""
    adapter = TypeAdapter(models.Person)
    value = adapter.validate_python({**EXPECTED, 'age': '42'})
    assert value == person
    assert type(value.address) is models.Address and type(value.tags[1]) is models.Tag
    assert adapter.validate_python(
        {'name': 'Bo', 'age': 1, 'address': {'street': 's', 'city': 'c'}}).tags == []


def test_validate_json_and_dump(models, person):
    """JSON in, instances out; and back to plain data and JSON."""
    adapter = TypeAdapter(models.Person)
    assert adapter.validate_json(adapter.dump_json(person)) == person
    assert adapter.dump_python(person) == EXPECTED


def test_frozen_slotted_class(models):
    """The frozen slotted class validates and stays frozen."""
    tag = TypeAdapter(models.Tag).validate_python({'name': 'x', 'weight': '2'})
    assert tag == models.Tag('x', 2) and not hasattr(tag, '__dict__')
    with pytest.raises(AttributeError):
        tag.weight = 3


def test_validation_error(models):
    """Bad nested data is reported with its location."""
    with pytest.raises(pydantic.ValidationError) as info:
        TypeAdapter(models.Person).validate_python(
            {'name': 'Bo', 'age': 1, 'address': {'street': 's'}})
    assert info.value.errors()[0]['loc'] == ('address', 'city')


def test_pydantic_dataclass_decorator_is_refused_with_the_adapter_as_remedy(models):
    """``pydantic.dataclasses.dataclass`` decorates a data class again: refused, and
    the error names pydantic and ``TypeAdapter`` (not "remove the decorator")."""
    import pydantic.dataclasses
    with pytest.raises(TypeError) as info:
        pydantic.dataclasses.dataclass(models.Tag)
    assert str(info.value).startswith("@dataclass applied to 'Tag' by pydantic.")
    assert str(info.value).endswith(
        'use its way to take an existing data class instead (for pydantic, '
        'TypeAdapter(Tag), not pydantic.dataclasses.dataclass)')
