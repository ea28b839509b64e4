"""Classes defined under ``from __future__ import annotations`` (string annotations)."""

from __future__ import annotations

import dataclasses
import typing
from typing import ClassVar

import dataclass_meta
from dataclass_meta import KW_ONLY, DataClass, InitVar


class Proxy:
    """Pseudo-field markers reached through a dotted path (3.15 reads any depth)."""

    class Nested:
        ClassVar = typing.ClassVar
        InitVar = dataclasses.InitVar


class Deep(DataClass):
    x: int
    cv: Proxy.Nested.ClassVar[int] = 0
    iv: Proxy.Nested.InitVar[int] = 1
    missing: nowhere.ClassVar[int] = 2  # noqa: F821 (an unknown name: a plain field)


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
