"""`make budgets`, after Lighthouse CI: its figures as a table, and the search indexes' size.

    python -m tooling.budgets

Lighthouse CI (`lighthouserc.json`) asserts each measured page's scores and its first-visit
transfer (search index included) but prints only what fails: this prints every page's figures
from the median run of each (`build/lhci/manifest.json`) and the budgets asserted. What
Lighthouse does not see is the indexes themselves as the site grows: this prints each
language's `search/search_index.json` gzip-compressed (level 6, as static hosts and Lighthouse
CI's server send it) and checks each against `SEARCH_INDEX_BUDGET`. Exit status: 0
within budget, 1 over it, 2 when `site/` has no search index.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from verified.paths import REPO_ROOT

#: Each language's search index, gzip, in bytes: a reader's search loads its language's only
#: (their sum is printed too; it outgrew 300 KB with the five pages of issue 19).
SEARCH_INDEX_BUDGET = 300 * 1024


def main() -> int:
    manifest = REPO_ROOT / "build" / "lhci" / "manifest.json"
    if not manifest.is_file():
        print(f"no Lighthouse CI reports ({manifest.name} is missing)")
    else:
        print(f"{'page':28}  performance  accessibility  first visit KB")
        for run in json.loads(manifest.read_text(encoding="utf-8")):
            if run["isRepresentativeRun"]:
                lhr = json.loads(Path(run["jsonPath"]).read_text(encoding="utf-8"))
                items = lhr["audits"]["resource-summary"]["details"]["items"]
                size = next(i["transferSize"] for i in items if i["resourceType"] == "total")
                score = {c: round(100 * v) for c, v in run["summary"].items()}
                print(
                    f"{'/' + run['url'].split('/', 3)[3]:28}  {score['performance']:11}  "
                    f"{score['accessibility']:13}  {size / 1024:14.1f}"
                )
        config = json.loads((REPO_ROOT / "lighthouserc.json").read_text(encoding="utf-8"))
        budgets = [
            f"{name} >= {100 * limit['minScore']:g}"
            if "minScore" in limit
            else f"{name} <= {limit['maxNumericValue'] / 1024:g} KB"
            for name, (_, limit) in config["ci"]["assert"]["assertions"].items()
        ]
        print("budgets (lighthouserc.json): " + ", ".join(budgets))
    indexes = sorted((REPO_ROOT / "site").rglob("search/search_index.json"))
    if not indexes:
        print("site/ has no search index: run `make build` first", file=sys.stderr)
        return 2
    sizes = {i: len(gzip.compress(i.read_bytes(), 6, mtime=0)) for i in indexes}
    for index, size in sizes.items():
        verdict = "OVER BUDGET" if size > SEARCH_INDEX_BUDGET else "within budget"
        print(
            f"search index {index.relative_to(REPO_ROOT / 'site')}: {size / 1024:.1f} KB gzip, "
            f"budget {SEARCH_INDEX_BUDGET // 1024} KB each: {verdict}"
        )
    print(f"search indexes in all: {sum(sizes.values()) / 1024:.1f} KB gzip")
    return int(max(sizes.values()) > SEARCH_INDEX_BUDGET)


if __name__ == "__main__":
    sys.exit(main())
