"""What tools read of a generated ``__init__``: its signature and annotations.

As the stdlib's: ``inspect.signature`` shows each parameter with its annotation
and default (``<factory>`` where a default factory is due); the annotations are
the fields' types, in order, then ``return: None`` (3.14+: an ``__annotate__``
function). The signature is built when first read (most never are), for the
pure closures by a ``Signature`` that defers, for the compiled ``__init__`` in C.
Relabelled templates need none of this but the annotations: they are real
functions with a real signature.
"""

import sys
from dataclasses import MISSING
from _thread import allocate_lock

from ._convert import param_name
from ._fields import annotationlib, default_of

if annotationlib is not None:
    _ANNOTATE_FORMATS = frozenset({annotationlib.Format.VALUE, annotationlib.Format.FORWARDREF,
                                   annotationlib.Format.STRING})


def set_init_annotations(init, cls, fields, hooked=False):
    """``__init__``'s annotations as the stdlib's: each ``__init__`` field's
    type, in field order (under its parameter name: ``hooked`` fields may have
    aliases), then ``return: None``.

    3.14+: an ``__annotate__`` function, as 3.14's ``dataclasses`` gives, which
    reads the annotations of the class and its bases in whatever format it is
    asked for (VALUE, FORWARDREF, STRING), only when asked. Before 3.14: the dict.
    """
    if annotationlib is None:
        annotations = ({param_name(f): f.type for f in fields if f.init} if hooked
                       else {f.name: f.type for f in fields if f.init})
        annotations['return'] = None
        init.__annotations__ = annotations
        return
    names = tuple([(f.name, param_name(f) if hooked else f.name) for f in fields if f.init])

    def __annotate__(format, /):
        if format not in _ANNOTATE_FORMATS:
            raise NotImplementedError(format)
        declared = {}
        for klass in reversed(cls.__mro__):
            declared.update(annotationlib.get_annotations(klass, format=format))
        # A name missing from every class (a field made dynamically) is left out.
        annotations = {param: declared[name] for name, param in names if name in declared}
        annotations['return'] = 'None' if format == annotationlib.Format.STRING else None
        return annotations
    __annotate__.__qualname__ = f'{cls.__qualname__}.__init__.__annotate__'
    __annotate__.__generated_by_dataclasses__ = True  # the stdlib's marker
    init.__annotate__ = __annotate__


class ModuleScope:
    """Where string annotations of a generated ``__init__`` are to be resolved.

    ``typing.get_type_hints`` and ``inspect.get_annotations(eval_str=True)`` take
    the globals of the function at the end of the ``__wrapped__`` chain; a closure's
    own are this package's. So ``__init__.__wrapped__`` points here, to the
    class's module, when an annotation is a string. ``inspect.signature`` stops
    at ``__init__`` itself, which carries ``__signature__``.
    """

    __slots__ = ('__globals__',)

    def __init__(self, module_name):
        module = sys.modules.get(module_name)
        self.__globals__ = getattr(module, '__dict__', {})


# Per loaded backend, its ``init_build(function)``: the ``SignatureBuild`` of an
# ``__init__`` it made, else None. ``_backend`` adds each backend as it loads:
# ``DATACLASS_META_PURE=1`` never loads the extension, and without it no
# compiled ``__init__`` exists.
INIT_BUILDS = []


def is_generated_init(function, cls):
    """Whether ``function`` is the ``__init__`` that ``make_init`` made for ``cls``
    (either backend), and its ``__signature__`` attribute was not set or deleted
    since."""
    for init_build in INIT_BUILDS:
        build = init_build(function)
        if build is not None:
            return build.cls is cls
    return False


class SignatureBuild:
    """Builds a generated ``__init__``'s signature when it is first read; kept by
    that ``__init__`` (in C, or in its lazy ``Signature``), it also says which
    class the ``__init__`` was made for (``is_generated_init``)."""

    __slots__ = ('cls', 'first_param', 'positional', 'keyword')

    def __init__(self, init_plan):
        self.cls, self.first_param = init_plan.cls, init_plan.first_param
        self.positional, self.keyword = init_plan.positional, init_plan.keyword

    def __call__(self):
        return _signature(self.first_param, self.positional, self.keyword)


_LazySignature = None  # made on first use: importing inspect costs ~6 ms on 3.15
_signature_class_lock = allocate_lock()


def lazy_signature(build):
    """An ``inspect.Signature`` that ``build()`` makes the first time it is read
    (the pure closures' deferred ``__signature__``; the compiled ``__init__``
    defers in C and imports no ``inspect`` at all)."""
    return _signature_class().deferred(build)


def lazy_signature_build(obj):
    """The ``SignatureBuild`` of a lazy signature (built or not), else None."""
    if _LazySignature is None or type(obj) is not _LazySignature:
        return None
    try:
        return object.__getattribute__(obj, '_build')
    except AttributeError:  # made by Signature.__init__ (replace())
        return None


def __getattr__(name):
    """``Signature``, the class of ``lazy_signature``, which pickle finds here."""
    if name == 'Signature':
        return _signature_class()
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')


def _signature_class():
    global _LazySignature
    if _LazySignature is None:
        with _signature_class_lock:  # one class, even when threads race to it
            if _LazySignature is None:
                _LazySignature = _lazy_signature_class()
    return _LazySignature


def _lazy_signature_class():
    import inspect

    class Signature(inspect.Signature):
        """An ``inspect.Signature`` built the first time it is looked at.

        Named ``Signature`` too, so that its repr is the usual one.

        Building ``Parameter`` objects is a large share of class creation and
        most signatures are never read. ``deferred`` leaves the two slots of
        ``Signature`` empty; the first read of either finds nothing and lands in
        ``__getattr__``, which builds the real signature and fills both.
        Afterwards this is an ordinary ``Signature`` (equal, hashable,
        ``replace()`` works).
        """

        __slots__ = ('_build',)

        @classmethod
        def deferred(cls, build):
            self = cls.__new__(cls)
            self._build = build
            return self

        def __getattr__(self, name):
            if name not in ('_parameters', '_return_annotation'):
                raise AttributeError(name)
            try:
                build = object.__getattribute__(self, '_build')
            except AttributeError:  # made by Signature.__init__ (replace()): no slot unset
                raise AttributeError(name) from None
            real = build()
            self._parameters = real._parameters
            self._return_annotation = real._return_annotation
            return getattr(self, name)

    Signature.__module__ = __name__
    Signature.__qualname__ = 'Signature'
    return Signature


def _signature(first_param, positional, keyword):
    import inspect
    P = inspect.Parameter
    params = [P(first_param, P.POSITIONAL_OR_KEYWORD)]
    for kind, group in ((P.POSITIONAL_OR_KEYWORD, positional), (P.KEYWORD_ONLY, keyword)):
        for f in group:
            default = default_of(f)
            params.append(P(param_name(f), kind, annotation=f.type,
                            default=P.empty if default is MISSING else default))
    return inspect.Signature(params, return_annotation=None)
