"""The memory-formats page quotes the channels_last benchmark's results file by hand: each time
and speed-up in its table (both languages) is that file's, so that measuring again without
updating the page fails here. The script itself runs on a tiny budget."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from verified.paths import REPO_ROOT

RESULTS = REPO_ROOT / "benchmarks" / "results" / "channels_last-cpu-1-thread.json"
PAGES = ["docs/zh/fundamentals/memory-formats.md", "docs/en/fundamentals/memory-formats.md"]
LAYOUTS = ("contiguous", "channels_last", "mixed")
#: A table cell: a time in ms, then the speed-up over the contiguous layout in brackets.
CELL = re.compile(r"(?P<ms>[\d.]+) ms(?:(?: \(|（)(?P<ratio>[\d.]+)×(?:\)|）))?|–")


def _rows(results: dict) -> list[dict[str, float]]:
    """Per case (in the file's order), the median seconds of each layout it measured."""
    rows: dict[tuple, dict[str, float]] = {}
    for entry in results["results"]:
        rows.setdefault((entry["case"], entry["mode"]), {})[entry["layout"]] = entry["median_s"]
    return list(rows.values())


def _close(quoted: str, value: float) -> bool:
    """Whether `quoted` is `value` rounded to the digits it shows."""
    digits = len(quoted.split(".")[1]) if "." in quoted else 0
    return abs(float(quoted) - value) <= 0.5 * 10**-digits + 1e-12


@pytest.mark.parametrize("page", PAGES)
def test_the_page_quotes_the_results_file(page):
    rows = _rows(json.loads(RESULTS.read_text(encoding="utf-8")))
    text = (REPO_ROOT / page).read_text(encoding="utf-8")
    table = [line for line in text.splitlines() if line.startswith("| ") and " ms" in line]
    assert len(table) == len(rows), f"{page}: {len(table)} rows of times, the file has {len(rows)}"
    for line, measured in zip(table, rows, strict=True):
        cells = [cell.strip() for cell in line.strip("|").split("|")][1:]
        for layout, cell in zip(LAYOUTS, cells, strict=True):
            found = CELL.fullmatch(cell)
            assert found, f"{page}: cell {cell!r} of {line!r} is not 'N ms (R×)' or '–'"
            if layout not in measured:
                assert cell == "–", f"{page}: {layout} was not measured, the page shows {cell!r}"
                continue
            seconds = measured[layout]
            assert _close(found["ms"], seconds * 1000), f"{page}: {cell!r}, measured {seconds}"
            if found["ratio"]:
                ratio = measured["contiguous"] / seconds
                assert _close(found["ratio"], ratio), f"{page}: {cell!r}, ratio {ratio:.3f}"


def test_the_benchmark_runs_and_writes_every_case(tmp_path):
    out = tmp_path / "tiny.json"
    script = REPO_ROOT / "benchmarks" / "channels_last.py"
    command = [sys.executable, str(script), "--rounds", "1", "--min-run-time", "0.001"]
    subprocess.run([*command, "--out", str(out)], check=True, capture_output=True, timeout=120)
    written = json.loads(out.read_text(encoding="utf-8"))
    committed = json.loads(RESULTS.read_text(encoding="utf-8"))
    key = [(e["case"], e["mode"], e["layout"]) for e in committed["results"]]
    assert [(e["case"], e["mode"], e["layout"]) for e in written["results"]] == key
    assert all(e["median_s"] > 0 for e in written["results"])
