"""Suite-wide guard and fixtures (the engine's options, `--record` and the rest, come from
its pytest plugin, `verified.plugin`).

Tests write only into git-ignored build outputs: the controller snapshots `git status`
(with content hashes of changed and untracked files) before the run and compares after
it; any difference fails the run with the files named. With `--update-examples` only
the paths of `UPDATABLE` may change. tests/reader uses the same snapshots per script.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from verified.paths import REPO_ROOT, record_path
from verified.record import load_record

#: What `--update-examples` is allowed to rewrite (the default environment writes pages and
#: scripts, another one its expected outputs).
UPDATABLE = ("docs/", "examples/", "verification/expected/")
_BEFORE = pytest.StashKey[dict | None]()


def worktree_state(root: Path) -> dict[str, str] | None:
    """Path -> "<status> <sha256 or ->" for every changed or untracked file git reports in the work
    tree `root`; None when it is not a git checkout (then nothing is compared)."""
    command = ["git", "status", "--porcelain", "--untracked-files=all", "--no-renames", "-z"]
    try:
        status = subprocess.run(command, cwd=root, capture_output=True, check=True, text=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    state = {}
    for entry in filter(None, status.stdout.split("\0")):
        file = root / entry[3:]
        digest = hashlib.sha256(file.read_bytes()).hexdigest() if file.is_file() else "-"
        state[entry[3:]] = f"{entry[:2]} {digest}"
    return state


def changed_paths(before: dict, after: dict, allowed: tuple[str, ...] = ()) -> list[str]:
    """The sorted paths whose state differs between two `worktree_state` snapshots, except those
    under an `allowed` prefix."""
    changed = {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}
    return sorted(path for path in changed if not path.startswith(allowed))


def pytest_configure(config: pytest.Config) -> None:
    """On the controller: snapshot the tree."""
    if not hasattr(config, "workerinput"):
        config.stash[_BEFORE] = worktree_state(REPO_ROOT)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if it changed files it may not change."""
    config = session.config
    before = config.stash.get(_BEFORE, None)  # None on a worker, or outside a git checkout
    after = worktree_state(REPO_ROOT) if before is not None else None
    if after is None:
        return
    allowed = UPDATABLE if config.getoption("update_examples", default=False) else ()
    changed = changed_paths(before, after, allowed)
    if changed:
        message = "tests may write only into build/, site/ or a temporary directory; changed:\n"
        message += "\n".join(f"  {path}" for path in changed)
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None:  # -p no:terminal
            print(f"working tree changed by the test run: {message}")
        else:
            reporter.ensure_newline()
            reporter.write_sep("=", "working tree changed by the test run", red=True)
            reporter.write_line(message)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def record() -> dict | None:
    """The verification record the site was stamped from (None if there is none)."""
    return load_record(record_path(REPO_ROOT))


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site (`site/`); fails with what to run when it is missing."""
    built = REPO_ROOT / "site"
    if not (built / "index.html").is_file():
        pytest.fail(
            "site/index.html is missing: the site build (stage 2 of `make test`) failed or did "
            "not run; fix the build error reported above, or run `make build`"
        )
    return built


def pytest_terminal_summary(terminalreporter) -> None:
    """Print what the search tests measured (the share of queries found, the known misses),
    passed on by each test as its `search summary` property, from any worker."""
    for report in terminalreporter.stats.get("passed", []) + terminalreporter.stats.get(
        "failed", []
    ):
        for name, value in getattr(report, "user_properties", []):
            if name == "search summary":
                terminalreporter.write_line(value)
