"""``field()``'s converter, validator and alias in code every checker accepts,
mypy without the plugin included: the calls pass values of each field's own
type, which its converter accepts too (``mypy_plugin/pass_converters.py`` passes
the converters' other inputs)."""
from typing import Any

from typing_extensions import assert_type

from dataclass_meta import DataClass, Field, field, fields, replace


def to_port(value: str | int) -> int:
    return int(value)


def non_negative(instance: Any, field: Field[Any], value: int) -> None:
    if value < 0:
        msg = f'{field.name} must not be negative'
        raise ValueError(msg)


class Server(DataClass):
    host: str = field(alias='hostname')
    port: int = field(default='8080', converter=to_port, validator=non_negative)
    retries: int = field(default=3, validator=[non_negative, non_negative])
    timeout: float = field(default=1, converter=float)
    tags: tuple[str, ...] = field(default_factory=list, converter=tuple)
    _id: int = field(default=0, alias='id', kw_only=True)


s = Server('example.org', 80, id=7)
t = Server(hostname='example.org', port=443, retries=0, timeout=2.5, tags=('a',))
assert_type(s.port, int)
assert_type(s.timeout, float)
assert_type(t.tags, tuple[str, ...])
assert_type(s._id, int)
assert (s.host, s.port, s.timeout, s._id, t.tags) == ('example.org', 80, 1.0, 7, ('a',))
assert Server('example.org').port == 8080   # the default, converted
assert Server('example.org').tags == ()     # the factory's list, converted

s.port = 8081
assert replace(s, port=81).port == 81
assert replace(s, id=8)._id == 8            # replace() takes the alias, as __init__ does

host_field = fields(Server)[0]
assert isinstance(host_field, Field)
alias: str | None = host_field.alias
assert (alias, host_field.converter, host_field.validator) == ('hostname', None, None)
