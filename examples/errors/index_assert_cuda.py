"""An index out of bounds on a GPU: the kernel's assertion is reported by a later call.
Needs a CUDA device. The assertion leaves the process's CUDA context unusable, and the GPU
run executes every CUDA example in one process, so the suite does not run this script.

Run with `python examples/errors/index_assert_cuda.py` on a machine with a GPU.
"""
# not-run: the device-side assert would leave CUDA unusable for every later example in the GPU run's process

# --8<-- [start:index_assert]
import torch

x = torch.arange(3.0, device="cuda")
index = torch.tensor([0, 5], device="cuda")  # 5 is out of bounds for size 3
y = x[index]  # queued on the GPU: no error on this line
print("after x[index]")
try:
    torch.cuda.synchronize()  # the first call that waits for the GPU reports it
except RuntimeError as err:  # recent releases raise torch.AcceleratorError, a RuntimeError
    print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
# --8<-- [end:index_assert]
