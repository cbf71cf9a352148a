"""The same conversions in PyTorch, TensorFlow and NumPy, and DLPack between torch and TF.

Run with `python examples/tensorflow/torch_and_tensorflow.py`. The `#>` lines under
each print are the output the libraries printed when the site was built; the test
suite runs this script again and compares.
"""

# --8<-- [start:which_call]
import numpy as np
import tensorflow as tf
import torch

array = np.zeros(3, dtype=np.float32)
results = {
    "torch.from_numpy(a)": torch.from_numpy(array),
    "torch.as_tensor(a)": torch.as_tensor(array),
    "torch.as_tensor(a, dtype=torch.float64)": torch.as_tensor(array, dtype=torch.float64),
    "torch.tensor(a)": torch.tensor(array),
    "tf.convert_to_tensor(a)": tf.convert_to_tensor(array),
    "tf.constant(a)": tf.constant(array),
    "np.asarray(a)": np.asarray(array),
    "np.array(a)": np.array(array),
}
array[0] = 1.0  # write into the array after every conversion
for call, result in results.items():
    print(f"{call:<40}", "shares" if float(result[0]) == 1.0 else "copies")
    #> torch.from_numpy(a)                      shares
    #> torch.as_tensor(a)                       shares
    #> torch.as_tensor(a, dtype=torch.float64)  copies
    #> torch.tensor(a)                          copies
    #> tf.convert_to_tensor(a)                  copies
    #> tf.constant(a)                           copies
    #> np.asarray(a)                            shares
    #> np.array(a)                              copies
# --8<-- [end:which_call]

# --8<-- [start:from_array_torch]
import numpy as np
import torch

array = np.zeros(3, dtype=np.float32)
converted = torch.from_numpy(array)
array[0] = 1.0  # write into the array afterwards
print(converted)  # shared: the tensor sees it
#> tensor([1., 0., 0.])
# --8<-- [end:from_array_torch]
from_array_torch = converted  # each tab's result, kept for the check at the end (not shown)

# --8<-- [start:from_array_tf]
import numpy as np
import tensorflow as tf

array = np.zeros(3, dtype=np.float32)
converted = tf.constant(array)
array[0] = 1.0  # write into the array afterwards
print(converted.numpy())  # copied: the tensor does not see it
#> [0. 0. 0.]
# --8<-- [end:from_array_tf]
from_array_tf = converted

# --8<-- [start:from_array_numpy]
import numpy as np

array = np.zeros(3, dtype=np.float32)
converted = np.asarray(array)  # already an array: no copy
array[0] = 1.0
print(converted, converted is array)
#> [1. 0. 0.] True
# --8<-- [end:from_array_numpy]
from_array_numpy = converted

# --8<-- [start:to_array_torch]
tensor = torch.zeros(3)
result = tensor.numpy()
result[0] = 1.0
print(tensor)  # shared (CPU tensors only)
#> tensor([1., 0., 0.])
# --8<-- [end:to_array_torch]
to_array_torch = result

# --8<-- [start:to_array_tf]
tensor = tf.zeros(3)
result = tensor.numpy()
result[0] = 1.0
print(tensor.numpy())  # a copy: the tensor is unchanged
#> [0. 0. 0.]
# --8<-- [end:to_array_tf]
to_array_tf = result

# --8<-- [start:to_array_numpy]
original = np.zeros(3, dtype=np.float32)
result = np.array(original)  # np.array copies by default
result[0] = 1.0
print(original)
#> [0. 0. 0.]
# --8<-- [end:to_array_numpy]
to_array_numpy = result

# --8<-- [start:dtype_torch]
source = torch.zeros(2)
converted = source.to(torch.float64)  # a new tensor
source[0] = 1.0  # write into the source afterwards
print(converted)
#> tensor([0., 0.], dtype=torch.float64)
# --8<-- [end:dtype_torch]
dtype_torch = converted

# --8<-- [start:dtype_tf]
source = tf.zeros(2)
converted = tf.cast(source, tf.float64)  # a new tensor; neither can be written
print(converted)
#> tf.Tensor([0. 0.], shape=(2,), dtype=float64)
# --8<-- [end:dtype_tf]
dtype_tf = converted

# --8<-- [start:dtype_numpy]
source = np.zeros(2, dtype=np.float32)
converted = source.astype(np.float64)  # a new array
source[0] = 1.0  # write into the source afterwards
print(converted)
#> [0. 0.]
# --8<-- [end:dtype_numpy]
dtype_numpy = converted

# --8<-- [start:dlpack_torch_to_tf]
source = torch.arange(4.0)
shared = tf.experimental.dlpack.from_dlpack(torch.utils.dlpack.to_dlpack(source))
source[0] = 100.0  # change the torch tensor in place
print(shared.numpy())  # the TensorFlow tensor reads the same memory
#> [100.   1.   2.   3.]
print(torch.from_dlpack(shared).data_ptr() == source.data_ptr())  # and back: same address
#> True
# --8<-- [end:dlpack_torch_to_tf]

# --8<-- [start:dlpack_tf_to_torch]
constant = tf.constant([1.0, 2.0, 3.0])
view = torch.from_dlpack(constant)  # tf.Tensor supports the DLPack protocol
view[0] = -1.0  # writes into the "constant" TensorFlow tensor
print(constant.numpy())
#> [-1.  2.  3.]

constant = tf.constant([1.0, 2.0, 3.0])
copy = torch.from_dlpack(constant).clone()  # a torch copy: writes stay on the torch side
copy[0] = -1.0
print(copy, constant.numpy())  # the copy changed, the constant did not
#> tensor([-1.,  2.,  3.]) [1. 2. 3.]
# --8<-- [end:dlpack_tf_to_torch]

# --8<-- [start:dlpack_numpy]
source = torch.arange(3.0)
array = np.from_dlpack(source)  # NumPy takes a torch tensor without a copy
source[0] = 100.0
print(array)
#> [100.   1.   2.]

array = np.zeros(3, dtype=np.float32)
shared = tf.experimental.dlpack.from_dlpack(array.__dlpack__())  # and gives its memory to TF
array[0] = 5.0
print(shared.numpy())
#> [5. 0. 0.]
# --8<-- [end:dlpack_numpy]

# --8<-- [start:dlpack_foreign]
class Foreign:
    """An array from another library: DLPack and the sequence protocol, nothing else."""

    def __init__(self, data):
        self.data = data
        self.reads = 0  # elements read one at a time, through indexing

    def __dlpack__(self, **kwargs):
        return self.data.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.data.__dlpack_device__()

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        self.reads += 1
        return self.data[index]


foreign = Foreign(np.arange(1000, dtype=np.float32))
copied = torch.tensor(foreign)  # taken through DLPack: no element read on its own, then a copy
print(copied.shape, foreign.reads, np.shares_memory(copied.numpy(), foreign.data))
#> torch.Size([1000]) 0 False
shared = torch.from_dlpack(foreign)  # no copy: the same memory
also_shared = torch.as_tensor(foreign)
print(foreign.reads, np.shares_memory(shared.numpy(), foreign.data), np.shares_memory(also_shared.numpy(), foreign.data))
#> 0 True True


class SequenceOnly:
    """The sequence protocol and nothing else: no DLPack, no buffer protocol, no __array__."""

    def __init__(self, data):
        self.data = data
        self.item_calls = 0  # calls of __getitem__
        self.len_calls = 0  # calls of __len__

    def __len__(self):
        self.len_calls += 1
        return len(self.data)

    def __getitem__(self, index):
        self.item_calls += 1
        return self.data[index]


sequence = SequenceOnly(np.arange(1000, dtype=np.float32))
by_element = torch.tensor(sequence)  # the fallback: element by element, one Python call each time
print(sequence.item_calls, sequence.len_calls, torch.equal(by_element, copied))
#> 2002 3 True
# --8<-- [end:dlpack_foreign]

# --8<-- [start:bilinear_resize]
import inspect

import numpy as np
import tensorflow as tf
import torch
import torch.nn.functional as F

image = np.arange(1, 10, dtype=np.float32).reshape(3, 3)  # one 3 x 3 channel, upsampled to 6 x 6
nchw, nhwc = torch.from_numpy(image)[None, None], image[None, :, :, None]


def top_row(resized):  # the first output row, from (N, C, H, W) or (N, H, W, C)
    row = resized[0, 0, 0] if isinstance(resized, torch.Tensor) else resized[0, 0, :, 0]
    return np.asarray(row).round(4)


print(top_row(F.interpolate(nchw, size=(6, 6), mode="bilinear")))  # align_corners=False
#> [1.   1.25 1.75 2.25 2.75 3.  ]
print(top_row(tf.image.resize(nhwc, (6, 6), method="bilinear")))  # TF2: the same
#> [1.   1.25 1.75 2.25 2.75 3.  ]
print(top_row(tf.compat.v1.image.resize_bilinear(nhwc, (6, 6))))  # TF1's default: other values
#> [1.  1.5 2.  2.5 3.  3. ]
print(top_row(tf.compat.v1.image.resize_bilinear(nhwc, (6, 6), half_pixel_centers=True)))
#> [1.   1.25 1.75 2.25 2.75 3.  ]

print(top_row(F.interpolate(nchw, size=(6, 6), mode="bilinear", align_corners=True)))
#> [1.  1.4 1.8 2.2 2.6 3. ]
print(top_row(tf.compat.v1.image.resize_bilinear(nhwc, (6, 6), align_corners=True)))
#> [1.  1.4 1.8 2.2 2.6 3. ]

# tf.image.resize has no align_corners; antialias defaults to False in both libraries.
resize_args = inspect.signature(tf.image.resize).parameters
print("align_corners" in resize_args, resize_args["antialias"].default)
#> False False
print(inspect.signature(F.interpolate).parameters["antialias"].default)
#> False

# Downscaling 8 x 8 to 3 x 3: the two agree when both antialias, or neither does.
big = np.arange(64, dtype=np.float32).reshape(8, 8)
for antialias in (False, True):
    pt = F.interpolate(
        torch.from_numpy(big)[None, None], size=(3, 3), mode="bilinear", antialias=antialias
    )
    tf_ = tf.image.resize(big[None, :, :, None], (3, 3), antialias=antialias)
    print(antialias, top_row(pt), top_row(tf_))
    #> False [ 7.5    10.1667 12.8333] [ 7.5    10.1667 12.8333]
    #> True [ 9.9474 12.3421 14.7368] [ 9.9474 12.3421 14.7368]
# --8<-- [end:bilinear_resize]

# --8<-- [start:align_corners_warning]
import warnings

import torch
import torch.nn.functional as F

x = torch.arange(1.0, 10.0).reshape(1, 1, 3, 3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    F.interpolate(x, size=(6, 6), mode="bilinear")  # no align_corners given
    torch.nn.Upsample(size=(6, 6), mode="bilinear")(x)
    F.upsample(x, size=(6, 6), mode="bilinear")  # the old name
print([f"{w.category.__name__}: {w.message}" for w in caught])
#> ['UserWarning: `nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.']
# The two values give different pixels: keep the one the weights were trained with.
for corners in (False, True):
    print(corners, F.interpolate(x, size=(6, 6), mode="bilinear", align_corners=corners)[0, 0, 0])
    #> False tensor([1.0000, 1.2500, 1.7500, 2.2500, 2.7500, 3.0000])
    #> True tensor([1.0000, 1.4000, 1.8000, 2.2000, 2.6000, 3.0000])
# --8<-- [end:align_corners_warning]

# --8<-- [start:conv_channels_first]
import keras
import torch

torch.manual_seed(0)
tokens = torch.rand(2, 10, 16)  # (batch, length, hidden), as an embedding layer gives
conv = torch.nn.Conv1d(in_channels=16, out_channels=8, kernel_size=3)
try:
    conv(tokens)  # PyTorch reads axis 1 as the channels: 10, not 16
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Given groups=1, weight of size [8, 16, 3], expected input[2, 10, 16] to have 16 channels, but got 10 channels instead
    """
# The fix: move hidden to axis 1, and the output back; no contiguous() is needed.
out = conv(tokens.transpose(1, 2)).transpose(1, 2)
print(tokens.transpose(1, 2).is_contiguous(), out.shape)
#> False torch.Size([2, 8, 8])
print(torch.equal(conv(tokens.transpose(1, 2)), conv(tokens.transpose(1, 2).contiguous())))
#> True
# Keras takes (batch, length, hidden) as it is: data_format="channels_last" is its default.
print(keras.layers.Conv1D(8, 3).data_format, keras.layers.Conv1D(8, 3)(tokens.numpy()).shape)
#> channels_last (2, 8, 8)
# channels_last in PyTorch is a memory layout: the shape, and what Conv2d expects, stay N, C, H, W.
print(torch.rand(2, 3, 4, 5).to(memory_format=torch.channels_last).shape)
#> torch.Size([2, 3, 4, 5])
# --8<-- [end:conv_channels_first]

# --8<-- [start:align_corners_scale]
x = torch.arange(16, dtype=torch.float32).reshape(1, 1, 4, 4)  # a 4 x 4 image, values 0 to 15
up = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=True)
print(tuple(up.shape))  # floor(4 * 2) = 8 per side
#> (1, 1, 8, 8)
print(up[0, 0, 0].numpy().round(4))  # the first row: 0 to 3 spread over 8 points
#> [0.     0.4286 0.8571 1.2857 1.7143 2.1429 2.5714 3.    ]
print(torch.equal(up[0, 0, ::2, ::2], x[0, 0]))  # the input pixels are not every second output
#> False

fit = F.interpolate(x, size=(7, 7), mode="bilinear", align_corners=True)  # 2n - 1 = 7
print(fit[0, 0, 0].numpy().round(4))
#> [0.  0.5 1.  1.5 2.  2.5 3. ]
print(torch.equal(fit[0, 0, ::2, ::2], x[0, 0]))
#> True
# TensorFlow 1's resize_bilinear(align_corners=True) places them the same way at 7 x 7.
tf_fit = tf.compat.v1.image.resize_bilinear(x.permute(0, 2, 3, 1).numpy(), (7, 7), align_corners=True)
print(np.array_equal(tf_fit.numpy()[0, ::2, ::2, 0], x[0, 0].numpy()))
#> True
# --8<-- [end:align_corners_scale]

# Not shown on the page (README, "Framework tabs must agree"). Prints nothing.
def agrees(group, label, tab, expected, what="the NumPy tab's"):
    """Fails unless a tab's result has the shape, dtype and values of `expected`."""
    np.testing.assert_array_equal(
        np.asarray(tab),
        expected,
        strict=True,
        err_msg=f"{group}: the {label} tab's result differs from {what}",
    )


agrees("from an array", "PyTorch", from_array_torch, from_array_numpy)
agrees("to an array", "PyTorch", to_array_torch, to_array_numpy)
agrees("to an array", "TensorFlow", to_array_tf, to_array_numpy)
agrees("changing the dtype", "PyTorch", dtype_torch, dtype_numpy)
agrees("changing the dtype", "TensorFlow", dtype_tf, dtype_numpy)
# The difference the page explains: tf.constant copies the array, so the TensorFlow tab
# misses the write made after the conversion, which the other two tabs show.
before_the_write = np.zeros_like(from_array_numpy)
agrees("from an array", "TensorFlow", from_array_tf, before_the_write, "the array before the write")
assert not np.array_equal(from_array_tf, from_array_numpy), (
    "from an array: the TensorFlow tab's result is the NumPy tab's, "
    "but the page says tf.constant copies the array and misses the write"
)
