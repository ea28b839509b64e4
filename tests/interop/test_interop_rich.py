"""rich pretty-prints data classes field by field (it needs the generated repr)."""

import pytest
from rich.pretty import pretty_repr

import dataclass_meta
from test_interop_stdlib import _stdlib_twin

# rich takes a repr for a data class's when ``__repr__.__code__`` lives in
# dataclasses or reprlib. A compiled ``__repr__`` has no ``__code__``: rich needs
# another way to see our instances, which is not on this branch yet. strict: the
# marker fails the run once that way exists, so it cannot outlive the gap.
_NEEDS_ANOTHER_WAY = pytest.mark.xfail(
    dataclass_meta.BACKEND == 'compiled', strict=True,
    reason='rich reads __repr__.__code__, which compiled functions do not have')


@_NEEDS_ANOTHER_WAY
def test_pretty_repr_field_by_field(person):
    """Too wide for one line: one field per line, nested classes expanded."""
    assert pretty_repr(person, max_width=40) == '\n'.join([
        'Person(',
        "    name='Ann',",
        '    age=42,',
        '    address=Address(',
        "        street='1 Main St',",
        "        city='Springfield',",
        "        postcode='SP1'",
        '    ),',
        '    tags=[',
        "        Tag(name='admin', weight=3),",
        "        Tag(name='staff', weight=1)",
        '    ],',
        "    nickname='annie'",
        ')'])


@_NEEDS_ANOTHER_WAY
def test_same_as_stdlib(person):
    """The same values in ``@dataclass`` classes print identically."""
    for width in (20, 40, 80, 200):
        assert pretty_repr(person, max_width=width) == pretty_repr(
            _stdlib_twin(person), max_width=width)


def test_custom_repr_is_respected(models):
    """A class's own ``__repr__`` wins, as for stdlib data classes."""
    class Secret(models.Address.__mro__[1]):
        token: str

        def __repr__(self):
            return 'Secret(***)'

    assert pretty_repr([Secret('t')]) == '[Secret(***)]'
