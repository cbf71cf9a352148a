"""Memory sharing with a CUDA tensor: np.asarray, torch.as_tensor and copies to the CPU.

Needs a CUDA device. Run with `python examples/numpy_torch/memory_sharing_cuda.py`
on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:asarray]
import numpy as np
import torch

on_gpu = torch.arange(3.0, device="cuda")
try:
    np.asarray(on_gpu)  # Tensor.__array__ calls .numpy(), which needs a CPU tensor
except TypeError as err:
    print(type(err).__name__, err)
# --8<-- [end:asarray]

# --8<-- [start:as_tensor]
array = np.zeros(3, dtype=np.float32)
moved = torch.as_tensor(array, device="cuda")  # same dtype, another device: a copy
array[0] = 5  # a write to the array does not reach the copy in GPU memory
print(moved.device, moved.dtype, moved.cpu().tolist(), array.tolist())
# --8<-- [end:as_tensor]

# --8<-- [start:cpu_copy]
gpu_values = torch.arange(3.0, device="cuda")
host = gpu_values.cpu().numpy()  # .cpu() copies to host memory
forced = gpu_values.numpy(force=True)  # so does force=True for a GPU tensor
host[0] = 100
forced[1] = 100
print(host, forced)
print(gpu_values)  # the GPU data is unchanged
# --8<-- [end:cpu_copy]
