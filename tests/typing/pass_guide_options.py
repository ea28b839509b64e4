"""docs/guide.md's "Options as class keywords": its first example verbatim
from ``import sys``; every checker accepts it."""
import sys

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10
    from typing_extensions import dataclass_transform

from dataclass_meta import DataClass, field


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
class Model(DataClass, frozen=True, kw_only=True):
    """No fields: the options, for the runtime and for type checkers."""


class User(Model):          # frozen and kw_only too
    id: int = 0
    name: str


class Draft(Model, kw_only=False):   # still frozen, positional fields
    title: str


User(name='Ann')
Draft('notes')
