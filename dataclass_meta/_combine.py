"""``combined_metaclass``: ``DataClassMeta`` with another library's metaclass, in one line.

Python makes a class with the one metaclass that derives from the metaclass of
every base, and refuses the class statement (``metaclass conflict``) where
there is none. For a data class under another library's base (an ORM's model, a
plugin registry, an enum) that metaclass must be written; this makes it once
per combination, or says why no such metaclass can work.
"""

from ._meta import DataClassMeta
from ._wire import mro_lookup

_COMBINED = {}  # the metaclasses asked for -> the combined one


def combined_metaclass(*metaclasses):
    """The metaclass deriving from ``DataClassMeta`` and each of ``metaclasses``
    (the same class for the same arguments), for a class statement::

        class Model(DataClass, Base, metaclass=combined_metaclass(type(Base))):
            ...

    Any of them may be a ``DataClassMeta`` subclass (a framework's), which then
    takes ``DataClassMeta``'s place. A metaclass the others already derive from is
    left out; where one of them derives from all the others, it is returned
    itself. With an enum metaclass (``enum.EnumType``) the classes made are
    enums whose members are instances of their data-class mixin, as with
    ``@dataclass``: the enum itself is not a data class. Raises ``TypeError``
    where no metaclass can be made from them: an argument that is not a
    metaclass, instance layouts that conflict, no consistent method resolution
    order, or two of them defining ``__call__`` (only one can construct).
    """
    found = _COMBINED.get(metaclasses)
    if found is None:
        found = _COMBINED.setdefault(metaclasses, _combine(metaclasses))
    return found


def _combine(metaclasses):
    for meta in metaclasses:
        if not (isinstance(meta, type) and issubclass(meta, type)):
            hint = (f': pass its metaclass, combined_metaclass(type({meta.__name__}))'
                    if isinstance(meta, type) else '')
            msg = (f'combined_metaclass() takes metaclasses (subclasses of type), '
                   f'not {meta!r}{hint}')
            raise TypeError(msg)
    ours = [m for m in metaclasses if issubclass(m, DataClassMeta)]
    wanted = ([] if ours else [DataClassMeta]) + list(metaclasses)
    # each metaclass that another one derives from already is left out
    kept = []
    for meta in wanted:
        if meta not in kept and not any(other is not meta and issubclass(other, meta)
                                        for other in wanted):
            kept.append(meta)
    if len(kept) == 1:
        return kept[0]
    names = ', '.join(m.__name__ for m in kept)
    _check_calls(kept, names)
    name = '_'.join(m.__name__ for m in kept)
    namespace = {'__module__': DataClassMeta.__module__, '__qualname__': name,
                 '__doc__': f'The metaclasses {names} combined (combined_metaclass).'}
    try:
        return type(name, tuple(kept), namespace)
    except TypeError as exc:
        msg = f'cannot combine {names} into one metaclass: {_reason(exc, names)}'
        raise TypeError(msg) from exc


def _check_calls(kept, names):
    """Refuse metaclasses whose ``__call__``s differ: calling a class runs one of
    them, and nothing says which the other's classes need. An enum metaclass's
    is the enum's lookup by value, which its classes need."""
    calls = {}
    for meta in kept:
        call = mro_lookup(meta, '__call__')
        if call is not None and call is not type.__dict__['__call__']:
            calls.setdefault(call, meta)
    if len(calls) > 1:
        first, second = list(calls.values())[:2]
        msg = (f'cannot combine {names} into one metaclass: {first.__name__} and '
               f'{second.__name__} each define __call__, and calling a class runs only one: '
               f'derive a metaclass from them by hand, with a __call__ that decides')
        raise TypeError(msg)


def _reason(exc, names):
    """What Python's error on deriving from all of them means, and what to do."""
    text = ' '.join(str(exc).split())  # Python's MRO error spans two lines
    if text.startswith('cycle among base classes'):  # PyPy's words for no MRO
        text = f'cannot create a consistent method resolution order (MRO) for bases {names}'
    if 'lay-out conflict' in text:
        return ('their instances have layouts that conflict (each adds its own C-level '
                'storage to type): no class can have both; keep the data class apart and '
                'convert between the two')
    if 'method resolution order' in text:
        return f'{text[0].lower()}{text[1:]}: derive one by hand, in an order Python accepts'
    if 'not an acceptable base type' in text:
        return f'{text}: it cannot be subclassed'
    return text

