"""The benchmark behind the "measured speed" page: the script runs (on tiny matrices, so
that the suite's own time stays short), its results files are well formed, and the
page's tables and plots are drawn from them in both languages."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from verified.paths import REPO_ROOT
from verified_site.benchmarks import (
    BenchmarkError,
    load_results,
    matmul_figure,
    render_results,
    results_files,
)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "matmul-tiny.json"
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/matmul.py",
            "--sizes",
            "16",
            "32",
            "--min-run-time",
            "0.01",
            "--out",
            str(out),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PATH": "/usr/bin:/bin", "CUDA_VISIBLE_DEVICES": "", "OMP_NUM_THREADS": "1"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def test_the_script_measures_every_backend_dtype_and_size(tiny_run):
    data = load_results(tiny_run)
    cases = {(row["backend"], row["dtype"], row["n"]) for row in data["results"]}
    assert cases == {
        (backend, dtype, n)
        for backend in ("numpy", "torch-cpu")
        for dtype in ("float32", "float64")
        for n in (16, 32)
    }
    assert data["machine"]["gpu"] is None and data["versions"]["torch"]
    assert all(row["torch_threads"] >= 1 for row in data["results"])


def test_tables_and_plot_in_both_languages(tiny_run):
    zh = render_results("matmul", "zh", folder=tiny_run.parent)
    en = render_results("matmul", "en", folder=tiny_run.parent)
    assert "| n (float32) | NumPy | torch (CPU) |" in en and "| 32 |" in en
    assert "| n (float32) | NumPy | torch（CPU） |" in zh
    assert "Measured on" in en and "测量机器：" in zh
    assert "![" in en and "(matmul-tiny.svg)" in en
    svg = matmul_figure(load_results(tiny_run), "zh")
    root = ElementTree.fromstring(svg)
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 4  # 2 backends x 2 dtypes
    assert "矩阵乘法的速度" in svg


def test_the_committed_results_are_well_formed():
    files = results_files("matmul")
    assert files, "benchmarks/results/ has no matmul results: run `make measure-matmul`"
    for path in files:
        load_results(path)


def test_missing_and_broken_results_are_named(tmp_path):
    with pytest.raises(BenchmarkError, match="no benchmarks/results/matmul-\\*.json: run"):
        render_results("matmul", "en", folder=tmp_path)
    (tmp_path / "matmul-bad.json").write_text(json.dumps({"schema": 1, "results": []}))
    with pytest.raises(BenchmarkError, match="matmul-bad.json: not a benchmark results file"):
        render_results("matmul", "en", folder=tmp_path)
