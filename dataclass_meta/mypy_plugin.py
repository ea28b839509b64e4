"""mypy plugin: options stated on a data class are inherited by its subclasses.

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

The package never imports this module; mypy does, when configured to.
"""

from mypy.nodes import CallExpr, DataclassTransformSpec, RefExpr, TypeInfo
from mypy.plugin import ClassDefContext, Plugin
from mypy.semanal_shared import find_dataclass_transform_spec, parse_bool

_DATACLASS = 'dataclass_meta.DataClass'
_TRANSFORM = ('typing.dataclass_transform', 'typing_extensions.dataclass_transform')
# The options PEP 681 lets a transform default, with PEP 681's defaults.
_PEP_DEFAULTS = {'eq': True, 'order': False, 'kw_only': False, 'frozen': False}
# info.metadata key: {'declared': {option: value}} on a declaring base.
_KEY = 'dataclass_meta'


class DataClassMetaPlugin(Plugin):
    """Runs :func:`inherit_options` on every class with a base."""

    def get_base_class_hook(self, fullname):
        return inherit_options


def plugin(version):
    """mypy's entry point."""
    return DataClassMetaPlugin


def inherit_options(ctx: ClassDefContext) -> None:
    """Give ``ctx.cls`` the spec its subclasses should inherit (see the module doc)."""
    info = ctx.cls.info
    if info.fullname == _DATACLASS or not any(b.fullname == _DATACLASS for b in info.mro[1:]):
        return
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


# Our class keywords beyond PEP 681's (cache_hash, gc): True or False, and
# cache_hash=True needs a generated __hash__ (frozen, or unsafe_hash here or above).
_OURS = ('cache_hash', 'gc')


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
