"""The verification record: each environment adds its run, runs made elsewhere merge in,
and a record with a missing field or a free-text reason is refused, naming the field."""

from __future__ import annotations

import json

import pytest

from verified.environments import main as environments_main
from verified.record import SCHEMA, RecordError, add_runs, build_run, load_record, merge_records

ENTRY = {"id": "examples/demo.py", "source": "examples/demo.py", "line": 1, "requires": []}


def _entry(status, reason=None):
    reason = "failed-in-call" if status == "failed" else reason
    return {**ENTRY, "status": status, "reason": reason, "details": {}, "seconds": 0.1}


RUN = build_run([], {}, {"device": "cpu"})


def test_runs_made_elsewhere_are_merged_into_the_record(project, capsys):
    """Each environment adds its run to the record and keeps the others'."""
    tree = project.path  # the environments `default` and `previous`
    path, other = tree / "build" / "verification.json", tree / "elsewhere.json"
    add_runs(path, {"default": build_run([_entry("passed")], {}, {"device": "cpu"})})
    add_runs(other, {"previous": build_run([_entry("failed")], {}, {})})
    assert environments_main(["merge", str(path), str(other)]) == 0
    assert capsys.readouterr().out.endswith(": previous (added)\n")
    runs = load_record(path)["environments"]
    assert [run["summary"]["passed"] for run in runs.values()] == [1, 0]
    assert runs["previous"]["summary"]["failed"] == 1
    assert environments_main(["merge", str(path), str(other)]) == 0
    assert capsys.readouterr().out.endswith(": previous (replaced)\n")
    assert environments_main(["merge", str(path), str(tree / "missing.json")]) == 1
    assert "missing.json: no such record" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("other", "expected"),
    [
        ({"schema": SCHEMA, "environments": {}}, "holds no run"),
        (
            {"schema": SCHEMA - 1, "environments": {}},
            f"schema must be same as const definition: {SCHEMA}",
        ),
        (
            {"schema": SCHEMA, "environments": {"nightly": RUN}},
            "'nightly', which is not a verification",
        ),
    ],
    ids=["empty", "older", "unknown"],
)
def test_a_record_that_cannot_be_merged_says_why(tmp_path, other, expected):
    path = tmp_path / "other.json"
    path.write_text(json.dumps(other))
    with pytest.raises(RecordError, match=expected):
        merge_records(tmp_path / "record.json", path, ["default", "previous"])
    assert not (tmp_path / "record.json").exists()


@pytest.mark.parametrize(
    ("change", "expected"),
    [  # the record's own rules: required fields, reason codes by status, the details they name
        (lambda e: e.pop("status"), r"examples\[0\] must contain \[.*'status'.*\] properties"),
        (lambda e: e.update(reason="no GPU here"), r"examples\[0\]\.reason must be one of"),
        (
            lambda e: e.update(status="not-applicable", reason="needs-library"),
            r"examples\[0\]\.details must contain \['environment', 'libraries'\]",
        ),
        (lambda e: e.update(status="passed"), r"examples\[0\]\.reason must be same as const"),
        (lambda e: e.update(device="cuda"), r"examples\[0\] must contain \['gpu'\] properties"),
    ],
    ids=["no-status", "free-text", "no-details-of-code", "passed", "no-gpu-name"],
)
def test_a_record_with_a_missing_field_or_a_free_text_reason_is_rejected(
    tmp_path, change, expected
):
    entry = _entry("not-verified", reason="needs-cuda")
    change(entry)
    path = tmp_path / "build" / "verification.json"
    with pytest.raises(RecordError, match=expected):  # on write: nothing is written
        add_runs(path, {"default": build_run([entry], {}, {"device": "cpu"})})
    assert not path.exists()
    valid = build_run([_entry("not-verified", reason="needs-cuda")], {}, {"device": "cpu"})
    add_runs(path, {"default": valid})
    written = json.loads(path.read_text())
    written["environments"]["default"]["examples"] = [entry]
    path.write_text(json.dumps(written))
    with pytest.raises(RecordError, match=expected) as raised:  # on read: names the file
        load_record(path)
    assert str(path) in str(raised.value) and "run `make test`" in str(raised.value)


def test_rows_a_test_reports_are_kept_and_counted_in_its_run(project):
    """A test that ran rows of a table (the cross-library reference) reports them as JSON text;
    the run keeps them, even with integers beyond 64 bits, and counts their statuses."""
    rows = {"a.big": {"family": "a", "status": "agree", "results": {"none": {"n": 2**70}}}}
    rows["a.odd"] = {"family": "a", "status": "differs", "results": {}}
    project.write(
        {
            "tests/test_rows.py": "import json\n\n\ndef test_rows(record_property):\n"
            f"    record_property('reference', json.dumps({rows!r}))\n"
        }
    )
    project.run("--record", "build/record.json", "tests/test_rows.py")
    run = project.record()["run"]
    assert run["reference"] == rows
    assert run["summary"]["reference"] == {"agree": 1, "differs": 1, "missing": 0, "failed": 0}
