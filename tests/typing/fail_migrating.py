"""What the checkers hold ``pass_migrating.py``'s classes to: the options of the
transform root, as the runtime applies them."""
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


u = User(name='Ann')
u.name = 'Bo'  # E: frozen, from Model
User(1, 'Bo')  # E: keyword-only, from Model


class Draft(User, frozen=False):  # E: non-frozen under frozen, as at runtime
    pass
