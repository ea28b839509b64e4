"""Class keywords are not inherited in the checkers' eyes (PEP 681): the
runtime makes ``Child`` frozen, the checkers call it non-frozen. Repeat the
keyword, or re-declare ``dataclass_transform`` on the framework base."""
from dataclass_meta import DataClass


class Model(DataClass, frozen=True, kw_only=True, order=True):
    id: int


class Child(Model):  # E: non-frozen class inherits from a frozen one
    name: str


class Repeated(Model, frozen=True, kw_only=True):
    name: str


Repeated(id=1, name='a')
Repeated(1, 'a')  # E: keyword-only
print(Repeated(id=1, name='a') < Repeated(id=2, name='b'))
