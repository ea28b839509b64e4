"""examples/frameworks/json_codec.py: JSON encoding and strict decoding."""

import dataclasses
import datetime
import enum
import json
import pathlib
import sys
from typing import Optional, Union

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import field

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / 'examples' / 'frameworks'))
from json_codec import DecodeError, JSONModel  # noqa: E402
from validated_models import Model, check  # noqa: E402


class Color(enum.Enum):
    RED = 'red'
    GREEN = 'green'


class Item(JSONModel, rename='camel'):
    sku_code: str
    qty: int = 1
    color: Optional[Color] = None


class Order(JSONModel, rename='camel'):
    order_id: int
    placed_at: datetime.datetime
    items: 'list[Item]'
    prices: dict[str, float] = field(default_factory=dict)
    note: Optional[str] = None
    ref: Union[int, str] = field(default=0, metadata={'json': 'REF'})


class RushOrder(Order):
    deliver_by: Optional[datetime.date] = None


ORDER = Order(7, datetime.datetime(2024, 5, 1, 10, 30), [Item('a-1', 2, Color.RED), Item('b')],
              {'a-1': 9.5}, ref='x')
GOOD = {'orderId': 1, 'placedAt': '2024-05-01T10:00:00', 'items': []}


def test_round_trip_of_nested_models():
    """``from_json(to_json(x)) == x`` for models, lists, dicts, enums, datetimes."""
    text = ORDER.to_json()
    assert json.loads(text) == {
        'orderId': 7, 'placedAt': '2024-05-01T10:30:00',
        'items': [{'skuCode': 'a-1', 'qty': 2, 'color': 'red'},
                  {'skuCode': 'b', 'qty': 1, 'color': None}],
        'prices': {'a-1': 9.5}, 'note': None, 'REF': 'x'}
    assert Order.from_json(text) == ORDER
    assert Order.from_dict(ORDER.to_dict()) == ORDER


def test_missing_optional_fields_take_their_defaults():
    """Fields with a default or factory may be left out of the input."""
    order = Order.from_json(json.dumps(GOOD))
    assert (order.prices, order.note, order.ref) == ({}, None, 0)
    assert Order.from_json(json.dumps({**GOOD, 'prices': {'x': 1}})).prices == {'x': 1.0}


def test_rename_is_inherited_and_can_be_overridden():
    """The framework keyword is kept on the class and read by subclasses."""
    rush = RushOrder(1, datetime.datetime(2024, 1, 1), [], deliver_by=datetime.date(2024, 1, 2))
    assert rush.to_dict()['deliverBy'] == '2024-01-02'
    assert RushOrder.from_json(rush.to_json()) == rush

    class Kebab(Order, rename='kebab'):
        extra_info: str = ''

    assert list(Kebab.__json_keys__.values()) == [
        'order-id', 'placed-at', 'items', 'prices', 'note', 'REF', 'extra-info']


@pytest.mark.parametrize('data, message', [
    ({**GOOD, 'orderId': '1'}, "Order.orderId: expected integer, got string '1'"),
    ({**GOOD, 'orderId': True}, 'Order.orderId: expected integer, got boolean True'),
    ({'orderId': 1, 'items': []}, "Order: missing required field 'placedAt'"),
    ({**GOOD, 'order_id': 1},
     "Order: unknown field 'order_id': expected one of orderId, placedAt, items, "
     "prices, note, REF"),
    ({**GOOD, 'items': [{'skuCode': 'a'}, {'skuCode': 'b', 'qty': 1.5}]},
     'Order.items[1].qty: expected integer, got number 1.5'),
    ({**GOOD, 'items': [{'skuCode': 'a', 'color': 'blue'}]},
     "Order.items[0].color: expected Color or null, got string 'blue'"),
    ({**GOOD, 'placedAt': 'yesterday'},
     "Order.placedAt: expected an ISO datetime, got string 'yesterday'"),
    ({**GOOD, 'REF': 1.5}, 'Order.REF: expected integer or string, got number 1.5'),
    ({**GOOD, 'items': {}}, 'Order.items: expected array, got object {}'),
    ({**GOOD, 'items': [[]]}, 'Order.items[0]: expected Item object, got array []'),
    ({**GOOD, 'prices': {'a': 'free'}}, "Order.prices['a']: expected number, got string"),
    ([1], 'Order: expected Order object, got array [1]'),
])
def test_bad_input_is_refused_with_its_path(data, message):
    """Wrong type, missing field, unknown field: the message says where and what."""
    with pytest.raises(DecodeError) as info:
        Order.from_json(json.dumps(data))
    assert str(info.value).startswith(message)


def test_invalid_json_is_a_decode_error():
    """Text that is not JSON fails the same way, naming the class (and the
    running interpreter's own words: CPython's and PyPy's ``json`` differ)."""
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads('{"orderId": ')
    with pytest.raises(DecodeError) as info:
        Order.from_json('{"orderId": ')
    assert str(info.value) == f'Order: invalid JSON: {expected.value}'


def test_never_a_partially_built_object():
    """The class is only called once every field decoded; refusals become errors."""
    built = []

    class Audited(JSONModel):
        name: str
        size: int

        def __post_init__(self):
            if self.size < 0:
                raise ValueError('size must be >= 0')
            built.append(self.name)

    with pytest.raises(DecodeError, match='Audited.size: expected integer'):
        Audited.from_dict({'name': 'a', 'size': 'big'})
    with pytest.raises(DecodeError, match='Audited: size must be >= 0'):
        Audited.from_dict({'name': 'b', 'size': -1})
    assert built == []
    assert Audited.from_dict({'name': 'c', 'size': 1}).size == 1
    assert built == ['c']


def test_class_creation_refuses_bad_renames_and_clashes():
    """Framework keyword mistakes fail when the class is defined."""
    with pytest.raises(TypeError, match=r"rename='snake' of 'A' is not supported: use one of"):
        class A(JSONModel, rename='snake'):
            x: int
    with pytest.raises(TypeError, match=r"fields \['a_b', 'aB'\] of 'B' share a JSON key"):
        class B(JSONModel, rename='camel'):
            a_b: int
            aB: int


def test_combines_with_another_framework():
    """Validated models and the codec in one class: both hooks, both keywords."""
    def non_negative(value):
        if value < 0:
            raise ValueError('must be >= 0')

    class Reading(JSONModel, Model, rename='camel'):
        sensor_id: str
        value: float = check(validator=non_negative)

    assert Reading.from_json('{"sensorId": "s1", "value": 2}') == Reading('s1', 2.0)
    with pytest.raises(DecodeError, match="Reading: field 'value' of 'Reading': must be >= 0"):
        Reading.from_json('{"sensorId": "s1", "value": -2}')


def test_encode_refuses_what_json_cannot_hold():
    """An unsupported value fails at ``to_json`` with its type."""
    class Blob(JSONModel):
        data: object

    with pytest.raises(TypeError, match='cannot encode set'):
        Blob({1}).to_json()


ITEMS = st.builds(Item, st.text(), st.integers(-2**53, 2**53), st.none() | st.sampled_from(Color))


@settings(max_examples=50, deadline=None)
@given(st.lists(ITEMS, max_size=4), st.dictionaries(st.text(), st.floats(allow_nan=False)),
       st.none() | st.text(), st.integers(-2**53, 2**53) | st.text())
def test_any_order_round_trips(items, prices, note, ref):
    """Every value the types allow survives ``to_json``/``from_json``."""
    order = Order(1, datetime.datetime(2024, 5, 1), items, prices, note, ref)
    assert Order.from_json(order.to_json()) == order


def test_dataclasses_field_names_keys_as_field_does():
    """A key given in ``dataclasses.field()``'s metadata is the key, as with ``field()``."""
    class Entry(JSONModel, rename='kebab'):
        entry_id: int = dataclasses.field(metadata={'json': 'ID'})
        long_name: str = dataclasses.field(default='x')

    assert Entry(1).to_dict() == {'ID': 1, 'long-name': 'x'}
    assert Entry.from_json('{"ID": 2, "long-name": "y"}') == Entry(2, 'y')
