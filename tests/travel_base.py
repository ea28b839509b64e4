"""An importable data class, the base of one that travels by value
(tests/travel_script.py): the base goes by reference, the subclass by value."""

from dataclass_meta import DataClass


class ImportableBase(DataClass, order=True):
    a: int
    b: int = 2
