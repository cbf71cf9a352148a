"""The engine's pytest plugin (entry point `pytest11`): options, fixtures (a test of examples
calls `verify_example(example)`), and the recorder of the verification record.

The recorder (`--record PATH`) runs on the controller only, where every xdist worker's reports
arrive. Every example collected at the start is recorded as "not-verified" (reason `unfinished`)
and becomes "passed" only when its test passed, so a crashed worker, an interrupted run or a `-k`
selection never leaves an example marked as passed that did not pass. A report names its example
by the test's `example` property and says why it was skipped by its `outcome` property; a test
that ran rows of the cross-library reference reports them as the JSON text of its `reference`
property.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import tempfile
import warnings
from collections import Counter
from pathlib import Path

import pytest

from verified.capture import check_write
from verified.environments import Environment, UnknownEnvironment, resolve
from verified.examples import Example, collect
from verified.expected import ExpectedOutputError, expected_path, load_expected, write_expected
from verified.markers import MarkerError
from verified.outputs import line_sections, parse
from verified.paths import (
    content_root,
    enter_session,
    gpu_run_path,
    leave_session,
    relative,
    repository,
)
from verified.record import (
    GPU_ENVIRONMENT,
    RecordError,
    add_runs,
    build_run,
    count_statuses,
    describe,
    hash_sources,
    installed_versions,
    load_record,
    status_of,
    versions_label,
)
from verified.record import LIBRARIES as STAMPED
from verified.runner import Target, fail, verify


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--record",
        type=Path,
        default=None,
        help="write the verification record (JSON) to this path, e.g. build/verification.json",
    )
    parser.addoption(
        "--environment",
        default=None,
        help="the verification environment this Python is, e.g. default or previous "
        "(pyproject.toml, [tool.verification]); by default recognised by the installed versions",
    )
    parser.addoption(
        "--example",
        default=None,
        metavar="PATH[:SECTION]",
        help="run only this example: a script (examples/api/save_load.py), the script that holds "
        "a section (examples/api/save_load.py:name; the whole script runs), a page's Python "
        "blocks (docs/zh/page.md) or one of them (docs/zh/page.md:LINE, its test id)",
    )


#: The stamped libraries, by module name.
LIBRARIES = tuple(key for key, _name, _distributions in STAMPED)


def pytest_configure(config: pytest.Config) -> None:
    """Register the `cuda` marker and, on the controller with `--record`, the recorder."""
    config.addinivalue_line(
        "markers", "cuda: the example needs a CUDA device; without one it is not verified"
    )
    numprocesses = config.getoption("numprocesses", default=None)
    if config.getoption("update_examples", default=False) and numprocesses:
        raise pytest.UsageError(  # two workers would rewrite the same page
            "--update-examples rewrites files: run it without -n (make update-examples)"
        )
    enter_session(config.rootpath)
    config.add_cleanup(leave_session)
    if not hasattr(config, "workerinput") and config.getoption("record") is not None:
        recorder = VerificationRecorder(config, config.getoption("record"))
        config.pluginmanager.register(recorder, "verification-recorder")


@pytest.fixture(scope="session")
def libraries() -> dict:
    """The stamped libraries as this process has imported them: module name -> module, None where
    not imported. A project imports them, once per worker, by overriding this fixture."""
    return {name: sys.modules.get(name) for name in LIBRARIES}


@pytest.fixture(scope="session")
def versions() -> dict[str, str | None]:
    """The versions of Python and of the stamped libraries installed here."""
    return installed_versions()


@pytest.fixture(scope="session")
def verification_environment(request: pytest.FixtureRequest) -> Environment:
    """The verification environment this run is in (`--environment`, or recognised)."""
    try:
        return resolve(request.config.getoption("environment"))
    except UnknownEnvironment as exc:
        fail(str(exc))


@pytest.fixture(scope="session")
def target(request: pytest.FixtureRequest, verification_environment: Environment):
    """Yields the `Target` outputs are checked against. With `--update-examples` outside the
    default environment, what each example printed differently is written to its expected
    outputs when the session ends (examples that did not run keep their entries; examples that no
    longer exist lose theirs)."""
    environment = verification_environment
    path = expected_path(content_root(), environment.name)
    try:
        overrides = {} if environment.checks_file else load_expected(path)
    except ExpectedOutputError as exc:
        fail(str(exc))
    found = Target(environment, versions_label(environment.pinned_versions()), overrides)
    yield found
    if found.updates and not environment.checks_file:
        try:
            known = {example.id for example in collect(content_root())}
        except MarkerError:
            known = set(overrides) | set(found.updates)
        merged = {k: v for k, v in {**overrides, **found.updates}.items() if k in known}
        write_expected(path, environment.name, merged)


@pytest.fixture(scope="session")
def gpu_run() -> dict | None:
    """The `gpu` run of `verification/gpu-run.json` (`make test-gpu`), or None without that file:
    what CUDA examples are checked against when this machine has no CUDA. A bad record, or one
    without a GPU run, fails the tests that use it."""
    path = gpu_run_path()
    try:
        found = load_record(path, "write it again with `make test-gpu`")
    except RecordError as exc:
        fail(str(exc))
    if found and GPU_ENVIRONMENT not in found["environments"]:
        fail(f"{path}: holds no run of environment {GPU_ENVIRONMENT!r}; see `make test-gpu`")
    return found and found["environments"][GPU_ENVIRONMENT]


@pytest.fixture(scope="session")
def run_device(libraries: dict, verification_environment: Environment) -> dict[str, str]:
    """Where CUDA examples would run, as record fields: `{"device": "cpu"}`, or
    `{"device": "cuda", "gpu": <the device's name>}`. Fails on the GPU run without CUDA."""
    torch = libraries["torch"]
    if torch and torch.cuda.is_available():
        return {"device": "cuda", "gpu": torch.cuda.get_device_name(0)}
    if verification_environment.name == GPU_ENVIRONMENT:
        fail("the GPU run (--environment gpu) needs a CUDA device, and torch sees none here")
    return {"device": "cpu"}


# Set while an example runs: the folders it may write into, and those it may never write into
# (the repository and the content tree) but through a writable folder inside them.
_WRITABLE: list[Path] = []
_PROTECTED: list[Path] = []


def _guard_writes(event: str, args: tuple) -> None:
    if _WRITABLE:  # an example is running
        check_write(event, args, _WRITABLE, _PROTECTED)


sys.addaudithook(_guard_writes)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish() -> None:
    """Lift the write guard before the record is written: an interrupted example never
    reaches its fixture's teardown."""
    _WRITABLE.clear()


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, libraries: dict):
    """Yields the example's working directory, an empty temporary one (a write elsewhere fails the
    example, `verified.capture.check_write`), and undoes global library settings afterwards, so
    that one example's default dtype, grad mode, print options, warning filters, threads,
    deterministic modes, TensorFlow operation seeds or Keras layer names cannot leak into the
    next one on the same worker."""
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    torch, numpy = libraries["torch"], libraries["numpy"]
    default_dtype = torch.get_default_dtype() if torch else None
    threads = torch.get_num_threads() if torch else None
    printoptions = numpy.printoptions() if numpy else contextlib.nullcontext()
    with printoptions, warnings.catch_warnings():
        _WRITABLE[:] = [tmp_path.resolve(), Path(tempfile.gettempdir()).resolve(), Path(os.devnull)]
        _PROTECTED[:] = [repository().resolve(), content_root().resolve()]
        try:
            yield workdir
        finally:
            _WRITABLE.clear()
    if torch:
        torch.set_default_dtype(default_dtype)
        torch.set_grad_enabled(True)
        torch.set_printoptions(profile="default")
        torch.use_deterministic_algorithms(False)
        torch.set_num_threads(threads)
    if tensorflow := libraries.get("tensorflow"):
        # Operation seeds draw from the eager context's kernels, whose cache this clears.
        tensorflow.random.set_seed(None)
        tensorflow.config.run_functions_eagerly(False)
        # Op determinism makes every later unseeded random op raise; TensorFlow has no public
        # way to turn it off (tf.config.experimental only enables it).
        from tensorflow.python.framework import config as tf_config

        tf_config.disable_op_determinism()
    if keras := sys.modules.get("keras"):
        keras.backend.clear_session(free_memory=False)  # unnamed layers count from 1 again


@pytest.fixture
def verify_example(
    request: pytest.FixtureRequest,
    eval_example,
    sandbox: Path,
    run_device: dict[str, str],
    versions: dict,
    record_property,
    verification_environment: Environment,
    target: Target,
):
    """`verify_example(example)` runs one example in the sandbox (`verified.runner.verify`)."""
    return functools.partial(
        verify,
        eval_example=eval_example,
        target=target,
        device=run_device,
        versions=versions,
        report=record_property,
        # Read only when a CUDA example needs it.
        gpu_run=lambda: request.getfixturevalue("gpu_run"),
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Name each example's test by its `example` property, mark those that need CUDA with `cuda`
    (`-m cuda` selects them), and with `--example` keep only that example's tests."""
    examples = {}
    for item in items:
        example = getattr(item, "callspec", None) and item.callspec.params.get("example")
        if not isinstance(example, Example):
            continue
        examples[item] = example
        item.user_properties.append(("example", example.id))
        if "cuda" in example.requires:
            item.add_marker(pytest.mark.cuda)
    if wanted := config.getoption("example"):
        kept = _selected(wanted, examples, config.invocation_params.dir)
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


def _selected(wanted: str, examples: dict[pytest.Item, Example], start: Path) -> list:
    """The tests of `examples` that `--example wanted` names, `wanted`'s path being relative to
    `start`; pytest.UsageError, naming `wanted`, when it names none."""
    path, _, part = wanted.partition(":")
    source = relative(start / path, content_root())
    found = {item: _parts(e) for item, e in examples.items() if e.source == source}
    kept = [item for item, parts in found.items() if not part or part in parts]
    if kept:
        return kept
    has = ", ".join(sorted(set().union(*found.values()))) or "none"
    raise pytest.UsageError(
        f"--example {wanted}: {source} has no section or block {part!r} (it has: {has})"
        if found
        else f"--example {wanted}: no example is {source}; name a script (examples/<dir>/"
        "<name>.py[:section]) or a page with Python blocks (docs/<language>/<page>.md[:line])"
    )


def _parts(example: Example) -> set[str]:
    """What may follow an example's path in `--example`: a script's section names, or a page
    block's line."""
    if not example.is_script:
        return {str(example.line)}
    return set(line_sections(example.code.source)) - {""}


class VerificationRecorder:
    """Collects one record entry per example from test reports and writes the record to `path`.
    Raises pytest.UsageError, before any example runs, when an example's marker is malformed or
    the environment is unknown."""

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
            example.id: {
                "id": example.id,
                "source": example.source,
                "line": example.line,
                "requires": sorted(example.requires),
                "status": "not-verified",
                "reason": "unfinished",
                "details": {},
                "seconds": None,
                "fingerprint": parse(example.code.source).fingerprint,
            }
            for example in examples
        }

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
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
        """Add this environment's run to the record, whatever the outcome."""
        entries, environment = list(self.entries.values()), installed_versions()
        # This machine's device (one per session, `run_device`): a CUDA example checked
        # against a GPU run ran elsewhere.
        here = [entry for entry in entries if entry.get("device") and "gpu_run" not in entry]
        environment["device"] = here[0]["device"] if here else "cpu"
        if here and "gpu" in here[0]:
            environment["gpu"] = here[0]["gpu"]
        run = build_run(entries, self.sources, environment, self.reference)
        add_runs(self.path, {self.environment: run})

    def pytest_terminal_summary(self, terminalreporter) -> None:
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
