"""The verification record: what the last test run executed, with what, and how it ended.

Written by the examples stage of `make test` (the pytest plugin in
`tooling/record_plugin.py`, enabled with `--record PATH`), read by the MkDocs
hook that stamps each page. This module imports nothing from the test tools:
the site build (docs-only environment) reads records too.

The record holds one run per verification environment (`tooling/environments.py`):
`make test` writes the default one, `make test-matrix` one per environment, each run
adding its own and keeping the others' (`add_run`). JSON layout::

    {
      "schema": 2,
      "environments": {
        "default": {
          "created": "2026-11-30T12:00:00+00:00",
          "environment": {"python": "3.11.7", "torch": "2.14.1+cu130", "torchvision": "0.29.1",
                          "tensorflow": "2.21.0", "numpy": "2.4.6", "platform": "...",
                          "device": "cpu"},
          "sources": {"docs/index.md": "<sha256>", "examples/a/b.py": "<sha256>",
                      "verification/expected/previous.json": "<sha256>", ...},
          "summary": {"passed": 12, "failed": 0, "not-verified": 1, "not-applicable": 0},
          "examples": [{"id": ..., "source": ..., "line": ..., "requires": ["cuda"],
                        "status": "passed" | "failed" | "not-verified" | "not-applicable",
                        "reason": ..., "seconds": <float, seconds of the example's own run>,
                        "device": ..., "versions": {...}}, ...]
        },
        "previous": {...}
      }
    }

`sources` holds the hash of every file the run's verdicts depend on, taken when it
started, and `examples` lists every example collected then, including those that did
not run (as "not-verified"). A page edited after the run, or with an example the run
did not finish, is therefore never stamped as verified. "not-applicable" marks an
example that needs a library its environment does not install (torchvision in
`previous`), or a CUDA example outside the default environment: neither passed nor
failed there.
"""

from __future__ import annotations

import hashlib
import json
import platform
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Literal

from tooling.paths import docs_dir, example_scripts, expected_dir, relative

SCHEMA = 2
STATUSES = ("passed", "failed", "not-verified", "not-applicable")
#: Name of the environment whose run a page's stamp leads with (tooling/environments.py).
DEFAULT_ENVIRONMENT = "default"
#: Reason of an example that was collected but whose test did not finish.
UNFINISHED = "did not run to completion in this session"
#: Why a CUDA example does not apply outside the default environment.
CUDA_ONCE = "CUDA examples are verified once, by the GPU run, not in each environment"
#: Why an example does not apply where a library it imports is not installed.
NEEDS_LIBRARY = re.compile(
    r"^needs (?P<libraries>[\w, -]+), which environment (?P<environment>[\w-]+) does not install$"
)


def needs_library(missing: list[str], environment: str) -> str:
    """The reason an example does not apply in an environment that lacks libraries.

    Args:
        missing (list[str]): the libraries it imports that the environment lacks.
        environment (str): the environment's name.

    Returns:
        str: a reason that `NEEDS_LIBRARY` matches.
    """
    return f"needs {', '.join(missing)}, which environment {environment} does not install"


#: Stamped libraries: (record key, name shown on pages, distributions that provide it).
LIBRARIES = (
    ("torch", "torch", ("torch",)),
    ("torchvision", "torchvision", ("torchvision",)),
    ("tensorflow", "TensorFlow", ("tensorflow-cpu", "tensorflow")),
    ("numpy", "NumPy", ("numpy",)),
)


def file_sha256(path: Path) -> str:
    """Return the hex SHA-256 of a file's bytes.

    Args:
        path (Path): file to hash.

    Returns:
        str: 64 hex characters.

    Raises:
        OSError: the file cannot be read.
    """
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_files(root: Path) -> list[Path]:
    """Return every file a run's verdicts depend on: pages, example scripts, and each
    environment's expected outputs (`tooling/expected.py`).

    Args:
        root (Path): content root with `docs/` and `examples/`.

    Returns:
        list[Path]: sorted `docs/**/*.md`, `examples/**/*.py`, then
        `verification/expected/*.json`.
    """
    expected = sorted(expected_dir(root).glob("*.json"))
    return sorted(docs_dir(root).rglob("*.md")) + example_scripts(root) + expected


def hash_sources(root: Path) -> dict[str, str]:
    """Hash every page and example script under `root`.

    Args:
        root (Path): content root.

    Returns:
        dict[str, str]: root-relative path -> SHA-256.
    """
    return {relative(path, root): file_sha256(path) for path in source_files(root)}


def installed_versions() -> dict[str, str | None]:
    """Return the installed versions of Python and the stamped libraries (package metadata).

    Used when no example reported the versions it imported (e.g. none ran).

    Returns:
        dict[str, str | None]: `{"python": "3.11.7", "torch": "2.14.1", ...}`; None for a
        library that is not installed.
    """
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
    """The release a version names: `2.14.1+cu130` -> `2.14.1` (pages name releases;
    the record keeps the build).

    Args:
        version (str): a version as installed.

    Returns:
        str: without its local label.
    """
    return version.split("+", 1)[0]


def versions_label(versions: dict, keys: list[str] | None = None) -> str:
    """`torch 2.14.1 · torchvision 0.29.1 · ...`: the stamped libraries that are present.

    Args:
        versions (dict): record key -> version (None for a library that is absent).
        keys (list[str] | None): only these libraries; None for all stamped ones.

    Returns:
        str: the label, in the order of `LIBRARIES`; "" when none is present.
    """
    return " · ".join(
        f"{name} {public_version(versions[key])}"
        for key, name, _ in LIBRARIES
        if versions.get(key) and (keys is None or key in keys)
    )


def count_statuses(entries: list[dict]) -> dict[str, int]:
    """Count entries per status.

    Args:
        entries (list[dict]): record entries.

    Returns:
        dict[str, int]: a count for each of `STATUSES`.

    Raises:
        KeyError: an entry has a status outside `STATUSES`.
    """
    counts = dict.fromkeys(STATUSES, 0)
    for entry in entries:
        counts[entry["status"]] += 1
    return counts


def build_run(
    entries: list[dict], sources: dict[str, str], environment: dict[str, str | None]
) -> dict:
    """Assemble the run of one environment.

    Args:
        entries (list[dict]): one dict per collected example (keys as in the module docstring).
        sources (dict[str, str]): from `hash_sources`, taken when the run started.
        environment (dict): versions (`python`, `torch`, ...) and `device` of the run.

    Returns:
        dict: the run, ready for `add_run`.

    Raises:
        KeyError: an entry has a status outside `STATUSES`.
    """
    return {
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "environment": {**environment, "platform": platform.platform()},
        "sources": sources,
        "summary": count_statuses(entries),
        "examples": sorted(entries, key=lambda e: (e["source"], e["line"])),
    }


def add_run(path: Path, name: str, run: dict) -> dict:
    """Write one environment's run into the record, keeping the other environments' runs.

    Args:
        path (Path): the record (inside a git-ignored build folder); created if missing.
            An unreadable or older record is replaced.
        name (str): the environment, e.g. `"default"`.
        run (dict): from `build_run`.

    Returns:
        dict: the record as written.

    Raises:
        OSError: the file cannot be written.
    """
    try:
        record = load_record(path) or {"schema": SCHEMA, "environments": {}}
    except ValueError:
        record = {"schema": SCHEMA, "environments": {}}
    record["environments"][name] = run
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return record


def load_record(path: Path) -> dict | None:
    """Read a record.

    Args:
        path (Path): the record file.

    Returns:
        dict | None: the record, or None if the file does not exist.

    Raises:
        ValueError: the file is not a record of this schema (the message names the file).
        OSError: the file exists but cannot be read.
    """
    if not path.is_file():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: not valid JSON ({exc}); delete it and run `make test`") from exc
    if (
        not isinstance(record, dict)
        or record.get("schema") != SCHEMA
        or not isinstance(record.get("environments"), dict)
    ):
        raise ValueError(f"{path}: not a verification record of schema {SCHEMA}; run `make test`")
    return record


def merge_records(path: Path, other: Path, known: list[str]) -> list[str]:
    """Add every environment's run of another record to a record.

    Args:
        path (Path): the record to add to (created if missing).
        other (Path): a record written elsewhere, e.g. by a CI job of one environment.
        known (list[str]): the configured environments; a run of another is refused.

    Returns:
        list[str]: one line per environment added, saying whether it replaced a run.

    Raises:
        ValueError: `other` is missing, not a record, holds no run, a run of an unknown
            environment or a malformed run (the message names the file).
        OSError: a file cannot be read or written.
    """
    try:
        record = load_record(other)
    except ValueError as exc:
        raise ValueError(
            str(exc).replace("delete it and run `make test`", "write it again")
        ) from None
    if record is None:
        raise ValueError(f"{other}: no such record; run `make test-examples ENV=<name>` first")
    runs = record["environments"]
    if not runs:
        raise ValueError(f"{other}: holds no run")
    for name, run in runs.items():
        if name not in known:
            raise ValueError(f"{other}: a run of {name!r}, which is not a verification environment")
        keys = ("created", "environment", "sources", "examples")
        if not isinstance(run, dict) or any(key not in run for key in keys):
            raise ValueError(f"{other}: the run of {name!r} is not a run of schema {SCHEMA}")
    try:
        before = set((load_record(path) or {"environments": {}})["environments"])
    except ValueError:
        before = set()
    for name, run in runs.items():
        add_run(path, name, run)
    return [f"{name} ({'replaced' if name in before else 'added'})" for name in runs]


def main(argv: list[str] | None = None) -> int:
    """Command line: `merge RECORD OTHER` adds OTHER's runs to RECORD.

    Args:
        argv (list[str] | None): arguments (None: `sys.argv[1:]`).

    Returns:
        int: 0, or 1 when OTHER cannot be read (the message says why).
    """
    import argparse

    parser = argparse.ArgumentParser(description="Verification records.")
    commands = parser.add_subparsers(dest="command", required=True)
    merge = commands.add_parser("merge", help="add another record's runs to a record")
    merge.add_argument("record", type=Path)
    merge.add_argument("other", type=Path)
    args = parser.parse_args(argv)
    from tooling.environments import environments

    try:
        added = merge_records(args.record, args.other, [e.name for e in environments()])
    except ValueError as exc:
        print(exc)
        return 1
    print(f"{args.record}: runs from {args.other}: {', '.join(added)}")
    return 0


def primary_run(record: dict) -> tuple[str, dict | None]:
    """The run a page's stamp leads with: the default environment's, whose output the
    `#>` lines hold.

    Args:
        record (dict): from `load_record`.

    Returns:
        tuple[str, dict | None]: the default environment's name and its run; None when
        the record has only other environments' runs (the page's own output was then not
        verified in this build).
    """
    return DEFAULT_ENVIRONMENT, record["environments"].get(DEFAULT_ENVIRONMENT)


PageState = Literal["verified", "partial", "failed", "unverified", "not-applicable", "none"]


@dataclass
class PageVerification:
    """What one environment's run says about one page.

    Attributes:
        state (PageState): `"verified"` (every example passed), `"partial"` (some passed,
            none failed, some not run), `"failed"` (at least one failed), `"unverified"`
            (no record, a source changed since the run, or no example ran),
            `"not-applicable"` (every example needs a library this environment lacks) or
            `"none"` (the page shows no examples).
        passed (int): examples that ran and printed what the page shows.
        failed (list[str]): ids of the examples that failed.
        not_verified (list[dict]): record entries of the examples not run in this build.
        stale (list[str]): sources changed since the run, or missing from it.
        gpu (list[dict]): record entries of the examples that passed on a CUDA device
            (in this run, or checked against a committed GPU run).
        not_applicable (list[dict]): record entries of the examples that need a library
            this environment does not install.
    """

    state: PageState
    passed: int = 0
    failed: list[str] = field(default_factory=list)
    not_verified: list[dict] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    gpu: list[dict] = field(default_factory=list)
    not_applicable: list[dict] = field(default_factory=list)


def verify_page(run: dict | None, sources: list[str], root: Path) -> PageVerification:
    """Summarise one environment's run for the files a page shows.

    Args:
        run (dict | None): one environment's run from the record, or None when the build
            has no record.
        sources (list[str]): the page file and every file it embeds, relative to `root`
            (see `tooling.pages.page_sources`).
        root (Path): repository root, to hash the current files.

    Returns:
        PageVerification: the page's state and counts.

    Raises:
        OSError: a source file exists but cannot be read.
    """
    if run is None:
        return PageVerification("unverified", stale=list(sources))
    recorded = run.get("sources", {})
    stale = [
        source
        for source in sources
        if not (root / source).is_file() or recorded.get(source) != file_sha256(root / source)
    ]
    if stale:
        return PageVerification("unverified", stale=stale)
    wanted = set(sources)
    entries = [entry for entry in run.get("examples", []) if entry["source"] in wanted]
    if not entries:
        return PageVerification("none")
    not_applicable = [entry for entry in entries if entry["status"] == "not-applicable"]
    entries = [entry for entry in entries if entry["status"] != "not-applicable"]
    if not entries:
        return PageVerification("not-applicable", not_applicable=not_applicable)
    passed = sum(entry["status"] == "passed" for entry in entries)
    failed = [entry["id"] for entry in entries if entry["status"] == "failed"]
    not_verified = [entry for entry in entries if entry["status"] == "not-verified"]
    gpu = [
        entry
        for entry in entries
        if entry["status"] == "passed" and str(entry.get("device", "")).startswith("cuda")
    ]
    if failed:
        state: PageState = "failed"
    elif not_verified:
        state = "partial" if passed else "unverified"
    else:
        state = "verified"
    return PageVerification(
        state, passed, failed, not_verified, gpu=gpu, not_applicable=not_applicable
    )


def overall_state(verifications: dict[str, PageVerification]) -> PageState:
    """The state a page's stamp shows, from every environment's verification.

    Args:
        verifications (dict[str, PageVerification]): from `verify_environments`.

    Returns:
        PageState: `"failed"` when any environment failed; otherwise the leading run's
        state, with `"not-applicable"` read as `"none"` (the page shows no stamp);
        `"unverified"` when there is no record.
    """
    if not verifications:
        return "unverified"
    if any(v.state == "failed" for v in verifications.values()):
        return "failed"
    state = next(iter(verifications.values())).state
    return "none" if state == "not-applicable" else state


def verify_environments(
    record: dict | None, sources: list[str], root: Path
) -> dict[str, PageVerification]:
    """Summarise every environment's run for the files a page shows.

    Args:
        record (dict | None): from `load_record`.
        sources (list[str]): as for `verify_page`.
        root (Path): repository root.

    Returns:
        dict[str, PageVerification]: environment -> its verification, the default
        environment first (`"unverified"` when the record has no run of it); empty when
        there is no record.

    Raises:
        OSError: a source file exists but cannot be read.
    """
    if record is None or not record["environments"]:
        return {}
    first, _ = primary_run(record)
    names = [first] + [name for name in record["environments"] if name != first]
    runs = record["environments"]
    return {
        name: verify_page(runs.get(name), sources + _expected(record, name, root), root)
        for name in names
    }


def _expected(record: dict, name: str, root: Path) -> list[str]:
    """The environment's expected-output file, when it exists or its run hashed it: an edit
    to it after the run withdraws that environment's verdicts."""
    path = relative(expected_dir(root) / f"{name}.json", root)
    recorded = (record["environments"].get(name) or {}).get("sources", {})
    return (
        [path]
        if name != DEFAULT_ENVIRONMENT and ((root / path).is_file() or path in recorded)
        else []
    )


if __name__ == "__main__":
    raise SystemExit(main())
