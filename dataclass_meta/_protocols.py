"""``DataClassMeta`` under typing's protocol metaclass, adopted once typing is imported.

``class Square(DataClass, Shape)``, where ``Shape`` is a ``typing.Protocol``,
works only where ``DataClassMeta`` derives from ``type(Shape)``: Python checks
the bases' metaclasses in ``__build_class__``, before any metaclass runs, so
nothing of ours could explain or avoid the ``metaclass conflict``. Deriving at
definition would import ``typing`` with the package (about 2.5 ms, more than
the rest of our import over ``dataclasses``'). A program cannot define a
protocol without importing ``typing`` first, though: so ``DataClassMeta`` takes
the protocol metaclass as its base (``__bases__`` assigned) as soon as
``typing`` is imported: at once where it already is, else just after its module
has run, seen by a finder on ``sys.meta_path`` that answers for no module and
leaves once it has seen what it waits for. ``typing_extensions`` gives
``Protocol`` a metaclass of its own before 3.14 (deriving from typing's); it
is adopted the same way.

No class of ours is a protocol (``DataClassMeta`` refuses ``Protocol`` among the
bases), so what those metaclasses do for protocols never applies to our
classes. Their methods would only cost: ``isinstance`` through a Python frame,
and typing_extensions' ``__hash__`` and ``__eq__`` (a Python call for every
dict lookup keyed by a class) and ``__new__``/``__init__``, which call
``ABCMeta``'s directly and so skip a combined metaclass's. So every method they
define is looked up past them (``settle``): ``DataClassMeta`` holds ABCMeta's
and type's in its own ``__dict__``, and a subclass of it whose MRO has another
definition after the protocol metaclasses (a combined metaclass's) gets that one.
"""

import abc
import sys

# What a class statement writes into every class: not methods to settle.
_BOOKKEEPING = frozenset({'__module__', '__qualname__', '__doc__', '__dict__', '__weakref__',
                          '__firstlineno__', '__static_attributes__', '__new__', '__slots__',
                          '__abstractmethods__', '_abc_impl', '__parameters__'})

ADOPTED = ()  # the protocol metaclasses in DataClassMeta's MRO, most derived first
# typing.Protocol (and typing_extensions'), which no data class may list among its bases
PROTOCOLS = frozenset()
# Those and typing.Generic: their __init_subclass__ passes every keyword on
PASS_ON = frozenset()
_METHODS = ()  # the names the adopted metaclasses define, settled past them
_SETTLED = {}  # metaclass -> the names settle() stored in its __dict__


def new_after(mcls, meta):
    """The class of ``mcls.__mro__`` from which ``super()`` finds the ``__new__``
    that follows ``meta``'s (``DataClassMeta``'s), past the protocol metaclasses
    right after it (theirs check protocols only)."""
    if mcls is meta:  # the common case: its own bases, the last protocol metaclass
        return ADOPTED[-1]
    mro = mcls.__mro__
    at = mro.index(meta)
    while mro[at + 1] in ADOPTED:
        at += 1
    return mro[at]


def _first(mcls, name, past_protocols):
    """The first entry ``name`` in the ``__dict__`` of a class of ``mcls``'s MRO;
    ``past_protocols``: not a protocol metaclass's, nor one settle() stored."""
    for klass in mcls.__mro__:
        if past_protocols and (klass in ADOPTED or name in _SETTLED.get(klass, ())):
            continue
        found = klass.__dict__.get(name)
        if found is not None:
            return found
    return None


def settle(mcls):
    """Give ``mcls`` (``DataClassMeta`` or a subclass) each method its MRO would
    give it without the protocol metaclasses, where that differs."""
    for name in _METHODS:
        wanted = _first(mcls, name, True)
        if wanted is not None and _first(mcls, name, False) is not wanted:
            type.__setattr__(mcls, name, wanted)
            _SETTLED.setdefault(mcls, set()).add(name)


def _protocol_metaclasses():
    """The protocol metaclasses loaded so far, most derived first, and the
    ``Protocol`` classes."""
    metas, protocols = [], []
    for module in ('typing_extensions', 'typing'):
        protocol = getattr(sys.modules.get(module), 'Protocol', None)
        # by identity: typing_extensions' Protocol == typing's
        if isinstance(protocol, type) and all(protocol is not p for p in protocols):
            protocols.append(protocol)
            if all(type(protocol) is not m for m in metas):
                metas.append(type(protocol))
    metas.sort(key=lambda meta: -len(meta.__mro__))
    return metas, frozenset(protocols)


def adopt(meta):
    """Make ``meta`` (``DataClassMeta``) derive from the protocol metaclasses
    loaded so far; whether it does."""
    global ADOPTED, PROTOCOLS, PASS_ON, _METHODS
    metas, protocols = _protocol_metaclasses()
    PROTOCOLS = protocols
    PASS_ON = protocols.union([getattr(sys.modules.get('typing'), 'Generic', None)])
    if not metas or meta.__bases__ == (metas[0],):
        return True
    if not all(issubclass(metas[0], other) for other in (*metas[1:], abc.ABCMeta)):
        return False  # not one line down to ABCMeta: no metaclass of ours can follow
    try:
        meta.__bases__ = (metas[0],)
    except TypeError:  # a subclass's MRO would not hold (Python restored the bases)
        return False
    mro = metas[0].__mro__
    ADOPTED = mro[:mro.index(abc.ABCMeta)]
    _METHODS = tuple(sorted({name for klass in ADOPTED for name in klass.__dict__
                             if name not in _BOOKKEEPING}))
    for mcls, names in list(_SETTLED.items()):  # settled for the MRO before this one
        for name in names:
            type.__delattr__(mcls, name)
    _SETTLED.clear()
    _settle_all(meta)
    return True


def _settle_all(meta):
    seen, todo = set(), [meta]
    while todo:
        mcls = todo.pop()
        if mcls not in seen:
            seen.add(mcls)
            settle(mcls)
            todo.extend(type.__subclasses__(mcls))


def adopt_when_imported(meta):
    """Adopt the protocol metaclasses loaded now, and each one later, once its
    module has run."""
    adopt(meta)
    waiting = {'typing', 'typing_extensions'}.difference(sys.modules)
    if waiting:
        sys.meta_path.insert(0, _Watcher(meta, waiting))


class _Watcher:
    """A finder that finds nothing itself: it hands the import of a module it
    waits for to the finders after it, and adopts once that module has run."""

    def __init__(self, meta, waiting):
        self.meta, self.waiting = meta, waiting

    def find_spec(self, name, path=None, target=None):
        if name not in self.waiting:
            return None
        for finder in list(sys.meta_path):
            find = getattr(finder, 'find_spec', None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                if hasattr(spec.loader, 'exec_module'):
                    spec.loader = _ThenAdopt(spec.loader, self)
                return spec
        return None

    def ran(self, name):
        """``name`` was imported: adopt, and leave once nothing is awaited."""
        self.waiting.discard(name)
        if not self.waiting and self in sys.meta_path:
            sys.meta_path.remove(self)
        adopt(self.meta)


class _ThenAdopt:
    """The loader of an awaited module: the module runs with its own loader,
    then the watcher adopts."""

    def __init__(self, loader, watcher):
        self.loader, self.watcher = loader, watcher

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        spec = module.__spec__
        spec.loader = self.loader  # as if we had never been there
        if getattr(module, '__loader__', None) is self:
            module.__loader__ = self.loader
        self.loader.exec_module(module)
        self.watcher.ran(spec.name)
