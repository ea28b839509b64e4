"""Errors mypy finds with ``dataclass_meta.mypy_plugin`` in our own class keywords,
``cache_hash`` and ``gc``: those the runtime raises at class creation."""
from dataclass_meta import DataClass


class Unhashable(DataClass, cache_hash=True):  # E: no generated __hash__ to cache
    x: int


class NotABool(DataClass, frozen=True, gc=0):  # E: gc must be True or False
    x: int


class Key(DataClass, frozen=True, cache_hash=True):
    x: int


class Longer(Key):  # frozen inherited: a generated __hash__
    y: int = 0


class Loose(DataClass, unsafe_hash=True):
    x: int


class Cached(Loose, cache_hash=True):  # unsafe_hash inherited: fine
    y: int = 0


class NoEq(DataClass, frozen=True, eq=False, cache_hash=True):  # E: eq=False: no __hash__
    x: int
