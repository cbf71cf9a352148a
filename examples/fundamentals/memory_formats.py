"""Memory formats: torch.channels_last and channels_last_3d, and NumPy's C and F order.

Run with `python examples/fundamentals/memory_formats.py`. The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares. No GPU needed.
"""

import os

# The profiler used below logs its own start and stop lines; this keeps them off the terminal.
os.environ.setdefault("KINETO_LOG_LEVEL", "9")

# --8<-- [start:two_layouts]
import torch

# One image, 3 channels of 2 x 2 pixels, indexed (N, C, H, W)
x = torch.arange(12.0).reshape(1, 3, 2, 2)
nhwc = x.to(memory_format=torch.channels_last)  # same shape, other strides
print(x.shape, x.stride())
#> torch.Size([1, 3, 2, 2]) (12, 4, 2, 1)
print(nhwc.shape, nhwc.stride())
#> torch.Size([1, 3, 2, 2]) (12, 1, 6, 3)
print(torch.equal(x, nhwc))  # the same values at the same indices
#> True

# Each one's memory in the order it lies:
print(x.as_strided((12,), (1,)))
#> tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11.])
print(nhwc.as_strided((12,), (1,)))  # each pixel's 3 channels side by side
#> tensor([ 0.,  4.,  8.,  1.,  5.,  9.,  2.,  6., 10.,  3.,  7., 11.])
# --8<-- [end:two_layouts]

# --8<-- [start:is_contiguous]
print(x.is_contiguous(), x.is_contiguous(memory_format=torch.channels_last))
#> True False
print(nhwc.is_contiguous(), nhwc.is_contiguous(memory_format=torch.channels_last))
#> False True
# With 1 x 1 pixels both layouts have the same strides, and both answers are True:
dot = torch.zeros(2, 3, 1, 1)
print(dot.is_contiguous(), dot.is_contiguous(memory_format=torch.channels_last))
#> True True
# --8<-- [end:is_contiguous]

# --8<-- [start:copies]
images = torch.arange(48.0).reshape(2, 3, 2, 4)  # (N, C, H, W), contiguous

moved = images.permute(0, 2, 3, 1)  # (N, H, W, C): a view, the strides reordered
print(moved.shape, moved.stride(), moved.data_ptr() == images.data_ptr())
#> torch.Size([2, 2, 4, 3]) (24, 4, 1, 8) True

cl = images.to(memory_format=torch.channels_last)  # same shape, data rearranged
print(cl.shape, cl.stride(), cl.data_ptr() == images.data_ptr())
#> torch.Size([2, 3, 2, 4]) (24, 1, 12, 3) False
# Already in that format: to() and contiguous(memory_format=...) return it as it is
print(cl.to(memory_format=torch.channels_last) is cl, cl.contiguous(memory_format=torch.channels_last) is cl)
#> True True

back = cl.contiguous()  # contiguous() means torch.contiguous_format: a copy
print(back.stride(), back.data_ptr() == cl.data_ptr())
#> (24, 8, 4, 1) False

# channels_last is the (N, H, W, C) layout seen through (N, C, H, W) indices:
nhwc_copy = moved.contiguous()  # a contiguous (N, H, W, C) copy
seen_as_nchw = nhwc_copy.permute(0, 3, 1, 2)
print(seen_as_nchw.stride(), seen_as_nchw.is_contiguous(memory_format=torch.channels_last))
#> (24, 1, 12, 3) True
print(torch.equal(seen_as_nchw, images))
#> True

# Not contiguous, so view() refuses to flatten each image, and reshape() copies:
try:
    cl.view(2, -1)
except RuntimeError as err:
    print(type(err).__name__)
    #> RuntimeError
print(cl.reshape(2, -1).data_ptr() == cl.data_ptr())
#> False
# --8<-- [end:copies]

# --8<-- [start:propagation]
import torch.nn as nn

torch.manual_seed(0)
batch = torch.rand(2, 3, 8, 8)
batch_cl = batch.to(memory_format=torch.channels_last)
conv = nn.Conv2d(3, 4, kernel_size=3, padding=1)


def fmt(t):
    """The memory format a 4-D tensor is in, by name."""
    if t.is_contiguous():
        return "contiguous_format"
    return "channels_last" if t.is_contiguous(memory_format=torch.channels_last) else "other"


# Element-wise operations keep their input's layout:
print(fmt(batch_cl * 2), fmt(torch.relu(batch_cl)))
#> channels_last channels_last
# With one operand in each format, the result here follows the first one:
print(fmt(batch_cl + batch), fmt(batch + batch_cl))
#> channels_last contiguous_format
# Conv2d on the CPU: channels_last in, channels_last out, the same values
print(fmt(conv(batch)), fmt(conv(batch_cl)))
#> contiguous_format channels_last
print(torch.allclose(conv(batch), conv(batch_cl), atol=1e-6))
#> True
# A Conv2d whose weight is channels_last makes a channels_last output even from a contiguous input:
conv_cl = nn.Conv2d(3, 4, kernel_size=3, padding=1).to(memory_format=torch.channels_last)
print(fmt(conv_cl.weight), fmt(conv_cl(batch)))
#> channels_last channels_last
print(fmt(nn.BatchNorm2d(3)(batch_cl)), fmt(nn.MaxPool2d(2)(batch_cl)))
#> channels_last channels_last
# Some operations along the channel axis return the default layout:
print(fmt(batch_cl.softmax(dim=1)), fmt(batch_cl.cumsum(dim=1)))
#> contiguous_format contiguous_format
# --8<-- [end:propagation]

# --8<-- [start:losing_format]
import warnings

import torch.nn.functional as F
from torch.utils.data import DataLoader

small = torch.rand(2, 4, 8, 8).to(memory_format=torch.channels_last)
# These keep channels_last:
print(fmt(nn.GroupNorm(2, 4)(small)), fmt(F.interpolate(small, scale_factor=2)), fmt(torch.cat([small, small], dim=1)))
#> channels_last channels_last channels_last
# These return the default format, without a warning:
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(fmt(nn.LayerNorm([4, 8, 8])(small)), fmt(nn.InstanceNorm2d(4)(small)))
    #> contiguous_format contiguous_format
print(len(caught))
#> 0
# A tensor with one channel is in both formats at once, so fmt (contiguous first) cannot tell:
# PixelShuffle(2) turns these 4 channels into 1, and 8 channels into 2, kept channels_last.
one = nn.PixelShuffle(2)(small)
print(one.shape[1], one.is_contiguous(), one.is_contiguous(memory_format=torch.channels_last))
#> 1 True True
print(fmt(nn.PixelShuffle(2)(torch.cat([small, small], dim=1))))
#> channels_last
# Some channels of a channels_last tensor are in neither format:
print(fmt(small[:, :2]), small[:, :2].stride())
#> other (256, 1, 32, 4)
# A DataLoader stacks single (C, H, W) images into a batch in the default format:
images = [torch.rand(3, 8, 8) for _ in range(4)]
print(fmt(next(iter(DataLoader(images, batch_size=4)))))
#> contiguous_format
# A channels_last model with such a layer inside: the next convolution turns the format back
net = nn.Sequential(nn.Conv2d(4, 4, 3, padding=1), nn.InstanceNorm2d(4), nn.Conv2d(4, 4, 3, padding=1))
net = net.to(memory_format=torch.channels_last)
print(fmt(net[:2](small)), fmt(net(small)))
#> contiguous_format channels_last
# --8<-- [end:losing_format]

# --8<-- [start:mixed_copies]
import copy

from torch.profiler import ProfilerActivity, profile


def operations(module, inputs):
    """The names of the operations one call of `module` runs, sorted."""
    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU], record_shapes=False) as prof:
        module(inputs)
    return sorted({event.key for event in prof.key_averages()})


def copied(module, inputs, calls=1):
    """The shape of each tensor that `calls` calls of `module` copy (`aten::clone`)."""
    with torch.no_grad(), profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        for _ in range(calls):
            module(inputs)
    return [event.input_shapes[0] for event in prof.events() if event.name == "aten::clone"]


layer = nn.Conv2d(16, 16, 3, padding=1)
layer_cl = copy.deepcopy(layer).to(memory_format=torch.channels_last)
inputs = torch.rand(8, 16, 32, 32)
inputs_cl = inputs.to(memory_format=torch.channels_last)
print(operations(layer_cl, inputs_cl))  # both channels_last: no copy
"""
['aten::_convolution', 'aten::conv2d', 'aten::convolution', 'aten::empty', 'aten::mkldnn_convolution', 'aten::resize_']
"""
# A channels_last layer given a contiguous input runs four more operations, a copy among them:
print(sorted(set(operations(layer_cl, inputs)) - set(operations(layer_cl, inputs_cl))))
#> ['aten::clone', 'aten::contiguous', 'aten::copy_', 'aten::empty_like']
print(copied(layer_cl, inputs, calls=2), copied(layer_cl, inputs_cl, calls=2))  # the input, each call
#> [[8, 16, 32, 32], [8, 16, 32, 32]] []
# A contiguous layer given a channels_last input copies its weight instead:
print(copied(layer, inputs_cl), copied(layer, inputs))
#> [[16, 16, 3, 3]] []
# The model above: InstanceNorm2d copies into the default format, the next convolution back
print(copied(net[1], small), copied(net[2], net[:2](small)), copied(net, small))
#> [[2, 4, 8, 8]] [[2, 4, 8, 8]] [[2, 4, 8, 8], [2, 4, 8, 8]]
# --8<-- [end:mixed_copies]

# --8<-- [start:channels_last_3d]
volume = torch.zeros(1, 3, 4, 5, 6)  # (N, C, D, H, W)
volume_cl = volume.to(memory_format=torch.channels_last_3d)
print(volume.stride(), volume_cl.stride())
#> (360, 120, 30, 6, 1) (360, 1, 90, 18, 3)
print(volume_cl.is_contiguous(memory_format=torch.channels_last_3d))
#> True
print(volume_cl.is_contiguous(memory_format=torch.channels_last))  # that one is 4-D only
#> False
# --8<-- [end:channels_last_3d]

# --8<-- [start:numpy_order]
import numpy as np

a = np.arange(6, dtype=np.float32).reshape(2, 3)  # C order: row after row
print(a.strides, a.itemsize)  # in bytes: 4 bytes per float32
#> (12, 4) 4
print(torch.from_numpy(a).stride())  # the same layout, counted in elements
#> (3, 1)
print(a.flags.c_contiguous, a.flags.f_contiguous)
#> True False

f = np.array(a, order="F")  # the same values, column after column
print(np.array_equal(f, a), f.strides, f.flags.c_contiguous, f.flags.f_contiguous)
#> True (4, 8) False True
print(a.ravel(order="K"), f.ravel(order="K"))  # the elements in memory order
#> [0. 1. 2. 3. 4. 5.] [0. 3. 1. 4. 2. 5.]

# The transpose of a C-ordered array is F-ordered, without a copy:
print(a.T.flags.f_contiguous, np.shares_memory(a.T, a))
#> True True
# --8<-- [end:numpy_order]

# --8<-- [start:numpy_convert]
# np.asfortranarray and np.ascontiguousarray copy only when the order must change:
print(np.shares_memory(np.asfortranarray(a), a), np.shares_memory(np.asfortranarray(f), f))
#> False True
print(np.shares_memory(np.ascontiguousarray(f), f), np.ascontiguousarray(f).strides)
#> False (12, 4)

# order= in reshape is the order to read and fill elements in, not only a layout:
print(np.arange(6).reshape((2, 3), order="F"))
"""
[[0 2 4]
 [1 3 5]]
"""
# --8<-- [end:numpy_convert]

# --8<-- [start:reshape_order_f]
try:
    torch.arange(6).reshape(2, 3, order="F")
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: reshape() got an unexpected keyword argument 'order'

# To fill a matrix column by column, fill the transposed shape row by row, then transpose:
print(torch.arange(6).reshape(3, 2).T)
"""
tensor([[0, 2, 4],
        [1, 3, 5]])
"""


def reshape_f(x, shape):
    """np.reshape(x, shape, order="F") for a tensor: reverse the axes, reshape, reverse back."""
    x = x.permute(*reversed(range(x.ndim)))
    y = x.reshape(tuple(reversed(shape)))
    return y.permute(*reversed(range(y.ndim)))


b = np.arange(24).reshape(4, 6)
print(np.array_equal(reshape_f(torch.from_numpy(b), (2, 3, 4)).numpy(), b.reshape((2, 3, 4), order="F")))
#> True
m = reshape_f(torch.arange(6), (2, 3))
print(m.stride(), m.is_contiguous())  # F order: contiguous() if needed
#> (1, 2) False
# --8<-- [end:reshape_order_f]

# --8<-- [start:numpy_torch]
# torch.from_numpy keeps an F-ordered array's strides, and its memory:
t = torch.from_numpy(f)
print(t.stride(), t.is_contiguous(), t.data_ptr() == f.ctypes.data)
#> (1, 2) False True
print(t.contiguous().stride())  # a C-ordered copy, when an operation needs one
#> (3, 1)

# A channels_last tensor seen from NumPy: shape (N, C, H, W), strides in bytes
arr = cl.numpy()
print(arr.shape, arr.strides, arr.flags.c_contiguous, arr.flags.f_contiguous)
#> (2, 3, 2, 4) (96, 4, 48, 12) False False
print(arr.ctypes.data == cl.data_ptr())
#> True
# Permuted to (N, H, W, C), the same memory is an ordinary C-ordered array:
hwc = cl.permute(0, 2, 3, 1).numpy()
print(hwc.shape, hwc.strides, hwc.flags.c_contiguous, np.shares_memory(hwc, arr))
#> (2, 2, 4, 3) (96, 48, 12, 4) True True
# --8<-- [end:numpy_torch]

# --8<-- [start:what_to_do]
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
model = model.to(memory_format=torch.channels_last)  # once: converts the 4-D weights
print(fmt(model[0].weight), model[1].weight.shape)  # BatchNorm2d's 1-D weight has no format
#> channels_last torch.Size([8])
print(nn.Linear(4, 2).to(memory_format=torch.channels_last).weight.stride())  # 2-D: unchanged
#> (4, 1)
for batch in DataLoader(images, batch_size=2):
    batch = batch.to(memory_format=torch.channels_last)  # each batch, after the DataLoader
    print(fmt(model(batch)), copied(model, batch))  # channels_last out, no copy inside
    #> channels_last []
    #> channels_last []
# --8<-- [end:what_to_do]

# --8<-- [start:pretrained_nhwc]
torch.manual_seed(0)
state = nn.Conv2d(3, 4, 5).state_dict()  # stands for pretrained weights: (out, in, kH, kW)
nhwc_weights = dict(state, weight=state["weight"].permute(0, 2, 3, 1))  # (out, kH, kW, in)
try:
    nn.Conv2d(3, 4, 5).load_state_dict(nhwc_weights)
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).expandtabs(4)}")
    """
    RuntimeError: Error(s) in loading state_dict for Conv2d:
        size mismatch for weight: copying a param with shape torch.Size([4, 5, 5, 3]) from checkpoint, the shape in current model is torch.Size([4, 3, 5, 5]).
    """

# The fix: load the weights as they are, then change only their layout in memory.
conv = nn.Conv2d(3, 4, 5)
conv.load_state_dict(state)
x = torch.randn(1, 3, 6, 6)
expected = conv(x)
conv = conv.to(memory_format=torch.channels_last)
print(conv.weight.shape, conv.weight.stride(), fmt(conv.weight))
#> torch.Size([4, 3, 5, 5]) (75, 1, 15, 3) channels_last
out = conv(x.to(memory_format=torch.channels_last))
print(out.shape, fmt(out), torch.allclose(out, expected))  # the same output
#> torch.Size([1, 4, 2, 2]) channels_last True
# --8<-- [end:pretrained_nhwc]
