"""CPython's own ``test.test_dataclasses``, rewritten to ``DataClass``, must pass.

The running interpreter's suite runs in a subprocess (the adapter compiles the
rewritten test source, which ``tests/test_no_exec.py``'s audit hook must never see):
every test passes, or is listed in ``tests/conformance/expected_failures.txt`` with
its reason, and every listed test still fails. docs/conformance.md explains it.
"""

import importlib.util
import json
import os
import re
import subprocess
import sys

import pytest

from tests.conformance import expected

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _suite_available():
    try:
        return importlib.util.find_spec('test.test_dataclasses') is not None
    except ImportError:
        return False


@pytest.fixture(scope='module')
def outcomes():
    """{test id: (outcome, message)} of this interpreter's suite, run against us."""
    if not _suite_available():
        pytest.skip("this Python ships no test.test_dataclasses (the 'test' package)")
    run = subprocess.run([sys.executable, '-m', 'tests.conformance.runner', '--json'],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    return {test_id: tuple(value) for test_id, value in json.loads(run.stdout).items()}


def test_suite_ran(outcomes):
    """The suite was found and run: hundreds of tests, most of them passing."""
    passed = sum(1 for outcome, _ in outcomes.values() if outcome == 'pass')
    assert len(outcomes) > 150 and passed > 0.9 * len(outcomes)


def test_no_unexpected_failures(outcomes):
    """Every failure of CPython's tests is listed, with its reason."""
    listed = expected.for_version()
    unexpected = [f'{test_id}: {outcome}: {message}'
                  for test_id, (outcome, message) in sorted(outcomes.items())
                  if outcome in ('fail', 'error', 'xpass') and test_id not in listed]
    assert not unexpected, (
        f'{len(unexpected)} of CPython\'s dataclass tests fail on Python '
        f'{sys.version.split()[0]} and are not in {expected.PATH}:\n  '
        + '\n  '.join(unexpected))


def test_expected_failures_still_fail(outcomes):
    """A listed test that passes (or no longer exists) must leave the list."""
    absent_ok = expected.where_present()
    stale = [f'{test_id}: {outcomes.get(test_id, ("not in this suite",))[0]}'
             for test_id in sorted(expected.for_version())
             if outcomes.get(test_id, ('missing',))[0] not in ('fail', 'error', 'xpass')
             and not (test_id in absent_ok and test_id not in outcomes)]
    assert not stale, (f'listed in {expected.PATH} for Python {sys.version.split()[0]} '
                       f'but not failing:\n  ' + '\n  '.join(stale))


def _deliberate_differences():
    """The first column of README's "Deliberate differences" table."""
    with open(os.path.join(ROOT, 'README.md'), encoding='utf-8') as file:
        readme = file.read()
    section = readme.split('## Deliberate differences', 1)[1].split('\n#', 1)[0]
    return [line.split('|')[1].strip() for line in section.splitlines()
            if line.startswith('|') and not re.match(r'^\|\s*-', line)][1:]


def test_every_reason_is_a_deliberate_difference_or_the_adapter():
    """Each reason quotes a row of README's "Deliberate differences", or is the
    adapter's; each entry names a version range that parses."""
    rows = _deliberate_differences()
    assert rows
    for test_id, versions, reason in expected.entries():
        expected.applies(versions)  # raises on a malformed range
        kind, text = expected.reason_kind(reason)
        if kind == 'deliberate':
            assert any(text in row for row in rows), (test_id, text)


@pytest.mark.parametrize('versions, version, result', [
    ('all', (3, 10), True), ('3.13', (3, 13), True), ('3.13', (3, 12), False),
    ('3.10-3.12', (3, 12), True), ('3.10-3.12', (3, 13), False),
    ('3.13+', (3, 15), True), ('3.13+', (3, 12), False), ('3.10,3.14+', (3, 11), False),
    ('3.10,3.14+', (3, 14), True), ('present', (3, 10), True),
])
def test_version_ranges(versions, version, result):
    """The versions column: one version, a range, an open range, or a list."""
    assert expected.applies(versions, version) is result
