"""Suite-wide options and guards.

* `--record PATH`: write the verification record (see `tooling/record_plugin.py`).
* Tests write only into git-ignored build outputs: the controller snapshots
  `git status` (with content hashes of changed and untracked files) before the run
  and compares after it; any difference fails the run with the files named. With
  `--update-examples` the pages and scripts under docs/ and examples/ may change,
  nothing else.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from tooling.paths import REPO_ROOT
from tooling.record_plugin import VerificationRecorder

#: What `--update-examples` is allowed to rewrite.
UPDATABLE = ("docs/", "examples/")
_BEFORE = pytest.StashKey[dict | None]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add `--record PATH`."""
    parser.addoption(
        "--record",
        type=Path,
        default=None,
        help="write the verification record (JSON) to this path, e.g. build/verification.json",
    )


def pytest_configure(config: pytest.Config) -> None:
    """On the controller: register the recorder (with `--record`) and snapshot the tree."""
    if hasattr(config, "workerinput"):
        return
    if config.getoption("record") is not None:
        recorder = VerificationRecorder(config, config.getoption("record"))
        config.pluginmanager.register(recorder, "verification-recorder")
    config.stash[_BEFORE] = worktree_state(REPO_ROOT)


def worktree_state(root: Path) -> dict[str, str] | None:
    """Snapshot the changed and untracked files of a git work tree.

    Args:
        root (Path): the work tree.

    Returns:
        dict[str, str] | None: path -> "<status> <sha256 or ->" for every file git reports,
        or None when `root` is not a git checkout (then nothing is compared).
    """
    try:
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=all", "--no-renames", "-z"],
            cwd=root,
            capture_output=True,
            check=True,
            text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    state = {}
    for entry in filter(None, status.split("\0")):
        path = entry[3:]
        file = root / path
        digest = hashlib.sha256(file.read_bytes()).hexdigest() if file.is_file() else "-"
        state[path] = f"{entry[:2]} {digest}"
    return state


def changed_paths(
    before: dict[str, str], after: dict[str, str], allowed: tuple[str, ...]
) -> list[str]:
    """List the paths whose state differs, except those under an allowed prefix.

    Args:
        before (dict[str, str]): from `worktree_state` at the start.
        after (dict[str, str]): from `worktree_state` at the end.
        allowed (tuple[str, ...]): path prefixes that may change.

    Returns:
        list[str]: sorted paths that changed and are not allowed to.
    """
    changed = {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}
    return sorted(path for path in changed if not path.startswith(allowed))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if it changed files it may not change."""
    config = session.config
    if hasattr(config, "workerinput"):
        return
    before, after = config.stash.get(_BEFORE, None), worktree_state(REPO_ROOT)
    if before is None or after is None:
        return
    allowed = UPDATABLE if config.getoption("update_examples", default=False) else ()
    changed = changed_paths(before, after, allowed)
    if not changed:
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter:
        reporter.write_sep("=", "working tree changed by the test run", red=True)
        reporter.write_line(
            "tests may write only into build/, site/ or a temporary directory; changed:\n"
            + "\n".join(f"  {path}" for path in changed)
        )
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
