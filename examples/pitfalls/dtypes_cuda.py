"""Dtypes on the GPU: casting NaN and inf to an integer dtype. Needs a CUDA device.

Run with `python examples/pitfalls/dtypes_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:nan_to_int_cuda]
import torch

scores = torch.tensor([float("nan"), float("inf"), 2.7])
print(scores.to(torch.int32), scores.cuda().to(torch.int32).cpu())  # the CPU's cast, the GPU's

# The fix gives the same integers on both devices.
fixed = torch.nan_to_num(scores.cuda(), nan=0.0, posinf=0.0, neginf=0.0).to(torch.int32)
print(torch.equal(fixed.cpu(), torch.nan_to_num(scores, nan=0.0, posinf=0.0, neginf=0.0).int()))
# --8<-- [end:nan_to_int_cuda]
