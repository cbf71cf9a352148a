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
    """
    TypeError can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
    """

host_copy = on_gpu.cpu().numpy()  # .cpu() copies to host memory; .numpy() then shares it
print(host_copy)
#> [0. 1. 2.]
print(on_gpu.numpy(force=True))  # the same copy in one call
#> [0. 1. 2.]
# --8<-- [end:cuda]
