"""The engines that send work with cloudpickle (joblib's loky, Dask distributed,
Ray) and multiprocessing's spawn and forkserver run a task on a worker process
with data classes defined in ``__main__`` of a driver script, as a notebook's
are; engine_driver.py checks what the worker saw and sent back against what it
computes itself. Real engines, each started afresh per backend.

Heavy (worker processes, a local Ray cluster, their packages): the default test
run leaves this folder out (tests/conftest.py); ``tox -e engines`` runs it.
"""

import os
import subprocess
import sys

import pytest

from dataclass_meta._backend import compiled

HERE = os.path.dirname(os.path.abspath(__file__))
# The compiled backend where it is built, or where the run insists on it (tox).
BACKENDS = ['pure'] + (['compiled'] if compiled() is not None
                       or os.environ.get('DATACLASS_META_EXPECT_BACKEND') == 'compiled' else [])
ENGINES = ['joblib', 'dask', 'ray', 'spawn', 'forkserver']


@pytest.mark.parametrize('backend', BACKENDS)
@pytest.mark.parametrize('engine', ENGINES)
def test_engine_runs_main_classes_on_a_worker(engine, backend):
    # PYTHONPATH: every worker (Ray's too, which the raylet starts) imports engine_models.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [HERE, os.environ.get('PYTHONPATH')])))
    # Each process draws its own str hash seed (tox fixes one for all), so that a
    # cached hash travelling with an instance would show.
    env.pop('PYTHONHASHSEED', None)
    # Set before the engine starts: its workers inherit the environment.
    env.pop('DATACLASS_META_PURE', None)
    if backend == 'pure':
        env['DATACLASS_META_PURE'] = '1'
    done = subprocess.run([sys.executable, os.path.join(HERE, 'engine_driver.py'), engine,
                           backend], env=env, capture_output=True, text=True, timeout=300)
    if done.returncode:  # the driver's output holds the worker's traceback
        pytest.fail(f'{engine} ({backend}): exit status {done.returncode}\n{done.stderr}\n'
                    f'{done.stdout}', pytrace=False)
