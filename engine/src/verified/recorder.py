"""pytest plugin that writes the verification record (`--record PATH`).

Registered by the engine's plugin (`verified.plugin`) on the controller only: with
pytest-xdist, every worker's reports reach the controller, which keeps one entry per
example.

Every example collected at the start is recorded. It starts as "not-verified" (reason
`unfinished`) and becomes "passed" only when its test passed, so a crashed worker, an
interrupted run or a `-k` selection can never leave an example marked as passed that did
not pass. A report names its example by the test's `example` property (set by the plugin
before the test starts), and says why it was skipped by its `outcome` property
(`verified.runner.verify`): nothing is read back from test ids or messages. A test that ran rows
of the cross-library reference reports them, by `<family>.<row id>`, as the JSON text of its
`reference` property.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from verified.environments import UnknownEnvironment, resolve
from verified.examples import Example, collect
from verified.markers import MarkerError
from verified.outputs import code_fingerprint
from verified.paths import content_root
from verified.record import (
    GPU_ENVIRONMENT,
    add_runs,
    build_run,
    count_statuses,
    describe,
    hash_sources,
    installed_versions,
    status_of,
)


class VerificationRecorder:
    """Collects one record entry per example from test reports and writes the record to `path`.

    Raises pytest.UsageError, before any example runs and without writing a record, when an
    example's marker is malformed (the message names every file and line) or the environment is
    unknown."""

    def __init__(self, config: pytest.Config, path: Path) -> None:
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
        except MarkerError as exc:
            raise pytest.UsageError(str(exc)) from None
        if self.environment == GPU_ENVIRONMENT:
            examples = [example for example in examples if "cuda" in example.requires]
        self.reference: dict[str, dict] = {}  # the reference's rows that ran, by family.id
        self.entries: dict[str, dict] = {
            example.id: _initial_entry(example) for example in examples
        }

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Update the example's entry from one phase's report (setup, call or teardown)."""
        props = dict(report.user_properties)
        # JSON text: xdist's transport (execnet) cannot carry integers beyond 64 bits.
        self.reference.update(json.loads(props.get("reference", "{}")))
        entry = self.entries.get(props.get("example"))
        if entry is None:
            return
        kept = ("device", "gpu", "versions", "gpu_run", "printed")
        entry.update({key: props[key] for key in kept if key in props})
        if report.failed:
            # A crashed xdist worker reports the example as failed in its own report.
            outcome = props.get("outcome") or {"reason": f"failed-in-{report.when}", "details": {}}
            entry.update(status="failed", **outcome)
        elif report.skipped and entry["status"] != "failed":
            outcome = props.get("outcome") or {"reason": "unfinished", "details": {}}
            entry.update(status=status_of(outcome["reason"]), **outcome)
        elif report.when == "call" and report.passed:
            entry.update(status="passed", reason=None, details={})
            entry["seconds"] = round(report.duration, 3)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        """Add this environment's run to the record, whatever the outcome: unfinished
        examples stay not verified."""
        entries = list(self.entries.values())
        ran = [entry["versions"] for entry in entries if entry.get("versions")]
        # The versions the examples really imported; package metadata if none ran.
        versions = Counter(tuple(sorted(v.items())) for v in ran).most_common(1)
        environment = dict(versions[0][0]) if versions else installed_versions()
        # This machine's device (one per session, `run_device`): a CUDA example checked
        # against a GPU run ran elsewhere.
        here = [entry for entry in entries if entry.get("device") and "gpu_run" not in entry]
        environment["device"] = here[0]["device"] if here else "cpu"
        if here and "gpu" in here[0]:
            environment["gpu"] = here[0]["gpu"]
        run = build_run(entries, self.sources, environment, self.reference)
        add_runs(self.path, {self.environment: run})

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
                why = describe(entry["reason"], entry["details"])
                terminalreporter.write_line(f"  {label}: {entry['id']}: {why}")
        if self.reference:
            rows = Counter(row["status"] for row in self.reference.values())
            terminalreporter.write_line(
                f"reference rows: {len(self.reference)} ran, {rows['agree']} agree, "
                f"{rows['differs']} differ as declared, {rows['missing']} missing in a library, "
                f"{rows['failed']} failed"
            )
        terminalreporter.write_line(f"verification record: {self.path}")


def _initial_entry(example: Example) -> dict:
    return {
        "id": example.id,
        "source": example.source,
        "line": example.line,
        "requires": sorted(example.requires),
        "status": "not-verified",
        "reason": "unfinished",
        "details": {},
        "seconds": None,
        "fingerprint": code_fingerprint(example.code.source),
    }
