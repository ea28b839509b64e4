"""Shared fixtures: most behaviour must hold for dict-based and slotted classes."""

import pytest


@pytest.fixture(params=[False, True], ids=['dict', 'slots'])
def slots(request):
    """Run the test for ``slots=False`` and ``slots=True``."""
    return request.param
