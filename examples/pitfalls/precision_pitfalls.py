"""Precision and overflow pitfalls: code that runs without an error and gives a wrong number.

Each section prints the surprising result a reader reported, then the fix's result.

Run with `python examples/pitfalls/precision_pitfalls.py`.
"""

# --8<-- [start:mask_nan]
import numpy as np
import torch

scores = torch.tensor([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]], dtype=torch.float16)
keep = torch.tensor([[1.0, 1.0, 0.0], [0.0, 0.0, 0.0]], dtype=torch.float16)  # row 2: padding only

big = torch.tensor(1e30).to(scores.dtype)  # the hard-coded mask value, in float16
print(big)
#> tensor(inf, dtype=torch.float16)
masked = scores - big * (1 - keep)  # 0 * inf is nan where keep is 1
print(masked)
"""
tensor([[nan, nan, -inf],
        [-inf, -inf, -inf]], dtype=torch.float16)
"""
print(torch.softmax(masked, dim=-1, dtype=torch.float32))
"""
tensor([[nan, nan, nan],
        [nan, nan, nan]])
"""

small = torch.tensor(-1e9).to(scores.dtype)  # another common mask value, added to the scores
print(small)
#> tensor(-inf, dtype=torch.float16)
print(torch.softmax(scores + small * (1 - keep), dim=-1, dtype=torch.float32).isnan().all())
#> tensor(True)

# The fix: fill the masked places with the dtype's own most negative finite number.
lowest = torch.finfo(scores.dtype).min
print(lowest)
#> -65504.0
masked = scores.masked_fill(keep == 0, lowest)
print(masked)
"""
tensor([[ 1.0000e+00,  2.0000e+00, -6.5504e+04],
        [-6.5504e+04, -6.5504e+04, -6.5504e+04]], dtype=torch.float16)
"""
print(torch.softmax(masked, dim=-1, dtype=torch.float32))
"""
tensor([[0.2689, 0.7311, 0.0000],
        [0.3333, 0.3333, 0.3333]])
"""
# --8<-- [end:mask_nan]

# --8<-- [start:uint8_factor]
image = np.array([100, 200, 250], dtype=np.uint8)
brightness = 150  # percent, given as an integer

print((image * brightness / 100).astype(np.uint8))  # image * 150 wraps around in uint8
#> [1 0 1]
print((image * brightness).dtype)
#> uint8

# The fix: compute in a floating-point dtype, clip to 0..255, then go back to uint8.
brighter = np.clip(image.astype(np.float32) * brightness / 100, 0, 255).astype(np.uint8)
print(brighter)
#> [150 255 255]

# PyTorch's uint8 tensors wrap around in the same way.
pixels = torch.tensor([100, 200, 250], dtype=torch.uint8)
print((pixels * brightness / 100).to(torch.uint8))
#> tensor([1, 0, 1], dtype=torch.uint8)
print((pixels.float() * brightness / 100).clamp(0, 255).to(torch.uint8))
#> tensor([150, 255, 255], dtype=torch.uint8)
# --8<-- [end:uint8_factor]

# --8<-- [start:float32_cumsum]
ones = np.ones(20_000_000, dtype=np.float32)
print(float(np.cumsum(ones)[-1]))  # a float32 running total stops at 2**24
#> 16777216.0
print(float(np.sum(ones)))
#> 20000000.0

# The fix: accumulate in float64.
print(float(np.cumsum(ones, dtype=np.float64)[-1]))
#> 20000000.0
# --8<-- [end:float32_cumsum]

# --8<-- [start:tf_cumsum_drift]
import tensorflow as tf

rng = np.random.default_rng(0)
steps = rng.random(100_000).astype(np.float32) * 0.1  # a float32 time sequence
exact = np.cumsum(steps, dtype=np.float64)  # float64 running total: the reference
running = tf.cumsum(steps).numpy()
for n in [1_000, 10_000, 100_000]:  # the error grows with the length
    print(n, f"{np.abs(running[:n] - exact[:n]).max():.0e}")
    #> 1000 3e-05
    #> 10000 6e-04
    #> 100000 3e-02

# The fix: accumulate in float64, and cast back if float32 is needed downstream.
running64 = tf.cumsum(tf.cast(steps, tf.float64)).numpy()
print(f"{np.abs(running64 - exact).max():.0e}", f"{np.abs(running64.astype(np.float32) - exact).max():.0e}")
#> 0e+00 2e-04
# --8<-- [end:tf_cumsum_drift]

# --8<-- [start:cumsum_across_libraries]
import numpy as np
import tensorflow as tf
import torch

values = np.random.default_rng(0).random(1_000_000, dtype=np.float32)
reference = np.cumsum(values, dtype=np.float64)  # a float64 running total
runs = {
    "np.cumsum": np.cumsum(values),
    "torch.cumsum": torch.cumsum(torch.from_numpy(values), 0).numpy(),
    "tf.cumsum": tf.cumsum(values).numpy(),
}
for name, run in runs.items():  # last value; its distance from NumPy's; largest error
    off_numpy = abs(float(run[-1]) - float(runs["np.cumsum"][-1]))
    print(f"{name:12} {run[-1]:.2f} {off_numpy:.2f} {np.abs(run - reference).max():.3f}")
    #> np.cumsum    500373.44 0.00 9.133
    #> torch.cumsum 500377.28 3.84 0.016
    #> tf.cumsum    500373.44 0.00 9.133

# PyTorch's float32 result is the float64 running total rounded to float32.
t = torch.from_numpy(values)
print(torch.equal(torch.cumsum(t, 0), torch.cumsum(t.double(), 0).float()))
#> True

# The fix for agreement: accumulate in float64 in every library.
in_numpy = np.cumsum(values, dtype=np.float64)[-1]
in_torch = torch.cumsum(t, 0, dtype=torch.float64)[-1].item()
in_tf = tf.cumsum(tf.cast(values, tf.float64))[-1].numpy()
print(f"{in_numpy:.4f} {in_torch:.4f} {in_tf:.4f}")
#> 500377.2696 500377.2696 500377.2696
# --8<-- [end:cumsum_across_libraries]

# --8<-- [start:layer_norm_float32_variance]
import torch

x = (torch.arange(4 * 32) + 6_000_000).reshape(4, 32).float()  # rows of 32 values near 6 million
layer_norm = torch.nn.LayerNorm(32, elementwise_affine=False)
mean = x.mean(-1, keepdim=True)
var_one_pass = (x * x).mean(-1, keepdim=True) - mean * mean  # E[x^2] - E[x]^2, in float32
print(var_one_pass.flatten())  # the true variance of every row is 85.25
#> tensor([4194304.,       0.,       0.,       0.])
print(round(float((layer_norm(x) - (x - mean) / torch.sqrt(var_one_pass + 1e-5)).abs().mean())))
#> 1897

# The fix: subtract the mean before squaring (what x.var does), or compute in float64.
var = ((x - mean) ** 2).mean(-1, keepdim=True)
print(var.flatten(), x.var(-1, unbiased=False).flatten())
#> tensor([85.2500, 85.2500, 85.2500, 85.2500]) tensor([85.2500, 85.2500, 85.2500, 85.2500])
print(torch.allclose(layer_norm(x), (x - mean) / torch.sqrt(var + 1e-5), atol=1e-6))
#> True
x64 = x.double()
var64 = (x64 * x64).mean(-1) - x64.mean(-1) ** 2  # the one-pass formula, but in float64
print(var64)
#> tensor([85.2500, 85.2500, 85.2500, 85.2500], dtype=torch.float64)
# --8<-- [end:layer_norm_float32_variance]

# --8<-- [start:cdist_mm_cancellation]
import numpy as np
import torch

a, b = torch.tensor([[512695.0]]), torch.tensor([[512804.0]])  # float32 points, 109 apart
print(torch.cdist(a, b, compute_mode="use_mm_for_euclid_dist"))
#> tensor([[0.]])
print(torch.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist"))
#> tensor([[109.]])
# The matrix-product route: |a|^2 + |b|^2 - 2 a.b, three numbers near 2.6e11 in float32.
print(float(a.square().sum() + b.square().sum() - 2 * (a * b).sum()))
#> 0.0
# The default mode takes that route once either side has more than 25 points.
x25, y25 = a.expand(25, 1), b.expand(25, 1)
x26, y26 = a.expand(26, 1), b.expand(26, 1)
print(torch.cdist(x25, y25)[0, 0].item(), torch.cdist(x26, y26)[0, 0].item())
#> 109.0 0.0

# Fixes: the direct mode, float64, or points centred near 0 (distances do not change).
print(torch.cdist(x26, y26, compute_mode="donot_use_mm_for_euclid_dist")[0, 0].item())
#> 109.0
print(torch.cdist(x26.double(), y26.double())[0, 0].item())
#> 109.0
centre = torch.cat([x26, y26]).mean(0)
print(torch.cdist(x26 - centre, y26 - centre)[0, 0].item())
#> 109.0
# NumPy has no cdist; the same expansion written by hand in float32 cancels the same way.
p, q = np.array([512695.0], np.float32), np.array([512804.0], np.float32)
print(np.sqrt(np.maximum(p @ p + q @ q - 2 * (p @ q), 0)), np.sqrt((p - q) @ (p - q)))
#> 0.0 109.0
# --8<-- [end:cdist_mm_cancellation]

# --8<-- [start:float16_norm]
import warnings

vector = np.array([1000], dtype=np.float16)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(np.linalg.norm(vector))  # 1000 * 1000 is beyond float16's 65504
    #> inf
print([f"{w.category.__name__}: {w.message}" for w in caught])
#> ['RuntimeWarning: overflow encountered in dot']
print(float(np.finfo(np.float16).max))
#> 65504.0

# The same by hand in PyTorch: the square overflows before the square root.
values = torch.tensor([1000.0], dtype=torch.float16)
print(values.pow(2).sum().sqrt())
#> tensor(inf, dtype=torch.float16)

# The fix: compute the norm in float32.
print(np.linalg.norm(vector.astype(np.float32)))
#> 1000.0
print(values.float().pow(2).sum().sqrt())
#> tensor(1000.)
# --8<-- [end:float16_norm]

# --8<-- [start:float_equality]
total = torch.tensor([0.1, 0.2, 0.3]) + torch.tensor([0.4, 0.5, 0.6])
expected = torch.tensor([0.5, 0.7, 0.9])
print(total, expected)  # printed alike
#> tensor([0.5000, 0.7000, 0.9000]) tensor([0.5000, 0.7000, 0.9000])
print(torch.equal(total, expected), total == expected)
#> False tensor([ True,  True, False])
print(total - expected)  # the last element differs in its last bit
#> tensor([0.0000e+00, 0.0000e+00, 5.9605e-08])

# The fix: compare within a tolerance.
print(torch.allclose(total, expected), torch.isclose(total, expected))
#> True tensor([True, True, True])
print(np.isclose(total.numpy(), expected.numpy()))
#> [ True  True  True]

# The same with `in`: np.arange's fourth step is not exactly 0.3, and `in` compares with ==.
steps = np.arange(0, 1, 0.1)
print(steps[3], 0.3 in steps, np.isclose(steps, 0.3).any())
#> 0.30000000000000004 False True
# --8<-- [end:float_equality]

# --8<-- [start:float_threshold]
import numpy as np

xx = np.array([3.1, 2.1, 5.1, 1.1])
yy = np.array([3.0, 2.0, 5.0, 1.0])
diff = np.absolute(xx - yy)
print(diff, diff < 0.1)  # all print as 0.1, one is below 0.1
#> [0.1 0.1 0.1 0.1] [False False  True False]
print([format(d, ".20f") for d in diff])  # the stored values
"""
['0.10000000000000008882', '0.10000000000000008882', '0.09999999999999964473', '0.10000000000000008882']
"""
print(format(0.1, ".20f"))  # the threshold is a rounded binary float too
#> 0.10000000000000000555

# The fix: leave a tolerance at the threshold.
print(diff < 0.1 + 1e-9)
#> [ True  True  True  True]
print(np.isclose(diff, 0.1) | (diff < 0.1))
#> [ True  True  True  True]
# --8<-- [end:float_threshold]

# --8<-- [start:max_pool_nan]
import torch
import torch.nn.functional as F

signal = torch.tensor([[[1.0, float("nan"), 3.0, 2.0]]])
print(F.max_pool1d(signal, 2), signal.max())  # the NaN's window gives NaN, as max() does
#> tensor([[[nan, 3.]]]) tensor(nan)
print(F.max_pool2d(signal.view(1, 1, 2, 2), 2), F.max_pool1d(torch.full((1, 1, 2), float("nan")), 2))
#> tensor([[[[nan]]]]) tensor([[[nan]]])

# To skip NaN, replace it (and only it) with -inf before pooling.
print(F.max_pool1d(signal.masked_fill(signal.isnan(), float("-inf")), 2))
#> tensor([[[1., 3.]]])
# --8<-- [end:max_pool_nan]

# --8<-- [start:float32_sum_order]
import torch

image = torch.tensor([[[0.1]], [[0.3]], [[0.4]]])  # one pixel, channels R, G, B: (3, 1, 1)
total = image.sum(0)
reordered = image[[2, 1, 0]].sum(0)  # the same channels as B, G, R
print(total.flatten(), reordered.flatten())  # they print the same
#> tensor([0.8000]) tensor([0.8000])
print(torch.equal(total, reordered), (total - reordered).abs().item())
#> False 5.960464477539063e-08
print(total.item(), reordered.item())  # (0.1 + 0.3) + 0.4 against (0.4 + 0.3) + 0.1
#> 0.800000011920929 0.8000000715255737

# The fix: compare floating-point sums within a tolerance.
print(torch.allclose(total, reordered))
#> True
# --8<-- [end:float32_sum_order]

# --8<-- [start:mean_vs_average]
import numpy as np
import torch

rng = np.random.default_rng(0)
X = (rng.random((100, 1000)) * 0.05).astype(np.float32)  # float32 values below 0.05
avg_np = np.average(X, axis=1)
avg_th = torch.mean(torch.from_numpy(X), dim=1)
print(np.array_equal(avg_np, avg_th.numpy()))  # not identical...
#> False
print(np.abs(avg_np - avg_th.numpy()).max() < 1e-8)  # ...but the gap is below 1e-8
#> True
centred_np = X - avg_np[:, None]
centred_th = (torch.from_numpy(X) - avg_th[:, None]).numpy()

# np.abs(a[a != b]).max() prints the largest value that differs, not the difference:
a = np.array([0.0374, -0.0121], dtype=np.float32)
b = a.copy()
b[0] = np.nextafter(a[0], np.float32(1))  # one float32 step above a[0]
print(np.abs(a[a != b]).max(), np.abs(a - b).max())
#> 0.0374 3.7252903e-09

# The fix: measure the difference itself, and compare with a tolerance.
print(np.abs(centred_np - centred_th).max() < 1e-8, np.allclose(centred_np, centred_th))
#> True True
# --8<-- [end:mean_vs_average]

# --8<-- [start:arange_float_stop]
import numpy as np
import torch

steps = np.arange(112.8, 112.9, 0.01)  # the stop, 112.9, should be left out
print(len(steps), steps[-1])
#> 11 112.90000000000005
print(np.arange(1, 1.3, 0.1), torch.arange(1, 1.3, 0.1))
#> [1.  1.1 1.2 1.3] tensor([1.0000, 1.1000, 1.2000, 1.3000])

# The fix: give linspace the number of values (endpoint=False leaves the stop out).
steps = np.linspace(112.8, 112.9, 10, endpoint=False)
print(len(steps), steps[-1].round(2))
#> 10 112.89
print(torch.linspace(1, 1.2, 3))
#> tensor([1.0000, 1.1000, 1.2000])
# --8<-- [end:arange_float_stop]

# --8<-- [start:nll_loss_half]
import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(70000, 3).half()  # 70000 predictions of 3 classes, in float16
target = torch.randint(0, 3, (70000,))
log_probs = F.log_softmax(logits, dim=1)
print(torch.nn.NLLLoss()(log_probs, target), F.cross_entropy(logits, target))  # reduction="mean"
#> tensor(nan, dtype=torch.float16) tensor(nan, dtype=torch.float16)
print(F.nll_loss(log_probs, target, reduction="none").float().mean())  # the unreduced loss: finite
#> tensor(1.3879)

# The mean is the summed loss over the summed weights (here the count), both float16: inf / inf.
print(torch.ops.aten.nll_loss_forward(log_probs, target, None, 1, -100))  # 1: reduction="mean"
#> (tensor(nan, dtype=torch.float16), tensor(inf, dtype=torch.float16))

# The fix: compute the loss in float32, from the logits or from the log-probabilities.
print(F.cross_entropy(logits.float(), target), torch.nn.NLLLoss()(log_probs.float(), target))
#> tensor(1.3879) tensor(1.3879)
# --8<-- [end:nll_loss_half]

# --8<-- [start:negative_fractional_power]
import numpy as np
import tensorflow as tf
import torch

x = torch.tensor([-8.0, -1.0, 8.0])
print((x ** (1 / 3)).round(decimals=4))  # a fractional power of a negative number: nan, not -2
#> tensor([nan, nan, 2.])
# GeM pooling, (mean(x**p) + eps) ** (1/p), over features that can be negative.
features = torch.tensor([[-3.0, 1.0, 0.5, -2.0], [1.0, 2.0, 0.5, 3.0]], requires_grad=True)
p = 3.0
pooled = (torch.mean(features**p, dim=-1) + 1e-12) ** (1 / p)
loss = pooled.sum()
print(torch.mean(features**p, dim=-1).detach(), pooled.detach(), loss.detach())
#> tensor([-8.4688,  9.0312]) tensor([   nan, 2.0825]) tensor(nan)
loss.backward()
print(features.grad)  # the nan reaches every gradient of that row
"""
tensor([[   nan,    nan,    nan,    nan],
        [0.0576, 0.2306, 0.0144, 0.5188]])
"""
# NumPy and TensorFlow give nan too; plain Python gives a complex number.
with np.errstate(invalid="ignore"):
    print(np.power(-8.0, 1 / 3), tf.pow(-8.0, 1 / 3).numpy(), type((-8.0) ** (1 / 3)).__name__)
    #> nan nan complex

# Fix 1: clamp the features to a small positive minimum before the power.
features.grad = None
pooled = features.clamp(min=1e-6).pow(p).mean(dim=-1).pow(1 / p)
pooled.sum().backward()
print(pooled.detach(), features.grad.isnan().any().item())
#> tensor([0.6552, 2.0825]) False
# Fix 2, where the sign matters: the real root of the magnitude, with the sign put back.
print((torch.sign(x) * x.abs() ** (1 / 3)).round(decimals=4))
#> tensor([-2., -1.,  2.])
# --8<-- [end:negative_fractional_power]
