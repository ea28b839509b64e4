"""The generated ``__init__``: argument binding, assignment, signature, call errors.

One closure serves every class; what differs per class (names, defaults, factories,
which values to assign where) is computed once here, at class creation, so a call
does only C-level work on the common paths: no per-call loops in Python.
"""

import inspect
from dataclasses import MISSING, _HAS_DEFAULT_FACTORY as FACTORY
from itertools import repeat
from types import MemberDescriptorType

from ._fields import CLASSVAR, INITVAR

_NO_DEFAULT = object()
_object_setattr = object.__setattr__
_member_set = MemberDescriptorType.__set__


def init_parameters(fields):
    """(positional, keyword-only) fields of ``__init__``, as the stdlib orders them."""
    params = [f for f in fields if f.init and f._field_type is not CLASSVAR]
    return ([f for f in params if not f.kw_only], [f for f in params if f.kw_only])


def _default_of(f):
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return FACTORY
    return _NO_DEFAULT


def make_init(cls, fields, frozen, slots, has_post_init):
    """``__init__`` with the stdlib's behaviour (3.13 ``_init_fn``), as a closure.

    Binds like ``def __init__(self, x, y=0, *, z)``, calls default factories,
    assigns fields in definition order (``object.__setattr__`` when frozen),
    then calls ``__post_init__`` with the InitVars.
    """
    first_param = self_name(fields)  # ClassVars count here, as in the stdlib
    fields = [f for f in fields if f._field_type is not CLASSVAR]
    positional, keyword = init_parameters(fields)
    params = positional + keyword
    names = tuple(f.name for f in params)
    npos = len(positional)
    name_set = frozenset(names)
    defaults = {f.name: d for f in params if (d := _default_of(f)) is not _NO_DEFAULT}
    pos_defaults = tuple(defaults[f.name] for f in positional if f.name in defaults)
    first_default = npos - len(pos_defaults)
    kw_values = tuple(defaults.get(f.name, _NO_DEFAULT) for f in keyword)
    kw_complete = _NO_DEFAULT not in kw_values
    factories = tuple((i, f.default_factory) for i, f in enumerate(params)
                      if f.default_factory is not MISSING)

    # Values beyond the parameters: init=False fields that __init__ must set.
    extras = [f for f in fields if not f.init and f._field_type is not INITVAR
              and (f.default_factory is not MISSING
                   or (slots and f.default is not MISSING))]
    extra_factories = tuple(f.default_factory if f.default_factory is not MISSING
                            else repeat(f.default).__next__ for f in extras)
    slot_of = {f.name: i for i, f in enumerate(params + extras)}
    assigned = [f for f in fields if f.name in slot_of and f._field_type is not INITVAR]
    assign_names = tuple(f.name for f in assigned)
    assign_index = tuple(slot_of[name] for name in assign_names)
    direct = assign_index == tuple(range(len(params)))  # values already in order
    # In definition order, as the stdlib passes them, not in parameter order.
    initvar_index = tuple(slot_of[f.name] for f in fields
                          if f._field_type is INITVAR and f.name in slot_of)
    # The stdlib passes every InitVar to __post_init__ by name; one with
    # init=False is no parameter, so calling __init__ fails with NameError.
    unbound = next((f.name for f in fields if f._field_type is INITVAR and not f.init),
                   None)
    setter, targets = _setter(cls, assign_names, frozen)
    raise_call_error = _call_error_factory(cls, first_param, positional, keyword)

    def __init__(self, /, *args, **kwargs):
        if kwargs:
            bound = defaults.copy()
            bound.update(zip(names, args))
            if (len(args) > npos or not name_set.issuperset(kwargs)
                    or not kwargs.keys().isdisjoint(names[:len(args)])):
                raise_call_error(args, kwargs)
            bound.update(kwargs)
            if len(bound) != len(names):
                raise_call_error(args, kwargs)
            values = list(map(bound.__getitem__, names))
        elif len(args) == npos and kw_complete:
            values = args + kw_values
        elif first_default <= len(args) < npos and kw_complete:
            values = args + pos_defaults[len(args) - first_default:] + kw_values
        else:
            raise_call_error(args, kwargs)
        if factories or extra_factories:
            values = list(values)
            for i, factory in factories:
                if values[i] is FACTORY:
                    values[i] = factory()
            values.extend([factory() for factory in extra_factories])
        if not direct:
            picked = list(map(values.__getitem__, assign_index))
        else:
            picked = values
        # any() drains the map in C; every store returns None.
        if targets is None:
            any(map(setter, repeat(self), assign_names, picked))
        else:
            any(map(setter, targets, repeat(self), picked))
        if has_post_init:
            if unbound is not None:
                raise NameError(f'name {unbound!r} is not defined')
            self.__post_init__(*map(values.__getitem__, initvar_index))

    __init__.__signature__ = _signature(first_param, positional, keyword)
    __init__.__annotations__ = init_annotations(cls, params)
    return __init__


def _setter(cls, names, frozen):
    """How to store fields: ``setattr``; when frozen ``object.__setattr__``, or
    straight through the slot descriptors when every field is a slot (the same
    store ``object.__setattr__`` would reach, minus its lookup)."""
    if not frozen:
        return setattr, None
    descriptors = [getattr(cls, name, None) for name in names]
    if names and all(isinstance(d, MemberDescriptorType) for d in descriptors):
        return _member_set, tuple(descriptors)
    return _object_setattr, None


def init_annotations(cls, params):
    """``__init__.__annotations__`` as the stdlib's: field types, ``return: None``.

    String annotations become ``ForwardRef``s that remember the class's module,
    so ``typing.get_type_hints(C.__init__)`` resolves them there and not in ours.
    """
    import typing
    module = cls.__module__
    annotations = {}
    for f in params:
        tp = f.type
        if isinstance(tp, str):
            tp = typing.ForwardRef(tp, is_argument=True, module=module)
        annotations[f.name] = tp
    annotations['return'] = None
    return annotations


def self_name(fields):
    return '__dataclass_self__' if any(f.name == 'self' for f in fields) else 'self'


def _signature(first_param, positional, keyword):
    P = inspect.Parameter
    params = [P(first_param, P.POSITIONAL_OR_KEYWORD)]
    for kind, group in ((P.POSITIONAL_OR_KEYWORD, positional), (P.KEYWORD_ONLY, keyword)):
        for f in group:
            default = _default_of(f)
            params.append(P(f.name, kind, annotation=f.type,
                            default=P.empty if default is _NO_DEFAULT else default))
    return inspect.Signature(params, return_annotation=None)


def _call_error_factory(cls, first_param, positional, keyword):
    """A function raising the interpreter's own ``TypeError`` for a bad call.

    Reproduces CPython's argument binding (``initialize_locals`` in ceval.c) for
    ``def __init__(self, <positional>, *, <keyword>)``: keywords first (unexpected,
    then multiple values), then too many positionals, then missing ones.
    """
    qualname = f'{cls.__qualname__}.__init__'
    names = [first_param] + [f.name for f in positional]
    kw_names = [f.name for f in keyword]
    argcount = len(names)
    defcount = sum(1 for f in positional if _default_of(f) is not _NO_DEFAULT)
    kw_required = [f.name for f in keyword if _default_of(f) is _NO_DEFAULT]

    def raise_call_error(args, kwargs):
        given = len(args) + 1
        bound = set(names[:given])
        for key in kwargs:
            if key not in names and key not in kw_names:
                raise TypeError(f'{qualname}() got an unexpected keyword argument {key!r}')
            if key in bound:
                raise TypeError(f'{qualname}() got multiple values for argument {key!r}')
            bound.add(key)
        if given > argcount:
            raise TypeError(_too_many(qualname, argcount, defcount, given,
                                      sum(1 for k in kw_names if k in bound)))
        missing = [n for n in names[:argcount - defcount] if n not in bound]
        if missing:
            raise TypeError(_missing(qualname, 'positional', missing))
        missing = [n for n in kw_required if n not in bound]
        if missing:
            raise TypeError(_missing(qualname, 'keyword-only', missing))
        raise AssertionError('unreachable: the call binds')  # pragma: no cover

    return raise_call_error


def _too_many(qualname, argcount, defcount, given, kwonly_given):
    if defcount:
        sig, plural = f'from {argcount - defcount} to {argcount}', True
    else:
        sig, plural = str(argcount), argcount != 1
    kwonly = ''
    if kwonly_given:
        kwonly = (f' positional argument{"s" if given != 1 else ""} (and {kwonly_given} '
                  f'keyword-only argument{"s" if kwonly_given != 1 else ""})')
    verb = 'was' if given == 1 and not kwonly_given else 'were'
    return (f'{qualname}() takes {sig} positional argument{"s" if plural else ""} '
            f'but {given}{kwonly} {verb} given')


def _missing(qualname, kind, missing):
    quoted = [repr(n) for n in missing]
    if len(quoted) == 1:
        listed = quoted[0]
    elif len(quoted) == 2:
        listed = f'{quoted[0]} and {quoted[1]}'
    else:
        listed = ', '.join(quoted[:-1]) + ', and ' + quoted[-1]
    plural = '' if len(quoted) == 1 else 's'
    return f'{qualname}() missing {len(quoted)} required {kind} argument{plural}: {listed}'
