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
import json
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

SCHEMA = 1
DEFAULT_SIZES = (128, 256, 512, 1024, 2048)
DEFAULT_DTYPES = ("float32", "float64")


def cpu_name() -> str:
    """The CPU's model name as Linux reports it, else what `platform` knows.

    Returns:
        str: e.g. "AMD EPYC".
    """
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict:
    """Describe the machine the numbers belong to.

    Returns:
        dict: CPU name, logical CPUs this process may use, torch's CPU threads, the GPU
        name (None without CUDA), OS and architecture.
    """
    import torch

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    return {
        "cpu": cpu_name(),
        "cpus": cpus,
        "torch_threads": torch.get_num_threads(),
        "gpu": gpu,
        "os": platform.system(),
        "arch": platform.machine(),
    }


def versions() -> dict:
    """Return the versions of Python, NumPy and torch, their BLAS libraries, and CUDA.

    The BLAS library does the work of a CPU matrix multiply, so it is recorded with
    the numbers: NumPy's wheels ship OpenBLAS, torch's x86 wheels use MKL.

    Returns:
        dict: versions; `numpy_blas` / `torch_blas` name the libraries (None if unknown),
        `cuda` is torch's CUDA version when a GPU was used, else None.
    """
    import re

    import numpy
    import torch

    try:
        blas = numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]
        numpy_blas = f"{blas['name']} {blas.get('version', '')}".strip()
    except (KeyError, TypeError, ValueError):
        numpy_blas = None
    torch_blas = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    return {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numpy_blas": numpy_blas,
        "torch": str(torch.__version__),
        "torch_blas": torch_blas.group(1) if torch_blas else None,
        "cuda": torch.version.cuda if torch.cuda.is_available() else None,
    }


def measure(backend: str, dtype: str, n: int, min_run_time: float) -> dict:
    """Time `a @ b` for two n x n matrices of random values.

    Args:
        backend (str): "numpy", "torch-cpu" or "torch-cuda".
        dtype (str): "float32" or "float64".
        n (int): matrix size.
        min_run_time (float): seconds of measurement, at least, after the warm-up.

    Returns:
        dict: backend, dtype, n, median and interquartile range of one multiply in
        seconds, GFLOP/s from the median (2 n^3 floating-point operations), runs.
    """
    import numpy as np
    import torch
    from torch.utils import benchmark

    generator = np.random.default_rng(0)
    a = generator.standard_normal((n, n)).astype(dtype)
    b = generator.standard_normal((n, n)).astype(dtype)
    if backend != "numpy":
        device = "cuda" if backend == "torch-cuda" else "cpu"
        a, b = torch.from_numpy(a).to(device), torch.from_numpy(b).to(device)
    # Timer runs torch with ONE thread unless told otherwise; NumPy's BLAS picks its own
    # thread count (all cores). Give torch the threads it would use outside the Timer.
    threads = torch.get_num_threads()
    timer = benchmark.Timer(stmt="a @ b", globals={"a": a, "b": b}, num_threads=threads)
    result = timer.blocked_autorange(min_run_time=min_run_time)
    return {
        "backend": backend,
        "dtype": dtype,
        "n": n,
        "median_s": result.median,
        "iqr_s": result.iqr,
        "gflops": 2 * n**3 / result.median / 1e9,
        "runs": len(result.times) * result.number_per_run,
        "torch_threads": threads,
    }


def main(argv: list[str] | None = None) -> int:
    """Measure every backend, dtype and size and write the results file.

    Args:
        argv (list[str] | None): arguments; None means `sys.argv[1:]`.

    Returns:
        int: 0.
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(DEFAULT_SIZES))
    parser.add_argument("--dtypes", nargs="+", default=list(DEFAULT_DTYPES), choices=DEFAULT_DTYPES)
    parser.add_argument(
        "--min-run-time",
        type=float,
        default=1.0,
        help="seconds of measurement per case, after the warm-up",
    )
    parser.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    options = parser.parse_args(argv)

    import torch

    backends = ["numpy", "torch-cpu"] + (["torch-cuda"] if torch.cuda.is_available() else [])
    results = []
    for backend in backends:
        for dtype in options.dtypes:
            for n in options.sizes:
                row = measure(backend, dtype, n, options.min_run_time)
                results.append(row)
                print(
                    f"{backend:<10} {dtype:<8} n={n:<5} {row['median_s'] * 1e3:10.3f} ms "
                    f"{row['gflops']:8.1f} GFLOP/s",
                    flush=True,
                )
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
