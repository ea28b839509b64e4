"""Attribute reads and side effects, in order and counted: stdlib vs ours.

The harness of the read-order tests that each feature's file holds (``==`` and
the orderings in ``test_eq_order``, ``hash`` in ``test_hash``, and so on).
Hypothesis generates a class spec; it is defined with ``@dataclasses.dataclass``
and as a ``DataClass`` on each backend, both with a ``__getattribute__`` that
logs every attribute read of an instance, and with field values (``Probe``) that
log every ``==``, ``<``, ``hash``, ``repr``, deep copy and the truth of each
comparison result. Every generated method, and ``asdict``/``astuple``/
``replace``/``copy``, must leave the same log and the same outcome as the
stdlib's: the same reads, each once, in the same order, with the same
short-circuits.
``reads_match_the_stdlib(*ops)`` makes that test for the operations named.
"""

import copy
import dataclasses
import operator
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import dataclass_meta
from dataclass_meta import _backend

from .outcomes import define, outcome
from .strategies import unique_name

BACKENDS = [pytest.param(b, id=b.name) for b in _backend.available()]
PY313 = sys.version_info >= (3, 13)  # gh-104904: __eq__ field by field


class Boom(Exception):
    pass


class Truth:
    """A comparison result whose truth, when asked, is logged."""

    def __init__(self, value, log):
        self.value, self.log = value, log

    def __bool__(self):
        self.log.append(('bool', self.value))
        if self.value == 'raise':
            raise Boom('bool')
        return self.value == 'yes'

    def __repr__(self):
        return f'Truth({self.value!r})'


class Probe:
    """A field value that logs what is done to it; ``eq`` says what ``==`` returns:
    'tag' (compare tags), 'truth-yes'/'truth-no'/'truth-raise' (a ``Truth``),
    'notimpl', or 'raise'."""

    def __init__(self, tag, eq, log):
        self.tag, self.eq, self.log = tag, eq, log

    def __eq__(self, other):
        self.log.append(('eq', self.tag, getattr(other, 'tag', other)))
        if self.eq == 'raise':
            raise Boom('eq')
        if self.eq == 'notimpl':
            return NotImplemented
        if self.eq.startswith('truth-'):
            return Truth(self.eq[6:], self.log)
        return isinstance(other, Probe) and self.tag == other.tag

    def __lt__(self, other):
        self.log.append(('lt', self.tag, getattr(other, 'tag', other)))
        if self.eq == 'raise':
            raise Boom('lt')
        return isinstance(other, Probe) and self.tag < other.tag

    def __gt__(self, other):
        self.log.append(('gt', self.tag, getattr(other, 'tag', other)))
        return isinstance(other, Probe) and self.tag > other.tag

    __le__ = __ge__ = None  # tuple comparison never needs them here

    def __hash__(self):
        self.log.append(('hash', self.tag))
        return self.tag

    def __repr__(self):
        self.log.append(('repr', self.tag))
        return f'P{self.tag}'

    def __deepcopy__(self, memo):
        self.log.append(('deepcopy', self.tag))
        return self


def logging_getattribute(log):
    """A ``__getattribute__`` that logs every read through the instance (the
    interpreter's own lookups of special methods do not come through here)."""
    def __getattribute__(self, name):
        log.append(('get', name))
        return object.__getattribute__(self, name)
    return __getattribute__


FIELD_NAMES = 'abcdefghijklmn'  # up to 14: past the largest template (12 fields)


@st.composite
def specs(draw):
    """(fields [(name, compare, repr, hash)], options)."""
    n = draw(st.integers(0, 12))
    fields = [(FIELD_NAMES[i], draw(st.booleans() | st.just(True)),
               draw(st.booleans() | st.just(True)), draw(st.sampled_from([None, None, False])))
              for i in range(n)]
    options = draw(st.fixed_dictionaries({
        'order': st.booleans(), 'frozen': st.booleans(), 'slots': st.booleans(),
        'unsafe_hash': st.booleans()}))
    return fields, options


def logged_class(fields, options, log, ours, name):
    """The spec as a class: ``@dataclass`` (``ours`` false) or a ``DataClass``."""
    ns = {'__annotations__': {}, '__getattribute__': logging_getattribute(log),
          '__qualname__': name}
    for fname, compare, repr_, hash_ in fields:
        ns['__annotations__'][fname] = object
        ns[fname] = dataclasses.field(compare=compare, repr=repr_, hash=hash_)
    return define(ours, name, ns, **options)


values = st.tuples(st.integers(0, 3), st.sampled_from(
    ['tag'] * 6 + ['truth-yes', 'truth-no', 'truth-raise', 'notimpl', 'raise']))


def instance(cls, row, log):
    """An instance of ``cls`` with a ``Probe`` per field, built without ``__init__``."""
    obj = object.__new__(cls)
    for f, (tag, eq) in zip(dataclasses.fields(cls), row):
        object.__setattr__(obj, f.name, Probe(tag, eq, log))
    return obj


def _named(exc):
    return type(exc).__name__, str(exc)


def _seen(result):
    """A result with the probes' tags for values: the two sides' classes differ."""
    if isinstance(result, Truth):
        return ('truth', result.value)
    if dataclasses.is_dataclass(result) and not isinstance(result, type):
        return ('instance', [(f.name, object.__getattribute__(result, f.name).tag)
                             for f in dataclasses.fields(result)])
    return ('value', repr(result) if not isinstance(result, (dict, tuple)) else
            repr(result).replace('P', 'p'))


# Per operation: (stdlib's, ours); most are the same call on both.
OPS = {
    '==': operator.eq, '!=': operator.ne, '<': operator.lt, '<=': operator.le,
    '>': operator.gt, '>=': operator.ge,
    'hash': lambda x, y: hash(x), 'repr': lambda x, y: repr(x),
    'asdict': (dataclasses.asdict, dataclass_meta.asdict),
    'astuple': (dataclasses.astuple, dataclass_meta.astuple),
    'replace': (dataclasses.replace, dataclass_meta.replace),
    'copy': lambda x, y: copy.copy(x),
    'deepcopy': lambda x, y: copy.deepcopy(x),
}
if PY313:
    OPS['copy.replace'] = lambda x, y: copy.replace(x)


def run(op, ours, x, y):
    call = OPS[op]
    if isinstance(call, tuple):
        return call[ours](x)
    return call(x, y)


def reads_match_the_stdlib(*ops):
    """A test that each of ``ops`` reads the same attributes, once each, in the
    stdlib's order, and calls ``==``/``<``/``hash``/``repr``/truth on the values
    as it does, with the same outcome: for generated specs and values, on every
    backend. Each feature's file names the test it gets from here."""
    ops = [op for op in ops if op in OPS]  # copy.replace: 3.13+

    @pytest.mark.parametrize('backend', BACKENDS)
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(spec=specs(), rows=st.lists(st.lists(values, min_size=12, max_size=12),
                                       min_size=2, max_size=2),
           op=st.sampled_from(ops), same_object=st.booleans())
    def test(backend, spec, rows, op, same_object):
        fields, options = spec
        if not PY313 and op in ('==', '!='):
            return  # 3.10-3.12 compare tuples (gh-104904): the contract is 3.13's
        if options['frozen'] is False and options['unsafe_hash'] is False and op == 'hash':
            return  # unhashable on both sides
        if not options['order'] and op in ('<', '<=', '>', '>='):
            return  # no orderings: object's NotImplemented, nothing generated
        name = unique_name()
        results = []
        for ours in (False, True):
            log = []
            with _backend.use(backend):
                cls = logged_class(fields, options, log, ours, name)
            x = instance(cls, rows[0], log)
            y = x if same_object else instance(cls, rows[1], log)
            del log[:]
            with _backend.use(backend):  # asdict/astuple run on it too
                result = outcome(lambda: run(op, ours, x, y), _seen, _named)
            results.append((result, list(log)))
        assert results[1] == results[0]
    return test
