"""A dataset pinned in advance: the DataLoader's batches are new tensors, pinned again.

Needs a CUDA device. Run with `python examples/gpu/pinned_loader_cuda.py` on a machine with
a GPU. The part that runs on any machine is in pinned_memory.py.
"""
# requires: cuda

# --8<-- [start:prepinned]
import torch
from torch.utils.data import DataLoader, TensorDataset

data = torch.randn(64, 1024).pin_memory()  # the whole dataset, pinned in advance
print(data.is_pinned(), TensorDataset(data)[0][0].is_pinned())  # a sample is a view of it
(batch,) = next(iter(DataLoader(TensorDataset(data), batch_size=16)))
print(batch.is_pinned())  # collated into a new tensor, in pageable memory
(batch,) = next(iter(DataLoader(TensorDataset(data), batch_size=16, pin_memory=True)))
print(batch.is_pinned())  # pinned by the loader: a copy of every batch, again
print(data[0:16].is_pinned())  # a slice of the pinned tensor itself: no copy
on_gpu = data[0:16].to("cuda", non_blocking=True)
print(torch.equal(on_gpu.cpu(), data[0:16]))
# --8<-- [end:prepinned]
