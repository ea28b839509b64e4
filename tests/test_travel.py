"""Classes sent by value (cloudpickle, dill) are the same data classes in a fresh
process that never saw their source: tests/travel_script.py defines them in
``__main__`` and observes them at home and away; the observations must agree."""

import json
import os
import subprocess
import sys

import pytest

from dataclass_meta._backend import compiled

HERE = os.path.dirname(__file__)
BACKENDS = ['pure'] + (['compiled'] if compiled() is not None else [])
ROUTES = [(home, away) for home in BACKENDS for away in BACKENDS]


def _run(mode, pickler, path, backend):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HERE, os.environ.get('PYTHONPATH', '')]),
               PYTHONHASHSEED='0')
    env.pop('DATACLASS_META_PURE', None)
    env.pop('DATACLASS_META_EXPECT_BACKEND', None)
    if backend == 'pure':
        env['DATACLASS_META_PURE'] = '1'
    done = subprocess.run([sys.executable, os.path.join(HERE, 'travel_script.py'), mode,
                           pickler, str(path)], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _comparable(seen, backend):
    """An observation without what differs by design between backends: which
    kind of function ``__init__`` is, and whether gc=False untracks."""
    seen = {case: dict(values) for case, values in seen.items()}
    for case, values in seen.items():
        if case != 'extra':
            values.pop('backend')
            values.pop('tracked', None)
    return seen


@pytest.mark.parametrize('pickler', ['cloudpickle', 'dill'])
@pytest.mark.parametrize('home,away', ROUTES)
def test_classes_travel_by_value(tmp_path, pickler, home, away):
    pytest.importorskip(pickler)
    path = tmp_path / 'payload'
    there = _run('home', pickler, path, home)
    arrived = _run('away', pickler, path, away)
    assert there['same'] and arrived['same']  # cloudpickle: a second load, the same classes
    mine, theirs = there['home'], arrived['away']
    # Known gaps, left for later (CHANGELOG): PEP 695's type parameters after
    # cloudpickle; gc=False from the pure backend (its params say gc=True).
    mine.pop('pep695', None), theirs.pop('pep695', None)
    if home != away:
        for seen in (mine, theirs):
            seen['nogc'].pop('params'), seen['nogc'].pop('tracked')
    assert _comparable(theirs, away) == _comparable(mine, home)
    for case, values in theirs.items():
        if case in ('extra', 'quiet'):  # quiet: init=False, object's __init__
            continue
        expected = 'pure' if away == 'pure' else ('compiled_function', 'function')
        assert values['backend'] in expected, case  # made anew with the process's backend
    if home == away:
        assert theirs['nogc']['tracked'] == ('True' if away == 'pure' else 'False')
