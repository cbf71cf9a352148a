"""Small work on the GPU with Keras: one epoch of fit for a small and a large Dense network,
on the GPU and on the CPU, at two batch sizes.

Needs a CUDA device and a TensorFlow build that sees it (`pip install "tensorflow[and-cuda]"`;
`tensorflow-cpu` sees none). Run with `python examples/gpu/small_work_keras_cuda.py` on a machine
with a GPU. It prints comparisons, not times.
"""
# requires: cuda

# --8<-- [start:fit]
import os
import sys
import time

os.environ.setdefault("TF_FORCE_GPU_ALLOW_GROWTH", "true")  # leave GPU memory to other code
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras
import numpy as np
import tensorflow as tf

if not tf.config.list_physical_devices("GPU"):
    sys.exit("TensorFlow sees no GPU: install a build with GPU support, tensorflow[and-cuda]")

rng = np.random.default_rng(0)
x = rng.random((60_000, 784), dtype=np.float32)  # as many inputs as MNIST's training set
y = keras.utils.to_categorical(rng.integers(0, 10, 60_000), 10)


def epoch_seconds(device: str, hidden: int, batch_size: int) -> float:
    """Seconds for one epoch of fit on the device, after a short fit that traces the step."""
    with tf.device(device):
        model = keras.Sequential([
            keras.Input((784,)),
            keras.layers.Dense(hidden, activation="relu"),
            keras.layers.Dense(10, activation="softmax"),
        ])
        model.compile(optimizer="nadam", loss="categorical_crossentropy")
        model.fit(x[: 2 * batch_size], y[: 2 * batch_size], batch_size=batch_size, verbose=0)
        start = time.perf_counter()
        model.fit(x, y, batch_size=batch_size, verbose=0)
        return time.perf_counter() - start


ratio = {}  # GPU time / CPU time
for hidden, batch_size in ((100, 128), (1000, 128), (100, 1024)):
    gpu = epoch_seconds("/GPU:0", hidden, batch_size)
    cpu = epoch_seconds("/CPU:0", hidden, batch_size)
    ratio[hidden, batch_size] = gpu / cpu
    print(f"{hidden} hidden units, batch_size={batch_size}: GPU faster than CPU: {gpu < cpu}")
print("100 hidden units: GPU gains on CPU at batch_size=1024:", ratio[100, 1024] < ratio[100, 128])
# --8<-- [end:fit]
