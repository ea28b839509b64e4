"""Run this interpreter's ``test.test_dataclasses`` against ``dataclass_meta``.

    python -m tests.conformance.runner [--json] [unittest names...]

from the repository root. An import hook hands ``test.test_dataclasses`` (and its
helper modules: ``test.test_dataclasses.*`` on 3.11+, ``test.dataclass_*`` on
3.10) to a loader that rewrites their source (``rewrite.py``) before compiling it.
The modules keep their names, files and line numbers, so pickling, ``inspect``
and tracebacks behave as in the original suite. Every other module, ``test.support``
included, is imported untouched.

This compiles test source, so it must never run in the process of
``tests/test_no_exec.py``: ``tests/test_conformance.py`` runs it in a subprocess.
"""

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
import unittest

from . import rewrite

SUITE = 'test.test_dataclasses'


def _is_rewritten(fullname):
    return (fullname == SUITE or fullname.startswith(SUITE + '.')
            or fullname.startswith('test.dataclass_'))  # 3.10's helper modules


class _Loader(importlib.machinery.SourceFileLoader):
    """Compiles the rewritten source; never reads or writes bytecode caches."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        source = importlib.util.decode_source(self.get_data(path))
        return compile(rewrite.rewrite(source, path), path, 'exec', dont_inherit=True)

    def set_data(self, path, data, *, _mode=0o666):
        pass


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if not _is_rewritten(fullname):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return None
        spec.loader = _Loader(fullname, spec.origin)
        return spec


def install():
    """Route the suite's modules through the rewriter (idempotent)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


class _Result(unittest.TestResult):
    """Per test id: 'pass', 'fail', 'error', 'skip', 'xfail' or 'xpass', with a
    one-line message for failures (the last line of the first traceback)."""

    def __init__(self):
        super().__init__()
        self.outcomes = {}

    @staticmethod
    def _id(test):
        test_id = test.id()
        return test_id[len(SUITE) + 1:] if test_id.startswith(SUITE + '.') else test_id

    def _record(self, test, outcome, message=''):
        test_id = self._id(test)
        if self.outcomes.get(test_id, ('pass',))[0] in ('pass', 'skip'):
            self.outcomes[test_id] = (outcome, message)

    def _message(self, test, err):
        text = self._exc_info_to_string(err, test).rstrip().splitlines()
        return text[-1][:300] if text else ''

    def addSuccess(self, test):
        self.outcomes.setdefault(self._id(test), ('pass', ''))

    def addFailure(self, test, err):
        self._record(test, 'fail', self._message(test, err))

    def addError(self, test, err):
        self._record(test, 'error', self._message(test, err))

    def addSkip(self, test, reason):
        self._record(test, 'skip', reason)

    def addExpectedFailure(self, test, err):
        self._record(test, 'xfail')

    def addUnexpectedSuccess(self, test):
        self._record(test, 'xpass')

    def addSubTest(self, test, subtest, err):
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._record(test, 'fail' if failed else 'error', self._message(test, err))
        else:
            self.outcomes.setdefault(self._id(test), ('pass', ''))


def run(names=()):
    """{test id: (outcome, message)} for the whole suite, or for ``names``."""
    install()
    try:
        importlib.import_module(SUITE)
    except Exception as error:  # a class the module defines at import time fails
        return {f'<import {SUITE}>': ('error', f'{type(error).__name__}: {error}')}
    loader = unittest.TestLoader()
    if names:
        suite = loader.loadTestsFromNames([f'{SUITE}.{n}' for n in names])
    else:
        suite = loader.loadTestsFromName(SUITE)
    result = _Result()
    suite.run(result)
    return result.outcomes


def main(argv):
    as_json = '--json' in argv
    names = [a for a in argv if a != '--json']
    outcomes = run(names)
    if as_json:
        json.dump({k: list(v) for k, v in sorted(outcomes.items())}, sys.stdout)
        return 0
    bad = 0
    for test_id, (outcome, message) in sorted(outcomes.items()):
        if outcome not in ('pass', 'skip', 'xfail'):
            bad += 1
            print(f'{outcome.upper():5} {test_id}: {message}')
    counts = {}
    for outcome, _ in outcomes.values():
        counts[outcome] = counts.get(outcome, 0) + 1
    print(f'{sys.version.split()[0]}: {len(outcomes)} tests, '
          + ', '.join(f'{k} {v}' for k, v in sorted(counts.items())))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
