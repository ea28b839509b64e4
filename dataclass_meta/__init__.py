"""PEP 557 data classes as a metaclass and an inheritable base class.

    from dataclass_meta import DataClass, field

    class InventoryItem(DataClass):
        name: str
        unit_price: float
        quantity_on_hand: int = 0
"""

from dataclasses import KW_ONLY, MISSING, FrozenInstanceError, InitVar

from ._backend import BACKEND
from ._fields import Field, field, namespace_annotations
from ._functions import asdict, astuple, is_dataclass, make_dataclass
from ._functions import public_fields as fields, public_replace as replace
from ._meta import DataClass, DataClassMeta

__all__ = [
    'DataClass', 'DataClassMeta',
    'field', 'Field', 'fields', 'asdict', 'astuple', 'replace',
    'is_dataclass', 'make_dataclass', 'namespace_annotations',
    'MISSING', 'KW_ONLY', 'InitVar', 'FrozenInstanceError',
    'BACKEND', 'describe_backend', 'combined_metaclass',
]
__version__ = '0.1.0'

# Show (and pickle) the public classes under the package, not the private module.
DataClass.__module__ = DataClassMeta.__module__ = Field.__module__ = __name__


def __getattr__(name):
    # Loaded on first use: importing the package does not pay for them.
    if name == 'describe_backend':
        from ._about import describe_backend
        return describe_backend
    if name == 'combined_metaclass':
        from ._combine import combined_metaclass
        return combined_metaclass
    msg = f'module {__name__!r} has no attribute {name!r}'
    raise AttributeError(msg)
