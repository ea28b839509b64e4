"""The differential tests' two tools: the same class made both ways, and what a
call gives, in a form that two implementations can be compared by.

``define(ours, name, namespace)`` makes a class as a ``DataClass`` or with
``@dataclasses.dataclass``; ``both_ways(name, body)`` makes it both ways from
fresh namespaces. ``outcome(call)`` runs ``call()`` and returns
``('ok', view(result))``, or ``('raised', *error(exc))`` for any exception: by
default its type and text.
The differential tests (ours against the stdlib's, one backend against the
other, one route against another) compare these; each passes the ``view`` of a
result and the ``error`` of an exception that its comparison needs.
"""

import dataclasses
import sys

from dataclass_meta import DataClass, DataClassMeta


def define(ours, name, namespace, bases=(), **options):
    """``class name(*bases, **options)`` with ``namespace`` for its body: a data
    class through ``DataClassMeta`` (``ours``; ``DataClass`` is its base where no
    base is given), else a plain class decorated by ``@dataclass(**options)``.
    Both belong to the caller's module, as a class statement there would."""
    namespace = {'__module__': sys._getframe(1).f_globals['__name__'], **namespace}
    if ours:
        return DataClassMeta(name, bases or (DataClass,), namespace, **options)
    return dataclasses.dataclass(**options)(type(name, bases, namespace))


def both_ways(name, body, **options):
    """``(stdlib's, ours)``: the class ``name`` made by ``define`` each way, each
    from its own fresh namespace ``body()``."""
    module = sys._getframe(1).f_globals['__name__']
    return tuple(define(ours, name, {'__module__': module, **body()}, **options)
                 for ours in (False, True))


def raised(exc):
    """An exception as most comparisons want it: its type and text."""
    return type(exc), str(exc)


def outcome(call, view=None, error=raised):
    """``('ok', view(call()))``, or ``('raised', *error(exc))`` where either
    raises (a result that cannot be seen, as a ``repr`` that fails, is an
    outcome of the call too)."""
    try:
        result = call()
        return ('ok', result if view is None else view(result))
    except Exception as exc:  # noqa: BLE001 -- the exception is the outcome
        return ('raised', *error(exc))
