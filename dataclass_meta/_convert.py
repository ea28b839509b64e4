"""Converters, validators and aliases: their checks, and what ``__init__`` and
assignment run per field.

None of this is the stdlib's: a class whose fields use none of the three gets
``None`` from ``hooks_of`` and every generated method exactly as before.

The order, on every path (both backends): ``__init__`` computes each stored
field's value in definition order (the argument, the default or the default
factory's result, then its converter), stores them all, then calls the
validators in definition order, then ``__post_init__``; a converter that raises
leaves nothing stored. Assignment to a field of a non-frozen class converts,
validates, then stores. ``replace()`` converts only the values it is given.
"""

import keyword
import sys
from dataclasses import MISSING

from . import _fields
from ._fields import CLASSVAR, INITVAR

_object_setattr = object.__setattr__


def given(f):
    """``(converter, validator, alias)`` of field ``f`` as ``field()`` or
    ``Field``'s own attributes hold them, or None. Only ours count: a
    ``Field`` subclass with attributes of those names of its own (a framework's
    older scheme) is left alone, whatever else the process has done."""
    return getattr(f, '_hooks', None)


def param_name(f):
    """The ``__init__`` parameter of field ``f``: its alias, else its name."""
    hooks = getattr(f, '_hooks', None)
    return (hooks is not None and hooks[2]) or f.name


# 3.11+: exception notes (PEP 678). 3.10 has none: there an exception from a
# converter or validator is left exactly as raised.
NOTES = sys.version_info >= (3, 11)


def note_failure(exc, instance, name, validating, param=None):
    """Add to ``exc``, raised by the converter (or a validator) of field ``name``
    of ``instance``'s class, a note naming the class, the field and its
    ``__init__`` parameter where that differs (``param``; looked up when None);
    its type and message stay. Only for an ``Exception`` (not ``KeyboardInterrupt``).
    Runs on the error path only; never raises."""
    if not NOTES or not isinstance(exc, Exception):
        return
    cls = type(instance)
    if param is None:
        f = getattr(cls, '__dataclass_fields__', {}).get(name)
        param = name if f is None else param_name(f)
    where = f'field {name!r} of data class {cls.__name__!r}'
    if param and param != name:
        where += f' (parameter {param!r})'
    exc.add_note(f"while {'validating' if validating else 'converting'} {where}")


def note_template_failure(instance, offset, kind):
    """``note_failure`` from the handler of a relabelled converting template
    (``_templates``, ``convert_*``): the failing line, ``offset`` lines below its
    ``def`` for the first field, gives the field's place (``kind`` 0: converting,
    1: validating, a line per field; 2: converting, a default factory's line
    before each converter's), and the code's parameter names (relabelled) its
    parameter."""
    exc = sys.exc_info()[1]
    if not NOTES or not isinstance(exc, Exception):
        return
    tb = exc.__traceback__
    code = tb.tb_frame.f_code
    step = tb.tb_lineno - code.co_firstlineno - offset
    if kind == 2:
        step, converting = divmod(step, 2)
        if not converting:  # the default factory raised
            return
    param = code.co_varnames[1 + step]
    fields = getattr(type(instance), '__dataclass_fields__', {})
    name = next((f.name for f in fields.values() if f.init and param_name(f) == param
                 and f._field_type is not CLASSVAR), param)
    note_failure(exc, instance, name, kind == 1, param)


class Kept:
    """A value ``replace()`` carries over unchanged: ``__init__`` stores it as
    it is instead of converting it again (only the generated ``__init__`` of a
    class with converters ever receives one)."""

    __slots__ = ('value',)

    def __init__(self, value):
        self.value = value


class Hooks:
    """One class's converters, validators and aliases, checked.

    ``converters``: ``{name: converter}``; ``validators``: ``{name: (field,
    (validator, ...))}``, both in definition order; ``aliased``: whether any
    ``__init__`` parameter is not its field's name; ``on_assign``: ``{name:
    (converter or None, field, validators)}`` for ``__setattr__``.
    """

    __slots__ = ('converters', 'validators', 'aliased', 'on_assign')

    def __init__(self, converters, validators, aliased, on_assign):
        self.converters, self.validators = converters, validators
        self.aliased, self.on_assign = aliased, on_assign


def hooks_of(cls, fields):
    """The checked ``Hooks`` of a class's fields (every field, ClassVars
    included), or None where no field has a converter, validator or alias."""
    if not _fields.hooks_used or not any(map(given, fields)):
        return None
    converters, validators, on_assign, aliased, params = {}, {}, {}, False, {}
    for f in fields:
        convert, validator, alias = given(f) or (None, None, None)
        checks = _validators(cls, f, validator)
        if f._field_type is CLASSVAR:
            for option, value in (('converter', convert), ('validator', checks),
                                  ('alias', alias)):
                if value:
                    raise TypeError(f'field {f.name} is a ClassVar but specifies {option}')
            continue
        if convert is not None:
            if not callable(convert):
                raise TypeError(f'{_where(cls, f)}: converter {convert!r} is not callable')
            if f._field_type is INITVAR:
                raise TypeError(f'{_where(cls, f)} is an InitVar and cannot have a '
                                f'converter: convert it in __post_init__')
            if not f.init and f.default is MISSING and f.default_factory is MISSING:
                raise TypeError(f'{_where(cls, f)} has a converter but init=False and no '
                                f'default: give it a default or a default_factory')
            converters[f.name] = convert
        if checks:
            if f._field_type is INITVAR:
                raise TypeError(f'{_where(cls, f)} is an InitVar and cannot have a '
                                f'validator: check it in __post_init__')
            validators[f.name] = (f, checks)
        if convert is not None or checks:
            on_assign[f.name] = (convert, f, checks)
        if alias is not None:
            _check_alias(cls, f, alias)
            aliased = aliased or (f.init and alias != f.name)
        if f.init:
            name = alias or f.name
            if name in params:
                raise TypeError(f'{_where(cls, f)}: __init__ parameter {name!r} is already '
                                f'that of field {params[name].name!r}: choose another alias')
            params[name] = f
    return Hooks(converters, validators, aliased, on_assign)


def _where(cls, f):
    return f'field {f.name!r} of data class {cls.__name__!r}'


def _validators(cls, f, given):
    """The field's validators as a tuple (a callable, or a sequence of them)."""
    if given is None:
        return ()
    if callable(given) or isinstance(given, (str, bytes)):
        checks = (given,)
    else:
        try:
            checks = tuple(given)
        except TypeError:  # neither a callable nor a sequence
            checks = (given,)
    for check in checks:
        if not callable(check):
            raise TypeError(f'{_where(cls, f)}: validator {check!r} is not callable '
                            f'(give a callable or a sequence of callables)')
    return checks


def _check_alias(cls, f, alias):
    if not isinstance(alias, str):
        raise TypeError(f'{_where(cls, f)}: alias must be a str, not {type(alias).__name__}')
    if not alias.isidentifier() or keyword.iskeyword(alias):
        raise ValueError(f'{_where(cls, f)}: alias {alias!r} is not a valid parameter '
                         f'name: give an identifier that is not a keyword')


def make_setattr(plan):
    """``__setattr__`` of a non-frozen class with converters or validators:
    convert, validate, then store (through ``object.__setattr__``, as the
    generated ``__init__`` of such a class stores)."""
    hooks, cls = plan.hooks, plan.cls
    on_assign = hooks.on_assign if hooks is not None else {}
    lookup = on_assign.get

    def __setattr__(self, name, value):
        hook = lookup(name)
        if hook is not None:
            convert, field, checks = hook
            if convert is not None:
                try:
                    value = convert(value)
                except Exception as exc:
                    note_failure(exc, self, name, False, name)
                    raise
            try:
                for check in checks:
                    check(self, field, value)
            except Exception as exc:
                note_failure(exc, self, name, True, name)
                raise
        _object_setattr(self, name, value)
    __setattr__.__qualname__ = f'{cls.__qualname__}.__setattr__'
    __setattr__.converts = True  # what a subclass's pipeline looks for
    return __setattr__


def wants_setattr(hooks, cls, frozen):
    """Whether ``cls`` gets a converting ``__setattr__``: not frozen, and its
    fields have converters or validators, or it inherits one that does (a
    subclass may have dropped them)."""
    if frozen:
        return False
    if hooks is not None and hooks.on_assign:
        return True
    return getattr(getattr(cls, '__setattr__', None), 'converts', False)


def stores_directly(hooks):
    """Whether ``__init__`` stores through ``object.__setattr__`` (the class's
    ``__setattr__`` would convert and validate a second time)."""
    return hooks is not None and bool(hooks.on_assign)
