"""The field hook: ``__transform_fields__(cls, fields)``, for frameworks.

Called once per data class, after its fields are collected and merged with its
bases' (inherited first, in the order ``fields()`` gives) and before any method
is made. It returns the class's fields: the list it was given, changed, or a
new one; each is then checked as a field written in the class body would be.

Where it is found: a framework base defines it (a plain function in a class
body becomes a classmethod, as ``__init_subclass__`` does) for its subclasses,
or a ``DataClassMeta`` subclass defines it as a method, for every class it
makes. As for ``__init_subclass__``, the lookup starts after the class itself
in its MRO; ``DataClass``'s own passes the call on to the metaclass, so
``super().__transform_fields__(fields)`` chains bases and metaclasses alike.
"""

import dataclasses
import keyword
import types

from dataclasses import MISSING

from ._travel import SlotLayout
from ._fields import CLASSVAR, FIELD, INITVAR, _make_field, kind_of

HOOK = '__transform_fields__'
_KINDS = (FIELD, CLASSVAR, INITVAR)


def as_classmethod(namespace):
    """The namespace with a plain function ``__transform_fields__`` made a classmethod."""
    hook = namespace.get(HOOK)
    if isinstance(hook, types.FunctionType):
        namespace = dict(namespace)
        namespace[HOOK] = classmethod(hook)
    return namespace


def transform(cls, fields, params, default_class_hook, default_meta_hook):
    """The class's fields (a dict by name) after its hook, checked; ``fields``
    itself where no class in the MRO nor the metaclass defines a hook (the
    defaults are ``DataClass``'s and ``DataClassMeta``'s)."""
    hook = getattr(super(cls, cls), HOOK)  # as __init_subclass__: not the class's own
    if (getattr(hook, '__func__', None) is default_class_hook
            and getattr(type(cls), HOOK) is default_meta_hook):
        return fields
    given = list(fields.values())
    result = hook(list(given))
    return _checked(cls, result, fields, params)


def _checked(cls, result, before, params):
    """``result`` as a fields dict, each field checked and completed as one from
    the class body; the error names the class."""
    where = f'{HOOK} of data class {cls.__name__!r}'
    if not isinstance(result, list):
        msg = f'{where} must return a list of Field objects, not {type(result).__name__}'
        raise TypeError(msg)
    fields = {}
    for f in result:
        if not isinstance(f, dataclasses.Field):
            raise TypeError(f'{where} returned {f!r}, which is not a Field')
        name = f.name
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            msg = f'{where} returned a Field named {name!r}: give it an identifier as its name'
            raise TypeError(msg)
        if name in fields:
            raise TypeError(f'{where} returned two fields named {name!r}')
        if f.default is not MISSING and f.default_factory is not MISSING:
            raise ValueError(f'{where}: field {name!r} has both default and default_factory')
        kind = f._field_type
        if kind is None:  # a new Field (from field()): its kind from its type
            kind = kind_of(f.type, cls.__module__)
        if kind not in _KINDS:
            raise TypeError(f'{where} returned field {name!r} of kind {kind!r}')
        fields[name] = _make_field(name, f.type, kind, f, params.kw_only)
        if before.get(name) is not f:
            _store_default(cls, where, fields[name])
    return fields


def _store_default(cls, where, f):
    """A field the hook added or replaced gets its class attribute as one in the
    class body would: its default, where the class keeps the value on the
    instance; a class without ``__dict__`` needs a slot for it already."""
    own = cls.__dict__.get(f.name)
    if isinstance(own, types.MemberDescriptorType) or f._field_type is not FIELD:
        return
    if not _has_instance_dict(cls) and not isinstance(getattr(cls, f.name, None),
                                                      types.MemberDescriptorType):
        msg = (f'{where} added field {f.name!r}, which has no slot in a class without '
               f'__dict__: add it to the namespace in a DataClassMeta subclass instead')
        raise TypeError(msg)
    if f.default is not MISSING:
        type.__setattr__(cls, f.name, f.default)  # past DataClassMeta's guard
    elif f.name in cls.__dict__:
        type.__delattr__(cls, f.name)


def _has_instance_dict(cls):
    """Whether instances of ``cls`` have a ``__dict__``: a class in its MRO made the
    descriptor (``__dictoffset__`` is CPython's only; PyPy has this too), which
    a slotted data class's ``SlotLayout`` is not."""
    return any('__dict__' in klass.__dict__
               and not isinstance(klass.__dict__['__dict__'], SlotLayout)
               for klass in cls.__mro__[:-1])
