"""The module-level functions of ``dataclasses``, with 3.13 semantics everywhere.

They accept stdlib data classes as well as ours: both carry the same
``__dataclass_fields__``.
"""

import builtins
import keyword
import sys
import types
from _weakref import ref as _weakref  # weakref's own; weakref.py costs on 3.15

from . import _backend
from ._fields import FIELD
from ._options import OPTIONS as _OPTION_NAMES

_FIELDS = '__dataclass_fields__'
# (class, what replace() calls with (obj, changes)) on each data class: the
# class beside it, because a subclass inherits the attribute but not the
# function. Not a dunder, so that help() leaves it out.
REPLACE_ENTRY = '_dataclass_replace'
# Values asdict/astuple return as they are: deepcopy would return them unchanged.
_ATOMIC = frozenset({
    type(None), bool, int, float, str, complex, bytes, type(Ellipsis),
    type(NotImplemented), types.CodeType, types.BuiltinFunctionType,
    types.FunctionType, type, range, property,
})


def fields(class_or_instance):
    """The fields of a data class or instance, as a tuple of ``Field``.

    ClassVar and InitVar pseudo-fields are left out. Raises ``TypeError`` for
    anything that is not a data class or an instance of one.
    """
    try:
        all_fields = getattr(class_or_instance, _FIELDS)
    except AttributeError:
        raise TypeError('must be called with a dataclass type or instance') from None
    return tuple(f for f in all_fields.values() if f._field_type is FIELD)


def is_dataclass(obj):
    """True for a data class or an instance of one (ours or the stdlib's)."""
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, _FIELDS)


if sys.version_info < (3, 11):
    # 3.10: isinstance(A[int], type) is true for a types.GenericAlias (3.11 made it
    # false), whose attributes are A's; 3.10's stdlib steps around that, and so
    # which gives what 3.11+ answers: an alias is not a data class, an instance of
    # a GenericAlias subclass may be.
    def is_dataclass(obj):  # noqa: F811
        """True for a data class or an instance of one (ours or the stdlib's)."""
        cls = (obj if isinstance(obj, type) and not isinstance(obj, types.GenericAlias)
               else type(obj))
        return hasattr(cls, _FIELDS)


_NAMES = {}  # id(class) -> (weakref to the class, fields dict id and size, names)


def _field_names(cls, all_fields):
    """The field names of a data class, cached per class.

    Keyed by the class's id and checked through a weak reference, so the cache
    keeps no class alive; rebuilt if the fields dict changed; bounded.
    """
    entry = _NAMES.get(id(cls))
    if (entry is None or entry[0]() is not cls or entry[1] != id(all_fields)
            or entry[2] != len(all_fields)):
        if len(_NAMES) >= 1024:
            _NAMES.clear()
        names = tuple(f.name for f in all_fields.values() if f._field_type is FIELD)
        entry = _NAMES[id(cls)] = (_weakref(cls), id(all_fields), len(all_fields), names)
    return entry[3]


# asdict and astuple read as the stdlib's ``_asdict_inner``: the class is checked
# for fields, ``fields(obj)`` reads ``obj.__dataclass_fields__`` through the
# instance, then each field is read and converted before the next is read. A
# value of an atomic type is kept as it is without a call. ``pure_asdict`` and
# ``pure_astuple`` are the reference; the backend in use supplies the recursion
# (the compiled one does it in C, with ``_container`` for the rarer types).

def asdict(obj, *, dict_factory=dict):
    """The fields of an instance as a new dict, recursing into data classes,
    lists, tuples and dicts; other values are deep-copied."""
    if not hasattr(type(obj), _FIELDS):
        raise TypeError('asdict() should be called on dataclass instances')
    return _backend.current().asdict(obj, dict_factory)


def pure_asdict(obj, dict_factory):
    """``asdict`` of any value, without the check of the top-level instance."""
    cls = type(obj)
    if cls in _ATOMIC:
        return obj
    if hasattr(cls, _FIELDS):
        names = _field_names(cls, getattr(obj, _FIELDS))
        if dict_factory is dict:
            return {name: value if type(value) in _ATOMIC else pure_asdict(value, dict)
                    for name in names for value in (getattr(obj, name),)}
        return dict_factory([
            (name, value if type(value) in _ATOMIC else pure_asdict(value, dict_factory))
            for name in names for value in (getattr(obj, name),)])
    if cls is list:
        return [pure_asdict(v, dict_factory) for v in obj]
    if cls is dict:
        return {pure_asdict(k, dict_factory): pure_asdict(v, dict_factory)
                for k, v in obj.items()}
    if cls is tuple:
        return tuple([pure_asdict(v, dict_factory) for v in obj])
    return _container(obj, cls, pure_asdict, dict_factory)


def astuple(obj, *, tuple_factory=tuple):
    """The field values of an instance as a new tuple, recursing like ``asdict``."""
    if not hasattr(type(obj), _FIELDS):
        raise TypeError('astuple() should be called on dataclass instances')
    return _backend.current().astuple(obj, tuple_factory)


def pure_astuple(obj, tuple_factory):
    """``astuple`` of any value, without the check of the top-level instance."""
    cls = type(obj)
    if cls in _ATOMIC:
        return obj
    if hasattr(cls, _FIELDS):
        names = _field_names(cls, getattr(obj, _FIELDS))
        return tuple_factory([
            value if type(value) in _ATOMIC else pure_astuple(value, tuple_factory)
            for name in names for value in (getattr(obj, name),)])
    if cls is list:
        return [pure_astuple(v, tuple_factory) for v in obj]
    if cls is dict:
        return {pure_astuple(k, tuple_factory): pure_astuple(v, tuple_factory)
                for k, v in obj.items()}
    if cls is tuple:
        return tuple([pure_astuple(v, tuple_factory) for v in obj])
    return _container(obj, cls, pure_astuple, tuple_factory)


# 3.15+: asdict/astuple rebuild a frozendict (a builtin there) like a dict.
_FROZENDICT = getattr(builtins, 'frozendict', None)
_MAPPINGS = dict if _FROZENDICT is None else (dict, _FROZENDICT)


def _container(obj, cls, recurse, factory):
    """Containers and their subclasses, rebuilt with the same type."""
    if issubclass(cls, tuple):
        if hasattr(obj, '_fields'):  # a namedtuple takes its fields positionally
            return cls(*[recurse(v, factory) for v in obj])
        return cls(recurse(v, factory) for v in obj)
    if issubclass(cls, _MAPPINGS):
        if hasattr(cls, 'default_factory'):  # defaultdict takes the factory first
            result = cls(obj.default_factory)
            for k, v in obj.items():
                result[recurse(k, factory)] = recurse(v, factory)
            return result
        return cls((recurse(k, factory), recurse(v, factory)) for k, v in obj.items())
    if issubclass(cls, list):
        return cls(recurse(v, factory) for v in obj)
    import copy  # on first use: 3.15's dataclasses defers it too
    return copy.deepcopy(obj)


def replace(obj, /, **changes):
    """A new instance like ``obj`` with some fields changed, through ``__init__``.

    ``changes`` name fields (or InitVars); an ``init=False`` field cannot be
    changed (``TypeError``), and an InitVar without a default must be given.
    ``copy.replace(obj, ...)`` (3.13+) does the same.
    """
    cls = type(obj)
    own = getattr(cls, REPLACE_ENTRY, None)
    if own is not None and own[0] is cls:
        return own[1](obj, changes)
    return replace_unregistered(obj, changes)


def replace_unregistered(obj, changes):
    """``replace()`` of an object whose class has no entry of its own (a stdlib
    data class, a subclass made otherwise, or no data class at all)."""
    if not hasattr(type(obj), _FIELDS):
        raise TypeError('replace() should be called on dataclass instances')
    from ._methods import replace_by_fields
    return replace_by_fields(obj, changes)


_UNSET = object()


def make_dataclass(cls_name, fields, *, bases=(), namespace=None, init=_UNSET,
                   repr=_UNSET, eq=_UNSET, order=_UNSET, unsafe_hash=_UNSET,
                   frozen=_UNSET, match_args=_UNSET, kw_only=_UNSET, slots=_UNSET,
                   weakref_slot=_UNSET, cache_hash=_UNSET, gc=_UNSET, module=None,
                   decorator=_UNSET):
    """Create a data class from a name and ``fields``: ``name``, ``(name, type)``
    or ``(name, type, Field)`` items. It is built by ``DataClassMeta``, with
    ``DataClass`` added to ``bases``; options not given are inherited from them.

    With ``decorator`` (3.14's), a plain class is made instead and
    ``decorator(cls, <the options given>)`` returns the data class.
    """
    from ._meta import DataClassMeta
    annotations, defaults = _parse_fields(fields)
    given = locals()
    options = {name: given[name] for name in _OPTION_NAMES if given[name] is not _UNSET}
    if module is None:
        module = _caller_module()

    annotate = unblock = None
    if _ANY is not _ANY_STRING:
        annotate, unblock = _annotate_function(annotations)

    def body(ns):
        ns.update(namespace or {})
        ns.update(defaults)
        if annotate is None:
            ns['__annotations__'] = annotations
        else:
            ns['__annotate__'] = annotate
        ns['__module__'] = module

    if decorator is not _UNSET:
        cls = decorator(types.new_class(cls_name, bases, {}, body), **options)
    else:
        resolved = types.resolve_bases(bases)
        meta, ns, kwds = types.prepare_class(cls_name, resolved, options)
        if not issubclass(meta, DataClassMeta):
            meta = DataClassMeta
        body(ns)
        if resolved is not bases:
            ns['__orig_bases__'] = bases
        cls = meta(cls_name, resolved, ns, **kwds)
    if unblock is not None:
        unblock()
    return cls


# The type of a field given by name only: 'typing.Any' before 3.14; 3.14+ a
# marker that the class's __annotate__ turns into typing.Any in each format.
_ANY_STRING = 'typing.Any'
_ANY = _ANY_STRING if sys.version_info < (3, 14) else object()


def _annotate_function(annotations):
    """3.14's ``make_dataclass`` annotations: an annotate function in which a field
    given without a type is ``typing.Any`` (VALUE, once the class is made),
    ``'typing.Any'`` (STRING), or, while ``typing`` is not imported,
    ``ForwardRef('Any', module='typing')`` (FORWARDREF): no ``typing`` import."""
    import annotationlib
    Format = annotationlib.Format
    value_blocked = [True]

    def any_type(format):
        if format == Format.STRING:
            return _ANY_STRING
        if format == Format.FORWARDREF:
            typing = sys.modules.get('typing')
            if typing is None:
                return annotationlib.ForwardRef('Any', module='typing')
            return typing.Any
        if format == Format.VALUE and not value_blocked[0]:
            from typing import Any
            return Any
        raise NotImplementedError(format)

    def __annotate__(format):
        annos = {name: any_type(format) if tp is _ANY else tp
                 for name, tp in annotations.items()}
        if format == Format.STRING:
            return annotationlib.annotations_to_string(annos)
        return annos

    def unblock():
        value_blocked[0] = False
    return __annotate__, unblock


def _parse_fields(items):
    """Annotations and defaults from ``make_dataclass`` items, with its checks."""
    seen = set()
    annotations = {}
    defaults = {}
    for item in items:
        if isinstance(item, str):
            name, tp = item, _ANY
        elif len(item) == 2:
            name, tp = item
        elif len(item) == 3:
            name, tp, spec = item
            defaults[name] = spec
        else:
            raise TypeError(f'Invalid field: {item!r}')
        if not isinstance(name, str) or not name.isidentifier():
            raise TypeError(f'Field names must be valid identifiers: {name!r}')
        if keyword.iskeyword(name):
            raise TypeError(f'Field names must not be keywords: {name!r}')
        if name in seen:
            raise TypeError(f'Field name duplicated: {name!r}')
        seen.add(name)
        annotations[name] = tp
    return annotations, defaults


def _caller_module(depth=2):
    """The module of the function ``depth`` frames up from here (2: the caller
    of ``make_dataclass``), so instances pickle."""
    try:
        return sys._getframe(depth).f_globals.get('__name__', '__main__')
    except (AttributeError, ValueError):
        return '__main__'
