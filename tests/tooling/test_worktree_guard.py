"""The guard that fails a run which wrote into tracked files sees every kind of change."""

from __future__ import annotations

import subprocess

from tests.conftest import changed_paths, worktree_state


def test_guard_sees_edits_new_files_deletions_and_a_second_edit(tmp_path):
    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "kept.txt").write_text("a\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# Page\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    before = worktree_state(tmp_path)

    (tmp_path / "kept.txt").write_text("b\n")
    (tmp_path / "new.txt").write_text("new\n")
    (tmp_path / "docs" / "page.md").unlink()
    after = worktree_state(tmp_path)

    assert changed_paths(before, after) == ["docs/page.md", "kept.txt", "new.txt"]
    # --update-examples may rewrite pages and scripts, nothing else.
    assert changed_paths(before, after, ("docs/", "examples/")) == ["kept.txt", "new.txt"]
    # A file modified before the run and edited again during it.
    (tmp_path / "kept.txt").write_text("c\n")
    assert changed_paths(after, worktree_state(tmp_path)) == ["kept.txt"]
