"""hypothesis builds data classes from their ``__init__`` signature and type hints."""

from hypothesis import given, settings, strategies as st

import interop_models
import interop_models_future

MODULES = (interop_models, interop_models_future)


def _well_typed(models, person):
    assert type(person) is models.Person and isinstance(person.name, str)
    assert type(person.address) is models.Address
    assert all(type(tag) is models.Tag and isinstance(tag.weight, int) for tag in person.tags)
    assert person.nickname is None or isinstance(person.nickname, str)


@settings(max_examples=25)
@given(st.data())
def test_builds(data):
    """``st.builds`` fills required fields by type, nested classes included."""
    for models in MODULES:
        _well_typed(models, data.draw(st.builds(models.Person)))


@settings(max_examples=25)
@given(st.data())
def test_from_type(data):
    """``st.from_type`` draws instances of the class, optionals and lists included."""
    for models in MODULES:
        person = data.draw(st.from_type(models.Person))
        _well_typed(models, person)
        tag = data.draw(st.from_type(models.Tag))
        assert tag == models.Tag(tag.name, tag.weight) and hash(tag) == hash(
            models.Tag(tag.name, tag.weight))


@settings(max_examples=25)
@given(st.data())
def test_builds_calls_init_by_alias_with_converters(data):
    """``st.builds`` calls ``__init__`` by its parameters (the aliases), so converters
    and validators run; a validator's limits go in the strategy (``count >= 0``)."""
    account = data.draw(st.builds(interop_models.Account))
    assert isinstance(account.user_id, int) and isinstance(account.limit, int)
    stock = data.draw(st.builds(interop_models.Stock, count=st.integers(0),
                                labels=st.lists(st.text())))
    assert type(stock.labels) is tuple and type(stock.price) is float
