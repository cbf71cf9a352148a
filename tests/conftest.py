"""Suite-wide fixtures (the engine's options, `--record` and the rest, come from its pytest
plugin, `verified.plugin`). That a test run writes only into git-ignored outputs is checked
around each test stage by the Makefile (`guarded`), not here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from verified.paths import REPO_ROOT, record_path
from verified.record import load_record


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
    """Print what the search tests measured (the shares of queries found, the known misses),
    passed on by each test as its `search summary` property, from any worker."""
    outcomes = ("passed", "failed", "xfailed", "xpassed")
    for report in (r for outcome in outcomes for r in terminalreporter.stats.get(outcome, [])):
        for name, value in getattr(report, "user_properties", []):
            if name == "search summary":
                terminalreporter.write_line(value)
