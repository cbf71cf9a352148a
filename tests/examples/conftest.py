"""Examples stage: the engine's plugin (`verified.plugin`) provides the fixtures; this file
imports the libraries the examples use, once per worker, before any test of the stage."""

import pytest

from tests.libraries import import_libraries


@pytest.fixture(scope="session", autouse=True)
def libraries() -> dict:
    """Overrides the engine's fixture of that name, which imports nothing."""
    return import_libraries()
