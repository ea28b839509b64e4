"""pydantic's ``TypeAdapter`` validates into data classes (it treats them as stdlib ones)."""

import dataclasses
import datetime
import subprocess
import sys
from typing import Generic, TypeVar

import pydantic
import pytest
from pydantic import TypeAdapter

from dataclass_meta import DataClass, InitVar, field
from interop_models import EXPECTED, HOOKED, Account, Order, Stock, non_negative


def test_validate_python(models, person):
    """A dict validates into nested instances of the right classes, coercing in lax mode."""
    adapter = TypeAdapter(models.Person)
    value = adapter.validate_python({**EXPECTED, 'age': '42'})
    assert value == person
    assert type(value.address) is models.Address and type(value.tags[1]) is models.Tag
    assert adapter.validate_python(
        {'name': 'Bo', 'age': 1, 'address': {'street': 's', 'city': 'c'}}).tags == []


def test_validate_json_and_dump(models, person):
    """JSON in, instances out; and back to plain data and JSON."""
    adapter = TypeAdapter(models.Person)
    assert adapter.validate_json(adapter.dump_json(person)) == person
    assert adapter.dump_python(person) == EXPECTED


def test_frozen_slotted_class(models):
    """The frozen slotted class validates and stays frozen."""
    tag = TypeAdapter(models.Tag).validate_python({'name': 'x', 'weight': '2'})
    assert tag == models.Tag('x', 2) and not hasattr(tag, '__dict__')
    with pytest.raises(AttributeError):
        tag.weight = 3


def test_validation_error(models):
    """Bad nested data is reported with its location."""
    with pytest.raises(pydantic.ValidationError) as info:
        TypeAdapter(models.Person).validate_python(
            {'name': 'Bo', 'age': 1, 'address': {'street': 's'}})
    assert info.value.errors()[0]['loc'] == ('address', 'city')


# -- classes with aliases, converters or validators ----------------------------------

def _gives_init(cls):
    """Whether pydantic's schema of ``cls`` is ours (it calls ``__init__``)."""
    return '__get_pydantic_core_schema__' in cls.__dict__


@pytest.mark.parametrize('instance', HOOKED, ids=lambda x: type(x).__name__)
def test_hooked_classes_round_trip_by_field_name(instance):
    """Dumped by field name, validated back through ``__init__``: the same instance,
    in Python and JSON; an instance passes as it is."""
    adapter = TypeAdapter(type(instance))
    data = adapter.dump_python(instance)
    assert data == dataclasses.asdict(instance)
    assert adapter.validate_python(data) == instance
    assert adapter.validate_json(adapter.dump_json(instance)) == instance
    assert adapter.validate_python(instance) is instance


def test_converters_validators_and_post_init_run():
    """What ``__init__`` does, ``validate_python`` does: convert (the converter gets
    the input as given), validate, then ``__post_init__``."""
    calls = []

    class Reading(DataClass):
        when: datetime.date = field(converter=datetime.date.fromisoformat)
        value: float = field(default='0', converter=float, validator=non_negative)
        scale: InitVar[int] = 1

        def __post_init__(self, scale):
            calls.append(scale)
            self.value *= scale

    adapter = TypeAdapter(Reading)
    reading = adapter.validate_python({'when': '2024-05-01', 'value': '2.5', 'scale': '2'})
    assert reading == Reading('2024-05-01', 5.0) and calls == [2, 1]
    assert adapter.validate_python({'when': '2024-05-01'}).value == 0.0  # default converted
    assert adapter.dump_python(reading) == {'when': datetime.date(2024, 5, 1), 'value': 5.0}
    assert adapter.dump_json(reading) == b'{"when":"2024-05-01","value":5.0}'
    with pytest.raises(pydantic.ValidationError, match='value must be >= 0, got -1.0'):
        adapter.validate_python({'when': '2024-05-01', 'value': -1})
    with pytest.raises(pydantic.ValidationError) as info:
        adapter.validate_python({'when': '2024-05-01', 'scale': 'x'})
    assert info.value.errors()[0]['loc'] == ('scale',)


def test_aliases_take_the_field_name_or_the_alias():
    """Input keys: the field's name (what dumps give) or its ``__init__`` alias."""
    adapter = TypeAdapter(Account)
    assert adapter.validate_python({'user_id': 1, 'maxItems': 2}) == Account(1, maxItems=2)
    assert adapter.validate_python({'userId': 1, 'limit': 2}) == Account(1, maxItems=2)
    with pytest.raises(pydantic.ValidationError) as info:
        adapter.validate_python({'display': 'x'})
    assert info.value.errors()[0]['loc'] == ('user_id',)


def test_nested_and_recursive_hooked_classes():
    """A hooked class inside a plain one, in a list, and one that contains itself."""
    class Node(DataClass):
        value: int = field(converter=int)
        children: 'list[Node]' = field(default_factory=list)

    adapter = TypeAdapter(Node)
    node = adapter.validate_python({'value': '1', 'children': [{'value': '2'}]})
    assert node == Node(1, [Node(2)])
    assert adapter.validate_json(adapter.dump_json(node)) == node
    assert adapter.json_schema()['$defs']['Node']['properties']['children']['type'] == 'array'
    orders = TypeAdapter(list[Order]).validate_python([{'order_id': '5', 'stock': {'count': '2'}}])
    assert orders == [Order(5, Stock(2))]


def test_parametrized_generic_substitutes_its_type_arguments():
    """``TypeAdapter(Box[int])`` validates ``T`` as ``int`` and still runs converters."""
    T = TypeVar('T')

    class Box(DataClass, Generic[T]):
        items: list[T]
        size: int = field(default=0, converter=int)

    assert TypeAdapter(Box[int]).validate_python({'items': ['3'], 'size': '2'}) == Box([3], 2)
    with pytest.raises(pydantic.ValidationError):
        TypeAdapter(Box[int]).validate_python({'items': ['x']})


def test_classes_without_hooks_keep_pydantic_s_own_schema(models):
    """No alias, converter nor validator: no hook, pydantic's stdlib data-class schema
    (its type is ``dataclass``), as for ``@dataclass``."""
    assert not any(map(_gives_init, [models.Person, models.Address, models.Tag]))
    assert all(map(_gives_init, [Account, Stock, Order]))
    assert TypeAdapter(models.Tag).core_schema['type'] == 'dataclass'

    class Sub(Stock):
        def __transform_fields__(cls, fields):  # drops the converters and validators
            return [f.__replace__(converter=None, validator=None) for f in fields]

    class Plain(Sub):
        pass

    assert not _gives_init(Plain) and TypeAdapter(Plain).core_schema['type'] == 'dataclass'


def test_a_class_s_own_hook_is_kept():
    """A ``__get_pydantic_core_schema__`` of the class or a base is never replaced."""
    from pydantic_core import core_schema

    class Custom(DataClass):
        n: int = field(converter=int)

        @classmethod
        def __get_pydantic_core_schema__(cls, source, handler):
            return core_schema.no_info_plain_validator_function(lambda v: cls(len(v)))

    class Child(Custom):
        m: int = field(default=0, converter=int)

    assert TypeAdapter(Custom).validate_python('abc') == Custom(3)
    assert TypeAdapter(Child).validate_python('ab') == Child(2)


def test_pydantic_is_not_imported_by_the_hook():
    """Making a class with converters sets the hook without importing pydantic."""
    code = ('import sys\nfrom dataclass_meta import DataClass, field\n'
            'class C(DataClass):\n    n: int = field(converter=int)\n'
            'assert C.__get_pydantic_core_schema__ and C("1").n == 1\n'
            'print(sorted(m for m in sys.modules if m.startswith("pydantic")))')
    run = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)
    assert (run.returncode, run.stdout.strip()) == (0, '[]'), run.stderr


def test_pydantic_dataclass_decorator_is_refused_with_the_adapter_as_remedy(models):
    """``pydantic.dataclasses.dataclass`` decorates a data class again: refused, and
    the error names pydantic and ``TypeAdapter`` (not "remove the decorator")."""
    import pydantic.dataclasses
    with pytest.raises(TypeError) as info:
        pydantic.dataclasses.dataclass(models.Tag)
    assert str(info.value).startswith("@dataclass applied to 'Tag' by pydantic.")
    assert str(info.value).endswith(
        'use its way to take an existing data class instead (for pydantic, '
        'TypeAdapter(Tag), not pydantic.dataclasses.dataclass)')
