"""With ``dataclass_meta.mypy_plugin``, mypy types ``field(converter=...)`` as the
typing spec says and as pyright, ty and pyrefly do: a converted field's
``__init__`` parameter, ``replace()`` change and assignment take the converter's
input type; reading the attribute gives the field's own type."""
import dataclasses
from decimal import Decimal
from typing import Any, overload

from typing_extensions import assert_type

from dataclass_meta import DataClass, Field, field, replace


def to_port(value: str | int) -> int:
    return int(value)


def non_negative(instance: Any, field: Field[Any], value: int) -> None:
    if value < 0:
        raise ValueError(field.name)


@overload
def to_level(value: str) -> int: ...
@overload
def to_level(value: bytes) -> int: ...
def to_level(value: str | bytes) -> int:
    return len(value)


def lenient(value):  # unannotated: anything goes for mypy
    return str(value)


class Server(DataClass):
    host: str = field(alias='hostname')
    port: int = field(default='8080', converter=to_port, validator=non_negative)
    timeout: float = field(default=1, converter=float)
    price: Decimal = field(default='0', converter=Decimal)
    tags: tuple[str, ...] = field(default_factory=list, converter=tuple)
    level: int = field(default='', converter=to_level)
    note: str = field(default=None, converter=lenient)
    _id: int = field(default='0', converter=int, alias='id', kw_only=True)


s = Server('example.org', '80', '2.5', '9.99', ['a', 'b'], b'xx', 3, id='7')
assert_type(s.port, int)
assert_type(s.timeout, float)
assert_type(s.price, Decimal)
assert_type(s.tags, tuple[str, ...])
assert_type(s._id, int)
assert (s.port, s.timeout, s.tags, s.level, s.note, s._id) == (
    80, 2.5, ('a', 'b'), 2, '3', 7)
assert Server(hostname='h', port=80, level='abc').level == 3

s.port = '8081'                      # assignment converts too (not frozen)
assert_type(s.port, int)
assert s.port == 8081
assert replace(s, port='81', id='8').port == 81


class Child(Server):                 # inherited converters convert here too
    extra: bool = False


assert Child('h', '1', extra=True).port == 1


class Frozen(DataClass, frozen=True):
    port: int = field(converter=to_port)


assert Frozen('80').port == 80
assert dataclasses.replace(Frozen('80'), port='81').port == 81
