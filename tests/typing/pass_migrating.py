"""docs/migrating.md's "Set options once, on a base", verbatim from ``import sys``:
every checker accepts the transform root and its subclasses."""
import sys

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10
    from typing_extensions import dataclass_transform

from dataclass_meta import DataClass, field


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
class Model(DataClass, frozen=True, kw_only=True):
    """No fields: the options, for the runtime and for type checkers."""


class Record(Model):
    id: int = 0


class User(Record):                  # frozen and keyword-only, without saying so
    name: str


User(name='Ann')                     # -> User(id=0, name='Ann')
User.__dataclass_params__.frozen     # -> True
