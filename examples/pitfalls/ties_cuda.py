"""Order and ties on the GPU: sums whose order of addition changes from run to run.
Needs a CUDA device.

Run with `python examples/pitfalls/ties_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:gpu_sums]
import torch

torch.manual_seed(0)
values = torch.randn(1_000_000, device="cuda")
index = torch.randint(0, 10, (1_000_000,), device="cuda")  # many values per place


def ten_runs():
    return [torch.zeros(10, device="cuda").index_add_(0, index, values) for _ in range(10)]


sums = ten_runs()  # the same inputs, ten times
print(all(torch.equal(sums[0], other) for other in sums[1:]))

# The fix: deterministic algorithms add in a fixed order.
torch.use_deterministic_algorithms(True)
sums = ten_runs()
print(all(torch.equal(sums[0], other) for other in sums[1:]))
torch.use_deterministic_algorithms(False)
# --8<-- [end:gpu_sums]
