"""The standard library on our data classes: dataclasses, copy, pickle, pprint,
match, inspect, pydoc and typing, each checked on real values."""

import copy
import dataclasses
import inspect
import pickle
import pprint
import pydoc
import sys
import typing
from typing import Optional

import pytest

import interop_models


def test_dataclasses_functions(models, person):
    """``dataclasses.fields/asdict/astuple/replace/is_dataclass`` see every field."""
    assert dataclasses.is_dataclass(models.Person) and dataclasses.is_dataclass(person)
    assert [f.name for f in dataclasses.fields(person)] == [
        'name', 'age', 'address', 'tags', 'nickname']
    assert dataclasses.asdict(person) == {
        'name': 'Ann', 'age': 42,
        'address': {'street': '1 Main St', 'city': 'Springfield', 'postcode': 'SP1'},
        'tags': [{'name': 'admin', 'weight': 3}, {'name': 'staff', 'weight': 1}],
        'nickname': 'annie'}
    assert dataclasses.astuple(person) == (
        'Ann', 42, ('1 Main St', 'Springfield', 'SP1'), [('admin', 3), ('staff', 1)], 'annie')
    older = dataclasses.replace(person, age=43)
    assert older.age == 43 and older.address is person.address
    tag = dataclasses.replace(person.tags[0], weight=5)
    assert tag == models.Tag('admin', 5)


def test_copy_and_deepcopy(person):
    """``copy.copy`` shares the nested values, ``copy.deepcopy`` copies them."""
    shallow = copy.copy(person)
    assert shallow == person and shallow is not person
    assert shallow.address is person.address and shallow.tags is person.tags
    deep = copy.deepcopy(person)
    assert deep == person
    assert deep.address is not person.address and deep.tags[0] is not person.tags[0]
    assert copy.copy(person.tags[0]) == person.tags[0]


def test_replace_protocol(models, person):
    """``__replace__`` (what ``copy.replace`` calls on 3.13) on plain and frozen slotted."""
    assert person.__replace__(name='Bo').name == 'Bo'
    assert person.tags[0].__replace__(weight=9) == models.Tag('admin', 9)


if sys.version_info >= (3, 13):  # copy.replace is new in 3.13
    def test_copy_replace(models, person):
        """``copy.replace`` builds a changed copy through ``__init__``."""
        assert copy.replace(person, nickname=None).nickname is None
        assert copy.replace(person.tags[1], name='ops') == models.Tag('ops')
        with pytest.raises(TypeError, match='unexpected keyword argument'):
            copy.replace(person, height=2)


@pytest.mark.parametrize('protocol', range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_every_protocol(person, protocol):
    """Instances, nested and frozen slotted ones included, round-trip at each protocol."""
    clone = pickle.loads(pickle.dumps(person, protocol))
    assert clone == person and type(clone.tags[0]) is type(person.tags[0])
    tag = pickle.loads(pickle.dumps(person.tags[0], protocol))
    assert tag == person.tags[0] and not hasattr(tag, '__dict__')


def test_pprint_field_by_field(person):
    """``pprint`` breaks a long data class into one field per line, as for ``@dataclass``."""
    assert pprint.pformat(person, width=60) == (
        "Person(name='Ann',\n"
        "       age=42,\n"
        "       address=Address(street='1 Main St',\n"
        "                       city='Springfield',\n"
        "                       postcode='SP1'),\n"
        "       tags=[Tag(name='admin', weight=3),\n"
        "             Tag(name='staff', weight=1)],\n"
        "       nickname='annie')")


def test_pprint_matches_stdlib(person):
    """The same data as stdlib data classes pretty-prints to the same text."""
    assert pprint.pformat(person, width=30) == pprint.pformat(_stdlib_twin(person), width=30)


def test_match_statement(models, person):
    """Positional patterns use ``__match_args__``; keyword patterns any field."""
    match person:
        case models.Person(name, age, models.Address(city=city), [models.Tag(first), *_]):
            found = (name, age, city, first)
        case _:
            found = None
    assert found == ('Ann', 42, 'Springfield', 'admin')
    match person.tags[1]:
        case models.Tag(name='staff', weight=weight):
            assert weight == 1
        case _:
            pytest.fail('keyword pattern did not match')
    assert models.Person.__match_args__ == ('name', 'age', 'address', 'tags', 'nickname')


def test_inspect_signature(models):
    """``inspect.signature`` of the class and of ``__init__`` read as written."""
    text = str(inspect.signature(models.Person))
    assert text.startswith("(name: 'str', age: 'int'" if models.__name__.endswith(
        'future') else '(name: str, age: int')
    assert 'tags:' in text and '= <factory>' in text and text.endswith('= None) -> None')
    init = inspect.signature(models.Person.__init__)
    assert list(init.parameters) == ['self', 'name', 'age', 'address', 'tags', 'nickname']


def test_pydoc_text(models):
    """``help()`` text shows the signature and the generated docstring."""
    text = pydoc.render_doc(models.Person, renderer=pydoc.plaintext)
    assert f'class Person(' in text and 'nickname: ' in text and '= <factory>' in text
    doc = models.Person.__doc__
    assert doc.startswith('Person(name: ') and doc.endswith(' = None)')
    assert pydoc.getdoc(models.Person) == doc
    assert f' |  {doc}' in text


def test_pydoc_under_a_framework_metaclass():
    """Classes of a metaclass derived from ``DataClassMeta`` keep their docstrings
    in pydoc, and so do the metaclasses themselves."""
    from dataclass_meta import DataClass, DataClassMeta

    class Documented(DataClassMeta):
        """A framework's metaclass."""

    class Bare(DataClassMeta):
        pass

    class A(DataClass, metaclass=Documented):
        x: int

    class B(DataClass, metaclass=Bare):
        """Hand-written."""
        x: int

    assert pydoc.getdoc(A) == A.__doc__ == 'A(x: int)'
    assert pydoc.getdoc(B) == B.__doc__ == 'Hand-written.'
    assert pydoc.getdoc(Documented) == Documented.__doc__ == "A framework's metaclass."
    assert Bare.__doc__ is None
    assert pydoc.getdoc(DataClassMeta).startswith('Metaclass of data classes')
    A.__doc__ = 'changed'
    assert pydoc.getdoc(A) == 'changed'


def test_get_type_hints(models):
    """``typing.get_type_hints`` resolves the class's and ``__init__``'s annotations."""
    expected = {'name': str, 'age': int, 'address': models.Address,
                'tags': list[models.Tag], 'nickname': Optional[str]}
    assert typing.get_type_hints(models.Person) == expected
    assert typing.get_type_hints(models.Person.__init__) == {**expected, 'return': type(None)}
    assert typing.get_type_hints(models.Tag.__init__) == {
        'name': str, 'weight': int, 'return': type(None)}


def _stdlib_twin(person):
    """The same values in ``@dataclasses.dataclass`` classes of the same names."""
    Tag = dataclasses.make_dataclass('Tag', [('name', str), ('weight', int)], frozen=True)
    Address = dataclasses.make_dataclass('Address', ['street', 'city', 'postcode'])
    Person = dataclasses.make_dataclass(
        'Person', ['name', 'age', 'address', 'tags', 'nickname'])
    address = Address(*dataclasses.astuple(person.address))
    tags = [Tag(t.name, t.weight) for t in person.tags]
    return Person(person.name, person.age, address, tags, person.nickname)


def test_models_are_the_plain_twin():
    """The two model modules declare the same fields (keeps the twin honest)."""
    import interop_models_future
    for name in ('Tag', 'Address', 'Person'):
        plain = getattr(interop_models, name)
        future = getattr(interop_models_future, name)
        assert [f.name for f in dataclasses.fields(plain)] == [
            f.name for f in dataclasses.fields(future)]
