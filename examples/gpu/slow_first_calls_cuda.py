"""Why the first calls are slow on a GPU: CUDA start-up, cuDNN autotuning, torch.compile.

Needs a CUDA device. Run with `python examples/gpu/slow_first_calls_cuda.py` on a machine
with a GPU, in a fresh process (the first section times the process's first CUDA call).
It prints comparisons, not times, so that its output is the same on every GPU.
"""
# requires: cuda

# --8<-- [start:first_call]
import time

import torch


def seconds(action) -> float:
    """Wall-clock seconds of `action()`, with the GPU synchronised at both ends."""
    if torch.cuda.is_initialized():
        torch.cuda.synchronize()
    start = time.perf_counter()
    action()
    torch.cuda.synchronize()
    return time.perf_counter() - start


print("CUDA initialised before the first call:", torch.cuda.is_initialized())
first = seconds(lambda: torch.zeros(1, device="cuda"))  # creates the CUDA context
second = seconds(lambda: torch.zeros(1, device="cuda"))
print("CUDA initialised after it:", torch.cuda.is_initialized())
print("first CUDA call over 10x slower than the second:", first > 10 * second)
# --8<-- [end:first_call]

# --8<-- [start:cudnn]
conv = torch.nn.Conv2d(64, 64, 3, padding=1).cuda()
torch.backends.cudnn.benchmark = True


def conv_seconds(height: int) -> float:
    x = torch.randn(16, 64, height, height, device="cuda")
    with torch.no_grad():
        return seconds(lambda: conv(x))


conv_seconds(48)  # the process's first convolution: cuDNN start-up, not counted below
new_shape = conv_seconds(64)  # autotuned: several algorithms are tried
same_shape = conv_seconds(64)  # the choice for this shape is reused
other_shape = conv_seconds(80)  # a new shape is autotuned again
other_again = conv_seconds(80)
print("first call with a shape slower than the next:", new_shape > same_shape)
print("a new shape pays the autotuning again:", other_shape > other_again)
torch.backends.cudnn.benchmark = False
# --8<-- [end:cudnn]

# --8<-- [start:compile]
model = torch.nn.Sequential(
    torch.nn.Conv2d(3, 32, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.LazyLinear(10)
).cuda()
x = torch.randn(8, 3, 64, 64, device="cuda")
with torch.no_grad():
    model(x)  # eager warm-up (and the lazy layer's shape)
    compiled = torch.compile(model)
    first_compiled = seconds(lambda: compiled(x))  # includes the compilation
    later_compiled = seconds(lambda: compiled(x))
    eager = seconds(lambda: model(x))
print("first compiled call over 100x slower than eager:", first_compiled > 100 * eager)
print("first compiled call over 100x slower than later ones:", first_compiled > 100 * later_compiled)
# --8<-- [end:compile]
