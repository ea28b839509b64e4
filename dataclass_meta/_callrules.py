"""How the running interpreter reports bad keyword arguments, probed once.

The generated ``__init__`` binds its arguments itself, so it must raise what a
hand-written ``def __init__(self, x, y=0, *, z)`` raises on this interpreter.
CPython binds keywords one by one: the first one that is unknown or names a
parameter already given raises. PyPy first checks every keyword for a parameter
given twice, then reports the unknown ones, by count when there are several
(``got 2 unexpected keyword arguments``). Rather than name interpreters, a
hand-written function is called wrongly and its error read.
"""


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
