"""Calling a data class: ``C(...)`` does what ``type.__call__`` does for a stdlib
data class, also after the class, a base or the metaclass changes (the compiled
core gives classes their own vectorcall where nothing can tell)."""

import abc
import copy
import dataclasses
import pickle
import sys
import weakref

import pytest

from dataclass_meta import DataClass, DataClassMeta, InitVar, KW_ONLY, _backend, field

from .implementation import PYPY, run_in_a_child
from .outcomes import both_ways, outcome

pytestmark = pytest.mark.usefixtures('backend')


def point():
    return {'__annotations__': {'x': int, 'y': int}, 'y': 0, '__module__': __name__}


def _instance(obj):
    """An instance as the comparisons see it: its class's name and its dict."""
    return type(obj).__name__, vars(obj) if hasattr(obj, '__dict__') else None


def result(call):
    """What ``call()`` gives, an instance seen through ``_instance``."""
    return outcome(call, _instance)


@pytest.mark.parametrize('args, kwargs', [
    ((), {}), ((1, 2, 3), {}), ((1,), {'x': 2}), ((), {'z': 1}), ((1,), {'y': 2}),
    ((), {'y': 1}),
])
def test_call_errors_are_the_stdlib_texts(args, kwargs):
    std, ours = both_ways('C', point)
    assert result(lambda: ours(*args, **kwargs)) == result(lambda: std(*args, **kwargs))


def test_init_reassigned_after_construction_is_used():
    for cls in both_ways('C', point):
        cls(1, 2)
        calls = []
        original = cls.__init__

        def __init__(self, *args):
            calls.append(args)
            original(self, *args)
        cls.__init__ = __init__
        assert cls(3, 4).x == 3 and calls == [(3, 4)]
        cls.__init__ = original
        assert cls(5).x == 5 and calls == [(3, 4)]


def test_new_assigned_after_construction_is_used():
    results = []
    for cls in both_ways('C', point):
        cls(1)
        made = []

        def __new__(klass, *args, **kwargs):
            made.append(args)
            return object.__new__(klass)
        cls.__new__ = __new__
        assert cls(1, 2).y == 2 and made == [(1, 2)]
        del cls.__new__  # CPython then keeps a tp_new that refuses arguments
        results.append((result(lambda: cls(7)), made))
    assert results[0] == results[1]


def test_new_returning_another_object_skips_init():
    for cls in both_ways('C', point):
        cls.__new__ = lambda klass, *args: 'other'
        assert cls(1) == 'other'


def test_a_base_changed_after_a_subclass_was_constructed():
    std, ours = both_ways('C', point)
    for base in (std, ours):
        sub = (dataclasses.dataclass(type('S', (base,), {'__module__': __name__}))
               if base is std else type(base)('S', (base,), {}))
        assert sub(1, 2).y == 2
        base.__init__ = lambda self, *args: object.__setattr__(self, 'seen', args)
        assert vars(sub(1, 2)) == {'x': 1, 'y': 2}  # S has its own __init__
        inherits = type(base)('T', (base,), {}, init=False) if base is ours else \
            dataclasses.dataclass(init=False)(type('T', (base,), {}))
        assert inherits(3).seen == (3,)
        base.__new__ = lambda klass, *args: 'from base'
        assert sub(1) == 'from base' and inherits(1) == 'from base'


def test_inherited_compiled_init_runs_for_an_init_false_subclass():
    std, ours = both_ways('C', point)
    s = dataclasses.dataclass(init=False)(type('S', (std,), {}))
    o = type(ours)('S', (ours,), {}, init=False)
    for args in ((1,), (1, 2), ()):
        assert result(lambda: o(*args)) == result(lambda: s(*args))


def test_init_false_without_an_init_takes_no_arguments():
    std, ours = both_ways('C', point, init=False)
    assert result(lambda: ours(1)) == result(lambda: std(1))
    assert result(lambda: ours()) == result(lambda: std())


def test_metaclass_call_runs():
    log = []

    class Meta(DataClassMeta):
        def __call__(cls, *args, **kwargs):
            log.append(args)
            return super().__call__(*args, **kwargs)

    class C(metaclass=Meta):
        x: int

    assert C(1).x == 1 and log == [(1,)]


def test_metaclass_call_added_later_and_class_of_class_changed():
    class Framework(DataClassMeta):
        pass

    class C(metaclass=Framework):
        x: int

    assert C(1).x == 1
    log = []

    def logged_call(cls, *args, **kwargs):
        log.append(args)
        return type.__call__(cls, *args, **kwargs)
    Framework.__call__ = logged_call
    assert C(2).x == 2 and log == [(2,)]
    del Framework.__call__
    assert C(3).x == 3 and log == [(2,)]

    class Logged(DataClassMeta):
        __call__ = logged_call

    C.__class__ = Logged
    assert C(4).x == 4 and log == [(2,), (4,)]
    C.__class__ = Framework
    assert C(5).x == 5 and log == [(2,), (4,)]


def test_init_replaced_while_it_runs():
    """A default factory that replaces ``C.__init__``: the running one finishes."""
    state = {}

    def body():
        def factory():
            state['cls'].__init__ = lambda self, *a: None
            return []
        return {'__annotations__': {'x': int, 'y': list}, '__module__': __name__,
                'y': dataclasses.field(default_factory=factory)}

    for cls in both_ways('C', body):
        state['cls'] = cls
        assert vars(cls(1)) == {'x': 1, 'y': []}
        assert vars(cls(1)) == {}


def test_post_init_initvar_factory_kw_only():
    def body():
        def __post_init__(self, scale):
            self.total = self.x * scale + len(self.tags)
        return {'__annotations__': {'x': int, 'scale': InitVar[int], '_': KW_ONLY,
                                    'tags': list, 'flag': bool},
                'tags': dataclasses.field(default_factory=lambda: ['a']), 'flag': False,
                '__post_init__': __post_init__, '__module__': __name__}
    std, ours = both_ways('C', body)
    for args, kwargs in (((2, 3), {}), ((2,), {'scale': 3, 'flag': True}),
                         ((2, 3, 4), {}), ((2, 3), {'tags': []})):
        assert result(lambda: ours(*args, **kwargs)) == result(lambda: std(*args, **kwargs))


@pytest.mark.parametrize('options', [{'frozen': True}, {'slots': True},
                                     pytest.param({'slots': True, 'weakref_slot': True},
                                                  marks=pytest.mark.skipif(
                                                      sys.version_info < (3, 11),
                                                      reason='weakref_slot is 3.11+')),
                                     {'frozen': True, 'slots': True}])
def test_frozen_and_slotted_classes(options):
    std, ours = both_ways('C', point, **options)
    for args in ((1, 2), (1,), ()):
        s, o = result(lambda: std(*args)), result(lambda: ours(*args))
        assert o == s
    obj = ours(1, 2)
    assert (obj.x, obj.y) == (1, 2)
    if options.get('weakref_slot'):
        assert weakref.ref(obj)() is obj
    if options.get('frozen'):
        with pytest.raises(dataclasses.FrozenInstanceError):
            obj.x = 3


@pytest.mark.parametrize('options', [{}, {'frozen': True}, {'slots': True}])
def test_a_store_that_changes_the_class_mid_construction(options):
    """``C(x, y)`` passing every field positionally stores straight from the call
    (the compiled core); a store that runs code (a subclass's property) and
    changes the instance's class sends the next store through the new class, as
    the stdlib's ``self.x = x; self.y = y`` does."""
    def run(make):
        log = []
        base = make()

        def setter(name, then=None):
            def store(self, value):
                log.append((type(self).__name__, name, value))
                if then is not None:
                    object.__setattr__(self, '__class__', then())
            return property(None, store)

        class Sub(base):  # a data class too where ``base`` is ours
            pass

        class Other(base):
            pass
        # Set after the class statements: a slotted data class keeps no class
        # attribute named like a field. ``y`` stays a slot of Sub (stored by
        # offset in C) and is a property of Other.
        Sub.x = setter('x', lambda: Other)
        Other.y = setter('y')

        try:
            obj = Sub(1, 2)
        except Exception as exc:  # noqa: BLE001 -- the outcome
            return log, type(exc).__name__
        return log, type(obj).__name__
    def std():
        return dataclasses.dataclass(**options)(type('P', (), point()))
    def ours():
        return DataClassMeta('P', (DataClass,), point(), **options)
    assert run(ours) == run(std)


@pytest.mark.skipif(PYPY, reason="PyPy runs __del__ at a later collection, not when "
                                  "the last reference goes, which is what this relies on")
def test_a_released_value_that_changes_the_class_mid_construction():
    """A store that replaces a value an earlier store's code put in a later
    field's slot releases it; its ``__del__`` may change the class, and the next
    store goes through the changed class (``self.c = c`` in the stdlib's
    ``__init__``)."""
    log = []

    class C(DataClass, slots=True):
        a: object
        b: object
        c: object
    slot_a, slot_b = C.__dict__['a'], C.__dict__['b']

    class Bomb:
        def __del__(self):
            C.c = property(None, lambda obj, value: log.append(('c', value)))

    def set_a(obj, value):
        slot_a.__set__(obj, value)
        slot_b.__set__(obj, Bomb())  # replaced by the store of b: Bomb.__del__ runs
    C.a = property(slot_a.__get__, set_a)
    obj = C(1, 2, 3)
    assert log == [('c', 3)] and (obj.a, obj.b) == (1, 2)


def test_init_called_directly():
    _, ours = both_ways('C', point)
    obj = ours(1, 2)
    ours.__init__(obj, 3)
    assert (obj.x, obj.y) == (3, 0)
    ours.__init__(self=obj, x=4)
    assert obj.x == 4


class Shape(DataClass):
    x: int


class Frozen(DataClass, frozen=True, slots=True):
    x: int
    y: list = field(default_factory=list)


@pytest.mark.parametrize('obj', [Shape(1), Frozen(1, [2])], ids=['plain', 'frozen_slots'])
def test_pickle_and_copy(obj):
    for clone in (copy.copy(obj), copy.deepcopy(obj), pickle.loads(pickle.dumps(obj))):
        assert clone == obj and type(clone) is type(obj)


def test_abstract_class_is_not_instantiated():
    def body():
        return {'__annotations__': {'x': int}, '__module__': __name__,
                'area': abc.abstractmethod(lambda self: 0)}
    std = dataclasses.dataclass(abc.ABCMeta('C', (abc.ABC,), body()))
    ours = DataClassMeta('C', (DataClass, abc.ABC), body())
    assert result(lambda: ours(1)) == result(lambda: std(1))
    assert result(lambda: ours(1))[1] is TypeError
    concrete = DataClassMeta('D', (ours,), {'area': lambda self: 1})
    assert concrete(2).x == 2
    concrete.__abstractmethods__ = frozenset({'area'})
    assert "Can't instantiate abstract class" in result(lambda: concrete(2))[2]


def recursive_construction_raises_recursion_error():
    def body():
        def __post_init__(self):
            type(self)(self.x + 1)
        return {'__annotations__': {'x': int}, '__post_init__': __post_init__,
                '__module__': __name__}
    _, ours = both_ways('C', body)
    with pytest.raises(RecursionError):
        ours(0)


def test_recursive_construction_raises_recursion_error():
    if not PYPY:
        recursive_construction_raises_recursion_error()
        return
    # PyPy can abort on a stack overflow in its own code: see run_in_a_child.
    printed = run_in_a_child('import tests.test_construct as t; '
                             't.recursive_construction_raises_recursion_error(); print("raised")')
    assert printed == 'raised\n'


def test_fast_construction_is_set_up_where_it_is_used(backend):
    """With the compiled core (the metaclass given the vectorcall flag on 3.10 and
    3.11, where a Python metaclass does not inherit it): where ``__init__`` is the
    compiled one or a Python function; not for another callable."""
    _, ours = both_ways('C', point)
    own = DataClassMeta('O', (DataClass,), {'__init__': lambda self: None})
    other = DataClassMeta('B', (DataClass,), {'__init__': staticmethod(lambda *a: None)})
    expected = backend.name == 'compiled'
    assert backend.construct(ours) is expected
    assert backend.construct(own) is expected
    assert backend.construct(other) is False
    assert _backend.PURE.construct(ours) is False
    assert isinstance(own(), own) and ours(1).x == 1 and isinstance(other(), other)


def test_a_python_init_runs_as_type_call_runs_it(backend):
    """A class's own construction calling a Python ``__init__`` (a relabelled
    template, or one written in the body): its call errors, the instance it
    is given, and the ``TypeError`` for a result other than None are those of
    the same class called through ``type.__call__``."""
    def init(self, x, y=2):
        self.seen = (type(self), x, y)
        return x if x == 'bad' else None

    def twin():
        return DataClassMeta('T', (DataClass,), {'__init__': init})

    def run(cls, args, kwargs):
        return outcome(lambda: cls(*args, **kwargs),
                       lambda obj: (obj.seen == (cls, *obj.seen[1:]), obj.seen[1:]))

    direct, plain = twin(), twin()
    backend.construct(direct)  # plain keeps type.__call__
    for args, kwargs in (((1,), {}), ((1, 3), {}), ((), {'x': 1}), ((), {}),
                         ((1, 2, 3), {}), ((1,), {'z': 1}), (('bad',), {})):
        assert run(direct, args, kwargs) == run(plain, args, kwargs), (args, kwargs)
    kind, error, text = run(direct, ('bad',), {})
    assert (kind, error) == ('raised', TypeError)
    assert text.startswith('__init__() should return None')


def _fields_view(obj):
    """An instance as the slotted comparisons see it: its class's name and the
    fields it holds (``'unset'`` for an empty slot)."""
    return type(obj).__name__, tuple(getattr(obj, name, 'unset') for name in ('x', 'y'))


def _subclass_makers(options):
    """How ``run`` makes a subclass ``name`` of ``base`` with ``body``, each way:
    (the stdlib's, decorated with ``options``; ours, slotted as its base)."""
    def stdlib_sub(base, name, body):
        namespace = {'__module__': __name__, **body}
        return dataclasses.dataclass(**options)(type(name, (base,), namespace))

    def our_sub(base, name, body):
        return type(base)(name, (base,), body, slots=True)
    return stdlib_sub, our_sub


@pytest.mark.parametrize('options', [{'slots': True}, {'slots': True, 'frozen': True}])
def test_slotted_construction_follows_every_change_of_the_class(options):
    """A slotted class's construction stores the arguments straight into the
    fresh instance's slots (compiled core); whatever makes the stdlib's
    ``__init__`` do otherwise is followed, checked at each call: a subclass with
    a ``__new__`` or a ``__post_init__``, ``__setattr__`` or ``__init__`` assigned
    after creation, a field's class attribute replaced by a descriptor, and an
    instance made by ``object.__new__`` then given to ``C.__init__``."""
    def run(cls, subclass):
        log = []
        seen = [outcome(lambda: cls(1, 2), _fields_view)]
        post = subclass(cls, 'P', {'__post_init__': lambda self: log.append('post')})
        new = subclass(cls, 'N', {
            '__new__': lambda klass, *a: log.append(a) or object.__new__(klass)})
        seen += [outcome(lambda: post(3, 4), _fields_view),
                 outcome(lambda: new(5, 6), _fields_view)]
        bare = object.__new__(cls)
        seen.append(outcome(lambda: bare, _fields_view))
        cls.__init__(bare, 7, 8)
        seen.append(outcome(lambda: bare, _fields_view))
        cls.__setattr__ = lambda self, name, value: (log.append(name),
                                                      object.__setattr__(self, name, value))
        seen.append(outcome(lambda: cls(9, 10), _fields_view))
        slot = cls.__dict__['x']
        cls.x = property(lambda self: ('read', slot.__get__(self)),
                         lambda self, value: (log.append(('set', value)),
                                              slot.__set__(self, value)))
        seen.append(outcome(lambda: cls(11, 12), _fields_view))
        original = cls.__init__
        cls.__init__ = lambda self, *args: (log.append(('init', args)), original(self, *args))[1]
        seen.append(outcome(lambda: cls(13, 14), _fields_view))
        return seen, log

    stdlib_sub, our_sub = _subclass_makers(options)
    std, ours = both_ways('C', point, **options)
    assert run(ours, our_sub) == run(std, stdlib_sub)


def _slotted_body():
    """Fields of every kind a slotted class's construction binds in C: plain,
    defaulted, a default factory, keyword-only (after ``KW_ONLY``)."""
    return {'__annotations__': {'a': int, 'b': int, 'c': list, '_': KW_ONLY, 'k': int,
                                'm': int},
            'b': 2, 'c': field(default_factory=list), 'm': 9, '__module__': __name__}


_CALLS = [
    ((1,), {'k': 3}), ((1, 2), {'k': 3}), ((1, 2, [4]), {'k': 3, 'm': 5}),
    ((), {'a': 1, 'k': 3}), ((), {'k': 3, 'a': 1, 'm': 5, 'c': [6], 'b': 7}),
    ((1,), {'k': 3, 'b': 2}),
    # the interpreter's errors: missing, unexpected, repeated, too many
    ((), {}), ((1,), {}), ((), {'k': 3}), ((1,), {'k': 3, 'z': 1}),
    ((1,), {'k': 3, 'a': 2}), ((1, 2, [], 4), {'k': 3}), ((1,), {'k': 3, 'self': 0}),
    ((1,), {'k': 3, 'b': 2, 'zz': 1, 'yy': 2}),
]


@pytest.mark.parametrize('options', [{'slots': True}, {'slots': True, 'frozen': True}])
@pytest.mark.parametrize('args, kwargs', _CALLS)
def test_slotted_keyword_construction_is_the_stdlibs(options, args, kwargs):
    """Keyword and mixed calls of a slotted class (bound in C straight into the
    fresh instance, compiled core): the same fields, defaults and factories'
    values, and the interpreter's TypeError texts, as the stdlib's ``__init__``;
    a factory's value is new at each call."""
    std, ours = both_ways('C', _slotted_body, **options)

    def view(obj):
        return type(obj).__name__, tuple(getattr(obj, n) for n in 'abckm')
    assert outcome(lambda: ours(*args, **kwargs), view) == \
        outcome(lambda: std(*args, **kwargs), view)
    if outcome(lambda: ours(*args, **kwargs))[0] == 'ok' and len(args) < 3 and 'c' not in kwargs:
        assert ours(*args, **kwargs).c is not ours(*args, **kwargs).c


@pytest.mark.parametrize('options', [{'slots': True}, {'slots': True, 'frozen': True}])
def test_a_default_factory_that_changes_the_class_mid_construction(options):
    """A default factory runs code between the stores: where it replaces a later
    field's slot with a property, or gives the class a ``__setattr__``, the
    stores after it go through the changed class (the stdlib's
    ``self.y = y`` does), those before it into the slots."""
    def body():
        return {'__annotations__': {'x': int, 'f': list, '_': KW_ONLY, 'y': int},
                'f': field(default_factory=lambda: FACTORY[0]()), '__module__': __name__}
    FACTORY = [list]

    def run(cls):
        log = []
        seen = [outcome(lambda: cls(1, y=2), _view_xfy)]
        slot = cls.__dict__['y']

        def change():
            cls.y = property(slot.__get__,
                             lambda obj, value: (log.append(('y', value)),
                                                 slot.__set__(obj, value)))
            cls.__setattr__ = lambda obj, name, value: (log.append(name),
                                                        object.__setattr__(obj, name, value))
            return ['made']
        FACTORY[0] = change
        seen.append(outcome(lambda: cls(3, y=4), _view_xfy))
        FACTORY[0] = list
        seen.append(outcome(lambda: cls(5, y=6), _view_xfy))
        return seen, log

    std, ours = both_ways('C', body, **options)
    assert run(ours) == run(std)


def _view_xfy(obj):
    return type(obj).__name__, obj.x, obj.f, obj.y


@pytest.mark.parametrize('options', [{'slots': True}, {'slots': True, 'frozen': True}])
def test_keyword_construction_follows_every_change_of_the_class(options):
    """The keyword calls' route (compiled core: bound in C into the slots) also
    gives way to a subclass's ``__new__`` or ``__post_init__``, an ``__init__``
    assigned after creation and an instance made by ``object.__new__`` then given
    to ``C.__init__`` by keyword, as the stdlib's call does."""
    def run(cls, subclass):
        log = []
        seen = [outcome(lambda: cls(x=1, y=2), _fields_view)]
        post = subclass(cls, 'P', {'__post_init__': lambda self: log.append('post')})
        new = subclass(cls, 'N', {
            '__new__': lambda klass, *a, **k: log.append((a, k)) or object.__new__(klass)})
        seen += [outcome(lambda: post(y=4, x=3), _fields_view),
                 outcome(lambda: new(5, y=6), _fields_view)]
        bare = object.__new__(cls)
        cls.__init__(bare, y=8, x=7)
        seen.append(outcome(lambda: bare, _fields_view))
        original = cls.__init__
        cls.__init__ = lambda self, **kw: (log.append(('init', kw)), original(self, **kw))[1]
        seen.append(outcome(lambda: cls(x=13, y=14), _fields_view))
        cls.__init__ = original
        seen.append(outcome(lambda: cls(y=16, x=15), _fields_view))
        return seen, log

    stdlib_sub, our_sub = _subclass_makers(options)
    std, ours = both_ways('C', point, **options)
    assert run(ours, our_sub) == run(std, stdlib_sub)


def test_construction_while_the_class_keeps_changing():
    """Every assignment to a class (here a counter kept on it, each call) gives
    it a new version tag, which the compiled core's per-class plan is checked
    against: construction stays right however often it changes."""
    class C(DataClass, slots=True):
        x: int
        y: int = 0
    C.made = 0
    for i in range(50):
        obj = C(i, y=i + 1) if i % 2 else C(i)
        C.made += 1
        assert (obj.x, obj.y) == (i, i + 1 if i % 2 else 0)
    assert C.made == 50
