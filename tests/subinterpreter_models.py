"""What tests/test_subinterpreters.py runs in the main interpreter and in
subinterpreters alike: classes importable by both (so that instances pickle
between them) and ``exercise()``, which defines and uses data classes and
returns what it saw as plain text."""

import copy
import dataclasses
import inspect
import pickle

import dataclass_meta
from dataclass_meta import DataClass, FrozenInstanceError, asdict, astuple, field, replace


class Point(DataClass, frozen=True, order=True):
    x: int
    y: list = field(default_factory=list, compare=False)


@dataclasses.dataclass(frozen=True, order=True)
class StdPoint:
    x: int
    y: list = dataclasses.field(default_factory=list, compare=False)


class Slotted(DataClass, slots=True, weakref_slot=True):
    name: str
    tags: tuple = ()


def exercise():
    """Define and use data classes; what each step gave, as text."""
    seen = {'backend': dataclass_meta.BACKEND,
            'method type': type(Point.__dict__['__repr__']).__name__}

    class Node(DataClass, order=True, kw_only=True):
        value: int
        children: list = field(default_factory=list)

        def __post_init__(self):
            self.value = abs(self.value)

    class Frozen(DataClass, frozen=True, slots=True):
        a: int
        b: str = 'b'

    tree = Node(value=-1, children=[Node(value=2)])
    tree.children[0].children.append(tree)  # recursion: reprlib's guard
    seen['repr'] = repr(tree)
    seen['order'] = [Point(1) < Point(2), Point(2) <= Point(1), Node(value=1) > Node(value=0)]
    seen['eq'] = [Point(1, [1]) == Point(1, [2]), Slotted('a') == Slotted('a', ())]
    seen['hash'] = hash(Point(3)) == hash(Point(3, [4]))
    try:
        Frozen(1).a = 2
    except FrozenInstanceError as exc:
        seen['frozen'] = str(exc)
    seen['asdict'] = asdict(Frozen(1))
    seen['astuple'] = astuple(Slotted('s', (1,)))
    seen['replace'] = repr(replace(Frozen(1), b='c'))
    seen['copy'] = repr(copy.deepcopy(Slotted('s', (1,))))
    seen['pickle'] = repr(pickle.loads(pickle.dumps(Point(5, [6]))))
    seen['signature'] = str(inspect.signature(Node))
    try:
        Frozen()
    except TypeError as exc:
        seen['call error'] = str(exc).rpartition('.')[2]
    return seen


def load_and_dump(data):
    """Unpickle ``data`` (made in another interpreter): its repr, whether it equals
    its own copy, and the object pickled again here."""
    obj = pickle.loads(data)
    return repr(obj), obj == copy.copy(obj), pickle.dumps(obj)
