"""A PEP 695 generic data class (3.12+ syntax), made in ``__main__``'s name so
that it travels by value from tests/travel_script.py."""

from dataclass_meta import DataClass


class Pair[K, V](DataClass, frozen=True):
    key: K
    value: V


Pair.__module__ = '__main__'
