"""The plan of a class: what its generated methods need, gathered once.

The pipeline builds one ``Plan`` per class after the fields are merged and hands
it to every method factory of the active backend, so no factory recomputes the
field selections and no factory takes a long list of positional arguments.
"""

from ._convert import hooks_of
from ._fields import CLASSVAR, FIELD
from ._travel import placeholder


class Plan:
    """One class's fields and options, as the generated methods use them.

    ``all_fields``: every field in definition order, ClassVars included (the
    stdlib counts them when naming ``__init__``'s ``self``); ``fields``: those
    ``__init__`` and ``__replace__`` deal with (no ClassVars); ``plain``: the real
    fields (no InitVars either), which ``__repr__``, ``__eq__``, the orderings,
    ``__hash__`` and the frozen guards use. The ``*_names`` are selections of
    ``plain`` in definition order. ``hooks``: the fields' converters,
    validators and aliases (``_convert.Hooks``), or None.
    """

    __slots__ = ('cls', 'all_fields', 'fields', 'plain', 'frozen', 'slots',
                 'has_post_init', 'repr_names', 'compare_names', 'hash_names',
                 'field_names', 'hooks', 'untrack')

    def __reduce__(self):
        """A placeholder: a plan holds its class, and travels only inside the
        closures of methods that the receiving process makes anew."""
        return placeholder, ()

    def __init__(self, cls, all_fields, frozen, slots):
        self.cls = cls
        self.all_fields = all_fields
        self.fields = [f for f in all_fields if f._field_type is not CLASSVAR]
        self.plain = plain = [f for f in all_fields if f._field_type is FIELD]
        self.frozen = frozen
        self.slots = slots
        self.has_post_init = hasattr(cls, '__post_init__')
        self.hooks = hooks_of(cls, all_fields)
        self.untrack = 0  # set by the metaclass (_meta._untracks_atomic): a level
        self.field_names = names = tuple([f.name for f in plain])
        if all([f.repr is True and f.compare is True and f.hash is None for f in plain]):
            # the usual case: every selection is every field
            self.repr_names = self.compare_names = self.hash_names = names
            return
        self.repr_names = tuple([f.name for f in plain if f.repr])
        self.compare_names = tuple([f.name for f in plain if f.compare])
        self.hash_names = tuple([f.name for f in plain
                                 if (f.compare if f.hash is None else f.hash)])
