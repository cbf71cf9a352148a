"""The pre-commit hooks (ruff check, ruff format, end-of-file and trailing-whitespace
fixers) pass on every file of the project. They run on a copy, so a fix they would make
shows up as a failure here instead of as a change in the working tree. Ruff is run
directly: pytest-examples' own lint helpers break with ruff >= 0.16."""

from __future__ import annotations

import os
import shutil
import subprocess

from verified.paths import REPO_ROOT


def test_pre_commit_hooks_pass_on_every_file(tmp_path):
    copy = tmp_path / "repo"
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for name in filter(lambda name: name and (REPO_ROOT / name).is_file(), listed.split("\0")):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO_ROOT / name, copy / name)
    (copy / ".venv").symlink_to(REPO_ROOT / ".venv")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    for command in (["git", "init", "-q"], ["git", "add", "--all"]):
        subprocess.run(command, cwd=copy, check=True, capture_output=True)
    result = subprocess.run(
        [str(REPO_ROOT / ".venv/bin/pre-commit"), "run", "--all-files", "--show-diff-on-failure"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, (
        "pre-commit hooks would change or reject files; run `.venv/bin/pre-commit run "
        "--all-files` and commit the result:\n" + result.stdout[-6000:] + result.stderr[-2000:]
    )
