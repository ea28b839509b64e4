"""A pickle made before the class changed, loaded after: what instances give.
The pure backend pickles by the stdlib's route, compared here with the same
classes made by ``@dataclass``; the compiled core's compact pickle carries the
field names and loads by name (tests/test_wire.py has the rest of its rules;
docs/guide.md, "Across processes")."""

import dataclasses
import pickle
import sys
import types

import pytest

from dataclass_meta import DataClass

BEFORE = '''
class C(BASE, frozen=FROZEN, slots=SLOTS):
    a: int
    c: int = 3
'''
AFTER = '''
class C(BASE, frozen=FROZEN, slots=SLOTS):
    a: int
    b: int = 9
    c: int = 3
'''


def _loaded_after_change(ours, frozen, slots):
    """(a, b, c) of C(1, 2) pickled with BEFORE's class and loaded with AFTER's."""
    name = f'evolving_{"ours" if ours else "std"}'
    module = types.ModuleType(name)
    module.__dict__.update(DataClass=DataClass, dataclasses=dataclasses)
    sys.modules[name] = module
    try:
        def define(source):
            source = source.replace('FROZEN', str(frozen)).replace('SLOTS', str(slots))
            head = f'class C(BASE, frozen={frozen}, slots={slots}):'
            source = source.replace(head, head.replace('BASE', 'DataClass') if ours else
                                    f'@dataclasses.dataclass(frozen={frozen}, slots={slots})\n'
                                    f'class C:')
            exec(source, module.__dict__)
        define(BEFORE)
        payload = pickle.dumps(module.C(1, 2))
        define(AFTER)
        loaded = pickle.loads(payload)
        return tuple(getattr(loaded, n, 'unset') for n in 'abc')
    finally:
        del sys.modules[name]


@pytest.mark.parametrize('frozen', [False, True])
def test_a_field_added_since_the_pickle(backend, slots, frozen):
    got = _loaded_after_change(True, frozen, slots)
    if backend.name == 'compiled':  # the compact pickle: by name, the default filled in
        assert got == (1, 9, 2)
        return
    assert got == _loaded_after_change(False, frozen, slots)
    # the stdlib's route. dict-based: the new field reads as the class's default;
    # slotted, by name: unset; frozen slotted (a list of values): the values
    # shift, as the stdlib's
    expected = ((1, 2, 'unset') if frozen and slots else (1, 'unset', 2) if slots
                else (1, 9, 2))
    assert got == expected
