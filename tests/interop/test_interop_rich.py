"""rich pretty-prints data classes field by field (it needs the generated repr)."""

import pytest
from rich.pretty import pretty_repr

from test_interop_stdlib import _stdlib_twin


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


def _twins(backend):
    """The same small model as ``@dataclass`` classes and as ``DataClass``es
    made on ``backend``: a parent with a nested child, a list, a field left
    out of repr, a field that may be unset, a hand-written repr, and a class
    without a generated repr."""
    import dataclasses

    from dataclass_meta import DataClass, field
    from dataclass_meta._backend import use

    def define(ours):
        fld = field if ours else dataclasses.field
        if ours:
            def make(name, ns, **options):
                ns['__module__'] = __name__
                return type(DataClass)(name, (DataClass,), ns, **options)
        else:
            def make(name, ns, **options):
                ns['__module__'] = __name__
                return dataclasses.dataclass(type(name, (), ns), **options)
        Child = make('Child', {'__annotations__': {'label': str, 'size': int},
                               'size': 1}, frozen=True)
        Parent = make('Parent', {
            '__annotations__': {'name': str, 'child': object, 'items': list,
                                'secret': str, 'maybe': int},
            'items': fld(default_factory=list), 'secret': fld(default='s', repr=False),
            'maybe': fld(default=0, init=True)})
        Plain = make('Plain', {'__annotations__': {'x': int}}, repr=False)
        Custom = make('Custom', {'__annotations__': {'x': int},
                                 '__repr__': lambda self: 'Custom(***)'})
        return Child, Parent, Plain, Custom

    with use(backend):
        ours = define(True)
    return define(False), ours


def _samples(Child, Parent, Plain, Custom):
    long = Parent('a-rather-long-name', Child('first-child-label', 7),
                  [Child('x' * 12), Plain(3), Custom(4)])
    unset = Parent('u', None)
    object.__delattr__(unset, 'maybe')  # a field not set on the instance
    looped = Parent('loop', None)
    looped.items.append(looped)  # recursion
    return [long, unset, looped, Parent('e', Child('c')), [Child('a'), Child('b')]]


def _backends():
    from dataclass_meta._backend import available
    return [pytest.param(b, id=b.name) for b in available()]


def pytest_generate_tests(metafunc):
    if 'rich_backend' in metafunc.fixturenames:
        metafunc.parametrize('rich_backend', _backends())


def test_rich_and_pprint_as_for_stdlib_on_each_backend(rich_backend):
    """``rich.pretty`` and ``pprint`` print our instances exactly as the
    ``@dataclass`` twins, at every width and depth, on each backend."""
    import pprint
    import re

    def same(text):  # object addresses differ
        return re.sub(r' at 0x[0-9a-f]+|id=[0-9]+', '', text)

    std, ours = _twins(rich_backend)
    for s, o in zip(_samples(*std), _samples(*ours)):
        for width in (10, 30, 60, 200):
            assert same(pretty_repr(o, max_width=width)) == same(pretty_repr(s, max_width=width))
            assert same(pprint.pformat(o, width=width)) == same(pprint.pformat(s, width=width))
        for depth in (1, 2):
            assert same(pretty_repr(o, max_depth=depth)) == same(pretty_repr(s, max_depth=depth))
            assert same(pprint.pformat(o, depth=depth)) == same(pprint.pformat(s, depth=depth))


def test_rich_repr_only_for_a_generated_repr(rich_backend):
    """``__rich_repr__`` gives the fields only while ``__repr__`` is generated:
    a subclass's hand-written ``__repr__`` wins, and ``repr=False`` gives None."""
    std, ours = _twins(rich_backend)
    Child, Parent, Plain, Custom = ours
    assert Parent('p', None).__rich_repr__() == [
        ('name', 'p'), ('child', None), ('items', []), ('maybe', 0)]
    assert Plain(1).__rich_repr__() is None and Custom(1).__rich_repr__() is None

    class Sub(Parent):
        def __repr__(self):
            return 'Sub!'
    assert Sub('s', None).__rich_repr__() is None
    assert pretty_repr([Sub('s', None)]) == '[Sub!]'
