"""Small work on the GPU: tiny operations are slower there than on the CPU.

Needs a CUDA device. Run with `python examples/gpu/small_work_cuda.py` on a machine with
a GPU. It prints comparisons, not times, so that its output is the same on every GPU.
"""
# requires: cuda

# --8<-- [start:loop]
import time

import torch


def loop_seconds(device: str, n: int, steps: int = 1000) -> float:
    """Seconds for `steps` steps of two in-place operations on an n x n tensor, after a warm-up."""
    b = torch.ones(n, n, device=device)
    b += b  # warm-up
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(steps):
        b.mul_(0.5).add_(1.0)  # stays finite
    torch.cuda.synchronize()
    return time.perf_counter() - start


print("4 x 4: GPU slower than CPU:", loop_seconds("cuda", 4) > loop_seconds("cpu", 4))
print("4096 x 4096: GPU faster than CPU:", loop_seconds("cuda", 4096, 20) < loop_seconds("cpu", 4096, 20))
# --8<-- [end:loop]
