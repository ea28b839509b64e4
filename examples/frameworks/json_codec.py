"""A JSON codec: ``to_json()`` and ``from_json()`` for nested data classes.

    class Order(JSONModel, rename='camel'):
        order_id: int
        placed_at: datetime
        items: list[Item]
        note: Optional[str] = None

    Order.from_json('{"orderId": 1, "placedAt": "2024-05-01T10:00:00", "items": []}')

Built on dataclass_meta's public extension points (docs/frameworks.md):
- ``rename=`` is the framework's own class keyword, taken by ``__init_subclass__``;
  the framework inherits it itself (a class attribute), as class keywords are not;
- the field hook (``__transform_fields__``) gives each field its JSON key in its
  ``metadata['json_key']`` (``field(metadata={'json': ...})``, else from the
  class's ``rename=``), before any method is made: ``fields()`` shows the keys;
- the hook after the fields are final refuses two fields sharing a key;
- the field types are resolved on first use, since annotations may name classes
  defined further down;
- ``from_json`` decodes every field before it calls the class, so bad input never
  leaves a partly built object; ``__init__`` and ``__post_init__`` run as usual.
"""

import datetime
import enum
import json
import sys
import types
import typing
from typing import Any

from dataclass_meta import MISSING, DataClass, Field, field, fields

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:
    from typing_extensions import dataclass_transform

__all__ = ['JSONModel', 'DecodeError', 'encode', 'decode', 'RENAMES']


class DecodeError(ValueError):
    """Input ``from_json`` refuses; the message starts with where: ``Order.items[1]``."""


def camel(name):
    first, *rest = name.split('_')
    return first + ''.join(word.capitalize() for word in rest)


RENAMES = {'none': lambda name: name, 'camel': camel,
           'kebab': lambda name: name.replace('_', '-')}
# Python type -> the JSON type named in error messages.
_JSON_TYPES = {dict: 'object', list: 'array', tuple: 'array', str: 'string',
               bool: 'boolean', int: 'integer', float: 'number', type(None): 'null'}


def _got(value):
    return f'got {_JSON_TYPES.get(type(value), type(value).__name__)} {value!r:.40}'


@dataclass_transform(field_specifiers=(field, Field))
class JSONModel(DataClass):
    """Base of JSON models; ``rename='camel'|'kebab'|'none'`` names the keys."""

    __json_rename__ = 'none'

    def __init_subclass__(cls, /, *, rename=None, **kwargs):
        rename = cls.__json_rename__ if rename is None else rename  # inherited
        if rename not in RENAMES:
            msg = (f'rename={rename!r} of {cls.__name__!r} is not supported: use one of '
                   f'{", ".join(map(repr, RENAMES))}')
            raise TypeError(msg)
        cls.__json_rename__ = rename  # for __transform_fields__, which super() calls
        super().__init_subclass__(**kwargs)  # the fields are final after this
        keys = {f.name: f.metadata['json_key'] for f in fields(cls) if f.init}
        if len(set(keys.values())) < len(keys):
            clash = [n for n, k in keys.items() if list(keys.values()).count(k) > 1]
            raise TypeError(f'fields {clash} of {cls.__name__!r} share a JSON key: rename one')
        cls.__json_keys__ = keys
        cls.__json_types__ = None  # resolved on first use

    def __transform_fields__(cls, fields):
        """Each field's JSON key into ``metadata['json_key']``: the one it names,
        else its name renamed by this class's rule (a subclass may rename anew)."""
        rename = RENAMES[cls.__json_rename__]
        keyed = []
        for f in fields:
            key = f.metadata.get('json') or rename(f.name)
            if f.metadata.get('json_key') != key:
                # an inherited field is its parent's too: change a copy
                # (copy.replace(f, ...) on 3.13+ calls this)
                f = f.__replace__(metadata={**f.metadata, 'json_key': key})
            keyed.append(f)
        return super().__transform_fields__(keyed)

    def to_dict(self):
        return encode(self)

    def to_json(self, **dumps_options):
        return json.dumps(encode(self), **dumps_options)

    @classmethod
    def from_dict(cls, data):
        return decode(data, cls, cls.__name__)

    @classmethod
    def from_json(cls, text):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DecodeError(f'{cls.__name__}: invalid JSON: {exc}') from None
        return decode(data, cls, cls.__name__)


def encode(value):
    """``value`` as plain JSON data."""
    if isinstance(value, JSONModel):
        return {key: encode(getattr(value, name))
                for name, key in value.__json_keys__.items()}
    if isinstance(value, enum.Enum):
        return encode(value.value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(f'cannot encode {type(value).__name__} {value!r} as JSON')


def decode(data, tp, path):
    """``data`` as a ``tp``; ``DecodeError`` naming ``path`` where it is not one."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any:
        return data
    if tp is None or tp is type(None):
        if data is not None:
            raise DecodeError(f'{path}: expected null, {_got(data)}')
        return None
    if origin is typing.Union or origin is types.UnionType:
        if data is None and type(None) in args:
            return None
        for arg in args:
            try:
                return decode(data, arg, path)
            except DecodeError:
                pass
        raise DecodeError(f'{path}: expected {" or ".join(map(_name, args))}, {_got(data)}')
    if origin in (list, tuple) and isinstance(data, list):
        return origin(decode(v, args[0], f'{path}[{i}]') for i, v in enumerate(data))
    if origin is dict and isinstance(data, dict):
        return {k: decode(v, args[1], f'{path}[{k!r}]') for k, v in data.items()}
    plain = origin is None and isinstance(tp, type)  # 3.10: list[int] passes for a type
    if plain and issubclass(tp, JSONModel) and isinstance(data, dict):
        return _decode_model(tp, data, path)
    if plain and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except (TypeError, ValueError):
            allowed = ', '.join(repr(m.value) for m in tp)
            raise DecodeError(f'{path}: expected one of {allowed}, {_got(data)}') from None
    if tp in (datetime.datetime, datetime.date, datetime.time) and isinstance(data, str):
        try:
            return tp.fromisoformat(data)
        except ValueError:
            raise DecodeError(f'{path}: expected an ISO {tp.__name__}, {_got(data)}') from None
    if tp in (str, int, bool) and type(data) is tp:
        return data
    if tp is float and type(data) in (int, float):
        return float(data)
    raise DecodeError(f'{path}: expected {_name(tp)}, {_got(data)}')


def _name(tp):
    origin = typing.get_origin(tp) or tp
    if isinstance(origin, type) and issubclass(origin, JSONModel):
        return f'{origin.__name__} object'
    return _JSON_TYPES.get(origin) or getattr(origin, '__name__', repr(origin))


def _decode_model(cls, data, path):
    """Every field decoded (or an error) before the class is called."""
    types_ = cls.__json_types__
    if types_ is None:
        hints = typing.get_type_hints(cls)
        types_ = cls.__json_types__ = {name: hints[name] for name in cls.__json_keys__}
    by_key = {key: name for name, key in cls.__json_keys__.items()}
    unknown = [key for key in data if key not in by_key]
    if unknown:
        msg = (f'{path}: unknown field {unknown[0]!r}: expected one of '
               f'{", ".join(by_key)}')
        raise DecodeError(msg)
    for f in fields(cls):
        if (f.init and cls.__json_keys__[f.name] not in data
                and f.default is MISSING and f.default_factory is MISSING):
            raise DecodeError(f'{path}: missing required field {cls.__json_keys__[f.name]!r}')
    kwargs = {by_key[key]: decode(value, types_[by_key[key]], f'{path}.{key}')
              for key, value in data.items()}
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:  # __init__ or __post_init__ refused
        raise DecodeError(f'{path}: {exc}') from exc
