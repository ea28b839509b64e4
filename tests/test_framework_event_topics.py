"""examples/frameworks/event_topics.py: a ``DataClassMeta`` subclass taking ``topic=``."""

import dataclasses
import datetime
import pathlib
import sys
from decimal import Decimal

import pytest

from dataclass_meta import fields, replace

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / 'examples' / 'frameworks'))
from event_topics import TOPICS, Event, EventMeta  # noqa: E402


class OrderPlaced(Event, topic='orders'):
    order_id: int
    total: Decimal
    placed_at: datetime.datetime


class OrderShipped(Event, topic='orders'):
    order_id: int
    on: datetime.date


class Audited(Event):
    """No topic: a base whose fields its subclasses share."""

    by: str


class Refunded(Audited, topic='refunds'):
    amount: Decimal = Decimal('0')


def test_topic_is_taken_by_the_metaclass():
    """``topic=`` is ``EventMeta.__new__``'s: stored, registered, never passed on."""
    assert (OrderPlaced.__topic__, Audited.__topic__, Refunded.__topic__) == (
        'orders', None, 'refunds')
    assert TOPICS['orders'] == [OrderPlaced, OrderShipped] and TOPICS['refunds'] == [Refunded]
    assert type(OrderPlaced) is EventMeta and OrderPlaced.__dataclass_params__.frozen


@pytest.mark.parametrize('typo', ['tpoic', 'topics', 'Topic'])
def test_misspelt_topic_is_named_and_suggested(typo):
    """The misspelt keyword: our options, what the metaclass takes, the suggestion."""
    with pytest.raises(TypeError) as info:
        class Bad(Event, **{typo: 'orders'}):
            order_id: int
    assert str(info.value) == (
        f"unknown option {typo!r} for data class 'Bad': expected one of init, repr, eq, "
        "order, unsafe_hash, frozen, match_args, kw_only, slots, weakref_slot, cache_hash, "
        "gc, untrack_atomic; EventMeta.__new__ takes topic. Did you mean 'topic'?")
    assert all(cls.__name__ != 'Bad' for classes in TOPICS.values() for cls in classes)


def test_hook_converts_wire_types():
    """The typed hook gave each wire-typed field a converter, on a copy."""
    event = OrderPlaced(7, '9.50', '2024-05-01T10:00:00')
    assert event == OrderPlaced(7, Decimal('9.50'), datetime.datetime(2024, 5, 1, 10))
    assert [f.converter is not None for f in fields(OrderPlaced)] == [False, True, True]
    assert replace(event, total=3).total == Decimal(3)
    assert OrderShipped(1, '2024-05-02').on == datetime.date(2024, 5, 2)
    assert Refunded('ann').amount == Decimal('0') and Refunded('ann', 1.5).amount == Decimal('1.5')
    assert [f.converter for f in fields(Audited)] == [None]
    assert fields(Refunded)[0] is fields(Audited)[0]  # unchanged fields are shared


def test_messages_round_trip():
    """``to_message`` writes wire types as ISO strings; ``from_message`` reads them back."""
    event = OrderPlaced(7, '9.50', '2024-05-01T10:00:00')
    assert event.to_message() == (
        'orders', {'order_id': 7, 'total': '9.50', 'placed_at': '2024-05-01T10:00:00'})
    assert OrderPlaced.from_message(event.to_message()) == event
    with pytest.raises(ValueError, match="^'OrderPlaced' is published on 'orders', not "
                                         "'refunds'$"):
        OrderPlaced.from_message(('refunds', {}))
    with pytest.raises(TypeError, match="^'Audited' has no topic"):
        Audited('ann').to_message()


def test_bad_wire_value_names_the_field():
    """A value the converter refuses: its own error, and (3.11+) a note naming the field."""
    with pytest.raises(ValueError) as info:
        OrderPlaced(1, Decimal(1), 'yesterday')
    assert 'yesterday' in str(info.value)
    if sys.version_info >= (3, 11):
        assert info.value.__notes__ == [
            "while converting field 'placed_at' of data class 'OrderPlaced'"]


def test_frozen_and_still_a_stdlib_data_class():
    """Events are frozen data classes to every tool."""
    event = OrderShipped(1, datetime.date(2024, 5, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.on = None
    assert dataclasses.asdict(event) == {'order_id': 1, 'on': datetime.date(2024, 5, 2)}


def test_string_annotations_convert_too():
    """Under ``from __future__ import annotations`` the hook matches the type's name."""
    class Paid(Event, topic='payments'):
        amount: 'Decimal'
        on: 'datetime.date'

    assert Paid('1.5', '2024-05-03') == Paid(Decimal('1.5'), datetime.date(2024, 5, 3))
    assert Paid('1.5', '2024-05-03').to_message() == (
        'payments', {'amount': '1.5', 'on': '2024-05-03'})
