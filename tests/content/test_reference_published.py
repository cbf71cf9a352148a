"""The cross-library reference as built: `site/reference/operations.json` holds every row, and
each status it publishes is the one its own results give (recomputed here with the data's
declarations, so a status edited by hand fails); the nav lists every family."""

from __future__ import annotations

import json

import numpy as np
import pytest
import yaml

from tooling.agreement import Result
from tooling.reference import load_families, load_inputs, reasons
from tooling.reference_run import judge
from verified.paths import REPO_ROOT
from verified.record import DEFAULT_ENVIRONMENT

FAMILIES = load_families(REPO_ROOT, load_inputs(REPO_ROOT))
ROWS = {row.id: row for family in FAMILIES for row in family.rows}


@pytest.fixture(scope="module")
def published(site, record) -> list[dict]:
    return json.loads((site / "reference" / "operations.json").read_text(encoding="utf-8"))


def test_every_row_is_published_with_the_results_of_this_build(published):
    assert [entry["id"] for entry in published] == list(ROWS)
    unrun = [entry["id"] for entry in published if DEFAULT_ENVIRONMENT not in entry["results"]]
    assert not unrun, f"not run in this build (make test runs them): {', '.join(unrun)}"


def _without_text(results: dict) -> dict:
    """`results` (input -> library -> JSON result) less each part's `text`, which another
    NumPy release prints otherwise (float16 65504: `6.55e+04` in 1.26, `65504.` in 2.x)."""
    return {
        name: {
            lib: {**r, "parts": [{k: v for k, v in p.items() if k != "text"} for p in r["parts"]]}
            for lib, r in by_library.items()
        }
        for name, by_library in results.items()
    }


def test_each_published_status_is_what_its_results_give(published, record):
    numpy_of = {name: run["environment"]["numpy"] for name, run in record["environments"].items()}
    wrong = []
    for entry in published:
        row, found = ROWS[entry["id"]], []
        for environment, results in entry["results"].items():
            rebuilt = {
                name: {lib: Result.from_json(result) for lib, result in by_library.items()}
                for name, by_library in results.items()
            }
            # Judged again: the status, and the results with the text the page shows.
            judged = judge(row, rebuilt, environment)
            found += [(environment, item) for item in judged["differences"]]
            given, computed = results, judged["results"]
            if numpy_of[environment] != np.__version__:  # its text is that NumPy's printing
                given, computed = _without_text(given), _without_text(computed)
            if (judged["status"], computed) != (entry["statuses"][environment], given):
                wrong.append(
                    f"{row.source}:{row.line}: row {row.id!r}: the published status "
                    f"{entry['statuses'][environment]!r} or results in environment "
                    f"{environment} are not what the results give ({judged['status']!r}): "
                    "the record was edited; run `make test`"
                )
        # The reasons shown are those of the differences the results show.
        shown = [d["en"] for d in reasons(row, found)]
        if [d["en"] for d in entry["differences"]] != shown:
            wrong.append(
                f"{row.source}:{row.line}: row {row.id!r}: other reasons are published "
                "than its results call for: the record was edited; run `make test`"
            )
    assert not wrong, "\n".join(wrong)


def test_the_nav_lists_every_family_page():
    # mkdocs.en.yml's nav lists the same pages (tooling.checks.nav_differences).
    config = yaml.load((REPO_ROOT / "mkdocs.yml").read_text("utf-8"), Loader=yaml.BaseLoader)
    section = next(item for item in config["nav"] if "跨库对照" in item)["跨库对照"]
    pages = ["reference/index.md"] + [f"reference/{f.id}.md" for f in FAMILIES]
    assert section == [*pages, "reference/differences.md"], (
        "mkdocs.yml: the nav's 跨库对照 section must list reference/index.md, one page per "
        "file of data/reference/ in file-name order, then reference/differences.md"
    )
