"""Suite-wide guard: tests write only into git-ignored build outputs.

The controller snapshots `git status` (with content hashes of changed and
untracked files) before the run and compares after it. Any difference fails the
run with the files named; `--update-examples` is the one run allowed to edit.
"""

from __future__ import annotations

import hashlib
import subprocess

import pytest

from tooling.paths import REPO_ROOT


def _worktree_state() -> dict[str, str] | None:
    try:
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all", "-z"],
            cwd=REPO_ROOT,
            capture_output=True,
            check=True,
            text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None  # not a git checkout (e.g. an unpacked archive): nothing to compare
    state = {}
    for entry in filter(None, status.split("\0")):
        path = entry[3:]
        file = REPO_ROOT / path
        digest = hashlib.sha256(file.read_bytes()).hexdigest() if file.is_file() else "-"
        state[path] = f"{entry[:2]} {digest}"
    return state


def _is_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput")


def pytest_sessionstart(session: pytest.Session) -> None:
    if _is_controller(session.config):
        session.config.stash[_BEFORE] = _worktree_state()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if not _is_controller(config) or config.getoption("update_examples", default=False):
        return
    before = config.stash.get(_BEFORE, None)
    after = _worktree_state()
    if before is None or after is None or before == after:
        return
    changed = sorted(
        path for path in before.keys() | after.keys() if before.get(path) != after.get(path)
    )
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    message = (
        "tests changed files in the working tree (tests may write only into build/, site/ "
        "or a temporary directory):\n" + "\n".join(f"  {path}" for path in changed)
    )
    if reporter:
        reporter.write_sep("=", "working tree changed by the test run", red=True)
        reporter.write_line(message)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


_BEFORE = pytest.StashKey[dict | None]()
