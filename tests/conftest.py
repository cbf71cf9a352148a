"""Suite-wide guard and fixtures (the engine's options, `--record` and the rest, come from
its pytest plugin, `verified.plugin`).

Tests write only into git-ignored build outputs: the controller snapshots `git status`
(with content hashes of changed and untracked files) before the run and compares after
it; any difference fails the run with the files named. With `--update-examples` only
the paths of `UPDATABLE` may change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tooling.worktree import changed_paths, worktree_state
from verified.paths import REPO_ROOT, record_path
from verified.record import load_record

#: What `--update-examples` is allowed to rewrite (the default environment writes pages and
#: scripts, another one its expected outputs).
UPDATABLE = ("docs/", "examples/", "verification/expected/")
_BEFORE = pytest.StashKey[dict | None]()


def pytest_configure(config: pytest.Config) -> None:
    """On the controller: snapshot the tree."""
    if hasattr(config, "workerinput"):
        return
    config.stash[_BEFORE] = worktree_state(REPO_ROOT)


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
        reporter.ensure_newline()
        reporter.write_sep("=", "working tree changed by the test run", red=True)
        reporter.write_line(
            "tests may write only into build/, site/ or a temporary directory; changed:\n"
            + "\n".join(f"  {path}" for path in changed)
        )
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
