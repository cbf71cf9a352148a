"""The same conversions in PyTorch, TensorFlow and NumPy, and DLPack between torch and TF.

Run with `python examples/tensorflow/torch_and_tensorflow.py`. The `#>` lines under
each print are the output the libraries printed when the site was built; the test
suite runs this script again and compares.
"""

# --8<-- [start:from_array_torch]
import numpy as np
import torch

array = np.zeros(3, dtype=np.float32)
converted = torch.from_numpy(array)
array[0] = 1.0  # write into the array afterwards
print(converted)  # shared: the tensor sees it
#> tensor([1., 0., 0.])
# --8<-- [end:from_array_torch]

# --8<-- [start:from_array_tf]
import numpy as np
import tensorflow as tf

array = np.zeros(3, dtype=np.float32)
converted = tf.constant(array)
array[0] = 1.0  # write into the array afterwards
print(converted.numpy())  # copied: the tensor does not see it
#> [0. 0. 0.]
# --8<-- [end:from_array_tf]

# --8<-- [start:from_array_numpy]
import numpy as np

array = np.zeros(3, dtype=np.float32)
converted = np.asarray(array)  # already an array: no copy
array[0] = 1.0
print(converted, converted is array)
#> [1. 0. 0.] True
# --8<-- [end:from_array_numpy]

# --8<-- [start:to_array_torch]
tensor = torch.zeros(3)
result = tensor.numpy()
result[0] = 1.0
print(tensor)  # shared (CPU tensors only)
#> tensor([1., 0., 0.])
# --8<-- [end:to_array_torch]

# --8<-- [start:to_array_tf]
tensor = tf.zeros(3)
result = tensor.numpy()
result[0] = 1.0
print(tensor.numpy())  # a copy: the tensor is unchanged
#> [0. 0. 0.]
# --8<-- [end:to_array_tf]

# --8<-- [start:to_array_numpy]
original = np.zeros(3, dtype=np.float32)
result = np.array(original)  # np.array copies by default
result[0] = 1.0
print(original)
#> [0. 0. 0.]
# --8<-- [end:to_array_numpy]

# --8<-- [start:dtype_torch]
converted = torch.ones(2).to(torch.float64)  # a new tensor
print(converted.dtype)
#> torch.float64
# --8<-- [end:dtype_torch]

# --8<-- [start:dtype_tf]
converted = tf.cast(tf.ones(2), tf.float64)  # a new tensor
print(converted.dtype)
#> <dtype: 'float64'>
# --8<-- [end:dtype_tf]

# --8<-- [start:dtype_numpy]
converted = np.ones(2, dtype=np.float32).astype(np.float64)  # a new array
print(converted.dtype)
#> float64
# --8<-- [end:dtype_numpy]

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
# --8<-- [end:dlpack_tf_to_torch]
