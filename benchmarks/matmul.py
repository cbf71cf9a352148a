"""Matrix multiply speed: NumPy, torch on the CPU, and torch on a GPU when there is one.

Writes one JSON file: the machine, the library versions, the date, and for each
backend, dtype and size the median time of one `a @ b` of two n x n matrices,
measured with `torch.utils.benchmark.Timer` (warm-up, then blocks of runs for at
least `--min-run-time` seconds; on a GPU it synchronises before reading the clock).
The "GPU and performance" page draws its table and plot from these files; no
number on the site is typed by hand.

Run it (not part of `make test`; the suite only checks that it runs on a tiny size):

    python benchmarks/matmul.py --out benchmarks/results/matmul-<machine>.json

It needs torch and NumPy only, so it also runs on a GPU machine's own Python.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import platform
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import torch
from torch.utils import benchmark

SCHEMA = 1
DTYPES = ("float32", "float64")


def cpu_name() -> str:
    """The CPU's model name as Linux reports it ("AMD EPYC"), else what `platform` knows."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def machine() -> dict:
    """The CPU, the logical CPUs this process may use, torch's CPU threads, the GPU (None
    without CUDA), OS and architecture."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu": cpu_name(),
        "cpus": cpus,
        "torch_threads": torch.get_num_threads(),
        "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
        "os": platform.system(),
        "arch": platform.machine(),
    }


def versions() -> dict:
    """The versions of Python, NumPy, torch, their BLAS libraries (None if unknown) and torch's
    CUDA (None without a GPU). The BLAS library does the work of a CPU matrix multiply, so it
    is recorded with the numbers: NumPy's wheels ship OpenBLAS, torch's x86 wheels use MKL."""
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        numpy_blas = f"{blas['name']} {blas.get('version', '')}".strip()
    except (KeyError, TypeError, ValueError):
        numpy_blas = None
    torch_blas = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numpy_blas": numpy_blas,
        "torch": str(torch.__version__),
        "torch_blas": torch_blas.group(1) if torch_blas else None,
        "cuda": torch.version.cuda if torch.cuda.is_available() else None,
    }


def measure(backend: str, dtype: str, n: int, min_run_time: float) -> dict:
    """Time `a @ b` for two n x n matrices of random values on `backend` ("numpy", "torch-cpu",
    "torch-cuda"), for at least `min_run_time` seconds after the warm-up: the median and
    interquartile range of one multiply in seconds, GFLOP/s from the median (2 n^3
    floating-point operations) and the number of runs; prints the row as it goes."""
    generator = np.random.default_rng(0)
    a, b = (generator.standard_normal((n, n)).astype(dtype) for _ in range(2))
    if backend != "numpy":
        device = "cuda" if backend == "torch-cuda" else "cpu"
        a, b = torch.from_numpy(a).to(device), torch.from_numpy(b).to(device)
    # Timer runs torch with ONE thread unless told otherwise; NumPy's BLAS picks its own
    # thread count (all cores). Give torch the threads it would use outside the Timer.
    threads = torch.get_num_threads()
    timer = benchmark.Timer(stmt="a @ b", globals={"a": a, "b": b}, num_threads=threads)
    result = timer.blocked_autorange(min_run_time=min_run_time)
    gflops = 2 * n**3 / result.median / 1e9
    print(
        f"{backend:<10} {dtype:<8} n={n:<5} {result.median * 1e3:10.3f} ms {gflops:8.1f} GFLOP/s",
        flush=True,
    )
    return {
        "backend": backend,
        "dtype": dtype,
        "n": n,
        "median_s": result.median,
        "iqr_s": result.iqr,
        "gflops": gflops,
        "runs": len(result.times) * result.number_per_run,
        "torch_threads": threads,
    }


def main(argv: list[str] | None = None) -> int:
    """Measure every backend, dtype and size and write the results file; 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[128, 256, 512, 1024, 2048])
    parser.add_argument("--dtypes", nargs="+", default=list(DTYPES), choices=DTYPES)
    parser.add_argument("--min-run-time", type=float, default=1.0, help="seconds a case, at least")
    parser.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    options = parser.parse_args(argv)
    backends = ["numpy", "torch-cpu"] + (["torch-cuda"] if torch.cuda.is_available() else [])
    cases = itertools.product(backends, options.dtypes, options.sizes)
    results = [measure(*case, options.min_run_time) for case in cases]
    data = {
        "schema": SCHEMA,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "versions": versions(),
        "min_run_time_s": options.min_run_time,
        "results": results,
    }
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
