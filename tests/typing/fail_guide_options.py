"""What the checkers hold ``pass_guide_options.py``'s classes to: the options of the
transform root, and ``Draft``'s own ``kw_only=False``."""
import sys

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # Python 3.10
    from typing_extensions import dataclass_transform

from dataclass_meta import DataClass, field


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
class Model(DataClass, frozen=True, kw_only=True):
    """No fields: the options, for the runtime and for type checkers."""


class User(Model):          # frozen and kw_only too
    id: int = 0
    name: str


class Draft(Model, kw_only=False):   # still frozen, positional fields
    title: str


User(1, 'Ann')  # E: keyword-only, from Model
User(name='Ann').id = 2  # E: frozen, from Model
Draft(title='notes').title = 'x'  # E: still frozen
