"""asdict and astuple: the recursion both backends share.

``pure_asdict`` and ``pure_astuple`` are the reference; the compiled core runs
the same recursion in C and calls back ``container`` (container subclasses,
deep copies) and ``cached_field_names``, whose cache it shares.
"""

import builtins
import types
from _weakref import ref as _weakref  # weakref's own; weakref.py costs on 3.15

from ._fields import FIELD, FIELDS

# Values asdict/astuple return as they are: deepcopy would return them unchanged.
ATOMIC = frozenset({
    type(None), bool, int, float, str, complex, bytes, type(Ellipsis),
    type(NotImplemented), types.CodeType, types.BuiltinFunctionType,
    types.FunctionType, type, range, property,
})


NAMES_CACHE = {}  # id(class) -> (weakref to the class, fields dict id and size, names)


def cached_field_names(cls, all_fields):
    """The field names of a data class, cached per class.

    Keyed by the class's id and checked through a weak reference, so the cache
    keeps no class alive; rebuilt if the fields dict changed; bounded.
    """
    entry = NAMES_CACHE.get(id(cls))
    if (entry is None or entry[0]() is not cls or entry[1] != id(all_fields)
            or entry[2] != len(all_fields)):
        if len(NAMES_CACHE) >= 1024:
            NAMES_CACHE.clear()
        names = tuple(f.name for f in all_fields.values() if f._field_type is FIELD)
        entry = NAMES_CACHE[id(cls)] = (_weakref(cls), id(all_fields), len(all_fields), names)
    return entry[3]


# They read as the stdlib's ``_asdict_inner``: the class is checked for fields,
# ``fields(obj)`` reads ``obj.__dataclass_fields__`` through the instance, then
# each field is read and converted before the next is read. A value of an atomic
# type is kept as it is without a call.

def pure_asdict(obj, dict_factory):
    """``asdict`` of any value, without the check of the top-level instance."""
    cls = type(obj)
    if cls in ATOMIC:
        return obj
    if hasattr(cls, FIELDS):
        names = cached_field_names(cls, getattr(obj, FIELDS))
        if dict_factory is dict:
            return {name: value if type(value) in ATOMIC else pure_asdict(value, dict)
                    for name in names for value in (getattr(obj, name),)}
        return dict_factory([
            (name, value if type(value) in ATOMIC else pure_asdict(value, dict_factory))
            for name in names for value in (getattr(obj, name),)])
    return container(obj, cls, pure_asdict, dict_factory)


def pure_astuple(obj, tuple_factory):
    """``astuple`` of any value, without the check of the top-level instance."""
    cls = type(obj)
    if cls in ATOMIC:
        return obj
    if hasattr(cls, FIELDS):
        names = cached_field_names(cls, getattr(obj, FIELDS))
        return tuple_factory([
            value if type(value) in ATOMIC else pure_astuple(value, tuple_factory)
            for name in names for value in (getattr(obj, name),)])
    return container(obj, cls, pure_astuple, tuple_factory)


# 3.15+: asdict/astuple rebuild a frozendict (a builtin there) like a dict.
_FROZENDICT = getattr(builtins, 'frozendict', None)
_MAPPINGS = dict if _FROZENDICT is None else (dict, _FROZENDICT)


def container(obj, cls, recurse, factory):
    """Lists, tuples, dicts and their subclasses, rebuilt with the same type and
    ``recurse(value, factory)`` of each item; anything else deep-copied."""
    if cls is list:
        return [recurse(v, factory) for v in obj]
    if cls is dict:
        return {recurse(k, factory): recurse(v, factory) for k, v in obj.items()}
    if cls is tuple:
        return tuple([recurse(v, factory) for v in obj])
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
