"""Differential tests: one generated spec, ``@dataclasses.dataclass`` and
``DataClass``, the same behaviour down to exception types and message texts.

The contract is Python 3.13's ``dataclasses``. On 3.10-3.12 a comparison runs
only where that version's stdlib agrees with 3.13: the main test leaves out the
version-specific parts (each gate cites why) and the 3.13-only tests below skip.
"""

import copy
import dataclasses
import inspect
import operator
import pickle
import re
import sys
import weakref

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

import dataclass_meta
from dataclass_meta._travel import SlotLayout
from dataclass_meta._backend import available, use
from .outcomes import outcome
from .strategies import (
    EQ_FIELD_BY_FIELD, OURS, STDLIB, ClassSpec, FieldSpec, class_specs,
    single_class_specs, unique_name, values_of)

_ADDRESS = re.compile(r' at 0x[0-9a-f]+')
_BUILTINS = {t.__name__: t for t in (int, str, tuple, float, list)}
PY313 = sys.version_info >= (3, 13)
PY312 = sys.version_info >= (3, 12)

# At least 500 generated specs per run in the main test, 60 more in each small
# one (each spec defined both ways, with its parents a third of the time); the
# whole module stays well under a minute.
MAIN = settings(max_examples=500, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
SMALL = settings(MAIN, max_examples=60)

# Each test runs once per backend (classes defined under ``use(backend)``).
BACKENDS = pytest.mark.parametrize('backend', [pytest.param(b, id=b.name)
                                               for b in available()])

# Methods the stdlib writes per class (so named after it), then other keys.
_GENERATED = ('__init__', '__repr__', '__eq__', '__lt__', '__le__', '__gt__', '__ge__',
              '__setattr__', '__delattr__', '__hash__')
_METHODS = _GENERATED + ('__getstate__', '__setstate__', '__match_args__', '__dict__',
                         '__weakref__', '__post_init__')
# 3.13+: gh-108751 added __replace__ (copy.replace) to data classes.
if PY313:
    _METHODS += ('__replace__',)
# 3.10's slots=True keeps the old class's stale __weakref__ descriptor
# (gh-102069, fixed in 3.11): compared through weakref.ref() instead.
_CLASS_KEYS = _METHODS if sys.version_info >= (3, 11) else tuple(
    m for m in _METHODS if m != '__weakref__')


def result(fn, view=repr):
    """``outcome(fn)`` with either side's module name (in some messages) made
    the same."""
    return outcome(fn, lambda value: _same_module(view(value)),
                   lambda exc: (type(exc), _same_module(str(exc))))


def _same_module(text):
    if not isinstance(text, str):
        return text
    for side in (STDLIB, OURS):
        text = text.replace(side.module.__name__, '<module>')
    return _ADDRESS.sub(' at 0x?', text)


def same(what, std_fn, our_fn, view=repr, legacy=None, stdlib_bug=None, context=None):
    """Assert both sides end the same way; ``legacy`` maps an older stdlib's
    outcome to 3.13's (or to None: not comparable on this version),
    ``stdlib_bug`` tells a stdlib bug that we do not reproduce, and ``context``
    drops what our message adds after the stdlib's."""
    std, our = result(std_fn, view), result(our_fn, view)
    if stdlib_bug is not None and stdlib_bug(std):
        return our
    if legacy is not None and not PY313:
        std = legacy(std, our)
        if std is None:
            return our
    compared = our if context is None else context(std, our)
    assert std == compared, f'{what}: stdlib {std!r} != dataclass_meta {our!r}'
    return our


def _definition_context(std, our):
    """Our definition errors are the stdlib's text, then the classes involved:
    ``: 'C' is not frozen, ...`` or `` ('a' has its default from parent 'P')``."""
    if (std[0] == our[0] == 'raised' and std[1] is our[1]
            and our[2][len(std[2]):][:2] in (': ', ' (') and our[2].startswith(std[2])):
        return std
    return our


def _legacy_definition(std, our):
    """3.10-3.12 raised 'Cannot overwrite' errors as each method was set (so in
    another order than 3.13, which raises the __hash__ one first), wrote
    '... in class C. Consider using functools.total_ordering' (3.13: no dot)
    and 'non-default argument 'b' follows default argument' (3.13 names it)."""
    if std[0] != 'raised':
        return std
    if std[2].startswith('__weakref__ slot disallowed'):
        return None  # before 3.12.3 a non-slotted base's __weakref__ went unseen (gh-105866)
    message = std[2].replace('. Consider using', ' Consider using')
    if (message.endswith('follows default argument') and our[0] == 'raised'
            and our[2].startswith(message + " '")):
        message = our[2]
    if (our[0] == 'raised' and message.startswith('Cannot overwrite attribute')
            and our[2].startswith('Cannot overwrite attribute')):
        return None
    return std[:2] + (message,)


def _legacy_eq(std, our):
    """3.10-3.12 ``__eq__`` reads every field into a tuple, with no ``self is
    other`` shortcut; 3.13 stops at the first unequal field. They differ only
    where a field is unset (NaN, the other case, is not generated there)."""
    if std[0] == 'raised' and std[1] is AttributeError:
        return None
    return std


def _legacy_replace(std, our):
    """3.10-3.12 ``replace()`` raised ValueError where 3.13 raises TypeError."""
    if std[0] == 'raised' and std[1] is ValueError and 'replace()' in std[2]:
        return ('raised', TypeError, std[2])
    return std


def _stale_class_in_super(std):
    """gh-105936: a frozen slotted @dataclass's __setattr__/__delattr__ call
    ``super()`` with the class from before slots were added, so a non-field
    name raises this TypeError. Ours are built once and do not."""
    return std[0] == 'raised' and std[2].startswith('super(type, obj)')


def build(spec, how='build', backend=None):
    """(stdlib class or None, our class or None, logs), definitions compared;
    ``how`` is 'build' (a class statement) or 'make' (``make_dataclass``); ours
    on ``backend`` (else the active one)."""
    name = unique_name()
    std_log, our_log = [], []
    result = {}

    def define(side, log):
        with use(backend or dataclass_meta._backend.backend):
            result[side] = getattr(side, how)(spec, name, log)
        return result[side]

    same('definition', lambda: define(STDLIB, std_log), lambda: define(OURS, our_log),
         view=lambda cls: None, legacy=_legacy_definition, context=_definition_context)
    return result.get(STDLIB), result.get(OURS), std_log, our_log


def field_record(f):
    """Every attribute of a ``Field`` (``doc`` is 3.14's and ours only)."""
    return (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash,
            f.compare, type(f.metadata), dict(f.metadata), f.kw_only, f._field_type)


def compare_classes(std, our):
    """Fields, params, signature, docstring, match_args and generated methods."""
    assert ([field_record(f) for f in std.__dataclass_fields__.values()]
            == [field_record(f) for f in our.__dataclass_fields__.values()])
    assert ([f.name for f in dataclasses.fields(std)]
            == [f.name for f in dataclass_meta.fields(our)])
    # 3.10/3.11 keep six options in __dataclass_params__ (3.12: gh-96142).
    names = [n for n in type(std.__dataclass_params__).__slots__ if n != '__weakref__']
    assert ([getattr(std.__dataclass_params__, n) for n in names]
            == [getattr(our.__dataclass_params__, n) for n in names])
    same('signature', lambda: inspect.signature(std), lambda: inspect.signature(our), str)
    assert std.__doc__ == our.__doc__
    assert (getattr(std, '__match_args__', None)
            == getattr(our, '__match_args__', None))
    # A slotted class of ours keeps its slots' layout as its __dict__ entry (for
    # cloudpickle, docs/conformance.md): its own where the stdlib's has a dict.
    assert ({m: m in std.__dict__ for m in _CLASS_KEYS}
            == {m: m in our.__dict__ and not isinstance(our.__dict__[m], SlotLayout)
                for m in _CLASS_KEYS})
    assert (std.__hash__ is None) == (our.__hash__ is None)
    assert (std.__hash__ is object.__hash__) == (our.__hash__ is object.__hash__)
    if sys.version_info >= (3, 11):  # 3.10 re-slots inherited slots (bpo-46382)
        std_slots, our_slots = std.__dict__.get('__slots__'), our.__dict__.get('__slots__')
        if not PY313 and None not in (std_slots, our_slots):
            # Before 3.12.3 a non-slotted base's __weakref__ went unseen (gh-105866).
            std_slots, our_slots = (tuple(n for n in slots if n != '__weakref__')
                                    for slots in (std_slots, our_slots))
        assert std_slots == our_slots
    # The stdlib shares module-level _replace/_dataclass_getstate/_setstate;
    # ours are named as if written in the class: compare the rest.
    for name in _GENERATED:
        method = std.__dict__.get(name)
        if callable(method):
            mine = our.__dict__[name]
            assert (method.__name__, method.__qualname__) == (
                mine.__name__, mine.__qualname__), name
    if '__init__' in std.__dict__:
        # Ours wrap string annotations in ForwardRefs that know the class's
        # module, so get_type_hints(C.__init__) resolves them (the stdlib's
        # __init__ has that module's globals; a closure has ours).
        assert std.__init__.__annotations__ == {
            k: getattr(v, '__forward_arg__', v)
            for k, v in our.__init__.__annotations__.items()}


def value_type(annotation):
    """The value type of a field's annotation: InitVar[int] and "InitVar[int]" -> int."""
    if isinstance(annotation, str):
        return _BUILTINS.get(re.search(r'(\w+)\]?$', annotation).group(1))
    return getattr(annotation, 'type', annotation)


def draw_call(data, signature, positional=None):
    """Arguments for a valid call: the required ones and some optional ones,
    positional up to the first left out (or, by choice, passed by keyword)."""
    args, kwargs = [], {}
    for param in signature.parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.default is not param.empty and data.draw(st.booleans()):
            kwargs.setdefault(None, None)  # later ones cannot be positional
            continue
        value = data.draw(values_of(value_type(param.annotation)))
        if (param.kind is param.POSITIONAL_OR_KEYWORD and not kwargs
                and (positional or data.draw(st.booleans()))):
            args.append(value)
        else:
            kwargs[param.name] = value
    kwargs.pop(None, None)
    return args, kwargs


def bad_calls(signature, args, kwargs):
    """Calls that fail to bind: too many positionals, missing, unexpected,
    multiple values (each only where the signature makes it a mistake)."""
    params = [p for p in signature.parameters.values()
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if len(params) < len(signature.parameters):
        return []
    positional = [p for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
    required_kw = {p.name: 0 for p in params
                   if p.kind is p.KEYWORD_ONLY and p.default is p.empty}
    calls = [
        ([0] * (len(positional) + 1), required_kw),
        ([0] * (len(positional) + 2), {**required_kw, 'zz': 0}),
        ([], {}),
        (args, {**kwargs, 'zz': 0}),
    ]
    if positional:
        calls.append(([0], {positional[0].name: 0}))
        calls.append(([0], {positional[0].name: 0, 'zz': 1}))
        calls.append(([0], {'zz': 1, positional[0].name: 0}))  # PyPy: multiple first
    calls.append((args, {**kwargs, 'zz': 0, 'yy': 0}))  # PyPy counts them
    if len(positional) > 1:
        calls.append(([], {positional[-1].name: 0}))
    return calls


def draw_changes(data, std):
    """``replace()`` changes: some init fields and InitVars, maybe an init=False one."""
    candidates = [f for f in std.__dataclass_fields__.values()
                  if f._field_type is not dataclasses._FIELD_CLASSVAR]
    chosen = data.draw(st.lists(st.sampled_from(candidates), unique_by=lambda f: f.name,
                                max_size=3)) if candidates else []
    changes = {f.name: data.draw(values_of(value_type(f.type))) for f in chosen}
    if data.draw(st.integers(0, 9)) == 9:
        changes['zz'] = 0  # not a field: __init__'s own TypeError
    return changes


def field_values(obj):
    """The fields' values, ``'<unset>'`` for a field never assigned."""
    return [getattr(obj, f.name, '<unset>') for f in dataclasses.fields(obj)]


def compare_instances(data, std, our, std_log, our_log):
    """Construction, repr, eq/order, hash, asdict/astuple, replace, pickle,
    weak references, frozen errors and __init__'s TypeErrors."""
    signature = inspect.signature(std)
    args, kwargs = draw_call(data, signature)
    if data.draw(st.booleans()):
        args2, kwargs2 = args, kwargs
    else:
        args2, kwargs2 = draw_call(data, signature, positional=True)
    made = {}

    def make(side, cls, key, a, k):
        made[side, key] = cls(*a, **k)
        return made[side, key]

    for key, a, k in (('a', args, kwargs), ('b', args2, kwargs2)):
        same(f'{std.__name__}(*{a!r}, **{k!r})', lambda: make(STDLIB, std, key, a, k),
             lambda: make(OURS, our, key, a, k), view=lambda obj: None)
    assert repr(std_log) == repr(our_log)
    if (STDLIB, 'a') not in made or (STDLIB, 'b') not in made:
        event('construction raised')
        return
    event('instances compared')
    sa, sb, oa, ob = (made[STDLIB, 'a'], made[STDLIB, 'b'], made[OURS, 'a'],
                      made[OURS, 'b'])

    same('repr', lambda: repr(sa), lambda: repr(oa))
    for op in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt,
               operator.ge):
        same(op.__name__, lambda: op(sa, sb), lambda: op(oa, ob), legacy=_legacy_eq)
        same(op.__name__ + ' self', lambda: op(sa, sa), lambda: op(oa, oa),
             legacy=_legacy_eq)
    same('eq other', lambda: sa == 1, lambda: oa == 1)
    if std.__hash__ is not object.__hash__:
        same('hash', lambda: hash(sa), lambda: hash(oa))
    same('asdict', lambda: dataclasses.asdict(sa), lambda: dataclass_meta.asdict(oa))
    same('astuple', lambda: dataclasses.astuple(sa), lambda: dataclass_meta.astuple(oa))
    same('stdlib asdict', lambda: dataclasses.asdict(sa), lambda: dataclasses.asdict(oa))
    same('our astuple', lambda: dataclasses.astuple(sa), lambda: dataclass_meta.astuple(sa))

    changes = draw_changes(data, std)
    same(f'replace({changes!r})', lambda: dataclasses.replace(sa, **changes),
         lambda: dataclass_meta.replace(oa, **changes), legacy=_legacy_replace)
    if PY313:
        same(f'copy.replace({changes!r})', lambda: copy.replace(sa, **changes),
             lambda: copy.replace(oa, **changes))
    assert repr(std_log) == repr(our_log)

    def round_trip(obj):
        return pickle.loads(pickle.dumps(obj))

    same('pickle', lambda: round_trip(sa), lambda: round_trip(oa),
         view=lambda obj: (type(obj).__qualname__, repr(field_values(obj))))
    for copier in (copy.copy, copy.deepcopy):
        same(copier.__name__, lambda: copier(sa), lambda: copier(oa),
             view=lambda obj: repr(field_values(obj)))
    same('weakref', lambda: weakref.ref(sa), lambda: weakref.ref(oa), view=lambda r: None)

    if '__init__' in std.__dict__:
        for a, k in bad_calls(signature, args, kwargs):
            same(f'call(*{a!r}, **{k!r})', lambda: std(*a, **k), lambda: our(*a, **k),
                 view=lambda obj: None)

    names = [f.name for f in std.__dataclass_fields__.values()] + ['zz']
    for name in names:
        same(f'setattr {name}', lambda: setattr(sa, name, 0),
             lambda: setattr(oa, name, 0), view=lambda r: None,
             stdlib_bug=_stale_class_in_super)
        same(f'delattr {name}', lambda: delattr(sa, name),
             lambda: delattr(oa, name), view=lambda r: None,
             stdlib_bug=_stale_class_in_super)
    same('repr after assignments', lambda: repr(sa), lambda: repr(oa))


@BACKENDS
@MAIN
@given(spec=class_specs(), data=st.data())
def test_stdlib_and_dataclass_meta_agree(backend, spec, data):
    """A generated class behaves the same built by @dataclass and by DataClass."""
    event('with a parent' if spec.parent else 'without a parent')
    std, our, std_log, our_log = build(spec, backend=backend)
    if std is None:
        event('definition raised')
        return
    compare_classes(std, our)
    compare_instances(data, std, our, std_log, our_log)


# --- 3.13 semantics that older stdlibs do not have --------------------------

def _float_spec(names):
    return ClassSpec([FieldSpec(n, 'field', float) for n in names], {})


@pytest.mark.skipif(not EQ_FIELD_BY_FIELD,
                    reason='3.10-3.12 __eq__ compares tuples: identity makes NaN equal')
@SMALL
@given(names=st.lists(st.sampled_from('abcd'), unique=True, max_size=4),
       values=st.lists(st.sampled_from([0.0, float('nan')]), min_size=4, max_size=4),
       order=st.booleans(), frozen=st.booleans())
def test_eq_field_by_field_with_nan(names, values, order, frozen):
    """NaN fields make instances unequal to themselves' copies, as in 3.13."""
    spec = _float_spec(names)
    spec.options = {'order': order, 'frozen': frozen}
    std, our, _, _ = build(spec)
    args = values[:len(names)]
    sa, oa = std(*args), our(*args)
    sb, ob = std(*args), our(*args)
    for op in (operator.eq, operator.ne, operator.le, operator.ge):
        same(op.__name__, lambda: op(sa, sb), lambda: op(oa, ob))
        same(op.__name__ + ' self', lambda: op(sa, sa), lambda: op(oa, oa))


@pytest.mark.skipif(not PY313, reason='__replace__ (copy.replace) is new in 3.13')
@BACKENDS
@SMALL
@given(spec=class_specs(), data=st.data())
def test_copy_replace(backend, spec, data):
    """``copy.replace`` works and fails alike (3.13's ``__replace__``)."""
    std, our, std_log, our_log = build(spec, backend=backend)
    if std is None or '__init__' not in std.__dict__:
        return
    args, kwargs = draw_call(data, inspect.signature(std))
    try:
        sa = std(*args, **kwargs)
    except Exception:  # noqa: BLE001 - an init=False field may be unset; compared above
        return
    oa = our(*args, **kwargs)
    changes = draw_changes(data, std)
    same('copy.replace', lambda: copy.replace(sa, **changes),
         lambda: copy.replace(oa, **changes))
    assert repr(std_log) == repr(our_log)


@pytest.mark.skipif(not PY312,
                    reason='3.10/3.11 __dataclass_params__ lacks match_args...weakref_slot')
@SMALL
@given(spec=class_specs())
def test_all_params_recorded(spec):
    """``__dataclass_params__`` carries all ten options, as 3.12+ records them."""
    std, our, _, _ = build(spec)
    if std is None:
        return
    assert repr(std.__dataclass_params__) == repr(our.__dataclass_params__)


# make_dataclass without bases: the options not given are the defaults on both
# sides (ours would inherit them from data-class bases).
@pytest.mark.skipif(not PY312, reason='make_dataclass(module=) is new in 3.12')
@BACKENDS
@SMALL
@given(spec=single_class_specs().filter(lambda s: all(e.annotated for e in s.fields)),
       data=st.data())
def test_make_dataclass_agrees(backend, spec, data):
    """``make_dataclass`` builds the same class as the stdlib's from the same items."""
    std, our, std_log, our_log = build(spec, how='make', backend=backend)
    if std is None:
        return
    compare_classes(std, our)
    compare_instances(data, std, our, std_log, our_log)
