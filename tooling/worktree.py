"""Snapshots of a git work tree, to prove a test run wrote only where it may.

Used by `tests/conftest.py`: a run that changes a tracked file, or adds an
untracked one that git does not ignore, fails with the paths named.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path


def worktree_state(root: Path) -> dict[str, str] | None:
    """Path -> "<status> <sha256 or ->" for every changed or untracked file git reports in the work
    tree `root`; None when it is not a git checkout (then nothing is compared)."""
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
    """The sorted paths whose state differs between two `worktree_state` snapshots, except those
    under an `allowed` prefix."""
    changed = {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}
    return sorted(path for path in changed if not path.startswith(allowed))
