"""Module-level data classes and workers for the thread and process tests.

Pickle finds classes by module and qualname, so a child process (``spawn`` too)
can only rebuild instances of classes that live in an importable module.
"""

import copy
import os
import pickle
from typing import ClassVar, Optional

from dataclass_meta import DataClass, KW_ONLY, astuple, field, fields


class Point(DataClass, order=True):
    x: int
    y: int = 0


class Frozen(DataClass, frozen=True):
    name: str
    tags: tuple = ()


class Slotted(DataClass, slots=True):
    a: int
    b: list = field(default_factory=list)


class FrozenSlotted(DataClass, frozen=True, slots=True, weakref_slot=True):
    x: int
    y: float = 0.5
    _: KW_ONLY
    label: str = 'p'


class Settings(DataClass, frozen=True, kw_only=True):
    """Options inherited: subclasses are frozen and keyword-only too."""
    debug: bool = False


class ServerSettings(Settings):
    host: str
    port: int = 8080


class Nested(DataClass):
    point: Point
    frozen: Frozen
    slotted: Slotted
    children: list = field(default_factory=list)
    cached: int = field(default=0, init=False, compare=False)
    counter: ClassVar[int] = 0


class Node(DataClass):
    value: object
    next: Optional['Node'] = None


class SlowRepr:
    """A value whose repr yields the GIL, so that threads interleave inside repr."""

    def __repr__(self):
        os.sched_yield()
        return 'slow'


def sample():
    """One instance of each class, nested ones included."""
    frozen = Frozen('f', ('a', 'b'))
    slotted = Slotted(1, [Point(1, 2)])
    nested = Nested(Point(3), frozen, slotted, [FrozenSlotted(1), Point(4, 5)])
    nested.cached = 7
    return [Point(1, 2), frozen, slotted, FrozenSlotted(2, 1.5, label='q'),
            ServerSettings(host='h', debug=True), nested]


def roundtrip(obj):
    """A worker: return what it was given, so the pool pickles it both ways."""
    return obj


def inspect_in_child(obj):
    """A worker: what the child sees of an instance, as plain values."""
    return (os.getpid(), type(obj).__qualname__, repr(obj), astuple(obj),
            [f.name for f in fields(obj)])


def rebuild(data):
    """A worker: unpickle bytes made by the parent and pickle the result back."""
    return pickle.dumps(pickle.loads(data))


def frozen_guard(obj):
    """A worker: the error assigning to the first field of a copy, by type name."""
    name = fields(obj)[0].name
    try:
        setattr(copy.copy(obj), name, None)
    except Exception as exc:  # noqa: BLE001 - reported to the parent
        return type(exc).__name__, str(exc)
    return None


def send_back(connection, obj):
    """A process target: send an instance back through a pipe."""
    connection.send((obj, replace_first(obj)))
    connection.close()


def replace_first(obj):
    """A copy of ``obj`` with its first field doubled (recursively for data
    classes), made in whichever process."""
    from dataclass_meta import is_dataclass, replace
    name = fields(obj)[0].name
    value = getattr(obj, name)
    return replace(obj, **{name: replace_first(value) if is_dataclass(value) else value * 2})
