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


class Hashed(DataClass, unsafe_hash=True):
    x: int


class HashedChild(Hashed):
    y: int = 0


print({HashedChild(1): 1})  # E[pyright]: unhashable to pyright; hashable at runtime


class NoInit(DataClass, init=False):
    x: int

    def __init__(self) -> None:
        self.x = 0


class NoInitChild(NoInit):
    y: int = 0


NoInitChild()  # E: checkers synthesize (x, y=0); at runtime the inherited __init__()


class NoMatch(DataClass, match_args=False):
    x: int


class NoMatchChild(NoMatch):
    y: int = 0


print(NoMatchChild.__match_args__)  # checkers synthesize it; AttributeError at runtime
