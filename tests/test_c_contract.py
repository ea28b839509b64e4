"""The contract with the C core: one list of plan attributes and one of hooks,
written once on each side (``speedups.h`` and ``_backend``), which agree."""

import importlib.util
from types import SimpleNamespace

import pytest

from dataclass_meta import _backend, _init, _plan

speedups = _backend.backend.speedups if _backend.BACKEND == 'compiled' else None
pytestmark = pytest.mark.skipif(speedups is None, reason='the compiled core is not active')


def _fresh_module():
    """A new module object of the extension, not configured."""
    spec = importlib.util.find_spec('dataclass_meta._speedups')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Recording:
    """Answers attribute reads from ``values``, recording each name read."""

    def __init__(self, values):
        self._values, self.reads = values, []

    def __getattr__(self, name):
        self.reads.append(name)
        return self._values[name]


class Point:
    __dataclass_fields__ = {}


PLAN_VALUES = dict(cls=Point, field_names=('x',), repr_names=('x',), compare_names=('x',),
                   hash_names=('x',), names=('x',), n_positional=1, defaults=(None,),
                   steps=(('x', 0, None),), initvars=(), unbound=None, frozen=False,
                   has_post_init=False, binder=print, take_self=print, converters=None,
                   validations=(), direct=False, untrack=False)

# What each constructor reads of its plan, in order.
READS = {
    ('eq', '__eq__'): ['compare_names'],
    ('order', '__lt__'): ['compare_names'],
    ('hash', '__hash__'): ['hash_names'],
    ('repr', '__repr__'): ['repr_names'],
    ('unguarded_repr', '__repr__'): ['repr_names'],
    ('frozen', '__setattr__'): ['cls', 'field_names'],
    ('frozen', '__delattr__'): ['cls', 'field_names'],
    ('replace', '__replace__'): ['cls'],
    ('replace', 'replace'): ['cls'],
    ('init', '__init__'): ['names', 'n_positional', 'defaults', 'steps', 'initvars',
                           'unbound', 'frozen', 'has_post_init', 'binder', 'take_self',
                           'converters', 'validations', 'direct', 'untrack'],
}


def test_the_two_sides_declare_the_same_plan_attributes():
    assert speedups.PLAN_ATTRS == _backend.PLAN_ATTRS
    assert all(type(name) is str for name in speedups.PLAN_ATTRS)


def test_the_two_sides_declare_the_same_hooks():
    assert speedups.HOOK_ATTRS == tuple(vars(_backend.HOOKS))


def test_the_plans_have_every_attribute_the_core_reads():
    """Each attribute is a ``Plan``'s or an ``InitPlan``'s (a slot or a method)."""
    declared = set(_plan.Plan.__slots__) | set(_init.InitPlan.__slots__) | set(
        vars(_init.InitPlan))
    assert set(_backend.PLAN_ATTRS) <= declared


@pytest.mark.parametrize('kind, name', list(READS))
def test_each_constructor_reads_its_plan_once_by_attribute(kind, name):
    plan = Recording(PLAN_VALUES)
    method = getattr(speedups, kind)(name, plan)
    assert type(method) is speedups.compiled_function
    assert method.__name__ == name
    assert plan.reads == READS[kind, name]


def test_every_declared_plan_attribute_is_read():
    read = {attr for reads in READS.values() for attr in reads}
    assert read == set(speedups.PLAN_ATTRS)


def test_configure_reads_every_hook_once_in_order():
    module = _fresh_module()
    hooks = Recording(vars(_backend.HOOKS))
    module.configure(hooks)
    assert hooks.reads == list(module.HOOK_ATTRS)
    assert module.eq('__eq__', Recording(PLAN_VALUES)).__signature__ is not None


def test_nothing_that_needs_the_hooks_runs_before_configure():
    module = _fresh_module()
    calls = [lambda: module.eq('__eq__', Recording(PLAN_VALUES)),
             lambda: module.init('__init__', Recording(PLAN_VALUES)),
             lambda: module.asdict(1j, dict),
             lambda: module.public_fields(Point),
             lambda: module.public_replace(Point()),
             lambda: module.attach(Point, '__eq__', print),
             lambda: module.cache_hash('__hash__', hash, None),
             lambda: module.cached_property(print, 'slot')]
    for call in calls:
        with pytest.raises(RuntimeError, match=r'configure\(\) was not called'):
            call()


@pytest.mark.parametrize('change', [
    {'kept': None},                    # not a type
    {'atomic_types': {int}},           # not a frozenset
    {'names_cache': []},               # not a dict
])
def test_a_failed_configure_keeps_nothing(change):
    module = _fresh_module()
    with pytest.raises(TypeError, match='configure'):
        module.configure(SimpleNamespace(**{**vars(_backend.HOOKS), **change}))
    hooks = {k: v for k, v in vars(_backend.HOOKS).items() if k != 'container'}
    with pytest.raises(AttributeError, match='container'):
        module.configure(SimpleNamespace(**hooks))
    with pytest.raises(RuntimeError, match=r'configure\(\) was not called'):
        module.asdict(1j, dict)
    module.configure(_backend.HOOKS)
    assert module.asdict(1j, dict) == 1j
