"""What a field-less base's ``dataclass_transform`` defaults make the checkers
enforce on subclasses that state no option."""
import sys

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10
    from typing_extensions import dataclass_transform

from dataclass_meta import DataClass, field


@dataclass_transform(frozen_default=True, order_default=True, field_specifiers=(field,))
class Frozen(DataClass, frozen=True, order=True):
    """No fields: the options."""


class Version(Frozen):
    major: int
    minor: int = 0


class Release(Version):
    name: str = ''


r = Release(1, 2, 'rc')
r.name = 'final'  # E: frozen, from Frozen's declaration
print(r < 3)  # E: ordered only against a Release


class Thawed(Version, frozen=False):  # E: non-frozen under frozen
    pass


@dataclass_transform(kw_only_default=True, eq_default=False, field_specifiers=(field,))
class Options(DataClass, kw_only=True, eq=False):
    """Keyword-only fields, identity comparison."""


class Settings(Options):
    verbose: bool = False
    path: str


Settings(True, '/srv')  # E: keyword-only, from Options's declaration
Settings(verbose=True)  # E: path is required
