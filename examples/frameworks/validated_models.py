"""Validated models: field types checked at construction and on assignment.

    class User(Model):
        name: str = check(converter=str.strip)
        age: int = check(default=0, validator=non_negative)

Built on dataclass_meta's public extension points (docs/frameworks.md) and its
per-field converters and validators (docs/guide.md):
- ``check()`` is the framework's field specifier: ``field()`` whose validator
  takes the value alone, ``validator(value)``, and raises ``ValueError`` to
  refuse it; it returns ``Check``, a ``Field`` subclass that keeps that
  validator; ``dataclass_transform`` tells type checkers about it;
- the field hook (``__transform_fields__``) gives every field of a model, on a
  copy, the library's converter and validator: its converter wrapped so that a
  failure names the field and the class, and one validator that checks the type
  and then calls the one-argument validator;
- the generated ``__init__`` converts every field, stores, then validates;
  assignment to a mutable model's field converts, validates, then stores (the
  library's ``__setattr__``): no ``__init__`` wrapper and no ``__setattr__`` here;
- the types are resolved on first use, since annotations may name classes
  defined further down;
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
    """A field whose ``value_validator`` takes the value alone; ``converter``
    and ``alias`` are the library's."""

    __slots__ = ('value_validator',)
    value_validator: Optional[Callable[[Any], object]]


def check(*, converter=None, validator=None, alias=None, default=MISSING,
          default_factory=MISSING, init=True, repr=True, hash=None, compare=True,
          metadata=None, kw_only=MISSING, doc=None) -> Any:
    """``field()`` with ``converter(value) -> value`` and ``validator(value)``,
    which raises ``ValueError`` with a message to refuse the value."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
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
    """Name -> type for every field, resolved on first use and kept on the class.

    Lazily, because annotations may name classes defined after this one.
    """
    found = cls.__dict__.get('__model_types__')
    if found is None:
        found = cls.__model_types__ = typing.get_type_hints(cls)
    return found


def validate(instance, f, value):
    """Every model field's validator: the type, then ``check()``'s validator."""
    where = f'field {f.name!r} of {type(instance).__name__!r}'
    tp = field_types(type(instance)).get(f.name, Any)
    if not conforms(value, tp):
        raise ValidationError(f'{where} expects {describe(tp)}, got '
                              f'{type(value).__name__}: {value!r}')
    one_arg = getattr(f, 'value_validator', None)
    if one_arg is not None:
        try:
            one_arg(value)
        except ValueError as exc:
            raise ValidationError(f'{where}: {exc}') from exc


class Converter:
    """A field's converter in one model: its ``TypeError`` or ``ValueError``
    becomes a ``ValidationError`` that names the field and the class."""

    __slots__ = ('convert', 'where')

    def __init__(self, convert, where):
        self.convert, self.where = convert, where

    def __call__(self, value):
        try:
            return self.convert(value)
        except (TypeError, ValueError) as exc:
            raise ValidationError(f'{self.where} cannot convert {value!r}: {exc}') from exc

    def __repr__(self):
        return f'Converter({self.convert!r}, {self.where!r})'


def _checked(cls, f):
    """A copy of field ``f`` for model ``cls``: the converter named for ``cls``
    (a parent's unwrapped first), ``validate`` before the field's own validators."""
    f = copy.copy(f)  # an inherited field is its parent's too: change a copy
    convert = f.converter
    if isinstance(convert, Converter):
        convert = convert.convert
    if convert is not None:
        f.converter = Converter(convert, f'field {f.name!r} of {cls.__name__!r}')
    own = f.validator
    own = () if own is None else (own,) if callable(own) else tuple(own)
    if own[:1] != (validate,):  # not yet a model's field
        one_arg = getattr(f, 'value_validator', None)
        if one_arg is not None and not callable(one_arg):
            raise TypeError(f'field {f.name!r} of data class {cls.__name__!r}: '
                            f'validator {one_arg!r} is not callable')
        f.validator = (validate, *own)
    return f


class _Validating:
    """What ``Model`` and ``FrozenModel`` share; a plain mixin, not a data class."""

    __slots__ = ()

    @classmethod
    def __transform_fields__(cls, fields_):
        """Every field, not ClassVars and InitVars, made a checked copy."""
        checked = {f.name for f in fields(cls)}  # the fields being transformed
        fields_ = [_checked(cls, f) if f.name in checked else f for f in fields_]
        return super().__transform_fields__(fields_)


@dataclass_transform(field_specifiers=(check, Check))
class Model(_Validating, DataClass):
    """A mutable model: every field is checked in ``__init__`` and on assignment."""

    __slots__ = ()  # so that subclasses may say slots=True


@dataclass_transform(frozen_default=True, field_specifiers=(check, Check))
class FrozenModel(_Validating, DataClass, frozen=True):
    """An immutable, hashable model, checked once at construction."""

    __slots__ = ()
