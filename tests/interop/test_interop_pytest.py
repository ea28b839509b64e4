"""pytest's assertion rewriting explains unequal data classes field by field.

pytest does it by itself only for ``__eq__`` built from exec'd source; our
``pytest11`` plugin (``dataclass_meta_pytest``) gives the same text.
Each test runs a failing test file in a subprocess and reads its report.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

# The same comparison on our classes and on @dataclass twins of the same names.
SOURCE = '''
import dataclasses
import sys
from typing import Optional

import interop_models as m


@dataclasses.dataclass(frozen=True, slots=True)
class Tag:
    name: str
    weight: int = 1


@dataclasses.dataclass
class Address:
    street: str
    city: str
    postcode: Optional[str] = None


@dataclasses.dataclass
class Person:
    name: str
    age: int
    address: Address
    tags: list = dataclasses.field(default_factory=list)
    nickname: Optional[str] = None


Std = sys.modules[__name__]


def test_ours():
    assert m.sample(m) == m.sample(m).__replace__(
        age=43, address=m.Address('2 Side St', 'Springfield'), tags=[m.Tag('admin')])


def test_stdlib():
    assert m.sample(Std) == dataclasses.replace(m.sample(Std),
        age=43, address=Std.Address('2 Side St', 'Springfield'), tags=[Std.Tag('admin')])


class Custom(m.Address):
    def __eq__(self, other):
        return False


def test_custom_eq():
    assert Custom('a', 'b') == Custom('a', 'b')
'''


def test_plugin_is_registered():
    """The installed distribution declares the plugin to pytest (``pytest11``)."""
    from importlib.metadata import entry_points

    plugins = {ep.name: ep.value for ep in entry_points(group='pytest11')}
    assert plugins.get('dataclass_meta') == 'dataclass_meta_pytest'


def _backends():
    from dataclass_meta import _backend
    return [pytest.param(b.name, id=b.name) for b in _backend.available()]


@pytest.fixture(params=_backends())
def backend_name(request):
    """Each test runs pytest in a subprocess whose classes use this backend."""
    return request.param


_SOURCE_CHECK = '''

def test_backend_in_use():
    import dataclass_meta._backend as b
    assert b.backend.name == {name!r} and b.backend.made(m.Address.__eq__), 'backend'
'''


def _explanations(tmp_path, *options, backend='pure'):
    """{test name: the ``E`` lines of its failure} from a pytest subprocess whose
    data classes use ``backend`` (checked there by ``test_backend_in_use``)."""
    (tmp_path / 'test_diff.py').write_text(SOURCE + _SOURCE_CHECK.format(name=backend))
    env = {'PYTHONPATH': str(HERE), 'NO_COLOR': '1', 'COLUMNS': '80'}
    if backend == 'pure':
        env['DATACLASS_META_PURE'] = '1'
    result = subprocess.run(
        [sys.executable, '-m', 'pytest', '-p', 'no:cacheprovider', *options, 'test_diff.py'],
        capture_output=True, text=True, cwd=tmp_path, timeout=120, env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    sections = re.split(r'_{3,} (test_\w+) _{3,}', result.stdout)
    found = {name: [line[1:].strip() for line in body.splitlines() if line.startswith('E ')]
             for name, body in zip(sections[1::2], sections[2::2])}
    assert 'test_backend_in_use' not in found, found['test_backend_in_use']
    return found


@pytest.mark.parametrize('verbosity', ['-v', '-vv'])
def test_same_explanation_as_stdlib(tmp_path, verbosity, backend_name):
    """Differing fields are listed and drilled into exactly as for ``@dataclass``,
    on each backend (the plugin asks the backend whether ``__eq__`` is generated)."""
    found = _explanations(tmp_path, verbosity, backend=backend_name)
    ours = found['test_ours']
    assert 'Differing attributes:' in ours and "['age', 'address', 'tags']" in ours
    assert ours == found['test_stdlib']


def test_matching_fields_at_vv(tmp_path, backend_name):
    """With -vv the matching fields are named, nested ones too."""
    ours = _explanations(tmp_path, '-vv', backend=backend_name)['test_ours']
    assert ours[ours.index('Matching attributes:') + 1] == "['name', 'nickname']"
    assert 'Drill down into differing attribute age:' in ours and 'age: 42 != 43' in ours
    assert "street: '1 Main St' != '2 Side St'" in ours and "['city']" in ours


def test_hand_written_eq_is_left_alone(tmp_path, backend_name):
    """A class with its own ``__eq__`` gets no field diff (pytest's rule for stdlib)."""
    custom = _explanations(tmp_path, '-vv', backend=backend_name)['test_custom_eq']
    assert not any('attributes' in line for line in custom)
