"""Reduced precision: float16 and bfloat16 in PyTorch, NumPy and TensorFlow.

Their limits, the rounding and overflow they cause (and a float32 mean stuck at 2**24),
converting them to and from NumPy (which has no bfloat16), type promotion with them,
torch.autocast on the CPU, and float16 models on the CPU.

Run with `python examples/numpy_torch/reduced_precision.py`. The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares.
"""

# --8<-- [start:limits]
import numpy as np
import tensorflow as tf
import torch

for dtype in (torch.float16, torch.bfloat16, torch.float32):
    info = torch.finfo(dtype)
    print(f"{str(dtype):15} bits={info.bits} eps={info.eps:.3g} max={info.max:.5g} tiny={info.tiny:.3g}")
    #> torch.float16   bits=16 eps=0.000977 max=65504 tiny=6.1e-05
    #> torch.bfloat16  bits=16 eps=0.00781 max=3.3895e+38 tiny=1.18e-38
    #> torch.float32   bits=32 eps=1.19e-07 max=3.4028e+38 tiny=1.18e-38
# --8<-- [end:limits]

# --8<-- [start:limits_numpy_tf]
# NumPy has float16 (and no bfloat16); its float16 scalars print 3 digits:
half_info = np.finfo(np.float16)
print(half_info.bits, half_info.eps, half_info.max, float(half_info.max))
#> 16 0.000977 6.55e+04 65504.0

# TensorFlow's dtypes know their range:
print(tf.float16.max, tf.bfloat16.max)
#> 6.55e+04 3.38953e+38
# --8<-- [end:limits_numpy_tf]

# --8<-- [start:range_or_precision]
values = torch.tensor([257.0, 70000.0, 1e-8])
print(values.to(torch.float16))  # 257 is exact; 70000 overflows, 1e-8 underflows
#> tensor([257.,  inf,   0.], dtype=torch.float16)
print(values.to(torch.bfloat16))  # 257 is rounded; 70000 and 1e-8 survive
#> tensor([2.5600e+02, 7.0144e+04, 1.0012e-08], dtype=torch.bfloat16)
# --8<-- [end:range_or_precision]

# --8<-- [start:float16_subnormal]
x = torch.tensor(6.407499313354492e-06)  # a float32 value
print(x.half().item(), x.bfloat16().item())  # float16 moves it by 0.5%
#> 6.4373016357421875e-06 6.407499313354492e-06
print(torch.finfo(torch.float16).smallest_normal, 2.0**-24)  # below 6.1e-05: steps of 6e-08
#> 6.103515625e-05 5.960464477539063e-08
for value in [6.407499313354492e-06, 6.407499313354492e-04]:  # subnormal, then normal
    print(f"{value:.4g} relative error in float16 {abs(float(np.float16(value)) - value) / value:.2%}")
    #> 6.407e-06 relative error in float16 0.47%
    #> 0.0006407 relative error in float16 0.02%

# The fix: bfloat16, or scale the value into float16's normal range (as loss scaling does).
print((x * 1024).half().item() / 1024)
#> 6.407499313354492e-06
# --8<-- [end:float16_subnormal]

# --8<-- [start:precision_loss]
half = torch.float16
print(torch.tensor([2047.0, 2048.0, 2049.0, 2050.0], dtype=half))  # 2048 to 4096: steps of 2
#> tensor([2047., 2048., 2048., 2050.], dtype=torch.float16)
print(torch.tensor([4097.0, 4098.0, 4099.0, 4100.0], dtype=half))  # 4096 to 8192: steps of 4
#> tensor([4096., 4096., 4100., 4100.], dtype=torch.float16)
# The gap to the next float16 doubles at each power of two:
powers = torch.tensor([1024.0, 2048.0, 4096.0, 8192.0, 16384.0, 32768.0], dtype=half)
print((torch.nextafter(powers, torch.tensor(torch.inf, dtype=half)) - powers).tolist())
#> [1.0, 2.0, 4.0, 8.0, 16.0, 32.0]
one = torch.tensor(1.0, dtype=half)
eps = torch.finfo(half).eps
print(one + eps, one + eps / 2)  # the next number after 1, and a sum that rounds back to 1
#> tensor(1.0010, dtype=torch.float16) tensor(1., dtype=torch.float16)
print(torch.tensor([60000.0], dtype=half) * 2, torch.tensor([60000.0], dtype=torch.bfloat16) * 2)
#> tensor([inf], dtype=torch.float16) tensor([119808.], dtype=torch.bfloat16)
print(torch.tensor([0.1, 0.2, 0.3]).to(torch.bfloat16).tolist())  # 2 to 3 significant digits
#> [0.10009765625, 0.2001953125, 0.30078125]
# --8<-- [end:precision_loss]

# --8<-- [start:summation]
step = torch.tensor(0.01, dtype=torch.float16)
total = torch.zeros((), dtype=torch.float16)
for _ in range(10_000):
    total += step  # a float16 running total
print(total, total + step)  # at 32 the gap between float16 numbers is 0.03125
#> tensor(32., dtype=torch.float16) tensor(32., dtype=torch.float16)
print(torch.full((10_000,), 0.01, dtype=torch.float16).sum())  # one call: no running float16 total
#> tensor(100., dtype=torch.float16)

numbers = np.full(10_000, 0.01, dtype=np.float16)
print(np.cumsum(numbers)[-1], numbers.sum())
#> 32.0 100.0
tensor = tf.fill([10_000], tf.constant(0.01, tf.float16))
print(tf.math.cumsum(tensor)[-1].numpy(), tf.reduce_sum(tensor).numpy())
#> 32.0 100.0

in_float32 = numbers.sum(dtype=np.float32)  # accumulate in float32
print(round(float(in_float32), 2), float(numbers[0]))  # float16 holds 0.01 as 0.0100021...
#> 100.02 0.01000213623046875
# --8<-- [end:summation]

# --8<-- [start:bfloat16_numpy_sum]
import ml_dtypes
import numpy as np
import torch

rng = np.random.default_rng(0)
for n in (10_000, 20_000):
    values = rng.random(n).astype(ml_dtypes.bfloat16)  # uniform in [0, 1), mean about 0.5
    total = values.sum()  # accumulates in bfloat16: stuck at 256
    fixed = values.sum(dtype=np.float32)  # the fix: accumulate in float32
    in_torch = torch.from_numpy(values.astype(np.float32)).bfloat16().sum()
    print(n, total, round(float(fixed), 1), in_torch)
    #> 10000 256 4994.2 tensor(4992., dtype=torch.bfloat16)
    #> 20000 256 10038.0 tensor(10048., dtype=torch.bfloat16)
# Past 256, neighbouring bfloat16 numbers are 2 apart: adding a value below 1 rounds back.
print(np.array(256, ml_dtypes.bfloat16) + np.array(0.9, ml_dtypes.bfloat16))
#> 256
# --8<-- [end:bfloat16_numpy_sum]

# --8<-- [start:summation_overflow]
import warnings

ones = np.ones(70_000, dtype=np.float16)  # a total of 70000, beyond float16's 65504
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(ones.sum(), ones.mean())
    #> inf 1.0
print([f"{w.category.__name__}: {w.message}" for w in caught])
#> ['RuntimeWarning: overflow encountered in reduce']

torch_ones = torch.ones(70_000, dtype=torch.float16)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch_ones.sum(), torch_ones.mean(), len(caught))  # no warning
    #> tensor(inf, dtype=torch.float16) tensor(1., dtype=torch.float16) 0
tf_ones = tf.ones([70_000], dtype=tf.float16)
print(tf.reduce_sum(tf_ones).numpy(), tf.reduce_mean(tf_ones).numpy())
#> inf nan

# The fix: reduce in float32, which holds the total
print(ones.sum(dtype=np.float32), torch_ones.sum(dtype=torch.float32))
#> 70000.0 tensor(70000.)
print(tf.reduce_sum(tf.cast(tf_ones, tf.float32)).numpy(), tf.reduce_mean(tf.cast(tf_ones, tf.float32)).numpy())
#> 70000.0 1.0
# --8<-- [end:summation_overflow]

# --8<-- [start:half_mean]
values = torch.tensor([40000.0, 40000.0, 40000.0], dtype=torch.float16)  # each fits float16
print(values.sum(), values.mean())  # the total 120000 does not; the mean, here, is right
#> tensor(inf, dtype=torch.float16) tensor(40000., dtype=torch.float16)
print(values.mean(dtype=torch.float32), values.float().mean())  # an explicit float32 mean
#> tensor(40000.) tensor(40000.)
tf_values = tf.constant([40000.0, 40000.0, 40000.0], dtype=tf.float16)
print(tf.reduce_mean(tf_values).numpy(), tf.reduce_mean(tf.cast(tf_values, tf.float32)).numpy())
#> inf 40000.0
print(float(np.full(3, 40000, dtype=np.float16).mean()))  # NumPy's float16 mean adds in float32
#> 40000.0
# --8<-- [end:half_mean]

# --8<-- [start:float32_axis]
images = np.ones((80, 500, 500, 3), dtype=np.float32)  # 20 million pixels per channel
print(images.mean(axis=(0, 1, 2)), images.mean())  # per channel: wrong; whole array: right
#> [0.8388608 0.8388608 0.8388608] 1.0
print(images.sum(axis=(0, 1, 2)).tolist(), 2**24)  # each channel's total stops at 2**24
#> [16777216.0, 16777216.0, 16777216.0] 16777216
print(float(images[..., 0].sum()))  # slice channel 0 first, then sum with no axis: right
#> 20000000.0
big = np.float32(2**24)
print(float(big + np.float32(1)), float(np.spacing(big)))  # the gap is 2: adding 1 rounds back
#> 16777216.0 2.0

print(images.mean(axis=(0, 1, 2), dtype=np.float64))  # the fix: a float64 accumulator
#> [1. 1. 1.]
print(torch.from_numpy(images).mean(dim=(0, 1, 2)))  # PyTorch, the same array
#> tensor([1., 1., 1.])
# --8<-- [end:float32_axis]

# --8<-- [start:float32_axis_tf]
import inspect

tf_images = tf.ones(images.shape)  # the same ones, made in TensorFlow: no 240 MB copy
print(tf.reduce_mean(tf_images, axis=[0, 1, 2]).numpy())  # wrong too
#> [0.8388608 0.8388608 0.8388608]
print("dtype" in inspect.signature(tf.reduce_mean).parameters)  # no accumulator to choose
#> False
# The fix: the mean of the per-image means, each over 250000 values, far below 2**24.
print(tf.reduce_mean(tf.reduce_mean(tf_images, axis=[1, 2]), axis=0).numpy())
#> [1. 1. 1.]
# --8<-- [end:float32_axis_tf]

# --8<-- [start:float32_mean_digits]
rng = np.random.default_rng(0)
values = (rng.standard_normal(1000) * 100 + 5).astype(np.float32)
np_mean, tf_mean = np.mean(values), tf.reduce_mean(values).numpy()
print(np_mean.dtype, tf_mean.dtype, np_mean == tf_mean)  # same float32 data, two results
#> float32 float32 False
print(abs(np_mean - tf_mean) < 1e-5)  # they differ only in the last digits
#> True
reference = np.mean(values, dtype=np.float64)  # float64 accumulation: the yardstick
gap = np.spacing(np.float32(reference))  # float32's gap between neighbouring numbers there
print([bool(abs(mean - reference) < 500 * gap) for mean in (np_mean, tf_mean)])  # each within 500 gaps
#> [True, True]

# The fix when the digits matter: accumulate in float64 in both.
print(abs(np.mean(values, dtype=np.float64) - tf.reduce_mean(tf.cast(values, tf.float64)).numpy()) < 1e-12)
#> True
# --8<-- [end:float32_mean_digits]

# --8<-- [start:half_remainder]
a = torch.tensor([-57.0625], dtype=torch.float16)
b = torch.tensor([1.2339], dtype=torch.float16)  # stored as 1.234375
print(torch.remainder(a, b), np.remainder(a.numpy(), b.numpy()))  # agree today
#> tensor([0.9531], dtype=torch.float16) [0.953]

# The reader's 0.9375 (torch 1.5): a - floor(a / b) * b with every step rounded to float16.
quotient = torch.floor(a / b)
print(a / b, quotient * b, a - quotient * b)
"""
tensor([-46.2188], dtype=torch.float16) tensor([-58.], dtype=torch.float16) tensor([0.9375], dtype=torch.float16)
"""
# The same formula in float32, rounded to float16 once at the end.
print((a.float() - torch.floor(a.float() / b.float()) * b.float()).half())
#> tensor([0.9531], dtype=torch.float16)
# --8<-- [end:half_remainder]

# --8<-- [start:torch_to_numpy]
halves = torch.tensor([1.5, 2.5], dtype=torch.float16)
array = halves.numpy()  # float16 exists in NumPy: shared memory, no copy
print(array.dtype, torch.from_numpy(array).dtype)  # and back
#> float16 torch.float16
array[0] = 5
print(halves)
#> tensor([5.0000, 2.5000], dtype=torch.float16)

bf16 = torch.tensor([1.5, 2.5], dtype=torch.bfloat16)
try:
    bf16.numpy()  # NumPy has no bfloat16
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Got unsupported ScalarType BFloat16
# --8<-- [end:torch_to_numpy]

# --8<-- [start:tf_to_numpy]
tf_bf16 = tf.constant([1.5, 2.5], dtype=tf.bfloat16)
tf_array = tf_bf16.numpy()  # an ndarray, with a dtype from the ml_dtypes package
print(type(tf_array).__name__, tf_array.dtype, tf_array.dtype.type.__module__)
#> ndarray bfloat16 ml_dtypes
try:
    torch.from_numpy(tf_array)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: can't convert np.ndarray of type ml_dtypes.bfloat16. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.
    """
try:  # np.finfo knows this bfloat16 from ml-dtypes 0.7 on; older releases raise
    eps = float(np.finfo(tf_array.dtype).eps)
except ValueError as err:
    eps = f"{type(err).__name__}: {err}"
print(eps)
#> 0.0078125
import ml_dtypes  # installed with TensorFlow

print(float(ml_dtypes.finfo(tf_array.dtype).eps))  # ml_dtypes' own finfo, in every release
#> 0.0078125
# --8<-- [end:tf_to_numpy]

# --8<-- [start:via_float32]
weights = torch.linspace(-1, 1, 1000).to(torch.bfloat16)
as_float = weights.float()  # exact: every bfloat16 is a float32
array = as_float.numpy()
print(array.dtype, weights.element_size() * weights.numel(), array.nbytes)  # twice the bytes
#> float32 2000 4000
print(torch.equal(torch.from_numpy(array).to(torch.bfloat16), weights))  # back without loss
#> True
from_tf = tf.cast(tf_bf16, tf.float32).numpy()  # TF -> torch, the same way
print(torch.from_numpy(from_tf).to(torch.bfloat16))
#> tensor([1.5000, 2.5000], dtype=torch.bfloat16)
print(tf_array.astype(np.float32))  # an array you already have: astype on the NumPy side
#> [1.5 2.5]
# --8<-- [end:via_float32]

# --8<-- [start:promotion_torch]
h = torch.ones(2, dtype=torch.float16)
print((h + torch.ones(2)).dtype)  # float16 with float32: float32
#> torch.float32
print((h + 1.5).dtype, (h + torch.tensor(1.5)).dtype)  # a Python float or 0-dim tensor: float16
#> torch.float16 torch.float16
print((h + torch.ones(2, dtype=torch.bfloat16)).dtype)  # neither holds the other: float32
#> torch.float32
print(h * 70000.0)  # the Python float takes the tensor's dtype, then overflows
#> tensor([inf, inf], dtype=torch.float16)
# --8<-- [end:promotion_torch]

# --8<-- [start:promotion_numpy]
a = np.ones(2, dtype=np.float16)
print((a + np.ones(2, dtype=np.float32)).dtype, (a + 1.5).dtype, (a + np.float32(1.5)).dtype)
#> float32 float16 float32
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    scaled = a * 70000.0
print(scaled, scaled.dtype, [w.category.__name__ for w in caught])
#> [inf inf] float16 ['RuntimeWarning']
print((a + tf_array).dtype)  # with TensorFlow's bfloat16 array (ml_dtypes): float32
#> float32
# --8<-- [end:promotion_numpy]

# --8<-- [start:promotion_tf]
t = tf.constant([1.0, 1.0], dtype=tf.float16)
try:
    t + tf.constant([1.0, 1.0])  # float16 with float32
except tf.errors.InvalidArgumentError as err:
    print(type(err).__name__, err.message.split(" [")[0])
    """
    InvalidArgumentError cannot compute AddV2 as input #1(zero-based) was expected to be a half tensor but is a float tensor
    """
try:
    t + tf.constant([1.0, 1.0], dtype=tf.bfloat16)  # float16 with bfloat16
except tf.errors.InvalidArgumentError as err:
    print(type(err).__name__, err.message.split(" [")[0])
    """
    InvalidArgumentError cannot compute AddV2 as input #1(zero-based) was expected to be a half tensor but is a bfloat16 tensor
    """
print(t + 1.5, t * 70000.0)  # a Python float is converted to float16
#> tf.Tensor([2.5 2.5], shape=(2,), dtype=float16) tf.Tensor([inf inf], shape=(2,), dtype=float16)
print(tf.cast(t, tf.float32) + tf.constant([1.0, 1.0]))  # cast first
#> tf.Tensor([2. 2.], shape=(2,), dtype=float32)
# --8<-- [end:promotion_tf]

# --8<-- [start:autocast]
torch.manual_seed(0)
layer = torch.nn.Linear(4, 3)
x = torch.randn(2, 4)
print(torch.get_autocast_dtype("cpu"))
#> torch.bfloat16
with torch.autocast("cpu"):  # device type "cpu", default dtype bfloat16
    y = layer(x)
    print(y.dtype, (x @ x.T).dtype, layer.weight.dtype)  # linear, matmul: bfloat16
    #> torch.bfloat16 torch.bfloat16 torch.float32
    print((y + 1).dtype, y.sum().dtype, (x + 1).dtype)  # others keep their input's dtype
    #> torch.bfloat16 torch.bfloat16 torch.float32
    print(torch.cat([y, x[:, :3]]).dtype)  # cat takes the widest input dtype
    #> torch.float32
    loss = torch.nn.functional.mse_loss(y, torch.zeros_like(y))  # bfloat16 in, float32 out
    print(loss.dtype)
    #> torch.float32
loss.backward()
print(y.dtype, layer.weight.grad.dtype)  # outputs stay bfloat16; gradients are float32
#> torch.bfloat16 torch.float32

with torch.autocast("cpu", dtype=torch.float16):
    print(layer(x).dtype)
    #> torch.float16
# --8<-- [end:autocast]

# --8<-- [start:half_on_cpu]
torch.manual_seed(0)
linear = torch.nn.Linear(4, 3).half()  # a float16 model on the CPU
conv = torch.nn.Conv2d(1, 2, 3).half()
print(linear(torch.ones(2, 4, dtype=torch.float16)).dtype)
#> torch.float16
print(conv(torch.ones(1, 1, 5, 5, dtype=torch.float16)).dtype)
#> torch.float16

# Where float16 fails on the CPU: the model (and its input) in float32, or in bfloat16
print(linear.float()(torch.ones(2, 4)).dtype)
#> torch.float32
print(linear.bfloat16()(torch.ones(2, 4, dtype=torch.bfloat16)).dtype)
#> torch.bfloat16
# --8<-- [end:half_on_cpu]

# --8<-- [start:half_slow_on_cpu]
import timeit


def best_times(*fns, rounds=20):
    """The best timing of each fn (ten calls each), in seconds, taken in turns: a pause of the
    machine then slows every fn in one round, never one fn in all of its rounds."""
    times = [[timeit.timeit(fn, number=10) for fn in fns] for _ in range(rounds)]
    return [min(column) for column in zip(*times, strict=True)]


threads = torch.get_num_threads()
torch.set_num_threads(1)  # one thread: steadier timings on a shared machine
x, w = torch.rand(1, 16, 44, 80), torch.rand(16, 16, 1, 1)  # the report's shapes, a quarter of its image
x16, w16 = x.half(), w.half()
xb, wb = x.bfloat16(), w.bfloat16()
f32, f16, bf16 = best_times(
    lambda: torch.nn.functional.conv2d(x, w),
    lambda: torch.nn.functional.conv2d(x16, w16),
    lambda: torch.nn.functional.conv2d(xb, wb),
)
print("float16 conv2d more than 2x slower than float32:", f16 > 2 * f32)
#> float16 conv2d more than 2x slower than float32: True
print("bfloat16 conv2d more than 2x slower than float32:", bf16 > 2 * f32)
#> bfloat16 conv2d more than 2x slower than float32: True
# Same inputs, same result to float16's precision: only the time differs.
print(torch.allclose(torch.nn.functional.conv2d(x16, w16).float(), torch.nn.functional.conv2d(x16.float(), w16.float()), rtol=1e-2))
#> True
torch.set_num_threads(threads)
# --8<-- [end:half_slow_on_cpu]

# --8<-- [start:keras_mixed_float16]
keras = tf.keras
keras.mixed_precision.set_global_policy("mixed_float16")  # for the layers made below
inputs = keras.Input((4,))
hidden = keras.layers.Dense(8, activation="relu")(inputs)
logits = keras.layers.Dense(3)(hidden)
probs = keras.layers.Activation("softmax", dtype="float32")(logits)  # the output in float32
model = keras.Model(inputs, probs)
dense = model.layers[1]
print(dense.dtype_policy.name, dense.compute_dtype, dense.kernel.dtype)  # computes, stores
#> mixed_float16 float16 float32
print(logits.dtype, probs.dtype)
#> float16 float32
model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
print(type(model.optimizer).__name__)  # compile adds loss scaling
#> LossScaleOptimizer
keras.mixed_precision.set_global_policy("float32")  # back to the default for later layers
# --8<-- [end:keras_mixed_float16]

# --8<-- [start:keras_mixed_precision_update]
import re

keras.mixed_precision.set_global_policy("mixed_float16")
online, target = keras.layers.Dense(2), keras.layers.Dense(2)  # two networks' weights
online.build((None, 3))
target.build((None, 3))
tau = tf.constant(0.9)  # float32


def soft_update():
    """Moves the target's weights towards the online ones, with TensorFlow's operations."""
    for online_w, target_w in zip(online.trainable_variables, target.trainable_variables, strict=True):
        target_w.assign(tf.multiply(target_w, tau) + tf.multiply(online_w, 1.0 - tau))


class SoftUpdate(keras.layers.Layer):
    """Runs the update inside a layer's call."""

    def call(self, x):
        kernel = target.kernel  # read in float16 here; Keras's own * promotes to float32
        print("in a call:", kernel.dtype, (kernel * tau).dtype.name)
        #> in a call: float16 float32
        soft_update()
        return x


update_in_call = SoftUpdate()


@tf.function  # a training step, traced into a graph
def step(x):
    return update_in_call(x)


try:
    step(tf.ones((1, 3)))
except TypeError as err:
    line = next(part for part in str(err).splitlines() if "Input 'y'" in part)
    line = re.sub(r"\x1b\[[0-9;]*m", "", line).strip()  # without the bold markers
    print(f"{type(err).__name__}: {line}")
    """
    TypeError: Input 'y' of 'Mul' Op has type float32 that does not match type float16 of argument 'x'.
    """


print("outside a call:", target.kernel.dtype)
#> outside a call: float32


@tf.function  # the fix: the same update, outside any layer's call
def step_then_update(x):
    soft_update()
    return x


expected = 0.9 * target.kernel.numpy() + 0.1 * online.kernel.numpy()
step_then_update(tf.ones((1, 3)))
print(np.allclose(target.kernel.numpy(), expected))  # updated, in float32
#> True
keras.mixed_precision.set_global_policy("float32")  # back to the default for later layers
# --8<-- [end:keras_mixed_precision_update]

# --8<-- [start:keras_float16_nan]
x = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=np.float16)
y = np.array([[0], [1], [1], [0]], dtype=np.float16)
layer = keras.layers.Dense(1, activation="tanh", dtype="float16", kernel_initializer=keras.initializers.Constant(5.0))
pred = layer(x)  # weights reached by training: tanh(5) = 0.99991 rounds to 1 in float16
print(pred.dtype, pred.numpy().ravel(), np.float16(1 - keras.config.epsilon()) == 1)
#> <dtype: 'float16'> [0. 1. 1. 1.] True
print(keras.ops.binary_crossentropy(y, pred).numpy().ravel())  # the loss of each sample, in float16
#> [-0. nan nan inf]
print(keras.losses.BinaryCrossentropy(dtype="float16")(y, pred).numpy())
#> nan
keras.config.set_floatx("float16")  # tf.keras.backend.set_floatx in Keras 2
print(keras.losses.BinaryCrossentropy()(y, pred).numpy())
#> nan
keras.config.set_floatx("float32")
# The fix: compute the loss in float32 (the default of a Keras 3 loss object), or cast first.
loss = keras.losses.BinaryCrossentropy()
print(loss.dtype, loss(y, pred).numpy())
#> float32 3.9855962
print(keras.ops.binary_crossentropy(y.astype(np.float32), tf.cast(pred, tf.float32)).numpy().ravel())
#> [1.1920929e-07 1.1920929e-07 1.1920929e-07 1.5942385e+01]
# --8<-- [end:keras_float16_nan]

# --8<-- [start:keras_find_overflow]
keras.mixed_precision.set_global_policy("mixed_float16")
layers = [
    keras.layers.Dense(8, name="dense_a", kernel_initializer="ones"),
    keras.layers.Dense(8, name="dense_b", kernel_initializer="ones"),
    keras.layers.Dense(1, name="head", dtype="float32"),  # the output layer in float32
]
keras.mixed_precision.set_global_policy("float32")
x = np.full((2, 4), 3000.0, dtype=np.float32)  # activations that grew during training
value = x
for layer in layers:  # run the layers one by one and count the values that are not finite
    value = layer(value)
    print(layer.name, value.dtype.name, int(tf.reduce_sum(tf.cast(~tf.math.is_finite(value), tf.int32))))
    #> dense_a float16 0
    #> dense_b float16 16
    #> head float32 2
# The fix: the layer whose outputs pass 65504 computes in float32.
layers[1] = keras.layers.Dense(8, name="dense_b", kernel_initializer="ones", dtype="float32")
value = x
for layer in layers:
    value = layer(value)
print(layers[1].name, float(tf.reduce_max(layers[1](layers[0](x)))), bool(tf.reduce_all(tf.math.is_finite(value))))
#> dense_b 96000.0 True
# --8<-- [end:keras_find_overflow]

# --8<-- [start:keras_float16_total_nan]
keras.config.set_floatx("float16")  # tf.keras.backend.set_floatx("float16") in Keras 2
print(keras.layers.Dense(1).dtype_policy.name)  # Keras 3: floatx no longer sets it once layers exist
#> float32
keras.config.set_dtype_policy("float16")  # so set the layers' policy too


class Penalty(keras.layers.Layer):
    """Adds a term to the total loss, as weight decay or an activity penalty does."""

    def call(self, h):
        self.add_loss(0.001 * tf.reduce_mean(tf.square(h)))  # no log line of its own
        return h


def two_output_model(penalty_dtype=None):
    inputs = keras.Input((64, 64, 16))  # a feature map: 65536 values per sample
    pooled = keras.layers.GlobalAveragePooling2D()(Penalty(dtype=penalty_dtype)(inputs))
    out_a = keras.layers.Dense(1, name="a", kernel_initializer=keras.initializers.Constant(2**-6))(pooled)
    out_b = keras.layers.Dense(1, name="b", kernel_initializer=keras.initializers.Constant(2**-5))(pooled)
    model = keras.Model(inputs, {"a": out_a, "b": out_b})
    model.compile("sgd", loss={"a": "mse", "b": "mse"}, run_eagerly=True)  # one step: no graph to trace
    return model


x = np.full((2, 64, 64, 16), 8.0, dtype=np.float32)
y = {"a": np.ones((2, 1)), "b": np.ones((2, 1))}
logs = two_output_model().train_on_batch(x, y, return_dict=True)  # what fit logs for this step
print({name: round(float(value), 4) for name, value in logs.items()})  # loss is the total
#> {'a_loss': 1.0, 'b_loss': 9.0, 'loss': nan}
h = tf.constant(x, tf.float16)  # the penalty's input: 131072 values
squares = tf.square(h)  # 64 each
print(tf.cast(tf.size(h), tf.float16).numpy(), tf.reduce_sum(squares).numpy(), tf.reduce_mean(squares).numpy(), keras.ops.mean(squares).numpy())
#> inf inf nan 64.0
# Weight decay divided by each weight's size, as in the reader's repository: 0 in float16 past 65504 values.
kernel = tf.random.stateless_uniform((300, 300), seed=(0, 1), minval=-0.1, maxval=0.1)
decay_16 = keras.regularizers.L2(1e-4)(tf.cast(kernel, tf.float16)) / tf.cast(tf.size(kernel), tf.float16)
keras.config.set_floatx("float32")
keras.config.set_dtype_policy("float32")
decay_32 = keras.regularizers.L2(1e-4)(kernel) / tf.cast(tf.size(kernel), tf.float32)
print(decay_16.numpy(), f"{decay_32.numpy():.2g}")
#> 0.0 3.3e-07

# The fix: mixed_float16 (weights and losses in float32), and the layer that adds the term in float32.
keras.mixed_precision.set_global_policy("mixed_float16")
model = two_output_model(penalty_dtype="float32")
keras.mixed_precision.set_global_policy("float32")
logs = model.train_on_batch(x, y, return_dict=True)
print({name: round(float(value), 4) for name, value in logs.items()})
#> {'a_loss': 1.0, 'b_loss': 9.0, 'loss': 10.064}
# --8<-- [end:keras_float16_total_nan]

# --8<-- [start:replaced_layer_device]
import torch
from torch import nn

model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.Flatten(), nn.Linear(8, 5))
model.to("meta")  # meta stands in for cuda
model[2] = nn.Linear(8, 10)  # a new head, created after the move: on the CPU
print({name: p.device.type for name, p in model.named_parameters()})
#> {'0.weight': 'meta', '0.bias': 'meta', '2.weight': 'cpu', '2.bias': 'cpu'}

# The fix: move the model again after replacing a layer (or create the layer on the device).
model.to("meta")
print({p.device.type for p in model.parameters()})
#> {'meta'}
# --8<-- [end:replaced_layer_device]
