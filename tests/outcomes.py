"""What a call gives, in a form that two implementations can be compared by.

``outcome(call)`` runs ``call()`` and returns ``('ok', view(result))``, or
``('raised', *error(exc))`` for any exception: by default its type and text.
The differential tests (ours against the stdlib's, one backend against the
other, one route against another) compare these; each passes the ``view`` of a
result and the ``error`` of an exception that its comparison needs.
"""


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
