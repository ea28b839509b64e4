"""InitVar, replace() and the module functions on data classes."""
import dataclasses
from collections.abc import Mapping
from dataclasses import InitVar  # pyright only knows InitVar imported from here

from typing_extensions import assert_type

import dataclass_meta
from dataclass_meta import DataClass, asdict, astuple, field, fields, is_dataclass, replace


class Account(DataClass):
    owner: str
    balance: int = field(init=False, default=0)
    opening: InitVar[int] = 0

    def __post_init__(self, opening: int) -> None:
        self.balance = opening


a = Account('ann', 10)
Account('bob', opening=5)
assert_type(replace(a, owner='cy'), Account)
assert_type(dataclasses.replace(a, owner='cy', opening=1), Account)
d: Mapping[str, object] = asdict(a)  # pyrefly infers dict[str, int | str]
t: tuple[object, ...] = astuple(a)
names = [f.name for f in fields(Account)] + [f.name for f in dataclasses.fields(a)]
if is_dataclass(a):
    print(dataclass_meta.fields(a))
