"""Tools made for stdlib data classes build an instance by calling the class
with the field names as keywords (for ``@dataclass`` they are the parameters).
``__init__`` takes an aliased field under its name as well as its alias, so
each of them builds our classes with aliases, converters and validators."""

import copy
import dataclasses
import sys

import dacite
import pydantic
import pytest
from dataclasses_json import DataClassJsonMixin
from mashumaro.codecs.basic import decode, encode

from dataclass_meta import DataClass, field
from interop_models import HOOKED, Account, Order, Stock

#: Each hooked instance as its fields' values (what the tools read and write).
AS_DATA = [dataclasses.asdict(instance) for instance in HOOKED]


class Reseller(Account):
    """Inherits every aliased field, and adds one."""
    _region: str = field(default='eu', kw_only=True, alias='region')


@pytest.mark.parametrize('instance,data', list(zip(HOOKED, AS_DATA)), ids=lambda x: type(x).__name__)
def test_dacite_from_dict(instance, data):
    assert dacite.from_dict(type(instance), data) == instance


@pytest.mark.parametrize('instance,data', list(zip(HOOKED, AS_DATA)), ids=lambda x: type(x).__name__)
def test_mashumaro_codec_round_trip(instance, data):
    cls = type(instance)
    encoded = encode(instance, cls)  # tuples become lists: plain data
    assert encoded.keys() == data.keys()
    assert decode(encoded, cls) == decode(data, cls) == instance


def test_dataclasses_json_mixin():
    class Profile(Account, DataClassJsonMixin):
        pass

    profile = Profile(7, 'Ann', maxItems=3)
    assert Profile.from_json(profile.to_json()) == profile
    assert Profile.from_dict({'user_id': 1, 'display': 'b', 'limit': 2}) == Profile(1, 'b',
                                                                                   maxItems=2)


def test_pydantic_type_adapter_by_alias_and_by_name():
    adapter = pydantic.TypeAdapter(Account)
    expected = Account(7, 'Ann', maxItems=3)
    assert adapter.validate_python({'userId': 7, 'displayName': 'Ann', 'maxItems': 3}) == expected
    assert adapter.validate_python({'user_id': 7, 'display': 'Ann', 'limit': 3}) == expected


def test_a_subclass_takes_inherited_and_own_fields_by_name():
    reseller = Reseller(user_id=1, display='d', limit=2, _region='us')
    assert reseller == Reseller(1, 'd', maxItems=2, region='us')
    assert dacite.from_dict(Reseller, dataclasses.asdict(reseller)) == reseller
    assert dataclasses.replace(reseller, _region='ap')._region == 'ap'


@pytest.mark.parametrize('instance', HOOKED, ids=lambda x: type(x).__name__)
def test_stdlib_replace_by_field_name(instance):
    """``dataclasses.replace`` and ``copy.replace`` (3.13+) pass field names; the
    kept values are converted again by ``dataclasses.replace`` only."""
    assert dataclasses.replace(instance) == instance
    if sys.version_info >= (3, 13):
        assert copy.replace(instance) == instance
    first = dataclasses.fields(instance)[0]
    changed = {first.name: 99 if first.name != 'stock' else Stock(1)}
    again = dataclasses.replace(instance, **changed)
    assert getattr(again, first.name) == changed[first.name]


def test_order_converts_a_value_given_by_field_name():
    assert Order(order_id='5', stock=Stock('1')).order_id == 5
    with pytest.raises(TypeError, match=r"Order.__init__\(\) got multiple values for argument "
                                        r"'orderId'$"):
        Order(order_id=1, orderId=2, stock=Stock(0))
