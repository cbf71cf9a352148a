"""TensorFlow's NumPy behaviour: tf.experimental.numpy.experimental_enable_numpy_behavior adds
NumPy methods to tf.Tensor and switches its operators to NumPy's type promotion.

Run with `python examples/tensorflow/numpy_behavior.py`. The call changes TensorFlow for the
whole process and cannot be undone, so the test suite runs this script in a process of its own
(the launch line below); the `#>` lines under each print are what it printed there.
"""
# launch: python 1

# --8<-- [start:no_reshape]
import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

x = tf.constant([[1, 2, 3], [4, 5, 6]])
try:
    x.reshape(3, 2)
except AttributeError as err:
    print(f"{type(err).__name__}:", "\n".join(line.strip() for line in str(err).strip().splitlines()))
    """
    AttributeError: EagerTensor object has no attribute 'reshape'.
    If you are looking for numpy-related methods, please run the following:
    tf.experimental.numpy.experimental_enable_numpy_behavior()
    """

# Without NumPy behaviour: TensorFlow's functions, or tnp's
print(tf.reshape(x, [3, 2]).shape, tnp.reshape(x, [3, 2]).shape)
#> (3, 2) (3, 2)
print(tnp.transpose(tnp.tile(x, [1, 2])).shape)
#> (6, 2)
# --8<-- [end:no_reshape]

# --8<-- [start:enable]
import inspect

print(hasattr(x, "reshape"), hasattr(x, "T"), hasattr(x, "astype"))
#> False False False
print(inspect.signature(tnp.experimental_enable_numpy_behavior))
#> (prefer_float32=False, dtype_conversion_mode='legacy')

tnp.experimental_enable_numpy_behavior()  # for the whole process, for good
print([name for name in dir(tnp) if "numpy_behavior" in name])  # no function to turn it off
#> ['experimental_enable_numpy_behavior']
print(hasattr(x, "reshape"), hasattr(x, "T"), hasattr(x, "astype"))
#> True True True
# --8<-- [end:enable]

# --8<-- [start:methods]
print(x.reshape(3, 2))
"""
tf.Tensor(
[[1 2]
 [3 4]
 [5 6]], shape=(3, 2), dtype=int32)
"""
print(x.T)
"""
tf.Tensor(
[[1 4]
 [2 5]
 [3 6]], shape=(3, 2), dtype=int32)
"""
print(x.astype(np.float16).dtype, x.ravel(), x.ndim, x.size)
#> <dtype: 'float16'> tf.Tensor([1 2 3 4 5 6], shape=(6,), dtype=int32) 2 6
print(x[:, [0, 2]])  # NumPy indexing: a list of columns
"""
tf.Tensor(
[[1 3]
 [4 6]], shape=(2, 2), dtype=int32)
"""
print(x[x > 2])  # and a boolean mask
#> tf.Tensor([3 4 5 6], shape=(4,), dtype=int32)
# --8<-- [end:methods]

# --8<-- [start:promotion]
i32 = tf.constant([1, 2], dtype=tf.int32)
f32 = tf.constant([0.5, 1.5], dtype=tf.float32)
print((i32 + f32).dtype, np.result_type(np.int32, np.float32))
#> <dtype: 'float64'> float64
i8, u8 = tf.ones([1], tf.int8), tf.ones([1], tf.uint8)
print((i8 + u8).dtype, np.result_type(np.int8, np.uint8))
#> <dtype: 'int16'> int16
print((f32 + tf.ones([1], tf.float64)).dtype)
#> <dtype: 'float64'>
print((i32 + 1.5).dtype, (f32 + 1.5).dtype)
#> <dtype: 'float64'> <dtype: 'float32'>
print(tf.constant(1.5).dtype, tnp.asarray(1.5).dtype)
#> <dtype: 'float32'> <dtype: 'float64'>
# --8<-- [end:promotion]

# --8<-- [start:still_tensorflow]
print(tf.ones([1], tf.uint8) + 300)
#> tf.Tensor([45], shape=(1,), dtype=uint8)
try:
    print(np.asarray([1], np.uint8) + 300)
except OverflowError as err:
    print(f"{type(err).__name__}: {err}")
    #> OverflowError: Python integer 300 out of bounds for uint8
print(type(x.reshape(6)).__name__)
#> EagerTensor
# --8<-- [end:still_tensorflow]

# --8<-- [start:prefer_float32]
tnp.experimental_enable_numpy_behavior(prefer_float32=True)
print(tnp.asarray(1.5).dtype, tnp.asarray([0.5, 1.5]).dtype, (i32 + 1.5).dtype)
#> <dtype: 'float32'> <dtype: 'float32'> <dtype: 'float64'>
# --8<-- [end:prefer_float32]

# --8<-- [start:late_mode]
import logging.handlers

logged = logging.handlers.BufferingHandler(capacity=10)  # keeps what TensorFlow logs
tf.get_logger().addHandler(logged)
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")  # after other TF calls
print([record.getMessage() for record in logged.buffer])
"""
['UserWarning: enabling the new type promotion must happen at the beginning of the program. Please ensure no TF APIs have been used yet.']
"""
print((i32 + f32).dtype)  # the mode changed all the same: float32, as in "all" mode
#> <dtype: 'float32'>
# --8<-- [end:late_mode]
