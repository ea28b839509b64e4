"""InitVar and replace() errors; where the checkers differ, the mark says which."""
from dataclasses import InitVar

import dataclass_meta
from dataclass_meta import DataClass, replace


class Account(DataClass):
    owner: str
    opening: InitVar[int]

    def __post_init__(self, opening: int) -> None:
        self.balance = opening


Account('ann', 10)
Account('ann')  # E: the InitVar is a required argument
Account('ann', 'ten')  # E: the InitVar is an int
print(Account('ann', 1).opening)  # E: an InitVar is not an attribute
replace(Account('ann', 1), owner=2, opening=1)  # E[mypy,pyrefly]: owner is a str (pyright, ty do not check replace)
replace(Account('ann', 1), nickname='a', opening=1)  # E[mypy,pyrefly]: no field nickname


class Aliased(DataClass):
    opening: dataclass_meta.InitVar[int]

    def __post_init__(self, opening: int) -> None:  # E[pyright]: InitVar not from dataclasses
        pass


print(Aliased(1).opening)  # E[mypy,ty,pyrefly]: pyright misses it too, with this import
