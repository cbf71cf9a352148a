"""Copying from the GPU to the CPU with non_blocking=True: synchronise before reading.

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
