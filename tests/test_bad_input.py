"""Bad input: a catalogue of wrong definitions and calls, each with its exact error.

Every case runs against ``DataClass`` and, where the stdlib has the case, against
``@dataclasses.dataclass`` in the same test:

- ``SAME``: the stdlib rejects it with the same type and (3.13, the contract) text;
- ``TYPE``: the stdlib rejects it with the same type, we word it better on purpose;
- ``ACCEPTS``: the stdlib lets it through, we reject it (reason in docs/reliability.md);
- ``None``: no stdlib counterpart (class keywords); our text names class, field, remedy.

A failing class definition must leave nothing behind: no registered subclass, no
live class object, no changed parent.
"""

import dataclasses
import gc
import sys
import types
import weakref
from dataclasses import KW_ONLY, InitVar
from typing import ClassVar, NamedTuple

import pytest

import dataclass_meta
from dataclass_meta import DataClass, FrozenInstanceError

from .implementation import mortal_classes  # noqa: F401

SAME, PREFIX, TYPE, ACCEPTS = 'same', 'prefix', 'type', 'accepts'
# The remedy after the frozen-inheritance errors: a family of the class's own kind.
_MUTABLE = (": derive the mutable classes from a non-frozen base beside '{}', sharing their "
            "methods through a mixin that is not a data class")
_FROZEN = (": derive the frozen classes from a frozen base beside '{}', sharing their "
           "methods through a mixin that is not a data class")
# 3.13's dataclasses is the contract: older ones word some cases differently,
# raise ValueError from replace() and miss some checks, so we compare on 3.13+.
STDLIB_CONTRACT = sys.version_info >= (3, 13)
OPTIONS = ('init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only, slots, '
           'weakref_slot, cache_hash, gc, untrack_atomic')


class Unhashable:
    """A default whose class sets ``__eq__`` without ``__hash__``."""

    def __eq__(self, other):
        return self is other


class Dialect:
    """One way to make data classes: ``DataClass`` keywords or the stdlib decorator."""

    def __init__(self, ours):
        self.ours = ours
        self.created = []
        lib = dataclass_meta if ours else dataclasses
        self.field, self.fields, self.replace = lib.field, lib.fields, lib.replace
        self.asdict, self.astuple = lib.asdict, lib.astuple
        self.make_dataclass = lib.make_dataclass

    def make(self, name, annotations=None, namespace=None, bases=(), **options):
        """Define ``class name(*bases, **options)`` with this body, as a class statement."""
        body = {'__module__': __name__, '__qualname__': name,
                '__annotations__': dict(annotations or {}), **(namespace or {})}
        if self.ours:
            cls = types.new_class(name, bases or (DataClass,), options,
                                  lambda ns: ns.update(body))
        else:
            plain = types.new_class(name, bases, {}, lambda ns: ns.update(body))
            cls = dataclasses.dataclass(**options)(plain)
        self.created.append(cls)
        return cls


class Case(NamedTuple):
    id: str
    run: object         # run(dialect) must raise
    exc: type
    msg: str
    stdlib: object      # SAME, TYPE, ACCEPTS or None
    define: bool = True  # a class definition (else a call on finished classes)


def _frozen_pair(d, a_frozen=True, b_frozen=False):
    """Parents A and B for the multiple-inheritance cases."""
    return (d.make('A', {'a': int}, {'a': 0}, frozen=a_frozen),
            d.make('B', {'b': int}, {'b': 0}, frozen=b_frozen))


def _instance(d, **options):
    """An instance of ``C(x: int = 1, y: int = field(init=False, default=2))``."""
    C = d.make('C', {'x': int, 'y': int}, {'x': 1, 'y': d.field(init=False, default=2)},
               **options)
    return C()


MUTABLE = "mutable default {} for field x is not allowed: use default_factory"
NON_DEFAULT = "non-default argument {!r} follows default argument {!r}"
# The stdlib's text first (it raises that here), then both sides and the remedy.
DISAGREE = ("cannot inherit non-frozen dataclass from a frozen one: the data-class "
            "parents of 'C' disagree, frozen ({}) and non-frozen ({}): make them agree")
RESERVED = ("field {!r} of data class 'C' has a name that data classes reserve: "
            "rename the field")

CASES = [
    # -- defaults ---------------------------------------------------------------
    Case('mutable-default-list', lambda d: d.make('C', {'x': list}, {'x': []}),
         ValueError, MUTABLE.format(list), SAME),
    Case('mutable-default-dict', lambda d: d.make('C', {'x': dict}, {'x': {}}),
         ValueError, MUTABLE.format(dict), SAME),
    Case('mutable-default-set', lambda d: d.make('C', {'x': set}, {'x': set()}),
         ValueError, MUTABLE.format(set), SAME),
    Case('unhashable-default-object',
         lambda d: d.make('C', {'x': Unhashable}, {'x': Unhashable()}),
         ValueError, MUTABLE.format(Unhashable), SAME),
    Case('mutable-default-in-field',
         lambda d: d.make('C', {'x': list}, {'x': d.field(default=[])}),
         ValueError, MUTABLE.format(list), SAME),
    Case('mutable-default-in-subclass',
         lambda d: d.make('C', {'x': list}, {'x': []}, bases=(d.make('P', {'y': int}),)),
         ValueError, MUTABLE.format(list), SAME),
    Case('default-and-default-factory',
         lambda d: d.make('C', {'x': int}, {'x': d.field(default=1, default_factory=int)}),
         ValueError, 'cannot specify both default and default_factory', SAME),
    # -- field order --------------------------------------------------------------
    Case('non-default-after-default', lambda d: d.make('C', {'a': int, 'b': int}, {'a': 0}),
         TypeError, NON_DEFAULT.format('b', 'a'), SAME),
    Case('non-default-after-default-factory',
         lambda d: d.make('C', {'a': list, 'b': int}, {'a': d.field(default_factory=list)}),
         TypeError, NON_DEFAULT.format('b', 'a'), SAME),
    Case('non-default-after-inherited-default',
         lambda d: d.make('C', {'b': int}, bases=(d.make('P', {'a': int}, {'a': 0}),)),
         TypeError, NON_DEFAULT.format('b', 'a') + " ('a' has its default from parent 'P')",
         PREFIX),
    Case('non-default-after-default-below-kw-only-parent',
         lambda d: d.make('C', {'b': int, 'c': int}, {'b': 1}, kw_only=False,
                          bases=(d.make('P', {'a': int}, {'a': 0}, kw_only=True),)),
         TypeError, NON_DEFAULT.format('c', 'b'), SAME),
    Case('non-default-after-default-both-kw-only-false-after-marker',
         lambda d: d.make('C', {'_': KW_ONLY, 'a': int, 'b': int},
                          {'a': d.field(default=0, kw_only=False),
                           'b': d.field(kw_only=False)}),
         TypeError, NON_DEFAULT.format('b', 'a'), SAME),
    Case('non-default-after-default-in-kw-only-class',
         lambda d: d.make('C', {'a': int, 'b': int},
                          {'a': d.field(default=0, kw_only=False),
                           'b': d.field(kw_only=False)}, kw_only=True),
         TypeError, NON_DEFAULT.format('b', 'a'), SAME),
    Case('two-kw-only-markers',
         lambda d: d.make('C', {'_': KW_ONLY, 'x': int, 'kw': KW_ONLY}),
         TypeError, "'kw' is KW_ONLY, but KW_ONLY has already been specified", SAME),
    # -- ClassVar, InitVar, annotations ---------------------------------------------
    Case('initvar-with-default-factory',
         lambda d: d.make('C', {'x': InitVar[list]}, {'x': d.field(default_factory=list)}),
         TypeError, 'field x cannot have a default factory', SAME),
    Case('classvar-with-default-factory',
         lambda d: d.make('C', {'x': ClassVar[list]}, {'x': d.field(default_factory=list)}),
         TypeError, 'field x cannot have a default factory', SAME),
    Case('string-classvar-with-default-factory',
         lambda d: d.make('C', {'x': 'ClassVar[list]'}, {'x': d.field(default_factory=list)}),
         TypeError, 'field x cannot have a default factory', SAME),
    Case('classvar-with-kw-only-true',
         lambda d: d.make('C', {'x': ClassVar[int]}, {'x': d.field(default=1, kw_only=True)}),
         TypeError, 'field x is a ClassVar but specifies kw_only', SAME),
    Case('classvar-with-kw-only-false',
         lambda d: d.make('C', {'x': ClassVar[int]}, {'x': d.field(kw_only=False)}),
         TypeError, 'field x is a ClassVar but specifies kw_only', SAME),
    Case('field-without-annotation',
         lambda d: d.make('C', {'x': int}, {'y': d.field(default=1)}),
         TypeError, "'y' is a field but has no type annotation", SAME),
    # -- class keywords ---------------------------------------------------------------
    Case('unknown-class-keyword', lambda d: d.make('C', {'x': int}, table='t'),
         TypeError, f"unknown option 'table' for data class 'C': expected one of {OPTIONS}",
         None),
    Case('misspelt-class-keyword', lambda d: d.make('C', {'x': int}, frozn=True),
         TypeError, f"unknown option 'frozn' for data class 'C': expected one of {OPTIONS}. "
         "Did you mean 'frozen'?",
         None),
    Case('class-keyword-string', lambda d: d.make('C', {'x': int}, frozen='yes'),
         TypeError, "option 'frozen' of data class 'C' must be True or False, not 'yes'",
         ACCEPTS),
    Case('class-keyword-int', lambda d: d.make('C', {'x': int}, order=1),
         TypeError, "option 'order' of data class 'C' must be True or False, not 1",
         ACCEPTS),
    Case('class-keyword-none', lambda d: d.make('C', {'x': int}, slots=None),
         TypeError, "option 'slots' of data class 'C' must be True or False, not None",
         ACCEPTS),
    Case('order-without-eq', lambda d: d.make('C', {'x': int}, order=True, eq=False),
         ValueError, 'eq must be true if order is true', SAME),
    Case('explicit-lt-with-order',
         lambda d: d.make('C', {'x': int}, {'__lt__': lambda s, o: True}, order=True),
         TypeError, 'Cannot overwrite attribute __lt__ in class C Consider using '
         'functools.total_ordering', SAME),
    Case('explicit-ge-with-order',
         lambda d: d.make('C', {'x': int}, {'__ge__': lambda s, o: True}, order=True),
         TypeError, 'Cannot overwrite attribute __ge__ in class C Consider using '
         'functools.total_ordering', SAME),
    Case('explicit-hash-with-unsafe-hash',
         lambda d: d.make('C', {'x': int}, {'__hash__': lambda s: 0}, unsafe_hash=True),
         TypeError, 'Cannot overwrite attribute __hash__ in class C', SAME),
    Case('explicit-setattr-with-frozen',
         lambda d: d.make('C', {'x': int}, {'__setattr__': object.__setattr__}, frozen=True),
         TypeError, 'Cannot overwrite attribute __setattr__ in class C', SAME),
    Case('explicit-delattr-with-frozen',
         lambda d: d.make('C', {'x': int}, {'__delattr__': object.__delattr__}, frozen=True),
         TypeError, 'Cannot overwrite attribute __delattr__ in class C', SAME),
    # -- frozen and inheritance ---------------------------------------------------------
    Case('thawed-child-of-frozen',
         lambda d: d.make('C', {'y': int}, frozen=False,
                          bases=(d.make('P', {'x': int}, frozen=True),)),
         TypeError, 'cannot inherit non-frozen dataclass from a frozen one: '
         "'C' is not frozen, its parent 'P' is" + _MUTABLE.format('P'), PREFIX),
    Case('frozen-child-of-thawed',
         lambda d: d.make('C', {'y': int}, frozen=True, bases=(d.make('P', {'x': int}),)),
         TypeError, 'cannot inherit frozen dataclass from a non-frozen one: '
         "'C' is frozen, its parent 'P' is not" + _FROZEN.format('P'), PREFIX),
    Case('thawed-grandchild-of-frozen',
         lambda d: d.make('C', {'z': int}, frozen=False, bases=(
             d.make('Q', {'y': int}, frozen=True,
                    bases=(d.make('P', {'x': int}, frozen=True),)),)),
         TypeError, 'cannot inherit non-frozen dataclass from a frozen one: '
         "'C' is not frozen, its parent 'Q' is" + _MUTABLE.format('Q'), PREFIX),
    Case('parents-disagree-on-frozen',
         lambda d: d.make('C', {'c': int}, bases=_frozen_pair(d)),
         TypeError, DISAGREE.format('A', 'B'), TYPE),
    Case('parents-disagree-on-frozen-thawed-first',
         lambda d: d.make('C', {'c': int}, bases=_frozen_pair(d)[::-1]),
         TypeError, DISAGREE.format('A', 'B'), TYPE),
    Case('parents-disagree-diamond',
         lambda d: d.make('C', {'c': int}, bases=(
             d.make('Q', {'q': int}, {'q': 0}, frozen=True,
                    bases=(_frozen_pair(d)[0],)),
             d.make('R', {'r': int}, {'r': 0}))),
         TypeError, DISAGREE.format('Q, A', 'R'), TYPE),
    Case('frozen-child-of-mixed-parents',
         lambda d: d.make('C', {'c': int}, frozen=True, bases=_frozen_pair(d)),
         TypeError, 'cannot inherit frozen dataclass from a non-frozen one: '
         "'C' is frozen, its parent 'B' is not" + _FROZEN.format('B'), PREFIX),
    Case('thawed-child-of-mixed-parents',
         lambda d: d.make('C', {'c': int}, frozen=False, bases=_frozen_pair(d)),
         TypeError, 'cannot inherit non-frozen dataclass from a frozen one: '
         "'C' is not frozen, its parent 'A' is" + _MUTABLE.format('A'), PREFIX),
    Case('thawed-child-of-frozen-parents',
         lambda d: d.make('C', {'c': int}, frozen=False,
                          bases=_frozen_pair(d, True, True)),
         TypeError, 'cannot inherit non-frozen dataclass from a frozen one: '
         "'C' is not frozen, its parent 'A' is" + _MUTABLE.format('A'), PREFIX),
    Case('frozen-child-of-thawed-parents',
         lambda d: d.make('C', {'c': int}, frozen=True,
                          bases=_frozen_pair(d, False, False)),
         TypeError, 'cannot inherit frozen dataclass from a non-frozen one: '
         "'C' is frozen, its parent 'A' is not" + _FROZEN.format('A'), PREFIX),
    # -- slots -------------------------------------------------------------------------
    Case('slots-with-explicit-slots',
         lambda d: d.make('C', {'x': int}, {'__slots__': ('x',)}, slots=True),
         TypeError, 'C already specifies __slots__', SAME),
    Case('weakref-slot-without-slots', lambda d: d.make('C', {'x': int}, weakref_slot=True),
         TypeError, 'weakref_slot is True but slots is False', SAME),
    # -- field names ---------------------------------------------------------------------
    Case('field-named-init', lambda d: d.make('C', {'__init__': int}, {'__init__': 0}),
         TypeError, RESERVED.format('__init__'), ACCEPTS),
    Case('field-named-init-no-default', lambda d: d.make('C', {'__init__': int}),
         TypeError, RESERVED.format('__init__'), ACCEPTS),
    Case('field-named-eq', lambda d: d.make('C', {'__eq__': int}),
         TypeError, RESERVED.format('__eq__'), ACCEPTS),
    Case('field-named-repr', lambda d: d.make('C', {'__repr__': int}),
         TypeError, RESERVED.format('__repr__'), ACCEPTS),
    Case('field-named-post-init', lambda d: d.make('C', {'__post_init__': int}),
         TypeError, RESERVED.format('__post_init__'), ACCEPTS),
    Case('field-named-hash-when-frozen',
         lambda d: d.make('C', {'__hash__': int}, frozen=True),
         TypeError, RESERVED.format('__hash__'), ACCEPTS),
    Case('initvar-named-replace', lambda d: d.make('C', {'__replace__': InitVar[int]}),
         TypeError, RESERVED.format('__replace__'), ACCEPTS),
    Case('field-named-dataclass-fields',
         lambda d: d.make('C', {'__dataclass_fields__': dict}),
         TypeError, RESERVED.format('__dataclass_fields__'), ACCEPTS),
    Case('field-named-class', lambda d: d.make('C', {'__class__': type}),
         TypeError, RESERVED.format('__class__'), ACCEPTS),
    Case('make-dataclass-digit-name', lambda d: d.make_dataclass('C', ['1x']),
         TypeError, "Field names must be valid identifiers: '1x'", SAME),
    Case('make-dataclass-dashed-name', lambda d: d.make_dataclass('C', [('a-b', int)]),
         TypeError, "Field names must be valid identifiers: 'a-b'", SAME),
    Case('make-dataclass-non-string-name', lambda d: d.make_dataclass('C', [(1, int)]),
         TypeError, 'Field names must be valid identifiers: 1', SAME),
    Case('make-dataclass-keyword-name', lambda d: d.make_dataclass('C', ['class']),
         TypeError, "Field names must not be keywords: 'class'", SAME),
    Case('make-dataclass-duplicate-name',
         lambda d: d.make_dataclass('C', ['x', ('x', int)]),
         TypeError, "Field name duplicated: 'x'", SAME),
    Case('make-dataclass-four-tuple',
         lambda d: d.make_dataclass('C', [('x', int, None, None)]),
         TypeError, "Invalid field: ('x', int, None, None)".replace('int', repr(int)), SAME),
    Case('make-dataclass-mutable-default',
         lambda d: d.make_dataclass('C', [('x', list, d.field(default=[]))]),
         ValueError, MUTABLE.format(list), SAME),
    # -- calls -----------------------------------------------------------------------------
    Case('init-missing-argument', lambda d: d.make('C', {'x': int, 'y': int})(1),
         TypeError, "C.__init__() missing 1 required positional argument: 'y'", SAME, False),
    Case('init-missing-arguments', lambda d: d.make('C', {'x': int, 'y': int, 'z': int})(),
         TypeError, "C.__init__() missing 3 required positional arguments: 'x', 'y', and "
         "'z'", SAME, False),
    Case('init-missing-keyword-only',
         lambda d: d.make('C', {'x': int, 'y': int}, kw_only=True)(x=1),
         TypeError, "C.__init__() missing 1 required keyword-only argument: 'y'", SAME,
         False),
    Case('init-too-many', lambda d: d.make('C', {'x': int}, {'x': 0})(1, 2),
         TypeError, 'C.__init__() takes from 1 to 2 positional arguments but 3 were given',
         SAME, False),
    Case('init-positional-to-kw-only',
         lambda d: d.make('C', {'_': KW_ONLY, 'x': int})(1),
         TypeError, 'C.__init__() takes 1 positional argument but 2 were given', SAME, False),
    Case('init-unexpected-keyword', lambda d: d.make('C', {'x': int})(x=1, z=2),
         TypeError, "C.__init__() got an unexpected keyword argument 'z'", SAME, False),
    Case('init-multiple-values', lambda d: d.make('C', {'x': int})(1, x=2),
         TypeError, "C.__init__() got multiple values for argument 'x'", SAME, False),
    Case('init-keyword-for-init-false',
         lambda d: d.make('C', {'x': int}, {'x': d.field(init=False, default=0)})(x=1),
         TypeError, "C.__init__() got an unexpected keyword argument 'x'", SAME, False),
    Case('default-factory-not-callable',
         lambda d: d.make('C', {'x': int}, {'x': d.field(default_factory=3)})(),
         TypeError, "'int' object is not callable", SAME, False),
    Case('replace-init-false-field', lambda d: d.replace(_instance(d), y=3),
         TypeError, 'field y is declared with init=False, it cannot be specified with '
         'replace()', SAME, False),
    Case('replace-unknown-name', lambda d: d.replace(_instance(d), z=3),
         TypeError, "C.__init__() got an unexpected keyword argument 'z'", SAME, False),
    Case('replace-missing-initvar',
         lambda d: d.replace(d.make('C', {'x': InitVar[int]},
                                    {'__post_init__': lambda s, x: None})(1)),
         TypeError, "InitVar 'x' must be specified with replace()", SAME, False),
    Case('replace-on-plain-object', lambda d: d.replace(object(), x=1),
         TypeError, 'replace() should be called on dataclass instances', SAME, False),
    Case('replace-on-class', lambda d: d.replace(type(_instance(d)), x=1),
         TypeError, 'replace() should be called on dataclass instances', SAME, False),
    Case('fields-of-int', lambda d: d.fields(1),
         TypeError, 'must be called with a dataclass type or instance', SAME, False),
    Case('fields-of-plain-class', lambda d: d.fields(Unhashable),
         TypeError, 'must be called with a dataclass type or instance', SAME, False),
    Case('fields-of-base-class', lambda d: dataclass_meta.fields(DataClass),
         TypeError, 'must be called with a dataclass type or instance', None, False),
    Case('asdict-of-class', lambda d: d.asdict(type(_instance(d))),
         TypeError, 'asdict() should be called on dataclass instances', SAME, False),
    Case('astuple-of-plain-object', lambda d: d.astuple(object()),
         TypeError, 'astuple() should be called on dataclass instances', SAME, False),
    Case('assign-to-frozen', lambda d: setattr(_instance(d, frozen=True), 'x', 2),
         FrozenInstanceError, "cannot assign to field 'x'", SAME, False),
    Case('delete-from-frozen', lambda d: delattr(_instance(d, frozen=True), 'x'),
         FrozenInstanceError, "cannot delete field 'x'", SAME, False),
    Case('hash-of-mutable', lambda d: hash(_instance(d)),
         TypeError, "unhashable type: 'C'", SAME, False),
    Case('order-across-classes',
         lambda d: (d.make('C', {'x': int}, order=True)(1)
                    < d.make('D', {'x': int}, order=True)(1)),
         TypeError, "'<' not supported between instances of 'C' and 'D'", SAME, False),
]


def test_catalogue_is_large_and_unique():
    """At least 40 distinct cases, each with a unique id."""
    ids = [case.id for case in CASES]
    assert len(ids) >= 40
    assert len(set(ids)) == len(ids)


def _raised(run, dialect):
    try:
        run(dialect)
    except Exception as exc:  # noqa: BLE001 - the test compares what came out
        return exc
    return None


@pytest.mark.parametrize('case', CASES, ids=[case.id for case in CASES])
def test_bad_input(case):
    """We raise exactly this type and text; the stdlib agrees where it has the case."""
    ours = _raised(case.run, Dialect(ours=True))
    assert type(ours) is case.exc, ours
    assert str(ours) == case.msg
    if case.stdlib is None or not STDLIB_CONTRACT:
        return
    theirs = _raised(case.run, Dialect(ours=False))
    if case.stdlib == ACCEPTS:
        assert theirs is None, theirs
        return
    assert type(theirs) is case.exc, theirs
    if case.stdlib == SAME:
        assert str(theirs) == case.msg
    elif case.stdlib == PREFIX:  # the stdlib's text, then what we add: ': ...' or ' (...)'
        assert case.msg.startswith(str(theirs)), theirs
        assert case.msg[len(str(theirs)):][:2] in (': ', ' ('), theirs


def _half_built(name, known, before=()):
    """Classes named ``name`` that a failed definition left registered as subclasses
    of ``DataClass`` or of ``known``, other than ``known`` and ``before`` (classes
    alive before it). ``type.__new__`` registers a class before the pipeline runs;
    the registry holds it weakly, so a collected class is gone from it."""
    found = []
    for parent in (DataClass, *known):
        for value in parent.__subclasses__():
            if (value.__name__ == name and value not in known and value not in before
                    and value not in found):
                found.append(value)
    return found


def _snapshot(cls):
    """What a class owns: its ``__dict__`` entries and every field's attributes."""
    fields = {name: (f.name, f.type, f.default, f.default_factory, f.init, f.repr,
                     f.hash, f.compare, f.metadata, f.kw_only, f._field_type)
              for name, f in cls.__dict__.get('__dataclass_fields__', {}).items()}
    return dict(cls.__dict__), fields


def _same_snapshot(before, after):
    (dict_before, fields_before), (dict_after, fields_after) = before, after
    assert dict_before.keys() == dict_after.keys()
    assert all(dict_before[k] is dict_after[k] for k in dict_before)
    assert fields_before == fields_after


DEFINITIONS = [case for case in CASES if case.define]


@pytest.mark.parametrize('case', DEFINITIONS, ids=[case.id for case in DEFINITIONS])
def test_failed_definition_leaves_nothing_behind(case, mortal_classes):
    """No subclass registered, the half-built class collected, parents unchanged."""
    dialect = Dialect(ours=True)
    make = dialect.make
    snapshots = {}

    def make_and_snapshot(*args, **kwargs):
        cls = make(*args, **kwargs)
        snapshots[cls] = _snapshot(cls)
        return cls

    dialect.make = make_and_snapshot
    before = set(DataClass.__subclasses__())
    base_snapshot = _snapshot(DataClass)
    try:
        case.run(dialect)
    except case.exc:
        victims = [weakref.ref(c) for c in _half_built('C', dialect.created, before)]
    else:
        pytest.fail('no error')
    gc.collect()
    assert [ref() for ref in victims if ref() is not None] == []
    parents = dialect.created
    assert set(DataClass.__subclasses__()) - before <= set(parents)
    for parent in parents:
        assert set(parent.__subclasses__()) <= set(parents)
        _same_snapshot(snapshots[parent], _snapshot(parent))
    _same_snapshot(base_snapshot, _snapshot(DataClass))


def test_half_built_class_is_found_and_collected(mortal_classes):
    """The leak check above is not vacuous: it finds the class the pipeline held."""
    dialect = Dialect(ours=True)
    before = set(DataClass.__subclasses__())
    try:
        dialect.make('C', {'x': int}, {'x': []})
    except ValueError:
        victims = [weakref.ref(c) for c in _half_built('C', [], before)]
    assert victims and all(issubclass(ref(), DataClass) for ref in victims)
    gc.collect()
    assert all(ref() is None for ref in victims)


# -- names and shapes that look wrong but are accepted, as by the stdlib --------------

@pytest.mark.parametrize('ours', [True, False], ids=['ours', 'stdlib'])
def test_fields_named_self_and_other_work(ours):
    """``self`` and ``other`` are ordinary field names for __init__, __eq__ and order."""
    d = Dialect(ours)
    C = d.make('C', {'self': int, 'other': int}, order=True)
    assert C(1, 2) == C(self=1, other=2)
    assert C(1, 2) < C(1, 3)
    assert repr(C(1, 2)) == 'C(self=1, other=2)'
    assert dataclasses.astuple(d.replace(C(1, 2), other=5)) == (1, 5)


@pytest.mark.parametrize('ours', [True, False], ids=['ours', 'stdlib'])
def test_mutable_defaults_of_classvar_and_initvar_are_allowed(ours):
    """The mutable-default check is for fields only, not ClassVar or InitVar."""
    d = Dialect(ours)
    C = d.make('C', {'registry': ClassVar[list], 'seed': InitVar[list]},
               {'registry': [], 'seed': [], '__post_init__': lambda self, seed: None})
    assert C.registry == [] and C().__class__ is C


@pytest.mark.parametrize('ours', [True, False], ids=['ours', 'stdlib'])
def test_non_default_after_default_is_fine_when_kw_only(ours):
    """A required keyword-only field may follow a positional default."""
    d = Dialect(ours)
    P = d.make('P', {'a': int}, {'a': 0})
    C = d.make('C', {'b': int}, bases=(P,), kw_only=True)
    assert dataclasses.astuple(C(b=2)) == (0, 2)


def test_dunder_classvar_is_not_a_reserved_field():
    """``__match_args__: ClassVar[...]`` is the user's own, not a reserved field name."""
    class C(DataClass):
        __match_args__: ClassVar[tuple] = ('y',)
        x: int
        y: int

    assert C.__match_args__ == ('y',)


def test_reserved_field_name_with_slots():
    """The reserved-name check also guards slotted classes."""
    with pytest.raises(TypeError, match=r"^field '__repr__' of data class 'C' has a name"):
        class C(DataClass, slots=True):
            __repr__: int
