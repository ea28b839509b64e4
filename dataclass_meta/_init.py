"""The generated ``__init__``: the plan, the template or the closure that binds
its arguments and assigns the fields (signatures: ``_signature``; call errors:
``_callrules``).

What differs per class (names, defaults, factories, which values to assign where)
is computed here, at class creation or on first use. A class whose fields are
all positional parameters gets a relabelled template (``template_init``): a
real function, whose arguments the interpreter binds. Every other class binds
through ``_binder`` (C-level dict work, the interpreter's ``TypeError`` texts)
and assigns through ``_assigner`` (one ``map``, or a loop where default
factories are due).
"""

import sys
from dataclasses import MISSING
from _operator import itemgetter  # operator's own; importing operator costs on 3.15
from itertools import repeat
from types import ModuleType

from ._convert import Kept, note_failure, note_template_failure, param_name, stores_directly
from ._fields import INITVAR, FACTORY, default_of
from ._getters import operator_tuple, unrolled_stores
from ._relabel import is_template, relabel, templates
from ._signature import ModuleScope, SignatureBuild, set_init_annotations

_object_setattr = object.__setattr__


class InitPlan:
    """What an ``__init__`` of either backend needs, built from the class's plan.

    ``names``: the parameters in order (``n_positional`` positional ones, then
    keyword-only); ``defaults``: per parameter its default, ``FACTORY`` (a
    default factory is due) or ``MISSING`` (none); ``steps``: per stored field
    ``(name, parameter index or -1, factory or None)`` in definition order;
    ``initvars``: the parameter indexes of the InitVars; ``unbound``: the name
    of an ``init=False`` InitVar (or None); ``binder``: ``_binder`` behind a
    method that builds it on first use (``full_binder``: built now);
    ``take_self``: for a call that gives no positional argument. Beyond the
    stdlib (None when no field has them): ``converters``, per step its
    converter or None; ``validations``, per validated step ``(step index,
    field, validators)``; ``direct``: store through ``object.__setattr__``
    (the class's ``__setattr__`` converts).
    """

    __slots__ = ('cls', 'first_param', 'positional', 'keyword', 'fields', 'names',
                 'n_positional', 'defaults', 'steps', 'initvars', 'unbound', 'frozen',
                 'slots', 'has_post_init', 'converters', 'validations', 'direct', 'hooked',
                 'aliased', '_binder', 'untrack')

    def __init__(self, plan):
        self.cls = plan.cls
        hooks = plan.hooks
        # ClassVars count, as in the stdlib
        self.first_param = self_name(plan.all_fields, hooks is not None and hooks.aliased)
        self.frozen, self.slots, self.has_post_init = plan.frozen, plan.slots, plan.has_post_init
        self.untrack = plan.untrack
        # One pass: the parameters, and whether every field is a plain positional
        # parameter without a factory (the template case).
        positional, keyword, simple = [], [], hooks is None
        for f in plan.fields:
            if f.init:
                (keyword if f.kw_only else positional).append(f)
                if f.kw_only or f._field_type is INITVAR or f.default_factory is not MISSING:
                    simple = False
            else:
                simple = False
        self.positional, self.keyword = positional, keyword
        self.fields = plan.fields
        params = positional + keyword if keyword else positional
        self.names = names = tuple([f.name for f in params] if hooks is None
                                   else [param_name(f) for f in params])
        self.n_positional = len(positional)
        # simple: no factories, so each default is the field's (MISSING: none)
        self.defaults = (tuple([f.default for f in params]) if simple
                         else tuple([default_of(f) for f in params]))
        if simple:  # what _assignment gives: each field stored from its parameter
            self.steps = tuple(zip(names, range(len(names)), repeat(None)))
            self.initvars, self.unbound = (), None
        else:
            self.steps, self.initvars, self.unbound = _assignment(plan.fields, params,
                                                                  plan.slots, hooks)
        self.converters = self.validations = None
        self.direct = stores_directly(hooks)
        self.hooked = hooks is not None
        self.aliased = hooks is not None and bool(hooks.aliased)
        if hooks is not None and (hooks.converters or hooks.validators):
            self.converters, self.validations = _per_step(self.steps, hooks)
        self._binder = None

    def take_self(self, kwargs):
        """Takes the stdlib's ``self`` out of ``kwargs``: it is an ordinary
        parameter, so ``C.__init__(self=obj, x=1)`` binds it by keyword (named
        ``__dataclass_self__`` when a field is called ``self``). Or raises the
        interpreter's error."""
        first = self.first_param
        if first in kwargs:
            return kwargs.pop(first)
        from ._callrules import call_error_factory  # a bad call: not at import
        call_error_factory(self.cls, first, self.positional, self.keyword)(
            (), kwargs, self_given=False)

    def binder(self, args, kwargs):
        """``bind(args, kwargs)`` (see ``_binder``), whose closures are built on
        its first call: most classes never meet a call that needs it, and building
        them was a tenth of the class's creation."""
        return self.full_binder(args, kwargs)

    @property
    def full_binder(self):
        binder = self._binder
        if binder is None:
            binder = self._binder = _binder(self.cls, self.first_param, self.positional,
                                            self.keyword)
        return binder


def make_init(plan, backend):
    """``__init__`` with the stdlib's behaviour (3.13 ``_init_fn``) from ``backend``,
    with the signature and annotations of the stdlib's."""
    if backend.plain_template_wins(plan):
        # The usual class (every field a positional parameter, no factory):
        # the template straight from the class's plan, no InitPlan.
        __init__ = _plain_template_init(plan)
        if __init__ is not None:
            set_init_annotations(__init__, plan.cls, plan.fields)
            return __init__
    init_plan = InitPlan(plan)
    __init__ = backend.init(init_plan)
    if not is_template(__init__):
        # A closure: its signature, and where its string annotations resolve,
        # are given; a relabelled template has its own, as the stdlib's has.
        backend.defer_signature(__init__, SignatureBuild(init_plan))
        if any(isinstance(f.type, str) for f in init_plan.positional + init_plan.keyword):
            __init__.__wrapped__ = ModuleScope(plan.cls.__module__)
    set_init_annotations(__init__, plan.cls, plan.fields, init_plan.hooked)
    return __init__


MISSING_ARG = object()  # a parameter not given; never visible to callers


def template_init(plan):
    """The ``__init__`` of an ``InitPlan`` as a relabelled template
    (``_templates``): a function ``def __init__(self, x, y=0)`` storing each
    field from its parameter, calling a default factory where its parameter is
    the marker, then ``__post_init__()``; with converters or validators, the
    converting template (``_convert`` has the order). None where the class
    needs what no template does (keyword-only fields, InitVars, ``init=False``
    fields it must store, aliases) or ``relabel`` declines."""
    n = len(plan.names)
    if plan.aliased:  # the closure's binder also takes each field's own name
        return None
    if (plan.keyword or plan.initvars or plan.unbound is not None or len(plan.steps) != n
            or n >= len(templates().INIT)):  # wider than the largest template
        return None
    factories = []
    for i, (_, index, factory) in enumerate(plan.steps):
        if index != i:  # an init=False field stored in between
            return None
        factories.append(factory)
    has_factory = any(f is not None for f in factories)
    last = False
    if plan.converters is not None:
        table = templates().CONVERTS[has_factory, plan.has_post_init]
        values = (_object_setattr, type, Kept, note_template_failure,
                  *[name for name, _, _ in plan.steps],
                  *[_same if c is None else c for c in plan.converters],
                  *_validator_calls(plan))
    else:
        # Only the last field has a factory (the usual case): the others are
        # stored as they come, as the stdlib's __init__ does.
        last = has_factory and factories[-1] is not None and factories.count(None) == n - 1
        table = templates().INITS[plan.frozen, 'last' if last else has_factory,
                                  plan.has_post_init]
        values = (_object_setattr, *plan.names) if plan.frozen else ()
    if last:
        values += (FACTORY, factories[-1])
    elif has_factory:
        # A field without a factory given the marker stores the marker, as in
        # the stdlib: its "factory" returns the marker.
        values += (FACTORY, *[_marker if f is None else f for f in factories])
    return _relabel_init(plan.cls, table, plan.names, values, plan.first_param,
                         [d for d in plan.defaults if d is not MISSING])


def _plain_template_init(plan):
    """``template_init`` for a class whose fields are all plain positional
    parameters (no keyword-only field, InitVar, ``init=False`` field, default
    factory, converter, validator or alias), read from the class's ``Plan``;
    None for any other class, or where ``relabel`` declines."""
    if plan.hooks is not None or len(plan.fields) >= len(templates().INIT):
        return None  # (wider than the largest template)
    names, defaults = [], []
    for f in plan.fields:
        if (not f.init or f.kw_only or f._field_type is INITVAR
                or f.default_factory is not MISSING):
            return None
        names.append(f.name)
        if f.default is not MISSING:
            defaults.append(f.default)
    frozen = plan.frozen
    table = templates().INITS[frozen, False, plan.has_post_init]
    values = (_object_setattr, *names) if frozen else ()
    return _relabel_init(plan.cls, table, tuple(names), values,
                         self_name(plan.all_fields), defaults)


def _relabel_init(cls, table, names, values, first_param, defaults):
    """A template ``__init__`` relabelled for ``cls``, with the globals of the
    class's module (where its annotations and default factories resolve)."""
    module = sys.modules.get(cls.__module__)
    return relabel(table, names, values, first_param, tuple(defaults) or None,
                   module.__dict__ if isinstance(module, ModuleType) else {})


def _same(value):
    """The converter of a field without one, in the converting template."""
    return value


def _unchecked(instance, field, value):
    """The validator of a field without one, in the converting template."""


def _validator_calls(plan):
    """Per step its validator call, then per step its field (``_v0``..., ``_F0``...)."""
    by_step = {k: (field, checks) for k, field, checks in plan.validations}
    calls, fields = [], []
    for k in range(len(plan.steps)):
        field, checks = by_step.get(k, (None, ()))
        calls.append(_unchecked if not checks else checks[0] if len(checks) == 1
                     else _all_of(checks))
        fields.append(field)
    return (*calls, *fields)


def _all_of(checks):
    def validate(instance, field, value):
        for check in checks:
            check(instance, field, value)
    return validate


_marker = repeat(FACTORY).__next__


def pure_init(plan):
    """The pure ``__init__`` of an ``InitPlan``: a relabelled template
    (``template_init``), else a closure that binds like ``def __init__(self, x,
    y=0, *, z)``, assigns fields in definition order (``object.__setattr__``
    when frozen), calling each default factory at its field's turn, then calls
    ``__post_init__`` with the InitVars."""
    template = template_init(plan)
    if template is not None:
        return template
    store = _object_setattr if plan.frozen or plan.direct else setattr
    bind = plan.full_binder
    assign = _assigner(plan, store)
    take_self = plan.take_self

    def __init__(self=MISSING_ARG, /, *args, **kwargs):
        if self is MISSING_ARG:  # C.__init__(self=obj, ...)
            self = take_self(kwargs)
        assign(self, bind(args, kwargs))
    return __init__


def _binder(cls, first_param, positional, keyword):
    """``bind(args, kwargs)``: the argument values in parameter order (positional,
    then keyword-only), ``FACTORY`` where a default factory is due, or the
    interpreter's ``TypeError``. An aliased field is also taken under its own
    name (the spelling of the tools that build data classes by field name)."""
    # Prepared on the first call, so that defining a class costs only the closures.
    names = npos = name_set = by_name = values_of = defaults = aliases = None
    pos_defaults = first_default = kw_values = kw_complete = None

    def prepare():
        nonlocal names, npos, name_set, by_name, values_of, defaults, aliases
        nonlocal pos_defaults, first_default, kw_values, kw_complete
        params = positional + keyword
        all_names = tuple(param_name(f) for f in params)
        npos = len(positional)
        name_set = frozenset(all_names)
        by_name = dict.fromkeys(all_names).keys()
        values_of = _item_tuple(all_names)
        defaults = {param_name(f): d for f in params
                    if (d := default_of(f)) is not MISSING}
        pos_defaults = tuple(defaults[name] for name in all_names[:npos] if name in defaults)
        first_default = npos - len(pos_defaults)
        kw_values = tuple(defaults.get(name, MISSING) for name in all_names[npos:])
        kw_complete = all(v is not MISSING for v in kw_values)  # no __eq__ calls
        aliases = {f.name: alias for f, alias in zip(params, all_names) if alias != f.name}
        names = all_names  # last: another thread may be testing it

    def attempt(args, kwargs):
        """The values, or None where the call does not bind as given."""
        if kwargs:
            if not args and kwargs.keys() == by_name:  # every argument by keyword
                return values_of(kwargs)
            bound = defaults.copy()
            bound.update(zip(names, args))
            if (len(args) > npos or not name_set.issuperset(kwargs)
                    or not kwargs.keys().isdisjoint(names[:len(args)])):
                return None
            bound.update(kwargs)
            return values_of(bound) if len(bound) == len(names) else None
        if len(args) == npos and kw_complete:
            return args + kw_values
        if first_default <= len(args) < npos and kw_complete:
            return args + pos_defaults[len(args) - first_default:] + kw_values
        return None

    # No function here refers to bind itself: dill sends a class's closures (its
    # __init__ on the pure backend) by value and recurses on a cycle of cells.
    def bind(args, kwargs):
        if names is None:
            prepare()
        values = attempt(args, kwargs)
        if values is not None:
            return values
        # errors are rare: prepared for then
        spelled = (_by_parameter_name(kwargs, aliases, f'{cls.__qualname__}.__init__')
                   if aliases else None)
        if spelled is not None:
            values = attempt(args, spelled)
            if values is not None:
                return values
            kwargs = spelled
        from ._callrules import call_error_factory  # a bad call: not at import
        call_error_factory(cls, first_param, positional, keyword)(args, kwargs)
    return bind


def _by_parameter_name(kwargs, aliases, qualname):
    """``kwargs`` with each aliased field's own name replaced by its alias (the
    parameter), in the call's order; None where no keyword is such a name. A
    field given under both names is a duplicate, in the interpreter's words."""
    if aliases.keys().isdisjoint(kwargs):
        return None
    spelled = {}
    for key, value in kwargs.items():
        key = aliases.get(key, key)
        if key in spelled:
            raise TypeError(f'{qualname}() got multiple values for argument {key!r}')
        spelled[key] = value
    return spelled


def _item_tuple(names):
    """``mapping -> (mapping[a], mapping[b], ...)`` as one C call, for any count."""
    return operator_tuple(itemgetter, names)


def _assignment(fields, params, slots, hooks=None):
    """What ``__init__`` stores, in definition order: (name, parameter index or
    -1, factory or None) per field; the parameter indexes of the InitVars;
    the name of an ``init=False`` InitVar (or None). An ``init=False`` field
    with a default is stored only in a slotted class (elsewhere the class
    attribute serves), or where it has a converter (its result is stored)."""
    converted = hooks.converters if hooks is not None else ()
    index = {f.name: i for i, f in enumerate(params)}  # by field name, not parameter
    steps = []
    for f in fields:
        factory = None if f.default_factory is MISSING else f.default_factory
        if f._field_type is INITVAR:
            continue
        if f.init:
            steps.append((f.name, index[f.name], factory))
        elif factory is not None:
            steps.append((f.name, -1, factory))
        elif (slots or f.name in converted) and f.default is not MISSING:
            steps.append((f.name, -1, repeat(f.default).__next__))
    initvars = tuple(index[f.name] for f in fields if f.init and f._field_type is INITVAR)
    # The stdlib passes every InitVar to __post_init__ by name; one with
    # init=False is no parameter there, so its __init__ fails with NameError.
    unbound = next((f.name for f in fields if f._field_type is INITVAR and not f.init), None)
    return tuple(steps), initvars, unbound


def _per_step(steps, hooks):
    """Per step its converter (or None), and ``(step index, field, validators)``
    per step whose field has validators."""
    converters = tuple([hooks.converters.get(name) for name, _, _ in steps])
    validations = tuple([(i, *hooks.validators[name]) for i, (name, _, _) in enumerate(steps)
                         if name in hooks.validators])
    return converters, validations


def _assigner(plan, store):
    """``assign(self, values)``: store the fields in definition order, calling
    default factories at their field's turn, then call ``__post_init__`` with
    the InitVars (in definition order, as the stdlib does)."""
    if plan.converters is not None:
        return _converting_assigner(plan, store)
    initvars, unbound, has_post_init = plan.initvars, plan.unbound, plan.has_post_init
    # None for "no parameter" (the plan's -1): an identity test in the loop below
    steps = tuple((name, None if i < 0 else i, factory) for name, i, factory in plan.steps)
    names = tuple(name for name, _, _ in steps)
    picks = tuple(i for _, i, _ in steps)
    plain = all(i is not None and factory is None for _, i, factory in steps)
    unrolled = unrolled_stores(steps, store, FACTORY)  # PyPy only

    def assign(self, values):
        if unrolled is not None:
            unrolled(self, values)
        elif plain:  # C loop; every store returns None
            any(map(store, repeat(self), names, map(values.__getitem__, picks)))
        else:
            for name, i, factory in steps:
                if i is None:
                    value = factory()
                else:
                    value = values[i]
                    if value is FACTORY and factory is not None:
                        value = factory()
                store(self, name, value)
        if has_post_init:
            if unbound is not None:
                raise NameError(f'name {unbound!r} is not defined')
            self.__post_init__(*map(values.__getitem__, initvars))
    return assign


def _converting_assigner(plan, store):
    """``assign(self, values)`` of a class with converters or validators: every
    value first (factories and converters in definition order; a ``Kept`` value
    from ``replace()`` as it is), then the stores, then the validators, then
    ``__post_init__``: a converter that raises leaves nothing stored."""
    initvars, unbound, has_post_init = plan.initvars, plan.unbound, plan.has_post_init
    steps = tuple((name, None if i < 0 else i, factory, convert)
                  for (name, i, factory), convert in zip(plan.steps, plan.converters))
    names = tuple(name for name, _, _, _ in steps)
    validations = plan.validations

    def assign(self, values):
        computed = []
        for name, i, factory, convert in steps:
            if i is None:
                value = factory()
            else:
                value = values[i]
                if value is FACTORY and factory is not None:
                    value = factory()
            if convert is not None:
                try:
                    value = value.value if type(value) is Kept else convert(value)
                except Exception as exc:
                    note_failure(exc, self, name, False)
                    raise
            computed.append(value)
        any(map(store, repeat(self), names, computed))  # every store returns None
        for k, field, checks in validations:
            try:
                for check in checks:
                    check(self, field, computed[k])
            except Exception as exc:
                note_failure(exc, self, field.name, True)
                raise
        if has_post_init:
            if unbound is not None:
                raise NameError(f'name {unbound!r} is not defined')
            self.__post_init__(*map(values.__getitem__, initvars))
    return assign


def self_name(fields, aliased=False):
    """``self``, unless a field (or, with aliases, a parameter) is so called."""
    for f in fields:
        if (param_name(f) if aliased else f.name) == 'self':
            return '__dataclass_self__'
    return 'self'
