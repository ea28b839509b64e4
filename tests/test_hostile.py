"""Code that changes a class while one of its constructions is in flight.

On 3.10 and 3.11 an allocation may run the cyclic collector, and so a
finalizer or a weakref callback, in the middle of ``C(...)``. Such code may
assign ``C.__init__`` and construct again, which replaces the class's
construction plan. The construction in flight must neither read the plan it
started from once freed nor return an instance with fields unset: as
``type.__call__`` looks ``__init__`` up after the allocation, the one the class
has then runs. Each scenario runs in a fresh interpreter under ``-X dev``
(CPython's debug allocator checks), on each backend.
"""

import os
import subprocess
import sys

import pytest

from dataclass_meta._backend import compiled

BACKENDS = ['pure'] + (['compiled'] if compiled() is not None else [])

_SETUP = '''
import gc, weakref
from dataclass_meta import DataClass

class C(DataClass, slots=SLOTS):
    x: int
    y: int = 0

original = C.__init__

def replacement(self, x, y=0):
    original(self, x * 10, y * 10)

def swap():
    C.__init__ = replacement if C.__init__ is original else original
    C(5)  # a construction inside: the class's plan is made again
'''

_FINALIZER = _SETUP + '''
class Trigger:
    def __init__(self):
        self.me = self  # a cycle: only the collector frees it
    def __del__(self):
        swap()

def make_garbage():
    Trigger()
'''

_WEAKREF = _SETUP + '''
class Target:
    def __init__(self):
        self.me = self
keep = []

def make_garbage():
    target = Target()
    keep.append(weakref.ref(target, lambda ref: (keep.remove(ref), swap())))
'''

_RUN = '''
# a collection at (nearly) every allocation; PyPy has no thresholds: collect often
set_threshold = getattr(gc, 'set_threshold', lambda n: None)
set_threshold(1)
seen = set()
for i in range(1500):
    make_garbage()
    if i % 50 == 0 and not hasattr(gc, 'set_threshold'):
        gc.collect()
    a, b = C(1, 2), C(y=3, x=4)
    seen.update([(a.x, a.y), (b.x, b.y)])
set_threshold(700)
assert seen <= {(1, 2), (10, 20), (4, 3), (40, 30)}, seen
'''


@pytest.mark.parametrize('slots', [True, False])
@pytest.mark.parametrize('scenario', [_FINALIZER, _WEAKREF], ids=['finalizer', 'weakref'])
@pytest.mark.parametrize('backend_name', BACKENDS)
def test_class_changed_during_construction(backend_name, scenario, slots):
    env = dict(os.environ)
    env.pop('DATACLASS_META_EXPECT_BACKEND', None)
    env.pop('DATACLASS_META_PURE', None)
    if backend_name == 'pure':
        env['DATACLASS_META_PURE'] = '1'
    code = scenario.replace('SLOTS', str(slots)) + _RUN
    done = subprocess.run([sys.executable, '-X', 'dev', '-c', code], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]


_EARLY = '''
import gc
from dataclass_meta import DataClass

kept = []

class Prototype:  # a mixin that keeps an instance of each subclass, made first
    __slots__ = ()
    def __init_subclass__(cls, **kwargs):
        kept.append(object.__new__(cls))
        super().__init_subclass__(**kwargs)

class Named:  # a descriptor that does the same as it is named
    def __set_name__(self, owner, name):
        kept.append(object.__new__(owner))

class P(Prototype, DataClass, gc=False, slots=True, frozen=True):
    x: int = 0

class Q(DataClass, gc=False, slots=True, frozen=True):
    x: int = 0
    marker = Named()

class R(Q):  # gc=False inherited
    y: int = 1
    other = Named()

instances = [P(1), Q(2), R(3)] + kept
if hasattr(gc, 'is_tracked'):  # PyPy has none
    assert [gc.is_tracked(i) for i in instances] == [not UNTRACKS] * len(instances)
kept.clear()
del instances
gc.collect()
'''


@pytest.mark.parametrize('backend_name', BACKENDS)
def test_gc_false_instances_made_during_class_creation(backend_name):
    """``gc=False``: an instance made while the class is created (by a mixin's
    ``__init_subclass__``, a descriptor's ``__set_name__``) has the layout of
    the ones made later, and is freed as they are."""
    env = dict(os.environ)
    env.pop('DATACLASS_META_EXPECT_BACKEND', None)
    env.pop('DATACLASS_META_PURE', None)
    if backend_name == 'pure':
        env['DATACLASS_META_PURE'] = '1'
    code = _EARLY.replace('UNTRACKS', str(backend_name == 'compiled'))
    done = subprocess.run([sys.executable, '-X', 'dev', '-c', code], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
