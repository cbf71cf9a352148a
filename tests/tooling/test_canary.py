"""The canary's report (tooling/canary.py) from a canary run made here: the versions, a verdict
per example, the diff of a changed output, the message of a failing example and of any other
failed check; a missing run is an error that says what to do."""

from __future__ import annotations

import json

import pytest

from tooling.canary import report
from verified.environments import environments, lock_pins
from verified.paths import REPO_ROOT
from verified.record import RecordError, add_runs, build_run

PYTEST = lock_pins(REPO_ROOT / "requirements/test.txt")["pytest"]  # as locked: not listed
SOURCE = "print(1)\n#> 1\nprint('a')\n#> a\n"
JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="tests.examples.test_examples" name="test_example[examples/c.py]">
<properties><property name="example" value="examples/c.py"/></properties>
<failure message="Failed: examples/c.py:2: raised ValueError: no such mode">examples/c.py:2: \
raised ValueError: no such mode</failure></testcase>
<testcase classname="tests.examples.test_notebooks" name="test_notebook[intro.md]">
<failure message="Failed: intro.md: cell 3 printed 7">intro.md: cell 3 printed 7</failure>
</testcase>
</testsuite></testsuites>
"""


def _entry(name: str, status: str, reason: str | None, **extra) -> dict:
    details = {"error": "ValueError", "line": 2} if reason == "raised" else {}
    return {
        "id": f"examples/{name}.py",
        "source": f"examples/{name}.py",
        "line": 1,
        "requires": [],
        "status": status,
        "reason": reason,
        "details": details,
        "seconds": None,
        "fingerprint": "0" * 64,
        **extra,
    }


@pytest.fixture
def folder(tmp_path):
    entries = [
        _entry("a", "passed", None),
        _entry(
            "b",
            "failed",
            "wrong-output",
            printed=[{"print": 0, "line": 1, "text": "3"}, {"print": 1, "line": 3, "text": "a"}],
        ),
        _entry("c", "failed", "raised"),
        _entry("d", "not-verified", "needs-cuda"),
    ]
    versions = {"python": "3.11.7", "torch": "9.1.0+cu999", "numpy": "9.0.0", "device": "cpu"}
    add_runs(tmp_path / "record.json", {"canary": build_run(entries, {}, versions)})
    (tmp_path / "junit.xml").write_text(JUNIT, encoding="utf-8")
    installed = [("torch", "9.1.0"), ("ml_dtypes", "9.7.0"), ("pytest", PYTEST), ("new-dep", "1")]
    report = {"install": [{"metadata": {"name": n, "version": v}} for n, v in installed]}
    (tmp_path / "install.json").write_text(json.dumps(report), encoding="utf-8")
    return tmp_path


def test_the_report_gives_versions_verdicts_diffs_and_failures(folder):
    sources = {f"examples/{name}.py": (SOURCE, 0) for name in "abcd"}
    text = report(folder, ["torch", "numpy"], sources, newest=lambda distribution: "9.9.9")
    pinned = environments()[0].pinned_versions()["torch"]
    assert f"| torch | {pinned} | 9.1.0 | 9.9.9 |" in text
    assert "1 unchanged, 1 changed, 1 failing, 1 not compared" in text
    changed = text.split("### Changed: `examples/b.py`")[1].split("###")[0]
    assert "--- examples/b.py:1: print(1) (the #> lines)" in changed and "-1\n+3" in changed
    assert "examples/c.py:2: raised ValueError: no such mode" in text
    assert "```text\nintro.md: cell 3 printed 7\n```" in text  # without pytest's "Failed: "
    locked = lock_pins(REPO_ROOT / "requirements/test.txt")["ml-dtypes"]
    assert f"| ml-dtypes | {locked} | 9.7.0 |\n| new-dep | not locked | 1 |\n\n" in text
    assert "`examples/d.py`: needs CUDA" in text


def test_a_folder_without_a_canary_run_says_what_to_do(tmp_path):
    with pytest.raises(RecordError, match=r"record\.json: missing; `make canary` writes it"):
        report(tmp_path, ["torch"], {}, newest=lambda distribution: None)
    add_runs(tmp_path / "record.json", {"default": build_run([], {}, {"device": "cpu"})})
    with pytest.raises(RecordError, match="holds no canary run"):
        report(tmp_path, ["torch"], {}, newest=lambda distribution: None)


def test_a_malformed_file_beside_the_record_is_named(folder):
    (folder / "junit.xml").write_text("<testsuites>", encoding="utf-8")
    with pytest.raises(RecordError, match=r"junit\.xml: not JUnit XML"):
        report(folder, ["torch"], {}, newest=lambda distribution: None)
