"""Timing GPU code: asynchronous launches, torch.cuda.synchronize, CUDA events and Timer.

Needs a CUDA device. Run with `python examples/gpu/timing_cuda.py` on a machine with
a GPU. It prints comparisons, not times, so that its output is the same on every GPU.
"""
# requires: cuda

# --8<-- [start:async]
import time

import torch

a = torch.randn(8192, 8192, device="cuda")
b = torch.randn(8192, 8192, device="cuda")
a @ b  # warm-up: the first call initialises cuBLAS and allocates memory
torch.cuda.synchronize()

start = time.perf_counter()
c = a @ b  # queues the kernel and returns at once
returned = time.perf_counter() - start
torch.cuda.synchronize()  # waits until the GPU has finished everything queued
finished = time.perf_counter() - start
print("returned before the GPU finished:", returned < finished / 10)
#> returned before the GPU finished: True
# --8<-- [end:async]

# --8<-- [start:events]
start_event = torch.cuda.Event(enable_timing=True)
end_event = torch.cuda.Event(enable_timing=True)
start_event.record()  # a marker in the GPU's queue, timestamped when the GPU reaches it
c = a @ b
end_event.record()
end_event.synchronize()  # wait for the second marker before reading the time
event_ms = start_event.elapsed_time(end_event)  # milliseconds, measured on the GPU
print("events measured the kernel:", event_ms > 100 * returned * 1e3)
#> events measured the kernel: True
# --8<-- [end:events]

# --8<-- [start:timer]
from torch.utils import benchmark

measurement = benchmark.Timer(stmt="a @ b", globals={"a": a, "b": b}).blocked_autorange()
timer_ms = measurement.median * 1e3  # Timer synchronises the GPU before reading the clock
print("Timer agrees with the events within 20 %:", abs(timer_ms - event_ms) < 0.2 * event_ms)
#> Timer agrees with the events within 20 %: True
# --8<-- [end:timer]
