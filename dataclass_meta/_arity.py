"""``__init__`` templates, one per arity: the fast path of the generated ``__init__``.

Plain source, one function per parameter count, so that a call with every
argument given positionally costs one check and one ``store`` per field, with no
loop (``store`` is ``setattr``, or ``object.__setattr__`` when frozen).
Parameters are positional-only and default to ``MISSING_ARG``: a call that
omits one, passes keywords (``**kw``) or too many arguments (``*more``) gets its
values from the class's ``bind``, which binds them as the interpreter would
bind ``def __init__(self, x, y=0)`` (or raises its ``TypeError``).
"""

MISSING_ARG = object()  # a parameter not given; never visible to callers
_M = MISSING_ARG


def _init0(store, names, bind, post):
    def __init__(self, /, *more, **kw):
        if kw or more:
            bind(more, kw)  # raises: nothing to bind
        if post:
            self.__post_init__()
    return __init__


def _init1(store, names, bind, post):
    n0, = names

    def __init__(self, v0=_M, /, *more, **kw):
        if kw or more or v0 is _M:
            v0, = bind((v0,) + more, kw)
        store(self, n0, v0)
        if post:
            self.__post_init__()
    return __init__


def _init2(store, names, bind, post):
    n0, n1 = names

    def __init__(self, v0=_M, v1=_M, /, *more, **kw):
        if kw or more or v1 is _M:
            v0, v1 = bind((v0, v1) + more, kw)
        store(self, n0, v0)
        store(self, n1, v1)
        if post:
            self.__post_init__()
    return __init__


def _init3(store, names, bind, post):
    n0, n1, n2 = names

    def __init__(self, v0=_M, v1=_M, v2=_M, /, *more, **kw):
        if kw or more or v2 is _M:
            v0, v1, v2 = bind((v0, v1, v2) + more, kw)
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        if post:
            self.__post_init__()
    return __init__


def _init4(store, names, bind, post):
    n0, n1, n2, n3 = names

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, /, *more, **kw):
        if kw or more or v3 is _M:
            v0, v1, v2, v3 = bind((v0, v1, v2, v3) + more, kw)
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        store(self, n3, v3)
        if post:
            self.__post_init__()
    return __init__


def _init5(store, names, bind, post):
    n0, n1, n2, n3, n4 = names

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M, /, *more, **kw):
        if kw or more or v4 is _M:
            v0, v1, v2, v3, v4 = bind((v0, v1, v2, v3, v4) + more, kw)
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        store(self, n3, v3)
        store(self, n4, v4)
        if post:
            self.__post_init__()
    return __init__


def _init6(store, names, bind, post):
    n0, n1, n2, n3, n4, n5 = names

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M, v5=_M, /, *more, **kw):
        if kw or more or v5 is _M:
            v0, v1, v2, v3, v4, v5 = bind((v0, v1, v2, v3, v4, v5) + more, kw)
        store(self, n0, v0)
        store(self, n1, v1)
        store(self, n2, v2)
        store(self, n3, v3)
        store(self, n4, v4)
        store(self, n5, v5)
        if post:
            self.__post_init__()
    return __init__


def _init7(store, names, bind, post):
    n0, n1, n2, n3, n4, n5, n6 = names

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M, v5=_M, v6=_M, /, *more, **kw):
        if kw or more or v6 is _M:
            v0, v1, v2, v3, v4, v5, v6 = bind((v0, v1, v2, v3, v4, v5, v6) + more, kw)
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


def _init8(store, names, bind, post):
    n0, n1, n2, n3, n4, n5, n6, n7 = names

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M, v5=_M, v6=_M, v7=_M, /, *more, **kw):
        if kw or more or v7 is _M:
            v0, v1, v2, v3, v4, v5, v6, v7 = bind((v0, v1, v2, v3, v4, v5, v6, v7) + more, kw)
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


def _init9(store, names, bind, post):
    n0, n1, n2, n3, n4, n5, n6, n7, n8 = names

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M, v5=_M, v6=_M, v7=_M, v8=_M, /, *more, **kw):
        if kw or more or v8 is _M:
            v0, v1, v2, v3, v4, v5, v6, v7, v8 = bind((v0, v1, v2, v3, v4, v5, v6, v7, v8) + more, kw)
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


def _init10(store, names, bind, post):
    n0, n1, n2, n3, n4, n5, n6, n7, n8, n9 = names

    def __init__(self, v0=_M, v1=_M, v2=_M, v3=_M, v4=_M, v5=_M, v6=_M, v7=_M, v8=_M, v9=_M, /, *more, **kw):
        if kw or more or v9 is _M:
            v0, v1, v2, v3, v4, v5, v6, v7, v8, v9 = bind((v0, v1, v2, v3, v4, v5, v6, v7, v8, v9) + more, kw)
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
