"""pydantic's view of a class with converters, validators or aliases.

pydantic builds a stdlib data class from validated fields without calling its
``__init__`` (it sets the attributes, then calls ``__post_init__``), which would
skip our converters and validators and ignore our aliases. On such a class only,
the pipeline sets ``__get_pydantic_core_schema__``, pydantic's public hook: the
schema it returns validates a mapping of the ``__init__`` fields (each by its
field name, or its alias) and calls the class, so ``__init__`` converts,
validates and calls ``__post_init__``; an instance of the class passes as it is;
dumping gives the fields by name, each as pydantic dumps its type. A class
without any of the three never gets the hook: pydantic makes its own schema.

pydantic is imported only when pydantic itself calls the hook.
"""

from dataclasses import MISSING

from ._convert import given, param_name
from ._fields import FIELD, INITVAR, default_of

HOOK = '__get_pydantic_core_schema__'


def core_schema(cls, source, handler):
    """``__get_pydantic_core_schema__``: the class called with validated
    arguments (pydantic's own schema for a class whose fields, after a hook
    of a subclass, have none of the three, and for a parametrized generic)."""
    fields = list(getattr(cls, '__dataclass_fields__', {}).values())
    if source is cls:
        types = {}
    elif getattr(source, '__origin__', None) is cls:  # Box[int]: T is int
        types = dict(zip(getattr(cls, '__parameters__', ()), source.__args__))
    else:
        return handler(source)
    if not any(map(given, fields)):
        return handler(source)
    from pydantic_core import core_schema as cs  # only where pydantic asks
    import threading
    ref = f'{cls.__module__}.{cls.__qualname__}:{id(cls)}{source if types else ""}'
    building = (threading.get_ident(), ref)
    if building in _BUILDING:  # a field's type names the class: refer to it
        return cs.definition_reference_schema(ref)
    _BUILDING.add(building)
    try:
        return _schema(cls, fields, cs, handler, ref, types)
    finally:
        _BUILDING.discard(building)


# (thread, ref) of the schemas being made, for classes whose fields refer back
_BUILDING = set()


def _schema(cls, fields, cs, handler, ref, types):
    hints = _type_hints(cls)
    params, inputs, outputs = {}, {}, {}
    for f in fields:
        tp = _substituted(hints.get(f.name, f.type), types)
        if f._field_type is FIELD:
            outputs[f.name] = cs.typed_dict_field(handler.generate_schema(tp))
        if not f.init or f._field_type not in (FIELD, INITVAR):
            continue
        if f._field_type is INITVAR:
            tp = getattr(tp, 'type', tp)  # InitVar[int]: an int
        name = params[f.name] = param_name(f)
        # a converter takes what it is given: its input is not the field's type
        schema = cs.any_schema() if f.converter is not None else handler.generate_schema(tp)
        inputs[f.name] = cs.typed_dict_field(
            schema, required=default_of(f) is MISSING,
            validation_alias=None if name == f.name else [[f.name], [name]])

    def build(values):
        return cls(**{params[key]: value for key, value in values.items()})

    def passing_instances(value, validate):
        return value if isinstance(value, cls) else validate(value)

    def as_fields(instance):
        return {name: getattr(instance, name) for name in outputs}

    # pydantic names a function's schema by it: function-wrap[Point()] in errors
    passing_instances.__name__ = build.__name__ = cls.__qualname__
    call = cs.no_info_after_validator_function(
        build, cs.typed_dict_schema(inputs, extra_behavior='ignore'))
    return cs.no_info_wrap_validator_function(
        passing_instances, call, ref=ref,
        serialization=cs.plain_serializer_function_ser_schema(
            as_fields, return_schema=cs.typed_dict_schema(outputs)))


def _substituted(tp, types):
    """``tp`` with the type variables in ``types`` replaced (``list[T]``: ``list[int]``)."""
    if not types:
        return tp
    try:
        if tp in types:
            return types[tp]
        variables = getattr(tp, '__parameters__', None)
        return tp[tuple(types.get(v, v) for v in variables)] if variables else tp
    except TypeError:  # an unhashable annotation, or one that takes no arguments
        return tp


def _type_hints(cls):
    """The fields' types as ``typing.get_type_hints`` resolves them, or ``{}``
    where a name cannot be resolved yet (pydantic then resolves ``f.type``)."""
    import typing  # pydantic has imported it already
    try:
        return typing.get_type_hints(cls)
    except Exception:  # a forward reference not yet defined, say
        return {}


def wants_hook(cls):
    """Whether the pipeline sets the hook on ``cls``, a class with converters,
    validators or aliases: neither it nor a base defines a hook of its own."""
    own = getattr(cls, HOOK, None)
    return own is None or getattr(own, '__func__', None) is core_schema
