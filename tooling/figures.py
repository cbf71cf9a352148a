"""Figures and tables drawn from data before the build, one file per language (README,
CONTRIBUTING.md "Tabs and figures"): `make generated` (tooling.generate) writes them.

Each figure `docs/<path>.svg` (Chinese) has its English twin `docs/<path>.en.svg`. The
"measured speed" page's results section, drawn from the files `benchmarks/matmul.py` writes,
goes to `docs/includes/matmul-results.md` (`.en.md`): per file, where, when and with which
versions it was measured, a table per dtype and its plot. The words are in the site's locale
files (`verified_site.wording`); text is drawn in the reader's system fonts (the same CJK-aware
stack as the pages): nothing is downloaded.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from html import escape
from pathlib import Path

from tooling.data import DataError, problem
from verified.paths import REPO_ROOT, read_checked_json
from verified_site.pages import INCLUDES, LOCALES
from verified_site.wording import wording

FONT = (
    "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, 'PingFang SC', "
    "'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif"
)
RESULTS_DIR = Path("benchmarks") / "results"
SCHEMA = 1  # data/schemas/matmul-results.schema.yml says what a results file holds
#: The backends a results file may name, in the order of the tables' columns, and the colour
#: of each one's lines in the speed plots.
COLOURS = {"numpy": "#1f77b4", "torch-cpu": "#d62728", "torch-cuda": "#2ca02c"}


def _labels(locale: str, figure: str) -> dict[str, str]:
    """The labels of one figure in one language (locale files, section `figure`)."""
    return {key: text() for key, text in wording(locale)[figure].items()}


def _start(width: int, height: int, title: str, font_size: int) -> list[str]:
    """The opening tag of a diagram, and its own light background: the figure stays readable in
    the dark colour scheme."""
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}" '
        f'font-family="{FONT}" font-size="{font_size}">',
        f'<rect width="{width}" height="{height}" rx="6" fill="#fff"/>',
    ]


def _text_width(text: str, size: float = 16) -> float:
    """Rough width of a label in pixels: CJK characters are square, Latin ones narrower."""
    return sum(size if ord(char) > 0x2E80 else 0.6 * size for char in text)


def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape that broadcasting gives, by the rules the broadcasting page states.
    ValueError if two sizes on one axis differ and neither is 1."""
    ndim = max(len(shape) for shape in shapes)
    padded = [(1,) * (ndim - len(shape)) + tuple(shape) for shape in shapes]
    result = []
    for axis, sizes in enumerate(zip(*padded, strict=True)):
        wanted = {size for size in sizes if size != 1}
        if len(wanted) > 1:
            raise ValueError(f"sizes {sizes} on axis {axis} cannot be broadcast")
        result.append(wanted.pop() if wanted else 1)
    return tuple(result)


def broadcast_figure(operands: dict[str, tuple[int, ...]], locale: str) -> str:
    """The SVG source of a drawing of how operand shapes align and which sizes stretch.

    `operands` maps names to shapes (`{"a": (3, 2), "b": (2, 3, 1)}`); `locale` (`"zh"`,
    `"en"`) is the labels' language. FileNotFoundError if there are no labels for `locale`,
    ValueError if the shapes cannot be broadcast.
    """
    text = _labels(locale, "broadcast_figure")
    result = broadcast_shape(*operands.values())
    ndim = len(result)
    cell, gap, left, top = 44, 8, 120, 56
    rows = [*operands.items(), (text["result"], result)]
    longest = max(_text_width(label) for label in text.values())
    width = round(max(left + ndim * (cell + gap) + 24, 24 + longest))
    height = top + len(rows) * (cell + gap) + 64
    parts = _start(width, height, text["title"], 16)
    parts.append(f'<text x="12" y="28" font-weight="bold">{escape(text["title"])}</text>')
    for row, (name, shape) in enumerate(rows):
        y = top + row * (cell + gap)
        is_result = row == len(rows) - 1
        if is_result:
            parts.append(
                f'<line x1="12" x2="{width - 12}" y1="{y - gap / 2}" y2="{y - gap / 2}" '
                'stroke="#888" stroke-width="1"/>'
            )
        parts.append(
            f'<text x="12" y="{y + cell / 2 + 6}" font-weight="{"bold" if is_result else "normal"}"'
            f">{escape(name)}</text>"
        )
        missing = ndim - len(shape)
        for axis in range(ndim):
            x = left + axis * (cell + gap)
            added = axis < missing
            size = 1 if added else shape[axis - missing]
            stretched = not is_result and size == 1 and result[axis] != 1
            fill = "#fff3c4" if stretched else ("#e3f2fd" if is_result else "#f5f5f5")
            dash = ' stroke-dasharray="4 3"' if added else ""
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" rx="4" fill="{fill}" '
                f'stroke="#555"{dash}/>'
            )
            parts.append(
                f'<text x="{x + cell / 2}" y="{y + cell / 2 + 6}" text-anchor="middle">'
                f"{size}</text>"
            )
    legend_y = top + len(rows) * (cell + gap) + 16
    parts += [
        f'<rect x="12" y="{legend_y}" width="16" height="16" fill="#f5f5f5" stroke="#555" '
        'stroke-dasharray="4 3"/>',
        f'<text x="34" y="{legend_y + 13}" font-size="13">{escape(text["padded"])}</text>',
        f'<rect x="12" y="{legend_y + 22}" width="16" height="16" fill="#fff3c4" stroke="#555"/>',
        f'<text x="34" y="{legend_y + 35}" font-size="13">{escape(text["stretched"])}</text>',
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


#: (from, to, call, kind) for every path the figure draws; kind names its label (`paths_figure`).
PATHS = [
    ("numpy", "torch", "torch.from_numpy(a)", "shares"),
    ("torch", "numpy", "t.numpy()", "shares"),
    ("numpy", "tf", "tf.constant(a)", "copies"),
    ("tf", "numpy", "t.numpy()", "copies"),
    ("tf", "numpy", "np.asarray(t)", "view"),
    ("torch", "tf", "DLPack", "shares"),
    ("tf", "torch", "torch.from_dlpack(t)", "shares"),
]
_COLOUR = {"shares": "#2e7d32", "copies": "#c62828", "view": "#1565c0"}


def paths_figure(locale: str) -> str:
    """The SVG source of a diagram of the conversions between NumPy, PyTorch and TensorFlow,
    labelled in `locale` (`"zh"`, `"en"`; FileNotFoundError if it has no labels).

    Each arrow is one call from `PATHS`, coloured by what it does to memory; the
    examples on the side-by-side page prove each of them.
    """
    text = _labels(locale, "paths_figure")
    width, box_w, box_h = round(max(560, 24 + _text_width(text["title"]))), 150, 44
    nodes = {
        "numpy": (width / 2, 80, "NumPy ndarray"),
        "torch": (110, 300, "torch.Tensor"),
        "tf": (width - 110, 300, "tf.Tensor"),
    }
    top_of_legend = 370
    parts = _start(width, top_of_legend + len(PATHS) * 22, text["title"], 14)
    parts += [
        "<defs>",
        *(
            f'<marker id="arrow-{kind}" viewBox="0 0 10 10" refX="9" refY="5" '
            f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
            for kind, colour in _COLOUR.items()
        ),
        "</defs>",
        f'<text x="12" y="26" font-size="16" font-weight="bold">{escape(text["title"])}</text>',
    ]
    pairs: dict[frozenset, int] = {}
    for number, (source, target, call, kind) in enumerate(PATHS, start=1):
        (x1, y1, _), (x2, y2, _) = nodes[source], nodes[target]
        pair = frozenset((source, target))
        lane = pairs.get(pair, 0)
        pairs[pair] = lane + 1
        # Parallel arrows between one pair of boxes, side by side.
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5
        nx, ny = -dy / length, dx / length
        offset = (lane - 0.5) * 40 if source < target else (lane + 0.5) * 40
        sx, sy = x1 + nx * offset + dx * 0.22, y1 + ny * offset + dy * 0.22
        ex, ey = x2 + nx * offset - dx * 0.22, y2 + ny * offset - dy * 0.22
        colour = _COLOUR[kind]
        parts.append(
            f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" stroke="{colour}" '
            f'stroke-width="2" marker-end="url(#arrow-{kind})"/>'
        )
        # A numbered marker on the arrow; the legend below says what it is.
        mx, my = (sx + ex) / 2, (sy + ey) / 2
        parts.append(
            f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="10" fill="#fff" stroke="{colour}"/>'
            f'<text x="{mx:.1f}" y="{my + 4:.1f}" text-anchor="middle" font-size="12" '
            f'fill="{colour}">{number}</text>'
        )
        legend_y = top_of_legend + (number - 1) * 22
        parts.append(
            f'<text x="24" y="{legend_y}" fill="{colour}" font-size="13">{number}  '
            f'<tspan font-family="ui-monospace, Menlo, Consolas, monospace">{escape(call)}'
            f"</tspan> · {escape(text[kind])}</text>"
        )
    for x, y, label in nodes.values():
        parts.append(
            f'<rect x="{x - box_w / 2}" y="{y - box_h / 2}" width="{box_w}" height="{box_h}" '
            'rx="6" fill="#f5f5f5" stroke="#555"/>'
        )
        parts.append(
            f'<text x="{x}" y="{y + 5}" text-anchor="middle" '
            f'font-family="ui-monospace, Menlo, Consolas, monospace">{escape(label)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def matmul_figure(data: dict, locale: str) -> str:
    """The SVG source of a plot of GFLOP/s against matrix size, a line per backend and dtype,
    labelled in `locale` (`"zh"`, `"en"`). `data` is a results file's, as `load_results`
    gives it."""
    text = wording(locale)["matmul_results"]
    names = backend_names(locale)
    alt = escape(text["alt"](cpu=data["machine"]["cpu"]))
    dtypes = sorted({r["dtype"] for r in data["results"]})
    labels = [f"{names[b]} {d}" for b in COLOURS for d in dtypes]
    # The legend column is as wide as its longest label.
    right = int(max(_text_width(label, 14) for label in labels)) + 64
    width, height, left, top, bottom = 560 + right, 420, 70, 50, 60
    sizes = sorted({row["n"] for row in data["results"]})
    peak = max(row["gflops"] for row in data["results"])
    step = _nice_step(peak / 5)
    top_value = step * math.ceil(peak / step)
    span_x = math.log2(sizes[-1] / sizes[0]) or 1

    def x(n: int) -> float:
        return left + (width - left - right) * math.log2(n / sizes[0]) / span_x

    def y(value: float) -> float:
        return height - bottom - (height - top - bottom) * value / top_value

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'font-family="{FONT}" font-size="14" role="img" aria-label="{alt}">',
        f"<title>{alt}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<text x="{left}" y="28" font-size="17" font-weight="600">'
        f"{escape(text['title'](dtypes=' · '.join(dtypes)))}"
        "</text>",
    ]
    for tick in range(0, int(round(top_value / step)) + 1):
        value = tick * step
        out.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" '
            f'y2="{y(value):.1f}" stroke="#dddddd"/>'
        )
        out.append(
            f'<text x="{left - 8}" y="{y(value) + 5:.1f}" text-anchor="end">{value:g}</text>'
        )
    for n in sizes:
        out.append(
            f'<text x="{x(n):.1f}" y="{height - bottom + 22}" text-anchor="middle">{n}</text>'
        )
    out.append(
        f'<text x="{(left + width - right) / 2}" y="{height - 12}" '
        f'text-anchor="middle">{escape(text["axis_x"]())}</text>'
    )
    out.append(
        f'<text x="18" y="{(top + height - bottom) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 18 {(top + height - bottom) / 2})">'
        f"{escape(text['axis_y']())}</text>"
    )
    legend_y = top + 10
    for backend, colour in COLOURS.items():
        for dtype in dtypes:
            rows = sorted(
                (r for r in data["results"] if r["backend"] == backend and r["dtype"] == dtype),
                key=lambda r: r["n"],
            )
            if not rows:
                continue
            dash = "" if dtype == "float32" else ' stroke-dasharray="6 4"'
            points = " ".join(f"{x(r['n']):.1f},{y(r['gflops']):.1f}" for r in rows)
            out.append(
                f'<polyline points="{points}" fill="none" stroke="{colour}" '
                f'stroke-width="2.5"{dash}/>'
            )
            for r in rows:
                out.append(
                    f'<circle cx="{x(r["n"]):.1f}" cy="{y(r["gflops"]):.1f}" r="3.5" '
                    f'fill="{colour}"/>'
                )
            lx = width - right + 16
            out.append(
                f'<line x1="{lx}" x2="{lx + 28}" y1="{legend_y}" y2="{legend_y}" '
                f'stroke="{colour}" stroke-width="2.5"{dash}/>'
            )
            out.append(
                f'<text x="{lx + 36}" y="{legend_y + 5}">{escape(names[backend])} {dtype}</text>'
            )
            legend_y += 24
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _nice_step(raw: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) close to `raw`."""
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


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
    text, names = wording(locale)["matmul_results"], backend_names(locale)
    parts = []
    for path, data in results.items():
        machine, versions = data["machine"], data["versions"]
        parts.append(text["where"](machine=machine, versions=versions, date=data["created"][:10]))
        parts.append(text["cells"]())
        for dtype in sorted({row["dtype"] for row in data["results"]}):
            # A column per backend measured, a row per size: the median time (GFLOP/s).
            rows = [row for row in data["results"] if row["dtype"] == dtype]
            backends = [b for b in COLOURS if any(row["backend"] == b for row in rows)]
            cell = {(row["backend"], row["n"]): row for row in rows}
            head = [text["size"](dtype=dtype), *(names[b] for b in backends)]
            lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(["---:"] * len(head)) + " |"]
            for n in sorted({row["n"] for row in rows}):
                values = [
                    f"{_time(row['median_s'])} ({row['gflops']:.1f})" if row else "–"
                    for row in (cell.get((backend, n)) for backend in backends)
                ]
                lines.append(f"| {n} | " + " | ".join(values) + " |")
            parts.append("\n".join(lines))
        parts.append(f"![{text['alt'](cpu=machine['cpu'])}]({path.stem}.svg)")
    return "\n\n".join(parts) + "\n"


def _time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


#: Each figure's file under docs/, without `.svg` -> the function drawing it for a locale.
FIGURES: dict[str, Callable[[str], str]] = {
    "fundamentals/broadcasting-shapes": lambda locale: broadcast_figure(
        {"a": (3, 2), "b": (2, 3, 1)}, locale
    ),
    "tensorflow/conversion-paths": paths_figure,
}
#: The measured-speed page's results section, which the page embeds with a `--8<--` line
#: (in `INCLUDES`); each results file's plot goes next to the page.
RESULTS_SECTION = Path(INCLUDES) / "matmul-results.md"
RESULTS_PLOTS = Path("gpu")


def generated_files(root: Path = REPO_ROOT) -> dict[Path, str]:
    """Every figure and table generated from data, in both languages, as it should be
    committed: file (relative to the repository root `root`) -> its text.
    DataError if there is no benchmark results file, or one is malformed."""
    results = load_results(root / RESULTS_DIR)
    drawings = {Path(f"{name}.svg"): draw for name, draw in FIGURES.items()}
    for path, data in results.items():
        drawings[RESULTS_PLOTS / f"{path.stem}.svg"] = functools.partial(matmul_figure, data)
    files = {}
    for locale in LOCALES:
        # Each language's figure is at the same path in its language's pages.
        for name, draw in drawings.items():
            files[Path("docs", locale, name)] = draw(locale)
        files[Path("docs", locale, RESULTS_SECTION)] = results_section(locale, results)
    return files
