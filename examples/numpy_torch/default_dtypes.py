"""The dtype each library picks for Python floats and integers, side by side.

Run with `python examples/numpy_torch/default_dtypes.py`.
"""

# --8<-- [start:floats_torch]
import torch

values = torch.tensor([1.0, 2.0])
print(values.dtype)
#> torch.float32
# --8<-- [end:floats_torch]
floats_torch = values  # each tab's result, kept for the check at the end (not shown)

# --8<-- [start:floats_tf]
import tensorflow as tf

values = tf.constant([1.0, 2.0])
print(values.dtype)
#> <dtype: 'float32'>
# --8<-- [end:floats_tf]
floats_tf = values

# --8<-- [start:floats_numpy]
import numpy as np

values = np.array([1.0, 2.0])
print(values.dtype)
#> float64
# --8<-- [end:floats_numpy]
floats_numpy = values

# --8<-- [start:ints_torch]
values = torch.tensor([1, 2])
print(values.dtype)
#> torch.int64
# --8<-- [end:ints_torch]
ints_torch = values

# --8<-- [start:ints_tf]
values = tf.constant([1, 2])
print(values.dtype)
#> <dtype: 'int32'>
# --8<-- [end:ints_tf]
ints_tf = values

# --8<-- [start:ints_numpy]
values = np.array([1, 2])
print(values.dtype)
#> int64
# --8<-- [end:ints_numpy]
ints_numpy = values

# --8<-- [start:tf_int32_overflow]
# tf.constant makes Python integers int32, whose largest value is 2147483647.
print(tf.pow(tf.constant(50), tf.constant(6)))  # 50**6 = 15625000000
#> tf.Tensor(-1554869184, shape=(), dtype=int32)
print(tf.constant(100000) * 100000)
#> tf.Tensor(1410065408, shape=(), dtype=int32)
# Ask for int64 when the results can grow that large.
print(tf.pow(tf.constant(50, dtype=tf.int64), tf.constant(6, dtype=tf.int64)))
#> tf.Tensor(15625000000, shape=(), dtype=int64)
print(torch.tensor(50) ** 6)  # PyTorch's integers are int64 already
#> tensor(15625000000)
# --8<-- [end:tf_int32_overflow]

# Not shown on the page (README, "Framework tabs must agree"): the tabs of each group hold the
# same values, with the dtypes the page gives: NumPy's floats are float64, TensorFlow's
# integers int32. Prints nothing.
for group, tabs in {
    "floats": {
        "PyTorch": (floats_torch, torch.float32),
        "TensorFlow": (floats_tf, tf.float32),
        "NumPy": (floats_numpy, np.dtype("float64")),
    },
    "ints": {
        "PyTorch": (ints_torch, torch.int64),
        "TensorFlow": (ints_tf, tf.int32),
        "NumPy": (ints_numpy, np.dtype("int64")),
    },
}.items():
    for label, (tab, dtype) in tabs.items():
        assert tab.dtype == dtype, (
            f"{group}: the {label} tab gives {tab.dtype}; the page says {dtype}"
        )
        np.testing.assert_allclose(
            np.asarray(tab),
            tabs["NumPy"][0],
            err_msg=f"{group}: the {label} tab's values differ from the NumPy tab's",
        )
