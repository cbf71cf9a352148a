"""`make budgets`, after Lighthouse CI: its figures as a table, and the search indexes' size.

    python -m tooling.budgets

Lighthouse CI (`lighthouserc.json`) asserts each measured page's scores and its
first-visit transfer (search index included), but prints only what fails: this prints
every page's figures from its reports (`build/lhci/manifest.json`, the median run of
each page). What Lighthouse does not see is the indexes themselves as the site grows:
this prints each language's `search/search_index.json` gzip-compressed (level 6, as
static hosts and Lighthouse CI's server send it) and checks their sum against the budget.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from verified.paths import REPO_ROOT

#: All languages' search indexes together, gzip, in bytes.
SEARCH_INDEX_BUDGET = 300 * 1024


def search_index_sizes(site_dir: Path) -> dict[str, int]:
    """Gzip size in bytes of every `search/search_index.json` of the built site, keyed by its path
    relative to `site_dir`; empty when the site was not built."""
    return {
        index.relative_to(site_dir).as_posix(): len(gzip.compress(index.read_bytes(), 6, mtime=0))
        for index in sorted(site_dir.rglob("search/search_index.json"))
    }


def lighthouse_table(manifest: Path) -> str:
    """Scores (0-100) and first-visit KB of each page's median run in Lighthouse CI's `manifest`,
    one line a page, then the budgets lighthouserc.json asserts; one line saying the reports are
    missing when they are."""
    if not manifest.is_file():
        return f"no Lighthouse CI reports ({manifest.name} is missing)"
    lines = [f"{'page':28}  performance  accessibility  first visit KB"]
    for run in json.loads(manifest.read_text(encoding="utf-8")):
        if run["isRepresentativeRun"]:
            lhr = json.loads(Path(run["jsonPath"]).read_text(encoding="utf-8"))
            items = lhr["audits"]["resource-summary"]["details"]["items"]
            size = next(i["transferSize"] for i in items if i["resourceType"] == "total")
            path = "/" + run["url"].split("/", 3)[3]
            score = {c: round(100 * v) for c, v in run["summary"].items()}
            lines.append(
                f"{path:28}  {score['performance']:11}  {score['accessibility']:13}"
                f"  {size / 1024:14.1f}"
            )
    config = json.loads((REPO_ROOT / "lighthouserc.json").read_text(encoding="utf-8"))
    budgets = [
        f"{name} >= {100 * limit['minScore']:g}"
        if "minScore" in limit
        else f"{name} <= {limit['maxNumericValue'] / 1024:g} KB"
        for name, (_, limit) in config["ci"]["assert"]["assertions"].items()
    ]
    return "\n".join([*lines, "budgets (lighthouserc.json): " + ", ".join(budgets)])


def main() -> int:
    """Print Lighthouse CI's figures, each index's size and their sum against the budget. 0 within
    budget, 1 over it, 2 when `site/` has no search index."""
    print(lighthouse_table(REPO_ROOT / "build" / "lhci" / "manifest.json"))
    sizes = search_index_sizes(REPO_ROOT / "site")
    if not sizes:
        print("site/ has no search index: run `make build` first", file=sys.stderr)
        return 2
    for name, size in sizes.items():
        print(f"search index {name}: {size / 1024:.1f} KB gzip")
    total = sum(sizes.values())
    over = total > SEARCH_INDEX_BUDGET
    print(
        f"search indexes in all: {total / 1024:.1f} KB gzip, budget "
        f"{SEARCH_INDEX_BUDGET // 1024} KB: {'OVER BUDGET' if over else 'within budget'}"
    )
    return int(over)


if __name__ == "__main__":
    sys.exit(main())
