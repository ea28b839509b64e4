"""``python -m dataclass_meta``: the version, the active backend and why."""

from ._about import main

main()
