"""The verification record: what the last test run executed, with what, and how it ended.

Written by the examples stage of `make test` (a pytest plugin, enabled with
`--record PATH`), read by the MkDocs hook that stamps each page. JSON layout::

    {
      "schema": 1,
      "created": "2026-11-30T12:00:00+00:00",
      "environment": {"python": "3.11.7", "torch": "2.14.1+cu130", "tensorflow": "2.21.0",
                      "numpy": "2.4.6", "platform": "...", "device": "cpu"},
      "sources": {"docs/index.md": "<sha256>", "examples/a/b.py": "<sha256>", ...},
      "summary": {"passed": 12, "failed": 0, "not-verified": 1},
      "examples": [{"id": ..., "source": ..., "line": ..., "requires": ["cuda"],
                    "status": "passed" | "failed" | "not-verified", "reason": ...,
                    "seconds": ..., "device": ..., "versions": {...}}, ...]
    }

This module imports nothing from the test tools: the site build (docs-only
environment) reads records too.

`sources` holds the hash of every file scanned for examples at the end of the run,
so a page edited after the run is shown as "not verified in this build" instead of
inheriting a stamp it did not earn.
"""

from __future__ import annotations

import hashlib
import json
import platform
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from tooling.paths import docs_dir, examples_dir

SCHEMA = 1
STATUSES = ("passed", "failed", "not-verified")
#: Libraries whose versions are stamped, as (record key, distribution names to try).
LIBRARIES = (
    ("torch", ("torch",)),
    ("tensorflow", ("tensorflow-cpu", "tensorflow")),
    ("numpy", ("numpy",)),
)


def file_sha256(path: Path) -> str:
    """Return the hex SHA-256 of a file's bytes.

    Args:
        path (Path): file to hash.

    Returns:
        str: 64 hex characters.
    """
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_files(root: Path) -> list[Path]:
    """Return every file that can hold examples: pages and example scripts.

    Args:
        root (Path): content root with `docs/` and `examples/`.

    Returns:
        list[Path]: sorted `docs/**/*.md` then `examples/**/*.py`.
    """
    return sorted(docs_dir(root).rglob("*.md")) + sorted(examples_dir(root).rglob("*.py"))


def library_versions() -> dict[str, str | None]:
    """Return the installed versions of Python and the stamped libraries.

    Returns:
        dict[str, str | None]: `{"python": "3.11.7", "torch": "2.14.1+cu130", ...}`;
        None for a library that is not installed.
    """
    versions: dict[str, str | None] = {"python": platform.python_version()}
    for key, distributions in LIBRARIES:
        versions[key] = None
        for name in distributions:
            try:
                versions[key] = metadata.version(name)
                break
            except metadata.PackageNotFoundError:
                continue
    return versions


def build_record(entries: list[dict], root: Path, device: str) -> dict:
    """Assemble a record from per-example entries.

    Args:
        entries (list[dict]): one dict per example (keys as in the module docstring).
        root (Path): content root whose sources are hashed.
        device (str): device the examples ran on, e.g. `"cpu"` or `"cuda (NVIDIA H200)"`.

    Returns:
        dict: the record, ready for `json.dump`.
    """
    summary = {status: 0 for status in STATUSES}
    for entry in entries:
        summary[entry["status"]] += 1
    environment = {**library_versions(), "platform": platform.platform(), "device": device}
    return {
        "schema": SCHEMA,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "environment": environment,
        "sources": {
            path.relative_to(root).as_posix(): file_sha256(path) for path in source_files(root)
        },
        "summary": summary,
        "examples": sorted(entries, key=lambda e: (e["source"], e["line"])),
    }


def write_record(record: dict, path: Path) -> None:
    """Write a record as indented JSON, creating parent folders.

    Args:
        record (dict): from `build_record`.
        path (Path): destination (inside a git-ignored build folder).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def load_record(path: Path) -> dict | None:
    """Read a record.

    Args:
        path (Path): the record file.

    Returns:
        dict | None: the record, or None if the file does not exist.

    Raises:
        ValueError: the file is not a record of this schema (the message names the file).
    """
    if not path.is_file():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc}); delete it and run `make test`") from exc
    if not isinstance(record, dict) or record.get("schema") != SCHEMA:
        raise ValueError(f"{path}: not a verification record of schema {SCHEMA}; run `make test`")
    return record


@dataclass
class PageVerification:
    """What the record says about one page.

    Attributes:
        state (str): `"verified"` (all examples passed), `"partial"` (none failed, some
            not verified), `"failed"`, `"unverified"` (no record, or a source changed
            since the run) or `"none"` (the page has no examples).
        passed (int): examples that ran and printed what the page shows.
        failed (list[str]): ids of the examples that failed.
        not_verified (list[dict]): the record entries of examples not run in this build.
        stale (list[str]): sources changed since the run, or missing from it.
    """

    state: str
    passed: int = 0
    failed: list[str] | None = None
    not_verified: list[dict] | None = None
    stale: list[str] | None = None


def verify_page(record: dict | None, sources: list[str], root: Path) -> PageVerification:
    """Summarise the record for the files a page shows.

    Args:
        record (dict | None): the loaded record, or None when the build has none.
        sources (list[str]): the page file and every script it embeds, relative to `root`.
        root (Path): repository root, to hash the current files.

    Returns:
        PageVerification: the page's state and counts.
    """
    if record is None:
        return PageVerification("unverified", stale=list(sources))
    recorded = record.get("sources", {})
    stale = [
        source
        for source in sources
        if recorded.get(source) is None
        or not (root / source).is_file()
        or recorded[source] != file_sha256(root / source)
    ]
    if stale:
        return PageVerification("unverified", stale=stale)
    wanted = set(sources)
    entries = [entry for entry in record.get("examples", []) if entry["source"] in wanted]
    if not entries:
        return PageVerification("none")
    passed = sum(entry["status"] == "passed" for entry in entries)
    failed = [entry["id"] for entry in entries if entry["status"] == "failed"]
    not_verified = [entry for entry in entries if entry["status"] == "not-verified"]
    state = "failed" if failed else "partial" if not_verified else "verified"
    return PageVerification(state, passed, failed, not_verified, [])
