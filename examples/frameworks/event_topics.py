"""Events published on topics: a ``DataClassMeta`` subclass with a class keyword of its own.

    class OrderPlaced(Event, topic='orders'):
        order_id: int
        total: Decimal
        placed_at: datetime

    event = OrderPlaced(7, '9.50', '2024-05-01T10:00:00')   # converted by type
    event.to_message()
    # -> ('orders', {'order_id': 7, 'total': '9.50', 'placed_at': '2024-05-01T10:00:00'})
    OrderPlaced.from_message(event.to_message()) == event    # -> True

Built on dataclass_meta's public extension points (docs/frameworks.md):
- ``EventMeta`` subclasses ``DataClassMeta`` and takes ``topic=`` as a keyword-only
  parameter of its ``__new__``: the keyword never reaches ``__init_subclass__``, and
  a misspelt one (``tpoic=``) is refused naming it (``EventMeta.__new__ takes
  topic. Did you mean 'topic'?``);
- its field hook, ``__transform_fields__``, typed with ``Field``, gives every field
  of a ``Decimal``, ``datetime`` or ``date`` type a converter from the wire's string,
  on a copy of the field, so ``__init__``, assignment and ``replace()`` convert;
- ``Event`` is the base users name; ``metaclass=EventMeta`` makes its classes.
"""

import copy
import datetime
from decimal import Decimal
from typing import Any, Callable, ClassVar, Optional

from dataclass_meta import DataClass, DataClassMeta, Field, asdict, fields

__all__ = ['Event', 'EventMeta', 'TOPICS', 'WIRE_TYPES', 'wire_type']

TOPICS: 'dict[str, list[type[Event]]]' = {}  # topic -> the event classes published on it


def _from_wire(kind: type) -> Callable[[Any], Any]:
    """A converter to ``kind`` that takes the wire's ISO string or number as well."""
    def convert(value: Any) -> Any:
        if isinstance(value, kind):
            return value
        if kind is Decimal:
            return Decimal(str(value)) if isinstance(value, (int, float)) else Decimal(value)
        return kind.fromisoformat(value)
    convert.__qualname__ = f'to_{kind.__name__}'
    return convert


# The types whose fields the hook converts from the wire, and their converters.
WIRE_TYPES: 'dict[type, Callable[[Any], Any]]' = {
    kind: _from_wire(kind) for kind in (Decimal, datetime.datetime, datetime.date)}
# The same types written as strings (``from __future__ import annotations``): the
# hook runs before later classes exist, so it matches names instead of resolving.
_WIRE_NAMES = {'Decimal': Decimal, 'decimal.Decimal': Decimal,
               'datetime': datetime.datetime, 'datetime.datetime': datetime.datetime,
               'date': datetime.date, 'datetime.date': datetime.date}


def wire_type(annotation: Any) -> Optional[type]:
    """The wire type a field's annotation names, or None."""
    if isinstance(annotation, str):
        return _WIRE_NAMES.get(annotation)
    return annotation if annotation in WIRE_TYPES else None


class EventMeta(DataClassMeta):
    """Makes event classes: ``topic=`` names where a class is published."""

    def __new__(mcls, name: str, bases: 'tuple[type, ...]', namespace: 'dict[str, Any]',
                /, *, topic: Optional[str] = None, **kwargs: Any) -> 'EventMeta':
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        cls.__topic__ = topic
        if topic is not None:
            TOPICS.setdefault(topic, []).append(cls)
        return cls

    def __transform_fields__(cls, fields: 'list[Field[Any]]') -> 'list[Field[Any]]':
        """Every field of a wire type converts from the wire's form (a copy of the
        field: an inherited one is also its parent's)."""
        fields = super().__transform_fields__(fields)
        changed = []
        for f in fields:
            kind = wire_type(f.type)
            if kind is not None and f.converter is None:
                f = copy.copy(f)
                f.converter = WIRE_TYPES[kind]
            changed.append(f)
        return changed


class Event(DataClass, metaclass=EventMeta, frozen=True):
    """Base of events; ``class OrderPlaced(Event, topic='orders')`` declares one."""

    __topic__: ClassVar[Optional[str]]

    def to_message(self) -> 'tuple[str, dict[str, Any]]':
        """``(topic, payload)``: the fields, with wire types as ISO strings."""
        if self.__topic__ is None:
            raise TypeError(f'{type(self).__name__!r} has no topic: declare one with topic=...')
        payload = asdict(self)
        for f in fields(self):
            if wire_type(f.type) is not None:
                value = payload[f.name]
                payload[f.name] = str(value) if isinstance(value, Decimal) else value.isoformat()
        return self.__topic__, payload

    @classmethod
    def from_message(cls, message: 'tuple[str, dict[str, Any]]') -> 'Event':
        """The event of ``message``, a ``(topic, payload)`` pair from ``to_message``."""
        topic, payload = message
        if topic != cls.__topic__:
            raise ValueError(f'{cls.__name__!r} is published on {cls.__topic__!r}, '
                             f'not {topic!r}')
        return cls(**payload)
