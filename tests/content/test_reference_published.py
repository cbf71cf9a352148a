"""The cross-library reference as built shows this build's results: in
`site/reference/operations.json`, every row has the default environment's results. A row
without them reads "not run in this build": the examples stage did not run its family, or its
data changed after the run. (Each status is the one `judge` gave in that run, copied from the
record; that the pages show it is tooling/reference_pages.py's.)"""

from __future__ import annotations

import json

from verified.record import DEFAULT_ENVIRONMENT


def test_every_row_is_published_with_the_results_of_this_build(site):
    published = json.loads((site / "reference" / "operations.json").read_text(encoding="utf-8"))
    unrun = [
        f"{entry['family']}/{entry['id']}"
        for entry in published
        if DEFAULT_ENVIRONMENT not in entry["results"]
    ]
    assert not unrun, f"not run in this build (make test runs them): {', '.join(unrun)}"
