"""The project's Python (tooling, tests, example scripts) passes ruff, as configured in
pyproject.toml. Runs ruff directly: pytest-examples' own lint helpers break with ruff >= 0.16."""

from __future__ import annotations

import subprocess
import sys

from tooling.paths import REPO_ROOT

TARGETS = ["tooling", "tests", "examples"]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, *TARGETS],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_ruff_check():
    result = _ruff("check", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format():
    result = _ruff("format", "--check", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr + "\nFix with: ruff format"
