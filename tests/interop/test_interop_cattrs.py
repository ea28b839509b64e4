"""cattrs unstructures and structures data classes through ``dataclasses.fields``."""

import dataclasses

import cattrs
import pytest
from hypothesis import given, strategies as st

from dataclass_meta import fields
from interop_models import EXPECTED, HOOKED, Account, Stock, sample
import interop_models

CONVERTERS = [cattrs.Converter, cattrs.BaseConverter]


def test_unstructure(person):
    """Nested instances become plain dicts and lists, field by field."""
    assert cattrs.unstructure(person) == EXPECTED


def test_structure_round_trip(models, person):
    """Plain data structures back into the right classes, defaults filled in."""
    structured = cattrs.structure(EXPECTED, models.Person)
    assert structured == person
    assert type(structured.address) is models.Address
    assert type(structured.tags[0]) is models.Tag
    minimal = cattrs.structure(
        {'name': 'Bo', 'age': '7', 'address': {'street': 's', 'city': 'c'}}, models.Person)
    assert minimal == models.Person('Bo', 7, models.Address('s', 'c'))


def test_structure_reports_bad_data(models):
    """Invalid data raises cattrs' grouped error naming the class."""
    with pytest.raises(cattrs.BaseValidationError, match='Person'):
        cattrs.structure({'name': 'Bo', 'age': 'old', 'address': None}, models.Person)


@pytest.mark.parametrize('make', CONVERTERS)
def test_round_trip_without_hooks_by_either_converter(make):
    """``structure(unstructure(x)) == x`` for classes without aliases or converters."""
    converter = make()
    person = sample(interop_models)
    assert converter.unstructure(person) == EXPECTED
    assert converter.structure(EXPECTED, type(person)) == person


def test_alias_is_the_init_parameter_cattrs_reads():
    """``Field.alias`` is the ``__init__`` parameter: the alias, else the name (cattrs'
    ``BaseConverter`` passes ``getattr(a, 'alias', a.name)``)."""
    assert [f.alias for f in fields(Account)] == ['userId', 'displayName', 'maxItems']
    assert [f.alias for f in fields(Stock)] == ['count', 'labels', 'price']


@pytest.mark.parametrize('make', CONVERTERS)
@pytest.mark.parametrize('instance', HOOKED, ids=lambda x: type(x).__name__)
def test_round_trip_with_aliases_converters_and_validators(make, instance):
    """Keys are the field names; structuring calls ``__init__`` by the aliases, which
    converts and validates again: the same instance back."""
    converter = make()
    data = converter.unstructure(instance)
    assert set(data) == {f.name for f in fields(instance)}
    assert converter.structure(data, type(instance)) == instance


def test_default_converter_passes_field_names_which_init_takes():
    """cattrs' own ``Converter`` names a data class's keywords by the field names (its
    ``adapted_fields``), not the aliases: ``__init__`` takes an aliased field under
    its name too, so no registration is needed."""
    converter = cattrs.Converter()
    data = converter.unstructure(HOOKED[0])
    assert set(data) == {'user_id', 'display', 'limit'}
    assert converter.structure(data, Account) == HOOKED[0]


@pytest.mark.parametrize('make', CONVERTERS)
def test_structure_runs_converters_and_validators(make):
    """Structured values go through ``__init__``: converted, and validated."""
    converter = make()
    assert converter.structure({'count': '3', 'labels': ['x']}, Stock) == Stock(3, ('x',))
    with pytest.raises(Exception) as info:
        converter.structure({'count': -1}, Stock)
    errors = getattr(info.value, 'exceptions', [info.value])
    assert any('count must be >= 0, got -1' in str(e) for e in errors)


@given(st.integers(0, 10**6), st.lists(st.text(max_size=4), max_size=3),
       st.floats(allow_nan=False), st.integers(), st.text(max_size=5))
def test_any_values_round_trip(count, labels, price, user_id, display):
    """Over generated values, both converters give the instance back."""
    for make in CONVERTERS:
        converter = make()
        for instance in (Stock(count, labels, price), Account(user_id, display, maxItems=count)):
            data = converter.unstructure(instance)
            assert converter.structure(data, type(instance)) == instance
