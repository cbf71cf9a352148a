"""TensorFlow on the CPU: repeatable Keras training, seeds, generators and op determinism.

Run with `python examples/api/tf_reproducibility.py`. The `#>` lines under each print are
the output the libraries printed when the site was built; the test suite runs this
script again and compares.
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

# --8<-- [start:keras_fit_repeat]
import keras
import numpy as np

x = np.linspace(-1, 1, 8, dtype="float32").reshape(4, 2)
y = x.sum(axis=1, keepdims=True)


def train() -> float:  # a new model, dropout and shuffling: three sources of randomness
    model = keras.Sequential(
        [keras.Input((2,)), keras.layers.Dense(2), keras.layers.Dropout(0.5), keras.layers.Dense(1)]
    )
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    return model.fit(x, y, epochs=1, batch_size=2, verbose=0).history["loss"][-1]


keras.utils.set_random_seed(0)
first = train()
keras.utils.set_random_seed(0)  # the same seed again before the second run
second = train()
print("seed before each run:", round(first, 6), round(second, 6), first == second)
#> seed before each run: 1.149148 1.149148 True
third = train()  # no new seed: the seed set once served two runs
print("seed once, two runs:", round(second, 6), round(third, 6), second == third)
#> seed once, two runs: 1.149148 1.198166 False
# --8<-- [end:keras_fit_repeat]

# --8<-- [start:tf_generator]
import tensorflow as tf

tf.random.set_seed(1)
plain = tf.random.uniform([2])
tf.random.set_seed(1)
tf.random.normal([3])  # one more random call elsewhere in the program
shifted = tf.random.uniform([2])
print("set_seed, one call added before:", bool(tf.reduce_all(plain == shifted)))
#> set_seed, one call added before: False

generator = tf.random.Generator.from_seed(1)
own = generator.uniform([2])
generator = tf.random.Generator.from_seed(1)
tf.random.normal([3])  # the same extra call: it does not touch the generator
print("Generator, one call added before:", bool(tf.reduce_all(own == generator.uniform([2]))))
#> Generator, one call added before: True
generator.reset_from_seed(1)  # back to the start of its sequence
print("after reset_from_seed:", bool(tf.reduce_all(own == generator.uniform([2]))))
#> after reset_from_seed: True
# --8<-- [end:tf_generator]

import tensorflow as tf
from tensorflow.python.framework import config as tf_config  # no public API turns it off

# Other scripts share this process (the site's tests): the `finally` below, outside the page's
# section, undoes the switch and the seed even after an error.
try:
    # --8<-- [start:op_determinism]
    import tensorflow as tf

    tf.config.experimental.enable_op_determinism()  # for the whole process
    tf.random.set_seed(None)  # no global seed, as in a program that never set one
    try:
        tf.random.normal([2])  # a random op with no seed set anywhere
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        """
        RuntimeError: Random ops require a seed to be set when determinism is enabled. Please set a seed before running the op, e.g. by calling tf.random.set_seed(1).
        """
    tf.random.set_seed(1)
    print("seeded:", tf.random.normal([2]).shape)
    #> seeded: (2,)
    try:
        tf.timestamp()  # a clock: a different value on every run
    except tf.errors.FailedPreconditionError as err:
        print(f"{type(err).__name__}: {err}")
        """
        FailedPreconditionError: {{function_node __wrapped__Timestamp_device_/job:localhost/replica:0/task:0/device:CPU:0}} Timestamp cannot be called when determinism is enabled [Op:Timestamp] name:
        """
    # --8<-- [end:op_determinism]
finally:
    tf_config.disable_op_determinism()
    tf.random.set_seed(None)
