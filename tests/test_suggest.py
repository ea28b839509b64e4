"""The "Did you mean" of unexpected keyword arguments: our port of the interpreter's rule."""

import sys

import pytest
from hypothesis import given, strategies as st

from dataclass_meta import _suggest

_names = st.text(st.sampled_from('abcABC_01é'), min_size=0, max_size=12)


@pytest.mark.skipif(sys.version_info < (3, 13), reason='3.13+ ships _suggestions')
@given(st.lists(_names, max_size=8), _names)
def test_port_agrees_with_the_interpreter(candidates, name):
    """``calculate_suggestions`` answers as ``_suggestions._generate_suggestions``."""
    import _suggestions
    assert (_suggest.calculate_suggestions(candidates, name)
            == _suggestions._generate_suggestions(candidates, name))


@pytest.mark.parametrize('candidates, name, expected', [
    (['self', 'p0', 'kw'], 'f0', 'p0'),
    (['self', 'p0', 'kw'], 'P0', 'p0'),          # a case change costs less
    (['self', 'p0', 'kw'], 'selff', 'self'),
    (['self', 'p0', 'kw'], 'zzzz', None),        # more than a third changed
    (['self', 'b'], 'aa', None),
    (['ab', 'ba'], 'aa', 'ab'),                  # the first of the closest
    (['a' * 41], 'b' * 41, None),                # beyond 40 after trimming affixes
    (['ab' * 30], 'ab' * 29 + 'b', 'ab' * 30),   # trimmed to short: found
    ([f'n{i}' for i in range(750)], 'n1x', None),  # too many candidates
])
def test_port_on_known_cases(candidates, name, expected):
    """Cases worked out from Python/suggestions.c."""
    assert _suggest.calculate_suggestions(candidates, name) == expected


def test_only_where_the_interpreter_suggests():
    """``did_you_mean`` is empty before 3.13, as the interpreter's errors are."""
    assert _suggest.did_you_mean('f0', ['self', 'p0']) == (
        ". Did you mean 'p0'?" if sys.version_info >= (3, 13) else '')
