"""``@dataclasses.dataclass`` left on a class converted to ``DataClass``.

The decorator would re-process a finished class and, with ``frozen=True``, add a
``__setattr__`` that makes every call of our ``__init__`` raise
``FrozenInstanceError``. It is refused when it is applied, with the fix.
"""

import copy
import dataclasses
import pickle

import pytest

from dataclass_meta import DataClass, fields, make_dataclass, replace


class Model(DataClass):
    x: int


class Slotted(DataClass, slots=True):
    x: int


class Picklable(DataClass, frozen=True):
    x: int


# 3.12+: gh-96142 gave _DataclassParams all ten options; 3.10/3.11's decorator
# records six (init, repr, eq, order, unsafe_hash, frozen), so only those can be
# named back to the user there.
_RECORDED = dataclasses._DataclassParams.__slots__


def _keywords(**options):
    return ''.join(f', {k}={v!r}' for k, v in options.items() if k in _RECORDED)


def _message(name, base, keywords=''):
    remedy = (': remove the decorator and pass its options as class keywords'
              if keywords else ': remove the decorator')
    return (f'@dataclass applied to {name!r}, which is already a data class through '
            f'{base}{remedy}: class {name}({base}{keywords})')


@pytest.mark.parametrize('slots', [False, True])
@pytest.mark.parametrize('options', [
    None, {}, {'frozen': True}, {'order': True, 'slots': True},
    {'eq': False, 'match_args': False}])
def test_decorator_on_a_subclass_is_refused(slots, options):
    """With or without options, on plain and slotted classes: a TypeError that
    names the class, its data-class base and the class keywords to write."""
    decorator = dataclasses.dataclass if options is None else dataclasses.dataclass(**options)
    keywords = _keywords(**options or {})
    with pytest.raises(TypeError) as info:
        @decorator
        class P(DataClass, slots=slots):
            x: int
    assert str(info.value) == _message('P', 'DataClass', keywords)


def test_decorator_on_a_deeper_subclass_names_its_bases():
    """The suggested class statement keeps every base."""
    class Mixin:
        pass

    with pytest.raises(TypeError) as info:
        @dataclasses.dataclass(frozen=True)
        class P(Mixin, Model):
            y: int
    assert str(info.value) == (
        "@dataclass applied to 'P', which is already a data class through Model: "
        'remove the decorator and pass its options as class keywords: '
        'class P(Mixin, Model, frozen=True)')


@pytest.mark.parametrize('cls', [Model, Slotted])
def test_refused_decorator_leaves_the_class_working(cls):
    """Nothing is changed before the error: the class constructs and compares."""
    params = cls.__dataclass_params__
    with pytest.raises(TypeError, match='already a data class'):
        dataclasses.dataclass(frozen=True)(cls)
    assert cls.__dataclass_params__ is params
    assert '__setattr__' not in cls.__dict__
    assert cls(1) == cls(1) and cls(1).x == 1


def test_stdlib_make_dataclass_with_our_base_is_refused():
    """``dataclasses.make_dataclass(bases=(a DataClass,))`` decorates one of ours."""
    with pytest.raises(TypeError) as info:
        dataclasses.make_dataclass('Q', ['y'], bases=(Model,), frozen=True)
    assert str(info.value) == _message('Q', 'Model', ', frozen=True')


def test_our_make_dataclass_builds_once():
    """``dataclass_meta.make_dataclass`` goes through the class keywords: no error."""
    Q = make_dataclass('Q', ['y'], bases=(Model,), order=True)
    assert [f.name for f in fields(Q)] == ['x', 'y']
    assert Q.__dataclass_params__.order and Q(1, 2) < Q(1, 3)


def test_other_class_attributes_can_be_set():
    """Frameworks and users still set class attributes, dunders included."""
    class C(DataClass):
        x: int

    C.registry = {}
    C.__doc__ = 'documented'
    C.__dataclass_params__ = params = object()  # not the decorator's: allowed
    assert C.registry == {} and C.__doc__ == 'documented'
    assert C.__dataclass_params__ is params


def test_copy_pickle_and_replace_are_unaffected():
    """The guard watches one class attribute; instances copy, pickle and replace."""
    p = Picklable(1)
    assert copy.copy(p) == p and copy.deepcopy(p) == p
    assert pickle.loads(pickle.dumps(p)) == p
    assert replace(p, x=2) == Picklable(2) == dataclasses.replace(p, x=2)


def _apply_dataclass(cls):
    """What a library's decorator does with a data class given to it."""
    return dataclasses.dataclass(cls)


def test_decorator_applied_by_a_library_says_what_to_do_instead():
    """Not the user's decorator: removing it is no remedy; the library's other way is.
    (tests/interop/test_interop_pydantic.py has pydantic's own.)"""
    import types
    library = types.FunctionType(_apply_dataclass.__code__, {
        '__name__': 'somelib.dataclasses', 'dataclasses': dataclasses})

    class Given(DataClass):
        x: int

    with pytest.raises(TypeError) as info:
        library(Given)
    assert str(info.value) == (
        "@dataclass applied to 'Given' by somelib.dataclasses, which is already a data "
        "class through DataClass: somelib decorates the data classes given to it again; "
        "use its way to take an existing data class instead (for pydantic, "
        "TypeAdapter(Given), not pydantic.dataclasses.dataclass)")
    with pytest.raises(TypeError, match='^@dataclass applied to .Given., which'):
        _apply_dataclass(Given)  # from the class's own package: the user's decorator


@pytest.mark.parametrize('name', ['absent', None, 42, ''])
def test_decorator_in_code_without_a_module_name_is_the_users(name):
    """``exec()`` with globals whose ``__name__`` is missing, empty or no string runs
    no library: the error is the one for the user's own decorator, with the class
    statement to write."""
    namespace = {'DataClass': DataClass, 'dataclasses': dataclasses}
    if name != 'absent':
        namespace['__name__'] = name
    with pytest.raises(TypeError, match=r"^@dataclass applied to 'C', which is already a data "
                                        r"class through DataClass: remove the decorator: "
                                        r"class C\(DataClass\)$"):
        exec('@dataclasses.dataclass\nclass C(DataClass):\n    x: int\n', namespace)
