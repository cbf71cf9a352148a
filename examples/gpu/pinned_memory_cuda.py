"""Pinned memory with a GPU: pin_memory(), copy speed, non_blocking and DataLoader.

Needs a CUDA device. Run with `python examples/gpu/pinned_memory_cuda.py` on a
machine with a GPU. It prints comparisons, not times, so that its output is the same
on every GPU.
"""
# requires: cuda

# --8<-- [start:pin]
import torch

pageable = torch.randn(64, 1024, 1024)  # 256 MiB of float32
pinned = pageable.pin_memory()  # a page-locked copy; the original is unchanged
print(pageable.is_pinned(), pinned.is_pinned(), pinned.data_ptr() != pageable.data_ptr())
#> False True True
# --8<-- [end:pin]

# --8<-- [start:copy_speed]
def copy_ms(host: torch.Tensor, repeats: int = 5) -> float:
    """Median milliseconds of one host-to-GPU copy, measured with CUDA events."""
    times = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        host.to("cuda")
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[repeats // 2]


copy_ms(pinned)  # warm-up
print("pinned copies faster:", copy_ms(pinned) < copy_ms(pageable))
#> pinned copies faster: True
# --8<-- [end:copy_speed]

# --8<-- [start:non_blocking]
import time

torch.cuda.synchronize()
start = time.perf_counter()
on_gpu = pinned.to("cuda", non_blocking=True)  # queued: the CPU goes on at once
queued = time.perf_counter() - start
torch.cuda.synchronize()
done = time.perf_counter() - start
print("non_blocking from pinned memory returned early:", queued < done / 10)
#> non_blocking from pinned memory returned early: True

start = time.perf_counter()
pageable.to("cuda", non_blocking=True)  # pageable: staged through a pinned buffer first
returned = time.perf_counter() - start
torch.cuda.synchronize()
print("non_blocking from pageable memory returned early:", returned < done / 10)
#> non_blocking from pageable memory returned early: False
# --8<-- [end:non_blocking]

# --8<-- [start:loader]
from torch.utils.data import DataLoader, TensorDataset

dataset = TensorDataset(torch.randn(8, 3), torch.arange(8))
loader = DataLoader(dataset, batch_size=4, pin_memory=True)
features, labels = next(iter(loader))
print(features.is_pinned(), features.device)  # pinned host memory, ready for the copy
#> True cpu
features = features.to("cuda", non_blocking=True)
print(features.device)
#> cuda:0
# --8<-- [end:loader]
