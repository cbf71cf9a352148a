"""The GPU column of the cross-library reference: a row marked `cuda:` runs its PyTorch call on
the device beside the CPU (the GPU run, `make test-gpu`, passes "cuda"; here the CPU stands in),
and its page shows what the GPU run recorded, that the row changed since, or that no GPU run has
recorded it yet."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tooling.test_reference_mistakes import FAMILY, _load
from tooling.reference import INPUTS, load_families, load_inputs
from tooling.reference_pages import pages
from tooling.reference_run import run_on_device
from verified import record
from verified.paths import gpu_run_path, record_path

torch = pytest.importorskip("torch")
MODULES = {"np": np, "torch": torch}
CUDA = "    cuda: {cause: generator, zh: 原因, en: why it can differ}\n"


def test_a_cuda_row_runs_its_pytorch_call_on_the_device_beside_the_cpu(tmp_path):
    (row,) = _load(tmp_path, FAMILY + CUDA)[0].rows
    judged = run_on_device(row, load_inputs(tmp_path), MODULES, "cpu")
    assert (judged["status"], judged["device"], judged["problems"]) == ("agree", "cpu", [])
    assert judged["results"]["ints"]["device"]["parts"][0]["values"] == [[-3, 1, -2], [0, -5, 4]]
    assert judged["code"] == {
        "call": "torch.neg(x)",
        "inputs": {"ints": "torch.tensor([[3, -1, 2], [0, 5, -4]])"},
    }
    # Unseeded, the two runs draw different numbers: recorded as a difference in values.
    (row,) = _load(tmp_path / "b", FAMILY.replace("torch.neg(x)", "torch.rand(3)") + CUDA)[0].rows
    judged = run_on_device(row, load_inputs(tmp_path / "b"), MODULES, "cpu")
    assert (judged["status"], judged["differences"]) == (
        "differs",
        [{"input": "ints", "aspect": "values"}],
    )


def _page(root, families, inputs, name: str = "sample") -> str:
    return pages(root, families, inputs, {})[f"docs/en/reference/{name}.md"]


def _counted(root, families, inputs) -> str:
    """The differences page's row of the generator cause: rows marked, rows recorded."""
    return next(
        line
        for line in _page(root, families, inputs, "differences").splitlines()
        if line.startswith("| random generator |")
    )


def test_a_cuda_rows_page_shows_the_gpu_runs_result_or_why_it_does_not(tmp_path):
    (family,) = families = _load(tmp_path, FAMILY + CUDA)
    inputs = load_inputs(tmp_path)
    (row,) = family.rows
    x = [[3, -1, 2], [0, 5, -4]]
    result = {"parts": [{"shape": [2, 3], "dtype": "int64", "values": x, "text": str(x)}]}
    result.update(many=False, shares=False, error=None)
    ran = {
        row.key: {
            "family": "sample",
            "status": "agree",
            "results": {"ints": dict.fromkeys(["numpy", "torch", "tensorflow"], result)},
            "differences": [],
            "problems": [],
        }
    }

    def cpu_run():  # the examples stage's run of the data as it is now
        sources = {p: record.file_sha256(tmp_path / p) for p in [INPUTS, row.source]}
        cpu = record.build_run([], sources, {"device": "cpu"}, ran)
        record.add_runs(record_path(tmp_path), {record.DEFAULT_ENVIRONMENT: cpu})

    cpu_run()
    assert "why it can differ" in _page(tmp_path, families, inputs)
    assert "Not recorded on a GPU yet" in _page(tmp_path, families, inputs)

    on_gpu = {row.key: run_on_device(row, inputs, MODULES, "cpu")}  # the GPU run: "cuda"
    gpu = record.build_run(
        [], {}, {"device": "cuda", "gpu": "NVIDIA H100", "torch": "2.15"}, on_gpu
    )
    record.add_runs(gpu_run_path(tmp_path), {record.GPU_ENVIRONMENT: gpu})
    page = _page(tmp_path, families, inputs)
    assert f"On CUDA (NVIDIA H100, torch 2.15, {gpu['created'][:10]}), PyTorch returned:" in page
    assert "| Input | PyTorch, CPU | PyTorch, CUDA |" in page
    assert _counted(tmp_path, families, inputs) == "| random generator | 1 | 1 |"

    changed = FAMILY.replace("torch.neg(x)", "-x") + CUDA
    (tmp_path / row.source).write_text(changed, encoding="utf-8")
    families = load_families(tmp_path, inputs)
    cpu_run()
    assert "ran other code for this row" in _page(tmp_path, families, inputs)
    assert _counted(tmp_path, families, inputs) == "| random generator | 1 | 0 |"
