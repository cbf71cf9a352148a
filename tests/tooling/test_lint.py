"""The pre-commit hooks (ruff check, ruff format, end-of-file and trailing-whitespace
fixers, actionlint on the workflows) pass on every file of the project. They run on a copy,
so a fix they would make shows up as a failure here instead of as a change in the working
tree. Ruff is run directly: pytest-examples' own lint helpers break with ruff >= 0.16."""

from __future__ import annotations

import os
import shutil
import subprocess

from verified.paths import REPO_ROOT

WORKFLOW = ".github/workflows/ci.yml"


def _pre_commit(copy, tmp_path, *args: str) -> subprocess.CompletedProcess:
    """Run pre-commit with `args` in `copy`, a git repository made here, with the project's
    environment and a hook cache of its own."""
    if not (copy / ".venv").exists():
        (copy / ".venv").symlink_to(REPO_ROOT / ".venv")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    for command in (["git", "init", "-q"], ["git", "add", "--all"]):
        subprocess.run(command, cwd=copy, check=True, capture_output=True)
    return subprocess.run(
        [str(REPO_ROOT / ".venv/bin/pre-commit"), "run", *args],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


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
    result = _pre_commit(copy, tmp_path, "--all-files", "--show-diff-on-failure")
    assert result.returncode == 0, (
        "pre-commit hooks would change or reject files; run `.venv/bin/pre-commit run "
        "--all-files` and commit the result:\n" + result.stdout[-6000:] + result.stderr[-2000:]
    )


def test_an_outdated_action_fails_at_its_file_and_line(tmp_path):
    """The workflow check can fail: an action on a runtime GitHub has retired (checkout@v4
    runs on node20) is reported with the file and line of its `uses:`."""
    copy = tmp_path / "repo"
    (copy / WORKFLOW).parent.mkdir(parents=True)
    shutil.copy2(REPO_ROOT / ".pre-commit-config.yaml", copy)
    lines = (REPO_ROOT / WORKFLOW).read_text(encoding="utf-8").splitlines(keepends=True)
    line = next(i for i, text in enumerate(lines) if "actions/checkout@" in text)
    lines[line] = lines[line].split("actions/checkout@")[0] + "actions/checkout@v4\n"
    (copy / WORKFLOW).write_text("".join(lines), encoding="utf-8")
    result = _pre_commit(copy, tmp_path, "actionlint", "--all-files")
    assert result.returncode != 0
    assert f"{WORKFLOW}:{line + 1}:" in result.stdout, result.stdout[-3000:]
    assert '"actions/checkout@v4"' in result.stdout
