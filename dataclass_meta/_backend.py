"""The two implementations of the generated methods, and the one in use.

``PureBackend`` builds the pure-Python closures (the reference, always there);
``CompiledBackend`` builds the same methods as C-level closures from the optional
``_speedups`` extension. Both have one factory API: each factory takes the
class's ``Plan`` (``_plan``; ``init`` takes the ``InitPlan`` of ``_init``) and
returns the method. ``backend`` is chosen once, when the package is first
imported: the compiled one when it was built, unless ``DATACLASS_META_PURE=1``.
Nothing else in the package asks which backend is active.

``use(backend)`` makes classes defined while it is active (in this thread or
task) use ``backend``; ``available()`` lists every backend this process can use,
so the tests run the same checks against each.
"""

import os
import sys
from _thread import allocate_lock  # threading's own; importing threading costs ~1 ms
from dataclasses import MISSING, FrozenInstanceError
from types import FunctionType, SimpleNamespace

from . import (_asdict, _cache_hash, _cached_property, _class_attrs, _convert, _fields, _init,
               _methods, _replace, _signature as _signature_module, _travel, _wire)
from ._signature import INIT_BUILDS, lazy_signature, lazy_signature_build
from ._relabel import is_template
from ._interop import pprint_shape


class _Backend:
    name = ''

    def __repr__(self):
        return f'<dataclass_meta backend {self.name!r}>'


class PureBackend(_Backend):
    """The pure-Python closures of ``_methods`` and ``_init``."""

    name = 'pure'

    init = staticmethod(_init.pure_init)
    repr = staticmethod(_methods.make_repr)
    eq = staticmethod(_methods.make_eq)
    order = staticmethod(_methods.make_order)
    hash = staticmethod(_methods.make_hash)
    frozen_setattr = staticmethod(_methods.make_frozen_setattr)
    frozen_delattr = staticmethod(_methods.make_frozen_delattr)
    converting_setattr = staticmethod(_convert.make_setattr)
    replace = staticmethod(_replace.make_replace)
    attach = staticmethod(_methods.attach)
    asdict = staticmethod(_asdict.pure_asdict)
    astuple = staticmethod(_asdict.pure_astuple)
    cache_hash = staticmethod(_cache_hash.make_cache_hash)
    # The package's replace() and fields().
    public_replace = staticmethod(_replace.replace)
    public_fields = staticmethod(_fields.fields)
    cached_property = _cached_property.SlottedCachedProperty  # before 3.12

    @staticmethod
    def untrack(cls):
        """``gc=False``: a Python class's instances stay tracked; whether not."""
        return False

    #: After a store Python code makes for the library: nothing to decide,
    #: Python cannot untrack an instance.
    settle = None

    @staticmethod
    def untracking_setattr(cls):
        """``untrack_atomic=True`` on a mutable slotted class: nothing to
        install, its instances stay tracked; whether installed."""
        return False

    @staticmethod
    def reduce_ex(plan):
        """No ``__reduce_ex__``: instances pickle by the stdlib's route, which
        loads faster here than a Python loader would (``_wire``)."""
        return None

    @staticmethod
    def plain_template_wins(plan):
        """Whether a class whose fields are all plain positional parameters
        gets the relabelled template ``__init__``: here, always."""
        return True

    @staticmethod
    def construct(cls):
        """Calling ``cls`` stays ``type.__call__``'s: nothing to set up."""
        return False

    @staticmethod
    def made(function):
        """Whether ``function`` is a method this backend generated: a closure
        of its modules, or a relabelled template."""
        return (type(function) is FunctionType
                and (function.__globals__.get('__name__') in _PURE_MODULES
                     or is_template(function)))

    @staticmethod
    def defer_signature(function, build):
        """``function.__signature__`` is ``build()``, made on first read."""
        function.__signature__ = lazy_signature(build)

    @staticmethod
    def init_build(function):
        """The ``SignatureBuild`` of an ``__init__`` that ``make_init`` made here
        (None for anything else, or once ``__signature__`` was set or deleted)."""
        if not PureBackend.made(function):  # not a user's function, even wrapped
            return None
        return lazy_signature_build(function.__dict__.get('__signature__'))


# The modules whose closures the pure backend returns as methods.
_PURE_MODULES = frozenset(module.__name__ for module in (
    _methods, _init, _convert, _replace, _class_attrs, _signature_module, _cached_property))


class CompiledBackend(_Backend):
    """The C-level closures of ``_speedups``: this class is the only caller of
    its entry points, so a change of their signatures stays here. The
    contract: ``configure(HOOKS)`` once, then each method made by
    ``kind(name, plan)``, which reads ``PLAN_ATTRS`` of the plan."""

    name = 'compiled'

    def __init__(self, speedups):
        self.speedups = speedups
        speedups.configure(HOOKS)
        self.attach = speedups.attach  # _methods.attach in one C call
        self.function_type = speedups.compiled_function
        # asdict(obj, factory) / astuple(obj, factory): the pure recursion in C,
        # which calls back the container hook (container subclasses, deep
        # copies) and shares the field-name cache (_asdict).
        self.asdict, self.astuple = speedups.asdict, speedups.astuple
        # The package's replace() and fields(): the pure dispatch and loop in
        # C, which spare a Python frame (and replace()'s **changes packing) a
        # call; fields() with a keyword calls the Python function.
        self.public_replace = speedups.public_replace
        self.public_fields = speedups.public_fields

    # Per operation, the faster of a relabelled template and the C closure,
    # chosen from the plan (instructions a call, measured on 3.10-3.15: the
    # table in docs/benchmarks.md). The interpreter reads a dict-based
    # instance's attributes faster than the C API's generic getattr, so ==,
    # the orderings and hash of dict-based classes are templates; the C
    # closures read and store slots by offset, repr without a Python frame,
    # frozen fields without object.__setattr__. __init__: the class's own
    # construction runs the template or the C closure, whichever costs less
    # there (_template_init_wins).

    # Converters and validators: __init__ is the C closure on every Python (it
    # calls them itself: 3.11, five converted and validated fields, 0.99x
    # @dataclass's __post_init__ version against 1.66x for the converting
    # template); assignment goes through the pure __setattr__ closure.
    converting_setattr = staticmethod(_convert.make_setattr)

    def init(self, plan):
        if _template_init_wins(plan.frozen, plan.slots, plan.converters is not None,
                               any(factory is not None for _, _, factory in plan.steps)):
            template = _init.template_init(plan)
            if template is not None:
                return template
        return self.speedups.init('__init__', plan)  # an _init.InitPlan

    @staticmethod
    def plain_template_wins(plan):
        """``init``'s choice for a class whose fields are all plain positional
        parameters (no converters, no factories), made from the class's plan."""
        return _template_init_wins(plan.frozen, plan.slots, False, False)

    def repr(self, plan):
        """The guarded compiled ``__repr__``, in the pure one's shape for pprint
        and rich (``_interop``)."""
        return pprint_shape(self.speedups.repr('__repr__', plan),
                            self.speedups.unguarded_repr('__repr__', plan))

    def eq(self, plan):
        return ((not plan.slots and _methods.template_eq(plan))
                or self.speedups.eq('__eq__', plan))

    def order(self, name, plan):
        return ((not plan.slots and _methods.template_order(name, plan))
                or self.speedups.order(name, plan))  # the name picks the operator

    def hash(self, plan):
        return ((not plan.slots and _methods.template_hash(plan))
                or self.speedups.hash('__hash__', plan))

    def frozen_setattr(self, plan):
        return self.speedups.frozen('__setattr__', plan)

    def frozen_delattr(self, plan):
        return self.speedups.frozen('__delattr__', plan)

    def replace(self, plan):
        """The compiled ``__replace__``; its ``replace`` attribute is what
        replace() calls with ``(self, changes)``, as on the pure closure."""
        if _replace.needs_hooked_replace(plan):
            return _replace.make_hooked_replace(plan)
        method = self.speedups.replace('__replace__', plan)
        method.replace = self.speedups.replace('replace', plan)
        return method

    # cache_hash(name, hash, member) wraps ``hash`` with the slot of the
    # member descriptor ``member`` (see perclass.c): no plan.
    def cache_hash(self, hash_, member):
        return self.speedups.cache_hash('__hash__', hash_, member)

    # C contract: cached_property(func, slot); __set_name__ finds the slot
    # (before 3.12: _cached_property.SLOT_READS).
    def cached_property(self, func, slot):
        return self.speedups.cached_property(func, slot)

    def untrack(self, cls):
        """``gc=False``: instances of ``cls`` allocated untracked; whether so."""
        return self.speedups.untrack(cls)

    def untracking_setattr(self, cls):
        """``untrack_atomic=True`` on a mutable slotted class: assignment
        through a compiled ``__setattr__`` that tracks an untracked instance
        again where the value is not atomic; whether installed (False where
        the class assigns another way)."""
        return self.speedups.untracking_setattr(cls)

    @property
    def settle(self):
        """An instance untracked again, or tracked, after a store of ours in
        Python (a slotted cached property's value kept)."""
        return self.speedups.settle

    def reduce_ex(self, plan):
        """The compiled ``__reduce_ex__``: the compact pickle (``_wire``). It
        keeps its field names and loader as ``wire``, which loading reuses."""
        method = self.speedups.reduce('__reduce_ex__', plan)
        method.wire = (plan.field_names, self.speedups.loader_of(method))
        return method

    def construct(self, cls):
        """``cls(...)`` runs its compiled ``__init__`` on a new instance directly,
        where and while that is what ``type.__call__`` would do; whether it was
        set up."""
        return self.speedups.construct(cls)

    def made(self, function):
        """Whether ``function`` is a method this backend generated: a C
        closure, a relabelled template it chose, or a pure closure it borrows
        (the converting ``__setattr__``, the ``__replace__`` of a class with
        aliases or converters)."""
        return (type(function) is self.function_type or is_template(function)
                or PureBackend.made(function))

    def defer_signature(self, function, build):
        self.speedups.defer_signature(function, build)

    def init_build(self, function):
        return self.speedups.deferred_signature(function)


def _template_init_wins(frozen, slots, converting, factory_due):
    """Whether a relabelled template ``__init__``, called from the class's own
    construction, runs faster than the C closure. For a mutable dict-based
    class it does from 3.11: the interpreter stores into the instance's
    values with specialised bytecode, where C has only ``PyObject_SetAttr``
    (a type lookup and a key search per field) — except on 3.14+ where a
    default factory is due, which the C closure calls for less. 3.10 has no
    such specialisation. Slots (stored by offset) and frozen fields (without
    ``object.__setattr__``) cost less in C everywhere; converters too, which
    the C closure calls itself."""
    if _VERSION < (3, 11) or frozen or slots or converting:
        return False
    return _VERSION < (3, 14) or not factory_due


_VERSION = sys.version_info[:2]


def _signature(params):
    """The signature of a small compiled method: ``(self, other)`` and so on;
    a ``'/'`` ends the positional-only names, ``'**name'`` takes the keywords."""
    from inspect import Parameter, Signature
    out = []
    for name in params:
        if name == '/':
            out = [p.replace(kind=Parameter.POSITIONAL_ONLY) for p in out]
        elif name.startswith('**'):
            out.append(Parameter(name[2:], Parameter.VAR_KEYWORD))
        else:
            out.append(Parameter(name, Parameter.POSITIONAL_OR_KEYWORD))
    return Signature(out)


# The C core's contract, written once on this side (``DM_PLAN_ATTRS`` and
# ``DM_HOOK_ATTRS`` in src/speedups/speedups.h are the other half; the module
# exports them as ``PLAN_ATTRS`` and ``HOOK_ATTRS``, which the tests compare
# with these).

#: What the constructors read of a plan, by attribute, at class creation:
#: a ``_plan.Plan``'s names and class (eq, order, hash, repr, frozen,
#: replace), an ``_init.InitPlan``'s parameters and steps (init).
PLAN_ATTRS = ('cls', 'field_names', 'repr_names', 'compare_names', 'hash_names',
              'names', 'n_positional', 'defaults', 'steps', 'initvars', 'unbound',
              'frozen', 'has_post_init', 'binder', 'take_self', 'converters',
              'validations', 'direct', 'untrack')

#: What the core calls back or compares with: given once, by ``configure``.
HOOKS = SimpleNamespace(
    signature=_signature,                # the small methods' __signature__
    attach=_methods.attach,              # attach() of anything but a compiled function
    atomic_types=_asdict.ATOMIC,         # asdict/astuple: kept as they are
    names_cache=_asdict.NAMES_CACHE,     # asdict/astuple: the field names, cached
    names_of=_asdict.cached_field_names,  # ... and on a miss
    container=_asdict.container,         # ... and any other container
    fields=_fields.fields,               # fields() called otherwise than fields(x)
    field_marker=_fields.FIELD,          # fields(): a field's _field_type
    replace_unregistered=_replace.replace_unregistered,  # replace() without an entry
    replace_prepare=_replace.replace_prepare,  # __replace__'s fast path, on first call
    replace_by_fields=_replace.replace_by_fields,  # ... and every other call
    frozen_error=FrozenInstanceError,    # a frozen class's __setattr__/__delattr__
    factory_marker=_fields.FACTORY,      # __init__: a default whose factory is due
    no_default=MISSING,                  # __init__: no default
    kept=_convert.Kept,                  # __init__: replace()'s value, not converted
    note_failure=_convert.note_failure,  # __init__: a converter's or validator's error
    travel_method=_travel.method,        # a compiled function's __reduce__ target
    travel_cached=_cached_property.SlottedCachedProperty,  # a cached slot's, unbound
    wire_route=_wire.route,              # __reduce_ex__, a loader: the class's route
    wire_load=_wire.load_evolved,        # a loader's slow path
    wire_loader=_wire.loader,            # a loader's __reduce__ target
)


PURE = PureBackend()
INIT_BUILDS.append(PURE.init_build)
_compiled = []  # [CompiledBackend] once loaded, [None] when not built or not loaded
_not_loaded = []  # [why]: the compiled core exists but did not load cleanly


def compiled():
    """The compiled backend, or None when the extension was not built or did
    not load (``load_failure()`` says why)."""
    if not _compiled:
        speedups = _load_speedups()
        _compiled.append(None if speedups is None else CompiledBackend(speedups))
        if speedups is not None:
            INIT_BUILDS.append(_compiled[0].init_build)
    return _compiled[0]


def _load_speedups():
    """The ``_speedups`` module, or None. A warning raised while it loads (a
    free-threaded Python's about the GIL, say) counts as a failure: under
    ``-W error`` it would fail the import, and importing the package must
    neither fail nor pass a warning on; the pure backend serves instead. Only
    a free-threaded build warns there (the module declares that it needs no
    GIL; a build of it that did not would), so only there is ``warnings``
    imported to catch them all (0.3 ms of the package's import); elsewhere a
    warning made an error is caught as one. Windows before 3.14 has no
    ``sys.abiflags``: warnings are watched there too."""
    if 't' not in getattr(sys, 'abiflags', 't'):
        return _import_speedups()
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        speedups = _import_speedups()
    if caught and speedups is not None:
        warning = caught[0]
        _not_loaded.append(f'{warning.category.__name__} while loading: {warning.message}')
        return None
    return speedups


def _import_speedups():
    """``_speedups``, or None where it is not built or does not load (why: in
    ``_not_loaded``)."""
    try:
        from . import _speedups
    except ImportError as exc:
        if not (isinstance(exc, ModuleNotFoundError)
                and exc.name == __package__ + '._speedups'):  # built, but broken
            _not_loaded.append(str(exc))
        return None
    except Warning as exc:  # -W error
        _not_loaded.append(f'{type(exc).__name__} while loading: {exc}')
        return None
    return _speedups


def load_failure():
    """Why the compiled core, though there, did not load; None if it did (or
    is not built)."""
    compiled()
    return _not_loaded[0] if _not_loaded else None


def available():
    """Every backend this process can use: the pure one, then the compiled one."""
    return (PURE,) if compiled() is None else (PURE, compiled())


#: The backend of this process (``DATACLASS_META_PURE=1`` forces the pure one).
backend = (PURE if os.environ.get('DATACLASS_META_PURE', '') == '1'
           else compiled() or PURE)

#: ``'compiled'`` or ``'pure'``: which backend ``backend`` is.
BACKEND = backend.name
if backend is not PURE:  # compact pickles load through the compiled loader
    _wire.COMPILED.append(backend.speedups)

_chosen = None  # a ContextVar once use() is first called (contextvars costs imports)
_chosen_lock = allocate_lock()  # one ContextVar, even when threads race to make it


def current():
    """The backend for the class being defined now, and of ``asdict``/``astuple``."""
    return backend if _chosen is None else _chosen.get(backend)


class use:
    """``with use(chosen):`` define classes with ``chosen`` (a backend of
    ``available()``) meanwhile, and run ``asdict``/``astuple`` with it, in this
    thread or task only. (A class, not ``contextlib.contextmanager``: importing
    contextlib would cost every ``import dataclass_meta`` about a millisecond.)"""

    def __init__(self, chosen):
        self.chosen = chosen
        self.token = None

    def __enter__(self):
        global _chosen
        if _chosen is None:
            with _chosen_lock:
                if _chosen is None:
                    import contextvars
                    _chosen = contextvars.ContextVar('dataclass_meta_backend')
        self.token = _chosen.set(self.chosen)
        return self.chosen

    def __exit__(self, *exc_info):
        _chosen.reset(self.token)


def made_by_any(function):
    """Whether ``function`` is a generated method of any backend."""
    return any(b.made(function) for b in available())
