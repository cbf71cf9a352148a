"""Memory formats: torch.channels_last and channels_last_3d, and NumPy's C and F order.

Run with `python examples/fundamentals/memory_formats.py`. The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares. No GPU needed.
"""

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
