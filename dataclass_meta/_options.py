"""Class-keyword options: defaults, inheritance and conflicts.

An option given as a class keyword wins; otherwise the class inherits it from its
nearest data-class parent; otherwise the ``@dataclass`` default applies.
"""

import dataclasses


# Name -> default, in the order of ``@dataclass(...)`` (Python 3.13).
DEFAULTS = {
    'init': True,
    'repr': True,
    'eq': True,
    'order': False,
    'unsafe_hash': False,
    'frozen': False,
    'match_args': True,
    'kw_only': False,
    'slots': False,
    'weakref_slot': False,
}
NAMES = tuple(DEFAULTS)

# Ours beyond ``@dataclass`` (per class, inherited the same way): ``cache_hash``
# keeps the hash an instance computed; ``gc=False`` leaves instances untracked
# by the cyclic collector where the backend can (``__dataclass_params__.gc``
# then says what the instances are: False only where they are untracked);
# ``untrack_atomic`` says whether an instance holding only atomic values is left
# untracked (None: the default, yes for a frozen slotted class with the
# compiled core; True: a mutable slotted class too, its assignments tracking
# the instance again; False: always tracked).
EXTRA_DEFAULTS = {
    'cache_hash': False,
    'gc': True,
    'untrack_atomic': None,
}
#: Every class keyword ``DataClass`` takes.
OPTIONS = NAMES + tuple(EXTRA_DEFAULTS)
_ALL_DEFAULTS = {**DEFAULTS, **EXTRA_DEFAULTS}


def _extra_repr(params):
    """``,cache_hash=True`` and the like: our options where they are not the
    default, so that a class using none of them shows the stdlib's repr."""
    return ''.join(f',{name}={getattr(params, name)!r}' for name, default
                   in EXTRA_DEFAULTS.items() if getattr(params, name) is not default)


def _store_options(self, init, repr, eq, order, unsafe_hash, frozen, match_args,
                   kw_only, slots, weakref_slot, cache_hash, gc, untrack_atomic):
    """``Params.__init__``: every option in its slot, in ``OPTIONS`` order (one
    frame: this runs for every class)."""
    self.init = init
    self.repr = repr
    self.eq = eq
    self.order = order
    self.unsafe_hash = unsafe_hash
    self.frozen = frozen
    self.match_args = match_args
    self.kw_only = kw_only
    self.slots = slots
    self.weakref_slot = weakref_slot
    self.cache_hash = cache_hash
    self.gc = gc
    self.untrack_atomic = untrack_atomic


# 3.12+: gh-96142 gave _DataclassParams all ten options; ours come after them.
if len(getattr(dataclasses._DataclassParams, '__slots__', ())) == len(NAMES):
    class Params(dataclasses._DataclassParams):
        """``__dataclass_params__``: the stdlib's record with our options added."""

        __slots__ = tuple(EXTRA_DEFAULTS)
        __init__ = _store_options

        def __repr__(self):
            return f'{super().__repr__()[:-1]}{_extra_repr(self)})'
else:
    class Params:
        """``__dataclass_params__`` with all ten options (and ours) on 3.10 and
        3.11, whose ``dataclasses._DataclassParams`` keeps only six."""

        __slots__ = OPTIONS
        __init__ = _store_options

        def __repr__(self):
            inner = ','.join(f'{name}={getattr(self, name)!r}' for name in NAMES)
            return f'_DataclassParams({inner}{_extra_repr(self)})'


def split(kwargs):
    """Split class keywords into (ours, the rest for ``__init_subclass__``)."""
    ours = {}
    for name in OPTIONS:
        if name in kwargs:
            ours[name] = kwargs.pop(name)
    return ours, kwargs


def given(kwargs):
    """The options among the class keywords ``kwargs`` (left in place)."""
    return {name: kwargs[name] for name in OPTIONS if name in kwargs} if kwargs else {}


def parent_params(bases):
    """``__dataclass_params__`` of the first data-class parent, depth first."""
    for base in bases:
        for klass in base.__mro__:
            params = klass.__dict__.get('__dataclass_params__')
            if params is not None:
                return params
    return None


def resolve(cls, explicit, flags):
    """Return the class's ``Params``: explicit > declared > inherited > default.

    Conflicts are checked later (``check_conflicts``), after the fields, so a
    class with several mistakes reports the one ``@dataclass`` would.
    """
    check_types(cls, explicit)
    inherited = parent_params(cls.__bases__)
    declared = declared_defaults(cls)
    # In OPTIONS order (Params takes them so); later updates win.
    values = (dict(_ALL_DEFAULTS) if inherited is None else
              {name: getattr(inherited, name, default) for name, default in _ALL_DEFAULTS.items()})
    if declared:
        values.update(declared)
    if explicit:
        values.update(explicit)
    if 'frozen' not in explicit and 'frozen' not in declared:
        values['frozen'] = any(flags.values())
    if not values['slots'] and 'weakref_slot' not in explicit:
        values['weakref_slot'] = False  # an inherited one follows slots=False
    return Params(*values.values())


# The option defaults PEP 681 lets ``dataclass_transform`` declare.
_TRANSFORM_DEFAULTS = {'eq_default': 'eq', 'order_default': 'order',
                       'kw_only_default': 'kw_only', 'frozen_default': 'frozen'}


def declared_defaults(cls):
    """Options a framework base declared with ``dataclass_transform(frozen_default=True,
    ...)``, for every class below it: type checkers apply them so, and so do we.

    The nearest ancestor carrying ``__dataclass_transform__`` decides (``DataClass``
    carries the plain defaults); only values that differ from PEP 681's defaults
    count, so a transform that declares none leaves inheritance alone.
    """
    for klass in cls.__mro__[1:]:
        spec = klass.__dict__.get('__dataclass_transform__')
        if isinstance(spec, dict):
            extra = spec.get('kwargs') or {}  # 3.11's typing keeps frozen_default here
            declared = {}
            for key, name in _TRANSFORM_DEFAULTS.items():
                value = spec.get(key, extra.get(key, DEFAULTS[name]))
                if value is not DEFAULTS[name] and value in (True, False):
                    declared[name] = bool(value)
            return declared
    return {}


def check_conflicts(cls, params, explicit, flags):
    """Frozen against the data-class parents, then order against eq.

    The stdlib's messages; beyond the stdlib, parents that disagree are an error
    even when the class does not say ``frozen=`` itself: nothing sound to inherit.
    That error starts with the stdlib's text for the same class (whose ``frozen``
    would be the decorator's default, or a declared ``frozen_default``), then
    names both sides and the remedy.
    """
    if flags:
        any_frozen, all_frozen = any(flags.values()), all(flags.values())
        if 'frozen' not in explicit and any_frozen != all_frozen:
            frozen = ', '.join(k.__name__ for k, v in flags.items() if v)
            thawed = ', '.join(k.__name__ for k, v in flags.items() if not v)
            stdlib = (_FROZEN_FROM_THAWED if declared_defaults(cls).get('frozen')
                      else _THAWED_FROM_FROZEN)
            msg = (f'{stdlib}: the data-class parents of {cls.__name__!r} disagree, '
                   f'frozen ({frozen}) and non-frozen ({thawed}): make them agree')
            raise TypeError(msg)
        if any_frozen and not params.frozen:
            parent = next(k for k, v in flags.items() if v)
            msg = (f'{_THAWED_FROM_FROZEN}: {cls.__name__!r} is not frozen, its '
                   f'{relative(cls, parent)} is{_family("mutable", "non-frozen", parent)}')
            raise TypeError(msg)
        if not all_frozen and params.frozen:
            parent = next(k for k, v in flags.items() if not v)
            msg = (f'{_FROZEN_FROM_THAWED}: {cls.__name__!r} is frozen, its '
                   f'{relative(cls, parent)} is not{_family("frozen", "frozen", parent)}')
            raise TypeError(msg)
    if params.order and not params.eq:
        inherited = [f'{name}={getattr(params, name)} from {_source(cls, name)}'
                     for name in ('order', 'eq') if name not in explicit]
        msg = 'eq must be true if order is true'
        if inherited:
            msg += f': data class {cls.__name__!r} has {" and ".join(inherited)}'
        raise ValueError(msg)


def _family(kind, option, parent):
    """The remedy for a class on the wrong side of ``frozen``: a family of its own."""
    return (f': derive the {kind} classes from a {option} base beside {parent.__name__!r}, '
            f'sharing their methods through a mixin that is not a data class')


def inherited_from(cls, name, explicit):
    """``" from its parent 'P'"`` where option ``name`` of ``cls`` is inherited
    (not in the class keywords ``explicit``), for an error message; else ``''``."""
    return '' if name in explicit else f' from {_source(cls, name)}'


def relative(cls, klass):
    """``parent 'B'`` for a base of ``cls``, ``ancestor 'A'`` further up."""
    return f"{'parent' if klass in cls.__bases__ else 'ancestor'} {klass.__name__!r}"


def _source(cls, name):
    """Where an option the class did not set came from, for an error message."""
    if name in declared_defaults(cls):
        klass = next(k for k in cls.__mro__[1:]
                     if isinstance(k.__dict__.get('__dataclass_transform__'), dict))
        return f'the dataclass_transform of {klass.__name__!r}'
    klass = next(k for base in cls.__bases__ for k in base.__mro__
                 if '__dataclass_params__' in k.__dict__)
    return f'its {relative(cls, klass)}'


_THAWED_FROM_FROZEN = 'cannot inherit non-frozen dataclass from a frozen one'
_FROZEN_FROM_THAWED = 'cannot inherit frozen dataclass from a non-frozen one'


def frozen_flags(cls):
    """{data-class ancestor: frozen?}, found with getattr as the stdlib does."""
    return {klass: klass.__dataclass_params__.frozen for klass in cls.__mro__[1:]
            if hasattr(klass, '__dataclass_fields__')}


def check_types(cls, explicit):
    for name, value in explicit.items():
        if value is not True and value is not False:
            msg = (f'option {name!r} of data class {cls.__name__!r} must be True '
                   f'or False, not {value!r}')
            raise TypeError(msg)


def unknown(cls, names, base):
    """The error for class keywords that nobody consumed, ending as 3.14's
    ``@dataclass(frozn=True)`` does: ``. Did you mean 'frozen'?`` (on every Python).

    The keywords that the framework takes are listed too, and are suggested
    alike: a framework's ``table=`` misspelt is the framework's keyword misspelt.
    """
    name = next(iter(names))
    from ._suggest import nearest  # an error path
    framework = framework_keywords(cls, base)
    match = nearest([*OPTIONS, *(k for keys in framework.values() for k in keys)], name)
    takes = ''.join(f'; {owner} {", ".join(keys)}' for owner, keys in framework.items())
    hint = '' if match is None else f". Did you mean '{match}'?"
    msg = (f'unknown option {name!r} for data class {cls.__name__!r}: expected one '
           f'of {", ".join(OPTIONS)}{takes}{hint}')
    return TypeError(msg)


#: The attribute through which a framework base or a ``DataClassMeta`` subclass
#: declares the class keywords it takes through ``**kwargs``.
DECLARED = '__class_keywords__'


def declared_keywords(owner):
    """The keywords ``owner`` declares in its own ``__class_keywords__`` (a tuple,
    checked: names, none of them one of our options)."""
    declared = owner.__dict__.get(DECLARED, ())
    if isinstance(declared, str) or not isinstance(declared, (tuple, list, frozenset, set)):
        msg = (f'{DECLARED} of {owner.__name__!r} must be a tuple of keyword names, '
               f'not {declared!r}')
        raise TypeError(msg)
    for name in declared:
        if not isinstance(name, str) or not name.isidentifier():
            msg = f'{DECLARED} of {owner.__name__!r} names {name!r}, which is not a keyword name'
            raise TypeError(msg)
        if name in _ALL_DEFAULTS:
            msg = (f'{DECLARED} of {owner.__name__!r} names {name!r}, an option of data '
                   f'classes, which DataClass takes first: rename the framework\'s keyword')
            raise TypeError(msg)
    return tuple(declared)


def _framework_classes(cls, base):
    """The classes after ``cls`` and before ``base`` (``DataClass``) in its MRO,
    whose ``__init_subclass__`` ran for ``cls`` before ``base``'s, then the
    metaclasses before ``base``'s own."""
    mro = cls.__mro__
    meta_mro = type(cls).__mro__
    return mro[1:mro.index(base)], meta_mro[:meta_mro.index(type(base))]


def check_taken(cls, rest, base):
    """Raise ``unknown`` for the keywords in ``rest`` (left for ``object``) that
    no framework class or metaclass of ``cls`` declares, nor its metaclass takes."""
    classes, metas = _framework_classes(cls, base)
    declared = {k for owner in (*classes, *metas) for k in declared_keywords(owner)}
    left = [k for k in rest if k not in declared]
    if left:  # only now the signatures: inspect is slow to import and to run
        taken = {k for meta in metas for method in ('__new__', '__init__')
                 for k in _keyword_parameters(meta.__dict__.get(method), 4)}
        left = [k for k in left if k not in taken]
    if left:
        raise unknown(cls, left, base)


def framework_keywords(cls, base):
    """{'<owner> takes' or '<owner> declares': keywords}, for the classes whose
    ``__init_subclass__`` runs for ``cls`` before ``base``'s (and their
    ``__class_keywords__``), then its metaclass and the metaclass's bases before
    ``base``'s (keyword parameters of ``__new__`` and ``__init__``, and
    ``__class_keywords__``), in MRO order; those naming none left out."""
    classes, metas = _framework_classes(cls, base)
    found = {}
    for klass in classes:
        _add(found, f'{klass.__name__}.__init_subclass__ takes',
             _keyword_parameters(klass.__dict__.get('__init_subclass__'), 1))
        _add(found, f'{klass.__name__} declares', declared_keywords(klass))
    for meta in metas:
        for method in ('__new__', '__init__'):
            # after (mcls or cls, name, bases, namespace)
            _add(found, f'{meta.__name__}.{method} takes',
                 _keyword_parameters(meta.__dict__.get(method), 4))
        _add(found, f'{meta.__name__} declares', declared_keywords(meta))
    return found


def _add(found, owner, keys):
    if keys:
        found[owner] = list(keys)


def _keyword_parameters(hook, skip):
    """The names a keyword may give to function ``hook``, after its first ``skip``
    positional parameters; none where there is no function or no signature."""
    import inspect  # an error path
    try:
        parameters = list(inspect.signature(getattr(hook, '__func__', hook)).parameters.values())
    except (TypeError, ValueError):  # no hook here, or no signature to read
        return []
    keys = []
    for p in parameters:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and skip:
            skip -= 1
        elif p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            keys.append(p.name)
    return keys


def decorated(cls, params, meta, library=None):
    """The error for ``@dataclasses.dataclass`` applied to one of our classes.

    ``params`` is what the decorator was about to store: its options, of which
    those that differ from the defaults become the class keywords to write.
    ``meta`` is ``DataClassMeta``, whose instances among the bases are named.
    ``library`` is the module that applied the decorator, where it was not the
    user's code: then the remedy is the library's way to take a data class.
    """
    through = next(base.__name__ for base in cls.__bases__ if isinstance(base, meta))
    if library is not None:
        return (f'@dataclass applied to {cls.__name__!r} by {library}, which is already a '
                f'data class through {through}: {library.partition(".")[0]} decorates '
                f'the data classes given to it again; use its way to take an existing '
                f'data class instead (for pydantic, TypeAdapter({cls.__name__}), not '
                f'pydantic.dataclasses.dataclass)')
    bases = [base.__name__ for base in cls.__bases__]
    keywords = [f'{name}={value!r}' for name, value in
                ((name, getattr(params, name, DEFAULTS[name])) for name in NAMES)
                if value != DEFAULTS[name]]
    remedy = (': remove the decorator and pass its options as class keywords'
              if keywords else ': remove the decorator')
    return (f'@dataclass applied to {cls.__name__!r}, which is already a data class '
            f'through {through}{remedy}: class {cls.__name__}({", ".join(bases + keywords)})')
