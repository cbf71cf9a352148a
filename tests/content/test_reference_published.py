"""The cross-library reference as built shows this build's results: in
`site/reference/operations.json`, every row has the default environment's results. A row
without them reads "not run in this build": the examples stage did not run its family, or its
data changed after the run. A row that differs, or where a library has no such operation, says
why in both languages, and each of its differences has its kind. (Each status is the one
`judge` gave in that run, copied from the record; that the pages show it is
tooling/reference_pages.py's.)"""

from __future__ import annotations

import json

from verified.record import DEFAULT_ENVIRONMENT


def _published(site) -> list[dict]:
    return json.loads((site / "reference" / "operations.json").read_text(encoding="utf-8"))


def test_every_row_is_published_with_the_results_of_this_build(site):
    published = _published(site)
    unrun = [
        f"{entry['family']}/{entry['id']}"
        for entry in published
        if DEFAULT_ENVIRONMENT not in entry["results"]
    ]
    assert not unrun, f"not run in this build (make test runs them): {', '.join(unrun)}"


def test_every_differing_or_missing_row_says_why_with_its_kind(site):
    unexplained = [
        f"{entry['family']}/{entry['id']}"
        for entry in _published(site)
        if (entry["status"] == "differs" and not entry["differences"])
        or (entry["status"] == "missing" and not (entry["missing"] or {}).keys() >= {"zh", "en"})
        or any(not {"kind", "zh", "en"} <= d.keys() for d in entry["differences"])
    ]
    assert not unexplained, f"without a reason in both languages or a kind: {unexplained}"
