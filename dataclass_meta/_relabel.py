"""A template of ``_templates`` made a class's method by relabelling its names.

``relabel`` calls a template factory with the values the method keeps (its
closure), then replaces the placeholder names ``f0``, ``f1``, ... of the method's
code object by the class's field names: in ``co_names`` (the attributes it reads
and stores) and ``co_varnames`` (``__init__``'s parameters), and sets its
``co_name`` and ``co_qualname``. Nothing else of the code changes: its bytecode is
the one Python compiled from ``_templates.py``, so no source text is made and
nothing is compiled, evaluated or executed. The interpreter then runs the method
as it runs a method written out by hand, attribute-access specialisation and
argument binding included.

Where a template cannot serve, ``relabel`` returns None and the caller makes
its plain closure instead: more fields than the largest template, a field
whose name is one of the template's own (``_setattr``, ``_n0``, ...), a name
that is not a plain ``str``, or an audit hook that refuses the new code object
(relabelling raises the ``code.__new__`` audit event).
"""

import sys
from types import FunctionType

_templates = None  # the module, imported on first use (~0.5 ms)
_SPOTS = {}  # template code -> (co_names spots, co_varnames spots): (index, field)
_HAS_QUALNAME = sys.version_info >= (3, 11)  # 3.11+: code objects have co_qualname


def templates():
    """``_templates``, imported when a class first needs it."""
    global _templates
    if _templates is None:
        from . import _templates as module
        _templates = module
    return _templates


def relabel(table, names, qualname, values=(), self_name='self', defaults=None,
            globals_=None):
    """``table[len(names)](*values)`` with field ``i`` renamed ``names[i]``, named
    ``qualname``; None where no template can serve (see the module's docstring).

    ``self_name``: what ``__init__`` calls its first parameter (the stdlib's
    ``__dataclass_self__`` when a field is named ``self``); ``defaults``: the
    function's ``__defaults__``; ``globals_``: its ``__globals__`` (the
    template module's by default, where the builtins it uses are never shadowed).
    """
    if len(names) >= len(table):
        return None
    method = table[len(names)](*values)
    code = method.__code__
    spots = _SPOTS.get(code)
    if spots is None:
        spots = _SPOTS[code] = (_placeholders(code.co_names), _placeholders(code.co_varnames))
    co_names, co_varnames = list(code.co_names), list(code.co_varnames)
    for index, field in spots[0]:
        co_names[index] = names[field]
    for index, field in spots[1]:
        co_varnames[index] = names[field]
    if co_varnames and co_varnames[0] == 'self':
        co_varnames[0] = self_name
    own = code.co_freevars + code.co_cellvars
    if own and not frozenset(own).isdisjoint(names):
        return None  # a field named like a value the method keeps
    changes = {'co_names': tuple(co_names), 'co_varnames': tuple(co_varnames)}
    if _HAS_QUALNAME:
        changes['co_qualname'] = qualname
    try:
        code = code.replace(**changes)
    except Exception:  # an audit hook refusing code.__new__; a str subclass name
        return None
    function = FunctionType(code, method.__globals__ if globals_ is None else globals_,
                            code.co_name, defaults, method.__closure__)
    function.__qualname__ = qualname
    return function


def _placeholders(names):
    """``(index, field)`` for each ``f<field>`` in ``names``."""
    return tuple((i, int(name[1:])) for i, name in enumerate(names)
                 if name[:1] == 'f' and name[1:].isdigit())


def is_template(function):
    """Whether ``function`` was relabelled from a template here."""
    return (_templates is not None and type(function) is FunctionType
            and function.__code__.co_filename == _templates.__file__)


def binds_as(function, names):
    """Whether ``function`` is a relabelled ``__init__`` whose parameters after
    ``self`` are ``names``, in order: then a call passing their values
    positionally binds as one passing them by name."""
    if not is_template(function):
        return False
    code = function.__code__
    return code.co_name == '__init__' and code.co_varnames[1:code.co_argcount] == tuple(names)
