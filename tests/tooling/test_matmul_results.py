"""The benchmark behind the "measured speed" page: the script runs (in-process, on tiny
matrices), and the page's tables and plots are drawn from its results files in both
languages; a missing or malformed file is named with what to run."""

from __future__ import annotations

import json
import runpy
import xml.etree.ElementTree as ElementTree
from unittest import mock

import pytest

from tooling.data import DataError
from tooling.figures import load_results, matmul_figure, results_section
from verified.paths import REPO_ROOT


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("matmul") / "matmul-tiny.json"
    script = runpy.run_path(str(REPO_ROOT / "benchmarks" / "matmul.py"))
    arguments = ["--sizes", "16", "32", "--min-run-time", "0.01", "--out", str(out)]
    with mock.patch("torch.cuda.is_available", return_value=False):  # the same on a GPU machine
        assert script["main"](arguments) == 0
    return out


def test_the_script_measures_every_case_and_its_tables_and_plot_are_drawn(tiny_run):
    results = load_results(tiny_run.parent)
    data = results[tiny_run]
    cases = {(row["backend"], row["dtype"], row["n"]) for row in data["results"]}
    assert cases == {
        (backend, dtype, n)
        for backend in ("numpy", "torch-cpu")
        for dtype in ("float32", "float64")
        for n in (16, 32)
    }
    assert data["machine"]["gpu"] is None and data["versions"]["torch"]
    assert all(row["torch_threads"] >= 1 for row in data["results"])
    # What the committed results draw is tests/content/test_generated.py's.
    assert all("| 32 |" in results_section(locale, results) for locale in ("zh", "en"))
    svg = matmul_figure(data, "zh")
    groups = {
        g.get("id") for g in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}g")
    }
    assert {f"{backend}-{dtype}" for backend, dtype, _ in cases} <= groups  # a line for each
    assert "矩阵乘法的速度" in svg


def test_missing_and_broken_results_are_named(tmp_path, tiny_run):
    with pytest.raises(DataError, match=r"no benchmarks/results/matmul-\*.json: run"):
        load_results(tmp_path)
    data = json.loads(tiny_run.read_text(encoding="utf-8"))
    data["results"][1]["n"] = 0
    (tmp_path / "matmul-bad.json").write_text(json.dumps(data))
    with pytest.raises(
        DataError,
        match="matmul-bad.json: not a benchmark results file of schema 1: result 2: `n`: 0 is "
        "less than the minimum of 1: the size",
    ):
        load_results(tmp_path)
