"""orjson serializes data classes natively (it reads ``__dataclass_fields__``)."""

import json
import sys

import pytest

from interop_models import EXPECTED

if sys.implementation.name == 'pypy':
    pytest.skip('orjson has no PyPy build', allow_module_level=True)

import orjson  # noqa: E402


def test_dumps_nested_instance(person):
    """Nested instances, lists of frozen slotted ones and optionals become JSON."""
    assert orjson.loads(orjson.dumps(person)) == EXPECTED
    assert orjson.dumps(person) == json.dumps(EXPECTED, separators=(',', ':')).encode()


def test_dumps_frozen_slotted_and_none(models):
    """A slotted instance (no ``__dict__``) and a ``None`` optional serialize too."""
    assert orjson.dumps(models.Tag('x')) == b'{"name":"x","weight":1}'
    address = models.Address('s', 'c')
    assert orjson.dumps(address) == b'{"street":"s","city":"c","postcode":null}'


def test_passthrough_goes_to_default(person):
    """``OPT_PASSTHROUGH_DATACLASS`` hands our instances to ``default``, as stdlib ones."""
    dumped = orjson.dumps(person, option=orjson.OPT_PASSTHROUGH_DATACLASS,
                          default=lambda obj: type(obj).__name__)
    assert dumped == b'"Person"'


def test_dumps_by_field_name_not_alias():
    """Aliased and converted fields are written under their field names, as stored."""
    from interop_models import HOOKED
    account, stock, order = HOOKED
    assert orjson.loads(orjson.dumps(account)) == {'user_id': 7, 'display': 'Ann', 'limit': 3}
    assert orjson.loads(orjson.dumps(order))['stock'] == {
        'count': 0, 'labels': [], 'price': 0.0}
