"""How pretty-printers recognise our generated ``__repr__``: pprint and rich.

Both print a data class field by field only when its ``__repr__`` is the
generated one, and each checks that its own way:

- pprint (3.10-3.15, ``PrettyPrinter._safe_repr``'s caller): ``__repr__`` has a
  ``__wrapped__`` whose ``__qualname__`` contains ``__create_fn__``, the name of
  the function the stdlib execs. ``pprint_shape`` gives the generated
  ``__repr__`` (pure or compiled) that shape.
- rich (``rich.pretty``): a stdlib data class only if
  ``__repr__.__code__.co_filename`` names ``dataclasses`` or ``reprlib``; before
  that it asks any object for ``__rich_repr__()``, and prints the ``(name,
  value)`` pairs it gives exactly as it prints a data class's fields.
  ``rich_repr`` is that method, on ``DataClass``: the fields (``repr=True``,
  set on the instance) while ``__repr__`` is generated, else ``None``, which
  sends rich on to its other checks (a hand-written ``__repr__`` is kept).

Nothing here runs while a class is made or an instance repr'd.
"""

from dataclasses import _FIELD as FIELD

_PPRINT_MARK = '__create_fn__.<locals>.__repr__'


def pprint_shape(wrapper, inner):
    """``wrapper`` (the guarded ``__repr__``) with pprint's mark: ``__wrapped__``
    the unguarded ``inner``, named as the stdlib's exec'd function is."""
    inner.__qualname__ = _PPRINT_MARK
    wrapper.__wrapped__ = inner
    return wrapper


def rich_repr(self):
    """rich's ``__rich_repr__``: ``[(name, value), ...]`` of the fields rich shows
    for a stdlib data class, or ``None`` when ``__repr__`` is not the generated one."""
    cls = type(self)
    params = getattr(cls, '__dataclass_params__', None)
    if params is None or not params.repr or not _generated_repr(cls):
        return None
    return [(f.name, getattr(self, f.name))
            for f in getattr(cls, '__dataclass_fields__').values()
            if f._field_type is FIELD and f.repr and hasattr(self, f.name)]


def _generated_repr(cls):
    """Whether ``cls.__repr__`` is a generated one (pprint's check, which both
    backends' ``__repr__`` pass and a hand-written one does not)."""
    wrapped = getattr(cls.__repr__, '__wrapped__', None)
    return getattr(wrapped, '__qualname__', None) == _PPRINT_MARK
