"""`make bench`: what a reader downloads, and Lighthouse's scores, against budgets.

    python -m tooling.bench [--runs N] [--json PATH]

Serves the built `site/` on 127.0.0.1 with gzip, as a static host does, and prints:

* page weight: bytes transferred on a first visit with an empty cache (HTML, CSS,
  JavaScript, fonts, images, and the search index that Material's search loads), for
  the home page, the longest page and the heaviest notebook page in each language;
* search index: the gzip size of each language's index and their sum;
* Lighthouse (npm package, `package.json`) performance and accessibility scores for
  the same pages: the median of `--runs` runs (Lighthouse's advice for noisy hosts),
  on its default mobile profile with simulated throttling.

Exits 1 when a figure is over its budget (below, from the project's issue 4), so CI
or a reviewer sees the regression; the figures are printed either way. Timing is
measured here, never by the test suite.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tooling.browser import CHROMIUM_ARGS, chromium_path, launch_chromium
from tooling.notebooks import source_files as notebook_sources
from tooling.pages import LOCALES, page_files, page_locale, page_url, translation_of
from tooling.static_server import GZIP_LEVEL, serve, site_path
from verified.paths import REPO_ROOT, docs_dir

#: First visit of a typical page, gzip as served, in bytes.
PAGE_BUDGET = 400 * 1024
#: All languages' search indexes together, gzip, in bytes.
SEARCH_INDEX_BUDGET = 300 * 1024
#: Lowest acceptable Lighthouse score (0-100) per category.
SCORE_BUDGET = 95
CATEGORIES = ("performance", "accessibility")
LIGHTHOUSE = REPO_ROOT / "node_modules" / ".bin" / "lighthouse"


@dataclass
class PageFigures:
    """What one page costs and scores.

    Attributes:
        url (str): path below the site root, e.g. `en/numpy-torch/memory-sharing/`.
        transferred (dict[str, int]): bytes on the wire per resource type, first visit.
        scores (dict[str, int]): median Lighthouse score (0-100) per category.
        runs (dict[str, list[int]]): every run's score per category.
    """

    url: str
    transferred: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    runs: dict[str, list[int]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        """Bytes transferred in all (int)."""
        return sum(self.transferred.values())


def measured_pages(root: Path) -> list[str]:
    """Site paths of the pages to measure: home, the longest page and the heaviest
    notebook page, in each language.

    The longest page is the one with the longest Markdown source; a notebook page is
    measured by its built HTML, which carries mkdocs-jupyter's inline stylesheet.

    Args:
        root (Path): repository root (the site built in `root/site`).

    Returns:
        list[str]: paths below the site root, e.g. `["", "en/", "numpy-torch/x/", ...]`.
    """
    docs = docs_dir(root)
    pages = page_files(docs)
    longest = max(
        (p for p in pages if page_locale(p) == LOCALES[0]), key=lambda p: len(p.read_bytes())
    )
    chosen = [
        page_url(translation_of(p, locale), docs)
        for p in [docs / "index.md", longest]
        for locale in LOCALES
    ]
    notebooks = [p for p in notebook_sources(root) if page_locale(p) == LOCALES[0]]
    built = {p: root / "site" / page_url(p, root) / "index.html" for p in notebooks}
    heaviest = max(
        (p for p in notebooks if built[p].is_file()),
        default=None,
        key=lambda p: built[p].stat().st_size,
    )
    if heaviest is not None:
        chosen += [page_url(translation_of(heaviest, locale), root) for locale in LOCALES]
    return chosen


def transferred_bytes(browser, base: str, path: str) -> dict[str, int]:
    """Load one page in a fresh browser context (empty cache) and count the bytes it transfers.

    Args:
        browser (playwright.sync_api.Browser): a running browser (see `launch_chromium`).
        base (str): the served site's base URL.
        path (str): page path below it.

    Returns:
        dict[str, int]: bytes (compressed body + headers) per resource type
        (`document`, `stylesheet`, `script`, `font`, `image`, `fetch`, ...), after the
        network has been idle for 0.5 s, so that the search index is counted too.
    """
    totals: dict[str, int] = {}
    context = browser.new_context()
    page = context.new_page()
    responses = []
    # On the context, not the page: it also sees the search worker's requests.
    context.on("response", lambda response: responses.append(response))
    page.goto(base + path, wait_until="networkidle")
    for response in responses:
        sizes = response.request.sizes()
        kind = response.request.resource_type
        totals[kind] = (
            totals.get(kind, 0) + sizes["responseBodySize"] + sizes["responseHeadersSize"]
        )
    context.close()
    return totals


def search_index_sizes(site_dir: Path) -> dict[str, int]:
    """Gzip size of every `search/search_index.json` in the built site.

    Args:
        site_dir (Path): the built site.

    Returns:
        dict[str, int]: bytes per index, keyed by its path relative to `site_dir`.
    """
    return {
        index.relative_to(site_dir).as_posix(): len(
            gzip.compress(index.read_bytes(), GZIP_LEVEL, mtime=0)
        )
        for index in sorted(site_dir.rglob("search/search_index.json"))
    }


def lighthouse_scores(url: str, runs: int) -> dict[str, list[int]]:
    """Run Lighthouse `runs` times on a URL.

    Args:
        url (str): the page's full URL.
        runs (int): how many runs.

    Returns:
        dict[str, list[int]]: scores (0-100) per category, one per run.

    Raises:
        FileNotFoundError: Lighthouse is not installed (run `make bench`, which runs npm ci).
        RuntimeError: Lighthouse failed (its error output is included).
    """
    if not LIGHTHOUSE.exists():
        raise FileNotFoundError(f"{LIGHTHOUSE} is missing: run `make bench` (it runs npm ci)")
    env = dict(os.environ, CHROME_PATH=chromium_path())
    # Lighthouse starts Chromium itself; --no-sandbox as Playwright passes it.
    flags = " ".join(["--headless=new", "--no-sandbox", *CHROMIUM_ARGS])
    scores: dict[str, list[int]] = {c: [] for c in CATEGORIES}
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        for _ in range(runs):
            cmd = [
                str(LIGHTHOUSE),
                url,
                f"--only-categories={','.join(CATEGORIES)}",
                "--output=json",
                f"--output-path={report}",
                "--quiet",
                f"--chrome-flags={flags}",
            ]
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
            if done.returncode != 0:
                raise RuntimeError(f"lighthouse failed on {url}:\n{done.stderr[-3000:]}")
            result = json.loads(report.read_text(encoding="utf-8"))
            for category in CATEGORIES:
                score = result["categories"][category]["score"]
                if score is None:  # Lighthouse could not score it (an audit errored)
                    raise RuntimeError(f"lighthouse gave no {category} score for {url}")
                scores[category].append(round(100 * score))
    return scores


def over_budget(pages: list[PageFigures], indexes: dict[str, int]) -> list[str]:
    """The figures that break a budget, as sentences.

    Args:
        pages (list[PageFigures]): measured pages.
        indexes (dict[str, int]): gzip bytes per search index.

    Returns:
        list[str]: one line per broken budget (empty when all hold).
    """
    problems = [
        f"{p.url or '/'}: {p.total / 1024:.0f} KB on first visit, budget {PAGE_BUDGET // 1024} KB"
        for p in pages
        if p.total > PAGE_BUDGET
    ]
    total = sum(indexes.values())
    if total > SEARCH_INDEX_BUDGET:
        problems.append(
            f"search indexes: {total / 1024:.0f} KB gzip, budget {SEARCH_INDEX_BUDGET // 1024} KB"
        )
    problems += [
        f"{p.url or '/'}: Lighthouse {category} {score}, budget {SCORE_BUDGET}"
        for p in pages
        for category, score in p.scores.items()
        if score < SCORE_BUDGET
    ]
    return problems


def report(pages: list[PageFigures], indexes: dict[str, int], runs: int) -> str:
    """The figures as a plain-text table.

    Args:
        pages (list[PageFigures]): measured pages.
        indexes (dict[str, int]): gzip bytes per search index.
        runs (int): Lighthouse runs per page.

    Returns:
        str: the table, ready to print.
    """
    # Fonts always get a column: the budget counts them, and the site should load none.
    kinds = sorted({kind for p in pages for kind in p.transferred} | {"font"})
    head = ["page", "total KB", *(f"{k} KB" for k in kinds), *CATEGORIES]
    rows = [
        [
            "/" + p.url,
            f"{p.total / 1024:.1f}",
            *(f"{p.transferred.get(k, 0) / 1024:.1f}" for k in kinds),
            *(f"{p.scores.get(c, '-')}" for c in CATEGORIES),
        ]
        for p in pages
    ]
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
        for row in [head, *rows]
    ]
    lines.append("")
    lines.append(
        f"first visit, empty cache, gzip as served; budget {PAGE_BUDGET // 1024} KB a page. "
        f"Lighthouse {', '.join(CATEGORIES)}: median of {runs} run(s), mobile profile, "
        f"budget {SCORE_BUDGET}."
    )
    lines.append("")
    for name, size in indexes.items():
        lines.append(f"search index {name}: {size / 1024:.1f} KB gzip")
    lines.append(
        f"search indexes in all: {sum(indexes.values()) / 1024:.1f} KB gzip, "
        f"budget {SEARCH_INDEX_BUDGET // 1024} KB"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Measure the built site and print the figures; 1 if a budget is broken.

    Args:
        argv (list[str] | None): command-line arguments (default: sys.argv[1:]).

    Returns:
        int: 0 when every figure is within budget, 1 otherwise, 2 when site/ is missing.
    """
    parser = argparse.ArgumentParser(prog="python -m tooling.bench", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page")
    parser.add_argument(
        "--json", type=Path, default=REPO_ROOT / "build" / "bench.json", help="figures as JSON"
    )
    args = parser.parse_args(argv)
    site_dir = REPO_ROOT / "site"
    if not (site_dir / "index.html").is_file():
        print("site/index.html is missing: run `make build` first", file=sys.stderr)
        return 2
    pages = [PageFigures(url) for url in measured_pages(REPO_ROOT)]
    with (
        serve(site_dir, site_path(REPO_ROOT / "mkdocs.yml"), gzip=True) as base,
        launch_chromium() as browser,
    ):
        for page in pages:
            page.transferred = transferred_bytes(browser, base, page.url)
            if args.runs > 0:
                page.runs = lighthouse_scores(base + page.url, args.runs)
                page.scores = {c: int(statistics.median(s)) for c, s in page.runs.items()}
    indexes = search_index_sizes(site_dir)
    print(report(pages, indexes, args.runs))
    problems = over_budget(pages, indexes)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {"pages": [asdict(p) for p in pages], "search_indexes": indexes, "over": problems},
            indent=2,
        ),
        encoding="utf-8",
    )
    if problems:
        print("\nOver budget:\n  " + "\n  ".join(problems))
        return 1
    print("\nAll figures within budget.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
