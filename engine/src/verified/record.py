"""The verification record: what the last test run executed, with what, and how it ended.

Written by the recorder of `verified.plugin` (`--record PATH`), read by the site plugin, which
stamps each page (so this module imports nothing from the test tools). It holds one run per
verification environment, each test run adding its own and keeping the others' (`add_runs`).
`record.schema.json` says what each field holds; this module adds the rules of the reason codes
(`REASONS`). A page edited after the run, or with an example the run did not finish, is never
stamped as verified: `sources` holds the hash of every file the verdicts depend on, taken when
the run started, and `examples` every example collected then.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import platform
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from string import Formatter
from typing import Literal

from verified.paths import docs_dir, example_scripts, expected_dir, is_generated, relative

#: The record's JSON Schema, but for the rules of the reason codes (`_validator` adds them).
_SCHEMA = json.loads(Path(__file__).with_name("record.schema.json").read_text(encoding="utf-8"))
SCHEMA = _SCHEMA["properties"]["schema"]["const"]
STATUSES = tuple(_SCHEMA["$defs"]["status"]["enum"])
ROW_STATUSES = tuple(_SCHEMA["$defs"]["row-status"]["enum"])
#: Name of the environment whose run a page's stamp leads with (verified.environments).
DEFAULT_ENVIRONMENT = "default"
#: Name of the run of the CUDA examples on a GPU machine (`make test-gpu`), with that
#: machine's own versions; committed as verification/gpu-run.json, a record like any other.
GPU_ENVIRONMENT = "gpu"
#: Every reason a record may give for an example that did not pass, by status. A reason is
#: a code: the site words it per language (verified_site.stamp), the terminal with `describe`.
REASONS = {
    "failed": ("wrong-output", "raised", "failed-in-setup", "failed-in-call", "failed-in-teardown"),
    "not-verified": ("unfinished", "not-run", "needs-cuda", "changed-since-gpu-run"),
    "not-applicable": ("needs-library", "cuda-verified-once"),
}
#: The details each reason carries (`details` of the record entry), and what they say.
REASON_TEXT = {
    "wrong-output": "printed other output than its file says",
    "raised": "raised {error} at line {line}",
    "failed-in-setup": "failed while being set up",
    "failed-in-call": "failed",
    "failed-in-teardown": "failed while being torn down",
    "unfinished": "did not run to completion in this session",
    "not-run": "not run: {note}",
    "needs-cuda": "needs CUDA; this run had no CUDA device and no GPU run verified it",
    "changed-since-gpu-run": "needs CUDA; its code changed since the GPU run of {gpu_run}: "
    "run `make test-gpu` on a GPU machine (README, 'Examples that need CUDA')",
    "needs-library": "needs {libraries}, which environment {environment} does not install",
    "cuda-verified-once": "CUDA examples are verified once, by the GPU run, not in each "
    "environment",
}


class RecordError(ValueError):
    """A record is malformed; the message names the file (when read) and the field."""


def status_of(reason: str) -> str:
    """The status `reason` belongs to; RecordError when it is not one of `REASONS`."""
    for status, reasons in REASONS.items():
        if reason in reasons:
            return status
    codes = ", ".join(code for codes in REASONS.values() for code in codes)
    raise RecordError(f"{reason!r} is not a reason code; the codes are {codes}")


def describe(reason: str, details: dict) -> str:
    """English text of a reason with its `details`, for the terminal (pages word it per language);
    KeyError when a detail its text names is missing."""
    shown = {k: ", ".join(v) if isinstance(v, list) else v for k, v in details.items()}
    return REASON_TEXT[reason].format(**shown)


def record_problem(record: object) -> str | None:
    """What makes `record` not a record of this schema, naming the field
    (`record.environments.default.examples[0].reason must be one of ...`); None if nothing."""
    validate, invalid = _validator()
    try:
        validate(record, name_prefix="record")
    except invalid as exc:
        return exc.message
    return None


@functools.cache
def _validator() -> tuple[Callable, type[Exception]]:
    """The compiled schema and the exception it raises. fastjsonschema is imported here, not at the
    top: the Makefile imports this module (`python -m verified.environments`) before any virtual
    environment exists."""
    import fastjsonschema

    def when(field: str, value: object, then: dict) -> dict:
        return {"if": {"required": [field], "properties": {field: {"const": value}}}, "then": then}

    schema = copy.deepcopy(_SCHEMA)
    schema["$defs"]["entry"]["allOf"] += [
        when("status", "passed", {"properties": {"reason": {"const": None}}}),
        *(
            when("status", status, {"properties": {"reason": {"enum": list(codes)}}})
            for status, codes in REASONS.items()
        ),
        *(
            when("reason", code, {"properties": {"details": {"required": sorted(needed)}}})
            for code, text in REASON_TEXT.items()
            if (needed := {name for _, name, _, _ in Formatter().parse(text) if name})
        ),
    ]
    return fastjsonschema.compile(schema), fastjsonschema.JsonSchemaValueException


#: Stamped libraries: (record key, name shown on pages, distributions that provide it).
LIBRARIES = (
    ("torch", "torch", ("torch",)),
    ("torchvision", "torchvision", ("torchvision",)),
    ("tensorflow", "TensorFlow", ("tensorflow-cpu", "tensorflow")),
    ("numpy", "NumPy", ("numpy",)),
)


def hash_sources(root: Path) -> dict[str, str]:
    """Root-relative path -> hex SHA-256 of every file a run's verdicts depend on, under the content
    root `root`: sorted `docs/**/*.md` but the generated pages, `examples/**/*.py`, each
    environment's expected outputs (`verification/expected/*.json`), then the data files
    (`data/**/*.yml`)."""
    expected = sorted(expected_dir(root).glob("*.json"))
    pages = [p for p in sorted(docs_dir(root).rglob("*.md")) if not is_generated(p, root)]
    data = sorted((root / "data").rglob("*.yml"))
    files = pages + example_scripts(root) + expected + data
    return {relative(path, root): file_sha256(path) for path in files}


def installed_versions() -> dict[str, str | None]:
    """The installed versions of Python and the stamped libraries, from package metadata:
    `{"python": "3.11.7", "torch": "2.14.1", ...}`, None for one not installed."""
    versions: dict[str, str | None] = {"python": platform.python_version()}
    for key, _name, distributions in LIBRARIES:
        versions[key] = None
        for distribution in distributions:
            try:
                versions[key] = metadata.version(distribution)
                break
            except metadata.PackageNotFoundError:
                continue
    return versions


def public_version(version: str) -> str:
    """The release a version names, without its local label: `2.14.1+cu130` -> `2.14.1` (pages name
    releases; the record keeps the build)."""
    return version.split("+", 1)[0]


def versions_label(versions: dict, keys: list[str] | None = None) -> str:
    """`torch 2.14.1 · torchvision 0.29.1 · ...`: the stamped libraries present in `versions` (None:
    absent), only `keys` if given, in the order of `LIBRARIES`; "" when none is."""
    return " · ".join(
        f"{name} {public_version(versions[key])}"
        for key, name, _ in LIBRARIES
        if versions.get(key) and (keys is None or key in keys)
    )


def count_statuses(entries: list[dict]) -> dict[str, int]:
    """How many of the record entries have each of `STATUSES`."""
    counts = Counter(entry.get("status") for entry in entries)  # add_runs refuses a bad one
    return {status: counts[status] for status in STATUSES}


def build_run(
    entries: list[dict],
    sources: dict[str, str],
    environment: dict[str, str | None],
    reference: dict[str, dict] | None = None,
) -> dict:
    """One environment's run, ready for `add_runs` (which checks it), dated now: `entries` holds
    one record entry per collected example, `sources` comes from `hash_sources`, `environment`
    holds the versions and the `device`; `reference`, the reference's rows that ran."""
    rows = Counter(row["status"] for row in (reference or {}).values())
    return {
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "environment": {**environment, "platform": platform.platform()},
        "sources": sources,
        "summary": {**count_statuses(entries), "reference": {s: rows[s] for s in ROW_STATUSES}},
        "examples": sorted(entries, key=lambda e: (e["source"], e["line"])),
        "reference": reference or {},
    }


def add_runs(path: Path, runs: dict[str, dict]) -> set[str]:
    """Write environment -> run into the record at `path` (created, or replaced if unreadable or
    older), keeping the other environments' runs; returns the environments that replaced a run.
    Raises RecordError, leaving the file as it was, when a run does not fit the schema."""
    try:
        record = load_record(path) or {"schema": SCHEMA, "environments": {}}
    except RecordError:
        record = {"schema": SCHEMA, "environments": {}}
    replaced = set(runs) & set(record["environments"])
    record["environments"].update(runs)
    if problem := record_problem(record):
        raise RecordError(f"{path}: not written, the run is malformed: {problem}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return replaced


def load_record(path: Path, again: str = "delete it and run `make test`") -> dict | None:
    """The record at `path`, or None if there is no such file. Raises RecordError, naming the file
    and the field and saying `again` (what to do), when it is not a record of this schema."""
    if not path.is_file():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"{path}: not valid JSON ({exc}); {again}") from None
    if problem := record_problem(record):
        raise RecordError(
            f"{path}: not a verification record of schema {SCHEMA} ({problem}); {again}"
        )
    return record


def merge_records(path: Path, other: Path, known: list[str]) -> list[str]:
    """Add every run of the record `other` (written by a CI job, say) to the record `path`; returns
    one line per environment, saying whether it replaced a run. Raises RecordError when `other`
    is missing, not a record, holds no run, or a run of an environment not in `known`."""
    record = load_record(other)
    if record is None:
        raise RecordError(f"{other}: no such record; run `make test-examples ENV=<name>` first")
    runs = record["environments"]
    if not runs:
        raise RecordError(f"{other}: holds no run")
    for name in runs:
        if name not in known:
            raise RecordError(
                f"{other}: a run of {name!r}, which is not a verification environment"
            )
    replaced = add_runs(path, runs)
    return [f"{name} ({'replaced' if name in replaced else 'added'})" for name in runs]


PageState = Literal["verified", "partial", "failed", "unverified", "not-applicable", "none"]


@dataclass
class PageVerification:
    """What one environment's run says about one page.

    `state`: `"verified"` (every example passed), `"partial"` (some passed, none failed, some not
    run), `"failed"` (at least one failed), `"unverified"` (no record, a source changed since the
    run, or no example ran), `"not-applicable"` (every example needs a library this environment
    lacks) or `"none"` (the page shows no examples). `passed` counts the examples that ran and
    printed what the page shows, `failed` lists their ids, `stale` the sources changed since the run
    or missing from it. The other lists hold record entries: `not_verified`, not run in this build;
    `gpu`, passed on a CUDA device (in this run, or checked against a committed GPU run);
    `not_applicable`, needing a library this environment does not install."""

    state: PageState
    passed: int = 0
    failed: list[str] = field(default_factory=list)
    not_verified: list[dict] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    gpu: list[dict] = field(default_factory=list)
    not_applicable: list[dict] = field(default_factory=list)


def verify_page(run: dict | None, current: dict[str, str | None]) -> PageVerification:
    """Summarise one environment's `run` (None: no record) for the files a page shows: `current`
    maps each to the hex SHA-256 of its contents now, None when it is missing."""
    if run is None:
        return PageVerification("unverified", stale=list(current))
    recorded = run["sources"]
    stale = [source for source, digest in current.items() if digest != recorded.get(source, "")]
    if stale:
        return PageVerification("unverified", stale=stale)
    found: dict[str, list[dict]] = {status: [] for status in STATUSES}
    for entry in run["examples"]:
        if entry["source"] in current:
            found[entry["status"]].append(entry)
    passed, failed, not_verified, not_applicable = (found[status] for status in STATUSES)
    state: PageState
    if failed:
        state = "failed"
    elif not_verified:
        state = "partial" if passed else "unverified"
    elif passed:
        state = "verified"
    else:
        state = "not-applicable" if not_applicable else "none"
    gpu = [entry for entry in passed if entry.get("device") == "cuda"]
    return PageVerification(
        state, len(passed), [entry["id"] for entry in failed], not_verified, [], gpu, not_applicable
    )


def overall_state(verifications: dict[str, PageVerification]) -> PageState:
    """The state a page's stamp shows: `"failed"` when any environment failed; otherwise the leading
    run's state, `"not-applicable"` read as `"none"` (no stamp); `"unverified"` without a record."""
    if not verifications:
        return "unverified"
    if any(v.state == "failed" for v in verifications.values()):
        return "failed"
    state = next(iter(verifications.values())).state
    return "none" if state == "not-applicable" else state


def verify_environments(
    record: dict | None, sources: list[str], root: Path
) -> dict[str, PageVerification]:
    """Environment -> its verification of the files a page shows (`sources`, relative to `root`),
    the default environment first; empty when there is no record. Another environment's run
    depends on its expected outputs too, when that file exists or its run hashed it: an edit to
    it after the run withdraws that environment's verdicts."""
    if record is None or not record["environments"]:
        return {}
    runs = record["environments"]
    current = {source: file_sha256(root / source) for source in sources}
    found = {DEFAULT_ENVIRONMENT: verify_page(runs.get(DEFAULT_ENVIRONMENT), current)}
    for name, run in runs.items():
        if name != DEFAULT_ENVIRONMENT:
            expected = relative(expected_dir(root) / f"{name}.json", root)
            depends = dict(current)
            if (root / expected).is_file() or expected in run["sources"]:
                depends[expected] = file_sha256(root / expected)
            found[name] = verify_page(run, depends)
    return found


def file_sha256(path: Path) -> str | None:
    """The hex SHA-256 of a file's bytes, None when there is no such file."""
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
