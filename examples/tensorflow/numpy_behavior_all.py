"""TensorFlow's newer type promotion: experimental_enable_numpy_behavior with
dtype_conversion_mode="all", which must be the first thing the program does with TensorFlow.

Run with `python examples/tensorflow/numpy_behavior_all.py`. Like
examples/tensorflow/numpy_behavior.py, it changes TensorFlow for the whole process, so the test
suite runs it in a process of its own (the launch line below).
"""
# launch: python 1

# --8<-- [start:all_mode]
import logging.handlers

import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

logged = logging.handlers.BufferingHandler(capacity=10)  # keeps what TensorFlow logs
tf.get_logger().addHandler(logged)
tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="all")  # before any other TF call
print([record.getMessage() for record in logged.buffer])  # logged even here, at the start
"""
['UserWarning: enabling the new type promotion must happen at the beginning of the program. Please ensure no TF APIs have been used yet.']
"""

i32 = tf.constant([1, 2], dtype=tf.int32)
f32 = tf.constant([0.5, 1.5], dtype=tf.float32)
print((i32 + f32).dtype, np.result_type(np.int32, np.float32))
#> <dtype: 'float32'> float64
i8, u8 = tf.ones([1], tf.int8), tf.ones([1], tf.uint8)
print((i8 + u8).dtype, (f32 + 1.5).dtype, (i32 + 1.5).dtype)
#> <dtype: 'int16'> <dtype: 'float32'> <dtype: 'float64'>
print(tf.ones([1], tf.uint8) + 300)
#> tf.Tensor([45], shape=(1,), dtype=uint8)
# --8<-- [end:all_mode]
