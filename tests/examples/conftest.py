"""Examples stage: the engine's plugin (`verified.plugin`) provides the fixtures."""

import pytest


@pytest.fixture(scope="session", autouse=True)
def _libraries(libraries: dict) -> None:
    """Import torch, TensorFlow and NumPy once per worker, before any test of this stage
    (in the order that keeps TensorFlow from crashing torch's compiler stack)."""
