"""Hypothesis strategies that generate whole data-class specs, and the builders
that define one spec twice: with ``@dataclasses.dataclass`` and as a
``DataClass`` subclass, from namespace dicts (``types.new_class``, no exec).

A spec is plain data (``ClassSpec``/``FieldSpec``); values it holds (defaults,
factories, types) are the same objects on both sides, so ``Field`` attributes
can be compared by identity. Built classes are registered under one unique
name in two throwaway modules, one per side, so that instances pickle and the
two sides still share ``__qualname__`` (and so every message that names it).
"""

import dataclasses
import sys
import types
import typing
from dataclasses import KW_ONLY, InitVar

from hypothesis import strategies as st

import dataclass_meta

# 3.11+: gh-91215 added ``weakref_slot``; 3.10's ``@dataclass`` rejects it.
HAS_WEAKREF_SLOT = sys.version_info >= (3, 11)
# 3.13 compares fields one by one (gh-104904); 3.10-3.12 compare tuples, whose
# identity shortcut makes ``x == x`` true for a NaN field. NaN values are only
# generated where the stdlib has 3.13's semantics.
EQ_FIELD_BY_FIELD = sys.version_info >= (3, 13)
NAN = float('nan')
# No default / no factory in a spec (MISSING would mean that to @dataclass itself).
ABSENT = type('Absent', (), {'__repr__': lambda self: 'ABSENT'})()

OPTIONS = ('init', 'repr', 'eq', 'order', 'unsafe_hash', 'frozen', 'match_args',
           'kw_only', 'slots') + (('weakref_slot',) if HAS_WEAKREF_SLOT else ())


@dataclasses.dataclass
class FieldSpec:
    """One entry of a class body: a field, InitVar, ClassVar or KW_ONLY marker."""

    name: str
    kind: str = 'field'            # 'field', 'initvar', 'classvar' or 'kw_only'
    type: object = int
    default: object = ABSENT      # a plain class attribute, or field(default=)
    factory: object = ABSENT      # field(default_factory=)
    field_args: dict = None        # None: no field() call; else field(**field_args)
    annotated: bool = True         # False: a field() with no annotation (an error)
    string: int = 0                # 1, 2: a string annotation, unqualified or dotted

    def __post_init__(self):
        # Made once: InitVar has no __eq__, so both sides must share the object.
        self.annotation = {
            'kw_only': KW_ONLY, 'initvar': InitVar[self.type],
            'classvar': typing.ClassVar[self.type]}.get(self.kind, self.type)
        if self.string:
            self.annotation = _as_string(self.kind, self.type.__name__, self.string == 2)


def _as_string(kind, type_name, dotted):
    """``"int"``, ``"ClassVar[int]"``, ``"typing.ClassVar[int]"``, ``"KW_ONLY"``...:
    the stdlib recognises these through the class's module (see STRING_NAMES)."""
    if kind == 'field':
        return type_name
    name, module = {'classvar': ('ClassVar', 'typing'), 'initvar': ('InitVar', 'dataclasses'),
                    'kw_only': ('KW_ONLY', 'dataclasses')}[kind]
    text = f'{module}.{name}' if dotted else name
    return text if kind == 'kw_only' else f'{text}[{type_name}]'


# What string annotations are looked up in: each side's module holds these.
STRING_NAMES = {'typing': typing, 'dataclasses': dataclasses,
                'ClassVar': typing.ClassVar, 'InitVar': InitVar, 'KW_ONLY': KW_ONLY}


@dataclasses.dataclass
class ClassSpec:
    """A class body, its options, explicit methods and an optional parent spec."""

    fields: list
    options: dict
    post_init: bool = False
    methods: tuple = ()
    parent: 'ClassSpec' = None
    mixin: dict = None             # class attributes of a plain base listed first
    doc: str = None


# --- explicit methods a class body may define -------------------------------

def _explicit_repr(self):
    return 'explicit repr'


def _explicit_eq(self, other):
    return self is other


def _explicit_hash(self):
    return 7


def _explicit_lt(self, other):
    return False


def _explicit_setattr(self, name, value):
    object.__setattr__(self, name, value)


EXPLICIT_METHODS = {
    '__repr__': _explicit_repr,
    '__eq__': _explicit_eq,       # makes type() set __hash__ = None beside it
    '__hash__': _explicit_hash,
    '__lt__': _explicit_lt,
    '__setattr__': _explicit_setattr,
    '__match_args__': ('a', 'zz'),
}


# ``__hash__ = None`` written in the body: explicit, unless __eq__ is beside it
# (then the stdlib's heuristic takes it for the one type() adds).
HASH_NONE = '__hash__ = None'


def _explicit(spec):
    for method in spec.methods:
        if method == HASH_NONE:
            yield '__hash__', None
        else:
            yield method, EXPLICIT_METHODS[method]


def seven():
    """A module-level default factory (a plain function, not a type)."""
    return 7


# --- values ----------------------------------------------------------------

TYPES = (int, str, tuple, float, list)
FACTORIES = {int: (int, seven), str: (str,), tuple: (tuple,), float: (float,),
             list: (list,)}
_FLOATS = (0.0, 1.5, -2.0) + ((NAN,) if EQ_FIELD_BY_FIELD else ())


def values_of(tp):
    """Small values of a field's type; NaN among the floats (see NAN above)."""
    if tp is int:
        return st.integers(-3, 3)
    if tp is str:
        return st.sampled_from(['', 'a', 'b'])
    if tp is tuple:
        return st.lists(st.integers(0, 2), max_size=2).map(tuple)
    if tp is float:
        return st.sampled_from(_FLOATS)
    if tp is list:
        return st.lists(st.integers(0, 2), max_size=2)
    return st.integers(-3, 3)


def _hashable_values_of(tp):
    if tp is list:  # a list default is an error; the tuple stands in
        return values_of(tuple)
    return values_of(tp)


# --- specs -----------------------------------------------------------------

def one_in(n):
    """True one time in ``n``; shrinks to False (the plain case)."""
    return st.integers(1, n).map(lambda k: k == n)


_MUTABLE_DEFAULTS = st.sampled_from([[], {}, set()]).map(lambda v: type(v)())


@st.composite
def field_specs(draw, name, kind):
    """One field, InitVar or ClassVar, valid most of the time."""
    tp = draw(st.sampled_from(TYPES))
    spec = FieldSpec(name, kind, tp, string=draw(st.sampled_from([0] * 6 + [1, 2])))
    mode = draw(st.sampled_from(['none'] * 4 + ['default'] * 3 + ['factory'] * 2))
    if draw(one_in(40)):  # errors: a mutable default, or default and factory
        mode = draw(st.sampled_from(['mutable', 'both']))
    if kind != 'field' and mode == 'factory' and not draw(one_in(8)):
        mode = 'default'  # a ClassVar/InitVar with a default factory is an error
    if mode in ('default', 'both'):
        spec.default = draw(_hashable_values_of(tp))
    if mode in ('factory', 'both'):
        spec.factory = draw(st.sampled_from(FACTORIES[tp]))
    if mode == 'mutable':
        spec.default = draw(_MUTABLE_DEFAULTS)
    if tp is list and mode == 'default' and kind == 'field':
        spec.default, spec.factory = ABSENT, list
    if spec.factory is not ABSENT or draw(one_in(3)):
        spec.field_args = draw(_field_args(kind))
        if kind == 'classvar' and 'kw_only' in spec.field_args and not draw(one_in(6)):
            del spec.field_args['kw_only']  # a ClassVar with kw_only is an error: rarer
    if spec.field_args is not None and draw(one_in(60)):
        spec.annotated = False
    return spec


def _field_args(kind):
    flag = st.sampled_from([True, True, True, False])
    return st.fixed_dictionaries({}, optional={
        'init': flag, 'repr': flag, 'compare': flag,
        'hash': st.sampled_from([None, None, True, False]),
        'metadata': st.sampled_from([None, {'unit': 'm'}]),
        'kw_only': st.booleans(),
    })


_NAMES = ('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h')


@st.composite
def bodies(draw, names=_NAMES, max_fields=8):
    """The entries of a class body: 0-8 fields and pseudo-fields, maybe KW_ONLY."""
    chosen = draw(st.lists(st.sampled_from(names), unique=True, max_size=max_fields))
    if chosen and draw(one_in(40)):
        chosen[0] = 'self'  # the stdlib then calls __init__'s first parameter differently
    kinds = st.sampled_from(['field'] * 8 + ['initvar', 'classvar'])
    entries = [draw(field_specs(name, draw(kinds))) for name in chosen]
    if not draw(one_in(4)):  # mostly defaults last, else "non-default argument" wins
        entries.sort(key=lambda e: e.default is not ABSENT or e.factory is not ABSENT)
    markers = draw(st.sampled_from([0] * 20 + [1] * 9 + [2]))
    for marker_name in ('_', '_kw')[:markers]:
        entries.insert(draw(st.integers(0, len(entries))), FieldSpec(
            marker_name, 'kw_only', string=draw(st.sampled_from([0] * 6 + [1, 2]))))
    return entries


def _options(all_explicit):
    """Class options; a child always passes all of them (see ``class_specs``).

    Only bools: ours rejects anything else (``frozen="yes"``) where the stdlib
    takes any truthy value, a deliberate difference (README, "Deliberate differences").
    """
    weights = {
        'init': [True] * 5 + [False], 'repr': [True] * 5 + [False],
        'eq': [True] * 6 + [False], 'order': [False] * 2 + [True],
        'unsafe_hash': [False] * 4 + [True], 'frozen': [False, True],
        'match_args': [True] * 3 + [False], 'kw_only': [False] * 3 + [True],
        'slots': [False, True], 'weakref_slot': [False] * 5 + [True],
    }
    strategies = {name: st.sampled_from(weights[name]) for name in OPTIONS}
    if all_explicit:
        return st.fixed_dictionaries(strategies)
    return st.fixed_dictionaries({}, optional=strategies)


@st.composite
def single_class_specs(draw, all_explicit=False, names=_NAMES):
    """A class with no data-class parent."""
    entries = draw(bodies(names))
    options = draw(_options(all_explicit))
    has_initvars = any(e.kind == 'initvar' for e in entries)
    post_init = has_initvars or draw(one_in(6))
    methods = tuple(name for name in EXPLICIT_METHODS if draw(one_in(25)))
    if '__hash__' not in methods and draw(one_in(25)):
        methods += (HASH_NONE,)
    mixin = None
    if draw(one_in(8)):  # defaults found on a plain base count, as getattr finds them
        mixin = draw(st.dictionaries(st.sampled_from(names), st.integers(0, 3), max_size=3))
    doc = 'Documented.' if draw(one_in(10)) else None
    return ClassSpec(entries, options, post_init, methods, None, mixin, doc)


@st.composite
def class_specs(draw):
    """A class spec, with a data-class parent about a third of the time (and
    a grandparent a tenth of the time).

    With a parent the child passes every option explicitly on both sides:
    ``DataClass`` subclasses inherit options (docs/guide.md) and ``@dataclass``
    classes do not, a deliberate difference this test must not trip over.
    Frozen must then agree with the parent (else both raise, which is tested
    too, but rarely useful more than 1 time in 10).
    """
    depth = draw(st.sampled_from([0] * 20 + [1] * 7 + [2] * 3))
    spec = draw(single_class_specs(names=_NAMES[:5] if depth else _NAMES))
    for level in range(depth):
        child = draw(single_class_specs(all_explicit=True, names=_NAMES[2 + level:]))
        if not draw(one_in(10)):
            child.options['frozen'] = spec.options.get('frozen', False)
        if sys.version_info < (3, 11) and child.options['slots']:
            # 3.10 re-slots inherited slots (bpo-46382), so there a slot of the
            # child hides a plain base's class attribute of that name: no mixin.
            child.mixin = None
        child.parent, spec = spec, child
    return spec


# --- building a spec both ways ---------------------------------------------

def _registry_module(name):
    module = types.ModuleType(name, 'Generated classes, found here by pickle.')
    module.__dict__.update(STRING_NAMES)
    sys.modules[name] = module
    return module


class Side:
    """How one side defines a class from a spec."""

    def __init__(self, label, module, field, make_dataclass):
        self.label = label
        self.module = module
        self.field = field
        self.make_dataclass = make_dataclass

    def define(self, name, bases, options, body):
        raise NotImplementedError

    def build(self, spec, name, log):
        """Define ``spec`` (parent first) as ``name`` in this side's module."""
        bases = ()
        if spec.mixin is not None:
            mixin = type('M' + name, (), dict(spec.mixin, __module__=self.module.__name__))
            setattr(self.module, mixin.__name__, mixin)
            bases = (mixin,)
        if spec.parent is not None:
            bases += (self.build(spec.parent, 'P' + name, log),)
        cls = self.define(name, bases, dict(spec.options), self._body(spec, name, log))
        setattr(self.module, name, cls)
        return cls

    def make(self, spec, name, log):
        """Define a parentless ``spec`` with ``make_dataclass`` as ``name``."""
        items = []
        for entry in spec.fields:
            value = self._class_attribute(entry)
            items.append((entry.name, entry.annotation)
                         + (() if value is ABSENT else (value,)))
        namespace = dict(_explicit(spec))
        if spec.post_init:
            namespace['__post_init__'] = _recording_post_init(log)
        if spec.doc is not None:
            namespace['__doc__'] = spec.doc
        bases = ()
        if spec.mixin is not None:
            bases = (type('M' + name, (), dict(spec.mixin)),)
        cls = self.make_dataclass(name, items, bases=bases, namespace=namespace,
                                  module=self.module.__name__, **spec.options)
        setattr(self.module, name, cls)
        return cls

    def _body(self, spec, name, log):
        def fill(ns):
            ns['__module__'] = self.module.__name__
            ns['__qualname__'] = name
            annotations = {}
            for entry in spec.fields:
                if entry.annotated:
                    annotations[entry.name] = entry.annotation
                value = self._class_attribute(entry)
                if value is not ABSENT:
                    ns[entry.name] = value
            ns['__annotations__'] = annotations
            if spec.doc is not None:
                ns['__doc__'] = spec.doc
            if spec.post_init:
                ns['__post_init__'] = _recording_post_init(log)
            ns.update(_explicit(spec))
        return fill

    def _class_attribute(self, entry):
        if entry.field_args is None:
            return entry.default
        args = dict(entry.field_args)
        if entry.default is not ABSENT:
            args['default'] = entry.default
        if entry.factory is not ABSENT:
            args['default_factory'] = entry.factory
        return self.field(**args)


def _recording_post_init(log):
    def __post_init__(self, *initvars):
        log.append(initvars)
    return __post_init__


class StdlibSide(Side):
    def define(self, name, bases, options, body):
        cls = types.new_class(name, bases, {}, body)
        return dataclasses.dataclass(**options)(cls)


class OurSide(Side):
    def define(self, name, bases, options, body):
        if not any(hasattr(base, '__dataclass_fields__') for base in bases):
            bases += (dataclass_meta.DataClass,)
        return types.new_class(name, bases, options, body)


STDLIB = StdlibSide('stdlib', _registry_module('_dataclass_meta_differential_stdlib'),
                    dataclasses.field, dataclasses.make_dataclass)
OURS = OurSide('dataclass_meta', _registry_module('_dataclass_meta_differential_ours'),
               dataclass_meta.field, dataclass_meta.make_dataclass)
_counter = iter(range(1, sys.maxsize))


def unique_name():
    """A class name not used before in this process (shared by both sides)."""
    return f'C{next(_counter)}'
