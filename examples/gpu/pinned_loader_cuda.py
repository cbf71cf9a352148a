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

# --8<-- [start:loader_vs_manual]
import torch
from torch.utils.data import DataLoader, TensorDataset


def copy_ms(host: torch.Tensor, repeats: int = 5) -> float:
    """Median milliseconds of one host-to-GPU copy, measured with CUDA events."""
    times = []
    for _ in range(repeats):
        torch.cuda.synchronize()  # nothing queued before the copy is timed with it
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        host.to("cuda")
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[repeats // 2]


data = torch.randn(64, 3, 224, 224)  # one batch of 64 images, 38.5 MB
from_loader = next(iter(DataLoader(TensorDataset(data), batch_size=64, pin_memory=True)))[0]
by_hand = next(iter(DataLoader(TensorDataset(data), batch_size=64)))[0].pin_memory()
print(from_loader.is_pinned(), by_hand.is_pinned())
copy_ms(by_hand)  # warm-up
loader_ms, hand_ms, pageable_ms = copy_ms(from_loader), copy_ms(by_hand), copy_ms(data)
print("neither copy takes 1.5 times the other:", max(loader_ms, hand_ms) < 1.5 * min(loader_ms, hand_ms))
print("both faster than pageable:", max(loader_ms, hand_ms) < pageable_ms)
# --8<-- [end:loader_vs_manual]
