"""Examples stage: run every example once per test, libraries imported once per worker.

Also the pytest plugin that writes the verification record (`--record PATH`),
collected on the controller from each test's report so it works under xdist.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import pytest_socket

from tooling import record
from tooling.paths import content_root


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record",
        type=Path,
        default=None,
        help="write the verification record (JSON) to this path, e.g. build/verification.json",
    )


@pytest.fixture(scope="session", autouse=True)
def libraries() -> dict:
    """Import the libraries once per worker; examples then import them for free."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # TF start-up chatter, not output
    # urllib3 (imported by TensorFlow) probes IPv6 support by creating an unconnected
    # socket at import; it sends nothing. Examples themselves still run with sockets off.
    pytest_socket.enable_socket()
    try:
        import numpy
        import tensorflow
        import torch
    finally:
        pytest_socket.disable_socket(allow_unix_socket=True)

    return {"numpy": numpy, "tensorflow": tensorflow, "torch": torch}


@pytest.fixture(scope="session")
def device(libraries: dict) -> str:
    """The device examples that need CUDA would run on: `"cpu"` or `"cuda (<name>)"`."""
    torch = libraries["torch"]
    if torch.cuda.is_available():
        return f"cuda ({torch.cuda.get_device_name(0)})"
    return "cpu"


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, libraries: dict):
    """Run the example in an empty temporary directory and undo global library settings.

    Examples that save files therefore never write into the repository, and one
    example's `torch.set_default_dtype` or print options cannot leak into the next.
    """
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    torch, numpy = libraries["torch"], libraries["numpy"]
    default_dtype = torch.get_default_dtype()
    with numpy.printoptions():
        yield workdir
    torch.set_default_dtype(default_dtype)
    torch.set_printoptions(profile="default")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        example = getattr(item, "callspec", None) and item.callspec.params.get("example")
        if example is None:
            continue
        if "cuda" in example.requires:
            item.add_marker(pytest.mark.cuda)
        fields = {"id": example.id, "source": example.source, "line": example.line}
        item.user_properties.append(("example", {**fields, "requires": sorted(example.requires)}))


def pytest_configure(config: pytest.Config) -> None:
    # Reports from all xdist workers reach the controller; only it keeps the record.
    if not hasattr(config, "workerinput"):
        config.pluginmanager.register(VerificationRecorder(config), "verification-recorder")


class VerificationRecorder:
    """Collects one entry per example from test reports and writes the record."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.entries: dict[str, dict] = {}

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        props = dict(report.user_properties)
        if "example" not in props:
            return
        example = props["example"]
        entry = self.entries.setdefault(
            example["id"], {**example, "status": "passed", "reason": None, "seconds": 0.0}
        )
        if report.when == "call":  # setup time includes the one-off library import
            entry["seconds"] = round(report.duration, 3)
        if "device" in props:
            entry["device"] = props["device"]
        if report.failed:
            entry["status"], entry["reason"] = "failed", f"failed during {report.when}"
        elif report.skipped and entry["status"] != "failed":
            entry["status"], entry["reason"] = "not-verified", _skip_reason(report)

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        path = self.config.getoption("record")
        if path is None:
            return
        versions = record.library_versions()
        entries = list(self.entries.values())
        for entry in entries:
            entry.setdefault("device", "cpu")
            entry["versions"] = versions
        devices = ", ".join(sorted({entry["device"] for entry in entries})) or "cpu"
        record.write_record(record.build_record(entries, content_root(), devices), path)

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if not self.entries:
            return
        counts = {status: 0 for status in record.STATUSES}
        for entry in self.entries.values():
            counts[entry["status"]] += 1
        terminalreporter.write_sep("-", "verification summary")
        terminalreporter.write_line(
            f"examples: {counts['passed']} verified, {counts['failed']} failed, "
            f"{counts['not-verified']} not verified"
        )
        for entry in self.entries.values():
            if entry["status"] == "not-verified":
                terminalreporter.write_line(f"  not verified: {entry['id']}: {entry['reason']}")
        path = self.config.getoption("record")
        if path is not None:
            terminalreporter.write_line(f"verification record: {path}")


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)
