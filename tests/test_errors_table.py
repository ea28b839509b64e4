"""Every class definition the stdlib rejects, defined both ways: the same
exception type from ``@dataclasses.dataclass`` and ``DataClass``, and our message
starts with the stdlib's.

Each row gives Python 3.13's text and what we add after it (the classes and
the parent involved); ours must say exactly text + context on every Python, and
the stdlib is checked against the text from the version that says it (older
ones worded a few of these differently).
"""

import dataclasses
import sys
import types
import typing
from dataclasses import KW_ONLY, InitVar

import pytest

import dataclass_meta


class Case(typing.NamedTuple):
    id: str
    error: type
    message: str
    body: object                 # field -> namespace (with '__annotations__')
    options: dict = {}
    parent: tuple = None         # (body, options) of a data-class parent
    since: tuple = (3, 10)       # first stdlib that says exactly `message`
    context: str = ''            # what our message adds after the stdlib's


def ns(annotations=None, **values):
    return {'__annotations__': dict(annotations or {}), **values}


def method(self, *args):
    return NotImplemented


_313 = (3, 13)  # 3.13 names the default argument / drops the '.' before 'Consider'

CASES = [
    Case('mutable default list', ValueError,
         "mutable default <class 'list'> for field x is not allowed: use default_factory",
         lambda field: ns({'x': list}, x=[])),
    Case('mutable default dict', ValueError,
         "mutable default <class 'dict'> for field x is not allowed: use default_factory",
         lambda field: ns({'x': dict}, x={})),
    Case('mutable default set', ValueError,
         "mutable default <class 'set'> for field x is not allowed: use default_factory",
         lambda field: ns({'x': set}, x=set())),
    Case('mutable default through field()', ValueError,
         "mutable default <class 'list'> for field x is not allowed: use default_factory",
         lambda field: ns({'x': list}, x=field(default=[]))),
    Case('default and default_factory', ValueError,
         'cannot specify both default and default_factory',
         lambda field: ns({'x': int}, x=field(default=1, default_factory=int))),
    Case('non-default after default', TypeError,
         "non-default argument 'y' follows default argument 'x'",
         lambda field: ns({'x': int, 'y': int}, x=0), since=_313),
    Case('non-default after default across inheritance', TypeError,
         "non-default argument 'y' follows default argument 'x'",
         lambda field: ns({'y': int}),
         parent=(lambda field: ns({'x': int}, x=0), {}), since=_313,
         context=" ('x' has its default from parent 'P')"),
    Case('non-default InitVar after default', TypeError,
         "non-default argument 'y' follows default argument 'x'",
         lambda field: ns({'x': int, 'y': InitVar[int]}, x=0), since=_313),
    Case('two KW_ONLY markers', TypeError,
         "'_b' is KW_ONLY, but KW_ONLY has already been specified",
         lambda field: ns({'_a': KW_ONLY, 'x': int, '_b': KW_ONLY})),
    Case('ClassVar with default_factory', TypeError,
         'field x cannot have a default factory',
         lambda field: ns({'x': typing.ClassVar[list]}, x=field(default_factory=list))),
    Case('InitVar with default_factory', TypeError,
         'field x cannot have a default factory',
         lambda field: ns({'x': InitVar[list]}, x=field(default_factory=list))),
    Case('ClassVar with kw_only', TypeError,
         'field x is a ClassVar but specifies kw_only',
         lambda field: ns({'x': typing.ClassVar[int]}, x=field(default=0, kw_only=True))),
    Case('field() without annotation', TypeError,
         "'y' is a field but has no type annotation",
         lambda field: ns({'x': int}, y=field(default=0))),
    Case('order without eq', ValueError, 'eq must be true if order is true',
         lambda field: ns({'x': int}), {'order': True, 'eq': False}),
    *[Case(f'explicit {name} with order', TypeError,
           f'Cannot overwrite attribute {name} in class C Consider using '
           f'functools.total_ordering',
           lambda field, name=name: ns({'x': int}, **{name: method}),
           {'order': True}, since=_313)
      for name in ('__lt__', '__le__', '__gt__', '__ge__')],
    Case('explicit __setattr__ with frozen', TypeError,
         'Cannot overwrite attribute __setattr__ in class C',
         lambda field: ns({'x': int}, __setattr__=method), {'frozen': True}),
    Case('explicit __delattr__ with frozen', TypeError,
         'Cannot overwrite attribute __delattr__ in class C',
         lambda field: ns({'x': int}, __delattr__=method), {'frozen': True}),
    Case('explicit __hash__ with unsafe_hash', TypeError,
         'Cannot overwrite attribute __hash__ in class C',
         lambda field: ns({'x': int}, __hash__=method), {'unsafe_hash': True}),
    Case('non-frozen from frozen', TypeError,
         'cannot inherit non-frozen dataclass from a frozen one',
         lambda field: ns({'y': int}), {'frozen': False},
         parent=(lambda field: ns({'x': int}), {'frozen': True}),
         context=": 'C' is not frozen, its parent 'P' is: derive the mutable classes from a "
                 "non-frozen base beside 'P', sharing their methods through a mixin that is "
                 "not a data class"),
    Case('frozen from non-frozen', TypeError,
         'cannot inherit frozen dataclass from a non-frozen one',
         lambda field: ns({'y': int}), {'frozen': True},
         parent=(lambda field: ns({'x': int}), {'frozen': False}),
         context=": 'C' is frozen, its parent 'P' is not: derive the frozen classes from a "
                 "frozen base beside 'P', sharing their methods through a mixin that is not "
                 "a data class"),
    # 3.11+: gh-91215 added weakref_slot.
    Case('weakref_slot without slots', TypeError,
         'weakref_slot is True but slots is False',
         lambda field: ns({'x': int}), {'weakref_slot': True, 'slots': False},
         since=(3, 11)),
    Case('slots with explicit __slots__', TypeError, 'C already specifies __slots__',
         lambda field: ns({'x': int}, __slots__=('x',)), {'slots': True}),
]


def define_stdlib(case):
    bases = ()
    if case.parent is not None:
        body, options = case.parent
        parent = types.new_class('P', (), {}, lambda n: n.update(body(dataclasses.field)))
        bases = (dataclasses.dataclass(**options)(parent),)
    cls = types.new_class('C', bases, {},
                          lambda n: n.update(case.body(dataclasses.field)))
    return dataclasses.dataclass(**case.options)(cls)


def define_ours(case):
    bases = (dataclass_meta.DataClass,)
    if case.parent is not None:
        body, options = case.parent
        bases = (types.new_class('P', bases, options,
                                 lambda n: n.update(body(dataclass_meta.field))),)
    return types.new_class('C', bases, case.options,
                           lambda n: n.update(case.body(dataclass_meta.field)))


@pytest.mark.parametrize('case', CASES, ids=[case.id for case in CASES])
def test_rejected_definition(case):
    """The definition fails with 3.13's exception type, as @dataclass's does, and
    a message that is 3.13's text, then our context."""
    with pytest.raises(case.error) as ours:
        define_ours(case)
    assert type(ours.value) is case.error
    assert str(ours.value) == case.message + case.context
    if sys.version_info >= case.since:
        with pytest.raises(case.error) as std:
            define_stdlib(case)
        assert type(std.value) is type(ours.value)
        assert str(std.value) == case.message


def test_table_covers_stdlib_definition_errors():
    """Each message the stdlib raises while defining a class has a row here."""
    messages = ' | '.join(case.message for case in CASES)
    for fragment in ('mutable default', 'both default and default_factory',
                     'follows default argument', 'KW_ONLY has already been specified',
                     'cannot have a default factory', 'ClassVar but specifies kw_only',
                     'has no type annotation', 'eq must be true if order is true',
                     'Consider using functools.total_ordering', 'attribute __setattr__',
                     'attribute __delattr__', 'attribute __hash__',
                     'non-frozen dataclass from a frozen', 'frozen dataclass from a non-frozen',
                     'weakref_slot is True but slots is False', 'already specifies __slots__'):
        assert fragment in messages, fragment
