"""Validated models: field types checked at construction and on assignment.

    class User(Model):
        name: str = check(converter=str.strip)
        age: int = check(default=0, validator=non_negative)

Built on dataclass_meta's public extension points (docs/frameworks.md) and its
per-field converters and validators (docs/guide.md):
- ``check()`` is the framework's field specifier: ``field()`` with a validator
  of the value alone, kept on ``Check``, a ``Field`` subclass;
  ``dataclass_transform`` tells type checkers about it;
- the field hook gives every field, on a copy, a converter whose errors name the
  field and the model, and ``validate`` (the type, then ``check()``'s validator)
  first among its validators; the library runs them in ``__init__`` and on
  assignment to a mutable model's field: no ``__init__`` wrapper, no
  ``__setattr__`` here;
- two bases, because ``frozen`` is inherited: a frozen model cannot derive from a
  mutable one, so the shared behaviour lives in a mixin.
"""

import copy
import sys
import types
import typing
from typing import Any, Callable, Optional

from dataclass_meta import MISSING, DataClass, Field, fields

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:
    from typing_extensions import dataclass_transform

__all__ = ['Model', 'FrozenModel', 'check', 'Check', 'ValidationError', 'conforms',
           'validate', 'Converter']


class ValidationError(TypeError, ValueError):
    """A value a model refuses: a wrong type (TypeError) or a failed validator."""


class Check(Field):
    """A field with ``value_validator``, a validator of the value alone."""

    __slots__ = ('value_validator',)
    value_validator: Optional[Callable[[Any], object]]


def check(*, converter=None, validator=None, alias=None, default=MISSING,
          default_factory=MISSING, init=True, repr=True, hash=None, compare=True,
          metadata=None, kw_only=MISSING, doc=None) -> Any:
    """``field()`` whose ``validator(value)`` takes the value alone and raises
    ``ValueError`` with a message to refuse it."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
    if validator is not None and not callable(validator):
        raise TypeError(f'validator {validator!r} is not callable')
    f = Check(default, default_factory, init, repr, hash, compare, metadata, kw_only, doc,
              converter=converter, alias=alias)
    f.value_validator = validator
    return f


def conforms(value, tp):
    """Whether ``value`` is of type ``tp``: classes, unions, lists, dicts, tuples."""
    if tp is Any:
        return True
    if tp is None or tp is type(None):
        return value is None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        return any(conforms(value, arg) for arg in args)
    if origin is typing.Literal:
        return value in args
    if origin is list or origin is set or origin is frozenset:
        return isinstance(value, origin) and all(conforms(v, args[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            conforms(k, args[0]) and conforms(v, args[1]) for k, v in value.items())
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return isinstance(value, tuple) and all(conforms(v, args[0]) for v in value)
        return (isinstance(value, tuple) and len(value) == len(args)
                and all(map(conforms, value, args)))
    if origin is not None:  # other generics: the container's class only
        return isinstance(value, origin)
    if tp is int or tp is float:  # bool is not a number here; int is a float (PEP 484)
        return (isinstance(value, (int, float) if tp is float else int)
                and not isinstance(value, bool))
    return isinstance(value, tp) if isinstance(tp, type) else True


def describe(tp):
    """``tp`` as written in an annotation: ``list[User]``, ``int | None``."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        return ' | '.join(map(describe, args))
    if origin is not None and args:
        return f'{describe(origin)}[{", ".join(map(describe, args))}]'
    if tp is None or tp is type(None):
        return 'None'
    if tp is Ellipsis:
        return '...'
    return getattr(tp, '__name__', None) or repr(tp).replace('typing.', '')


def field_types(cls):
    """Name -> type of every field, resolved on first use (annotations may name
    classes defined further down) and kept on the class."""
    found = cls.__dict__.get('__model_types__')
    if found is None:
        found = cls.__model_types__ = typing.get_type_hints(cls)
    return found


def validate(instance, f, value):
    """Every model field's first validator: the type, then ``check()``'s validator."""
    where = f'field {f.name!r} of {type(instance).__name__!r}'
    tp = field_types(type(instance)).get(f.name, Any)
    if not conforms(value, tp):
        raise ValidationError(f'{where} expects {describe(tp)}, got '
                              f'{type(value).__name__}: {value!r}')
    if getattr(f, 'value_validator', None) is not None:
        try:
            f.value_validator(value)
        except ValueError as exc:
            raise ValidationError(f'{where}: {exc}') from exc


class Converter:
    """A converter of one model's field, whose ``TypeError`` or ``ValueError``
    becomes a ``ValidationError`` naming the field and the model."""

    __slots__ = ('convert', 'where')

    def __init__(self, convert, where):
        self.convert, self.where = convert, where

    def __call__(self, value):
        try:
            return self.convert(value)
        except (TypeError, ValueError) as exc:
            raise ValidationError(f'{self.where} cannot convert {value!r}: {exc}') from exc


def _checked(cls, f):
    """Field ``f`` (a copy) for model ``cls``: its converter (a parent's unwrapped)
    as a ``Converter`` named for ``cls``, ``validate`` before its own validators."""
    convert = f.converter
    convert = convert.convert if isinstance(convert, Converter) else convert
    if callable(convert):  # else the library says what is wrong
        f.converter = Converter(convert, f'field {f.name!r} of {cls.__name__!r}')
    given = f.validator
    if not isinstance(given, (list, tuple)):
        given = () if given is None else (given,)
    if given[:1] != (validate,):  # not yet a model's field
        f.validator = (validate, *given)
    return f


class _Validating:
    """What ``Model`` and ``FrozenModel`` share; a plain mixin, not a data class."""

    __slots__ = ()

    @classmethod
    def __transform_fields__(cls, all_fields):
        """Each field, not ClassVars and InitVars, checked; on a copy, since an
        inherited field is its parent's too."""
        checked = {f.name for f in fields(cls)}  # the fields being transformed
        return super().__transform_fields__(
            [_checked(cls, copy.copy(f)) if f.name in checked else f for f in all_fields])


@dataclass_transform(field_specifiers=(check, Check))
class Model(_Validating, DataClass):
    """A mutable model: every field is checked in ``__init__`` and on assignment."""

    __slots__ = ()  # so that subclasses may say slots=True


@dataclass_transform(frozen_default=True, field_specifiers=(check, Check))
class FrozenModel(_Validating, DataClass, frozen=True):
    """An immutable, hashable model, checked once at construction."""

    __slots__ = ()
