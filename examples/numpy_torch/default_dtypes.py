"""The dtype each library picks for Python floats and integers, side by side.

Run with `python examples/numpy_torch/default_dtypes.py`.
"""

# --8<-- [start:floats_torch]
import torch

values = torch.tensor([1.0, 2.0])
print(values.dtype)
#> torch.float32
# --8<-- [end:floats_torch]

# --8<-- [start:floats_tf]
import tensorflow as tf

values = tf.constant([1.0, 2.0])
print(values.dtype)
#> <dtype: 'float32'>
# --8<-- [end:floats_tf]

# --8<-- [start:floats_numpy]
import numpy as np

values = np.array([1.0, 2.0])
print(values.dtype)
#> float64
# --8<-- [end:floats_numpy]

# --8<-- [start:ints_torch]
values = torch.tensor([1, 2])
print(values.dtype)
#> torch.int64
# --8<-- [end:ints_torch]

# --8<-- [start:ints_tf]
values = tf.constant([1, 2])
print(values.dtype)
#> <dtype: 'int32'>
# --8<-- [end:ints_tf]

# --8<-- [start:ints_numpy]
values = np.array([1, 2])
print(values.dtype)
#> int64
# --8<-- [end:ints_numpy]
