"""The per-implementation field readers agree with written-out attribute reads.

Both kinds are importable everywhere, so CPython's run checks PyPy's kind too.
"""


import pytest
from hypothesis import given, strategies as st

from dataclass_meta import _getters

TUPLE_GETTERS = [_getters._attrgetter_tuple, _getters._getattr_tuple]

# Prefixed: no keyword, and no clash with ``Logged``'s own attributes.
names_lists = st.lists(st.from_regex(r'f_[a-z0-9_]{0,6}', fullmatch=True),
                       unique=True, max_size=40).map(tuple)


class Logged:
    """Records each attribute read and each ``repr`` of a value it hands out."""

    def __init__(self, values, missing=()):
        object.__setattr__(self, 'log', [])
        object.__setattr__(self, 'values', values)
        object.__setattr__(self, 'missing', missing)

    def __getattr__(self, name):
        self.log.append(('read', name))
        if name in self.missing:
            raise AttributeError(name)
        return Value(self.log, name, self.values[name])


class Value:
    def __init__(self, log, name, value):
        self.log, self.name, self.value = log, name, value

    def __eq__(self, other):
        return self.value == other

    def __repr__(self):
        self.log.append(('repr', self.name))
        return repr(self.value)


@pytest.mark.parametrize('make', TUPLE_GETTERS, ids=lambda f: f.__name__)
@given(names=names_lists, data=st.data())
def test_tuple_getter_reads_like_a_written_out_tuple(make, names, data):
    """Same values, same reads in the same order, the first error raised."""
    values = {name: i for i, name in enumerate(names)}
    missing = set(data.draw(st.lists(st.sampled_from(names), max_size=2))) if names else set()
    obj, twin = Logged(values, missing), Logged(values, missing)
    try:
        expected = tuple(getattr(twin, name) for name in names)
    except AttributeError as exc:
        with pytest.raises(AttributeError, match=f'^{exc.args[0]}$'):
            make(names)(obj)
    else:
        assert make(names)(obj) == expected
    assert obj.log == twin.log


def test_tuple_getter_is_shared_and_right_for_each_implementation():
    """Equal names share one getter: ``attrgetter`` on CPython, ``getattr``
    closures on PyPy (the JIT cannot see into ``attrgetter``)."""
    import operator

    getter = _getters.tuple_getter(('a', 'b'))
    assert _getters.tuple_getter(('a', 'b')) is getter
    assert isinstance(getter, operator.attrgetter) is not _getters.PYPY


@given(data=st.data(), names=names_lists.filter(bool))
def test_unrolled_stores_store_in_order_and_call_factories(data, names):
    """PyPy's ``__init__`` stores: each field in step order, its value from
    ``values`` or, for the marker or no parameter, from its factory at its turn."""
    marker = object()
    log = []
    steps, values = [], []
    for name in names:
        kind = data.draw(st.sampled_from(['value', 'marker', 'no parameter']))
        factory = None if kind == 'value' else (lambda name=name: log.append(('call', name)) or name)
        if kind == 'no parameter':
            steps.append((name, None, factory))
        else:
            steps.append((name, len(values), factory))
            values.append(marker if kind == 'marker' else f'v_{name}')
    store = lambda obj, name, value: log.append(('store', name, value))  # noqa: E731
    _getters._chained([_getters._store_step(store, *step, marker) for step in steps])(
        None, tuple(values))
    expected = []
    for name, i, factory in steps:
        value = values[i] if i is not None else marker
        if value is marker:
            expected.append(('call', name))
            value = name
        expected.append(('store', name, value))
    assert log == expected
    assert (_getters.unrolled_stores(steps, store, marker) is None) is not _getters.PYPY
