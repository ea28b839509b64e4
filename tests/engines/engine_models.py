"""A data class in an importable module: pickle and cloudpickle send it by
reference (module and name), and each worker imports this module to find it."""

from dataclass_meta import DataClass


class Account(DataClass, frozen=True, order=True):
    owner: str
    balance: int = 0
