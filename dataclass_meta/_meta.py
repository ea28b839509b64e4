"""``DataClassMeta`` (work that must precede the type) and ``DataClass`` (the pipeline).

``DataClassMeta.__new__`` only prepares the namespace: ``__slots__`` must exist
before the type does, so slotted classes are built once, never re-created.
``DataClass.__init_subclass__`` runs everything else as short named stages,
before any ``__init_subclass__`` further along the MRO, so a framework that calls
``super().__init_subclass__(**kw)`` first finds the fields finished. Where a
mixin's ``__init_subclass__`` kept the pipeline from running, ``DataClassMeta.__new__``
runs it once ``type.__new__`` returns (``_build_skipped``).
"""

import abc
import dataclasses
import sys
import types
from dataclasses import KW_ONLY, MISSING

from . import _options, _protocols
from ._fields import (
    ANNOTATIONS_CACHE, CLASSVAR as _CLASSVAR, FIELD, Field, annotations_of, body_annotations,
    check_field_order, collect_own_fields, field, kind_of, merge_base_fields,
    set_defaults_on_class)
from ._backend import current as _current_backend, made_by_any
from ._cached_property import (
    SlottedCachedProperty, add_cached_slots, cached_properties, getattr_for, made_getstate)
from ._field_hook import as_classmethod as _hook_as_classmethod, transform as _transform_fields
from ._convert import wants_setattr
from ._cache_hash import HASH_SLOT, add_hash_slot, finish as _finish_cache_hash
from ._init import make_init
from ._interop import rich_repr
from ._class_attrs import HASH_ACTIONS, LazyDoc, make_getstate, make_setstate
from ._replace import REPLACE_ENTRY
from . import _travel
from ._wire import mro_lookup, untracking_wrapper
from ._travel import ReplaceEntry, SlotLayout, layout_of
from ._plan import Plan
from ._pydantic import HOOK as _PYDANTIC_HOOK, core_schema as _pydantic_schema, wants_hook

_SLOTTED = '__dataclass_slotted__'  # (annotations, defaults) from DataClassMeta
# The options the class statement gave, from DataClassMeta: a mixin before
# DataClass in the MRO may pass them on to DataClass.__init_subclass__ or not.
_STATEMENT = '__dataclass_options__'

# The pipeline's own writes to the class skip ``DataClassMeta.__setattr__``
# (and any metaclass's): that guard is for writes from outside, and a Python
# ``__setattr__`` on every store would cost class creation about 7%.
_store = type.__setattr__


_TYPE_DOC = type.__dict__['__doc__']


def _decorated_by(cls):
    """The library that applied ``@dataclass`` to ``cls`` (the module of the
    first caller outside ``dataclasses`` and this package), or None where that is
    the class's own package, code without a module name, or the call was
    ``dataclasses.make_dataclass`` (the user's decorator)."""
    frame = sys._getframe(2)  # past __setattr__, in dataclasses
    while frame is not None:
        module = _module_name(frame.f_globals.get('__name__'))
        if module == 'dataclasses' and frame.f_code.co_name == 'make_dataclass':
            return None
        if module != 'dataclasses' and module.partition('.')[0] != _PACKAGE:
            break
        frame = frame.f_back
    else:
        return None
    top = module.partition('.')[0]
    # code without a module name (exec() with bare globals) is the user's own
    return None if not top or top == _module_name(cls.__module__).partition('.')[0] else module


def _module_name(name):
    """A module name read from globals or ``__module__``: ``''`` where there is
    none or it is no string (``exec()`` may be given ``{'__name__': None}``)."""
    return name if isinstance(name, str) else ''


class _ClassDoc:
    """A metaclass's ``__doc__`` that leaves its classes' ``__doc__`` to ``type``.

    A metaclass's docstring is a plain string in its namespace, which
    ``object.__getattribute__(cls, '__doc__')`` (what pydoc and ``help()`` use)
    finds before ``type.__doc__``; it then returns a class's ``LazyDoc`` itself,
    not its text. This data descriptor sends that lookup through ``type.__doc__``.
    """

    __slots__ = ('text',)

    def __init__(self, text):
        self.text = text

    def __get__(self, cls, owner=None):
        return self.text if cls is None else _TYPE_DOC.__get__(cls)

    def __set__(self, cls, value):
        _TYPE_DOC.__set__(cls, value)


def _user_frames_first(new):
    """``new`` raising a class definition's error with the package's frames left out.

    What class creation rejects (a bad option, field or order: ``TypeError`` and
    ``ValueError``) is raised from here, one frame below the class statement, as
    ``@dataclass``'s errors come from just below the decorator line; the frames
    of the user's own code that ran inside (a framework's ``__init_subclass__``, a
    ``__set_name__``) stay. Other exceptions keep their whole traceback.
    """
    def __new__(mcls, name, bases, namespace, /, **kwargs):
        try:
            return new(mcls, name, bases, namespace, **kwargs)
        except (TypeError, ValueError) as exc:
            _hint_metaclass_conflict(exc, mcls, bases)
            error = exc.with_traceback(_outside_package(exc.__traceback__.tb_next))
            raise error  # the definition's error (the package's frames left out)
    # functools.wraps' work by hand: importing functools costs 3.15 a module
    __new__.__qualname__, __new__.__doc__ = new.__qualname__, new.__doc__
    __new__.__wrapped__ = new
    return __new__


def _hint_metaclass_conflict(exc, mcls, bases):
    """Add the remedy to Python's ``metaclass conflict`` error: a metaclass from both.

    Only where this metaclass makes the class (``DataClassMeta(...)``,
    ``make_dataclass``): a class statement's conflict is raised by Python before
    any metaclass runs.
    """
    others = [type(b) for b in bases
              if not issubclass(mcls, type(b)) and not issubclass(type(b), mcls)]
    if not (others and isinstance(exc, TypeError) and str(exc).startswith('metaclass conflict')):
        return
    note = (f'to combine {mcls.__name__} with {others[0].__name__}, derive a metaclass from '
            f'both, class Meta({mcls.__name__}, {others[0].__name__}), and make the class '
            f'with it (metaclass=Meta)')
    _add_hint(exc, note)


def _add_hint(exc, note):
    """``note`` on our own or Python's ``TypeError``: an exception note on 3.11+;
    3.10 has none (PEP 678), so there the hint is the message's second line."""
    if sys.version_info >= (3, 11):
        exc.add_note(note)
    else:
        exc.args = (f'{exc.args[0]}\n{note}', *exc.args[1:])


def caller_module(depth=2):
    """The module of the function ``depth`` frames up from here (2: the caller
    of the caller, ``make_dataclass``'s), so instances pickle."""
    try:
        return sys._getframe(depth).f_globals.get('__name__', '__main__')
    except (AttributeError, ValueError):
        return '__main__'


_PACKAGE = __name__.rpartition('.')[0]
_HIDDEN = frozenset({'abc', '_py_abc'})  # ABCMeta.__new__, between ours and type's


def _outside_package(tb):
    """The entries of traceback ``tb`` whose code is not this package's (nor abc's)."""
    kept = []
    while tb is not None:
        module = tb.tb_frame.f_globals.get('__name__', '')
        if not (module in _HIDDEN or module == _PACKAGE or module.startswith(_PACKAGE + '.')):
            kept.append(tb)
        tb = tb.tb_next
    chain = None
    for entry in reversed(kept):
        chain = types.TracebackType(chain, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    return chain


# -- classes sent by value (cloudpickle, dill): see _travel --------------------

def _generated_entry(key, value):
    """Whether the pipeline made ``value`` (an entry ``key`` of a class dict) from
    the fields and options, so that a remade class makes it anew."""
    if key in _ANNOTATIONS:  # the class's own (make_dataclass's from our source)
        return False
    return (made_by_any(value) or _travel.travelled(value) or _travel.compiled_here(value)
            or type(value) is LazyDoc or type(value) is ReplaceEntry or key == REPLACE_ENTRY
            or (key == _PYDANTIC_HOOK and getattr(value, '__func__', None) is _pydantic_schema)
            or _assignment_wrapper(key, value))


def _assignment_wrapper(key, value):
    """Whether ``value`` is a slot wrapper of ``__setattr__``/``__delattr__`` that
    ``untrack_atomic=True`` put in a mutable class's namespace, or object's, which
    a pickler sends in its place (a wrapper pickles as ``getattr(cls, name)``,
    which a skeleton answers with object's): the remade class installs its
    own, and object's in a class's namespace is what it inherits anyway."""
    return (key in ('__setattr__', '__delattr__')
            and (value is object.__dict__[key] or untracking_wrapper(value)))


def _arrives(cls, name, value):
    """Take a pickler's write to ``cls`` (cloudpickle sets each entry of the
    home class's ``__dict__`` on a skeleton made by this metaclass); whether it
    was taken here. A generated method's placeholder is dropped; the home
    fields and options remake the class once both are in, and again when an
    entry that shapes the generated methods (``SHAPING``) arrives later."""
    own = cls.__dict__
    if '__dataclass_fields__' not in own:
        return False  # not built (yet): the pipeline's own business
    arriving = _LAZY.get('arriving')
    state = None if arriving is None else arriving.get(cls)
    if _travel.travelled(value) and name not in _ANNOTATIONS:
        home = _travel.home_qualname(value)  # cloudpickle's skeleton has only the name
        if state is not None and home is not None and home != cls.__qualname__:
            name, value = '__qualname__', home
        else:
            return True
    elif state is not None and _generated_entry(name, value):
        return True  # sent by reference (the module of its class imports here): made anew
    if name == '__dataclass_fields__' or (name == '__dataclass_params__'
                                          and isinstance(value, _options.Params)):
        if own.get(name) is value:
            return False
        if state is None:
            state = _arriving()[cls] = {'built': own['__dataclass_fields__']}
        state[name] = value
        _store(cls, name, value)
    elif _unbound_cached(value):
        value = _rebound_cached(value)
        super(DataClassMeta, cls).__setattr__(name, value)
        value.__set_name__(cls, name)  # as the class body would have
        return True
    elif state is None or name not in _travel.SHAPING:
        return False
    else:
        super(DataClassMeta, cls).__setattr__(name, value)
    if '__dataclass_fields__' in state and '__dataclass_params__' in state:
        _remake(cls, state['__dataclass_params__'], state['__dataclass_fields__'], state)
    return True


def _arrived_namespace(cls, namespace):
    """After dill's class is built: what its namespace carried wins over what a
    framework's ``__init_subclass__`` set anew without the class keywords (as
    cloudpickle's writes do); later arrivals (``__qualname__``) remake it."""
    own = cls.__dict__
    for key, value in namespace.items():
        if key in own and own[key] is not value and key not in _NOT_CARRIED:
            _store(cls, key, value)
    _arriving()[cls] = {'built': own['__dataclass_fields__'],
                        '__dataclass_fields__': own['__dataclass_fields__'],
                        '__dataclass_params__': own['__dataclass_params__']}


def _unbound_cached(value):
    """Whether ``value`` is a travelled slotted cached property (before 3.12):
    what either backend's is pickled as, not yet bound to its class's slot."""
    return type(value) is SlottedCachedProperty and value.attrname is None


def _rebound_cached(value):
    """The travelled cached property ``value`` as one of this process's backend."""
    return _current_backend().cached_property(value.func, value.slot)


# 3.14+: a class's annotations function, which make_dataclass makes in our source.
_ANNOTATIONS = frozenset({'__annotate__', '__annotate_func__'})


# What the pipeline (or type) makes of a dill namespace: never taken back from it.
_NOT_CARRIED = frozenset({'__dict__', '__module__', '__slots__', '__doc__', '__hash__',
                          '__match_args__', '__abstractmethods__', _travel.RESTORE})


def _remake(cls, params, fields, state=None):
    """Make ``cls`` the data class of ``params`` and ``fields`` (which travelled
    with it): drop what the pipeline made of the skeleton, keep what the
    pickler set, make the rest anew with this process's backend."""
    own = cls.__dict__
    built = state['built'] if state else None
    skeleton_args = built and tuple(
        f.name for f in built.values()
        if f.init and f._field_type is not _CLASSVAR and not f.kw_only)
    for key, value in list(own.items()):
        if (_generated_entry(key, value) or (key == '__hash__' and value is None)
                or (key == '__match_args__' and built is not None and value == skeleton_args)):
            if key == '__doc__':  # type's, which cannot be deleted
                _store(cls, key, None)
            else:
                type.__delattr__(cls, key)
    _store(cls, '__dataclass_params__', params)
    _store(cls, '__dataclass_fields__', _travel.arrived_fields(fields))
    _make(cls, params, fields, {}, arrived=True)
    if state is not None:
        state['built'] = fields


def _arriving():
    """The classes a pickler is remaking (weakly held), and what has arrived of
    their fields and options; made on the first arrival, so that importing the
    package does not import ``weakref`` (3.15 no longer does at start-up). One
    table however many threads arrive at once: ``setdefault`` is atomic."""
    found = _LAZY.get('arriving')
    if found is None:
        import weakref
        found = _LAZY.setdefault('arriving', weakref.WeakKeyDictionary())
    return found


_LAZY = {}


class DataClassMeta(abc.ABCMeta):
    """Metaclass of data classes; subclass it to transform namespaces first.

    Derives from ``abc.ABCMeta``, so ``abc.ABC`` mixes in and abstract methods are
    enforced, and from typing's protocol metaclass once ``typing`` is imported,
    so a data class may list the ``Protocol`` it implements (``_protocols``). A
    class made with it always has ``DataClass`` among its bases.
    """

    def __init_subclass__(mcls, /, **kwargs):
        super().__init_subclass__(**kwargs)
        _options.declared_keywords(mcls)  # its __class_keywords__, checked
        mcls.__doc__ = _ClassDoc(mcls.__dict__.get('__doc__'))
        if _protocols.ADOPTED:  # ABCMeta's methods past typing's protocol metaclass
            _protocols.settle(mcls)
        enum = sys.modules.get('enum')  # 3.15's dataclasses no longer imports it
        if enum is not None and issubclass(mcls, enum.EnumMeta):
            _ENUM_METAS.add(mcls)

    def __setattr__(cls, name, value):
        """Refuse ``@dataclasses.dataclass`` on a class that already is one of ours.

        The decorator's first write to a class is its ``_DataclassParams`` as
        ``__dataclass_params__``. On a finished data class of ours that is a
        decorator left over from a migration, which would re-process the class
        and, with ``frozen=True``, freeze our ``__init__`` out of its own
        instances. The pipeline's own stores skip this method (``_store``).
        """
        if (name == '__dataclass_params__' and '__dataclass_fields__' in cls.__dict__
                and isinstance(value, dataclasses._DataclassParams)
                and not isinstance(value, _options.Params)):
            raise TypeError(_options.decorated(cls, value, DataClassMeta, _decorated_by(cls)))
        if not _arrives(cls, name, value):  # a pickler remaking a class sent by value
            super().__setattr__(name, value)

    def __transform_fields__(cls, fields):
        """The field hook's last stop: ``fields`` unchanged (docs/frameworks.md).

        A ``DataClassMeta`` subclass may define it to change or add the fields
        of each of its classes, after collection and merging and before any
        method is made; ``super().__transform_fields__(fields)`` passes on.
        """
        return fields

    @_user_frames_first
    def __new__(mcls, name, bases, namespace, /, **kwargs):
        if _ENUM_METAS and mcls in _ENUM_METAS:
            return _new_enum(mcls, name, bases, namespace, kwargs)
        if not _protocols.PROTOCOLS.isdisjoint(bases):
            _refuse_protocol(name, bases)
        bases = _with_dataclass_base(bases)
        if '__module__' not in namespace:
            # A direct call: type() would name the caller's module, but the
            # caller of type.__new__ is ABCMeta.__new__ (module 'abc'). Three
            # frames up: past this function and _user_frames_first's __new__.
            namespace = dict(namespace, __module__=caller_module(3))
        travelled = _travelled_namespace(namespace)
        if travelled is not None:  # dill's: laid out at home, built from its fields
            namespace = _laid_out(travelled, bases)
        elif (layout := layout_of(namespace)) is not None:  # cloudpickle's slotted skeleton
            namespace = _laid_out(dict(namespace, __slots__=layout.slots), bases)
        else:
            namespace = _lay_out(name, bases, namespace, kwargs)
        namespace = _hook_as_classmethod(namespace)
        explicit = _options.given(kwargs)
        if explicit:  # for the pipeline, whatever a mixin passes on of them
            namespace = dict(namespace)
            namespace[_STATEMENT] = explicit
        try:
            start = (_protocols.new_after(mcls, DataClassMeta) if _protocols.ADOPTED
                     else DataClassMeta)
            if _ABC_PARAMETERS.isdisjoint(kwargs) or _after(mcls, start) is not abc.ABCMeta:
                cls = super(start, mcls).__new__(mcls, name, bases, namespace, **kwargs)
            else:
                # What ABCMeta.__new__ does, without binding the class keywords to its
                # parameters: the metaclass after it in the MRO, then the abc bookkeeping.
                cls = super(abc.ABCMeta, mcls).__new__(mcls, name, bases, namespace, **kwargs)
                abc._abc_init(cls)
        except Exception as exc:
            _note_mixin_error(exc, name, bases)
            raise
        if travelled is not None:
            _arrived_namespace(cls, namespace)
        if '__dataclass_fields__' not in cls.__dict__ and 'DataClass' in globals():
            _build_skipped(cls, explicit)
        return cls


# 3.10: ABCMeta.__new__(mcls, name, bases, namespace, **kwargs) takes class
# keywords named like its parameters as duplicates (a framework's ``name=``);
# 3.11+ made them positional-only (bpo-43827). Stepped around where ABCMeta
# comes right after us; a metaclass in between would pass them on anyway.
_ABC_PARAMETERS = frozenset(
    {'mcls', 'name', 'bases', 'namespace'} if sys.version_info < (3, 11) else ())


# The metaclasses of ours that are also enum metaclasses (a combined_metaclass
# of EnumType): the classes they make are enums, never data classes themselves.
_ENUM_METAS = set()


def _new_enum(mcls, name, bases, namespace, kwargs):
    """An enum whose members are instances of its data-class mixin, made as
    ``EnumType`` makes it (the namespace untouched, no ``DataClass`` added): as
    with ``@dataclass``, the enum itself is not a data class."""
    explicit = _options.given(kwargs)
    if explicit:
        msg = (f'enum {name!r} is not a data class itself, so it takes no data-class '
               f'options ({", ".join(explicit)}): give them to its data-class mixin')
        raise TypeError(msg)
    start = _protocols.new_after(mcls, DataClassMeta) if _protocols.ADOPTED else DataClassMeta
    cls = super(start, mcls).__new__(mcls, name, bases, namespace, **kwargs)
    # Members pickle by value, as the enum's own __reduce_ex__ does. 3.10's
    # EnumMeta keeps the mixin's (the compiled core's compact pickle, which
    # loads without the enum's lookup) where the stdlib's mixin would have none.
    reduce_ex = mro_lookup(cls, '__reduce_ex__')
    if made_by_any(reduce_ex) and bases:
        type.__setattr__(cls, '__reduce_ex__', mro_lookup(bases[-1], '__reduce_ex__'))
    return cls


def _refuse_protocol(name, bases):
    """A data class may implement protocols, never be one: ``Protocol`` itself
    among the bases would make the class a protocol, whose bases are protocols only."""
    others = ', '.join(b.__name__ for b in bases if b not in _protocols.PROTOCOLS)
    msg = (f'data class {name!r} cannot be a protocol (Protocol among its bases): '
           f'to implement a protocol, list that protocol instead of Protocol, '
           f'class {name}({others or "DataClass"}, TheProtocol); to declare one, '
           f'leave the data classes out of its bases')
    raise TypeError(msg)


def _lay_out(name, bases, namespace, kwargs):
    """The namespace with the class's slots: its fields', its cached properties',
    the cached hash's; a slotted class's ``SlotLayout`` names them for the road;
    ``gc=False``: ``_UntrackFirst`` before every other entry."""
    slots, weakref_slot, cache_hash, gc = _slot_options(bases, kwargs)
    if not gc:
        namespace = {_UNTRACK_FIRST: _UntrackFirst(), **namespace}
    cached = cached_properties(namespace) if slots else None
    if slots:
        namespace = _slotted_namespace(name, bases, namespace, weakref_slot)
    if cached:
        taken = _inherited_slots(bases)
        if '__dict__' not in taken:
            namespace = add_cached_slots(name, namespace, cached, taken,
                                         _current_backend().cached_property)
    if cache_hash:
        namespace = add_hash_slot(namespace, _inherited_slots(bases))
    return _laid_out(namespace, bases) if slots else namespace


class _UntrackFirst:
    """``gc=False``: the first ``__set_name__`` of the class's creation, before
    any other (a descriptor's) or a mixin's ``__init_subclass__`` can allocate
    an instance. The backend gives the instances their layout now: an instance
    allocated with the collector's header and freed by a class that no longer
    has one would corrupt memory. ``_build`` asks again, and gets the answer."""

    __slots__ = ()

    def __set_name__(self, owner, name):
        type.__delattr__(owner, name)  # type_new iterates over a copy
        _current_backend().untrack(owner)


_UNTRACK_FIRST = '__dataclass_untrack__'


def _laid_out(namespace, bases):
    """``namespace`` with the ``SlotLayout`` of its ``__slots__`` as ``__dict__``,
    where the instances have none (no base gives them one)."""
    slots = namespace.get('__slots__')
    if (slots is None or '__dict__' in ((slots,) if isinstance(slots, str) else slots)
            or '__dict__' in _inherited_slots(bases)):
        return namespace
    namespace = dict(namespace)
    namespace['__dict__'] = SlotLayout(slots)
    return namespace


def _travelled_namespace(namespace):
    """The namespace of a class that dill sent by value, for the pipeline: what
    the pipeline generated at home left out, the fields and options kept for
    ``_build`` (``RESTORE``); None for any other namespace."""
    params = namespace.get('__dataclass_params__')
    if not (isinstance(params, _options.Params) and '__dataclass_fields__' in namespace):
        return None
    kept = {key: _rebound_cached(value) if _unbound_cached(value) else value
            for key, value in namespace.items() if not _generated_entry(key, value)}
    del kept['__dataclass_params__'], kept['__dataclass_fields__']
    kept[_travel.RESTORE] = (params, namespace['__dataclass_fields__'])
    return kept


def _after(mcls, klass):
    mro = mcls.__mro__
    return mro[mro.index(klass) + 1]


DataClassMeta.__doc__ = _ClassDoc(DataClassMeta.__dict__['__doc__'])


def _with_dataclass_base(bases):
    """Add ``DataClass`` to the bases of a class that names only the metaclass."""
    base = globals().get('DataClass')
    if base is None:
        return bases
    for b in bases:
        # a real subclass answers from its MRO, before ABCMeta's subclass check
        if isinstance(b, type) and (base in b.__mro__ or issubclass(b, base)):
            return bases
    return bases + (base,)


def _slot_options(bases, kwargs):
    """The options that decide the class's layout: slots, weakref_slot,
    cache_hash, gc."""
    inherited = _options.parent_params(bases)
    return (kwargs.get('slots', getattr(inherited, 'slots', False)),
            kwargs.get('weakref_slot', getattr(inherited, 'weakref_slot', False)),
            kwargs.get('cache_hash', getattr(inherited, 'cache_hash', False)),
            kwargs.get('gc', getattr(inherited, 'gc', True)))


def _slotted_namespace(name, bases, namespace, weakref_slot):
    """The namespace with ``__slots__`` for every field not already slotted above.

    Defaults of the class's own fields move out of the namespace (a slot and a
    class attribute cannot share a name) into a stash the pipeline reads, with
    the annotations read here.
    """
    if '__slots__' in namespace:
        raise TypeError(f'{name} already specifies __slots__')
    module = namespace.get('__module__')
    annotations, evaluated = body_annotations(namespace)
    kinds = {n: kind_of(a, module) for n, a in annotations.items()}
    # The stdlib slots fields(cls), in their order: the bases' fields (reverse
    # MRO) updated in place by this class's annotations, so a base's field
    # redeclared as a ClassVar or InitVar gets no slot.
    merged = {}
    for base in reversed(bases):
        merged.update((f.name, f._field_type)
                      for f in getattr(base, '__dataclass_fields__', {}).values())
    merged.update((n, kind) for n, kind in kinds.items() if kind is not KW_ONLY)
    names = [n for n, kind in merged.items() if kind is FIELD]
    taken = _inherited_slots(bases)
    wanted = dict.fromkeys(names + (['__weakref__'] if weakref_slot else []))
    body, namespace = namespace, dict(namespace)
    if evaluated is not None:  # as a class read once by annotationlib keeps it
        namespace[ANNOTATIONS_CACHE] = evaluated
    # Like the stdlib, drop every field's name from the namespace. The stash
    # keeps the class's own defaults, and a field() for an inherited name (no
    # annotation here) so that the pipeline raises the stdlib's TypeError.
    stash, stray = {}, False
    for n in names:
        value = namespace.pop(n, MISSING)
        if n in kinds and value is not MISSING:
            stash[n] = value
        elif isinstance(value, dataclasses.Field):
            stash[n] = value
            stray = True
    if stray:
        _stash_unannotated(body, kinds, namespace, stash)
    docs = {n: getattr(stash.get(n), 'doc', None) for n in wanted if n not in taken}
    namespace['__slots__'] = docs if any(docs.values()) else tuple(docs)
    # The pipeline reuses the annotations: 3.14+ evaluates them only once.
    namespace[_SLOTTED] = (annotations, stash)
    return namespace


def _stash_unannotated(body, kinds, namespace, stash):
    """Move every unannotated ``field()`` into the stash, in the body's order.

    The pipeline names the first of them, as the stdlib names the first in the
    class body; one left in the namespace would be checked before the stash.
    """
    for n, value in body.items():
        if n not in kinds and isinstance(value, dataclasses.Field):
            stash.pop(n, None)
            stash[n] = namespace.pop(n, value)


def _inherited_slots(bases):
    """Names already stored in slots (or a ``__dict__``/``__weakref__``) above.

    As the stdlib's ``_get_slots``: a class without ``__slots__`` has a ``__dict__``
    or ``__weakref__`` if its offsets say so, which also holds for C types such as
    3.12's ``typing.Generic``; an iterator as ``__slots__`` cannot be read again.
    """
    taken = set()
    for base in bases:
        for klass in base.__mro__[:-1]:
            slots = klass.__dict__.get('__slots__')
            if slots is None:
                if getattr(klass, '__weakrefoffset__', -1) != 0:
                    taken.add('__weakref__')
                if getattr(klass, '__dictoffset__', -1) != 0:
                    taken.add('__dict__')
            elif isinstance(slots, str):
                taken.add(slots)
            elif hasattr(slots, '__next__'):
                raise TypeError(f"Slots of '{klass.__name__}' cannot be determined")
            else:
                taken.update(slots)
    return taken


class DataClass(metaclass=DataClassMeta):
    """Base class of data classes: annotated fields become ``__init__``,
    ``__repr__``, ``__eq__`` and the rest, with options as class keywords::

        class Point(DataClass, frozen=True, order=True):
            x: int
            y: int = 0

    The options are ``@dataclass``'s, with its defaults: ``init``, ``repr``,
    ``eq``, ``order``, ``unsafe_hash``, ``frozen``, ``match_args``, ``kw_only``,
    ``slots``, ``weakref_slot``; and ours: ``cache_hash`` (the hash computed once
    per instance, never pickled, copied or replaced; needs a generated
    ``__hash__``) and ``gc`` (``gc=False``: with the compiled core, instances the
    cyclic garbage collector never tracks, so a reference cycle through them is
    never freed). Each is ``True`` or ``False``. A subclass
    inherits its data-class parent's options and overrides them with its own
    keywords; other class keywords go on to ``__init_subclass__``. Conflicts
    (``frozen`` against a parent, ``order`` without ``eq``, an unknown keyword)
    raise when the class is created.
    """

    __slots__ = ()
    __rich_repr__ = rich_repr  # rich prints the fields, as for a stdlib data class
    _dataclass_cached = None  # _cached_property.CACHED: no slotted cached property

    def __init_subclass__(cls, /, **kwargs):
        """Build the data class from the options, then pass other keywords on.

        A framework's ``__init_subclass__`` takes its own keywords and calls this
        through ``super()``; when that returns, the class is complete: fields,
        generated methods, class attributes (docs/frameworks.md).
        """
        if _ENUM_METAS and type(cls) in _ENUM_METAS:  # an enum: not built (_new_enum)
            super().__init_subclass__(**kwargs)
            return
        explicit, rest = _options.split(kwargs)
        statement = cls.__dict__.get(_STATEMENT)
        if statement is not None:  # what a mixin passed on wins; what it dropped holds
            type.__delattr__(cls, _STATEMENT)
            explicit = {**statement, **explicit}
        if _options.DECLARED in cls.__dict__:
            _options.declared_keywords(cls)  # checked before the class is built
        if rest and _next_init_subclass(cls) is object:
            # what is left is either the framework's (its metaclass's), or unknown
            _options.check_taken(cls, rest, DataClass)
            rest = {}
        _build(cls, explicit)
        super().__init_subclass__(**rest)

    @classmethod
    def __transform_fields__(cls, fields):
        """The field hook: return the class's fields, changed or added to.

        Called once per data class with a list of its fields (inherited ones
        first, as ``fields()`` orders them, ClassVars and InitVars included),
        after they are collected and merged and before any method is made. A
        framework base overrides it (a plain function is made a classmethod);
        each returned ``Field`` is checked as one written in the class body.
        This one passes the call on to the metaclass's.
        """
        return type(cls).__transform_fields__(cls, fields)


# What ``__init__.pyi`` declares to type checkers (PEP 681), for runtime
# introspection: the dict ``typing.dataclass_transform`` would set, written out
# so that importing the package does not import ``typing``.
DataClass.__dataclass_transform__ = {
    'eq_default': True, 'order_default': False, 'kw_only_default': False,
    'frozen_default': False,
    'field_specifiers': (field, Field, dataclasses.field, dataclasses.Field),
    'kwargs': {},
}


# The field hooks of DataClass and DataClassMeta: where both are the class's,
# there is no hook to call.
_DEFAULT_HOOK = DataClass.__dict__['__transform_fields__'].__func__
_DEFAULT_META_HOOK = DataClassMeta.__transform_fields__


def _next_init_subclass(cls):
    """The class whose ``__init_subclass__`` follows ``DataClass``'s in the MRO;
    typing's ``Protocol`` and ``Generic`` pass every keyword on, as if absent."""
    mro = cls.__mro__
    for klass in mro[mro.index(DataClass) + 1:]:
        if '__init_subclass__' in klass.__dict__ and klass not in _protocols.PASS_ON:
            return klass
    return object


def _build_skipped(cls, explicit):
    """Build a class whose ``DataClass.__init_subclass__`` a mixin's did not call.

    A mixin before ``DataClass`` in the MRO whose ``__init_subclass__`` does not
    call ``super()`` (dataclass-wizard's ``YAMLWizard``) stops the chain before
    the pipeline. Where it is the only ``__init_subclass__`` that ran, the class
    is built here with the statement's options, as if it had; where others
    were skipped with ours, they cannot be run again: an error names the mixin.
    """
    if _STATEMENT in cls.__dict__:
        type.__delattr__(cls, _STATEMENT)
    mro = cls.__mro__
    at = mro.index(DataClass)
    before = [k for k in mro[1:at] if '__init_subclass__' in k.__dict__]
    after = [k for k in mro[at + 1:-1] if '__init_subclass__' in k.__dict__]
    if before and (before[1:] or after):
        first = before[0].__name__
        others = (f' or one after it ({", ".join(k.__name__ for k in before[1:])})'
                  if before[1:] else '')
        skipped = ' and '.join(f"{k.__name__}'s" for k in [DataClass, *after])
        order = _mixin_last(cls.__bases__, lambda b: issubclass(b, before[0]))
        msg = (f'data class {cls.__name__!r} was not built: {first}.__init_subclass__'
               f'{others} did not call super().__init_subclass__(**kwargs), so '
               f'{skipped} did not run: name {first} after the data-class bases, '
               f'class {cls.__name__}({", ".join(order)}), or have it call super()')
        raise TypeError(msg)
    _build(cls, explicit)
    abc.update_abstractmethods(cls)  # ABCMeta counted them before the build


def _note_mixin_error(exc, name, bases):
    """Name the class (and, where it helps, the remedy) on an exception from a
    mixin's ``__init_subclass__``.

    A mixin whose ``__init_subclass__`` takes no ``**kwargs`` refuses our options
    (Python's ``got an unexpected keyword argument 'frozen'``) where it comes
    before ``DataClass`` in the MRO and so receives every keyword: the hint says
    where to name it (on 3.10 as the message's second line). Any other exception
    raised in an ``__init_subclass__`` outside this package whose message does
    not name the class gets a note naming the hook and the class, on 3.11+
    (3.10 has no notes; it is left as raised).
    """
    owner, _, keyword = str(exc).partition(
        '.__init_subclass__() got an unexpected keyword argument ')
    if type(exc) is TypeError and keyword.strip("'") in _options.OPTIONS:
        mixin = owner.rpartition('.')[2]
        names = _mixin_last(bases, lambda b: mixin in [k.__name__ for k in b.__mro__])
        _add_hint(exc, f'{owner}.__init_subclass__ does not take the options of data '
                       f'class {name!r}: name {mixin} after the data-class bases, so that '
                       f'DataClass takes them first, class {name}({", ".join(names)}, ...)')
        return
    if sys.version_info < (3, 11) or name in str(exc):  # it names the class already
        return
    tb, raised_in, ours = exc.__traceback__, None, False
    while tb is not None:  # the innermost __init_subclass__, and whether we raised
        code = tb.tb_frame.f_code
        module = tb.tb_frame.f_globals.get('__name__', '')
        ours = module == _PACKAGE or module.startswith(_PACKAGE + '.')
        if code.co_name == '__init_subclass__' and not ours:
            raised_in = code
        tb = tb.tb_next
    if raised_in is not None and not ours:
        exc.add_note(f'raised in {raised_in.co_qualname} while creating data class {name!r}')


def _mixin_last(bases, is_mixin):
    """The names of ``bases`` with the first for which ``is_mixin`` holds moved last."""
    names = [b.__name__ for b in bases]
    first = next((b.__name__ for b in bases if is_mixin(b)), None)
    if first is not None:
        names.remove(first)
        names.append(first)
    return names


def _build(cls, explicit):
    """The pipeline, in the stdlib's order so that the same mistake raises first."""
    restore = cls.__dict__.get(_travel.RESTORE)
    if restore is not None:  # sent by value (dill): its own fields and options
        type.__delattr__(cls, _travel.RESTORE)
        _remake(cls, *restore)
        return
    flags = _options.frozen_flags(cls)
    params = _options.resolve(cls, explicit, flags)
    annotations, slot_defaults = _pop_slotted(cls)
    own = collect_own_fields(cls, annotations, params.kw_only, slot_defaults)
    _check_reserved_names(cls, own)
    fields = merge_base_fields(cls, own)
    set_defaults_on_class(cls, own)
    _options.check_conflicts(cls, params, explicit, flags)
    _store(cls, '__dataclass_params__', params)
    _store(cls, '__dataclass_fields__', fields)
    hooked = _transform_fields(cls, fields, params, _DEFAULT_HOOK, _DEFAULT_META_HOOK)
    if hooked is not fields:
        _check_reserved_names(cls, hooked.values())
        _store(cls, '__dataclass_fields__', hooked)
        fields = hooked
    _make(cls, params, fields, explicit)


def _make(cls, params, fields, explicit, arrived=False):
    """What the pipeline makes once the fields and options are final: the
    methods, the class attributes, and the backend's per-class set-up.
    ``arrived``: a class a pickler sent by value, which may lack the cached
    hash's slot (see ``_hash_slot_arrived``)."""
    plan = _attach_methods(cls, params, list(fields.values()))
    _set_class_attributes(cls, params, fields.values())
    backend = _current_backend()
    made = getattr_for(cls, backend.settle)  # slotted cached properties here or above: their misses
    if made is not None:
        backend.attach(cls, '__getattr__', made[0])
        if _object_getstate(cls):
            backend.attach(cls, '__getstate__', made[1])
    if params.cache_hash and (not arrived or _hash_slot_arrived(cls)):
        _finish_cache_hash(cls, params, backend,
                           lambda: _options.inherited_from(cls, 'cache_hash', explicit))
    if not params.gc:  # what the instances are: untracked only where the backend can
        params.gc = not backend.untrack(cls)
    if _pickles_natively(cls, backend):
        reduce_ex = backend.reduce_ex(plan)
        if reduce_ex is not None:
            backend.attach(cls, '__reduce_ex__', reduce_ex)
    backend.construct(cls)


def _pickles_natively(cls, backend):
    """Whether ``cls`` would pickle with ``object.__reduce_ex__`` (or the one
    generated for a base): a ``__reduce_ex__`` of its own, or a base's that is
    not ours, is kept."""
    found = mro_lookup(cls, '__reduce_ex__')
    return found is _OBJECT_REDUCE_EX or (backend.made(found) and found.__name__ == '__reduce_ex__')


_OBJECT_REDUCE_EX = object.__dict__['__reduce_ex__']


def _hash_slot_arrived(cls):
    """Whether the cached hash's slot came with a class sent by value. cloudpickle
    makes a class's slots again only where its instances have no ``__dict__``
    (it hands the class's ``__dict__`` entry, a ``SlotLayout``, to the class it
    makes); a dict-based ``cache_hash`` class arrives without the slot, and its
    generated ``__hash__`` then computes the hash at each call."""
    return any(HASH_SLOT in klass.__dict__ for klass in cls.__mro__)


def _object_getstate(cls):
    """Whether ``cls`` pickles with ``object``'s ``__getstate__`` (or one of
    ``make_getstate``'s, made for a base)."""
    found = next((klass.__dict__['__getstate__'] for klass in cls.__mro__
                  if '__getstate__' in klass.__dict__), None)
    return found is None or found is _OBJECT_GETSTATE or made_getstate(found)


_OBJECT_GETSTATE = getattr(object, '__getstate__', None)  # 3.11+


def _pop_slotted(cls):
    """The class's annotations, and the defaults ``DataClassMeta`` stashed when
    it slotted the class (None for a class it did not slot)."""
    stash = cls.__dict__.get(_SLOTTED)
    if stash is None:
        return annotations_of(cls), None  # not slotted by DataClassMeta
    delattr(cls, _SLOTTED)
    return stash


_TOTAL = 'Consider using functools.total_ordering'

# The generated methods. Per row: name, whether the options want it, the
# factory (the class's plan, the backend), and what a method of that name
# written in the class body means: 'keep' it, or an error (with the stdlib's
# suffix, if any). __hash__ follows HASH_ACTIONS instead.
_METHODS = (
    ('__init__', lambda p: p.init, make_init, 'keep'),
    ('__replace__', lambda p: True, lambda plan, b: b.replace(plan), 'keep'),
    ('__repr__', lambda p: p.repr, lambda plan, b: b.repr(plan), 'keep'),
    ('__eq__', lambda p: p.eq, lambda plan, b: b.eq(plan), 'keep'),
    ('__lt__', lambda p: p.order, lambda plan, b: b.order('__lt__', plan), _TOTAL),
    ('__le__', lambda p: p.order, lambda plan, b: b.order('__le__', plan), _TOTAL),
    ('__gt__', lambda p: p.order, lambda plan, b: b.order('__gt__', plan), _TOTAL),
    ('__ge__', lambda p: p.order, lambda plan, b: b.order('__ge__', plan), _TOTAL),
    ('__setattr__', lambda p: p.frozen, lambda plan, b: b.frozen_setattr(plan), ''),
    ('__delattr__', lambda p: p.frozen, lambda plan, b: b.frozen_delattr(plan), ''),
    ('__getstate__', lambda p: p.frozen and p.slots,
     lambda plan, b: make_getstate(plan), 'keep'),
    ('__setstate__', lambda p: p.frozen and p.slots,
     lambda plan, b: make_setstate(plan), 'keep'),
)


# Names a field may not take: the generated methods and attributes, the hook
# __init__ calls, and the instance layout. The stdlib accepts them and then
# breaks (``__init__: int = 0`` leaves ``C.__init__ == 0``); we refuse up front.
_RESERVED = frozenset([row[0] for row in _METHODS] + [
    '__hash__', '__match_args__', '__post_init__', '__dataclass_fields__',
    '__dataclass_params__', '__class__', '__dict__', '__slots__', '__weakref__',
    HASH_SLOT])


def _check_reserved_names(cls, own):
    for f in own:
        if f.name in _RESERVED and f._field_type is not _CLASSVAR:
            msg = (f'field {f.name!r} of data class {cls.__name__!r} has a name that '
                   f'data classes reserve: rename the field')
            raise TypeError(msg)


_WANTED = {}  # the rows of _METHODS that a combination of options wants


# What else could put a value into an instance than the generated methods: a
# class that has one of these of its own (not object's, not generated) keeps
# its instances tracked.
_ENTRIES = ('__new__', '__setstate__', '__reduce__', '__reduce_ex__', '__copy__',
            '__deepcopy__')


#: The levels of ``Plan.untrack`` (the C core's DM_UNTRACK_*): instances a
#: store may give a container later (mutable slotted, opt-in), and instances
#: that are atomic values themselves (frozen slotted, the default).
UNTRACK_MUTABLE, UNTRACK_FROZEN = 1, 2


def _untracks_atomic(cls, params, hooks):
    """Whether the class's instances are left untracked by the collector while
    they hold only atomic values, as a level (0: always tracked):
    ``untrack_atomic`` (None: the default) for a frozen slotted class whose
    every way into an instance is generated; ``True`` for a mutable slotted
    one, whose assignments then go through a compiled ``__setattr__`` that
    tracks the instance again when it stores a container. Nothing reachable
    from such an instance can lead back to it, as for a tuple of numbers; the
    compiled core decides again at every store it owns, the pure one cannot
    untrack."""
    choice = params.untrack_atomic
    if choice is True and not params.slots:
        raise TypeError(
            f'data class {cls.__name__!r} has untrack_atomic=True but is not '
            f'slotted: only a slotted instance keeps what it holds where the library '
            f'sees it stored; add slots=True, or remove untrack_atomic')
    if choice is False or not params.gc or not params.slots \
            or (not params.frozen and choice is not True):
        return 0
    backend = _current_backend()
    for name in _ENTRIES:
        found = mro_lookup(cls, name)
        if found is not None and found is not object.__dict__.get(name) \
                and not backend.made(found):
            return 0
    if params.frozen:
        return UNTRACK_FROZEN
    # Mutable: every assignment must reach the compiled __setattr__ (a
    # converting one, or the user's, stores past it).
    if wants_setattr(hooks, cls, False) or not backend.untracking_setattr(cls):
        return 0
    return UNTRACK_MUTABLE


def _attach_methods(cls, params, fields):
    """Check every conflict first (nothing half-attached), then attach; the
    class's ``Plan``."""
    own = cls.__dict__
    if params.init:
        check_field_order(cls, [f for f in fields if f._field_type is not _CLASSVAR])
    hash_action = HASH_ACTIONS[params.unsafe_hash, params.eq, params.frozen,
                               _has_explicit_hash(own)]
    if hash_action == 'raise':
        raise TypeError(f'Cannot overwrite attribute __hash__ in class {cls.__name__}')
    flags = (params.init, params.repr, params.eq, params.order, params.frozen, params.slots)
    wanted = _WANTED.get(flags)
    if wanted is None:  # 2**6 combinations at most
        wanted = _WANTED[flags] = [row for row in _METHODS if row[1](params)]
    for name, _, _, explicit in wanted:
        if name in own and explicit != 'keep':
            msg = f'Cannot overwrite attribute {name} in class {cls.__name__}'
            raise TypeError(f'{msg} {explicit}' if explicit else msg)
    explicit_replace = '__replace__' in own
    plan = Plan(cls, fields, params.frozen, params.slots)
    plan.untrack = _untracks_atomic(cls, params, plan.hooks)
    if plan.hooks is not None and wants_hook(cls):  # pydantic calls __init__ (tools.md)
        _store(cls, _PYDANTIC_HOOK, classmethod(_pydantic_schema))
    converting = wants_setattr(plan.hooks, cls, params.frozen)
    if converting and '__setattr__' in own:
        name = next(iter(plan.hooks.on_assign), None) if plan.hooks else None
        raise TypeError(f'Cannot overwrite attribute __setattr__ in class {cls.__name__}: '
                        + (f'field {name!r} has a converter or validator, which '
                           f'assignment runs' if name else
                           'a base class\'s fields have converters or validators')
                        + ': remove this __setattr__, or convert and validate in it '
                          'instead of the fields')
    backend = _current_backend()
    attach = backend.attach
    for name, _, factory, _ in wanted:
        if name not in own:
            attach(cls, name, factory(plan, backend))
    if converting:
        attach(cls, '__setattr__', backend.converting_setattr(plan))
        if params.slots:  # unpickling stores each slot by setattr: not through it
            for name, factory in (('__getstate__', make_getstate),
                                  ('__setstate__', make_setstate)):
                if name not in own:
                    attach(cls, name, factory(plan))
    # replace() calls the generated one, even where the class has its own
    # __replace__; the class is kept beside it so subclasses cannot inherit it.
    generated = backend.replace(plan) if explicit_replace else own['__replace__']
    _store(cls, REPLACE_ENTRY, ReplaceEntry((cls, generated.replace)))
    if hash_action == 'add':
        attach(cls, '__hash__', backend.hash(plan))
    elif hash_action == 'none':
        _store(cls, '__hash__', None)
    return plan


def _has_explicit_hash(namespace):
    """The stdlib's heuristic: ``__hash__ = None`` beside ``__eq__`` came from Python."""
    class_hash = namespace.get('__hash__', MISSING)
    return not (class_hash is MISSING
                or (class_hash is None and '__eq__' in namespace))


def _set_class_attributes(cls, params, fields):
    own = cls.__dict__
    if not own.get('__doc__'):
        _store(cls, '__doc__', LazyDoc())
    if params.match_args and '__match_args__' not in own:
        # the names of __init__'s positional parameters
        _store(cls, '__match_args__', tuple([
            f.name for f in fields
            if f.init and f._field_type is not _CLASSVAR and not f.kw_only]))
    if params.weakref_slot and not params.slots:
        raise TypeError('weakref_slot is True but slots is False')
    # No abc.update_abstractmethods() needed: ABCMeta.__new__ computes
    # __abstractmethods__ after type.__new__ (and so this pipeline) returns, and
    # so already counts the generated methods.


# typing's protocol metaclass becomes DataClassMeta's base once typing is imported
_protocols.adopt_when_imported(DataClassMeta)
