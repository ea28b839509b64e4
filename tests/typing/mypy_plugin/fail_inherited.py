"""Errors mypy finds with ``dataclass_meta.mypy_plugin`` on options inherited
from a base that states them as class keywords."""
from dataclass_meta import DataClass


class Version(DataClass, frozen=True, order=True):
    major: int
    minor: int = 0


class Release(Version):
    name: str = ''


r = Release(1, 2, 'rc')
r.name = 'final'  # E: frozen, inherited from Version
print(r < 3)  # E: ordered only against a Release


class Thawed(Release, frozen=False):  # E: non-frozen under frozen, as at runtime
    pass


class Options(DataClass, kw_only=True):
    verbose: bool = False


class Settings(Options):
    path: str


Settings('/srv')  # E: keyword-only, inherited from Options


class Plain(DataClass):
    x: int


class Frosty(Plain, frozen=True):  # E: frozen under non-frozen, as at runtime
    pass
