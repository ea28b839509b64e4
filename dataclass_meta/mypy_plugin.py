"""mypy plugin: options stated on a data class are inherited by its subclasses, and
converted fields take their converter's input.

Enable it in the mypy configuration (``plugins = dataclass_meta.mypy_plugin``).
At runtime ``class Release(Version)`` takes ``Version``'s ``frozen=True``; PEP 681,
which mypy follows, applies a class keyword to that class only. mypy takes the
``*_default`` values of a subclass from the nearest base that carries a
``dataclass_transform`` spec, so this plugin gives every data class a spec
whose defaults are what a subclass stating nothing gets at runtime:

    nearest declaring base's default  >  the class's own option

(the nearest base with its own ``dataclass_transform(...)`` decides, with the
defaults it names that differ from PEP 681's). The class's own option is its keyword or, without one,
what mypy resolved for it from its parent's spec, so the rule applies down the
tree as the runtime applies it. It covers the four options PEP 681 gives
defaults to: ``eq``, ``order``, ``kw_only``, ``frozen``.

It also types ``field(converter=f)``, which mypy's data-class support leaves
out: the ``__init__`` parameter of a converted field takes ``f``'s input (the
type of its first parameter; for a class, of its constructor's; for an
overloaded one, the union over the overloads callable with one argument; for an
unannotated function, a lambda or any other expression, ``Any``), and so does
assignment to the attribute of a non-frozen class, as the typing spec's
``converter`` says. The field's own type stays the attribute's type. mypy makes
``__init__`` before any plugin hook could change it, so the plugin changes its
signature where it is called: at a call of the class (``S(port="80")``), of
``replace()`` (ours or ``dataclasses.replace``), ``copy.replace()`` and
``__replace__``. Other uses of the class as a callable (passed to ``map()``,
``super().__init__``) keep the attribute types.

The package never imports this module; mypy does, when configured to.
"""

from functools import partial

from mypy.erasetype import erase_typevars
from mypy.expandtype import expand_type_by_instance
from mypy.nodes import (
    ARG_OPT, ARG_POS, ARG_STAR, AssignmentStmt, CallExpr, DataclassTransformSpec, FuncDef,
    NameExpr, OverloadedFuncDef, RefExpr, TypeInfo,
)
from mypy.plugin import ClassDefContext, Plugin
from mypy.plugins.dataclasses import replace_function_sig_callback
from mypy.semanal_shared import find_dataclass_transform_spec, parse_bool
from mypy.typeops import make_simplified_union, type_object_type
from mypy.types import AnyType, CallableType, Instance, Overloaded, TypeOfAny, get_proper_type

_DATACLASS = 'dataclass_meta.DataClass'
_TRANSFORM = ('typing.dataclass_transform', 'typing_extensions.dataclass_transform')
# The options PEP 681 lets a transform default, with PEP 681's defaults.
_PEP_DEFAULTS = {'eq': True, 'order': False, 'kw_only': False, 'frozen': False}
# info.metadata key: {'declared': {option: value}} on a declaring base.
_KEY = 'dataclass_meta'


class DataClassMetaPlugin(Plugin):
    """Runs :func:`inherit_options` on every class with a base, and gives the
    calls and assignments of converted fields the converter's input type."""

    def get_base_class_hook(self, fullname):
        return inherit_options

    def get_function_signature_hook(self, fullname):
        if fullname in _REPLACE:
            return partial(_replace_signature, self)
        if fullname == 'copy.replace':
            return partial(_copy_replace_signature, self)
        info = self._data_class(fullname)
        if info is None:
            return None
        params = init_converters(self, info)
        return partial(_converted_call, params) if params else None

    def get_method_signature_hook(self, fullname):
        owner, _, name = fullname.rpartition('.')
        if name != '__replace__' or self._data_class(owner) is None:
            return None
        return partial(_converted_replace, self)

    def get_attribute_hook(self, fullname):
        owner, _, name = fullname.rpartition('.')
        info = self._data_class(owner)
        converter = None if info is None else _converters(info).get(name)
        return None if converter is None else partial(_converted_assignment, self, converter)

    def _data_class(self, fullname):
        """The TypeInfo of a data class with a converter on a field, or None."""
        sym = self.lookup_fully_qualified(fullname) if '.' in fullname else None
        info = sym.node if sym is not None else None
        if isinstance(info, TypeInfo) and _converters(info):
            return info
        return None


def plugin(version):
    """mypy's entry point."""
    return DataClassMetaPlugin


def inherit_options(ctx: ClassDefContext) -> None:
    """Give ``ctx.cls`` the spec its subclasses should inherit (see the module doc)."""
    info = ctx.cls.info
    if info.fullname == _DATACLASS or not any(b.fullname == _DATACLASS for b in info.mro[1:]):
        return
    record_converters(ctx)
    own_decorator = _own_transform(ctx.cls)
    if own_decorator is not None:
        # mypy set the class's spec from its decorator just before this hook.
        declared = info.dataclass_transform_spec
        info.metadata.setdefault(_KEY, {})['declared'] = {
            name: getattr(declared, f'{name}_default') for name, default in _PEP_DEFAULTS.items()
            if getattr(declared, f'{name}_default') != default}
    inherited = find_dataclass_transform_spec(info)  # the parent's (the runtime's parent)
    if inherited is None:
        return
    frozen = _keyword_bool(ctx, 'frozen')
    _check_our_options(ctx, inherited.frozen_default if frozen is None else frozen)
    own_spec = info.dataclass_transform_spec if own_decorator is not None else None
    declaring = _nearest_declared(info)
    defaults = {}
    for name in _PEP_DEFAULTS:
        if name in declaring:
            defaults[f'{name}_default'] = declaring[name]
            continue
        keyword = ctx.cls.keywords.get(name)
        value = parse_bool(keyword) if keyword is not None else None
        defaults[f'{name}_default'] = (
            value if value is not None else getattr(inherited, f'{name}_default'))
    specifiers = (own_spec or inherited).field_specifiers
    info.dataclass_transform_spec = DataclassTransformSpec(
        field_specifiers=specifiers, **defaults)


# Our class keywords beyond PEP 681's (cache_hash, gc, untrack_atomic): True or False, and
# cache_hash=True needs a generated __hash__ (frozen, or unsafe_hash here or above).
_OURS = ('cache_hash', 'gc', 'untrack_atomic')


def _keyword_bool(ctx, name):
    keyword = ctx.cls.keywords.get(name)
    return None if keyword is None else parse_bool(keyword)


def _check_our_options(ctx, frozen):
    """The runtime's errors for ``cache_hash=`` and ``gc=`` that mypy can know."""
    info, keywords = ctx.cls.info, ctx.cls.keywords
    for name in _OURS:
        if name in keywords and parse_bool(keywords[name]) is None:
            ctx.api.fail(f'option {name!r} of data class {info.name!r} must be True or False',
                         keywords[name])
    unsafe_hash = _keyword_bool(ctx, 'unsafe_hash')
    if unsafe_hash is not None:
        info.metadata.setdefault(_KEY, {})['unsafe_hash'] = unsafe_hash
    hashed = frozen and _keyword_bool(ctx, 'eq') is not False or any(
        base.metadata.get(_KEY, {}).get('unsafe_hash') for base in info.mro)
    if _keyword_bool(ctx, 'cache_hash') and not hashed:
        ctx.api.fail(f'data class {info.name!r} has cache_hash=True but no generated '
                     f'__hash__ to cache: make it frozen or pass unsafe_hash=True',
                     keywords['cache_hash'])


def _own_transform(defn):
    """The class's own ``@dataclass_transform(...)`` decorator, if any."""
    for decorator in defn.decorators:
        callee = decorator.callee if isinstance(decorator, CallExpr) else decorator
        if isinstance(callee, RefExpr) and callee.fullname in _TRANSFORM:
            return decorator
    return None


def _nearest_declared(info: TypeInfo):
    """{option: value} declared by the nearest class with its own transform, this one
    included (``DataClass``'s declares nothing), as the runtime reads them."""
    for base in info.mro:
        if base.fullname == _DATACLASS:
            break
        if 'declared' in base.metadata.get(_KEY, {}):
            return base.metadata[_KEY]['declared']
    return {}


# Converters. During semantic analysis each data class records its own fields,
# in info.metadata[_KEY]['fields'] as {name: converter}: None for no converter,
# else the full name of the function or class given as one ('' for any other
# expression: a lambda, a call). Function signatures are analyzed only after the
# class bodies, so the types are read when calls and assignments are checked.
_REPLACE = ('dataclasses.replace', 'dataclass_meta.replace')


def record_converters(ctx: ClassDefContext) -> None:
    """Record the class's own fields and their converters (see above)."""
    info = ctx.cls.info
    spec = find_dataclass_transform_spec(info)
    specifiers = set(spec.field_specifiers) if spec is not None else set()
    own = {}
    for stmt in ctx.cls.defs.body:
        if (isinstance(stmt, AssignmentStmt) and stmt.type is not None
                and len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], NameExpr)):
            converter = _converter_argument(stmt.rvalue, specifiers)
            own[stmt.lvalues[0].name] = (
                None if converter is None
                else converter.fullname or '' if isinstance(converter, RefExpr) else '')
    info.metadata.setdefault(_KEY, {})['fields'] = own


def _converter_argument(rvalue, specifiers):
    """The ``converter=`` expression of a field specifier call, or None."""
    if not (isinstance(rvalue, CallExpr) and isinstance(rvalue.callee, RefExpr)
            and rvalue.callee.fullname in specifiers):
        return None
    for name, arg in zip(rvalue.arg_names, rvalue.args):
        if name == 'converter':
            return arg
    return None


def converter_input_type(plugin, fullname):
    """What the converter named ``fullname`` accepts (see the module doc)."""
    sym = plugin.lookup_fully_qualified(fullname) if '.' in fullname else None
    node = sym.node if sym is not None else None
    if isinstance(node, TypeInfo):
        converter = type_object_type(node)
    elif isinstance(node, (FuncDef, OverloadedFuncDef)):
        converter = node.type
    else:  # a lambda, a call, a decorated function, ...
        converter = None
    converter = get_proper_type(converter)
    if isinstance(converter, CallableType):
        accepted = [_first_parameter(converter)]
    elif isinstance(converter, Overloaded):
        accepted = [_first_parameter(item) for item in converter.items]
    else:
        accepted = []
    accepted = [t for t in accepted if t is not None]
    if not accepted:
        return AnyType(TypeOfAny.unannotated)
    # A generic converter's own type variables mean nothing in __init__.
    return erase_typevars(make_simplified_union(accepted))


def _first_parameter(signature):
    """The type a one-argument call passes to ``signature``, or None if it cannot take one."""
    kinds = signature.arg_kinds
    if not kinds or kinds[0] not in (ARG_POS, ARG_OPT, ARG_STAR):
        return None
    if any(kind == ARG_POS for kind in kinds[1:]):
        return None  # needs a second argument
    return signature.arg_types[0]


def _converters(info):
    """{field: converter} over ``info``'s data-class bases and itself; a field
    declared again without a converter loses it, as at runtime."""
    found = {}
    for base in reversed(info.mro[:-1]):
        for name, converter in base.metadata.get(_KEY, {}).get('fields', {}).items():
            if converter is None:
                found.pop(name, None)
            else:
                found[name] = converter
    return found


def init_converters(plugin, info):
    """{parameter name: converter's input type} for the converted parameters of the
    ``__init__`` that mypy generated for ``info`` or its nearest data-class base."""
    owner = info.get_containing_type_info('__init__')
    if owner is None or not owner.names['__init__'].plugin_generated:
        return {}  # a hand-written __init__: nothing is converted for mypy
    return _converted_params(plugin, owner)


def _converted_params(plugin, info):
    """{parameter name (the alias, if any): input type} over the fields of ``info``."""
    converters = _converters(info)
    attributes = info.metadata.get('dataclass', {}).get('attributes', [])
    return {attr['alias'] or attr['name']: converter_input_type(plugin, converters[attr['name']])
            for attr in attributes if attr['name'] in converters}


def _with_converters(signature, params):
    """``signature`` with the parameters named in ``params`` taking their types."""
    if not params:
        return signature
    return signature.copy_modified(arg_types=[
        params.get(name, typ) if name is not None else typ
        for name, typ in zip(signature.arg_names, signature.arg_types)])


def _converted_call(params, ctx):
    """A call of the class: converted fields take the converter's input."""
    return _with_converters(ctx.default_signature, params)


def _replace_signature(plugin, ctx):
    """``replace(obj, **changes)``: mypy's signature, converted fields widened."""
    signature = replace_function_sig_callback(ctx)
    if signature is ctx.default_signature or not ctx.args[0]:
        return signature
    obj = get_proper_type(ctx.api.get_expression_type(ctx.args[0][0]))
    if not isinstance(obj, Instance):
        return signature
    return _with_converters(signature, _converted_params(plugin, obj.type))


def _copy_replace_signature(plugin, ctx):
    """``copy.replace(obj, **changes)`` (3.13): the object's ``__replace__``, converted
    fields widened (typeshed's signature takes the changes from ``__replace__``'s type)."""
    if not ctx.args or len(ctx.args[0]) != 1:
        return ctx.default_signature
    obj = get_proper_type(ctx.api.get_expression_type(ctx.args[0][0]))
    method = obj.type.get_method('__replace__') if isinstance(obj, Instance) else None
    signature = get_proper_type(method.type) if method is not None else None
    params = _converted_params(plugin, obj.type) if isinstance(signature, CallableType) else {}
    if not params or not signature.arg_types:
        return ctx.default_signature
    signature = expand_type_by_instance(signature, obj)
    return _with_converters(signature.copy_modified(
        arg_types=[obj, *signature.arg_types[1:]], arg_kinds=[ARG_POS, *signature.arg_kinds[1:]],
        arg_names=[None, *signature.arg_names[1:]], ret_type=obj,
        fallback=ctx.default_signature.fallback), params)


def _converted_replace(plugin, ctx):
    """``obj.__replace__(**changes)`` (``copy.replace``), converted fields widened."""
    obj = ctx.type
    if not isinstance(obj, Instance):
        return ctx.default_signature
    return _with_converters(ctx.default_signature, _converted_params(plugin, obj.type))


def _converted_assignment(plugin, converter, ctx):
    """``obj.x = value`` on a non-frozen class takes the converter's input."""
    if not ctx.is_lvalue or not isinstance(ctx.type, Instance):
        return ctx.default_attr_type
    if ctx.type.type.metadata.get('dataclass', {}).get('frozen', True):
        return ctx.default_attr_type
    return converter_input_type(plugin, converter)
