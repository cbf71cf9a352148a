"""Tooling stage: the suite's own machinery, tested by making mistakes in temporary copies."""

import pytest

from tests.tooling.sample import make_sample


@pytest.fixture
def sample(tmp_path):
    """A sample site of its own (the real mkdocs.yml and site plugin, pages of its own): free to
    break without touching the repository."""
    return make_sample(tmp_path)
