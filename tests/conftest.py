"""Shared fixtures: most behaviour must hold for dict-based and slotted classes."""

import pytest


@pytest.fixture(params=[False, True], ids=['dict', 'slots'])
def slots(request):
    """Run the test for ``slots=False`` and ``slots=True``."""
    return request.param


def _backend_params():
    from dataclass_meta import _backend
    return [pytest.param(b, id=b.name) for b in _backend.available()]


@pytest.fixture(params=_backend_params())
def backend(request):
    """Run the test once per available backend; classes it defines use that one."""
    from dataclass_meta import _backend
    with _backend.use(request.param):
        yield request.param
