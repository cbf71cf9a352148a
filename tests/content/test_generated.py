"""The files generated from data before the build (tooling/generate.py) are committed as
their data gives them, and a hand-edited or missing one is named."""

from __future__ import annotations

import shutil
from pathlib import Path

from tooling.generate import stale_files
from verified.paths import REPO_ROOT


def test_generated_files_are_current():
    stale = [
        f"{path} differs from what its data gives (data/, benchmarks/results/, the locale "
        "files or the generator's code): run `make generated` and commit what it writes"
        for path in stale_files(REPO_ROOT)
    ]
    assert not stale, "\n".join(stale)


def test_a_missing_or_hand_edited_file_is_stale(tmp_path):
    for folder in ("docs", "data", "benchmarks/results"):
        shutil.copytree(REPO_ROOT / folder, tmp_path / folder)
    assert stale_files(tmp_path) == {}
    page, table = Path("docs/en/glossary.md"), Path("docs/en/includes/matmul-results.md")
    (tmp_path / page).write_text(
        (REPO_ROOT / page).read_text("utf-8") + "| a | row | | | |\n", "utf-8"
    )
    (tmp_path / table).unlink()
    assert sorted(stale_files(tmp_path)) == [page, table]
