"""One closure factory per generated method, and the ``__hash__`` decision table.

Each factory takes what it needs, does all per-class work once, and returns the
function; ``attach`` names it after the class. Where a template of
``_templates`` serves, the method is that template relabelled with the class's
field names (``_relabel``); else a closure, whose fast helpers
(``_getters.tuple_getter``, ``map``) do the per-field work where they keep the
stdlib's semantics exactly.
"""

from _thread import get_ident  # threading's own; importing threading costs ~1 ms

from dataclasses import MISSING, FrozenInstanceError
from types import FunctionType

from ._convert import Kept, given, param_name
from ._interop import pprint_shape
from ._fields import CLASSVAR, FIELD, FIELDS, FORWARDREF, INITVAR
from ._getters import tuple_getter
from ._signature import is_generated_init
from ._relabel import binds_as, is_template, relabel, templates


_object_new = object.__new__


def attach(cls, name, function):
    """Put a generated function on the class, looking hand-written there."""
    if function.__name__ != name:  # the factories mostly name them right already
        function.__name__ = name
    function.__qualname__ = f'{cls.__qualname__}.{name}'
    function.__module__ = cls.__module__
    if not isinstance(function, FunctionType):
        # compiled: like any method descriptor, it names its class (inspect.getdoc
        # then finds the inherited docstring, as for the pure closure)
        function.__objclass__ = cls
    type.__setattr__(cls, name, function)  # past DataClassMeta's guard: ours


def make_repr(plan):
    """``__repr__``: ``C(x=1, y=2)`` with the class's qualname, ``...`` on recursion.

    Each field is read, then repr()'d, before the next is read, as by the
    stdlib's f-string: a relabelled template (``_relabel``), else
    ``str.format``. Guarded as 3.13 guards its own (``_guarded``): keyed by
    instance and thread; ``pprint_shape`` marks it for pprint and rich.
    """
    names = plan.repr_names
    prefixes = [f'{", " if i else "("}{name}=' for i, name in enumerate(names)]
    __repr__ = relabel(templates().REPR, names, prefixes)
    if __repr__ is None:
        # str.format reads each ``{0.name}`` and applies ``!r`` before the next.
        format_ = ('{0.__class__.__qualname__}(' + ', '.join(
            f'{name}={{0.{name}!r}}' for name in names) + ')').format

        def __repr__(self):
            return format_(self)
    return pprint_shape(_guarded(__repr__), __repr__)


def _guarded(inner):
    """``inner`` behind ``reprlib.recursive_repr``'s guard, which 3.13+ wraps the
    stdlib's ``__repr__`` in: ``'...'`` for an instance already being repr'd in
    this thread. (The guard alone: the decorator's copying of names and
    annotations, which ``attach`` and ``pprint_shape`` redo, was a tenth of a
    class's creation.)"""
    running = set()

    def __repr__(self):
        key = id(self), get_ident()
        if key in running:
            return '...'
        running.add(key)
        try:
            return inner(self)
        finally:
            running.discard(key)
    return __repr__


def make_eq(plan):
    """``__eq__`` as 3.13 builds it: same class only, then field by field.

    ``self.a == other.a and self.b == other.b``: each pair read and compared in
    turn, no identity shortcut per field (unlike tuple comparison), stops at the
    first false result and returns it, and returns the last result without
    asking its truth. A relabelled template, else a loop.
    """
    names = plan.compare_names
    return template_eq(plan) or _eq_loop(names[:-1], names[-1:])


def template_eq(plan):
    """``__eq__`` as a relabelled template, or None (see ``_relabel``)."""
    return relabel(templates().EQ, plan.compare_names)


def _eq_loop(names, last):
    """The field-by-field ``__eq__`` for any number of fields: ``names``, then
    the ``last`` one (none for a class without fields to compare)."""
    last = last[0] if last else None

    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        for name in names:
            result = getattr(self, name) == getattr(other, name)
            if not result:
                return result
        return True if last is None else getattr(self, last) == getattr(other, last)
    return __eq__


def make_order(name, plan):
    """``__lt__``/``__le__``/``__gt__``/``__ge__``: same class only, compare tuples.

    A relabelled template, else a closure with the operator written out (so a
    comparison is no extra call) over a shared getter of the fields.
    """
    return (template_order(name, plan)
            or _ORDER_FACTORIES[name](tuple_getter(plan.compare_names)))


def template_order(name, plan):
    """The ordering method ``name`` as a relabelled template, or None."""
    return relabel(templates().ORDER[name], plan.compare_names)


def _lt(values):
    def __lt__(self, other):
        if other.__class__ is self.__class__:
            return values(self) < values(other)
        return NotImplemented
    return __lt__


def _le(values):
    def __le__(self, other):
        if other.__class__ is self.__class__:
            return values(self) <= values(other)
        return NotImplemented
    return __le__


def _gt(values):
    def __gt__(self, other):
        if other.__class__ is self.__class__:
            return values(self) > values(other)
        return NotImplemented
    return __gt__


def _ge(values):
    def __ge__(self, other):
        if other.__class__ is self.__class__:
            return values(self) >= values(other)
        return NotImplemented
    return __ge__


_ORDER_FACTORIES = {'__lt__': _lt, '__le__': _le, '__gt__': _gt, '__ge__': _ge}


def make_hash(plan):
    """``__hash__``: the hash of the tuple of fields with ``hash`` (else ``compare``):
    a relabelled template, else a closure over a shared getter."""
    __hash__ = template_hash(plan)
    if __hash__ is None:
        values = tuple_getter(plan.hash_names)

        def __hash__(self):
            return hash(values(self))
    return __hash__


def template_hash(plan):
    """``__hash__`` as a relabelled template, or None."""
    return relabel(templates().HASH, plan.hash_names)


# What to do about __hash__, keyed by (unsafe_hash, eq, frozen, has explicit
# __hash__), as in the stdlib:
#   "add"   -- generate one,   "none" -- set __hash__ = None (unhashable),
#   "raise" -- TypeError,      None   -- leave whatever is inherited.
#
#  +------------------- unsafe_hash=
#  |      +------------ eq=
#  |      |      +----- frozen=
#  |      |      |      +- explicit __hash__ in the class body?
#  v      v      v      v
HASH_ACTIONS = {
    (False, False, False, False): None,
    (False, False, False, True): None,
    (False, False, True, False): None,
    (False, False, True, True): None,
    (False, True, False, False): 'none',
    (False, True, False, True): None,
    (False, True, True, False): 'add',
    (False, True, True, True): None,
    (True, False, False, False): 'add',
    (True, False, False, True): 'raise',
    (True, False, True, False): 'add',
    (True, False, True, True): 'raise',
    (True, True, False, False): 'add',
    (True, True, False, True): 'raise',
    (True, True, True, False): 'add',
    (True, True, True, True): 'raise',
}


def make_frozen_setattr(plan):
    """``__setattr__`` of a frozen class: fields (and anything on the class
    itself) cannot be assigned; a subclass's own new attributes can."""
    cls, names = plan.cls, frozenset(plan.field_names)

    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f'cannot assign to field {name!r}')
        super(cls, self).__setattr__(name, value)
    return __setattr__


def make_frozen_delattr(plan):
    """``__delattr__`` of a frozen class, the twin of ``make_frozen_setattr``."""
    cls, names = plan.cls, frozenset(plan.field_names)

    def __delattr__(self, name):
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f'cannot delete field {name!r}')
        super(cls, self).__delattr__(name)
    return __delattr__


# (class, what replace() calls with (obj, changes)) on each data class: the
# class beside it, because a subclass inherits the attribute but not the
# function. Not a dunder, so that help() leaves it out.
REPLACE_ENTRY = '_dataclass_replace'


def replace_state(cls, fields):
    """What ``replace()`` needs of ``cls`` and its non-ClassVar ``fields``:
    (forbidden, required, carried, fast, init). Worked out on a class's first
    replace() (most classes are never replaced).

    ``forbidden``: the ``init=False`` names; ``required``: the InitVars without
    a default; ``carried``: the ``__init__`` names taken from the instance when
    not changed; ``fast``: whether ``__init__`` is the generated one and takes
    every carried name positionally (no keyword-only field), so that the
    values may go positionally; ``init``: the class's own ``__init__``.
    """
    forbidden = frozenset(f.name for f in fields if not f.init)
    required = frozenset(f.name for f in fields if f.init and f._field_type is INITVAR
                         and f.default is MISSING)
    init = cls.__dict__.get('__init__')
    carried = tuple(f.name for f in fields if f.init and f.name not in required)
    fast = ((is_generated_init(init, cls) or binds_as(init, carried)) and not required
            and type(cls).__call__ is type.__call__
            and not any(f.kw_only for f in fields if f.init))
    return forbidden, required, carried, fast, init


def replace_prepare(cls, own):
    """For the compiled ``__replace__``: (carried, their names as a frozenset,
    init) where a call whose changes all name carried fields may take the
    positional fast path (see ``make_replace``; an ``init=False`` name is not
    carried), else None: every call then runs ``replace_by_fields``."""
    _, _, carried, fast, init = replace_state(
        cls, [f for f in own.values() if f._field_type is not CLASSVAR])
    return (carried, frozenset(carried), init) if fast else None


def make_replace(plan):
    """``__replace__`` (3.13, ``copy.replace``): a new instance through ``__init__``.

    Reads as the stdlib's ``_replace``: ``self.__dataclass_fields__``, then each
    ``__init__`` field not in ``changes`` once, in definition order, then
    ``self.__class__``, which is called with the changes first, then the rest,
    by keyword. ``init=False`` fields may not be changed; InitVars without a
    default must be given. When the class is this one and its ``__init__`` the
    generated one (so positional and keyword calls bind alike), the values go
    positionally, which takes the ``__init__`` template's fast path.
    """
    if needs_hooked_replace(plan):
        return make_hooked_replace(plan)
    fields, cls, own = plan.fields, plan.cls, plan.cls.__dataclass_fields__
    # Prepared on the first call (most classes are never replaced).
    forbidden = required = carried = init = fast = checked = names = None

    def prepare():
        nonlocal forbidden, required, carried, init, fast, checked, names
        forbidden, required, carried_, fast, init = replace_state(cls, fields)
        checked = bool(forbidden or required)
        names = frozenset(carried_)
        carried = carried_  # last: another thread may be testing carried

    def replace(self, changes):
        all_fields = self.__dataclass_fields__
        if all_fields is not own:  # a subclass instance: its own fields count
            return replace_by_fields(self, changes, all_fields)
        if carried is None:
            prepare()
        if checked and (not forbidden.isdisjoint(changes)
                        or not required.issubset(changes)):
            _raise_replace_error(self, fields, changes)
        if fast and changes.keys() <= names:
            values = [changes[name] if name in changes else getattr(self, name)
                      for name in carried]
            klass = self.__class__
            if klass is cls and cls.__init__ is init and cls.__new__ is _object_new:
                return cls(*values)
            for name, value in zip(carried, values):  # else: __init__ names a stranger
                if name not in changes:
                    changes[name] = value
            return klass(**changes)
        for name in carried:
            if name not in changes:
                changes[name] = getattr(self, name)
        return self.__class__(**changes)

    def __replace__(self, /, **changes):
        return replace(self, changes)
    __replace__.replace = replace  # for replace(): no second packing of the changes
    return __replace__


def make_hooked_replace(plan):
    """``__replace__`` of a class with aliases or converters (both backends):
    each ``__init__`` field not in ``changes`` is passed under its parameter
    name, and, where the class's ``__init__`` is the generated one, marked so
    that its converter does not run again on a value already converted."""

    def replace(self, changes):
        fields = self.__dataclass_fields__
        klass = self.__class__
        init = klass.__dict__.get('__init__')
        generated = is_generated_init(init, klass) or is_template(init)
        return klass(**_hooked_changes(self, fields, changes, generated))

    def __replace__(self, /, **changes):
        return replace(self, changes)
    __replace__.replace = replace  # for replace(): no second packing of the changes
    return __replace__


def _hooked_changes(obj, fields, changes, generated):
    """``changes`` filled as ``replace_by_fields`` fills them, each ``__init__``
    field under its parameter name, and ``Kept`` where it has a converter and
    ``__init__`` is the generated one; the errors are ``_raise_replace_error``'s."""
    for f in fields.values():
        if f._field_type is CLASSVAR:
            continue
        if not f.init:
            if f.name in changes:
                _raise_replace_error(obj, [f], changes)
            continue
        name = param_name(f)
        if name not in changes:
            if f._field_type is INITVAR and f.default is MISSING:
                _raise_replace_error(obj, [f], changes)
            value = getattr(obj, f.name)
            if generated and (given(f) or (None,))[0] is not None:
                value = Kept(value)
            changes[name] = value
    return changes


def needs_hooked_replace(plan):
    """Whether ``replace()`` must know the class's aliases or converters."""
    hooks = plan.hooks
    return hooks is not None and (hooks.aliased or bool(hooks.converters))


def replace_by_fields(obj, changes, all_fields=None):
    """The stdlib's ``_replace``, reading ``obj``'s ``__dataclass_fields__`` now
    (unless the caller just read them: ``all_fields``)."""
    if all_fields is None:
        all_fields = getattr(obj, '__dataclass_fields__')
    for f in all_fields.values():
        if f._field_type is CLASSVAR:
            continue
        if not f.init:
            if f.name in changes:
                _raise_replace_error(obj, [f], changes)
            continue
        if f.name not in changes:
            if f._field_type is INITVAR and f.default is MISSING:
                _raise_replace_error(obj, [f], changes)
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def _raise_replace_error(obj, fields, changes):
    """The stdlib's loop for the error paths: the first problem in definition
    order raises, reading an unset field included (only if not in ``changes``).
    An ``__init__`` field is looked for under its parameter name (its alias)."""
    for f in fields:
        if f._field_type is CLASSVAR:
            continue
        if not f.init:
            if f.name in changes:
                msg = (f'field {f.name} is declared with init=False, it cannot be '
                       f'specified with replace()')
                raise TypeError(msg)
        elif param_name(f) not in changes:
            if f._field_type is INITVAR and f.default is MISSING:
                raise TypeError(f'InitVar {param_name(f)!r} must be specified with replace()')
            getattr(obj, f.name)


def make_getstate(plan):
    """``__getstate__`` of a frozen slotted class: the field values, in order.

    Reads like the stdlib's ``[getattr(self, f.name) for f in fields(self)]``:
    ``self.__dataclass_fields__`` first (a subclass may add fields of its own),
    then each field; the names of the class's own fields are worked out once.
    """
    own, names = plan.cls.__dataclass_fields__, plan.field_names

    def __getstate__(self):
        fields = self.__dataclass_fields__
        return [getattr(self, name) for name in (names if fields is own
                                                  else _field_names(fields))]
    return __getstate__


def make_setstate(plan):
    """``__setstate__`` of a frozen slotted class: bypasses the frozen guard,
    reading ``self.__dataclass_fields__`` as the stdlib's ``fields(self)`` does."""
    own, names, store = plan.cls.__dataclass_fields__, plan.field_names, object.__setattr__

    def __setstate__(self, state):
        fields = self.__dataclass_fields__
        for name, value in zip(names if fields is own else _field_names(fields), state):
            store(self, name, value)
    return __setstate__


def _field_names(fields):
    return [f.name for f in fields.values() if f._field_type is FIELD]


def replace_unregistered(obj, changes):
    """``replace()`` of an object whose class has no entry of its own (a stdlib
    data class, a subclass made otherwise, or no data class at all)."""
    if not hasattr(type(obj), FIELDS):
        raise TypeError('replace() should be called on dataclass instances')
    return replace_by_fields(obj, changes)


class LazyDoc:
    """``__doc__`` = ``"C(x: int, y: int = 0)"``, computed when first read.

    Rendering a signature is a fifth of what ``@dataclass`` spends per class;
    most docstrings are never read. ``type.__doc__`` calls ``__get__`` for us.

    ``inspect.signature`` may itself read ``__doc__`` (PyPy's
    ``type.__text_signature__`` parses it): that read, in the thread computing
    the text, sees ``None``, the docstring the stdlib's class has while it
    computes its own.
    """

    __slots__ = ('text', 'computing')

    def __init__(self):
        self.text = None
        self.computing = None  # the id of the thread computing the text

    def __get__(self, instance, owner=None):
        if self.text is None:
            if self.computing == get_ident():
                return None
            self.computing = get_ident()
            try:
                self.text = owner.__name__ + _signature_text(owner)
            finally:
                self.computing = None
        return self.text


def _signature_text(owner):
    """``(x: int, y: int = 0)`` as the stdlib's docstring shows it, or ``''``."""
    import inspect
    # 3.14+: a relabelled __init__ is a real function whose annotations are read
    # through its __annotate__; FORWARDREF, as 3.14's dataclasses asks, so that a
    # name not defined yet reads as itself instead of raising NameError.
    formats = {} if FORWARDREF is None else {'annotation_format': FORWARDREF}
    try:
        signature = str(_with_current_annotations(owner, inspect.signature(owner, **formats)))
    except (TypeError, ValueError):
        return ''
    return signature.replace(' -> None', '')


def _with_current_annotations(owner, signature):
    """3.14+: the signature with ``__init__``'s annotations as they read now
    (FORWARDREF), as 3.15's docstring is made when first read: a name defined after
    the class (``x: list[C]`` in a function) shows as what it now names."""
    annotate = getattr(owner.__dict__.get('__init__'), '__annotate__', None)
    if not getattr(annotate, '__generated_by_dataclasses__', False):
        return signature
    import annotationlib
    try:
        annotations = annotate(annotationlib.Format.FORWARDREF)
    except Exception:  # a docstring never fails: keep what the signature has
        return signature
    return signature.replace(parameters=[
        p.replace(annotation=annotations.get(p.name, p.annotation))
        for p in signature.parameters.values()])
