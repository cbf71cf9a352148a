"""Tooling stage: the suite's own machinery, tested by making mistakes in temporary copies."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """An empty content tree (`docs/`, `examples/`) in a temporary directory."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "examples").mkdir()
    return tmp_path
