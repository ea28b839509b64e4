"""Per-field ``converter``, ``validator`` and ``alias``: beyond the stdlib, on
both backends, dict-based and slotted, with the same results, exceptions and
order of calls."""

import copy
import dataclasses
import inspect
import os
import pickle
import sys
from typing import ClassVar

import pytest
from hypothesis import given, settings, strategies as st

from dataclass_meta import KW_ONLY, DataClass, InitVar, field, fields, replace


def positive(instance, f, value):
    if value <= 0:
        raise ValueError(f'{f.name} must be positive, got {value}')


class Log(list):
    """Records calls: ``log.converter('a')`` converts with int and logs."""

    def converter(self, name, to=int):
        def convert(value):
            self.append(('convert', name, value))
            return to(value)
        return convert

    def validator(self, name):
        def validate(instance, f, value):
            self.append(('validate', name, f.name, value))
        return validate


# -- converters -----------------------------------------------------------------

def test_converter_runs_on_arguments_defaults_and_factories(backend, slots):
    class C(DataClass, slots=slots):
        a: int = field(converter=int)
        b: int = field(default='2', converter=int)
        c: list = field(default_factory=tuple, converter=list)

    c = C('1')
    assert (c.a, c.b, c.c) == (1, 2, [])
    assert C('1', b='5', c='xy') == C(1, 5, ['x', 'y'])
    assert C(a=1).c is not C(a=1).c  # the factory's result, converted per instance


def test_converter_runs_on_assignment_but_not_on_a_frozen_class(backend, slots):
    class C(DataClass, slots=slots):
        a: int = field(converter=int)

    c = C('1')
    c.a = '7'
    assert c.a == 7


def test_unrelated_attributes_are_stored_as_given(backend):
    class C(DataClass):
        a: int = field(converter=int)

    c = C('1')
    c.other = '8'
    assert c.other == '8'


def test_frozen_class_converts_in_init_and_refuses_assignment(backend, slots):
    class C(DataClass, frozen=True, slots=slots):
        a: int = field(converter=int)

    c = C('3')
    assert c.a == 3 and hash(c) == hash(C(3))
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.a = 4


def test_a_converter_that_raises_leaves_nothing_stored(backend, slots):
    calls = Log()

    class C(DataClass, frozen=True, slots=slots):
        a: int = field(converter=calls.converter('a'))
        b: int = field(converter=calls.converter('b'))

    obj = C.__new__(C)
    with pytest.raises(ValueError, match='invalid literal'):
        obj.__init__('1', 'x')
    assert calls == [('convert', 'a', '1'), ('convert', 'b', 'x')]
    for name in ('a', 'b'):
        assert not hasattr(obj, name)


def test_post_init_sees_converted_values(backend):
    seen = []

    class C(DataClass):
        a: int = field(converter=int)
        extra: InitVar[str] = 'e'

        def __post_init__(self, extra):
            seen.append((self.a, extra))

    C('4', 'x')
    assert seen == [(4, 'x')]


def test_init_false_field_with_a_default_is_converted_per_instance(backend, slots):
    class C(DataClass, slots=slots):
        a: int = 0
        tags: list = field(default=(), converter=list, init=False)

    one, two = C(), C()
    assert one.tags == [] and one.tags is not two.tags
    assert 'tags' not in inspect.signature(C).parameters


# -- validators ------------------------------------------------------------------

def test_validator_gets_instance_field_and_converted_value(backend, slots):
    class C(DataClass, slots=slots):
        a: int = field(converter=int, validator=positive)

    assert C('2').a == 2
    with pytest.raises(ValueError, match='a must be positive, got -1'):
        C('-1')
    c = C(1)
    with pytest.raises(ValueError, match='a must be positive, got 0'):
        c.a = '0'
    assert c.a == 1  # a failed assignment stores nothing


def test_validators_run_after_every_store_then_post_init(backend, slots):
    calls = Log()

    class C(DataClass, slots=slots):
        a: int = field(converter=calls.converter('a'), validator=calls.validator('a'))
        b: int = field(default='2', validator=[calls.validator('b1'), calls.validator('b2')])
        c: int = field(default='3', converter=calls.converter('c'))

        def __post_init__(self):
            calls.append(('post_init', self.a, self.b, self.c))

    C('1')
    assert calls == [('convert', 'a', '1'), ('convert', 'c', '3'),
                     ('validate', 'a', 'a', 1), ('validate', 'b1', 'b', '2'),
                     ('validate', 'b2', 'b', '2'), ('post_init', 1, '2', 3)]
    calls.clear()
    c = C(1)
    calls.clear()
    c.a = '5'
    assert calls == [('convert', 'a', '5'), ('validate', 'a', 'a', 5)]


def test_validator_error_propagates_unchanged(backend):
    error = LookupError('mine')

    def refuse(instance, f, value):
        raise error

    class C(DataClass):
        a: int = field(validator=refuse)

    with pytest.raises(LookupError) as info:
        C(1)
    assert info.value is error


def test_validator_receives_the_field_object_of_the_class(backend):
    got = []

    class C(DataClass):
        a: int = field(validator=lambda inst, f, v: got.append(f))

    C(1)
    assert got == [fields(C)[0]]


# -- aliases ---------------------------------------------------------------------

def test_alias_names_the_init_parameter(backend, slots):
    class User(DataClass, slots=slots):
        _id: int = field(alias='id')
        name: str = 'n'

    u = User(id=3)
    assert u._id == 3 and User(4)._id == 4
    assert list(inspect.signature(User).parameters) == ['id', 'name']
    assert User.__match_args__ == ('_id', 'name')
    assert repr(u).endswith("User(_id=3, name='n')")
    assert dataclasses.asdict(u) == {'_id': 3, 'name': 'n'}
    # The field's own name is taken too (tools that build by field name), once.
    assert User(_id=3) == u and User(name='m', _id=3) == User(3, 'm')
    with pytest.raises(TypeError, match=r"User.__init__\(\) got multiple values for "
                                        r"argument 'id'$"):
        User(id=3, _id=4)
    with pytest.raises(TypeError, match=r"User.__init__\(\) got multiple values for "
                                        r"argument 'id'$"):
        User(3, _id=4)
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'id'"):
        User()


def test_alias_in_replace_and_dunder_replace(backend):
    class User(DataClass):
        _id: int = field(alias='id')
        name: str = 'n'

    u = User(1)
    assert replace(u, id=2) == User(2)
    assert u.__replace__(name='m') == User(1, 'm')
    if sys.version_info >= (3, 13):
        assert copy.replace(u, id=5) == User(5)
    # The stdlib's dataclasses.replace() passes attribute names to __init__,
    # which takes them too; so do ours.
    assert dataclasses.replace(u, name='m') == User(1, 'm')
    assert dataclasses.replace(u, _id=7) == replace(u, _id=7) == u.__replace__(_id=7) == User(7)
    if sys.version_info >= (3, 13):
        assert copy.replace(u, _id=6) == User(6)
    with pytest.raises(TypeError, match=r"User.__init__\(\) got multiple values for "
                                        r"argument 'id'$"):
        replace(u, id=2, _id=3)


def test_alias_self_renames_the_first_parameter(backend):
    class C(DataClass):
        me: int = field(alias='self')

    assert list(inspect.signature(C.__init__).parameters) == ['__dataclass_self__', 'self']
    assert C(self=2).me == 2


def test_alias_is_the_parameter_name_once_the_field_is_a_class_s(backend):
    """``Field.alias`` is what ``__init__`` calls the parameter: the alias given, else
    the field's name (an InitVar's too); None for a ClassVar and outside a class."""
    seen = []

    class Base(DataClass):
        def __transform_fields__(cls, fields):
            seen.extend((f.name, f.alias) for f in fields)
            return fields

    class C(Base):
        k: ClassVar[int] = 0
        a: int = field(alias='b')
        c: int = field(converter=int)
        d: int = field(default=1, init=False)
        e: InitVar[int] = 0

    assert seen == [('k', None), ('a', 'b'), ('c', 'c'), ('d', 'd'), ('e', 'e')]
    assert [f.alias for f in fields(C)] == ['b', 'c', 'd']
    assert C.__dataclass_fields__['e'].alias == 'e'
    assert "alias='c'" in repr(fields(C)[1])
    assert field().alias is None and field(alias='x').alias == 'x'
    loose = copy.copy(fields(C)[0])
    loose.alias = None  # back to no alias: the name again
    assert loose.alias == 'a' and list(inspect.signature(C).parameters) == ['b', 'c', 'e']


# -- replace() and converters ----------------------------------------------------

def test_replace_converts_only_what_it_is_given(backend, slots):
    calls = Log()

    class C(DataClass, slots=slots):
        a: int = field(converter=calls.converter('a'))
        b: int = field(converter=calls.converter('b'))

    c = C('1', '2')
    calls.clear()
    d = replace(c, b='5')
    assert (d.a, d.b) == (1, 5)
    assert calls == [('convert', 'b', '5')]


def test_replace_with_a_user_init_passes_plain_values(backend):
    class C(DataClass):
        a: int = field(converter=int)

        def __init__(self, a):
            self.a = a  # the converting __setattr__ converts

    assert replace(C('1'), a='3').a == 3
    assert replace(C('1')).a == 1


# -- Field objects and the stdlib's functions ------------------------------------

def test_field_carries_converter_validator_alias():
    f = field(converter=int, validator=positive, alias='x')
    assert (f.converter, f.validator, f.alias) == (int, positive, 'x')
    assert 'converter=<class \'int\'>' in repr(f) and "alias='x'" in repr(f)
    plain = field()
    assert (plain.converter, plain.validator, plain.alias) == (None, None, None)
    assert 'converter' not in repr(plain)  # the stdlib's repr where none is given


def test_stdlib_functions_keep_working(backend):
    class C(DataClass):
        a: int = field(converter=int, validator=positive)
        _b: str = field(default='x', alias='b')

    c = C('3')
    assert dataclasses.is_dataclass(c)
    assert [f.name for f in dataclasses.fields(c)] == ['a', '_b']
    assert dataclasses.asdict(c) == {'a': 3, '_b': 'x'}
    assert dataclasses.astuple(c) == (3, 'x')
    assert copy.copy(c) == c and copy.deepcopy(c) == c


CHECKED = Log()


class Pickled(DataClass):
    a: int = field(converter=CHECKED.converter('a'), validator=CHECKED.validator('a'))
    _b: str = field(default='x', alias='b')


class PickledSlots(DataClass, slots=True):
    a: int = field(converter=CHECKED.converter('a'), validator=CHECKED.validator('a'))
    _b: str = field(default='x', alias='b')


@pytest.mark.parametrize('cls', [Pickled, PickledSlots])
def test_pickle_and_copy_neither_convert_nor_validate_again(cls):
    p = cls('3', b='y')
    CHECKED.clear()
    for back in (pickle.loads(pickle.dumps(p)), copy.copy(p), copy.deepcopy(p)):
        assert back == p and back._b == 'y'
    assert CHECKED == []


def test_subclass_inherits_and_may_drop_a_converter(backend):
    class Base(DataClass):
        a: int = field(converter=int)

    class Keep(Base):
        b: str = ''

    class Drop(Base):
        a: str = ''

    k = Keep('1')
    k.a = '2'
    assert k.a == 2
    d = Drop('1')
    assert d.a == '1'
    d.a = '2'
    assert d.a == '2'  # its own fields: no converter


def test_a_class_without_them_is_unchanged(backend):
    class C(DataClass):
        a: int = 0

    assert '__setattr__' not in C.__dict__
    assert C.__dataclass_fields__['a'].converter is None


# -- bad input -------------------------------------------------------------------

@pytest.mark.parametrize('options, error, message', [
    (dict(converter=3), TypeError,
     "field 'x' of data class 'C': converter 3 is not callable"),
    (dict(validator=[int, 3]), TypeError,
     "field 'x' of data class 'C': validator 3 is not callable"),
    (dict(validator='v'), TypeError,
     "field 'x' of data class 'C': validator 'v' is not callable"),
    (dict(alias='class'), ValueError,
     "field 'x' of data class 'C': alias 'class' is not a valid parameter name"),
    (dict(alias='a b'), ValueError, "alias 'a b' is not a valid parameter name"),
    (dict(alias=3), TypeError, "field 'x' of data class 'C': alias must be a str, not int"),
    (dict(converter=int, init=False), TypeError,
     "field 'x' of data class 'C' has a converter but init=False and no default"),
])
def test_bad_field_options_fail_at_class_creation(backend, options, error, message):
    with pytest.raises(error, match=message.replace('(', r'\(')):
        class C(DataClass):
            x: int = field(**options)


def test_alias_clash_names_both_fields(backend):
    with pytest.raises(TypeError, match="field 'y' of data class 'D': __init__ parameter "
                                        "'y' is already that of field 'x'"):
        class D(DataClass):
            x: int = field(alias='y')
            y: int = 0


def test_keyword_only_aliased_fields_by_either_name(backend):
    """Fields after ``KW_ONLY`` and ``kw_only=True`` ones, aliased: by alias or
    by field name, never positionally; both names for one is a duplicate."""
    class C(DataClass):
        a: int
        _: KW_ONLY
        _b: int = field(default=2, alias='b')
        _c: int = field(default=3, alias='c', converter=int)

    assert C(1, b=5, _c='6') == C(1, _b=5, c=6) == C(a=1, _b=5, _c='6')
    assert C(1)._b == 2 and list(inspect.signature(C).parameters) == ['a', 'b', 'c']
    with pytest.raises(TypeError, match=r"takes 2 positional arguments but 3 were given"):
        C(1, 5)
    with pytest.raises(TypeError, match=r"got multiple values for argument 'c'$"):
        C(1, c=1, _c=2)


def test_classvar_and_initvar_refuse_them(backend):
    from typing import ClassVar
    with pytest.raises(TypeError, match='field x is a ClassVar but specifies converter'):
        class C(DataClass):
            x: ClassVar[int] = field(default=1, converter=int)
    with pytest.raises(TypeError, match="is an InitVar and cannot have a converter"):
        class D(DataClass):
            x: InitVar[int] = field(default=1, converter=int)


def test_own_setattr_with_converters_is_refused(backend):
    with pytest.raises(TypeError, match='Cannot overwrite attribute __setattr__ in class E'):
        class E(DataClass):
            x: int = field(converter=int)

            def __setattr__(self, name, value):
                pass


# -- the same on both backends, for any mix of options ---------------------------

def _run(backend_, spec, args):
    """Define a class from ``spec`` with ``backend_``, construct it with
    ``args`` and assign each field; the log and the outcome."""
    from dataclass_meta import _backend
    calls = Log()
    ns = {'__annotations__': {}}
    for i, (convert, validate, alias) in enumerate(spec):
        name = f'f{i}'
        ns['__annotations__'][name] = int
        ns[name] = field(converter=calls.converter(name) if convert else None,
                         validator=calls.validator(name) if validate else None,
                         alias=f'p{i}' if alias else None)
    with _backend.use(backend_):
        cls = type(DataClass)('C', (DataClass,), ns)
    outcome = []
    try:
        obj = cls(*args)
        outcome.append(repr(obj))
        for i in range(len(spec)):
            setattr(obj, f'f{i}', str(i))
        outcome.append(repr(obj))
        outcome.append(repr(replace(obj)))
    except Exception as exc:
        outcome.append((type(exc), str(exc)))
    return calls, outcome


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), max_size=6),
       st.lists(st.sampled_from(['1', '2', 'x', '-3']), max_size=7))
def test_backends_agree(spec, args):
    from dataclass_meta import _backend
    runs = [_run(b, spec, args) for b in _backend.available()]
    assert all(run == runs[0] for run in runs)
    calls, outcome = runs[0]
    # the model: converters in order, then validators in order, for __init__
    if len(args) == len(spec) and 'x' not in [a for a, s in zip(args, spec) if s[0]]:
        init_calls = calls[:len([s for s in spec if s[0]]) + len([s for s in spec if s[1]])]
        expected = [('convert', f'f{i}', args[i]) for i, s in enumerate(spec) if s[0]]
        expected += [('validate', f'f{i}', f'f{i}', int(args[i]) if s[0] else args[i])
                     for i, s in enumerate(spec) if s[1]]
        assert init_calls == expected


def test_field_hook_may_set_them_on_a_copy(backend):
    """A framework's field hook gives converters after collection; they are
    checked and run as the class body's own."""
    class Base(DataClass):
        @classmethod
        def __transform_fields__(cls, fields):
            changed = []
            for f in fields:
                f = copy.copy(f)
                if f.type is int:
                    f.converter = int
                changed.append(f)
            return super().__transform_fields__(changed)

    class C(Base):
        a: int
        b: str = 'x'

    c = C('4')
    assert c.a == 4 and fields(C)[0].converter is int and fields(C)[1].converter is None
    c.a = '5'
    assert c.a == 5

    class Bad(DataClass):
        @classmethod
        def __transform_fields__(cls, fields):
            f = copy.copy(fields[0])
            f.validator = 'not callable'
            return [f]

    with pytest.raises(TypeError, match="field 'a' of data class 'D': validator "
                                        "'not callable' is not callable"):
        class D(Bad):
            a: int


def test_setting_them_back_to_none_leaves_a_plain_field():
    f = field(converter=int)
    f.converter = None
    assert (f.converter, f.validator, f.alias) == (None, None, None)
    assert 'converter' not in repr(f)


def test_a_field_subclass_with_attributes_of_those_names_is_left_alone(backend):
    """Only the library's own converter, validator and alias count: a framework's
    Field subclass with a slot named ``converter`` keeps its meaning, whether or
    not anything else gave a field a converter first."""
    from dataclass_meta import MISSING, Field

    class Check(Field):
        __slots__ = ('converter',)

    f = Check(MISSING, MISSING, True, True, None, True, None, MISSING)
    f.converter = str.strip
    field(converter=int)  # the process has used the feature

    class User(DataClass):
        name: str = f

    assert User('  Ann ').name == '  Ann '


# -- the note on a converter's or validator's exception ----------------------------

NOTES = sys.version_info >= (3, 11)


def _notes(call):
    """What ``call`` raised: its type, message and notes."""
    with pytest.raises(Exception) as info:
        call()
    return type(info.value), str(info.value), getattr(info.value, '__notes__', [])


def _failing_factory():
    raise LookupError('no default today')


@pytest.mark.parametrize('kw_only', [False, True], ids=['positional', 'keyword'])
@pytest.mark.parametrize('frozen', [False, True], ids=['mutable', 'frozen'])
def test_converter_error_keeps_its_type_and_message_and_gains_a_note(backend, slots,
                                                                      kw_only, frozen):
    """The converter's own exception, with a note naming the class, the field and
    the parameter (3.11+; 3.10 has no notes and leaves it as raised); a default
    factory's exception gets none."""
    class User(DataClass, slots=slots, kw_only=kw_only, frozen=frozen):
        name: str = field(converter=str.strip)
        age: int = field(default=1, converter=int, alias='userAge', validator=positive)
        tags: list = field(default_factory=list, converter=list)

    def note(field, param=None, doing='converting'):
        where = f" (parameter {param!r})" if param else ''
        return [f"while {doing} field {field!r} of data class 'User'{where}"] if NOTES else []

    assert _notes(lambda: User(name=' a ', userAge='x')) == (
        ValueError, "invalid literal for int() with base 10: 'x'", note('age', 'userAge'))
    assert _notes(lambda: User(name=' a ', userAge=-1)) == (
        ValueError, 'age must be positive, got -1', note('age', 'userAge', 'validating'))
    strip_error = _notes(lambda: str.strip(1))[1]  # the interpreter's own words
    assert _notes(lambda: User(name=1)) == (TypeError, strip_error, note('name'))
    assert _notes(lambda: User(name='a', tags=5)) == (
        TypeError, "'int' object is not iterable", note('tags'))
    assert _notes(lambda: replace(User(name='a'), userAge='y')) == (
        ValueError, "invalid literal for int() with base 10: 'y'", note('age', 'userAge'))

    class Later(User):
        day: list = field(default_factory=_failing_factory, converter=list)

    assert _notes(lambda: Later(name='a')) == (LookupError, 'no default today', [])


def test_assignment_error_gains_a_note(backend, slots):
    """Assignment converts and validates too: the note names the class and the field."""
    class User(DataClass, slots=slots):
        age: int = field(default=1, converter=int, alias='userAge', validator=positive)

    user = User()
    assert _notes(lambda: setattr(user, 'age', 'x')) == (
        ValueError, "invalid literal for int() with base 10: 'x'",
        ["while converting field 'age' of data class 'User'"] if NOTES else [])
    assert _notes(lambda: setattr(user, 'age', -2)) == (
        ValueError, 'age must be positive, got -2',
        ["while validating field 'age' of data class 'User'"] if NOTES else [])
    assert user.age == 1


def test_each_route_of_the_pure_init_notes_alike():
    """The relabelled template and the plain closure give the same note (the
    closure serves where a field is named like one of the template's values)."""
    from dataclass_meta import _backend
    with _backend.use(_backend.PURE):
        class T(DataClass):
            a: int = field(converter=int)
            b: int = field(default=1, converter=int, validator=positive)

        class Closure(DataClass):
            _note: int = field(converter=int)
            b: int = field(default=1, converter=int, validator=positive)

    # (a run that refuses new code objects has no templates: both are closures)
    templates = os.environ.get('DATACLASS_META_TEST_CLOSURES') != '1'
    assert (_backend.is_template(T.__init__), _backend.is_template(Closure.__init__)) == (
        templates, False)
    for cls, first in ((T, 'a'), (Closure, '_note')):
        expected = [f"while converting field 'b' of data class {cls.__name__!r}"]
        assert _notes(lambda: cls(1, 'z'))[2] == (expected if NOTES else [])
        expected = [f"while converting field {first!r} of data class {cls.__name__!r}"]
        assert _notes(lambda: cls('z'))[2] == (expected if NOTES else [])
        expected = [f"while validating field 'b' of data class {cls.__name__!r}"]
        assert _notes(lambda: cls(1, 0))[2] == (expected if NOTES else [])


def test_keyboard_interrupt_gets_no_note(backend):
    """Only an ``Exception`` is noted: an interrupt passes through as it is."""
    def interrupt(value):
        raise KeyboardInterrupt

    class C(DataClass):
        a: int = field(converter=interrupt)

    with pytest.raises(KeyboardInterrupt) as info:
        C(1)
    assert not hasattr(info.value, '__notes__')


_SPELLINGS = st.sampled_from(['positional', 'alias', 'name', 'both', 'omitted'])


@settings(max_examples=80, deadline=None)
@given(st.tuples(_SPELLINGS, _SPELLINGS, _SPELLINGS), st.booleans(), st.booleans())
def test_each_aliased_field_by_either_name(spellings, slots, converting):
    """Any mix of positional, alias and field-name spellings builds what the
    positional call builds, on every backend; both names for one field raise
    the duplicate-argument error, whatever else the call holds."""
    from dataclass_meta import _backend
    convert = {'converter': int} if converting else {}
    outcomes = []
    for name in _backend.available():
        with _backend.use(name):
            class C(DataClass, slots=slots):
                _a: int = field(alias='a', **convert)
                _b: int = field(default=2, alias='b', **convert)
                _c: int = field(default=3, alias='c', kw_only=True, **convert)
        args, kwargs, expected = [], {}, []
        for i, (spelling, attr, alias) in enumerate(zip(spellings, ('_a', '_b', '_c'),
                                                        ('a', 'b', 'c'))):
            value = 10 + i
            if spelling == 'positional' and i < 2 and len(args) == i:
                args.append(value)
            elif spelling == 'alias':
                kwargs[alias] = value
            elif spelling in ('name', 'positional'):
                kwargs[attr] = value
            elif spelling == 'both':
                kwargs[alias] = kwargs[attr] = value
            else:
                value = (None, 2, 3)[i]
            expected.append(value)
        try:
            made = C(*args, **kwargs)
        except TypeError as exc:
            outcomes.append(str(exc).rpartition('C.__init__() ')[2])
        else:
            assert (made._a, made._b, made._c) == tuple(expected)
            outcomes.append('made')
    assert len(set(outcomes)) == 1, outcomes
    if 'both' in spellings:
        assert outcomes[0].startswith('got multiple values for argument')
    elif spellings[0] == 'omitted':
        assert outcomes[0] == "missing 1 required positional argument: 'a'"
    else:
        assert outcomes[0] == 'made'
