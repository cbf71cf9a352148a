"""A broken snippet line stops the build with the page, its line and the target named."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tooling.paths import REPO_ROOT

PAGE = "docs/numpy-torch/memory-sharing.en.md"
GOOD = '--8<-- "examples/numpy_torch/memory_sharing.py:from_numpy"'


@pytest.fixture
def site_copy(tmp_path):
    """A copy of everything `mkdocs build` reads, to break without touching the repository."""
    for name in ("docs", "examples", "tooling"):
        shutil.copytree(
            REPO_ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(REPO_ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    return tmp_path


def _break_snippet(copy, replacement: str) -> int:
    page = copy / PAGE
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines, start=1) if line.strip() == GOOD)
    lines[number - 1] = replacement + "\n"
    page.write_text("".join(lines), encoding="utf-8")
    return number


def _build(copy) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(copy / "out")],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        (
            "examples/numpy_torch/missing.py",
            "snippet file examples/numpy_torch/missing.py does not exist",
        ),
        (
            "examples/numpy_torch/memory_sharing.py:no_such_part",
            "section 'no_such_part' not found in examples/numpy_torch/memory_sharing.py",
        ),
    ],
    ids=["missing-file", "missing-section"],
)
def test_broken_snippet_names_page_line_and_target(site_copy, target, expected):
    line = _break_snippet(site_copy, f'--8<-- "{target}"')
    result = _build(site_copy)
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert f"{PAGE}:{line}: " in output, output
    assert expected in output, output


def test_unbroken_copy_builds(site_copy):
    result = _build(site_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (site_copy / "out" / "en" / "index.html").is_file()
