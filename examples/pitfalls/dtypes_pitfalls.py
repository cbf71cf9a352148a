"""Dtypes and type promotion: results that change because of a dtype nobody asked for.

Each section runs code that raises nothing and prints a result readers did not expect,
then the fix's result.

Run with `python examples/pitfalls/dtypes_pitfalls.py`.
"""

# --8<-- [start:int_plus_bfloat16]
import torch

count = torch.tensor([257], dtype=torch.int32)
print(count + torch.zeros(1, dtype=torch.bfloat16))  # the result takes bfloat16
#> tensor([256.], dtype=torch.bfloat16)
print(count + torch.zeros(1, dtype=torch.float16))
#> tensor([257.], dtype=torch.float16)

# Convert the integers to float32 (or wider) before they meet the 16-bit tensor.
print(count.float() + torch.zeros(1, dtype=torch.bfloat16))
#> tensor([257.])
# --8<-- [end:int_plus_bfloat16]

# --8<-- [start:float_list_float32]
import numpy as np
import torch

stamps = [521468.6812365055, 521468.6812376976]  # Python floats: 64-bit
print(torch.tensor(stamps).dtype, torch.tensor(stamps).tolist())
#> torch.float32 [521468.6875, 521468.6875]
print(np.array(stamps).dtype, np.array(stamps).tolist())
#> float64 [521468.6812365055, 521468.6812376976]

# Ask for float64: the values keep every digit, as NumPy's do.
print(torch.tensor(stamps, dtype=torch.float64).tolist())
#> [521468.6812365055, 521468.6812376976]
# --8<-- [end:float_list_float32]

# --8<-- [start:float_into_int]
import numpy as np
import torch

weights = torch.tensor([0.25, 0.5, 0.75, 1.5])
target = torch.zeros(4, dtype=torch.long)
target[:] = weights  # the floats are cut to integers, the tensor stays int64
print(target)
#> tensor([0, 0, 0, 1])
array = np.zeros(4, dtype=np.int64)
array[:] = weights.numpy()  # NumPy truncates in the same way
print(array)
#> [0 0 0 1]

# Give the destination a floating dtype: the values arrive unchanged.
target = torch.zeros(4, dtype=torch.float32)
target[:] = weights
print(target)
#> tensor([0.2500, 0.5000, 0.7500, 1.5000])
# --8<-- [end:float_into_int]

# --8<-- [start:float_targets_long]
import numpy as np
import torch

y_train = np.array([-0.83, -0.12, 0.4, 0.97])  # regression targets between -1 and 1
print(torch.from_numpy(y_train).type(torch.LongTensor))  # every target becomes 0
#> tensor([0, 0, 0, 0])
print(torch.from_numpy(y_train).long(), torch.tensor([-1.7, 1.7]).long())  # towards zero
#> tensor([0, 0, 0, 0]) tensor([-1,  1])

# The fix: keep regression targets floating point, in the model's dtype, with an MSE-type loss.
targets = torch.from_numpy(y_train).float()
predictions = torch.tensor([-0.8, -0.1, 0.4, 0.9])
print(targets, torch.nn.functional.mse_loss(predictions, targets))
#> tensor([-0.8300, -0.1200,  0.4000,  0.9700]) tensor(0.0016)
# --8<-- [end:float_targets_long]

# --8<-- [start:tf_cast_truncates]
import numpy as np
import tensorflow as tf
import torch

x = tf.constant([3.7, -3.7, 2.5, -2.5, 0.5])
print(tf.cast(x, tf.int32).numpy())  # towards zero: 3.7 -> 3, -3.7 -> -3
#> [ 3 -3  2 -2  0]
print(np.array(x).astype(np.int32), torch.tensor(x.numpy()).int().numpy())  # NumPy and PyTorch alike
#> [ 3 -3  2 -2  0] [ 3 -3  2 -2  0]

# The fix: round first, then cast.
print(tf.cast(tf.round(x), tf.int32).numpy())  # to nearest, halves to even: 2.5 -> 2, 0.5 -> 0
#> [ 4 -4  2 -2  0]
print(tf.cast(tf.floor(x + 0.5), tf.int32).numpy())  # halves up: 2.5 -> 3, -2.5 -> -2
#> [ 4 -4  3 -2  1]
print(np.rint(np.array(x)).astype(np.int32), torch.round(torch.tensor(x.numpy())).int().numpy())
#> [ 4 -4  2 -2  0] [ 4 -4  2 -2  0]
# --8<-- [end:tf_cast_truncates]

# --8<-- [start:uint8_plus_int]
import warnings

import numpy as np
import torch

pixels = np.array([200, 10], dtype=np.uint8)
print(pixels + 128, torch.from_numpy(pixels) + 128)  # uint8 results, 328 wraps to 72
#> [ 72 138] tensor([ 72, 138], dtype=torch.uint8)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    one = np.uint8(200) + 128  # a NumPy scalar: the same result, with a warning
print(one, [w.category.__name__ for w in caught])
#> 72 ['RuntimeWarning']

offset = np.int64(128)  # a NumPy int64 scalar, from another computation
print(pixels + offset, torch.from_numpy(pixels) + offset)
#> [328 138] tensor([ 72, 138], dtype=torch.uint8)

# Widen before adding: int16 holds every sum of two uint8 values.
print(pixels.astype(np.int16) + 128, torch.from_numpy(pixels).to(torch.int16) + 128)
#> [328 138] tensor([328, 138], dtype=torch.int16)
# --8<-- [end:uint8_plus_int]

# --8<-- [start:float_plus_numpy_float32]
import numpy as np

total = 0.0  # a Python float, as an accumulator
total += np.float32(1.0)  # a value taken from a float32 array
total += 1e-8
print(type(total).__name__, total)  # NumPy 2: float32, and the 1e-8 is lost
#> float32 1.0

# The fix: convert the NumPy scalar with float() (or np.float64) before adding it.
total = 0.0
total += float(np.float32(1.0))
total += 1e-8
print(type(total).__name__, total)
#> float 1.00000001
print(0.0 + np.float64(np.float32(1.0)) + 1e-8)
#> 1.00000001
# --8<-- [end:float_plus_numpy_float32]

# --8<-- [start:negative_floor_division]
import warnings

import numpy as np
import tensorflow as tf
import torch

numerators = torch.tensor([1, -1, -7])
# Rounding towards zero (C's division, or a float quotient cut to an integer): -1 / 2 gives 0
print(torch.div(numerators, 2, rounding_mode="trunc"), (numerators / 2).long())
#> tensor([ 0,  0, -3]) tensor([ 0,  0, -3])

# // and floor_divide round down, as NumPy, Python and TensorFlow do: -1 // 2 is -1
print(numerators // 2, torch.floor_divide(numerators, 2))
#> tensor([ 0, -1, -4]) tensor([ 0, -1, -4])
print(np.floor_divide([1, -1, -7], 2), [1 // 2, -1 // 2, -7 // 2])
#> [ 0 -1 -4] [0, -1, -4]
print(tf.constant([1, -1, -7]) // 2)
#> tf.Tensor([ 0 -1 -4], shape=(3,), dtype=int32)
# / of integers is true division everywhere
print(numerators / 2, np.array([1, -1, -7]) / 2)
#> tensor([ 0.5000, -0.5000, -3.5000]) [ 0.5 -0.5 -3.5]
print(tf.constant([1, -1, -7]) / 2)
#> tf.Tensor([ 0.5 -0.5 -3.5], shape=(3,), dtype=float64)

# // on two int64 tensors: no __floordiv__ deprecation warning here
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    quotient = torch.tensor(3) // torch.tensor(2)
print(quotient, torch.div(torch.tensor(-3), 2, rounding_mode="floor"), len(caught))
#> tensor(1) tensor(-2) 0
# --8<-- [end:negative_floor_division]

# --8<-- [start:tf_reduce_mean_int]
import numpy as np
import tensorflow as tf

votes = tf.constant([1, 0, 1, 0])
print(tf.reduce_mean(votes), np.mean(votes.numpy()))  # int32 mean: 0.5 is cut to 0
#> tf.Tensor(0, shape=(), dtype=int32) 0.5
print(tf.reduce_mean(tf.constant([[1.0, 1.0], [2.0, 2.0]]), 1))  # the question's case: one mean per row
#> tf.Tensor([1. 2.], shape=(2,), dtype=float32)
scores = tf.constant([[1, 1], [2, 3]])
print(tf.reduce_mean(scores, axis=1))  # one mean per row: 2.5 is cut to 2
#> tf.Tensor([1 2], shape=(2,), dtype=int32)

# Cast to a floating dtype first: the means NumPy gives.
print(tf.reduce_mean(tf.cast(votes, tf.float32)))
#> tf.Tensor(0.5, shape=(), dtype=float32)
print(tf.reduce_mean(tf.cast(scores, tf.float32), axis=1))
#> tf.Tensor([1.  2.5], shape=(2,), dtype=float32)
# --8<-- [end:tf_reduce_mean_int]

# --8<-- [start:tf_reduce_mean_jit_overflow]
import tensorflow as tf

x = tf.constant([2**31 - 1, 2**31 - 1])  # positive int32 values whose sum passes 2**31 - 1
xla_mean = tf.function(tf.reduce_mean, jit_compile=True)
print(tf.reduce_mean(x).numpy(), xla_mean(x).numpy())  # eager, then XLA: a negative mean
#> 2147483647 -1
print(tf.function(tf.reduce_mean)(x).numpy())  # tf.function without XLA: as eager
#> 2147483647
print(tf.reduce_sum(x).numpy(), tf.function(tf.reduce_sum, jit_compile=True)(x).numpy())
#> -2 -2

# The fix: reduce in int64 (or float64); both modes then agree.
wide = tf.cast(x, tf.int64)
print(tf.reduce_mean(wide).numpy(), xla_mean(wide).numpy())
#> 2147483647 2147483647
print(xla_mean(tf.cast(x, tf.float64)).numpy())
#> 2147483647.0
# --8<-- [end:tf_reduce_mean_jit_overflow]

# --8<-- [start:tf_reduce_mean_uint8_count]
import numpy as np
import tensorflow as tf

pixels = tf.fill([256], tf.constant(3, tf.uint8))  # 256 elements: as a uint8, the count would be 0
print(tf.reduce_mean(pixels))  # no crash in the release run here; still a uint8 result
#> tf.Tensor(3, shape=(), dtype=uint8)
print(tf.reduce_sum(pixels), np.sum(pixels.numpy()))  # the uint8 sum wraps: 768 - 3 * 256 = 0
#> tf.Tensor(0, shape=(), dtype=uint8) 768
print(tf.reduce_mean(tf.constant([0, 1] * 128, tf.uint8)))  # a mean of 0.5 is cut to 0
#> tf.Tensor(0, shape=(), dtype=uint8)

# The fix: cast to float (or a wide integer for sums) before reducing.
as_float = tf.cast(pixels, tf.float32)
print(tf.reduce_mean(as_float), tf.reduce_sum(tf.cast(pixels, tf.int32)))
#> tf.Tensor(3.0, shape=(), dtype=float32) tf.Tensor(768, shape=(), dtype=int32)
# --8<-- [end:tf_reduce_mean_uint8_count]

# --8<-- [start:float_image_to_uint8]
import numpy as np
import torch

image = np.array([[0.0, 0.3], [0.7, 1.0]], dtype=np.float32)  # a float image in [0, 1]
print(image.astype(np.uint8))  # every pixel below 1.0 becomes 0: a black image
"""
[[0 0]
 [0 1]]
"""
print(torch.from_numpy(image).to(torch.uint8))
"""
tensor([[0, 0],
        [0, 1]], dtype=torch.uint8)
"""

# The fix: scale to 0-255, round and clip, then convert.
print((image * 255).round().clip(0, 255).astype(np.uint8))
"""
[[  0  76]
 [178 255]]
"""
print(torch.from_numpy(image).mul(255).round().clamp(0, 255).to(torch.uint8))
"""
tensor([[  0,  76],
        [178, 255]], dtype=torch.uint8)
"""
# --8<-- [end:float_image_to_uint8]

# --8<-- [start:float_above_255_to_uint8]
import numpy as np
import torch

values = np.linspace(0, 1028, 8)  # floats from 0 to 1028
print(values.round(1))
#> [   0.   146.9  293.7  440.6  587.4  734.3  881.1 1028. ]
print(values.astype(np.uint8))  # values above 255 wrap round instead of stopping at 255
#> [  0 146  37 184  75 222 113   4]
print(torch.from_numpy(values).to(torch.uint8))
#> tensor([  0, 146,  37, 184,  75, 222, 113,   4], dtype=torch.uint8)
print(np.array([-1.0, 300.0]).astype(np.uint8))  # negative values wrap too
#> [255  44]

# The fix: clip to 0-255 first, then convert.
print(values.clip(0, 255).astype(np.uint8))
#> [  0 146 255 255 255 255 255 255]
print(torch.from_numpy(values).clamp(0, 255).to(torch.uint8))
#> tensor([  0, 146, 255, 255, 255, 255, 255, 255], dtype=torch.uint8)
# --8<-- [end:float_above_255_to_uint8]

# --8<-- [start:int_above_255_to_uint8]
import numpy as np
import tensorflow as tf
import torch

counts = np.array([255, 256, 257, 300, -1])  # int64
print(counts.astype(np.uint8), np.array(counts, dtype=np.uint8))  # 256 becomes 0, no error
#> [255   0   1  44 255] [255   0   1  44 255]
print(torch.from_numpy(counts).to(torch.uint8))
#> tensor([255,   0,   1,  44, 255], dtype=torch.uint8)
print(tf.cast(counts, tf.uint8).numpy())
#> [255   0   1  44 255]
print([v % 256 for v in counts.tolist()])  # the low 8 bits: the value modulo 256
#> [255, 0, 1, 44, 255]

# The fix: clip first (tf.saturate_cast clips for you), or check the range and stop.
print(counts.clip(0, 255).astype(np.uint8), tf.saturate_cast(counts, tf.uint8).numpy())
#> [255 255 255 255   0] [255 255 255 255   0]
print(bool(counts.min() >= 0 and counts.max() <= 255))  # False: do not cast as is
#> False
# --8<-- [end:int_above_255_to_uint8]

# --8<-- [start:nan_to_int]
import warnings

import numpy as np
import torch

scores = torch.tensor([float("nan"), float("inf"), 2.7])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(scores.to(torch.int32))  # NaN and inf have no integer value: undefined results
    #> tensor([-2147483648, -2147483648,           2], dtype=torch.int32)
    print(scores.to(torch.int16), scores.to(torch.int64))  # other dtypes give other values
    """
    tensor([0, 0, 2], dtype=torch.int16) tensor([-9223372036854775808, -9223372036854775808,                    2])
    """
print(len(caught))  # PyTorch warns of nothing
#> 0
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(scores.numpy().astype(np.int32))  # NumPy gives the same, with a warning
    #> [-2147483648 -2147483648           2]
print([f"{w.category.__name__}: {w.message}" for w in caught])
#> ['RuntimeWarning: invalid value encountered in cast']

# The fix: replace NaN and inf with values you choose, then convert.
print(torch.nan_to_num(scores, nan=0.0, posinf=0.0, neginf=0.0).to(torch.int32))
#> tensor([0, 0, 2], dtype=torch.int32)
print(torch.where(scores.isfinite(), scores, -1.0).to(torch.int32))
#> tensor([-1, -1,  2], dtype=torch.int32)
# --8<-- [end:nan_to_int]
