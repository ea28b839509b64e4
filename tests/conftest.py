"""Shared fixtures: most behaviour must hold for dict-based and slotted classes.

``DATACLASS_META_TEST_CLOSURES=1`` runs the tests with an audit hook that
refuses the package's new code objects (hypothesis makes its own, which pass),
so that every generated method is the plain closure instead of a relabelled
template (``tests/test_templates.py`` runs the
differential tests so, beside the default run).
"""

import os
import sys

import pytest

try:  # not every stage installs hypothesis for every file, but every suite run does
    from hypothesis import settings as _hypothesis_settings
except ImportError:
    _hypothesis_settings = None

# hypothesis: no per-example deadline. The suite runs a worker per CPU beside
# subprocess-heavy files, so an example's first run (which resolves strategies
# from type hints, say) can take a second on a busy machine; a deadline would
# fail it as flaky without anything being wrong. Examples still have their counts.
if _hypothesis_settings is not None:
    _hypothesis_settings.register_profile('dataclass_meta', deadline=None)
    _hypothesis_settings.load_profile('dataclass_meta')

# DATACLASS_META_EXPECT_GIL=0 (CI's free-threaded stage): the run fails unless
# the GIL is off after ``import dataclass_meta`` and still off at the end, when
# everything the suite imports and builds has been loaded.
EXPECT_GIL_OFF = os.environ.get('DATACLASS_META_EXPECT_GIL') == '0'


def gil_enabled():
    """Whether the GIL is on (always, on a Python that has no choice)."""
    return getattr(sys, '_is_gil_enabled', lambda: True)()


if EXPECT_GIL_OFF:
    import dataclass_meta
    if gil_enabled():
        raise RuntimeError('DATACLASS_META_EXPECT_GIL=0, but the GIL is enabled after '
                           f'import dataclass_meta (backend: {dataclass_meta.describe_backend()})')


def pytest_sessionfinish(session, exitstatus):
    if EXPECT_GIL_OFF and gil_enabled():
        print('\nDATACLASS_META_EXPECT_GIL=0, but the GIL was enabled during the session',
              file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


# tests/engines/ starts joblib, Dask, Ray and multiprocessing workers and needs
# their packages, which tox -e engines installs: the default run (the README's
# python -m pytest) leaves it out unless DATACLASS_META_ENGINES=1, as tox sets.
# (A folder named on pytest's command line is collected all the same.)
collect_ignore = [] if os.environ.get('DATACLASS_META_ENGINES') == '1' else ['engines']

if os.environ.get('DATACLASS_META_TEST_CLOSURES') == '1':
    def _refuse_code_objects(event, args):
        if (event == 'code.__new__'
                and sys._getframe(1).f_code.co_filename.endswith('_relabel.py')):
            raise RuntimeError('this run refuses new code objects')
    sys.addaudithook(_refuse_code_objects)


@pytest.fixture(params=[False, True], ids=['dict', 'slots'])
def slots(request):
    """Run the test for ``slots=False`` and ``slots=True``."""
    return request.param


def _backend_params():
    from dataclass_meta import _backend
    return [pytest.param(b, id=b.name) for b in _backend.available()]


@pytest.fixture(params=_backend_params())
def backend(request):
    """Run the test once per available backend; classes it defines use that one."""
    from dataclass_meta import _backend
    with _backend.use(request.param):
        yield request.param
