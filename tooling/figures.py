"""The "measured speed" page's results, drawn from the files `benchmarks/matmul.py` writes before
the build (README, CONTRIBUTING.md "Tabs and figures"): `make generated` (tooling.generate)
writes them, one file per language.

The results section goes to `docs/<language>/includes/matmul-results.md`, laid out by the
template `tooling/templates/matmul-results.md.jinja`: per results file, where, when and with
which versions it was measured, a table per dtype and its plot,
`docs/<language>/gpu/<results file>.svg`, drawn by matplotlib. The words are in the locale files
(`verified_site.wording`). The plot's text stays text (`svg.fonttype: none`), drawn by the
reader's own fonts, Chinese included; its layout is measured with matplotlib's own DejaVu Sans
alone, so that it is the same on every machine.
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure

from tooling import templates
from tooling.data import DataError, problem
from verified.paths import REPO_ROOT, read_checked_json
from verified_site.pages import INCLUDES, LOCALES
from verified_site.wording import wording

RESULTS_DIR = Path("benchmarks") / "results"
SCHEMA = 1  # data/schemas/matmul-results.schema.yml says what a results file holds
#: The backends a results file may name, in the order of the tables' columns, and the colour
#: of each one's lines in the speed plots.
COLOURS = {"numpy": "#1f77b4", "torch-cpu": "#d62728", "torch-cuda": "#2ca02c"}
#: matplotlib's settings for the plots: text as text, in the reader's sans-serif fonts
#: (measured with the DejaVu Sans that matplotlib ships, whatever else is installed); the
#: same file from the same data (a fixed salt for its ids, no date).
STYLE = {
    "svg.fonttype": "none",
    "svg.hashsalt": "tensors-verified",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 10.5,
    "text.parse_math": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.constrained_layout.h_pad": 0.12,
    "figure.constrained_layout.w_pad": 0.12,
}
TEMPLATE = templates().get_template("matmul-results.md.jinja")


def matmul_figure(data: dict, locale: str) -> str:
    """The SVG source of a plot of GFLOP/s against matrix size, a line per backend and dtype
    (each a group whose id is `<backend>-<dtype>`), labelled in `locale` (`"zh"`, `"en"`) and
    titled (`<title>`) with its alt text. `data` is a results file's, as `load_results`
    gives it."""
    text, names = wording(locale)["matmul_results"], backend_names(locale)
    dtypes = sorted({row["dtype"] for row in data["results"]})
    sizes = sorted({row["n"] for row in data["results"]})
    with matplotlib.rc_context(STYLE), warnings.catch_warnings():
        # DejaVu Sans has no Chinese; the reader's fonts draw it.
        warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
        figure = Figure(figsize=(8.2, 4.6), layout="constrained")
        axes = figure.add_subplot()
        for backend, colour in COLOURS.items():
            for dtype in dtypes:
                rows = sorted(
                    (r for r in data["results"] if r["backend"] == backend and r["dtype"] == dtype),
                    key=lambda r: r["n"],
                )
                if rows:
                    axes.plot(
                        [r["n"] for r in rows],
                        [r["gflops"] for r in rows],
                        color=colour,
                        linestyle="-" if dtype == "float32" else "--",
                        linewidth=2,
                        marker="o",
                        markersize=4,
                        label=f"{names[backend]} {dtype}",
                        gid=f"{backend}-{dtype}",
                    )
        axes.set_xscale("log", base=2)
        axes.set_xticks(sizes, [str(n) for n in sizes])
        axes.minorticks_off()
        axes.set_ylim(bottom=0)
        axes.grid(axis="y", color="#dddddd")
        axes.set_title(text["title"](dtypes=" · ".join(dtypes)), loc="left", fontweight="bold")
        axes.set_xlabel(text["axis_x"]())
        axes.set_ylabel(text["axis_y"]())
        # A column per backend, a row per dtype.
        lines = len(axes.get_lines())
        figure.legend(loc="outside lower center", ncols=-(-lines // len(dtypes)), frameon=False)
        svg = io.StringIO()
        title = text["alt"](cpu=data["machine"]["cpu"])
        figure.savefig(svg, format="svg", metadata={"Title": title, "Date": None, "Creator": None})
    return svg.getvalue()


def load_results(folder: Path = REPO_ROOT / RESULTS_DIR) -> dict[Path, dict]:
    """Each `matmul-*.json` file in `folder` (one per machine, sorted by name) -> its data,
    checked against data/schemas/matmul-results.schema.yml. DataError, naming the file, the
    field and what to run, when there is none or one is unreadable or does not match."""
    files = sorted(folder.glob("matmul-*.json"))
    if not files:
        raise DataError(
            f"no {RESULTS_DIR}/matmul-*.json: run `make measure-matmul` and commit the file"
        )
    return {
        path: read_checked_json(
            path,
            f"a benchmark results file of schema {SCHEMA}",
            "write it again with `make measure-matmul` (or benchmarks/matmul.py)",
            _results_problem,
            DataError,
        )
        for path in files
    }


def _results_problem(data: object) -> str | None:
    """What is malformed in a results file, naming the field, or None (JSON has no lines)."""
    found = problem(data, "matmul-results")
    return found[1] if found else None


def backend_names(locale: str) -> dict[str, str]:
    """Each backend code's name in one language, e.g. `{"torch-cpu": "torch (CPU)", ...}`."""
    return {code: name() for code, name in wording(locale)["matmul_backends"].items()}


def results_section(locale: str, results: dict[Path, dict]) -> str:
    """The page's results section in `locale` (`"zh"`, `"en"`), as Markdown: per results
    file (`load_results`), the measurement sentence, a table per dtype and the plot, whose
    file is `<results file name>.svg` next to the page."""
    names, files = backend_names(locale), []
    for path, data in results.items():
        tables = []
        for dtype in sorted({row["dtype"] for row in data["results"]}):
            # A column per backend measured, a row per size: the median time (GFLOP/s).
            rows = [row for row in data["results"] if row["dtype"] == dtype]
            backends = [b for b in COLOURS if any(row["backend"] == b for row in rows)]
            cell = {(row["backend"], row["n"]): row for row in rows}
            sizes = sorted({row["n"] for row in rows})
            cells = [(n, [cell.get((backend, n)) for backend in backends]) for n in sizes]
            heads = [names[backend] for backend in backends]
            tables.append({"dtype": dtype, "backends": heads, "rows": cells})
        files.append({"name": path.stem, "data": data, "tables": tables})
    return TEMPLATE.render(files=files, text=wording(locale)["matmul_results"], time=_time)


def _time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


#: The measured-speed page's results section, which the page embeds with a `--8<--` line
#: (in `INCLUDES`); each results file's plot goes next to the page.
RESULTS_SECTION = Path(INCLUDES) / "matmul-results.md"
RESULTS_PLOTS = Path("gpu")


def generated_files(root: Path = REPO_ROOT) -> dict[Path, str]:
    """The measured-speed page's results section and plots, in both languages, as they should
    be committed: file (relative to the repository root `root`) -> its text.
    DataError if there is no benchmark results file, or one is malformed."""
    results = load_results(root / RESULTS_DIR)
    files = {}
    for locale in LOCALES:
        # Each language's plot and tables are at the same path in its language's pages.
        for path, data in results.items():
            files[Path("docs", locale, RESULTS_PLOTS, f"{path.stem}.svg")] = matmul_figure(
                data, locale
            )
        files[Path("docs", locale, RESULTS_SECTION)] = results_section(locale, results)
    return files
