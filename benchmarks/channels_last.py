"""channels_last against the default memory format, on the CPU (or on a GPU, `--device cuda`).

Writes one JSON file: the machine, the library versions, the date, and for each case and
layout the median time of one call, measured with `torch.utils.benchmark.Timer` (warm-up,
then blocks of runs for at least `--min-run-time` seconds; on a GPU it synchronises before
reading the clock) in each of `--rounds` rounds, and the median of those. The layouts are:

- `contiguous`: the module's weights and the input in `torch.contiguous_format`;
- `channels_last`: both converted with `.to(memory_format=torch.channels_last)`;
- `mixed`: the weights in `channels_last` and the input left contiguous, so that every
  call converts the input first (a model converted without its inputs).

The cases are single convolutions of a few common shapes, a softmax along the channel axis
(an operation that returns the default format) and a small convolutional network, in
inference (`torch.no_grad`) and as one training step (forward, backward, SGD update). The
"Memory formats" page quotes the figures of the results files in `benchmarks/results/`.

Run it (not part of `make test`):

    python benchmarks/channels_last.py --out benchmarks/results/channels_last-<machine>.json

`--threads 1` measures with one thread, which is steadier on a machine whose cores other
work shares; the file records the thread count. It needs torch only, so it also runs on a
GPU machine's own Python (`--device cuda`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import statistics
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import torch
from torch import nn
from torch.utils import benchmark

SCHEMA = 1
LAYOUTS = ("contiguous", "channels_last", "mixed")


def cpu_name() -> str:
    """The CPU's model name as Linux reports it ("AMD EPYC"), else what `platform` knows."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def machine(device: str, threads: int) -> dict:
    """The CPU, the vector instructions torch's CPU kernels use, the logical CPUs this process
    may use, the torch threads of the measurements, the device measured and its GPU (None on
    the CPU), OS and architecture."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu": cpu_name(),
        "cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "cpus": cpus,
        "torch_threads": threads,
        "device": device,
        "gpu": torch.cuda.get_device_name(0) if device == "cuda" else None,
        "os": platform.system(),
        "arch": platform.machine(),
    }


def versions(device: str) -> dict:
    """The versions of Python, torch, the oneDNN library behind torch's CPU convolutions
    (None if unknown), and CUDA and cuDNN (None on the CPU)."""
    onednn = re.search(r"MKL-DNN v([\d.]+)", torch.__config__.show())
    return {
        "python": platform.python_version(),
        "torch": str(torch.__version__),
        "onednn": onednn.group(1) if onednn else None,
        "cuda": torch.version.cuda if device == "cuda" else None,
        "cudnn": torch.backends.cudnn.version() if device == "cuda" else None,
    }


def small_cnn() -> nn.Module:
    """Three convolution blocks, global pooling and a linear classifier: the shape of a small
    image classifier."""

    def block(c_in: int, c_out: int) -> list[nn.Module]:
        return [nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU()]

    return nn.Sequential(
        *block(3, 32),
        nn.MaxPool2d(2),
        *block(32, 64),
        nn.MaxPool2d(2),
        *block(64, 128),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(128, 10),
    )


class ChannelSoftmax(nn.Module):
    """`softmax` along the channel axis, as a module, so that it is timed like the others."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.softmax(dim=1)


#: (name, module factory, input shape (N, C, H, W), "inference" or "training")
CASES: list[tuple[str, Callable[[], nn.Module], tuple[int, int, int, int], str]] = [
    ("conv3x3 3->64", lambda: nn.Conv2d(3, 64, 3, padding=1), (8, 3, 112, 112), "inference"),
    ("conv3x3 64->64", lambda: nn.Conv2d(64, 64, 3, padding=1), (8, 64, 56, 56), "inference"),
    ("conv1x1 256->256", lambda: nn.Conv2d(256, 256, 1), (8, 256, 14, 14), "inference"),
    (
        "depthwise conv3x3 128",
        lambda: nn.Conv2d(128, 128, 3, padding=1, groups=128),
        (8, 128, 28, 28),
        "inference",
    ),
    ("softmax over channels", ChannelSoftmax, (8, 64, 56, 56), "inference"),
    ("small CNN", small_cnn, (8, 3, 64, 64), "inference"),
    ("small CNN", small_cnn, (8, 3, 64, 64), "training"),
]


def has_weights(case: tuple) -> bool:
    """Whether the case's module has parameters (a `mixed` layout means nothing without)."""
    return any(True for _ in case[1]().parameters())


def statement(mode: str) -> str:
    """The timed code: one forward pass, or one training step."""
    if mode == "inference":
        return "with torch.no_grad():\n    model(x)"
    return "optimizer.zero_grad()\nmodel(x).float().sum().backward()\noptimizer.step()"


def prepare(case: tuple, layout: str, device: str) -> tuple[nn.Module, torch.Tensor, object]:
    """The case's module, input and optimizer (None in inference), in `layout`."""
    _, factory, shape, mode = case
    torch.manual_seed(0)
    model, x = factory().to(device), torch.rand(shape, device=device)
    if layout in ("channels_last", "mixed"):
        model = model.to(memory_format=torch.channels_last)
    if layout == "channels_last":
        x = x.to(memory_format=torch.channels_last)
    model.train(mode == "training")
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3) if mode == "training" else None
    return model, x, optimizer


def measure(case: tuple, layout: str, device: str, threads: int, min_run_time: float) -> float:
    """The median time of one call of `case` in `layout`, in seconds; prints it."""
    name, _, _, mode = case
    model, x, optimizer = prepare(case, layout, device)
    timer = benchmark.Timer(
        stmt=statement(mode),
        globals={"model": model, "x": x, "optimizer": optimizer, "torch": torch},
        num_threads=threads,
    )
    median = timer.blocked_autorange(min_run_time=min_run_time).median
    print(f"{name:<22} {mode:<9} {layout:<13} {median * 1e3:9.3f} ms", flush=True)
    return median


def main(argv: list[str] | None = None) -> int:
    """Measure every case in every layout, `--rounds` times, and write the results file; 0.

    The rounds interleave the cases and layouts, so that a slow spell of a shared machine
    does not fall on one layout only; each result keeps the median of every round
    (`round_medians_s`) and their median (`median_s`)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    parser.add_argument("--threads", type=int, default=torch.get_num_threads())
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each case")
    parser.add_argument("--min-run-time", type=float, default=1.0, help="seconds a case, at least")
    parser.add_argument("--out", type=Path, required=True, help="the JSON file to write")
    options = parser.parse_args(argv)
    pairs = [
        (case, layout)
        for case in CASES
        for layout in LAYOUTS
        if layout != "mixed" or has_weights(case)
    ]
    rounds = [
        [measure(*pair, options.device, options.threads, options.min_run_time) for pair in pairs]
        for _ in range(options.rounds)
    ]
    results = []
    for index, ((name, _, shape, mode), layout) in enumerate(pairs):
        medians = [times[index] for times in rounds]
        results.append(
            {
                "case": name,
                "mode": mode,
                "input_shape": list(shape),
                "layout": layout,
                "median_s": statistics.median(medians),
                "round_medians_s": medians,
            }
        )
    data = {
        "schema": SCHEMA,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(options.device, options.threads),
        "versions": versions(options.device),
        "min_run_time_s": options.min_run_time,
        "rounds": options.rounds,
        "results": results,
    }
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
