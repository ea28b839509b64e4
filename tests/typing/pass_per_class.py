"""The options beyond the stdlib, the field hook and a slotted cached_property."""
import functools
from typing import Any

from typing_extensions import assert_type

from dataclass_meta import DataClass, DataClassMeta, Field, make_dataclass


class Key(DataClass, frozen=True, cache_hash=True, gc=False):
    name: str
    parts: tuple[str, ...] = ()


class Record(DataClass, gc=True, slots=True):
    value: float

    @functools.cached_property
    def doubled(self) -> float:
        return self.value * 2


class Framework(DataClass):
    @classmethod
    def __transform_fields__(cls, fields: list[Field[Any]]) -> list[Field[Any]]:
        return super().__transform_fields__(fields)


class Meta(DataClassMeta):
    def __transform_fields__(cls, fields: list[Field[Any]]) -> list[Field[Any]]:
        return super().__transform_fields__(fields)


class Model(Framework, unsafe_hash=True, cache_hash=True):
    x: int


assert_type(hash(Key('a')), int)
assert_type(Record(1.5).doubled, float)
assert Model(1) == Model(1) and hash(Model(1)) == hash(Model(1))
Built = make_dataclass('Built', [('a', int)], frozen=True, cache_hash=True, gc=False)
assert Built.__dataclass_params__.cache_hash
