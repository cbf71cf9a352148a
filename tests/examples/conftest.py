"""Examples stage: the engine's plugin (`verified.plugin`) provides the fixtures; this file
imports the libraries the examples use, once per worker, before any test of the stage."""

import pytest

from tests.libraries import import_libraries


@pytest.fixture(scope="session", autouse=True)
def libraries() -> dict:
    """Import the libraries once per worker, before any test of this stage (overrides the
    engine's fixture, which imports nothing): see `tests.libraries.import_libraries`."""
    return import_libraries()
