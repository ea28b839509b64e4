"""Templates per arity: the fast paths of the generated ``__init__`` and ``__eq__``.

Plain source, one function per parameter count, so that a call with every
argument given positionally costs one check and one ``store`` per field, with no
loop (``store`` is ``setattr``, or ``object.__setattr__`` when frozen).
Parameters are positional-only and default to ``MISSING_ARG``. Omitted
trailing arguments take their ``defaults`` (``MISSING_ARG`` where a parameter
has none); a call with every argument by keyword reads them from ``**kw``
directly; any other call with keywords or too many arguments (``*more``), or
missing a required one, goes to the class's ``bind``, which binds it as the
interpreter would bind ``def __init__(self, x, y=0)`` (or raises its
``TypeError``).
"""

MISSING_ARG = object()  # a parameter not given; never visible to callers
_M = MISSING_ARG


def _init0(store, names, defaults, bind, post):
    def __init__(self, /, *more, **kw):
        if kw or more:
            bind(more, kw)  # raises: nothing to bind
        if post:
            self.__post_init__()
    return __init__


def _init1(store, names, defaults, bind, post):
    n0, = names
    d0, = defaults

    def __init__(self, v0=_M, /, *more, **kw):
        if kw or more:
            if v0 is _M and len(kw) == 1:  # every argument by keyword
                try:
                    v0 = kw[n0]
                except KeyError:  # a name that is not a field
                    v0, = bind((), kw)
            else:
                v0, = bind((v0,) + more, kw)
        elif v0 is _M:  # trailing arguments omitted: their defaults
            v0 = bind((), kw)[0] if d0 is _M else d0
        store(self, n0, v0)
        if post:
            self.__post_init__()
    return __init__


def _init2(store, names, defaults, bind, post):
    n0, n1 = names
    d0, d1 = defaults

    def __init__(self, v0=_M, v1=_M, /, *more, **kw):
        if kw or more:
            if v0 is _M and len(kw) == 2:  # every argument by keyword
                try:
                    v0 = kw[n0]
                    v1 = kw[n1]
                except KeyError:  # a name that is not a field
                    v0, v1 = bind((), kw)
            else:
                v0, v1 = bind((v0, v1) + more, kw)
        elif v1 is _M:  # trailing arguments omitted: their defaults
            given = (v0, v1)
            if v0 is _M:
                v0 = d0
            if v1 is _M:
                v1 = d1
            if v0 is _M or v1 is _M:  # a required one is missing
                bind(given, kw)  # raises
        store(self, n0, v0)
        store(self, n1, v1)
        if post:
            self.__post_init__()
    return __init__


def _init3(store, names, defaults, bind, post):
    n0, n1, n2 = names
    d0, d1, d2 = defaults

    def __init__(self, v0=_M, v1=_M, v2=_M, /, *more, **kw):
        if kw or more:
            if v0 is _M and len(kw) == 3:  # every argument by keyword
                try:
                    v0 = kw[n0]
                    v1 = kw[n1]
                    v2 = kw[n2]
                except KeyError:  # a name that is not a field
                    v0, v1, v2 = bind((), kw)
            else:
                v0, v1, v2 = bind((v0, v1, v2) + more, kw)
        elif v2 is _M:  # trailing arguments omitted: their defaults
            given = (v0, v1, v2)
            if v0 is _M:
                v0 = d0
            if v1 is _M:
                v1 = d1
            if v2 is _M:
                v2 = d2
            if v0 is _M or v1 is _M or v2 is _M:  # a required one is missing
                bind(given, kw)  # raises
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        if post:
            self.__post_init__()
    return __init__


def _init4(store, names, defaults, bind, post):
    n0, n1, n2, n3 = names
    d0, d1, d2, d3 = defaults

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, /, *more, **kw):
        if kw or more:
            if v0 is _M and len(kw) == 4:  # every argument by keyword
                try:
                    v0 = kw[n0]
                    v1 = kw[n1]
                    v2 = kw[n2]
                    v3 = kw[n3]
                except KeyError:  # a name that is not a field
                    v0, v1, v2, v3 = bind((), kw)
            else:
                v0, v1, v2, v3 = bind((v0, v1, v2, v3) + more, kw)
        elif v3 is _M:  # trailing arguments omitted: their defaults
            given = (v0, v1, v2, v3)
            if v0 is _M:
                v0 = d0
            if v1 is _M:
                v1 = d1
            if v2 is _M:
                v2 = d2
            if v3 is _M:
                v3 = d3
            if v0 is _M or v1 is _M or v2 is _M or v3 is _M:  # a required one is missing
                bind(given, kw)  # raises
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        store(self, n3, v3)
        if post:
            self.__post_init__()
    return __init__


def _init5(store, names, defaults, bind, post):
    n0, n1, n2, n3, n4 = names
    d0, d1, d2, d3, d4 = defaults

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M, /, *more, **kw):
        if kw or more:
            if v0 is _M and len(kw) == 5:  # every argument by keyword
                try:
                    v0 = kw[n0]
                    v1 = kw[n1]
                    v2 = kw[n2]
                    v3 = kw[n3]
                    v4 = kw[n4]
                except KeyError:  # a name that is not a field
                    v0, v1, v2, v3, v4 = bind((), kw)
            else:
                v0, v1, v2, v3, v4 = bind((v0, v1, v2, v3, v4) + more, kw)
        elif v4 is _M:  # trailing arguments omitted: their defaults
            given = (v0, v1, v2, v3, v4)
            if v0 is _M:
                v0 = d0
            if v1 is _M:
                v1 = d1
            if v2 is _M:
                v2 = d2
            if v3 is _M:
                v3 = d3
            if v4 is _M:
                v4 = d4
            # a required one is missing
            if v0 is _M or v1 is _M or v2 is _M or v3 is _M or v4 is _M:
                bind(given, kw)  # raises
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        store(self, n3, v3)
        store(self, n4, v4)
        if post:
            self.__post_init__()
    return __init__


def _init6(store, names, defaults, bind, post):
    n0, n1, n2, n3, n4, n5 = names
    d0, d1, d2, d3, d4, d5 = defaults

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M, v5=_M, /, *more, **kw):
        if kw or more:
            if v0 is _M and len(kw) == 6:  # every argument by keyword
                try:
                    v0 = kw[n0]
                    v1 = kw[n1]
                    v2 = kw[n2]
                    v3 = kw[n3]
                    v4 = kw[n4]
                    v5 = kw[n5]
                except KeyError:  # a name that is not a field
                    v0, v1, v2, v3, v4, v5 = bind((), kw)
            else:
                v0, v1, v2, v3, v4, v5 = bind((v0, v1, v2, v3, v4, v5) + more, kw)
        elif v5 is _M:  # trailing arguments omitted: their defaults
            given = (v0, v1, v2, v3, v4, v5)
            if v0 is _M:
                v0 = d0
            if v1 is _M:
                v1 = d1
            if v2 is _M:
                v2 = d2
            if v3 is _M:
                v3 = d3
            if v4 is _M:
                v4 = d4
            if v5 is _M:
                v5 = d5
            if (v0 is _M or v1 is _M or v2 is _M or v3 is _M or v4 is _M
                    or v5 is _M):  # a required one is missing
                bind(given, kw)  # raises
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        store(self, n3, v3)
        store(self, n4, v4)
        store(self, n5, v5)
        if post:
            self.__post_init__()
    return __init__


def _init7(store, names, defaults, bind, post):
    n0, n1, n2, n3, n4, n5, n6 = names
    d0, d1, d2, d3, d4, d5, d6 = defaults

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M, v5=_M, v6=_M, /, *more, **kw):
        if kw or more:
            if v0 is _M and len(kw) == 7:  # every argument by keyword
                try:
                    v0 = kw[n0]
                    v1 = kw[n1]
                    v2 = kw[n2]
                    v3 = kw[n3]
                    v4 = kw[n4]
                    v5 = kw[n5]
                    v6 = kw[n6]
                except KeyError:  # a name that is not a field
                    v0, v1, v2, v3, v4, v5, v6 = bind((), kw)
            else:
                v0, v1, v2, v3, v4, v5, v6 = bind((v0, v1, v2, v3, v4, v5, v6) + more, kw)
        elif v6 is _M:  # trailing arguments omitted: their defaults
            given = (v0, v1, v2, v3, v4, v5, v6)
            if v0 is _M:
                v0 = d0
            if v1 is _M:
                v1 = d1
            if v2 is _M:
                v2 = d2
            if v3 is _M:
                v3 = d3
            if v4 is _M:
                v4 = d4
            if v5 is _M:
                v5 = d5
            if v6 is _M:
                v6 = d6
            if (v0 is _M or v1 is _M or v2 is _M or v3 is _M or v4 is _M
                    or v5 is _M or v6 is _M):  # a required one is missing
                bind(given, kw)  # raises
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        store(self, n3, v3)
        store(self, n4, v4)
        store(self, n5, v5)
        store(self, n6, v6)
        if post:
            self.__post_init__()
    return __init__


def _init8(store, names, defaults, bind, post):
    n0, n1, n2, n3, n4, n5, n6, n7 = names
    d0, d1, d2, d3, d4, d5, d6, d7 = defaults

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M, v5=_M, v6=_M, v7=_M, /, *more, **kw):
        if kw or more:
            if v0 is _M and len(kw) == 8:  # every argument by keyword
                try:
                    v0 = kw[n0]
                    v1 = kw[n1]
                    v2 = kw[n2]
                    v3 = kw[n3]
                    v4 = kw[n4]
                    v5 = kw[n5]
                    v6 = kw[n6]
                    v7 = kw[n7]
                except KeyError:  # a name that is not a field
                    v0, v1, v2, v3, v4, v5, v6, v7 = bind((), kw)
            else:
                v0, v1, v2, v3, v4, v5, v6, v7 = bind((v0, v1, v2, v3, v4, v5, v6, v7) + more, kw)
        elif v7 is _M:  # trailing arguments omitted: their defaults
            given = (v0, v1, v2, v3, v4, v5, v6, v7)
            if v0 is _M:
                v0 = d0
            if v1 is _M:
                v1 = d1
            if v2 is _M:
                v2 = d2
            if v3 is _M:
                v3 = d3
            if v4 is _M:
                v4 = d4
            if v5 is _M:
                v5 = d5
            if v6 is _M:
                v6 = d6
            if v7 is _M:
                v7 = d7
            if (v0 is _M or v1 is _M or v2 is _M or v3 is _M or v4 is _M
                    or v5 is _M or v6 is _M or v7 is _M):  # a required one is missing
                bind(given, kw)  # raises
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        store(self, n3, v3)
        store(self, n4, v4)
        store(self, n5, v5)
        store(self, n6, v6)
        store(self, n7, v7)
        if post:
            self.__post_init__()
    return __init__


def _init9(store, names, defaults, bind, post):
    n0, n1, n2, n3, n4, n5, n6, n7, n8 = names
    d0, d1, d2, d3, d4, d5, d6, d7, d8 = defaults

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M,
                 v5=_M, v6=_M, v7=_M, v8=_M, /, *more, **kw):
        if kw or more:
            if v0 is _M and len(kw) == 9:  # every argument by keyword
                try:
                    v0 = kw[n0]
                    v1 = kw[n1]
                    v2 = kw[n2]
                    v3 = kw[n3]
                    v4 = kw[n4]
                    v5 = kw[n5]
                    v6 = kw[n6]
                    v7 = kw[n7]
                    v8 = kw[n8]
                except KeyError:  # a name that is not a field
                    v0, v1, v2, v3, v4, v5, v6, v7, v8 = bind((), kw)
            else:
                v0, v1, v2, v3, v4, v5, v6, v7, v8 = bind(
                    (v0, v1, v2, v3, v4, v5, v6, v7, v8) + more, kw)
        elif v8 is _M:  # trailing arguments omitted: their defaults
            given = (v0, v1, v2, v3, v4, v5, v6, v7, v8)
            if v0 is _M:
                v0 = d0
            if v1 is _M:
                v1 = d1
            if v2 is _M:
                v2 = d2
            if v3 is _M:
                v3 = d3
            if v4 is _M:
                v4 = d4
            if v5 is _M:
                v5 = d5
            if v6 is _M:
                v6 = d6
            if v7 is _M:
                v7 = d7
            if v8 is _M:
                v8 = d8
            if (v0 is _M or v1 is _M or v2 is _M or v3 is _M or v4 is _M
                    or v5 is _M or v6 is _M or v7 is _M or v8 is _M):  # a required one is missing
                bind(given, kw)  # raises
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        store(self, n3, v3)
        store(self, n4, v4)
        store(self, n5, v5)
        store(self, n6, v6)
        store(self, n7, v7)
        store(self, n8, v8)
        if post:
            self.__post_init__()
    return __init__


def _init10(store, names, defaults, bind, post):
    n0, n1, n2, n3, n4, n5, n6, n7, n8, n9 = names
    d0, d1, d2, d3, d4, d5, d6, d7, d8, d9 = defaults

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M,
                 v5=_M, v6=_M, v7=_M, v8=_M, v9=_M, /, *more, **kw):
        if kw or more:
            if v0 is _M and len(kw) == 10:  # every argument by keyword
                try:
                    v0 = kw[n0]
                    v1 = kw[n1]
                    v2 = kw[n2]
                    v3 = kw[n3]
                    v4 = kw[n4]
                    v5 = kw[n5]
                    v6 = kw[n6]
                    v7 = kw[n7]
                    v8 = kw[n8]
                    v9 = kw[n9]
                except KeyError:  # a name that is not a field
                    v0, v1, v2, v3, v4, v5, v6, v7, v8, v9 = bind((), kw)
            else:
                v0, v1, v2, v3, v4, v5, v6, v7, v8, v9 = bind(
                    (v0, v1, v2, v3, v4, v5, v6, v7, v8, v9) + more, kw)
        elif v9 is _M:  # trailing arguments omitted: their defaults
            given = (v0, v1, v2, v3, v4, v5, v6, v7, v8, v9)
            if v0 is _M:
                v0 = d0
            if v1 is _M:
                v1 = d1
            if v2 is _M:
                v2 = d2
            if v3 is _M:
                v3 = d3
            if v4 is _M:
                v4 = d4
            if v5 is _M:
                v5 = d5
            if v6 is _M:
                v6 = d6
            if v7 is _M:
                v7 = d7
            if v8 is _M:
                v8 = d8
            if v9 is _M:
                v9 = d9
            # a required one is missing
            if (v0 is _M or v1 is _M or v2 is _M or v3 is _M or v4 is _M
                    or v5 is _M or v6 is _M or v7 is _M or v8 is _M or v9 is _M):
                bind(given, kw)  # raises
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        store(self, n3, v3)
        store(self, n4, v4)
        store(self, n5, v5)
        store(self, n6, v6)
        store(self, n7, v7)
        store(self, n8, v8)
        store(self, n9, v9)
        if post:
            self.__post_init__()
    return __init__


TEMPLATES = (_init0, _init1, _init2, _init3, _init4, _init5, _init6, _init7, _init8,
             _init9, _init10)


# -- __eq__ ---------------------------------------------------------------------
# 3.13's ``self.a == other.a and self.b == other.b ...``: no identity shortcut per
# field, the first false result (or the last result) returned as it is. The
# values come from one ``values`` (attrgetter) call per side; should that raise
# (an unset field, a failing descriptor), ``lazy`` redoes it field by field, so
# the error surfaces only where the stdlib's would.


def _eq0(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            return True
        return NotImplemented
    return __eq__


def _eq1(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            try:
                a0, = values(self)
                b0, = values(other)
            except Exception:
                return lazy(self, other)
            return a0 == b0
        return NotImplemented
    return __eq__


def _eq2(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            try:
                a0, a1 = values(self)
                b0, b1 = values(other)
            except Exception:
                return lazy(self, other)
            return a0 == b0 and a1 == b1
        return NotImplemented
    return __eq__


def _eq3(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            try:
                a0, a1, a2 = values(self)
                b0, b1, b2 = values(other)
            except Exception:
                return lazy(self, other)
            return a0 == b0 and a1 == b1 and a2 == b2
        return NotImplemented
    return __eq__


def _eq4(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            try:
                a0, a1, a2, a3 = values(self)
                b0, b1, b2, b3 = values(other)
            except Exception:
                return lazy(self, other)
            return a0 == b0 and a1 == b1 and a2 == b2 and a3 == b3
        return NotImplemented
    return __eq__


def _eq5(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            try:
                a0, a1, a2, a3, a4 = values(self)
                b0, b1, b2, b3, b4 = values(other)
            except Exception:
                return lazy(self, other)
            return (a0 == b0 and a1 == b1 and a2 == b2 and a3 == b3
                    and a4 == b4)
        return NotImplemented
    return __eq__


def _eq6(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            try:
                a0, a1, a2, a3, a4, a5 = values(self)
                b0, b1, b2, b3, b4, b5 = values(other)
            except Exception:
                return lazy(self, other)
            return (a0 == b0 and a1 == b1 and a2 == b2 and a3 == b3
                    and a4 == b4 and a5 == b5)
        return NotImplemented
    return __eq__


def _eq7(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            try:
                a0, a1, a2, a3, a4, a5, a6 = values(self)
                b0, b1, b2, b3, b4, b5, b6 = values(other)
            except Exception:
                return lazy(self, other)
            return (a0 == b0 and a1 == b1 and a2 == b2 and a3 == b3
                    and a4 == b4 and a5 == b5 and a6 == b6)
        return NotImplemented
    return __eq__


def _eq8(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            try:
                a0, a1, a2, a3, a4, a5, a6, a7 = values(self)
                b0, b1, b2, b3, b4, b5, b6, b7 = values(other)
            except Exception:
                return lazy(self, other)
            return (a0 == b0 and a1 == b1 and a2 == b2 and a3 == b3
                    and a4 == b4 and a5 == b5 and a6 == b6 and a7 == b7)
        return NotImplemented
    return __eq__


def _eq9(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            try:
                a0, a1, a2, a3, a4, a5, a6, a7, a8 = values(self)
                b0, b1, b2, b3, b4, b5, b6, b7, b8 = values(other)
            except Exception:
                return lazy(self, other)
            return (a0 == b0 and a1 == b1 and a2 == b2 and a3 == b3
                    and a4 == b4 and a5 == b5 and a6 == b6 and a7 == b7
                    and a8 == b8)
        return NotImplemented
    return __eq__


def _eq10(values, lazy):
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            try:
                a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 = values(self)
                b0, b1, b2, b3, b4, b5, b6, b7, b8, b9 = values(other)
            except Exception:
                return lazy(self, other)
            return (a0 == b0 and a1 == b1 and a2 == b2 and a3 == b3
                    and a4 == b4 and a5 == b5 and a6 == b6 and a7 == b7
                    and a8 == b8 and a9 == b9)
        return NotImplemented
    return __eq__


EQ_TEMPLATES = (_eq0, _eq1, _eq2, _eq3, _eq4, _eq5, _eq6, _eq7, _eq8, _eq9, _eq10)
