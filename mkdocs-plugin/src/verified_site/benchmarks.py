"""The benchmark results the site shows: read from `benchmarks/results/*.json`, drawn at build time.

`benchmarks/matmul.py` writes one results file per machine it ran on. A page shows
them where it has the line `<!-- benchmark-results: matmul -->`: the site plugin
replaces that line with, for each file, a sentence saying where, when and with which
versions it was measured, a table per dtype, and a plot (an SVG per language,
added by `verified_site.figures`). Nothing is typed by hand.
"""

from __future__ import annotations

import math
import re
from html import escape
from pathlib import Path

from verified.paths import REPO_ROOT, read_checked_json

RESULTS_DIR = REPO_ROOT / "benchmarks" / "results"
SCHEMA = 1
#: The placeholder line a page uses, and the benchmark it names.
MARKER = re.compile(r"^<!-- benchmark-results: (?P<name>[\w-]+) -->$", re.MULTILINE)
FONT = (
    "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, 'PingFang SC', "
    "'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif"
)
BACKENDS = {
    "numpy": {"zh": "NumPy", "en": "NumPy"},
    "torch-cpu": {"zh": "torch（CPU）", "en": "torch (CPU)"},
    "torch-cuda": {"zh": "torch（GPU）", "en": "torch (GPU)"},
}
COLOURS = {"numpy": "#1f77b4", "torch-cpu": "#d62728", "torch-cuda": "#2ca02c"}
TEXT = {
    "zh": {
        "where": lambda m, v, date, gpu: (
            f"测量机器：{m['cpu']}（{m['cpus']} 个 CPU 核心，"
            f"torch 使用 {m['torch_threads']} 个线程）"
            + (f"，GPU 为 {gpu}" if gpu else "，没有 GPU")
            + f"；Python {v['python']}、NumPy {v['numpy']}{_blas(v, 'numpy_blas')}、"
            f"torch {v['torch']}{_blas(v, 'torch_blas')}；{date}。"
        ),
        "cells": (
            "每格是一次 `a @ b`（两个 n × n 矩阵）耗时的中位数，"
            "括号内是按 2n³ 次浮点运算换算的 GFLOP/s。"
        ),
        "size": "n",
        "title": lambda dtype: f"矩阵乘法的速度（{dtype}）",
        "axis_x": "矩阵大小 n",
        "axis_y": "GFLOP/s",
        "alt": lambda cpu: f"{cpu} 上矩阵乘法的 GFLOP/s 随矩阵大小的变化",
    },
    "en": {
        "where": lambda m, v, date, gpu: (
            f"Measured on {m['cpu']} ({m['cpus']} CPUs, torch using {m['torch_threads']} "
            "threads)"
            + (f" with a {gpu} GPU" if gpu else ", no GPU")
            + f"; Python {v['python']}, NumPy {v['numpy']}{_blas(v, 'numpy_blas')}, "
            f"torch {v['torch']}{_blas(v, 'torch_blas')}; {date}."
        ),
        "cells": (
            "Each cell is the median time of one `a @ b` of two n × n matrices, with the "
            "GFLOP/s it means (2n³ floating-point operations) in brackets."
        ),
        "size": "n",
        "title": lambda dtype: f"Matrix multiply speed ({dtype})",
        "axis_x": "matrix size n",
        "axis_y": "GFLOP/s",
        "alt": lambda cpu: f"GFLOP/s of matrix multiply against matrix size on {cpu}",
    },
}


def _blas(versions: dict, key: str) -> str:
    """` (BLAS: name)` when the results file records the library, else ""."""
    return f" (BLAS: {versions[key]})" if versions.get(key) else ""


class BenchmarkError(ValueError):
    """A results file is missing or malformed; the message names it and what to run."""


def results_files(name: str = "matmul", folder: Path = RESULTS_DIR) -> list[Path]:
    """Return the results files of one benchmark, one per machine, sorted by name.

    Args:
        name (str): the benchmark, e.g. "matmul" (files `<name>-*.json`).
        folder (Path): where the files are.

    Returns:
        list[Path]: possibly empty.
    """
    return sorted(folder.glob(f"{name}-*.json"))


def load_results(path: Path) -> dict:
    """Read and check one results file.

    Args:
        path (Path): a file written by `benchmarks/matmul.py`.

    Returns:
        dict: its data.

    Raises:
        BenchmarkError: unreadable, of another schema, or without results.
    """
    return read_checked_json(
        path,
        f"a benchmark results file of schema {SCHEMA}",
        "write it again with `make measure-matmul` (or benchmarks/matmul.py)",
        _results_problem,
        BenchmarkError,
    )


def _results_problem(data: object) -> str | None:
    """What is missing or malformed in a results file, naming the field, or None."""
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        return f"`schema` is not {SCHEMA}"
    if not isinstance(data.get("created"), str):
        return "`created` is missing"
    for section, keys in (
        ("machine", ("cpu", "cpus", "torch_threads")),
        ("versions", ("python", "numpy", "torch")),
    ):
        if not isinstance(data.get(section), dict):
            return f"`{section}` is missing"
        for key in keys:
            if key not in data[section]:
                return f"`{section}.{key}` is missing"
    if not isinstance(data.get("results"), list) or not data["results"]:
        return "`results` is empty"
    checks = {
        "backend": lambda v: v in BACKENDS,
        "dtype": lambda v: isinstance(v, str),
        "n": lambda v: isinstance(v, int) and v > 0,
        "median_s": lambda v: isinstance(v, int | float) and v > 0,
        "gflops": lambda v: isinstance(v, int | float) and v >= 0,
    }
    for index, row in enumerate(data["results"]):
        if not isinstance(row, dict):
            return f"results[{index}] is not an object"
        for key, valid in checks.items():
            if key not in row:
                return f"results[{index}].{key} is missing"
            if not valid(row[key]):
                return f"results[{index}].{key} = {row[key]!r} is not valid"
    return None


def render_results(
    name: str, locale: str, figure_prefix: str = "", folder: Path = RESULTS_DIR
) -> str:
    """Markdown for a page's `<!-- benchmark-results: name -->` line.

    Args:
        name (str): the benchmark.
        locale (str): "zh" or "en".
        figure_prefix (str): path from the page to the figures' folder (`""` when the
            page sits next to them).
        folder (Path): where the results files are.

    Returns:
        str: per results file, the measurement sentence, tables and plot.

    Raises:
        BenchmarkError: there is no results file, or one is malformed.
    """
    files = results_files(name, folder)
    if not files:
        raise BenchmarkError(
            f"no benchmarks/results/{name}-*.json: run `make measure-matmul` and commit the file"
        )
    text = TEXT[locale]
    parts = []
    for path in files:
        data = load_results(path)
        m, v = data["machine"], data["versions"]
        parts.append(text["where"](m, v, data["created"][:10], m.get("gpu")))
        parts.append(text["cells"])
        for dtype in sorted({row["dtype"] for row in data["results"]}):
            parts.append(_table(data, dtype, locale))
        figure = f"{figure_prefix}{path.stem}.svg"
        parts.append(f"![{text['alt'](m['cpu'])}]({figure})")
    return "\n\n".join(parts)


def _table(data: dict, dtype: str, locale: str) -> str:
    rows = [row for row in data["results"] if row["dtype"] == dtype]
    backends = [b for b in BACKENDS if any(row["backend"] == b for row in rows)]
    sizes = sorted({row["n"] for row in rows})
    cell = {(row["backend"], row["n"]): row for row in rows}
    head = [f"{TEXT[locale]['size']} ({dtype})", *(BACKENDS[b][locale] for b in backends)]
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


def matmul_figure(data: dict, locale: str) -> str:
    """Plot GFLOP/s against matrix size, a line per backend and dtype, as an SVG document.

    Args:
        data (dict): a results file's data (`load_results`).
        locale (str): "zh" or "en".

    Returns:
        str: the SVG document.
    """
    text = TEXT[locale]
    dtypes = sorted({r["dtype"] for r in data["results"]})
    labels = [f"{BACKENDS[b][locale]} {d}" for b in BACKENDS for d in dtypes]
    # The legend column is as wide as its longest label (CJK characters are square).
    legend = max(sum(14 if ord(c) > 0x2E80 else 8.4 for c in label) for label in labels)
    right = int(legend) + 64
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
        f'font-family="{FONT}" font-size="14" role="img" '
        f'aria-label="{escape(text["alt"](data["machine"]["cpu"]))}">',
        f"<title>{escape(text['alt'](data['machine']['cpu']))}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<text x="{left}" y="28" font-size="17" font-weight="600">'
        f"{escape(text['title'](' · '.join(dtypes)))}"
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
        f'text-anchor="middle">{escape(text["axis_x"])}</text>'
    )
    out.append(
        f'<text x="18" y="{(top + height - bottom) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 18 {(top + height - bottom) / 2})">'
        f"{escape(text['axis_y'])}</text>"
    )
    legend_y = top + 10
    for backend in BACKENDS:
        for dtype in dtypes:
            rows = sorted(
                (r for r in data["results"] if r["backend"] == backend and r["dtype"] == dtype),
                key=lambda r: r["n"],
            )
            if not rows:
                continue
            dash = "" if dtype == "float32" else ' stroke-dasharray="6 4"'
            points = " ".join(f"{x(r['n']):.1f},{y(r['gflops']):.1f}" for r in rows)
            colour = COLOURS[backend]
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
            label = f"{BACKENDS[backend][locale]} {dtype}"
            out.append(f'<text x="{lx + 36}" y="{legend_y + 5}">{escape(label)}</text>')
            legend_y += 24
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _nice_step(raw: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) close to `raw`."""
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
