"""Fields merged from bases (reverse MRO) match ``@dataclass``'s order and
overrides, for chains, diamonds and mixins; deep chains stay cheap to build."""

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import DataClass


def build(spec, ours):
    """Classes from (bases as indexes into earlier classes, own field defaults)."""
    made = []
    for i, (base_ids, own) in enumerate(spec):
        bases = tuple(made[j] for j in base_ids)
        ns = {'__annotations__': {name: int for name in own}, **own}
        if ours:
            made.append(type(DataClass)(f'K{i}', bases or (DataClass,), ns))
        else:
            made.append(dataclasses.dataclass(type(f'K{i}', bases, ns)))
    return made


def hierarchies():
    """Up to six classes, each with up to two earlier bases and a few fields."""
    def one(i):
        return st.tuples(
            st.lists(st.integers(0, max(i - 1, 0)), unique=True, max_size=2 if i else 0),
            st.dictionaries(st.sampled_from('abcdef'), st.integers(0, 9), max_size=3))
    return st.integers(1, 6).flatmap(lambda n: st.tuples(*[one(i) for i in range(n)]))


@settings(max_examples=80, deadline=None)
@given(spec=hierarchies())
def test_merge_matches_stdlib(spec):
    """Every class of a random hierarchy has the stdlib's fields, order and defaults."""
    try:
        theirs = build(spec, ours=False)
    except TypeError:  # no consistent MRO (or another error): ours must refuse too
        with pytest.raises(TypeError):
            build(spec, ours=True)
        return
    mine = build(spec, ours=True)
    for a, b in zip(mine, theirs):
        assert ([(n, f.default) for n, f in a.__dataclass_fields__.items()]
                == [(n, f.default) for n, f in b.__dataclass_fields__.items()])


def test_deep_chain_has_every_field_in_order():
    """A 150-deep chain, one field per level: all fields, oldest first."""
    cls = DataClass
    for level in range(150):
        cls = type(DataClass)(f'L{level}', (cls,), {'__annotations__': {f'f{level}': int},
                                                  f'f{level}': level})
    assert list(cls.__dataclass_fields__) == [f'f{i}' for i in range(150)]
    assert cls().f149 == 149
