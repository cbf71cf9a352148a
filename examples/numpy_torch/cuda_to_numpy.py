"""`.numpy()` on a CUDA tensor, and the fix. Needs a CUDA device.

Run with `python examples/numpy_torch/cuda_to_numpy.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:cuda]
import torch

on_gpu = torch.arange(3.0, device="cuda")
try:
    on_gpu.numpy()
except TypeError as err:
    print(type(err).__name__, err)

host_copy = on_gpu.cpu().numpy()  # .cpu() copies to host memory; .numpy() then shares it
print(host_copy)
print(on_gpu.numpy(force=True))  # the same copy in one call
# --8<-- [end:cuda]
