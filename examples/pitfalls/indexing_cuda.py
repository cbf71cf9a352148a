"""Indexing and accumulation on the GPU: writes and additions at repeated indices. Needs a CUDA
device.

Run with `python examples/pitfalls/indexing_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:repeated_write_cuda]
import torch

torch.manual_seed(0)
b = torch.randint(0, 100, (10000,), device="cuda")  # 10000 writes into 100 places
a = torch.arange(10000, dtype=torch.float32, device="cuda")

c1, c2 = torch.zeros(100, device="cuda"), torch.zeros(100, device="cuda")
c1[b] = a
c2[b] = a
print(torch.equal(c1, c2))  # the same writes, twice: is the same value kept?
c1, c2 = torch.zeros(100, device="cuda"), torch.zeros(100, device="cuda")
c1[b] += a
c2[b] += a
print(torch.equal(c1, c2))


# Say which value to keep, or add them all: the GPU then gives what the CPU gives.
def keep_last(index, n):
    """For each of n places, the position of the last write to it."""
    order = torch.arange(len(index), device=index.device)
    return torch.zeros(n, dtype=torch.long, device=index.device).scatter_reduce(
        0, index, order, reduce="amax", include_self=False
    )


print(torch.equal(keep_last(b, 100).cpu(), keep_last(b.cpu(), 100)))
total = torch.zeros(100, device="cuda").index_put_((b,), a, accumulate=True)
print(torch.equal(total.cpu(), torch.zeros(100).index_put_((b.cpu(),), a.cpu(), accumulate=True)))
# --8<-- [end:repeated_write_cuda]

# --8<-- [start:accumulate_scalar_cuda]
index = torch.tensor([0, 0], device="cuda")
one = torch.tensor(1.0, device="cuda")  # a 0-dim value, added at each index
print(torch.zeros(3, device="cuda").index_put_((index,), one, accumulate=True))
print(torch.zeros(3, device="cuda").index_put_((index,), one.expand(2), accumulate=True))
# --8<-- [end:accumulate_scalar_cuda]
