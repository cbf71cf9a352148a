"""Copies with non_blocking=True: synchronise before reading the result or changing the source.

Needs a CUDA device. Run with `python examples/gpu/pinned_to_cpu_cuda.py` on a
machine with a GPU. It prints comparisons, not times, so that its output is the same
on every GPU.
"""
# requires: cuda

# --8<-- [start:to_cpu]
import torch

on_gpu = torch.randn(64, 1024, 1024, device="cuda")  # 256 MiB of float32
torch.cuda.synchronize()
on_cpu = on_gpu.to("cpu", non_blocking=True)  # returns once the copy is queued
copied = torch.cuda.Event()
copied.record()  # a marker right after the copy in the GPU's queue
print("copy finished when to() returned:", copied.query())
torch.cuda.synchronize()  # wait for the copy before reading on_cpu
print("copy finished after synchronize():", copied.query(), torch.equal(on_cpu, on_gpu.cpu()))
# --8<-- [end:to_cpu]

# --8<-- [start:reuse_source]
busy = torch.randn(8192, 8192, device="cuda")
for _ in range(20):  # queue some work, so that the copies below wait their turn
    busy = busy @ busy / 8192
buffer = torch.zeros(4).pin_memory()  # a page-locked batch buffer, refilled for each batch
early = buffer.to("cuda", non_blocking=True)  # returns at once; the copy runs later
buffer.fill_(1.0)  # the next batch written into the buffer too early
print("buffer changed before the copy ran:", early.tolist())
for _ in range(20):
    busy = busy @ busy / 8192
on_gpu = buffer.to("cuda", non_blocking=True)
copied = torch.cuda.Event()
copied.record()  # a marker right after the copy
copied.synchronize()  # wait for the copy before reusing the buffer
buffer.fill_(2.0)
print("buffer changed after the copy:", on_gpu.tolist())
# --8<-- [end:reuse_source]
