"""Validated models: field types checked at construction and on assignment.

    class User(Model):
        name: str = check(converter=str.strip)
        age: int = check(default=0, validator=non_negative)

Built on dataclass_meta's public extension points (docs/frameworks.md):
- ``check()`` is the framework's field specifier: it returns ``Check``, a ``Field``
  subclass carrying a converter and a validator; ``dataclass_transform`` tells type
  checkers about it;
- the hook after the fields are final (``__init_subclass__`` after ``super()``)
  checks each class's specifiers (and wraps a frozen model's ``__init__``);
- ``Model`` validates in ``__setattr__``, which the generated ``__init__`` of a
  mutable class calls for every field; ``FrozenModel``'s generated ``__init__``
  stores without ``__setattr__``, so the framework wraps it (``functools.wraps``
  keeps its signature);
- two bases, because ``frozen`` is inherited: a frozen model cannot derive from a
  mutable one, so the shared behaviour lives in a mixin.
"""

import functools
import sys
import types
import typing
from typing import Any, Callable, Optional

from dataclass_meta import MISSING, DataClass, Field, fields

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:
    from typing_extensions import dataclass_transform

__all__ = ['Model', 'FrozenModel', 'check', 'Check', 'ValidationError', 'conforms']


class ValidationError(TypeError, ValueError):
    """A value a model refuses: a wrong type (TypeError) or a failed validator."""


class Check(Field):
    """A field with an optional ``converter`` (runs first) and ``validator``."""

    __slots__ = ('converter', 'validator')
    converter: Optional[Callable[[Any], Any]]
    validator: Optional[Callable[[Any], object]]


def check(*, converter=None, validator=None, default=MISSING, default_factory=MISSING,
          init=True, repr=True, hash=None, compare=True, metadata=None,
          kw_only=MISSING, doc=None) -> Any:
    """``field()`` plus ``converter(value) -> value`` and ``validator(value)``,
    which raises ``ValueError`` with a message to reject the value."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
    f = Check(default, default_factory, init, repr, hash, compare, metadata, kw_only, doc)
    f.converter, f.validator = converter, validator
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


def _checker(cls, f, tp):
    """``value -> value``: convert, check the type, validate; errors name it all."""
    converter = getattr(f, 'converter', None)
    validator = getattr(f, 'validator', None)
    where = f'field {f.name!r} of {cls.__name__!r}'

    def check_value(value):
        if converter is not None:
            try:
                value = converter(value)
            except (TypeError, ValueError) as exc:
                raise ValidationError(f'{where} cannot convert {value!r}: {exc}') from exc
        if not conforms(value, tp):
            msg = (f'{where} expects {describe(tp)}, got {type(value).__name__}: '
                   f'{value!r}')
            raise ValidationError(msg)
        if validator is not None:
            try:
                validator(value)
            except ValueError as exc:
                raise ValidationError(f'{where}: {exc}') from exc
        return value
    return check_value


def checkers(cls):
    """Name -> checker for every field, built on first use and kept on the class.

    Lazily, because annotations may name classes defined after this one.
    """
    found = cls.__dict__.get('__model_checkers__')
    if found is None:
        hints = typing.get_type_hints(cls)
        found = {f.name: _checker(cls, f, hints[f.name]) for f in fields(cls)}
        cls.__model_checkers__ = found
    return found


def _validating_init(init) -> Any:
    """Wrap a frozen model's ``__init__``: validate what it stored, store conversions."""
    @functools.wraps(init)
    def __init__(self, /, *args, **kwargs):
        init(self, *args, **kwargs)
        for name, check_value in checkers(type(self)).items():
            value = getattr(self, name, MISSING)  # an init=False field may be unset
            if value is MISSING:
                continue
            converted = check_value(value)
            if converted is not value:
                object.__setattr__(self, name, converted)
    return __init__


class _Validating:
    """What ``Model`` and ``FrozenModel`` share; a plain mixin, not a data class."""

    __slots__ = ()

    def __init_subclass__(cls, /, **kwargs):
        super().__init_subclass__(**kwargs)  # the fields are final after this
        for f in fields(cls):
            for role in ('converter', 'validator'):
                hook = getattr(f, role, None)
                if hook is not None and not callable(hook):
                    msg = f'{role} of field {f.name!r} of {cls.__name__!r} must be callable'
                    raise TypeError(msg)

    def __setattr__(self, name, value):
        check_value = checkers(type(self)).get(name)
        super().__setattr__(name, value if check_value is None else check_value(value))


@dataclass_transform(field_specifiers=(check, Check))
class Model(_Validating, DataClass):
    """A mutable model: every field assignment is checked, in ``__init__`` too."""

    __slots__ = ()  # so that subclasses may say slots=True


@dataclass_transform(frozen_default=True, field_specifiers=(check, Check))
class FrozenModel(_Validating, DataClass, frozen=True):
    """An immutable, hashable model, checked once at construction."""

    __slots__ = ()

    def __init_subclass__(cls, /, **kwargs):
        super().__init_subclass__(**kwargs)
        if '__init__' in cls.__dict__:  # its own, not inherited (already wrapped)
            cls.__init__ = _validating_init(cls.__init__)
