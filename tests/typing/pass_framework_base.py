"""A framework base that re-declares dataclass_transform with its defaults:
subclasses are frozen and keyword-only to checkers, as they are at runtime."""
from typing_extensions import assert_type, dataclass_transform

from dataclass_meta import DataClass, field


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
class Model(DataClass, frozen=True, kw_only=True):
    id: int


class User(Model):
    name: str
    roles: list[str] = field(default_factory=list)


class Admin(User):
    level: int = 0


u = Admin(id=1, name='root', level=3)
assert_type(u.roles, list[str])
User(id=2, name='a', roles=['x'])


class Staff(User, kw_only=False):
    level: int


class Boss(Staff):  # keyword-only again: Model's declaration, not Staff's keyword
    reports: int = 0


Staff(1, id=3, name='s')
Boss(2, id=4, name='b', reports=5)
