"""Errors mypy finds with ``dataclass_meta.mypy_plugin`` in the use of converted
fields: what the converter does not accept, and what the plugin leaves alone."""
from typing import overload

from dataclass_meta import DataClass, field, replace


def to_port(value: str | int) -> int:
    return int(value)


@overload
def to_level(value: str) -> int: ...
@overload
def to_level(value: bytes) -> int: ...
def to_level(value: str | bytes) -> int:
    return len(value)


class Server(DataClass):
    host: str = field(alias='hostname')
    port: int = field(default=0, converter=to_port)
    retries: int = field(default=3, converter=int)
    level: int = field(default='', converter=to_level)


Server('h', b'80')  # E: not the converter's input
Server('h', retries=[3])  # E: not int()'s input
Server('h', level=3)  # E: no overload of the converter takes an int
Server(host='h')  # E: the parameter is the alias
s = Server('h')
s.port = b'81'  # E: not the converter's input
replace(s, port=b'81')  # E: not the converter's input
port: str = s.port  # E: the attribute is the converter's output


class Plain(Server):
    port: int = 0                    # declared again without a converter


Plain('h', '80')  # E: Plain's port is not converted
Plain('h', retries='3')              # still converted


class Frozen(DataClass, frozen=True):
    port: int = field(converter=to_port)


Frozen('80').port = '81'  # E: frozen: no assignment at all


class Own(DataClass):
    port: int = field(converter=to_port)

    def __init__(self, port: int) -> None:  # a hand-written __init__ is as written
        self.port = port


Own('80')  # E: Own's own __init__ takes an int
