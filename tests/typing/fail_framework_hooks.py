"""What the checkers refuse in a framework's hook and metaclass methods."""
from typing import Any

from dataclass_meta import DataClass, DataClassMeta, Field, fields


class ModelMeta(DataClassMeta):
    def __transform_fields__(cls, fields: list[Field[Any]]) -> list[Field[Any]]:
        for f in fields:
            f.colour  # E: no such attribute
            f.__replace__(colour=1)  # E: no such field() parameter
            f.__replace__(init='yes')  # E: init is a bool
        return super().__transform_fields__(fields)

    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


class Model(DataClass, metaclass=ModelMeta):
    @classmethod
    def __transform_fields__(cls, fields: list[Field[Any]]) -> list[Field[Any]]:
        return [f.alias for f in fields]  # E: a list of str, not of fields


fields(42)  # E: not a data class
