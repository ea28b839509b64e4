"""``interop_models`` again, with every annotation a string (PEP 563)."""

from __future__ import annotations

from typing import Optional

from dataclass_meta import DataClass, field


class Tag(DataClass, frozen=True, slots=True):
    name: str
    weight: int = 1


class Address(DataClass):
    street: str
    city: str
    postcode: Optional[str] = None


class Person(DataClass):
    name: str
    age: int
    address: Address
    tags: list[Tag] = field(default_factory=list)
    nickname: Optional[str] = None
