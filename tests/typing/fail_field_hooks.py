"""What the checkers make of ``field()``'s converter, validator and alias without
plugins. pyright, ty and pyrefly follow the typing spec: a converted field's
``__init__`` parameter (and its assignment) takes the converter's input type.
mypy knows ``alias`` but not ``converter`` (``dataclass_meta.mypy_plugin`` adds
it: ``mypy_plugin/fail_converters.py``)."""
from typing import Any

from dataclass_meta import DataClass, Field, field, replace


def to_port(value: str | int) -> int:
    return int(value)


def non_negative(instance: Any, field: Field[Any], value: int) -> None:
    if value < 0:
        raise ValueError(field.name)


class Server(DataClass):
    host: str = field(alias='hostname')
    port: int = field(default='8080', converter=to_port, validator=non_negative)
    timeout: float = field(default=1, converter=float)


Server('example.org', '80')  # E[mypy]: the converter's input, an int for plain mypy
Server('example.org', port=b'80')  # E: not the converter's input
Server('example.org', timeout=[1.5])  # E: not float()'s input
Server(host='example.org')  # E: the parameter is the alias
s = Server('example.org')
s.port = '81'  # E[mypy]: assignment converts; an int for plain mypy
port: int = s.port  # E[pyrefly]: pyrefly narrows the attribute to the str assigned
s.port = b'81'  # E: not the converter's input
replace(s, port='81')  # E[mypy]: replace() converts; an int for plain mypy
replace(s, port=b'81')  # E[mypy,pyrefly]: pyright and ty do not check replace()'s changes


class Frozen(DataClass, frozen=True):
    port: int = field(default=0, converter=to_port)


f = Frozen('80')  # E[mypy]: the converter's input, an int for plain mypy
f.port = 81  # E: frozen


class Wrong(DataClass):
    a: int = field(default=b'1', converter=to_port)  # E: the default is the converter's input
    b: str = field(default=1, converter=to_port)  # E: the converter returns an int
    c: str = field(default='', validator=non_negative)  # E: the validator takes an int
    d: int = field(default=0, validator=print)


class Lambda(DataClass):
    n: int = field(default=0, converter=lambda value: int(value))


Lambda('7')  # E[mypy,pyright,ty]: a lambda's parameter is typed from the field
