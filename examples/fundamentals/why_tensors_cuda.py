"""Tensors on a GPU: created there or moved there, and computed on there. Needs a CUDA device.

Run with `python examples/fundamentals/why_tensors_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:gpu]
import torch

on_cpu = torch.ones(2, 3)
created = torch.ones(2, 3, device="cuda")  # created in GPU memory
moved = on_cpu.to("cuda")  # a copy in GPU memory; on_cpu stays where it was
print(created.device, moved.device, on_cpu.device)

result = created + moved  # runs on the GPU, and the result stays there
print(result.device, result.sum().item())
# --8<-- [end:gpu]
