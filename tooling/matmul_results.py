"""The results of `benchmarks/matmul.py` as the "measured speed" page shows them.

The script writes one file per machine it ran on, `benchmarks/results/matmul-<machine>.json`.
This module reads and checks them and writes, per language, the page's results section:
for each file, a sentence saying where, when and with which versions it was measured, a
table per dtype and its plot (`tooling.figures.matmul_figure`). `make generated` writes the
section to `docs/includes/matmul-results.md` (`.en.md`), which the page embeds with a
`--8<--` line; the words are in the site's locale files (`matmul_results`,
`matmul_backends`). Nothing is typed by hand.
"""

from __future__ import annotations

from pathlib import Path

from tooling.data import DataError, problem
from verified.paths import REPO_ROOT, read_checked_json
from verified_site.wording import wording

RESULTS_DIR = Path("benchmarks") / "results"
SCHEMA = 1  # data/schemas/matmul-results.schema.yml says what a file holds
#: The backends a results file may name, in the order of the tables' columns.
BACKENDS = ("numpy", "torch-cpu", "torch-cuda")


def load_all(folder: Path = REPO_ROOT / RESULTS_DIR) -> dict[Path, dict]:
    """Each `matmul-*.json` file in `folder` (one per machine, sorted by name) -> its data, checked
    (`load_results`). DataError when there is none, or one is malformed."""
    files = sorted(folder.glob("matmul-*.json"))
    if not files:
        raise DataError(
            f"no {RESULTS_DIR}/matmul-*.json: run `make measure-matmul` and commit the file"
        )
    return {path: load_results(path) for path in files}


def load_results(path: Path) -> dict:
    """The data of a file written by `benchmarks/matmul.py`, checked against
    data/schemas/matmul-results.schema.yml. DataError, naming the file, the field and what to
    run, if it is unreadable or does not match."""
    return read_checked_json(
        path,
        f"a benchmark results file of schema {SCHEMA}",
        "write it again with `make measure-matmul` (or benchmarks/matmul.py)",
        _results_problem,
        DataError,
    )


def _results_problem(data: object) -> str | None:
    """What is missing or malformed in a results file, naming the field, or None (JSON data has
    no lines)."""
    found = problem(data, "matmul-results")
    return found[1] if found else None


def results_section(locale: str, results: dict[Path, dict]) -> str:
    """The page's results section in `locale` (`"zh"`, `"en"`), as Markdown: per results
    file (`load_all`), the measurement sentence, the tables and the plot, whose file is
    `<results file name>.svg` next to the page."""
    text = wording(locale)["matmul_results"]
    parts = []
    for path, data in results.items():
        machine, versions = data["machine"], data["versions"]
        parts.append(text["where"](machine=machine, versions=versions, date=data["created"][:10]))
        parts.append(text["cells"]())
        for dtype in sorted({row["dtype"] for row in data["results"]}):
            parts.append(_table(data, dtype, locale))
        parts.append(f"![{text['alt'](cpu=machine['cpu'])}]({path.stem}.svg)")
    return "\n\n".join(parts) + "\n"


def backend_names(locale: str) -> dict[str, str]:
    """Each backend code's name in one language, e.g. `{"torch-cpu": "torch (CPU)", ...}`."""
    return {code: name() for code, name in wording(locale)["matmul_backends"].items()}


def _table(data: dict, dtype: str, locale: str) -> str:
    rows = [row for row in data["results"] if row["dtype"] == dtype]
    backends = [b for b in BACKENDS if any(row["backend"] == b for row in rows)]
    sizes = sorted({row["n"] for row in rows})
    cell = {(row["backend"], row["n"]): row for row in rows}
    names = backend_names(locale)
    head = [wording(locale)["matmul_results"]["size"](dtype=dtype), *(names[b] for b in backends)]
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---:"] * len(head)) + " |"]
    for n in sizes:
        values = []
        for backend in backends:
            row = cell.get((backend, n))
            values.append(f"{_time(row['median_s'])} ({row['gflops']:.1f})" if row else "–")
        lines.append(f"| {n} | " + " | ".join(values) + " |")
    return "\n".join(lines)


def _time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"
