"""Devices and GPU numerics: results that change with the device, and tensors left on one.

Each section runs code that raises nothing and prints a result readers did not expect,
then the fix's result. It runs on the CPU; where a GPU behaves differently, the matching
section of `examples/pitfalls/devices_cuda.py` runs the same code on a GPU, and the `meta`
device (shapes and dtypes, no data) stands in for a GPU where only the device matters.

Run with `python examples/pitfalls/devices_pitfalls.py`.
"""

# --8<-- [start:matmul_tf32]
import torch

a = torch.tensor([[0.83899, 0.54414, 3.3142e5], [-0.54414, 0.83899, 4.6909e6], [0.0, 0.0, 1.0]])
b = torch.tensor([[0.83899, -0.54414, 2.2745e6], [0.54414, 0.83899, -4.1160e6], [0.0, 0.0, 1.0]])
exact = (a.double() @ b.double())[0, 2].item()
print(round(exact, 4), abs((a @ b)[0, 2].item() - exact) < 0.2)  # float32 within 0.2 of float64
#> 22.5308 True


def as_tf32(x):  # a simulation on the CPU: round each float32 to TF32's 10 mantissa bits
    return ((x.view(torch.int32) + 0x1000) & ~0x1FFF).view(torch.float32)


print(as_tf32(a) @ as_tf32(b))  # the product of the rounded inputs
"""
tensor([[ 9.9957e-01,  0.0000e+00,  1.0780e+03],
        [ 0.0000e+00,  9.9957e-01, -9.1400e+02],
        [ 0.0000e+00,  0.0000e+00,  1.0000e+00]])
"""

# The default for float32 matrix products: full float32, no TF32.
print(torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32)
#> highest False
torch.set_float32_matmul_precision("highest")  # undo a "high" or "medium" set elsewhere
print(torch.get_float32_matmul_precision())
#> highest
# --8<-- [end:matmul_tf32]

# --8<-- [start:matmul_tf32_tf]
import numpy as np
import tensorflow as tf

a = np.array([[0.83899, 0.54414, 3.3142e5], [-0.54414, 0.83899, 4.6909e6], [0, 0, 1]], np.float32)
b = np.array([[0.83899, -0.54414, 2.2745e6], [0.54414, 0.83899, -4.1160e6], [0, 0, 1]], np.float32)


def tf32(x):  # the simulation of the PyTorch entry: round each float32 to 10 mantissa bits
    return tf.bitcast((tf.bitcast(x, tf.int32) + 0x1000) & ~0x1FFF, tf.float32)


with tf.device("/CPU:0"):
    print(abs(float(tf.linalg.matmul(a, b)[0, 2]) - 22.5308) < 0.2)  # the CPU: full float32
    #> True
    print(round(float(tf.linalg.matmul(tf32(a), tf32(b))[0, 2]), 1))  # simulated TF32 inputs
    #> 1078.0

# TensorFlow's default, unlike PyTorch's: TF32 allowed for float32 on the GPU.
print(tf.config.experimental.tensor_float_32_execution_enabled())
#> True
tf.config.experimental.enable_tensor_float_32_execution(False)  # the fix, before computing
print(tf.config.experimental.tensor_float_32_execution_enabled())
#> False
tf.config.experimental.enable_tensor_float_32_execution(True)
# --8<-- [end:matmul_tf32_tf]

# --8<-- [start:conv_tf32]
import torch
import torch.nn.functional as F

print(torch.backends.cudnn.allow_tf32)  # the default: cuDNN convolutions may use TF32
#> True

x = torch.randn(2, 8, 4, 4, generator=torch.Generator().manual_seed(0))
copy = torch.eye(8).reshape(8, 8, 1, 1)  # a 1x1 convolution that copies each channel
print(torch.equal(F.conv2d(x, copy), x))  # on the CPU, in float32: an exact copy
#> True


def as_tf32(x):  # a simulation on the CPU: round each float32 to TF32's 10 mantissa bits
    return ((x.view(torch.int32) + 0x1000) & ~0x1FFF).view(torch.float32)


print(f"{(F.conv2d(as_tf32(x), copy) - x).abs().max().item():.1e}")  # TF32 inputs
#> 8.3e-04

torch.backends.cudnn.allow_tf32 = False  # full float32 convolutions on the GPU too
print(torch.backends.cudnn.allow_tf32)
#> False
# --8<-- [end:conv_tf32]

# --8<-- [start:argmax_first]
import torch

t = torch.tensor([[0, 1, 1, 1], [1, 1, 0, 1], [0, 0, 0, 0]])  # where is the first 1?
print(t.argmax(dim=1))  # the last row has no 1, and still gets index 0
#> tensor([1, 0, 0])

# The smallest column index holding a 1, or the row length where there is none.
columns = torch.arange(t.shape[1]).expand_as(t)
print(torch.where(t == 1, columns, t.shape[1]).amin(dim=1))
#> tensor([1, 0, 4])

# A 2020 report: argmax over an axis of length 1 gave 32400 in some rows (PyTorch 1.5).
x = torch.full((40, 900, 1), 0.0)
print(x.argmax(dim=2).max(), x.numpy().argmax(axis=2).max())  # every index is 0
#> tensor(0) 0
# --8<-- [end:argmax_first]

# --8<-- [start:max_index_range]
import numpy as np
import torch

# A 2017 report: torch.max(t, 2) of a 4-D tensor gave indices beyond the size 5 of dim 2.
torch.manual_seed(0)
t = torch.randn(1, 26, 5, 25)
values, indices = torch.max(t, 2)
print(indices.shape, indices.max().item())
#> torch.Size([1, 26, 25]) 4

# 2-D to 6-D, every dim: indices in range, pointing at the maximum, as NumPy's.
wrong = []
for ndim in range(2, 7):
    t = torch.randn((3,) * (ndim - 2) + (5, 4))
    for dim in range(ndim):
        values, indices = t.max(dim)
        if not (
            indices.max() < t.shape[dim]
            and torch.equal(t.gather(dim, indices.unsqueeze(dim)).squeeze(dim), values)
            and np.array_equal(indices.numpy(), np.argmax(t.numpy(), axis=dim))
        ):
            wrong.append((ndim, dim))
print(wrong)
#> []
# --8<-- [end:max_index_range]

# --8<-- [start:round_half]
import numpy as np
import torch

x = torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5])
print(torch.round(x), np.round(x.numpy()))  # halves go to the even neighbour
#> tensor([ 0.,  2.,  2., -0., -2.]) [ 0.  2.  2. -0. -2.]

# Halves away from zero, when that is the rule you need: find the exact halves first.
half = (x - x.trunc()).abs() == 0.5
print(torch.where(half, x.trunc() + x.sign(), x.round()))
#> tensor([ 1.,  2.,  3., -1., -3.])
print(torch.floor(torch.tensor([-2.5, 0.49999997]) + 0.5))  # another rule, and a float32 trap
#> tensor([-2.,  1.])
# --8<-- [end:round_half]

# --8<-- [start:randn_on_cpu]
import torch

# Draw with a seeded CPU generator, then move the numbers to the GPU.
noise = torch.randn(1, 64, 2048, generator=torch.Generator().manual_seed(42))
print(noise[0, 0, :3])
#> tensor([1.9269, 1.4873, 0.9007])
again = torch.randn(1, 64, 2048, generator=torch.Generator().manual_seed(42))
print(torch.equal(noise, again))
#> True
device = "cpu"  # "cuda" on a machine with a GPU
print(torch.equal(noise.to(device).cpu(), again))
#> True
# --8<-- [end:randn_on_cpu]

# --8<-- [start:to_not_in_place]
import torch

batch = torch.ones(2, 3, device="meta")  # stands in for a batch on the GPU
t = torch.zeros(batch.shape[0])  # made from a shape: on the default device, the CPU
t.to(batch.device)  # returns a moved copy, and the copy is thrown away
print(t.device)
#> cpu

t = t.to(batch.device)  # keep the result
print(t.device, t.to(batch.device) is t)  # already there: to() returns t itself
#> meta True
print(torch.zeros(batch.shape[0], device=batch.device).device, batch.new_zeros(2).device)
#> meta meta

model = torch.nn.Linear(3, 1)
print(model.to("meta") is model, model.weight.device)  # Module.to moves the module itself
#> True meta
# --8<-- [end:to_not_in_place]

# --8<-- [start:default_device]
import torch

torch.set_default_device("meta")  # stands in for "cuda"
print(torch.zeros(2).device, torch.tensor([1.0]).device)
#> meta meta
print(torch.Tensor(2).device, torch.normal(0.0, 0.1, size=(2, 3)).device)
#> cpu cpu

# Read the default device itself, and pass it where a call does not follow it.
print(torch.get_default_device(), torch.empty(0).device)
#> meta meta
print(torch.normal(0.0, 0.1, size=(2, 3), device=torch.get_default_device()).device)
#> meta
torch.set_default_device(None)  # back to the CPU
print(torch.get_default_device())
#> cpu
# --8<-- [end:default_device]

# --8<-- [start:default_dtype]
import torch


def import_library():  # what the reported library did when it was imported
    torch.set_default_dtype(torch.float64)


import_library()
print(torch.tensor([0.1]).dtype, torch.randn(2).dtype, torch.nn.Linear(2, 2).weight.dtype)
#> torch.float64 torch.float64 torch.float64
print(torch.randn(1000).nbytes)  # 8 bytes per value
#> 8000
print(torch.get_default_dtype())  # check it after importing
#> torch.float64

torch.set_default_dtype(torch.float32)  # put the default back
print(torch.tensor([0.1]).dtype, torch.randn(2).dtype, torch.nn.Linear(2, 2).weight.dtype)
#> torch.float32 torch.float32 torch.float32
print(torch.randn(1000).nbytes)
#> 4000
# --8<-- [end:default_dtype]

# --8<-- [start:device_context]
import torch

with torch.device("meta"):  # stands in for torch.device("cuda:0")
    print(torch.zeros(2).device, torch.nn.Linear(2, 2).weight.device)
    #> meta meta
print(torch.zeros(2).device)  # outside the block: the CPU again
#> cpu
print(torch.device("cuda"), torch.device("cuda").index)  # no index: "the current GPU"
#> cuda None
# --8<-- [end:device_context]
