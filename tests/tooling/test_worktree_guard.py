"""The guard that fails a run which wrote into tracked files sees every kind of change."""

from __future__ import annotations

import subprocess

from tooling.worktree import changed_paths, worktree_state


def _git(repo, *args):
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def test_guard_sees_edits_new_files_and_deletions(tmp_path):
    _git(tmp_path, "init", "-q")
    (tmp_path / "kept.txt").write_text("a\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# Page\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    before = worktree_state(tmp_path)

    (tmp_path / "kept.txt").write_text("b\n")
    (tmp_path / "new.txt").write_text("new\n")
    (tmp_path / "docs" / "page.md").unlink()
    after = worktree_state(tmp_path)

    assert changed_paths(before, after, ()) == ["docs/page.md", "kept.txt", "new.txt"]
    # --update-examples may rewrite pages and scripts, nothing else.
    assert changed_paths(before, after, ("docs/", "examples/")) == ["kept.txt", "new.txt"]


def test_guard_sees_a_second_edit_of_an_already_modified_file(tmp_path):
    _git(tmp_path, "init", "-q")
    (tmp_path / "f.txt").write_text("1\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init")
    (tmp_path / "f.txt").write_text("2\n")
    before = worktree_state(tmp_path)
    (tmp_path / "f.txt").write_text("3\n")
    assert changed_paths(before, worktree_state(tmp_path), ()) == ["f.txt"]
