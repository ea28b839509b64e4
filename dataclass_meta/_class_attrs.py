"""What every data class gets beside its generated methods, whatever the backend:
the ``__hash__`` rule table, the ``__doc__`` made when first read, and the
pickling state of a frozen slotted instance.
"""

from _thread import get_ident  # threading's own; importing threading costs ~1 ms

from ._asdict import cached_field_names
from ._fields import FORWARDREF


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
                                                  else cached_field_names(type(self), fields))]
    return __getstate__


def make_setstate(plan):
    """``__setstate__`` of a frozen slotted class: bypasses the frozen guard,
    reading ``self.__dataclass_fields__`` as the stdlib's ``fields(self)`` does."""
    own, names, store = plan.cls.__dataclass_fields__, plan.field_names, object.__setattr__

    def __setstate__(self, state):
        fields = self.__dataclass_fields__
        names_now = names if fields is own else cached_field_names(type(self), fields)
        for name, value in zip(names_now, state):
            store(self, name, value)
    return __setstate__


class LazyDoc:
    """``__doc__`` = ``"C(x: int, y: int = 0)"``, computed when first read.

    Rendering a signature is a fifth of what ``@dataclass`` spends per class;
    most docstrings are never read. ``type.__doc__`` calls ``__get__`` for us.

    ``inspect.signature`` may itself read ``__doc__`` (PyPy's
    ``type.__text_signature__`` parses it): that read, in the thread computing
    the text, sees ``None``, the docstring the stdlib's class has while it
    computes its own.
    """

    __slots__ = ('text',)

    def __init__(self):
        self.text = None

    def __get__(self, instance, owner=None):
        if self.text is None:
            # Threads reading it at once each compute the same text.
            key = id(self), get_ident()
            if key in _COMPUTING:
                return None
            _COMPUTING.add(key)
            try:
                self.text = owner.__name__ + _signature_text(owner)
            finally:
                _COMPUTING.discard(key)
        return self.text


_COMPUTING = set()  # (id(LazyDoc), thread id) of the texts being computed, per thread


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
