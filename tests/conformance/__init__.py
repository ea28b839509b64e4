"""CPython's own ``test.test_dataclasses``, run against ``dataclass_meta`` (docs/conformance.md)."""
