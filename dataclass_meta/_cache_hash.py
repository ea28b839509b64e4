"""``cache_hash=True``: an instance's hash computed once, kept in a slot of its own.

The class's generated ``__hash__`` (either backend's) is wrapped, not changed:
the first ``hash()`` calls it and stores the result in the slot ``HASH_SLOT``;
later calls return what is stored. The slot is laid out by ``DataClassMeta``
before the class exists, on slotted classes and on classes with a ``__dict__``
alike (where the slot keeps the value out of ``vars()``).

A cached hash is never carried to another instance: ``replace()`` calls
``__init__``, and pickling and ``copy`` take the instance's state, which leaves
the slot out (a ``str`` hashes differently in another process). A frozen
slotted class's generated ``__getstate__`` lists the fields only; any other
class gets the ``__getstate__`` below unless it has one of its own (the one a
slotted cached property gives is wrapped: it would carry the slot too).
"""

from ._cached_property import made_getstate

HASH_SLOT = '__dataclass_hash__'


def add_hash_slot(namespace, taken):
    """The namespace with ``HASH_SLOT`` in its ``__slots__`` (unless a base has
    it: ``taken`` names the slots above). A class without ``__slots__`` gets
    ``__dict__`` and ``__weakref__`` slots too, where no base has them, so that
    it stays a class with a ``__dict__``."""
    if HASH_SLOT in taken:
        return namespace
    namespace = dict(namespace)
    slots = namespace.get('__slots__')
    if slots is None:
        extra = [name for name in ('__dict__', '__weakref__') if name not in taken]
        namespace['__slots__'] = (HASH_SLOT, *extra)
    elif isinstance(slots, dict):
        namespace['__slots__'] = {**slots, HASH_SLOT: None}
    else:
        namespace['__slots__'] = ((slots,) if isinstance(slots, str) else tuple(slots)) + (
            HASH_SLOT,)
    return namespace


def check(cls, hash_, made, source=str):
    """The error for ``cache_hash=True`` on a class whose ``__hash__`` (``hash_``,
    what the class has now) was not generated for it (``made(hash_)``);
    ``source()`` says where an inherited ``cache_hash`` came from (`` from its
    parent 'P'``; ``''`` for the class's own), and then ``cache_hash=False`` is
    the first remedy."""
    if cls.__dict__.get('__hash__') is hash_ and made(hash_):
        return
    source = source()
    off = 'pass cache_hash=False, ' if source else ''
    if '__hash__' in cls.__dict__ and hash_ is not None:
        msg = (f'data class {cls.__name__!r} has cache_hash=True{source} and its own '
               f'__hash__: cache_hash caches the generated one; '
               + (f'{off}or remove the __hash__' if source else 'remove one of them'))
    else:
        msg = (f'data class {cls.__name__!r} has cache_hash=True{source} but no generated '
               f'__hash__ to cache: {off}make it frozen (with eq=True) or pass '
               f'unsafe_hash=True')
    raise TypeError(msg)


def member_of(cls, name):
    """The slot ``name``'s member descriptor, from the class or a base."""
    for klass in cls.__mro__:
        member = klass.__dict__.get(name)
        if member is not None:
            return member
    raise TypeError(f'data class {cls.__name__!r} has no slot {name!r}')


def make_cache_hash(hash_, member):
    """``__hash__`` that returns ``hash_(self)`` as first computed, from the slot
    ``member`` (a member descriptor) where it is kept."""
    if getattr(member.__objclass__, '__dictoffset__', 0):
        return _by_name(hash_, member)
    read, store = member.__get__, member.__set__

    def __hash__(self):
        try:
            return read(self)
        except AttributeError:  # not computed yet: the slot is empty
            pass
        value = hash_(self)
        store(self, value)
        return value
    return __hash__


def _by_name(hash_, member):
    """``make_cache_hash``'s ``__hash__`` for a class with a ``__dict__``, which
    reaches the slot by its name. cloudpickle sends such a class without its
    slots (it makes them again only for a class without ``__dict__``) and with
    this closure's cells: a member there would be looked up on the arriving
    class, which has no such slot."""
    name, owner = member.__name__, member.__objclass__

    def __hash__(self):
        try:
            return _read(self, name)
        except AttributeError:  # not computed yet: the slot is empty
            pass
        if not isinstance(self, owner):  # the member's own check, in its words
            msg = (f"descriptor {name!r} for {owner.__name__!r} objects doesn't apply to "
                   f"a {type(self).__name__!r} object")
            raise TypeError(msg)
        value = hash_(self)
        _store(self, name, value)
        return value
    return __hash__


_read, _store = object.__getattribute__, object.__setattr__


def state_to_filter(cls):
    """The state the class pickles with where it would carry the slot: the
    default one, or a slotted cached property's (``_cached_property``); else None."""
    getstate = getattr(cls, '__getstate__', None)
    if getstate is _DEFAULT_GETSTATE:
        return _default_state
    return getstate if made_getstate(getstate) else None


def make_getstate(default_state):
    """``__getstate__``: ``default_state`` (``__dict__``, then the slots) without
    the cached hash, in the shape ``object.__getstate__`` gives it."""

    def __getstate__(self):
        state = default_state(self)
        if type(state) is tuple:
            values, slots = state
            if HASH_SLOT in slots:
                slots = {name: value for name, value in slots.items() if name != HASH_SLOT}
            return (values, slots) if slots else values
        return state
    return __getstate__


# 3.11+: object.__getstate__ (gh-70766); 3.10 pickles what it computes below.
_DEFAULT_GETSTATE = getattr(object, '__getstate__', None)
if _DEFAULT_GETSTATE is not None:
    _default_state = _DEFAULT_GETSTATE
else:
    def _default_state(self):
        """3.10's ``copyreg``/``object.__reduce_ex__`` state: the ``__dict__`` (None if
        empty), and the set slots by name where there are any."""
        import copyreg
        values = getattr(self, '__dict__', None) or None
        slots = {}
        for name in copyreg._slotnames(type(self)):
            try:
                slots[name] = getattr(self, name)
            except AttributeError:
                pass
        return (values, slots) if slots else values


def finish(cls, params, backend, source=str):
    """Wrap the class's generated ``__hash__`` (checked; ``source`` as for
    ``check``) and give it the ``__getstate__`` above where it would pickle the slot."""
    hash_ = cls.__dict__.get('__hash__', getattr(cls, '__hash__', None))
    check(cls, hash_, backend.made, source)
    backend.attach(cls, '__hash__', backend.cache_hash(hash_, member_of(cls, HASH_SLOT)))
    state = state_to_filter(cls)
    if state is not None:
        backend.attach(cls, '__getstate__', make_getstate(state))
