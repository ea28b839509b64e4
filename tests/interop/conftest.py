"""The model modules, as a fixture over plain and string annotations."""

import pytest

import interop_models
import interop_models_future


@pytest.fixture(params=[interop_models, interop_models_future], ids=['plain', 'future'])
def models(request):
    """The module of model classes: real annotations, then strings."""
    return request.param


@pytest.fixture
def person(models):
    """A fully populated ``Person`` of that module."""
    return interop_models.sample(models)
