"""README's conformance table: run the suite on several interpreters, count outcomes.

    python -m tests.conformance.table PYTHON [PYTHON ...]

from the repository root; prints a Markdown table, one column per interpreter.
"""

import json
import subprocess
import sys

from . import expected


def _run(python):
    """(major.minor, {test id: outcome}) of ``python``'s suite against us."""
    version = subprocess.run([python, '-c', 'import sys; print(*sys.version_info[:2])'],
                             capture_output=True, text=True, check=True).stdout.split()
    run = subprocess.run([python, '-m', 'tests.conformance.runner', '--json'],
                         capture_output=True, text=True, check=True)
    outcomes = {k: v[0] for k, v in json.loads(run.stdout).items()}
    return tuple(int(n) for n in version), outcomes


def _reason_label(reason):
    kind, text = expected.reason_kind(reason)
    return f'deliberate: "{text}"' if kind == 'deliberate' else f'adapter: {text}'


def table(pythons):
    columns = [_run(python) for python in pythons]
    reasons = list(dict.fromkeys(_reason_label(r) for _, _, r in expected.entries()))
    rows = {label: [] for label in ['tests', 'pass', 'skipped', 'expected failures']
            + reasons + ['unexpected failures']}
    for version, outcomes in columns:
        listed = expected.for_version(version)
        failing = {t for t, o in outcomes.items() if o in ('fail', 'error', 'xpass')}
        rows['tests'].append(len(outcomes))
        rows['pass'].append(sum(o in ('pass', 'xfail') for o in outcomes.values()))
        rows['skipped'].append(sum(o == 'skip' for o in outcomes.values()))
        rows['expected failures'].append(len(failing & listed.keys()))
        for label in reasons:
            rows[label].append(sum(1 for t in failing & listed.keys()
                                   if _reason_label(listed[t]) == label))
        rows['unexpected failures'].append(len(failing - listed.keys()))
    header = ['', *(f'{v[0]}.{v[1]}' for v, _ in columns)]
    lines = ['| ' + ' | '.join(header) + ' |',
             '|---|' + '---:|' * len(columns)]
    for label, counts in rows.items():
        name = f'↳ {label}' if label in reasons else label
        lines.append('| ' + ' | '.join([name, *(str(c or '–') for c in counts)]) + ' |')
    return '\n'.join(lines)


if __name__ == '__main__':
    print(table(sys.argv[1:] or [sys.executable]))
