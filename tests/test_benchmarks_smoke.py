"""The benchmark script runs end to end on its tiny setting (no timing asserted)."""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import xml.dom.minidom

import pytest

from .implementation import PYPY

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG_PREFIX = 'pypy' if PYPY else 'py'  # results-pypy311.json beside results-py311.json


def _compiler():
    """Whether this Python's C compiler is on PATH (not where an installed wheel
    is tested with none: tools/prove_wheels.py)."""
    cc = (sysconfig.get_config_var('CC') or 'cc').split()
    return bool(cc) and shutil.which(cc[0]) is not None


def test_benchmark_script_runs_quick(tmp_path):
    """``benchmarks/run.py --quick`` writes a table, JSON and chart with our rows."""
    script = os.path.join(ROOT, 'benchmarks', 'run.py')
    proc = subprocess.run([sys.executable, script, '--quick', '--out', str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    tag = f'{TAG_PREFIX}{sys.version_info[0]}{sys.version_info[1]}'
    results = json.loads((tmp_path / f'results-{tag}.json').read_text())
    for key in ('class5', 'init_pos', 'init_kw', 'eq', 'lt', 'repr', 'asdict', 'replace'):
        assert {'dm', 'std'} <= set(results['operations'][key]['ratio']), key
    assert results['operations']['hash']['ratio'].keys() >= {'dm_frozen', 'std_frozen'}
    if not PYPY and importlib.util.find_spec('setuptools') is not None and _compiler():
        # The C API's floors are built and timed beside us, and set beside
        # the compiled core's targets (floors only for the operations they cover).
        assert {'floor', 'floor_slots'} <= set(results['operations']['init_pos']['ratio'])
        assert 'floor_frozen' in results['operations']['hash']['ratio']
        assert not any(name.startswith('floor') for name in results['operations']['asdict']['ratio'])
        by_name = {t['name']: t for t in results['targets']}
        if results['machine']['backend'] == 'compiled':
            assert by_name['init, slots, compiled']['floor'] is not None
            assert by_name['asdict, nested, compiled']['floor'] is None
    # The metaclass floor (the stdlib's class with a metaclass) beside the
    # construction rows of both backends, on every interpreter.
    assert {'metafloor', 'metafloor_slots'} <= set(results['operations']['init_pos']['ratio'])
    assert 'metafloor' not in results['operations']['eq']['ratio']
    ours = {t['operation']: t for t in results['targets'] if t['contender'] == 'dm'}
    assert ours['init_pos']['metaclass_floor'] is not None
    assert ours['repr']['metaclass_floor'] is None
    if importlib.util.find_spec('msgspec') is not None:
        # every slotted operation against msgspec's Struct, of each backend
        against = {(t['operation'], t['contender']) for t in results['targets']
                   if t['name'].endswith('/ msgspec')}
        assert {('init_pos', 'dm_slots'), ('init_kw', 'dm_slots'),
                ('init_pos', 'dm_frozen_slots'), ('init_pos', 'dm_slots_nogc'),
                ('eq', 'dm_slots'), ('hash', 'dm_frozen_slots'), ('repr', 'dm_slots'),
                ('replace', 'dm_slots'), ('cached_read', 'dm_slots')} <= against
        if results['machine']['backend'] == 'compiled':
            assert ('init_pos', 'dm_pure_slots_nogc') in against
    if PYPY:  # no tracemalloc, no -X importtime: those parts stay empty
        assert results['memory'] == {} and results['import_ms'] == {}
    else:
        assert {'dm', 'std', 'dm_slots', 'std_slots'} <= set(results['memory'])
        assert {'dataclasses', 'dataclass_meta'} <= set(results['import_ms'])
    assert results['scaling']['fields']['dm'] and results['scaling']['depth']['dm']
    table = (tmp_path / f'results-{tag}.md').read_text()
    assert '| init, positional |' in table and '| target |' in table
    chart = (tmp_path / f'results-{tag}.svg').read_text()
    xml.dom.minidom.parseString(chart)  # well-formed: labels like '<' are escaped
    assert chart.startswith('<svg') and '&lt;' in chart


def test_benchmark_script_without_peers(tmp_path):
    """With attrs and msgspec hidden, the stdlib/dataclass_meta part still runs."""
    hide = tmp_path / 'hide'
    hide.mkdir()
    for name in ('attrs', 'msgspec'):  # a module that fails to import shadows the peer
        (hide / f'{name}.py').write_text('raise ImportError("hidden for the test")\n')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(hide), ROOT]))
    script = os.path.join(ROOT, 'benchmarks', 'run.py')
    proc = subprocess.run([sys.executable, script, '--quick', '--out', str(tmp_path),
                           '--only', 'init_pos', 'asdict', '--no-floors'],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    tag = f'{TAG_PREFIX}{sys.version_info[0]}{sys.version_info[1]}'
    results = json.loads((tmp_path / f'results-{tag}.json').read_text())
    pure = {'dm_pure', 'dm_pure_frozen', 'dm_pure_slots'}  # beside a compiled backend
    assert set(results['contenders']) - pure == {
        'std', 'std_frozen', 'std_slots', 'dm', 'dm_frozen', 'dm_slots', 'hand'}
    assert (set(results['contenders']) >= pure) == (results['machine']['backend'] == 'compiled')
    assert results['operations']['init_pos']['ratio'].keys() >= {'dm', 'std'}
