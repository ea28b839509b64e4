"""Fields: ``field()``, reading annotations, and collecting a class's own fields.

Fields are real ``dataclasses.Field`` objects (our subclass adds ``doc``), marked
with the stdlib's ``_field_type`` so that ``dataclasses.fields()`` and every tool
that reads ``__dataclass_fields__`` understands them. A class holds only ours: a
``dataclasses.field()`` in its body, or a stdlib parent's field, is copied into
one, so a field hook can always read and set ``converter``, ``validator``, ``alias``.
"""

import dataclasses
import sys
import types

from dataclasses import KW_ONLY, MISSING, InitVar, _HAS_DEFAULT_FACTORY as FACTORY
from itertools import compress, repeat

from ._options import Params, relative

FIELD = dataclasses._FIELD
FIELDS = '__dataclass_fields__'  # where a data class keeps its fields
_Field = dataclasses.Field
CLASSVAR = dataclasses._FIELD_CLASSVAR
INITVAR = dataclasses._FIELD_INITVAR

# A dotted name ("a.b.c" or "a") at the start of a string annotation (3.15's);
# compiled on first use (re caches it), not at import.
_MODULE_IDENTIFIER = r'^\s*(\w+(?:\s*\.\s*\w+)*)'
# 3.14+: PEP 649/749 deferred annotations, read through annotationlib.
if sys.version_info >= (3, 14):
    import annotationlib
    FORWARDREF = annotationlib.Format.FORWARDREF
else:
    annotationlib = FORWARDREF = None
# 3.14+: gh-107503 gave Field a ``doc`` slot of its own.
_HAS_DOC_SLOT = 'doc' in dataclasses.Field.__slots__


# Set once any Field is given a converter, validator or alias: until then no
# class needs to look for them (class creation pays nothing for the feature).
hooks_used = False


def _hook(index, name):
    """The property of ``Field`` for one of ``_hooks`` (None where none is given)."""
    def get(self):
        hooks = self._hooks
        return None if hooks is None else hooks[index]

    def set(self, value):
        global hooks_used
        hooks = list(self._hooks or (None, None, None))
        hooks[index] = value
        self._hooks = None if hooks == [None, None, None] else tuple(hooks)
        if value is not None:
            hooks_used = True
    return property(get, set, doc=f'The field\'s {name} (ours; None: not given).')


class Field(dataclasses.Field):
    """A ``dataclasses.Field`` that also carries ``doc`` on every Python, and
    the per-field ``converter``, ``validator`` and ``alias`` (None: not given)."""

    # _hooks: (converter, validator, alias), or None for none (most fields)
    __slots__ = ('_hooks',) if _HAS_DOC_SLOT else ('doc', '_hooks')

    def __init__(self, default, default_factory, init, repr, hash, compare,
                 metadata, kw_only, doc=None, converter=None, validator=None, alias=None):
        global hooks_used
        if _HAS_DOC_SLOT:
            super().__init__(default, default_factory, init, repr, hash, compare,
                             metadata, kw_only, doc)
        else:
            super().__init__(default, default_factory, init, repr, hash, compare,
                             metadata, kw_only)
            self.doc = doc
        if converter is None and validator is None and alias is None:
            self._hooks = None
        else:
            self._hooks = (converter, validator, alias)
            hooks_used = True

    converter = _hook(0, 'converter')
    validator = _hook(1, 'validator')
    alias = _hook(2, 'alias')

    @alias.getter
    def alias(self):
        """The field's ``__init__`` parameter name (ours): the alias given, else,
        once the field is a class's field or InitVar, its name (as attrs'
        ``Attribute.alias``, which tools such as cattrs read); else None."""
        hooks = self._hooks
        if hooks is not None and hooks[2] is not None:
            return hooks[2]
        kind = self._field_type
        return self.name if kind is FIELD or kind is INITVAR else None

    def __replace__(self, /, **changes):
        """A copy of the field with ``changes`` (``copy.replace(f, ...)`` on 3.13+,
        ``f.__replace__(...)`` on any Python): any of ``field()``'s parameters, and
        ``name`` and ``type``. The copy is checked as a field in a class body: both
        a default and a default factory is the stdlib's ``ValueError``; a field of a
        class keeps its kind and gets that kind's checks (a mutable default, a
        ClassVar's default factory). A subclass's own attributes are copied too."""
        for key in changes:
            if key not in _REPLACEABLE:
                msg = (f'{type(self).__qualname__}.__replace__() got an unexpected '
                       f'keyword argument {key!r}')
                raise TypeError(msg)
        f = _copy(self)
        for key, value in changes.items():
            if key == 'metadata':  # as Field.__init__ stores it
                value = _EMPTY_METADATA if value is None else types.MappingProxyType(value)
            setattr(f, key, value)
        if f.default is not MISSING and f.default_factory is not MISSING:
            raise ValueError('cannot specify both default and default_factory')
        kind = f._field_type
        if kind is not None:  # a class's field: the checks of its kind
            _make_field(f.name, f.type, kind, f, f.kw_only)
        return f

    def __repr__(self):
        """The stdlib's repr (3.14's, which shows ``doc`` before ``_field_type``),
        then ``converter``, ``validator`` and ``alias`` where any is given."""
        text = super().__repr__()
        head, sep, tail = text.rpartition(',_field_type=')
        if not sep:  # the stdlib's recursion guard answered '...'
            return text
        if not _HAS_DOC_SLOT:
            head = f'{head},doc={self.doc!r}'
        if self._hooks is not None:
            head = (f'{head},converter={self.converter!r},validator={self.validator!r},'
                    f'alias={self.alias!r}')
        return f'{head}{sep}{tail}'


# What Field.__replace__ may change: field()'s parameters, the name and the type.
_REPLACEABLE = frozenset({
    'name', 'type', 'default', 'default_factory', 'init', 'repr', 'hash', 'compare',
    'metadata', 'kw_only', 'doc', 'converter', 'validator', 'alias'})


def _copy(f):
    import copy  # on first use: most programs never derive a field
    return copy.copy(f)


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True,
          hash=None, compare=True, metadata=None, kw_only=MISSING, doc=None,
          converter=None, validator=None, alias=None):
    """Return an object that describes a data-class field.

    The arguments are those of ``dataclasses.field()`` in Python 3.13, plus
    ``doc`` (3.14's): a docstring for the field, used for ``__slots__`` docs;
    and ours: ``converter`` (a callable whose result ``__init__`` and
    assignment store: the value given, the default or the factory's result
    goes through it), ``validator`` (a callable, or a sequence of them, called
    as ``validator(instance, field, value)`` with the converted value) and
    ``alias`` (the field's ``__init__`` parameter name).
    """
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
    return Field(default, default_factory, init, repr, hash, compare, metadata,
                 kw_only, doc, converter, validator, alias)


def annotations_of(owner):
    """The annotations a class body declared: of a class, or of its namespace
    before the type exists.

    The one place that knows how annotations are stored. 3.10-3.13 keep a dict
    under ``__annotations__``. 3.14+ (PEP 649/749) keep an annotate function
    (``__annotate_func__`` in the namespace) and, as 3.14's ``dataclasses``,
    we call it through ``annotationlib`` in the FORWARDREF format: a name that
    is defined later becomes a ``ForwardRef``, never a ``NameError``.
    """
    if isinstance(owner, type):
        if annotationlib is not None:
            return annotationlib.get_annotations(owner, format=FORWARDREF)
        owner = owner.__dict__
    annotations = owner.get('__annotations__')
    if annotations is not None:
        return annotations
    annotate = owner.get('__annotate__') or owner.get('__annotate_func__')
    if annotate is None or annotationlib is None:
        return {}
    return annotationlib.call_annotate_function(annotate, FORWARDREF)


def body_annotations(namespace):
    """``annotations_of(namespace)``, and what the class's own ``__annotations__``
    will hold (3.14+; None before, or where that read fails).

    ``annotationlib.get_annotations(cls, format=FORWARDREF)``, as 3.14's
    ``dataclasses`` reads a class, tries ``cls.__annotations__`` first, which
    evaluates the annotate function once (VALUE) and keeps the dict on the
    class. A class laid out before it exists is read here instead; the dict,
    kept under the same name, is what picklers that leave the annotate
    function behind (cloudpickle) send with the class.
    """
    annotate = namespace.get('__annotate__') or namespace.get('__annotate_func__')
    if annotationlib is None or annotate is None or '__annotations__' in namespace:
        return annotations_of(namespace), None
    try:
        value = annotate(annotationlib.Format.VALUE)
    except Exception:  # as get_annotations: FORWARDREF from the function
        return annotations_of(namespace), None
    if not isinstance(value, dict):
        return annotations_of(namespace), None
    return dict(value), value


#: 3.14+: where a class keeps the dict its ``__annotations__`` evaluated.
ANNOTATIONS_CACHE = '__annotations_cache__'


def namespace_annotations(namespace):
    """The annotations dict of a class namespace, for a metaclass to read and edit.

    For ``DataClassMeta`` subclasses: ``namespace_annotations(namespace)['id'] =
    int`` adds a field on every Python. 3.14+ (PEP 649) left an annotate
    function, not a dict: it is evaluated here (FORWARDREF, as ``dataclasses``
    reads annotations) and replaced by the dict returned, which from then on is
    the namespace's ``__annotations__``. Before 3.14 that dict is returned (made
    if the body declared none).
    """
    annotations = namespace.get('__annotations__')
    if annotations is None:
        annotations = namespace['__annotations__'] = dict(annotations_of(namespace))
        namespace.pop('__annotate_func__', None)
        namespace.pop('__annotate__', None)
    return annotations


def fields(class_or_instance):
    """The fields of a data class or instance, as a tuple of ``Field``.

    ClassVar and InitVar pseudo-fields are left out. Raises ``TypeError`` for
    anything that is not a data class or an instance of one.
    """
    try:
        all_fields = getattr(class_or_instance, FIELDS)
    except AttributeError:
        raise TypeError('must be called with a dataclass type or instance') from None
    return tuple(f for f in all_fields.values() if f._field_type is FIELD)


def default_of(f):
    """A field's default as its ``__init__`` parameter's: the value,
    ``FACTORY`` where a default factory is due, ``MISSING`` where it has none."""
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return FACTORY
    return MISSING


def kind_of(annotation, module_name):
    """Which of FIELD, CLASSVAR, INITVAR or KW_ONLY an annotation declares."""
    if isinstance(annotation, str):
        return _kind_of_string(annotation, module_name)
    if annotation is KW_ONLY:
        return KW_ONLY
    if annotation is InitVar or type(annotation) is InitVar:
        return INITVAR
    if type(annotation) is type:  # a plain class (int, str): never ClassVar
        return FIELD
    typing = sys.modules.get('typing')  # no typing imported: no ClassVar either
    if typing is not None and (annotation is typing.ClassVar
                               or typing.get_origin(annotation) is typing.ClassVar):
        return CLASSVAR  # 3.14's test (get_origin), on every Python
    return FIELD


def _kind_of_string(annotation, module_name):
    """The stdlib's best effort for string annotations: look names up in the module.

    3.15's rule: the dotted name at the start (``"ClassVar[int]"``,
    ``"typing.ClassVar[int]"``, ``"proxy.Nested.ClassVar"``) is looked up with
    ``getattr`` from the class's module, so lazy imports resolve; one that cannot
    (or any lookup that raises) leaves a plain field. Whatever object the name
    reaches decides, so ``dataclass_meta.InitVar`` counts too.
    """
    import re  # on first use: importing re costs ~5 ms where nothing has yet (3.15)
    match = re.match(_MODULE_IDENTIFIER, annotation)
    if not match:
        return FIELD
    obj = sys.modules.get(module_name)
    for name in match.group(1).split('.'):
        try:
            obj = getattr(obj, name.strip(), None)
        except Exception:  # e.g. 3.15: a lazy import of a missing module
            return FIELD
        if obj is None:
            return FIELD
    if isinstance(obj, str):
        return FIELD
    return kind_of(obj, module_name)


def collect_own_fields(cls, annotations, kw_only, slot_defaults):
    """Turn the class's own annotations into Fields, in order, with stdlib checks.

    ``slot_defaults`` holds the defaults that ``DataClassMeta`` took out of a
    slotted class's namespace (a slot and a class attribute cannot share a name);
    None for a class it did not slot.
    """
    slotted = slot_defaults is not None
    slot_defaults = slot_defaults or {}
    own = []
    kw_only_seen = False
    module_name = cls.__module__
    for name, annotation in annotations.items():
        # a plain class (int, str) is a field's type; kind_of for the rest
        kind = (FIELD if type(annotation) is type and annotation is not KW_ONLY
                and annotation is not InitVar else kind_of(annotation, module_name))
        if kind is KW_ONLY:
            if kw_only_seen:
                msg = f'{name!r} is KW_ONLY, but KW_ONLY has already been specified'
                raise TypeError(msg)
            kw_only_seen = True
            kw_only = True
            continue
        if name in slot_defaults:
            default = slot_defaults[name]
        elif slotted and isinstance(cls.__dict__.get(name), types.MemberDescriptorType):
            # Our own new slot: the stdlib looks before adding slots, so it
            # finds what the bases have under that name (a default, say).
            default = getattr(super(cls, cls), name, MISSING)
        else:
            default = getattr(cls, name, MISSING)
        own.append((_make_field if isinstance(default, _Field) else _plain_field)(
            name, annotation, kind, default, kw_only))
    _check_unannotated(cls, annotations, slot_defaults)
    return own


# The slots a Field has, which _plain_field fills; on a Python whose Field has
# others, _plain_field calls Field() instead.
_KNOWN_SLOTS = {'name', 'type', 'default', 'default_factory', 'repr', 'hash', 'init',
                'compare', 'metadata', 'kw_only', 'doc', '_field_type', '_hooks'}
_SLOTS_KNOWN = set(dataclasses.Field.__slots__) | set(Field.__slots__) == _KNOWN_SLOTS
_EMPTY_METADATA = dataclasses.field().metadata  # the stdlib's one empty mapping
_new_field = Field.__new__


def _plain_field(name, annotation, kind, default, kw_only):
    """The field of an annotation with or without a value (no ``field()``):
    ``Field(default, MISSING, True, True, None, True, None, kw_only)`` named,
    typed and of its kind, each slot stored once, without ``Field.__init__``'s
    two frames (most fields are made so: this was a tenth of a class's creation).
    ``name`` is interned, as names written in source are: every store and read
    of the field by the generated methods then finds it by identity. A name
    built at run time (make_dataclass from a schema, a namespace from a dict)
    is not."""
    if isinstance(default, types.MemberDescriptorType):
        default = MISSING  # an inherited slot, not a default
    if kind is FIELD and default.__class__.__hash__ is None:
        raise _mutable_default(name, default)
    if _SLOTS_KNOWN:
        f = _new_field(Field)
        f.default = default
        f.default_factory = MISSING
        f.init = f.repr = f.compare = True
        f.hash = f.doc = f._hooks = None
        f.metadata = _EMPTY_METADATA
    else:
        f = Field(default, MISSING, True, True, None, True, None, MISSING)
    f.kw_only = MISSING if kind is CLASSVAR else kw_only
    f.name = sys.intern(name) if type(name) is str else name
    f.type = annotation
    f._field_type = kind
    return f


def as_ours(f):
    """Field ``f`` as a ``Field`` of ours: a stdlib ``dataclasses.Field`` (from
    ``dataclasses.field()``) is copied, every slot it has on this Python kept
    (``kw_only``, 3.14's ``doc``, ...); ours, and any other subclass, is ``f``."""
    if type(f) is not _Field:
        return f
    ours = _new_field(Field)
    for name in _Field.__slots__:
        try:
            setattr(ours, name, getattr(f, name))
        except AttributeError:  # a slot never set (a Field made without __init__)
            pass
    if not _HAS_DOC_SLOT:
        ours.doc = None
    ours._hooks = None
    return ours


def _make_field(name, annotation, kind, default, kw_only):
    if not isinstance(default, dataclasses.Field):
        return _plain_field(name, annotation, kind, default, kw_only)
    f = as_ours(default)
    f.name = sys.intern(name) if type(name) is str else name
    f.type = annotation
    f._field_type = kind
    if kind is not FIELD and f.default_factory is not MISSING:
        raise TypeError(f'field {name} cannot have a default factory')
    if kind is CLASSVAR:
        if f.kw_only is not MISSING:
            raise TypeError(f'field {name} is a ClassVar but specifies kw_only')
    elif f.kw_only is MISSING:
        f.kw_only = kw_only
    if kind is FIELD and f.default.__class__.__hash__ is None:
        raise _mutable_default(name, f.default)
    return f


def _mutable_default(name, default):
    return ValueError(f'mutable default {type(default)} for field {name} is not allowed: '
                      f'use default_factory')


def _check_unannotated(cls, annotations, slot_defaults):
    for source in (cls.__dict__, slot_defaults):
        # The names whose value is a Field, tested one by one as the loop asks
        # (the stdlib's order), in C: most class attributes are no Field.
        for name in compress(source, map(isinstance, source.values(), repeat(_Field))):
            if name not in annotations:
                raise TypeError(f'{name!r} is a field but has no type annotation')


def merge_base_fields(cls, own):
    """All fields: bases' in reverse MRO, then the class's own (which override).

    A data-class base whose MRO is the whole rest of ours (single inheritance)
    holds that very merge already, made the same way when it was created: start
    from a copy of it, so that a deep hierarchy costs linear, not quadratic, time.
    """
    mro = cls.__mro__
    merged, stop = {}, len(mro) - 1
    for i in range(1, len(mro) - 1):
        base_fields = mro[i].__dict__.get('__dataclass_fields__')
        if base_fields is not None and mro[i].__mro__ == mro[i:]:
            merged, stop = dict(_ours_from(mro[i], base_fields)), i - 1
            break
    for base in mro[stop:0:-1]:
        base_fields = getattr(base, '__dataclass_fields__', None)  # as the stdlib
        if base_fields is not None:
            merged.update(_ours_from(base, base_fields))
    for f in own:
        merged[f.name] = f
    return merged


def _ours_from(base, base_fields):
    """The fields of a data-class base, those of a stdlib ``@dataclass`` made ours
    (one of ours holds only ours: one type check per base)."""
    if type(getattr(base, '__dataclass_params__', None)) is Params:
        return base_fields
    return {name: as_ours(f) for name, f in base_fields.items()}


def set_defaults_on_class(cls, own):
    """Replace ``Field`` class attributes by the plain default, as the stdlib does."""
    namespace = cls.__dict__  # a live view: one for the loop
    for f in own:
        if isinstance(namespace.get(f.name), dataclasses.Field):
            if f.default is MISSING:
                delattr(cls, f.name)
            else:
                type.__setattr__(cls, f.name, f.default)  # past DataClassMeta's guard


def check_field_order(cls, fields):
    """``__init__`` cannot take a required positional argument after a default.

    The stdlib's message, then the parent that gave an inherited default.
    """
    seen_default = None
    for f in fields:
        if f.init and not f.kw_only:
            if f.default is not MISSING or f.default_factory is not MISSING:
                seen_default = f
            elif seen_default is not None:
                msg = (f'non-default argument {f.name!r} follows default argument '
                       f'{seen_default.name!r}{_default_origin(cls, seen_default)}')
                raise TypeError(msg)


def _default_origin(cls, f):
    """`` ('a' has its default from parent 'Base')`` for an inherited field, else ''.

    A field object passes unchanged from a class to its subclasses' fields, so
    the one that declared it is the furthest ancestor still holding it.
    """
    owners = [klass for klass in cls.__mro__[1:]
              if klass.__dict__.get('__dataclass_fields__', {}).get(f.name) is f]
    if not owners:
        return ''
    return f' ({f.name!r} has its default from {relative(cls, owners[-1])})'
