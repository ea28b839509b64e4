"""Classes defined under ``from __future__ import annotations`` (string annotations)."""

from __future__ import annotations

import dataclasses
import typing
from typing import ClassVar

import dataclass_meta
from dataclass_meta import KW_ONLY, DataClass, InitVar


class Item(DataClass):
    name: str


class Order(DataClass):
    item: Item
    count: int = 1
    limit: ClassVar[int] = 10
    typed_limit: typing.ClassVar[int] = 20
    scale: InitVar[int] = 1
    other_scale: dataclasses.InitVar[int] = 1
    meta_scale: dataclass_meta.InitVar[int] = 1
    _: KW_ONLY
    note: str = ''

    def __post_init__(self, scale, other_scale, meta_scale):
        self.count *= scale * other_scale * meta_scale


class Line(DataClass):
    item: Item
    count: int = 1
