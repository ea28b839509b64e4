"""cattrs unstructures and structures data classes through ``dataclasses.fields``."""

import cattrs
import pytest

from interop_models import EXPECTED


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
