"""Options set once on a field-less base that re-declares ``dataclass_transform``
with the same values: every subclass gets them from the runtime and from each
checker (PEP 681 defaults), with no keyword repeated."""
import sys

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10
    from typing_extensions import dataclass_transform

from dataclass_meta import DataClass, field


@dataclass_transform(frozen_default=True, order_default=True, field_specifiers=(field,))
class Frozen(DataClass, frozen=True, order=True):
    """No fields: the options, for the runtime and for type checkers."""


class Version(Frozen):
    major: int
    minor: int = 0


class Release(Version):      # frozen and ordered, for the runtime and the checkers
    name: str = ''


assert Release(1, 2, 'rc') < Release(1, 3)
assert {Release(1, 2): 'hashable'}


@dataclass_transform(kw_only_default=True, eq_default=False, field_specifiers=(field,))
class Options(DataClass, kw_only=True, eq=False):
    """Keyword-only fields, identity comparison."""


class Settings(Options):
    verbose: bool = False
    path: str


class Server(Settings):
    port: int = 8000
    tags: list[str] = field(default_factory=list)


s = Server(path='/srv', port=80)
assert s != Server(path='/srv', port=80)     # eq=False: compared by identity
assert {s: 'hashable by identity'}
