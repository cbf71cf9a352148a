"""The canary's report: what the newest releases of the libraries change in the examples' outputs.

`make canary` runs the examples stage in a fresh environment with the newest releases of the
stamped libraries (environment `canary`, held to the `#>` lines) and then this module, which reads
that run's record, pytest's JUnit XML and pip's installation report from one folder and writes
`report.md` there (Markdown, also printed): the versions pinned, got and newest; per example
whether its output is unchanged, changed (with the diff) or failing; any other check of the
stage that failed; and the other packages pip installed at versions the lock does not pin, which
can change outputs too. It changes no file of the project.

    python -m tooling.canary build/canary torch torchvision tensorflow-cpu numpy
"""

from __future__ import annotations

import difflib
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from packaging.utils import canonicalize_name

from verified.environments import (
    LIBRARY_DISTRIBUTIONS,
    UnknownEnvironment,
    environments,
    lock_pins,
)
from verified.examples import collect
from verified.expected import mismatches, printed_by_print
from verified.outputs import print_calls_with_outputs
from verified.paths import REPO_ROOT
from verified.record import CANARY_ENVIRONMENT, RecordError, describe, load_record, public_version

#: Lines of one failure message or one example's diff kept in the report (a job summary is
#: limited to 1 MiB; the record and JUnit XML beside the report hold everything).
MAX_LINES = 60
VERDICTS = ("unchanged", "changed", "failing", "not compared")


def newest_release(distribution: str) -> str | None:
    """The newest release of `distribution` that pip would install alone on this Python, asked of
    the configured indexes now (a dry run, nothing installed); None when pip cannot tell."""
    result = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--no-deps",
         "--quiet", "--disable-pip-version-check", "--report", "-", distribution],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    try:
        return json.loads(result.stdout)["install"][0]["metadata"]["version"]
    except (json.JSONDecodeError, KeyError, IndexError):
        return None


def verdict(entry: dict) -> str:
    """One of `VERDICTS` for a record entry of the canary run."""
    if entry["status"] == "passed":
        return "unchanged"
    if entry["status"] == "failed":
        return "changed" if entry["reason"] == "wrong-output" else "failing"
    return "not compared"


def output_diff(path: str, code: tuple[str, int], printed: list[dict]) -> list[str]:
    """A unified diff, print by print, of the outputs written under the print calls of an
    example's `code` (its source, and the line of `path` before its first) against those the
    canary `printed` (the record's `printed` entries); headers name the file and line."""
    source, start = code
    calls = print_calls_with_outputs(source)
    by_print, _ = printed_by_print(calls, [(p["line"], p["text"]) for p in printed])
    lines: list[str] = []
    for call, expected, actual in mismatches(calls, by_print, {}):
        lines += difflib.unified_diff(
            (expected or "").splitlines(),
            (actual or "").splitlines(),
            f"{path}:{start + call.first}: {call.key.code} (the #> lines)",
            "printed on the newest releases",
            lineterm="",
        )
    return lines


def junit_failures(path: Path) -> dict[str, tuple[str | None, str]]:
    """Test id -> (the example it ran, or None; the failure's text) for every test pytest's
    JUnit XML at `path` (`junit_family=xunit1`, which keeps the `example` property) reports as
    failed or in error; empty when the file is missing. RecordError when it cannot be parsed."""
    if not path.is_file():
        return {}
    try:
        cases = list(ET.parse(path).getroot().iter("testcase"))
    except ET.ParseError as exc:
        raise RecordError(f"{path}: not JUnit XML ({exc}); run `make canary` again") from None
    found = {}
    for case in cases:
        problem = case.find("failure")
        problem = problem if problem is not None else case.find("error")
        if problem is None:
            continue
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        text = problem.text or problem.get("message") or ""
        found[name] = (props.get("example"), text.removeprefix("Failed: "))
    return found


def other_packages(install: Path, lock: Path, libraries: list[str]) -> list[tuple[str, str, str]]:
    """(package, version in `lock`, version pip installed) for each package of pip's installation
    report `install` that the lock pins otherwise or not at all, but the `libraries`; empty when
    the report is missing. RecordError when it cannot be read."""
    if not install.is_file():
        return []
    try:
        installed = json.loads(install.read_text(encoding="utf-8"))["install"]
        got = {
            canonicalize_name(i["metadata"]["name"]): i["metadata"]["version"] for i in installed
        }
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise RecordError(f"{install}: not pip's installation report ({exc!r})") from None
    # pip-compile leaves pip and setuptools out of a lock by design.
    skip = {canonicalize_name(name) for name in libraries} | {"pip", "setuptools"}
    pins = lock_pins(lock) or {}
    return [
        (name, pins.get(name, "not locked"), version)
        for name, version in sorted(got.items())
        if name not in skip and pins.get(name) != version
    ]


def _clip(lines: list[str]) -> list[str]:
    if len(lines) <= MAX_LINES:
        return lines
    return [*lines[:MAX_LINES], f"... {len(lines) - MAX_LINES} more lines (record.json, junit.xml)"]


def _fenced(lines: list[str], language: str) -> list[str]:
    return [f"```{language}", *_clip(lines), "```", ""]


def report(
    folder: Path,
    distributions: list[str],
    sources: dict[str, tuple[str, int]],
    newest: Callable[[str], str | None] = newest_release,
) -> str:
    """The report (Markdown) of the canary run whose files are in `folder`: `record.json`, with
    `junit.xml` and pip's `install.json` where present. `distributions` are the libraries taken at
    their newest (their PyPI names), `sources` the examples' code by id, with the line of their
    file before it (0 for a script); `newest` asks an index.

    Raises RecordError when `record.json` is missing or holds no canary run, or a file beside it
    is malformed; UnknownEnvironment when requirements/test.txt is missing."""
    path = folder / "record.json"
    record = load_record(path, "run `make canary` again")
    if record is None:
        raise RecordError(f"{path}: missing; `make canary` writes it")
    run = record["environments"].get(CANARY_ENVIRONMENT)
    if run is None:
        raise RecordError(f"{path}: holds no canary run; `make canary` writes one")
    got, pinned = run["environment"], environments()[0].pinned_versions()
    lines = [
        f"# Canary: the examples on the newest releases ({run['created'][:10]})",
        "",
        "| Library | Pinned (requirements/test.txt) | Canary got | Newest release alone |",
        "| --- | --- | --- | --- |",
    ]
    for distribution in distributions:
        key = next((k for k, d in LIBRARY_DISTRIBUTIONS.items() if distribution in d), distribution)
        version = got.get(key)
        lines.append(
            f"| {distribution} | {pinned.get(key) or '-'} | "
            f"{public_version(version) if version else 'not installed'} | "
            f"{newest(distribution) or 'unknown'} |"
        )
    lines += [f"\nPython {got.get('python')}, {got.get('device', 'cpu')}.", ""]
    verdicts = {entry["id"]: verdict(entry) for entry in run["examples"]}
    counts = Counter(verdicts.values())
    lines += [
        "**Examples:** " + ", ".join(f"{counts[v]} {v}" for v in VERDICTS),
        "",
    ]
    failures = junit_failures(folder / "junit.xml")
    messages = {example: message for example, message in failures.values() if example}
    for entry in run["examples"]:
        label, kind = entry["id"], verdicts[entry["id"]]  # a script's path, or page.md:line
        if kind == "changed":
            code = sources.get(entry["id"], ("", 0))
            diff = output_diff(entry["source"], code, entry.get("printed") or [])
            diff = diff or (messages.get(entry["id"]) or "(no diff: see junit.xml)").splitlines()
            lines += [f"### Changed: `{label}`", "", *_fenced(diff, "diff")]
        elif kind == "failing":
            why = messages.get(entry["id"]) or describe(entry["reason"], entry["details"])
            lines += [f"### Failing: `{label}`", "", *_fenced(why.splitlines(), "text")]
    # The reference's families, the notebooks, the framework tabs: their tests' own messages.
    others = {name: message for name, (example, message) in failures.items() if not example}
    if others:
        lines += [
            "## Other checks of the examples stage that failed",
            "",
            "The canary judges the reference's rows by the default environment's declarations, "
            'so their messages say "in environment default".',
            "",
        ]
    for name, message in others.items():
        lines += [f"### `{name}`", "", *_fenced(message.splitlines(), "text")]
    lock = REPO_ROOT / environments()[0].lock
    if changed := other_packages(folder / "install.json", lock, distributions):
        lines += [
            f"## Other packages than {lock.relative_to(REPO_ROOT)} pins",
            "",
            "They came with the newest releases and can change outputs too; "
            '`make lock UPGRADE="..."` takes them (README, "Staying current").',
            "",
            "| Package | Locked | Canary got |",
            "| --- | --- | --- |",
            *(f"| {name} | {locked} | {version} |" for name, locked, version in changed),
            "",
        ]
    not_compared = [e for e in run["examples"] if verdicts[e["id"]] == "not compared"]
    if not_compared:
        lines += ["", "<details><summary>Not compared</summary>", ""]
        lines += [f"- `{e['id']}`: {describe(e['reason'], e['details'])}" for e in not_compared]
        lines += ["", "</details>", ""]
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str]) -> int:
    """`python -m tooling.canary FOLDER DISTRIBUTION...`: write FOLDER/report.md and print it;
    returns 2 (with the reason) when the run's record is missing or malformed."""
    if len(argv) < 2:
        print(__doc__)
        return 2
    folder = Path(argv[0])
    sources = {e.id: (e.code.source, e.code.start_line) for e in collect(REPO_ROOT)}
    try:
        text = report(folder, argv[1:], sources)
    except (RecordError, UnknownEnvironment) as exc:
        print(exc)
        return 2
    (folder / "report.md").write_text(text, encoding="utf-8")
    print(text)
    print(f"(written to {folder / 'report.md'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
