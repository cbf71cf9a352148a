"""An out-of-range index in tf.gather, tf.nn.embedding_lookup and tf.gather_nd on a GPU: the
GPU side of the tf_gather_nd_invalid_index and tf_gather_not_in_range sections of
examples/errors/shape_errors.py, which raise on the CPU.

Needs a CUDA device and a TensorFlow build that sees it (`pip install "tensorflow[and-cuda]"`;
`tensorflow-cpu` sees none). Run with `python examples/errors/gather_tf_cuda.py` on a machine
with a GPU.
"""
# requires: cuda

# --8<-- [start:gather_gpu]
import os
import sys

os.environ.setdefault("TF_FORCE_GPU_ALLOW_GROWTH", "true")  # leave GPU memory to other code
import tensorflow as tf

if not tf.config.list_physical_devices("GPU"):
    sys.exit("TensorFlow sees no GPU: install a build with GPU support, tensorflow[and-cuda]")
with tf.device("/GPU:0"):
    embeddings = tf.reshape(tf.range(6.0), (3, 2))
    ids = tf.constant([0, 5])  # 5 is out of range: the CPU raises
    print(tf.nn.embedding_lookup(embeddings, ids).numpy().tolist())
    print(tf.gather(embeddings, ids).numpy().tolist())
    rnn_out = tf.reshape(tf.range(24.0), (3, 4, 2))
    seq_len = tf.constant([4, 0, 2])
    last = tf.stack([tf.range(3), seq_len - 1], axis=1)  # [1, -1]: the CPU raises
    print(tf.gather_nd(rnn_out, last).numpy().tolist())
# --8<-- [end:gather_gpu]
