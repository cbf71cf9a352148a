"""pytest plugin that writes the verification record (`--record PATH`).

Registered by `tests/conftest.py` on the controller only: with pytest-xdist, every
worker's reports reach the controller, which keeps one entry per example.

Every example collected at the start is recorded. It starts as "not-verified"
("did not run to completion") and becomes "passed" only when its test passed, so
a crashed worker, an interrupted run or a `-k` selection can never leave an
example marked as passed that did not pass.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tooling.environments import UnknownEnvironment, resolve
from tooling.examples import Example, ExampleMarkerError, collect
from tooling.paths import content_root
from tooling.record import (
    UNFINISHED,
    add_run,
    build_run,
    count_statuses,
    hash_sources,
    installed_versions,
)

#: The test that runs examples; its parameter id is the example id.
EXAMPLE_TEST = re.compile(r"tests/examples/test_examples\.py::test_example\[(?P<id>.+)\]$")
#: How a skip message starts when the example needs a library its environment lacks.
NOT_APPLICABLE = "not applicable: "


class VerificationRecorder:
    """Collects one record entry per example from test reports and writes the record.

    Args:
        config (pytest.Config): the session's config.
        path (Path): where to write the record.

    Raises:
        pytest.UsageError: an example's marker is malformed (the message names every
            file and line), or the environment is unknown; no record is written and no
            example runs.
    """

    def __init__(self, config: pytest.Config, path: Path) -> None:
        self.config = config
        self.path = path
        try:
            self.environment = resolve(config.getoption("environment")).name
        except UnknownEnvironment as exc:
            raise pytest.UsageError(str(exc)) from None
        root = content_root()
        # Hash and collect at the start: an edit made during the run is not "verified".
        self.sources = hash_sources(root)
        try:
            examples = collect(root)
        except ExampleMarkerError as exc:
            raise pytest.UsageError(str(exc)) from None
        self.entries: dict[str, dict] = {
            example.id: _initial_entry(example) for example in examples
        }

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Update the example's entry from one phase's report (setup, call or teardown)."""
        match = EXAMPLE_TEST.search(report.nodeid.replace("\\", "/"))
        entry = self.entries.get(match["id"]) if match else None
        if entry is None:
            return
        props = dict(report.user_properties)
        entry.update({key: props[key] for key in ("device", "versions", "gpu_run") if key in props})
        if report.failed:
            # A crashed xdist worker reports the example as failed in its own report.
            entry["status"], entry["reason"] = "failed", f"failed during {report.when}"
        elif report.skipped and entry["status"] != "failed":
            # A skip message may start with the example's id (for pytest's -rs summary).
            reason = _skip_reason(report).removeprefix(f"{entry['id']}: ")
            status = "not-applicable" if reason.startswith(NOT_APPLICABLE) else "not-verified"
            entry["status"], entry["reason"] = status, reason.removeprefix(NOT_APPLICABLE)
        elif report.when == "call" and report.passed:
            entry["status"], entry["reason"] = "passed", None
            entry["seconds"] = round(report.duration, 3)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Add this environment's run to the record, whatever the outcome: unfinished
        examples stay not verified."""
        entries = list(self.entries.values())
        ran = [entry["versions"] for entry in entries if entry.get("versions")]
        # The versions the examples really imported; package metadata if none ran.
        versions = Counter(tuple(sorted(v.items())) for v in ran).most_common(1)
        environment = dict(versions[0][0]) if versions else installed_versions()
        # This machine's devices: a CUDA example checked against a GPU run ran elsewhere.
        devices = sorted(
            {entry["device"] for entry in entries if entry.get("device") and "gpu_run" not in entry}
        )
        environment["device"] = ", ".join(devices) or "cpu"
        add_run(self.path, self.environment, build_run(entries, self.sources, environment))

    def pytest_terminal_summary(self, terminalreporter) -> None:
        """Print how many examples were verified, and why the others were not."""
        counts = count_statuses(list(self.entries.values()))
        terminalreporter.write_sep("-", "verification summary")
        terminalreporter.write_line(
            f"examples in environment {self.environment}: {counts['passed']} verified, "
            f"{counts['failed']} failed, {counts['not-verified']} not verified, "
            f"{counts['not-applicable']} not applicable"
        )
        for entry in self.entries.values():
            if entry["status"] in ("not-verified", "not-applicable"):
                label = entry["status"].replace("-", " ")
                terminalreporter.write_line(f"  {label}: {entry['id']}: {entry['reason']}")
        terminalreporter.write_line(f"verification record: {self.path}")


def _initial_entry(example: Example) -> dict:
    return {
        "id": example.id,
        "source": example.source,
        "line": example.line,
        "requires": sorted(example.requires),
        "status": "not-verified",
        "reason": UNFINISHED,
        "seconds": None,
    }


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)
