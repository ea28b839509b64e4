"""A framework's field hook and metaclass methods, typed: the hook gets and returns
our ``Field`` (``alias``, ``converter``, ``validator`` and ``__replace__`` are
there), and ``fields(cls)`` accepts a class seen as an instance of the metaclass."""
import dataclasses
from typing import Any

from typing_extensions import assert_type

from dataclass_meta import DataClass, DataClassMeta, Field, field, fields

REGISTRY: dict[str, list[str]] = {}


def strip(value: object) -> str:
    return str(value).strip()


class ModelMeta(DataClassMeta):
    """Every model's string fields are stripped; its parameters are registered."""

    def __transform_fields__(cls, fields: list[Field[Any]]) -> list[Field[Any]]:
        changed = [f.__replace__(converter=strip) if f.type is str and f.converter is None
                   else f for f in fields]
        return super().__transform_fields__(changed)

    def __init__(cls, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                 /, **kwargs: Any) -> None:
        super().__init__(name, bases, namespace, **kwargs)
        parameters: list[str | None] = [f.alias for f in fields(cls) if f.init]
        REGISTRY[name] = [p for p in parameters if p is not None]


class Model(DataClass, metaclass=ModelMeta):
    @classmethod
    def __transform_fields__(cls, fields: list[Field[Any]]) -> list[Field[Any]]:
        checked = []
        for f in fields:
            if f.alias == f.name and f.name.startswith('_'):
                f = f.__replace__(alias=f.name.lstrip('_'))
            if f.validator is None:
                f = f.__replace__(metadata={**f.metadata, 'checked': False})
            checked.append(f)
        return super().__transform_fields__(checked)


class User(Model):
    name: str
    _secret: str = field(default='')
    age: int = field(default=0, validator=lambda instance, f, value: None)


user = User('  Ann ', ' s ')  # checkers do not see the alias the hook gives
assert (user.name, user._secret) == ('Ann', 's')
assert REGISTRY['User'] == ['name', 'secret', 'age']
assert_type(fields(User), tuple[Field[Any], ...])
assert_type(fields(user)[0].alias, str | None)
assert [f.metadata.get('checked') for f in fields(User)] == [False, False, None]


@dataclasses.dataclass
class Plain:
    a: int


assert_type(fields(Plain), tuple[dataclasses.Field[Any], ...])
