"""Timing GPU code: what Event.record() does, what printing a result costs, and a cold L2 cache.

Needs a CUDA device. Run with `python examples/gpu/timing_details_cuda.py` on a
machine with a GPU. It prints comparisons, not times, so that its output is the same
on every GPU.
"""
# requires: cuda

# --8<-- [start:record]
import time

import torch

a = torch.randn(8192, 8192, device="cuda")
b = torch.randn(8192, 8192, device="cuda")
a @ b  # warm-up
torch.cuda.synchronize()

start_event = torch.cuda.Event(enable_timing=True)
end_event = torch.cuda.Event(enable_timing=True)
try:
    start_event.elapsed_time(end_event)  # created, but not yet in the GPU's queue
except (RuntimeError, ValueError) as err:
    print(type(err).__name__, str(err).splitlines()[0])
start_event.record()  # record() puts the marker in the queue
c = a @ b
end_event.record()
print("end marker reached when record() returned:", end_event.query())
try:
    start_event.elapsed_time(end_event)  # the GPU has not reached the end marker yet
except RuntimeError as err:
    print(type(err).__name__, str(err).splitlines()[0])
end_event.synchronize()  # wait until the GPU has reached it
print("end marker reached after synchronize():", end_event.query())
# --8<-- [end:record]

# --8<-- [start:print]
c = a @ b  # queued
queued = torch.cuda.Event()
queued.record()
print("result ready before formatting it:", queued.query())
text = str(c)  # what print(c) does first: reads the values it shows back from the GPU
print("result ready after formatting it:", queued.query())


def median_seconds(action, repeats: int = 5) -> float:
    """Median wall-clock seconds of `action()`."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return sorted(times)[repeats // 2]


# Nothing is queued now: synchronize() returns at once, str(c) still copies and formats.
sync_s = median_seconds(torch.cuda.synchronize)
format_s = median_seconds(lambda: str(c))
print("formatting costs more than synchronize():", format_s > sync_s)
# --8<-- [end:print]

# --8<-- [start:cache]
x = torch.randn(512, 512, device="cuda")  # 1 MiB: x and x * 2 fit in a 4 MB L2 cache (T4; V100, A100, H100 have more)
flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")  # larger than L2


def median_ms(clear_cache: bool, repeats: int = 50) -> float:
    """Median milliseconds of `x * 2`, measured with CUDA events around the operation only."""
    times = []
    for _ in range(repeats):
        if clear_cache:
            flush.zero_()  # writing 256 MiB evicts x from the L2 cache
        # Both modes: the GPU is busy while the CPU queues the events and x * 2, so the time
        # the CPU takes to launch x * 2 is not counted between the events in either mode.
        torch.cuda._sleep(1_000_000)
        start_event = torch.cuda.Event(enable_timing=True)
        end_event = torch.cuda.Event(enable_timing=True)
        start_event.record()
        x * 2
        end_event.record()
        end_event.synchronize()
        times.append(start_event.elapsed_time(end_event))
    return sorted(times)[repeats // 2]


x * 2  # warm-up
print("slower with a cleared cache:", median_ms(clear_cache=True) > median_ms(clear_cache=False))
# --8<-- [end:cache]

# --8<-- [start:per_call]
import time

model = torch.nn.Sequential(*[torch.nn.Linear(4096, 4096) for _ in range(3)]).cuda()
batch = torch.randn(4096, 4096, device="cuda")
with torch.no_grad():
    model(batch)  # warm-up
    launched, on_gpu = [], []
    for _ in range(20):
        start_event = torch.cuda.Event(enable_timing=True)
        end_event = torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        start = time.perf_counter()
        start_event.record()
        model(batch)  # what %timeit -n1 times: the call returns once its kernels are queued
        end_event.record()
        launched.append(time.perf_counter() - start)
        torch.cuda.synchronize()  # then wait for the GPU before reading the events
        on_gpu.append(start_event.elapsed_time(end_event) / 1e3)
print("calls measured:", len(on_gpu))
print("each call returned before its GPU work ended:", all(c < g for c, g in zip(launched, on_gpu, strict=True)))
print("per-call GPU times within a factor of 2:", max(on_gpu) / min(on_gpu) < 2)
# --8<-- [end:per_call]
