"""The call errors of a generated ``__init__`` that binds its own arguments.

Imported on the first bad call only. Such an ``__init__`` (the pure closure,
where no relabelled template serves) must raise what a hand-written
``def __init__(self, x, y=0, *, z)`` raises on this interpreter, text included.
CPython binds keywords one by one: the first one that is unknown or names a
parameter already given raises. PyPy first checks every keyword for a parameter
given twice, then reports the unknown ones, by count when there are several
(``got 2 unexpected keyword arguments``). Rather than name interpreters, a
hand-written function is called wrongly and its error read.
"""

from dataclasses import MISSING

from ._convert import param_name
from ._fields import default_of


def _message(*args, **kwargs):
    def probe(a):  # pragma: no cover - the call fails before the body runs
        return a
    try:
        probe(*args, **kwargs)
    except TypeError as exc:
        return str(exc)
    return ''  # pragma: no cover - a call binding a twice cannot succeed


#: An unknown keyword before a parameter given twice: the latter is reported.
MULTIPLE_FIRST = 'multiple values' in _message(1, zz=1, a=1)
#: Several unknown keywords are reported by their count.
UNEXPECTED_COUNTED = 'got 2 unexpected keyword arguments' in _message(zz=1, yy=1, a=1)


def call_error_factory(cls, first_param, positional, keyword):
    """A function raising the interpreter's own ``TypeError`` for a bad call.

    Reproduces CPython's argument binding (``initialize_locals`` in ceval.c) for
    ``def __init__(self, <positional>, *, <keyword>)``: keywords first (unexpected,
    with 3.13's "Did you mean" among the parameters; then multiple values, in the
    running interpreter's order, probed above), then too many positionals,
    then missing ones.
    """
    qualname = f'{cls.__qualname__}.__init__'
    names = [first_param] + [param_name(f) for f in positional]
    kw_names = [param_name(f) for f in keyword]
    argcount = len(names)
    defcount = sum(1 for f in positional if default_of(f) is not MISSING)
    kw_required = [param_name(f) for f in keyword if default_of(f) is MISSING]

    def raise_call_error(args, kwargs, self_given=True):
        given = len(args) + self_given
        bound = set(names[:given])
        unexpected = []
        for key in kwargs:
            if key not in names and key not in kw_names:
                unexpected.append(key)
                if not MULTIPLE_FIRST:
                    break
            elif key in bound:
                raise TypeError(f'{qualname}() got multiple values for argument {key!r}')
            else:
                bound.add(key)
        if unexpected:
            raise TypeError(_unexpected(qualname, unexpected, names + kw_names))
        if given > argcount:
            raise TypeError(_too_many(qualname, argcount, defcount, given,
                                      sum(1 for k in kw_names if k in bound)))
        missing = [n for n in names[:argcount - defcount] if n not in bound]
        if missing:
            raise TypeError(_missing(qualname, 'positional', missing))
        missing = [n for n in kw_required if n not in bound]
        if missing:
            raise TypeError(_missing(qualname, 'keyword-only', missing))
        raise AssertionError('unreachable: the call binds')  # pragma: no cover

    return raise_call_error


def _unexpected(qualname, keys, parameters):
    from ._suggest import did_you_mean
    if len(keys) > 1 and UNEXPECTED_COUNTED:
        return f'{qualname}() got {len(keys)} unexpected keyword arguments'
    return (f'{qualname}() got an unexpected keyword argument '
            f'{keys[0]!r}{did_you_mean(keys[0], parameters)}')


def _too_many(qualname, argcount, defcount, given, kwonly_given):
    if defcount:
        sig, plural = f'from {argcount - defcount} to {argcount}', True
    else:
        sig, plural = str(argcount), argcount != 1
    kwonly = ''
    if kwonly_given:
        kwonly = (f' positional argument{"s" if given != 1 else ""} (and {kwonly_given} '
                  f'keyword-only argument{"s" if kwonly_given != 1 else ""})')
    verb = 'was' if given == 1 and not kwonly_given else 'were'
    return (f'{qualname}() takes {sig} positional argument{"s" if plural else ""} '
            f'but {given}{kwonly} {verb} given')


def _missing(qualname, kind, missing):
    quoted = [repr(n) for n in missing]
    if len(quoted) == 1:
        listed = quoted[0]
    elif len(quoted) == 2:
        listed = f'{quoted[0]} and {quoted[1]}'
    else:
        listed = ', '.join(quoted[:-1]) + ', and ' + quoted[-1]
    plural = '' if len(quoted) == 1 else 's'
    return f'{qualname}() missing {len(quoted)} required {kind} argument{plural}: {listed}'
