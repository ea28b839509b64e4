"""Errors under a framework base that re-declares dataclass_transform."""
from typing_extensions import dataclass_transform

from dataclass_meta import DataClass, field


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
class Model(DataClass, frozen=True, kw_only=True):
    id: int


class User(Model):
    name: str


u = User(id=1, name='a')
u.name = 'b'  # E: frozen, inherited from Model
User(1, 'a')  # E: keyword-only, inherited from Model


class Thawed(Model, frozen=False):  # E[mypy,pyright,pyrefly]: non-frozen under frozen (ty 1.0.0 misses it)
    x: int = 0


class Staff(User, kw_only=False):
    level: int


class Boss(Staff):
    reports: int = 0


Boss(2, 5, id=4, name='b')  # E: reports is keyword-only (Model's declaration)
