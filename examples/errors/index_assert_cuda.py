"""An index out of bounds on a GPU: the kernel's assertion is reported by a later call.
Needs a CUDA device. The assertion leaves the process's CUDA context unusable, so this
script holds nothing else.

Run with `python examples/errors/index_assert_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:index_assert]
import torch

x = torch.arange(3.0, device="cuda")
index = torch.tensor([0, 5], device="cuda")  # 5 is out of bounds for size 3
y = x[index]  # queued on the GPU: no error on this line
print("after x[index]")
try:
    torch.cuda.synchronize()  # the first call that waits for the GPU reports it
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
# --8<-- [end:index_assert]
