"""Small work on the GPU: how many operations, each launched on its own, how small.

Run with `python examples/gpu/small_work.py`; it runs on any machine (CPU only). It
counts operations rather than timing them; on a GPU most of them (all but views such as
`.T`) launch a kernel each. The timings that need a GPU are in `examples/gpu/small_work_cuda.py`.
The last section counts the operations of a Keras training step (it needs TensorFlow); its GPU
timings are in `examples/gpu/small_work_keras_cuda.py`.
"""

# --8<-- [start:count_ops]
import torch
from torch.utils._python_dispatch import TorchDispatchMode


class CountOps(TorchDispatchMode):
    """Counts the tensor operations run inside it, and the largest output."""

    def __init__(self):
        super().__init__()
        self.ops = 0
        self.largest = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.ops += 1
        if isinstance(out, torch.Tensor):
            self.largest = max(self.largest, out.numel())
        return out


# The reader's two-layer network, trained with hand-written gradients
torch.manual_seed(0)
N, D_in, H, D_out = 256, 32, 64, 5
X, y = torch.randn(N, D_in), torch.randn(N, D_out)
W_1, W_2 = torch.randn(D_in, H) / D_in, torch.randn(H, D_out) / H
with CountOps() as step:
    h = torch.clamp(X @ W_1, min=0)
    y_hat = h @ W_2
    loss = ((y - y_hat) ** 2).sum() / (2 * N)
    grad_y_hat = -(1 / N) * (y - y_hat)
    grad_W_2 = h.T @ grad_y_hat
    grad_h = grad_y_hat @ W_2.T
    grad_h[h < 0] = 0
    grad_W_1 = X.T @ grad_h
    W_1 -= 0.1 * grad_W_1
    W_2 -= 0.1 * grad_W_2
print("operations in one training step:", step.ops)
#> operations in one training step: 21
print("elements in the largest result:", step.largest)
#> elements in the largest result: 16384
print("operations in 50000 steps:", 50000 * step.ops)
#> operations in 50000 steps: 1050000
# --8<-- [end:count_ops]

# --8<-- [start:loop]
b = torch.ones(4, 4)
with CountOps() as loop:
    for _ in range(1000):
        b += b
print("operations in the loop:", loop.ops, "| elements each:", b.numel())
#> operations in the loop: 1000 | elements each: 16
# --8<-- [end:loop]

# --8<-- [start:batched]
many = torch.randn(1000, 4, 4)
with CountOps() as one_by_one:
    total_loop = torch.zeros(4, 4)
    for m in many:
        total_loop = total_loop + m
with CountOps() as at_once:
    total_batched = many.sum(dim=0)
print("one by one:", one_by_one.ops, "operations | at once:", at_once.ops)
#> one by one: 1002 operations | at once: 1
print("same result:", torch.allclose(total_loop, total_batched, atol=1e-5))
#> same result: True
# --8<-- [end:batched]

# --8<-- [start:keras_step]
import inspect
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras
import tensorflow as tf


def traced_step(hidden: int, batch: int) -> tf.Graph:
    """The graph of a training step like the one fit runs for each batch (SGD), for a Dense
    network with one hidden layer: 784 inputs, `hidden` units, 10 outputs."""
    model = keras.Sequential([
        keras.Input((784,)),
        keras.layers.Dense(hidden, activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ])
    optimizer, loss_fn = keras.optimizers.SGD(), keras.losses.CategoricalCrossentropy()

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply(grads, model.trainable_variables)
        return loss

    x, y = tf.TensorSpec((batch, 784)), tf.TensorSpec((batch, 10))
    return step.get_concrete_function(x, y).graph


for hidden in (100, 1000):
    ops = traced_step(hidden, batch=128).get_operations()
    largest = max(op.outputs[0].shape.num_elements() for op in ops if op.type == "MatMul")
    print(f"{hidden} hidden units: {len(ops)} operations per step | largest product {largest}")
    #> 100 hidden units: 111 operations per step | largest product 78400
    #> 1000 hidden units: 111 operations per step | largest product 784000
for batch in (128, 1024):
    steps = len(tf.data.Dataset.range(60_000).batch(batch))  # MNIST's 60,000 training images
    print(f"batch_size={batch}: {steps} steps per epoch")
    #> batch_size=128: 469 steps per epoch
    #> batch_size=1024: 59 steps per epoch

# Keeping a small model on the CPU: tf.config.set_visible_devices([], "GPU") hides the GPUs
doc = " ".join(inspect.getdoc(tf.config.set_visible_devices).split())
print(doc[doc.index("TensorFlow will only"):].split(". ")[0] + ".")
"""
TensorFlow will only allocate memory and place operations on visible physical devices, as otherwise no `LogicalDevice` will be created on them.
"""
print(doc[doc.index("Raises:"):])
#> Raises: ValueError: If argument validation fails. RuntimeError: Runtime is already initialized.
# --8<-- [end:keras_step]
