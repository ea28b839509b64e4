"""With ``dataclass_meta.mypy_plugin``, options stated on a base reach every subclass
for mypy as they do at runtime: no keyword repeated, no transform re-declared."""
import sys

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10
    from typing_extensions import dataclass_transform

from dataclass_meta import DataClass, field


class Version(DataClass, frozen=True, order=True):
    major: int
    minor: int = 0


class Release(Version):      # frozen and ordered, inherited
    name: str = ''


assert Release(1, 2, 'rc') < Release(1, 3)
assert {Release(1): 'hashable: frozen with eq'}


class Options(DataClass, kw_only=True):
    verbose: bool = False


class Settings(Options):     # keyword-only, inherited
    path: str


Settings(path='/srv', verbose=True)


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
class Model(DataClass, frozen=True, kw_only=True):
    id: int


class User(Model):
    name: str


class Staff(User, kw_only=False):
    level: int


class Boss(Staff):           # keyword-only again, by Model's declaration (as at runtime)
    reports: int = 0


Boss(2, id=4, name='b', reports=5)
