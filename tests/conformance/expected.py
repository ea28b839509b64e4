"""``expected_failures.txt``: which of CPython's dataclass tests fail on purpose, and why."""

import os
import re
import sys

PATH = os.path.join(os.path.dirname(__file__), 'expected_failures.txt')
_VERSION = re.compile(r'^(\d+\.\d+)?(-|\+)?(\d+\.\d+)?$')


def _parse_version(text):
    return tuple(int(part) for part in text.split('.'))


def applies(versions, version=None):
    """Whether a ``versions`` column ("all", "3.13", "3.10-3.12", "3.13+") covers
    ``version`` (the running interpreter's major and minor by default).
    "present" covers every version: the test fails wherever the interpreter's
    suite has it (CPython backports tests to patch releases, so no version
    range says where it is)."""
    version = version or sys.version_info[:2]
    for item in versions.split(','):
        if item in ('all', 'present'):
            return True
        match = _VERSION.match(item)
        if not match:
            raise ValueError(f'bad versions {item!r} in {PATH}')
        low, sep, high = match.groups()
        low = _parse_version(low) if low else (0, 0)
        if sep == '+':
            high = (99, 99)
        elif sep == '-':
            high = _parse_version(high) if high else (99, 99)
        else:
            high = low
        if low <= tuple(version) <= high:
            return True
    return False


def entries():
    """[(test id, versions, reason)] in file order."""
    result = []
    with open(PATH, encoding='utf-8') as file:
        for number, line in enumerate(file, 1):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = line.split(None, 2)
            if len(parts) != 3:
                raise ValueError(f'{PATH}:{number}: expected "<test id> <versions> <reason>"')
            result.append(tuple(parts))
    return result


def for_version(version=None):
    """{test id: reason} of the failures expected on ``version``."""
    return {test_id: reason for test_id, versions, reason in entries()
            if applies(versions, version)}


def where_present():
    """The test ids expected to fail only where the suite has them ("present")."""
    return {test_id for test_id, versions, _ in entries() if versions == 'present'}


def reason_kind(reason):
    """('deliberate', quoted words) or ('adapter', text)."""
    kind, _, text = reason.partition(':')
    text = text.strip()
    if kind == 'deliberate' and len(text) > 2 and text[0] == text[-1] == '"':
        return kind, text[1:-1]
    if kind == 'adapter' and text:
        return kind, text
    raise ValueError(f'bad reason {reason!r} in {PATH}: deliberate: "..." or adapter: ...')
