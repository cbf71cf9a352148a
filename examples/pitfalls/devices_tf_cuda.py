"""Devices and GPU numerics in TensorFlow on a GPU: the CUDA side of the TensorFlow part of
examples/pitfalls/devices_pitfalls.py.

Needs a CUDA device and a TensorFlow build that sees it (`pip install "tensorflow[and-cuda]"`;
`tensorflow-cpu` sees none). Run with `python examples/pitfalls/devices_tf_cuda.py` on a machine
with a GPU.
"""
# requires: cuda

# --8<-- [start:matmul_tf32_tf]
import os
import sys

os.environ.setdefault("TF_FORCE_GPU_ALLOW_GROWTH", "true")  # leave GPU memory to other code
import numpy as np
import tensorflow as tf

gpus = tf.config.list_physical_devices("GPU")
if not gpus:
    sys.exit("TensorFlow sees no GPU: install a build with GPU support, tensorflow[and-cuda]")
details = tf.config.experimental.get_device_details(gpus[0])
print("TF32 units (compute capability 8.0 or later):", details["compute_capability"] >= (8, 0))

a = np.array([[0.83899, 0.54414, 3.3142e5], [-0.54414, 0.83899, 4.6909e6], [0, 0, 1]], np.float32)
b = np.array([[0.83899, -0.54414, 2.2745e6], [0.54414, 0.83899, -4.1160e6], [0, 0, 1]], np.float32)
# The reader's linear layer, smaller: inputs of about 1000, weights of about 50.
rng = np.random.default_rng(133006)
x = rng.standard_normal((64, 1536)).astype(np.float32) * 1000
w = rng.standard_normal((384, 1536)).astype(np.float32) * 50
with tf.device("/CPU:0"):
    layer_cpu = tf.linalg.matmul(x, w, transpose_b=True).numpy()

for tf32 in (True, False):  # True: the default
    tf.config.experimental.enable_tensor_float_32_execution(tf32)
    with tf.device("/GPU:0"):
        corner = float(tf.linalg.matmul(a, b)[0, 2])
        layer_gpu = tf.linalg.matmul(x, w, transpose_b=True).numpy()
    print(tf32, round(corner, 1), f"{np.abs(layer_gpu - layer_cpu).max():.0e}")
tf.config.experimental.enable_tensor_float_32_execution(True)
# --8<-- [end:matmul_tf32_tf]
