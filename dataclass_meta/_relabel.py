"""A template of ``_templates`` made a class's method by relabelling its names.

``relabel`` calls a template factory with the values the method keeps (its
closure), then replaces the placeholder names ``f0``, ``f1``, ... of the method's
code object by the class's field names: in ``co_names`` (the attributes it reads
and stores) and ``co_varnames`` (``__init__``'s parameters). Nothing else of the
code changes: its bytecode is the one Python compiled from ``_templates.py``, so
no source text is made and nothing is compiled, evaluated or executed. The
interpreter then runs the method as it runs a method written out by hand,
attribute-access specialisation and argument binding included. (The code keeps
its template's ``co_qualname``, ``eq_5.<locals>.__eq__`` say, which is what a
traceback shows; the function is named for its class.)

Where a template cannot serve, ``relabel`` returns None and the caller makes
its plain closure instead: more fields than the largest template, a field
whose name is one of the template's own (``_setattr``, ``_n0``, ...), a name
that is not a plain ``str``, or an audit hook that refuses the new code object
(relabelling raises the ``code.__new__`` audit event).
"""

from _operator import itemgetter  # operator's own; importing operator costs on 3.15
from types import FunctionType

_templates = None  # the module, imported on first use (~0.5 ms)
_RECIPES = {}  # template factory -> _Recipe


def templates():
    """``_templates``, imported when a class first needs it."""
    global _templates
    if _templates is None:
        from . import _templates as module
        _templates = module
    return _templates


def _placeholder(name):
    return name[:1] == 'f' and name[1:].isdigit()


class _Recipe:
    """How one template's code takes a class's names, worked out on first use.

    ``names(items)`` and ``varnames(items)`` pick the new ``co_names`` and
    ``co_varnames`` (None: kept) from ``items = (*fields, self_name, *fixed)`` in
    one C call each (``fixed``: the template's own names); ``own``: the names of the values
    the method keeps, which no field may take; ``code``: the template's code,
    where it keeps no values (then one code and no factory call serve).
    """

    __slots__ = ('names', 'varnames', 'fixed', 'own', 'code')

    def __init__(self, method, count):
        code = method.__code__
        self.code = None if method.__closure__ else code
        self.own = frozenset(code.co_freevars + code.co_cellvars)
        fixed = []
        self.names = self._picker(code.co_names, count, fixed)
        # None where no parameter is a field's (all but __init__): kept as it is
        self.varnames = (self._picker(code.co_varnames, count, fixed)
                         if any(map(_placeholder, code.co_varnames)) else None)
        self.fixed = tuple(fixed)

    @staticmethod
    def _picker(names, count, fixed):
        picks = []
        for name in names:
            if _placeholder(name):
                picks.append(int(name[1:]))
            elif name == 'self':
                picks.append(count)  # self_name, given per call
            else:
                picks.append(count + 1 + len(fixed))
                fixed.append(name)
        if len(picks) > 1:
            return itemgetter(*picks)
        if picks:
            pick = picks[0]
            return lambda items: (items[pick],)
        return lambda items: ()


def relabel(table, names, values=(), self_name='self', defaults=None, globals_=None):
    """``table[len(names)](*values)`` with field ``i`` renamed ``names[i]`` (for
    ``attach`` to name after its class); None where no template can serve (see
    the module's docstring).

    ``self_name``: what ``__init__`` calls its first parameter (the stdlib's
    ``__dataclass_self__`` when a field is named ``self``); ``defaults``: the
    function's ``__defaults__``; ``globals_``: its ``__globals__`` (the
    template module's by default, where the builtins it uses are never shadowed).
    """
    count = len(names)
    if count >= len(table):
        return None
    factory = table[count]
    recipe = _RECIPES.get(factory)
    method = None
    if recipe is None or recipe.code is None:
        method = factory(*values)  # the values it keeps, in fresh cells
        if recipe is None:
            recipe = _RECIPES[factory] = _Recipe(method, count)
    if recipe.own and not recipe.own.isdisjoint(names):
        return None  # a field named like a value the method keeps
    code = recipe.code if method is None else method.__code__
    items = (*names, self_name, *recipe.fixed)
    try:
        code = (code.replace(co_names=recipe.names(items)) if recipe.varnames is None else
                code.replace(co_names=recipe.names(items), co_varnames=recipe.varnames(items)))
    except Exception:  # an audit hook refusing code.__new__; a str subclass name
        return None
    return FunctionType(code, _templates.__dict__ if globals_ is None else globals_,
                        code.co_name, defaults, None if method is None else method.__closure__)


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
