"""``replace()``, ``__replace__`` and ``copy.replace()``: what both backends share.

The pure ``__replace__`` (``make_replace``) and the compiled one run the same
rules: on a class's first replace its state is worked out (``replace_state``);
a call whose changes name only fields ``__init__`` takes positionally goes the
fast path (the compiled core asks ``replace_prepare``); every other call, and
any object whose class has no entry of its own, runs the stdlib's loop
(``replace_by_fields``) with its errors.
"""

from dataclasses import MISSING

from ._convert import Kept, given, param_name
from ._fields import CLASSVAR, FIELDS, INITVAR
from ._relabel import binds_as, is_template
from ._signature import is_generated_init

_object_new = object.__new__


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
        return klass(**_filled(self, fields, changes, True, generated))

    def __replace__(self, /, **changes):
        return replace(self, changes)
    __replace__.replace = replace  # for replace(): no second packing of the changes
    return __replace__


def _filled(obj, fields, changes, hooked=False, generated=False):
    """``changes`` with every ``__init__`` field it does not name read from
    ``obj``, in definition order, after the stdlib's checks (the errors are
    ``_raise_replace_error``'s). ``hooked``: under each field's parameter name
    (an alias; one the caller gave under the field's name is left so), with ``Kept`` around the value of a converted field where
    ``__init__`` is the ``generated`` one."""
    for f in fields.values():
        if f._field_type is CLASSVAR:
            continue
        if not f.init:
            if f.name in changes:
                _raise_replace_error(obj, [f], changes)
            continue
        name = param_name(f) if hooked else f.name
        # An aliased field changed under its own name: __init__ takes that too.
        if name not in changes and f.name not in changes:
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
        all_fields = getattr(obj, FIELDS)
    return obj.__class__(**_filled(obj, all_fields, changes))


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


def replace_unregistered(obj, changes):
    """``replace()`` of an object whose class has no entry of its own (a stdlib
    data class, a subclass made otherwise, or no data class at all)."""
    if not hasattr(type(obj), FIELDS):
        raise TypeError('replace() should be called on dataclass instances')
    return replace_by_fields(obj, changes)


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
