"""What type checkers see of ``dataclass_meta`` (the runtime is ``__init__.py``).

``DataClass`` carries ``typing.dataclass_transform`` (PEP 681), so mypy, pyright
and IDEs synthesize ``__init__``, ordering, ``__match_args__`` and frozen
attributes from its subclasses' fields and class keywords. It is declared on the
base class, not the metaclass: a checker then honours a framework base that
re-declares the transform with its own ``*_default`` values (pyright ignores such
a base when the metaclass carries the transform). Everything else is the
stdlib's typeshed declarations, since the semantics are the same.
"""
import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import (
    KW_ONLY as KW_ONLY,
    MISSING as MISSING,
    FrozenInstanceError as FrozenInstanceError,
    InitVar as InitVar,
    asdict as asdict,
    astuple as astuple,
    is_dataclass as is_dataclass,
    replace as replace,
    _MISSING_TYPE,
)
from typing import Any, ClassVar, Literal, TypeVar, overload
from typing import _ProtocolMeta

from _typeshed import DataclassInstance
from typing_extensions import Self, TypeAlias, dataclass_transform

__all__ = [
    'DataClass', 'DataClassMeta',
    'field', 'Field', 'fields', 'asdict', 'astuple', 'replace',
    'is_dataclass', 'make_dataclass', 'namespace_annotations',
    'MISSING', 'KW_ONLY', 'InitVar', 'FrozenInstanceError',
    'BACKEND', 'describe_backend', 'combined_metaclass',
]
__version__: str
BACKEND: Literal['compiled', 'pure']

def describe_backend() -> str: ...

_T = TypeVar('_T')
_S = TypeVar('_S')

# A validator is called as ``validator(instance, field, value)`` with the
# converted value; what it returns is ignored.
_Validator: TypeAlias = Callable[[Any, Field[Any], _T], object]

class Field(dataclasses.Field[_T]):
    doc: str | None
    # Ours (None: not given): see ``field()``.
    converter: Callable[[Any], _T] | None
    validator: _Validator[_T] | Sequence[_Validator[_T]] | None
    alias: str | None
    def __init__(
        self,
        default: _T | Literal[_MISSING_TYPE.MISSING],
        default_factory: Callable[[], _T] | Literal[_MISSING_TYPE.MISSING],
        init: bool,
        repr: bool,
        hash: bool | None,
        compare: bool,
        metadata: Mapping[Any, Any] | None,
        kw_only: bool | Literal[_MISSING_TYPE.MISSING],
        doc: str | None = None,
        converter: Callable[[Any], _T] | None = None,
        validator: _Validator[_T] | Sequence[_Validator[_T]] | None = None,
        alias: str | None = None,
    ) -> None: ...
    # ``copy.replace(f, ...)`` (3.13+) or ``f.__replace__(...)``: a changed copy.
    def __replace__(
        self,
        /,
        *,
        name: str = ...,
        type: Any = ...,
        default: _T | Literal[_MISSING_TYPE.MISSING] = ...,
        default_factory: Callable[[], _T] | Literal[_MISSING_TYPE.MISSING] = ...,
        init: bool = ...,
        repr: bool = ...,
        hash: bool | None = ...,
        compare: bool = ...,
        metadata: Mapping[Any, Any] | None = ...,
        kw_only: bool | Literal[_MISSING_TYPE.MISSING] = ...,
        doc: str | None = ...,
        converter: Callable[[Any], _T] | None = ...,
        validator: _Validator[_T] | Sequence[_Validator[_T]] | None = ...,
        alias: str | None = ...,
    ) -> Self: ...

# ``field()``: typeshed's overloads of ``dataclasses.field()`` (plus ``doc=``,
# ``validator=`` and ``alias=``), and the same three again with a converter.
# With ``converter: Callable[[_S], _T]`` the field's type is the converter's
# result and ``default`` (or what ``default_factory`` returns) is its input, as
# the typing spec's converter rules say; checkers read the converter itself for
# the ``__init__`` parameter's type (its first parameter's).
@overload
def field(
    *,
    default: _T,
    default_factory: Literal[_MISSING_TYPE.MISSING] = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | Literal[_MISSING_TYPE.MISSING] = ...,
    doc: str | None = None,
    converter: None = None,
    validator: _Validator[_T] | Sequence[_Validator[_T]] | None = None,
    alias: str | None = None,
) -> _T: ...
@overload
def field(
    *,
    default: Literal[_MISSING_TYPE.MISSING] = ...,
    default_factory: Callable[[], _T],
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | Literal[_MISSING_TYPE.MISSING] = ...,
    doc: str | None = None,
    converter: None = None,
    validator: _Validator[_T] | Sequence[_Validator[_T]] | None = None,
    alias: str | None = None,
) -> _T: ...
@overload
def field(
    *,
    default: Literal[_MISSING_TYPE.MISSING] = ...,
    default_factory: Literal[_MISSING_TYPE.MISSING] = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | Literal[_MISSING_TYPE.MISSING] = ...,
    doc: str | None = None,
    converter: None = None,
    validator: _Validator[Any] | Sequence[_Validator[Any]] | None = None,
    alias: str | None = None,
) -> Any: ...
@overload
def field(
    *,
    default: _S,
    default_factory: Literal[_MISSING_TYPE.MISSING] = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | Literal[_MISSING_TYPE.MISSING] = ...,
    doc: str | None = None,
    converter: Callable[[_S], _T],
    validator: _Validator[_T] | Sequence[_Validator[_T]] | None = None,
    alias: str | None = None,
) -> _T: ...
@overload
def field(
    *,
    default: Literal[_MISSING_TYPE.MISSING] = ...,
    default_factory: Callable[[], _S],
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | Literal[_MISSING_TYPE.MISSING] = ...,
    doc: str | None = None,
    converter: Callable[[_S], _T],
    validator: _Validator[_T] | Sequence[_Validator[_T]] | None = None,
    alias: str | None = None,
) -> _T: ...
@overload
def field(
    *,
    default: Literal[_MISSING_TYPE.MISSING] = ...,
    default_factory: Literal[_MISSING_TYPE.MISSING] = ...,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    metadata: Mapping[Any, Any] | None = None,
    kw_only: bool | Literal[_MISSING_TYPE.MISSING] = ...,
    doc: str | None = None,
    converter: Callable[[Any], _T],
    validator: _Validator[_T] | Sequence[_Validator[_T]] | None = None,
    alias: str | None = None,
) -> _T: ...

# At runtime it takes typing's protocol metaclass as its base once typing is
# imported (so a data class may list a Protocol among its bases); checkers that
# look for metaclass conflicts need to know it from the start.
class DataClassMeta(_ProtocolMeta):
    """Metaclass of data classes; name ``DataClass`` among the bases for checkers."""
    # The field hook gets and returns ours (a dataclasses.field() is made ours).
    def __transform_fields__(cls, fields: list[Field[Any]]) -> list[Field[Any]]: ...

@dataclass_transform(field_specifiers=(field, Field, dataclasses.field, dataclasses.Field))
class DataClass(metaclass=DataClassMeta):
    # Declared here so that every data class satisfies typeshed's
    # ``DataclassInstance`` (``dataclasses.fields/asdict/replace`` accept them);
    # at runtime each subclass gets its own.
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
    __dataclass_params__: ClassVar[Any]
    # As at runtime: with it mypy gives a ``slots=True`` subclass its ``__slots__``.
    __slots__ = ()
    # The options beyond @dataclass's, which PEP 681 does not know: typed here.
    def __init_subclass__(
        cls, *, cache_hash: bool = False, gc: bool = True,
        untrack_atomic: bool | None = None, **kwargs: Any) -> None: ...
    @classmethod
    def __transform_fields__(cls, fields: list[Field[Any]]) -> list[Field[Any]]: ...

# ``fields()`` of one of ours (a class, an instance, or a class seen as an
# instance of the metaclass, as in a DataClassMeta method) gives our ``Field``;
# of a stdlib data class, the stdlib's.
@overload
def fields(
    class_or_instance: DataClass | type[DataClass] | DataClassMeta
) -> tuple[Field[Any], ...]: ...
@overload
def fields(
    class_or_instance: DataclassInstance | type[DataclassInstance]
) -> tuple[dataclasses.Field[Any], ...]: ...


def namespace_annotations(namespace: dict[str, Any]) -> dict[str, Any]: ...

def combined_metaclass(*metaclasses: type) -> type: ...


def make_dataclass(
    cls_name: str,
    fields: Iterable[str | tuple[str, Any] | tuple[str, Any, Any]],
    *,
    bases: tuple[type, ...] = (),
    namespace: dict[str, Any] | None = None,
    init: bool = ...,
    repr: bool = ...,
    eq: bool = ...,
    order: bool = ...,
    unsafe_hash: bool = ...,
    frozen: bool = ...,
    match_args: bool = ...,
    kw_only: bool = ...,
    slots: bool = ...,
    weakref_slot: bool = ...,
    cache_hash: bool = ...,
    gc: bool = ...,
    untrack_atomic: bool | None = ...,
    module: str | None = None,
    decorator: Callable[..., type] = ...,
) -> type[DataClass]: ...
