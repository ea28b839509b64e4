"""Values of our class keywords that a checker rejects (the runtime rejects both).

ty checks class keywords against ``DataClass.__init_subclass__``, which types
them; mypy (without our plugin), pyright 1.1.414 and pyrefly 1.5.0 do not check
keywords of a ``dataclass_transform`` class that PEP 681 does not name."""
from dataclass_meta import DataClass


class Cached(DataClass, frozen=True, cache_hash=1):  # E[ty]: not a bool
    x: int


class Untracked(DataClass, gc='no'):  # E[ty]: not a bool
    x: int
