"""The module-level functions of ``dataclasses``, with 3.13 semantics everywhere.

They accept stdlib data classes as well as ours: both carry the same
``__dataclass_fields__``. The top layer of the package: they use the backend in
use (``_backend``) and the metaclass (``_meta``); nothing below imports them.
"""

import keyword
import sys
import types

from . import _backend
from ._fields import FIELDS as _FIELDS, fields  # noqa: F401 (the pure one, re-exported)
from ._meta import DataClassMeta, caller_module
from ._replace import replace  # noqa: F401 (the pure one, re-exported)
from ._options import OPTIONS as _OPTION_NAMES


def is_dataclass(obj):
    """True for a data class or an instance of one (ours or the stdlib's)."""
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, _FIELDS)


if sys.version_info < (3, 11):
    # 3.10: isinstance(A[int], type) is true for a types.GenericAlias (3.11 made it
    # false), whose attributes are A's; 3.10's stdlib steps around that, and so
    # does this, which gives what 3.11+ answers: an alias is not a data class, an
    # instance of a GenericAlias subclass may be.
    def is_dataclass(obj):  # noqa: F811
        """True for a data class or an instance of one (ours or the stdlib's)."""
        cls = (obj if isinstance(obj, type) and not isinstance(obj, types.GenericAlias)
               else type(obj))
        return hasattr(cls, _FIELDS)


# The checks of the top-level instance are here; the backend in use supplies
# the recursion (``_asdict``).

def asdict(obj, *, dict_factory=dict):
    """The fields of an instance as a new dict, recursing into data classes,
    lists, tuples and dicts; other values are deep-copied."""
    if not hasattr(type(obj), _FIELDS):
        raise TypeError('asdict() should be called on dataclass instances')
    return _backend.current().asdict(obj, dict_factory)


def astuple(obj, *, tuple_factory=tuple):
    """The field values of an instance as a new tuple, recursing like ``asdict``."""
    if not hasattr(type(obj), _FIELDS):
        raise TypeError('astuple() should be called on dataclass instances')
    return _backend.current().astuple(obj, tuple_factory)


_UNSET = object()


def make_dataclass(cls_name, fields, *, bases=(), namespace=None, init=_UNSET,
                   repr=_UNSET, eq=_UNSET, order=_UNSET, unsafe_hash=_UNSET,
                   frozen=_UNSET, match_args=_UNSET, kw_only=_UNSET, slots=_UNSET,
                   weakref_slot=_UNSET, cache_hash=_UNSET, gc=_UNSET,
                   untrack_atomic=_UNSET, module=None,
                   decorator=_UNSET):
    """Create a data class from a name and ``fields``: ``name``, ``(name, type)``
    or ``(name, type, Field)`` items. It is built by ``DataClassMeta``, with
    ``DataClass`` added to ``bases``; options not given are inherited from them.

    With ``decorator`` (3.14's), a plain class is made instead and
    ``decorator(cls, <the options given>)`` returns the data class.
    """
    annotations, defaults = _parse_fields(fields)
    given = locals()
    options = {name: given[name] for name in _OPTION_NAMES if given[name] is not _UNSET}
    if module is None:
        module = caller_module()

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


#: The package's ``replace()`` and ``fields()``: the backend's (the compiled
#: core has the same dispatch and loop in C).
public_replace = _backend.backend.public_replace
public_fields = _backend.backend.public_fields
