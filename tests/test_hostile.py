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


# The audit of the compiled core's borrowed references: each place where code
# of the user's could run while a borrowed reference was held, driven from
# Python. Each scenario must finish under -X dev with the result CPython's own
# semantics give.
_AUDIT = {
    # binding a keyword compares it with the parameter names: a str
    # subclass's __eq__ replaces C.__init__ (and the construction plan) there
    'bind': '''
from dataclass_meta import DataClass
class C(DataClass, slots=True):
    x: int = 0
    y: int = 0
C(1, 2); C(x=1, y=2)
armed = [True]; junk = []
class S(str):
    def __eq__(self, other):
        if armed[0]:
            armed[0] = False
            C.__init__ = lambda self, **kw: None
            C()
            junk.extend(b'A' * n for n in range(280, 320) for _ in range(20))
        return str.__eq__(self, other)
    __hash__ = str.__hash__
try:
    C(**{S('x'): 1, 'unknown': 2})  # the __init__ being bound refuses 'unknown'
except TypeError as exc:
    assert 'unknown' in str(exc), exc
else:
    raise AssertionError('the __init__ being bound accepted an unknown keyword')
assert type(C()) is C  # the __init__ set meanwhile runs from now on
''',
    # a __del__ assigned later moves the dying instance to another class
    'del_class': '''
import sys
from dataclass_meta import DataClass
class A(DataClass, slots=True, gc=False):
    x: int = 0
class B(A, gc=False):
    pass
refs = getattr(sys, 'getrefcount', lambda cls: 0)  # PyPy counts no references
before = refs(A), refs(B)
def move(self):
    self.__class__ = B
A.__del__ = move
for _ in range(20):
    A()
assert (refs(A), refs(B)) == before, (before, refs(A))
''',
    # a metaclass's __getattr__ makes replace()'s entry anew at each call
    'replace_entry': '''
import gc
from dataclass_meta import DataClass, replace, DataClassMeta
class Meta(DataClassMeta):
    def __getattribute__(cls, name):
        found = super().__getattribute__(name)
        if name == '_dataclass_replace':
            return tuple(found)  # a fresh tuple: nothing else holds it
        return found
class P(DataClass, metaclass=Meta, slots=True):
    x: int
    y: int = 0
for i in range(200):
    assert replace(P(i), y=1) == P(i, 1)
    gc.collect()
''',
    # a class dict key that is a str subclass whose __eq__ deletes C.__eq__
    # and C.__hash__ while the compiled == and hash look fields up
    'class_dict_key': '''
from dataclass_meta import DataClass
class C(DataClass, slots=True, frozen=True):
    x: int
    y: int = 0
a, b = C(1), C(1)
assert a == b and hash(a) == hash(b)
armed = [False]
class K(str):
    def __eq__(self, other):
        if armed[0]:
            armed[0] = False
            for name in ('__eq__', '__hash__'):
                if name in C.__dict__:
                    type.__delattr__(C, name)
        return str.__eq__(self, other)
    __hash__ = str.__hash__
setattr(C, K('x_'), 1)  # a key in the class dict that collides with nothing
armed[0] = True
C.unrelated = 1  # the version tag changes: the next == refills its layout
for _ in range(3):
    a == b, hash(a)
''',
}


@pytest.mark.parametrize('scenario', sorted(_AUDIT))
@pytest.mark.parametrize('backend_name', BACKENDS)
def test_user_code_during_a_borrowed_reference(backend_name, scenario):
    env = dict(os.environ)
    env.pop('DATACLASS_META_EXPECT_BACKEND', None)
    env.pop('DATACLASS_META_PURE', None)
    if backend_name == 'pure':
        env['DATACLASS_META_PURE'] = '1'
    done = subprocess.run([sys.executable, '-X', 'dev', '-c', _AUDIT[scenario]], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
