"""TensorFlow and NumPy: what converting copies, what it shares, and dtypes.

Run with `python examples/tensorflow/numpy.py`. The `#>` lines under each print are
the output the libraries printed when the site was built; the test suite runs this
script again and compares.
"""

# --8<-- [start:from_numpy_copies]
import numpy as np
import tensorflow as tf

array = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
constant = tf.constant(array)
converted = tf.convert_to_tensor(array)
array[0, 0] = 99.0  # change the array after converting it
print(constant.numpy()[0, 0], converted.numpy()[0, 0])
#> 1.0 1.0
# --8<-- [end:from_numpy_copies]

# --8<-- [start:numpy_method]
tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
result = tensor.numpy()
print(type(result).__name__, result.dtype, result.flags.writeable, result.flags.owndata)
#> ndarray float32 True True

result[0, 0] = 99.0  # allowed: the array is a copy
print(tensor.numpy()[0, 0])
#> 1.0
print(np.shares_memory(tensor.numpy(), tensor.numpy()))  # a new copy on each call
#> False
# --8<-- [end:numpy_method]

# --8<-- [start:asarray]
view = np.asarray(tensor)
print(view.flags.writeable, np.shares_memory(view, np.asarray(tensor)))
#> False True
try:
    view[0, 0] = 99.0
except ValueError as err:
    print(type(err).__name__, err)
    #> ValueError assignment destination is read-only
# --8<-- [end:asarray]

# --8<-- [start:device]
print(tensor.device)
#> /job:localhost/replica:0/task:0/device:CPU:0
# --8<-- [end:device]

# --8<-- [start:dtypes_kept]
doubles = np.ones(3)  # NumPy's default: float64
print(tf.constant(doubles).dtype, tf.convert_to_tensor(doubles).dtype)
#> <dtype: 'float64'> <dtype: 'float64'>
print(tf.constant([1.0, 2.0, 3.0]).dtype)  # from Python floats: float32
#> <dtype: 'float32'>
# --8<-- [end:dtypes_kept]

# --8<-- [start:cast]
integers = tf.constant([1, 2, 3])  # int32
try:
    tf.convert_to_tensor(integers, dtype=tf.float32)
except ValueError as err:
    print(type(err).__name__, str(err).split(":")[0])
    #> ValueError Tensor conversion requested dtype float32 for Tensor with dtype int32

print(tf.cast(integers, tf.float32))
#> tf.Tensor([1. 2. 3.], shape=(3,), dtype=float32)
print(tf.convert_to_tensor([1, 2, 3], dtype=tf.float32))  # a list is not a tensor yet
#> tf.Tensor([1. 2. 3.], shape=(3,), dtype=float32)
# --8<-- [end:cast]
