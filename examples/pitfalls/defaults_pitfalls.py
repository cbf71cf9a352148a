"""Defaults that differ between libraries: the same call, another result.

Each section runs code that raises nothing and prints a result readers did not expect,
then the fix's result.

Run with `python examples/pitfalls/defaults_pitfalls.py`.
"""

# --8<-- [start:std_ddof]
import numpy as np
import tensorflow as tf
import torch

values = [1.0, -1.0, 3.0]
print(np.std(values), torch.std(torch.tensor(values)), tf.math.reduce_std(values).numpy())
#> 1.632993161855452 tensor(2.) 1.6329932

# Say which one you mean: divide by n (correction=0) or by n - 1 (ddof=1).
print(torch.std(torch.tensor(values), correction=0), np.std(values, ddof=1))
#> tensor(1.6330) 2.0
# --8<-- [end:std_ddof]

# --8<-- [start:median_even]
import numpy as np
import torch

errors = [1.0, 2.0, 3.0, 4.0]  # an even number of values
print(np.median(errors), torch.median(torch.tensor(errors)))
#> 2.5 tensor(2.)

# The mean of the two middle values, as NumPy computes it.
print(torch.quantile(torch.tensor(errors), 0.5), np.percentile(errors, 50))
#> tensor(2.5000) 2.5
# --8<-- [end:median_even]

# --8<-- [start:quantile_linear]
import numpy as np
import torch

x = np.array([374, 358, 341, 355, 342, 334, 353, 346, 355, 344,
              349, 330, 352, 328, 336, 359, 361, 345, 324, 386,
              334, 370, 349, 327, 342, 354, 361, 354, 377, 324])  # 30 values
q = np.quantile(x, 0.25)  # default method="linear"
print(q, (x >= q).mean().round(3), (x <= q).mean().round(3))  # share at or above, at or below
#> 337.25 0.733 0.267
print(torch.quantile(torch.tensor(x, dtype=torch.float64), 0.25).item())  # same default
#> 337.25

# The textbook definition: the smallest value with at least 25% of the data at or below it.
for method in ["inverted_cdf", "lower"]:
    q = np.quantile(x, 0.25, method=method)
    print(method, q, (x >= q).mean().round(3), (x <= q).mean().round(3))
    #> inverted_cdf 336 0.767 0.267
    #> lower 336 0.767 0.267
print(torch.quantile(torch.tensor(x, dtype=torch.float64), 0.25, interpolation="lower").item())
#> 336.0
# --8<-- [end:quantile_linear]

# --8<-- [start:meshgrid_indexing]
import warnings

import numpy as np
import tensorflow as tf
import torch

xs, ys = np.arange(3), np.arange(2)  # 3 columns, 2 rows
print(np.meshgrid(xs, ys)[0].shape, tf.meshgrid(xs, ys)[0].shape)
#> (2, 3) (2, 3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    grid_x, grid_y = torch.meshgrid(torch.arange(3), torch.arange(2))
message = str(caught[0].message).split(" (Triggered")[0]  # the rest names a build path
print(grid_x.shape, caught[0].category.__name__, message)
"""
torch.Size([3, 2]) UserWarning torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.
"""

# Pass indexing: "xy" gives NumPy's and TensorFlow's grids, "ij" the transposed ones.
grid_x, grid_y = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="xy")
print(grid_x.shape, np.array_equal(grid_x.numpy(), np.meshgrid(xs, ys)[0]))
#> torch.Size([2, 3]) True
grid_x, grid_y = torch.meshgrid(torch.arange(3), torch.arange(2), indexing="ij")
print(np.array_equal(grid_x.numpy(), np.meshgrid(xs, ys, indexing="ij")[0]))  # NumPy's "ij" too
#> True

# Three inputs give three grids; under "ij" each input runs along its own axis and repeats along the others.
zs = torch.tensor([10, 20, 30, 40])
gx, gy, gz = torch.meshgrid(torch.arange(3), torch.arange(2), zs, indexing="ij")
print(gx.shape, gy.shape, gz.shape)
#> torch.Size([3, 2, 4]) torch.Size([3, 2, 4]) torch.Size([3, 2, 4])
print(gx[:, 1, 3].tolist(), gz[2, 1].tolist(), torch.meshgrid(torch.arange(3), torch.arange(2), zs, indexing="xy")[0].shape)  # "xy" swaps the first two axes
#> [0, 1, 2] [10, 20, 30, 40] torch.Size([2, 3, 4])
print(torch.equal(gx, torch.arange(3)[:, None, None].expand(3, 2, 4)), torch.equal(gz, zs.expand(3, 2, 4)))
#> True True
# --8<-- [end:meshgrid_indexing]

# --8<-- [start:repeat_interleave]
import numpy as np
import torch

rows = torch.tensor([[1, 2], [3, 4]])  # 2 rows, each to appear twice
print(rows.repeat_interleave(2, dim=0).tolist())  # each row twice in turn
#> [[1, 2], [1, 2], [3, 4], [3, 4]]
print(rows.repeat(2, 1).tolist())  # the whole block twice
#> [[1, 2], [3, 4], [1, 2], [3, 4]]

# Name the NumPy call you mean: np.repeat is repeat_interleave, np.tile is repeat.
print(np.repeat(rows.numpy(), 2, axis=0).tolist(), np.tile(rows.numpy(), (2, 1)).tolist())
#> [[1, 2], [1, 2], [3, 4], [3, 4]] [[1, 2], [3, 4], [1, 2], [3, 4]]
# --8<-- [end:repeat_interleave]

# --8<-- [start:keras_from_logits]
import tensorflow as tf
import torch
import torch.nn.functional as F

logits = tf.constant([[2.0, -1.0, 0.5], [0.0, 3.0, -2.0]])  # a last layer without softmax
labels = tf.constant([0, 1])

loss = tf.keras.losses.SparseCategoricalCrossentropy()  # from_logits=False by default
print(round(float(loss(labels, logits)), 4))  # the scores are read as probabilities
#> 0.2027
print(F.cross_entropy(torch.tensor(logits.numpy()), torch.tensor(labels.numpy()).long()))
#> tensor(0.1481)
# What the default computed: the scores clipped to [1e-7, 1 - 1e-7], each row's share taken.
clipped = tf.clip_by_value(logits, 1e-7, 1 - 1e-7)
shares = tf.gather(clipped / tf.reduce_sum(clipped, axis=-1, keepdims=True), labels, batch_dims=1)
print(round(float(tf.reduce_mean(-tf.math.log(shares))), 4))
#> 0.2027

# The fix: from_logits=True for raw scores (or a softmax in the model, and the default).
loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
print(round(float(loss(labels, logits)), 4))
#> 0.1481
print(round(float(tf.keras.losses.sparse_categorical_crossentropy(labels, tf.nn.softmax(logits)).numpy().mean()), 4))
#> 0.1481
# --8<-- [end:keras_from_logits]

# --8<-- [start:keras_softmax_from_logits]
import warnings

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)
x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, -1.0]], dtype="float32")
y = np.array([0, 1, 2, 0])
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, activation="softmax")])
wrong = keras.losses.SparseCategoricalCrossentropy(from_logits=True)  # on a softmax output
right = keras.losses.SparseCategoricalCrossentropy()  # from_logits=False

probs = model(x)  # a Keras softmax output remembers its logits
model.compile(loss=wrong, run_eagerly=True)  # the reader's setup: fit and evaluate compute the loss on that output
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(round(float(wrong(y, probs)), 4), round(model.evaluate(x, y, verbose=0), 4))  # the remembered logits
    #> 0.9201 0.9201
print(sorted({f"{w.category.__name__}: {str(w.message)[:70]}" for w in caught}))  # and warns
#> ['UserWarning: "`sparse_categorical_crossentropy` received `from_logits=True`, but th']

# Probabilities without that memory (predict's NumPy array, tf.nn.softmax): silently wrong.
plain = model.predict(x, verbose=0)
print(round(float(wrong(y, plain)), 4), round(float(wrong(y, tf.nn.softmax(tf.math.log(plain)))), 4))
#> 1.0305 1.0305

# The fix: from_logits=False on probabilities, or no softmax in the model and from_logits=True.
print(round(float(right(y, plain)), 4), round(float(wrong(y, tf.math.log(plain))), 4))
#> 0.9201 0.9201
# --8<-- [end:keras_softmax_from_logits]

# --8<-- [start:keras_bce_two_softmax]
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(38)
x = np.array([[0.4]])
y = np.array([[0, 1]])  # the second of two classes, one-hot
model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(256, activation="relu"), keras.layers.Dense(2, activation="softmax")])
bce = keras.losses.BinaryCrossentropy()
model.compile(loss=bce, run_eagerly=True)
probs = model.predict(x, verbose=0)
manual = np.mean(-y * np.log(probs) - (1 - y) * np.log(1 - probs))
print(probs.round(3), "evaluate:", round(model.evaluate(x, y, verbose=0), 3), "on predict:", round(float(bce(y, probs)), 3), "by hand:", round(manual, 3))
#> [[0.515 0.485]] evaluate: 0.709 on predict: 0.724 by hand: 0.724

# What evaluate computes: the softmax's output carries its logits, and binary cross-entropy
# reads each of them as a sigmoid's logit.
dense = model.layers[1]
logits = keras.ops.matmul(model.layers[0](x), dense.kernel) + dense.bias
per_unit = tf.nn.sigmoid_cross_entropy_with_logits(labels=y.astype("float32"), logits=logits)
print("on model(x):", round(float(bce(y, model(x))), 3), "sigmoid of each logit:", round(float(tf.reduce_mean(per_unit)), 3))
#> on model(x): 0.709 sigmoid of each logit: 0.709

# The fix: categorical cross-entropy for a softmax over two units...
model.compile(loss=keras.losses.CategoricalCrossentropy(), run_eagerly=True)
print("categorical, test_on_batch:", round(model.test_on_batch(x, y), 3), "by hand:", round(float(-np.log(probs[0, 1])), 3))
#> categorical, test_on_batch: 0.724 by hand: 0.724
# ...or one sigmoid unit with binary cross-entropy, and the label of the second class.
one_unit = keras.Sequential([keras.Input((1,)), keras.layers.Dense(256, activation="relu"), keras.layers.Dense(1, activation="sigmoid")])
one_unit.compile(loss=bce, run_eagerly=True)
p = one_unit.predict_on_batch(x)
label = y[:, 1:]
by_hand = np.mean(-label * np.log(p) - (1 - label) * np.log(1 - p))
print("one sigmoid unit, test_on_batch:", round(one_unit.test_on_batch(x, label), 3), "by hand:", round(by_hand, 3))
#> one sigmoid unit, test_on_batch: 0.675 by hand: 0.675
# --8<-- [end:keras_bce_two_softmax]

# --8<-- [start:softmax_cross_entropy]
import math

import tensorflow as tf
import torch
import torch.nn.functional as F

logits = torch.tensor([[20.0, -20.0, -20.0, -20.0]])  # 4 classes, certain of class 0
labels = torch.tensor([0])
loss = torch.nn.CrossEntropyLoss()
print(round(loss(logits.softmax(dim=1), labels).item(), 4))  # softmax, then the loss's own
#> 0.7437
# The floor: probabilities lie in [0, 1], so the second softmax gives class 0 at most e / (e + 3).
print(round(math.log(1 + 3 / math.e), 4))
#> 0.7437

# The fix: give the loss the raw logits (keep softmax for reading probabilities).
print(round(loss(logits, labels).item(), 4))
#> 0.0
# A model that must end in probabilities: NLLLoss on their log gives the same loss.
print(round(F.nll_loss(logits.softmax(dim=1).log(), labels).item(), 4))
#> 0.0
# Keras: from_logits=True on a softmax output is the same mistake.
probs = tf.nn.softmax(tf.constant(logits.numpy()))
keras_loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
print(round(float(keras_loss(labels.numpy(), probs)), 4))
#> 0.7437
# --8<-- [end:softmax_cross_entropy]

# --8<-- [start:sigmoid_bce_with_logits]
targets = torch.tensor([[1.0, 0.0, 1.0]])  # multi-label: 3 labels, each 0 or 1
scores = torch.tensor([[20.0, -20.0, 20.0]])  # raw outputs, certain and right
bce = torch.nn.BCEWithLogitsLoss()
print(round(bce(torch.sigmoid(scores), targets).item(), 4))  # sigmoid, then the loss's own
#> 0.4399
# The fix: raw outputs to BCEWithLogitsLoss, or a sigmoid and BCELoss: the same loss.
print(round(bce(scores, targets).item(), 4))
#> 0.0
logits = torch.tensor([[4.0, -4.0, 0.5]])
with_logits = bce(logits, targets).item()
after_sigmoid = torch.nn.BCELoss()(torch.sigmoid(logits), targets).item()
print(round(with_logits, 4), round(after_sigmoid, 4))
#> 0.1701 0.1701
# Keras: BinaryCrossentropy(from_logits=True) is BCEWithLogitsLoss.
keras_bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
print(round(float(keras_bce(targets.numpy(), logits.numpy())), 4))
#> 0.1701
# --8<-- [end:sigmoid_bce_with_logits]

# --8<-- [start:bce_clip]
import keras
import numpy as np
import torch
import torch.nn.functional as F

labels = np.array([[1.0, 0.0, 1.0]], dtype=np.float32)
for probs in ([[0.9, 0.2, 0.8]], [[0.9, 0.2, 0.0]]):  # the second: a certain, wrong 0
    p = np.array(probs, dtype=np.float32)
    keras_fn = float(keras.losses.binary_crossentropy(labels, p)[0])
    keras_class = float(keras.losses.BinaryCrossentropy()(labels, p))
    torch_bce = F.binary_cross_entropy(torch.from_numpy(p), torch.from_numpy(labels)).item()
    print(f"Keras {keras_fn:.4f} {keras_class:.4f}  PyTorch {torch_bce:.4f}")
    #> Keras 0.1839 0.1839  PyTorch 0.1839
    #> Keras 5.4822 5.4822  PyTorch 33.4428
# The terms of the wrong 0: Keras clips p to 1e-7, PyTorch clamps log(p) at -100.
print(f"{-np.log(np.float32(1e-7)):.4f} {100.0:.4f}")
#> 16.1181 100.0000
# The fix: logits, which neither library clips.
logits = torch.tensor([[2.0, -1.5, -20.0]])
torch_logits = F.binary_cross_entropy_with_logits(logits, torch.from_numpy(labels)).item()
keras_logits = float(keras.losses.BinaryCrossentropy(from_logits=True)(labels, logits.numpy()))
print(f"Keras {keras_logits:.4f}  PyTorch {torch_logits:.4f}")
#> Keras 6.7761  PyTorch 6.7761
# --8<-- [end:bce_clip]

# --8<-- [start:layer_norm_std]
import inspect

import tensorflow as tf
import torch
from torch import nn

x = torch.tensor([[3.4, 5.6, 7.8], [2.0, 3.0, 4.0]])
layer_norm = nn.LayerNorm(3, eps=0.0, elementwise_affine=False)
by_hand = (x - x.mean(-1, keepdim=True)) / x.std(-1, keepdim=True)  # divides by n - 1
print(by_hand)
"""
tensor([[-1.0000,  0.0000,  1.0000],
        [-1.0000,  0.0000,  1.0000]])
"""
print(layer_norm(x).round(decimals=4))  # divides by n
"""
tensor([[-1.2247,  0.0000,  1.2247],
        [-1.2247,  0.0000,  1.2247]])
"""
print(x.std(-1), tf.math.reduce_std(tf.constant(x.numpy()), axis=-1).numpy())
#> tensor([2.2000, 1.0000]) [1.7962925 0.8164966]
print(inspect.signature(tf.math.reduce_std), inspect.signature(tf.experimental.numpy.std))
#> (input_tensor, axis=None, keepdims=False, name=None) (a, axis=None, keepdims=None)

# The fix: correction=0 gives nn.LayerNorm's statistics.
by_hand = (x - x.mean(-1, keepdim=True)) / x.std(-1, keepdim=True, correction=0)
print(torch.allclose(by_hand, layer_norm(x)))
#> True
# In TensorFlow, which has no ddof, scale the n estimate by sqrt(n / (n - 1)) for PyTorch's default.
n = x.shape[-1]
unbiased = tf.math.reduce_std(tf.constant(x.numpy()), axis=-1) * (n / (n - 1)) ** 0.5
print(unbiased.numpy().round(4))
#> [2.2 1. ]
# --8<-- [end:layer_norm_std]

# --8<-- [start:embedding_padding_idx]
import torch
from torch import nn

torch.manual_seed(0)
e = nn.Embedding(3, 2, padding_idx=0)
index = torch.tensor([0, 1])
print(e(index))  # row 0 is zero: set once, at construction
"""
tensor([[ 0.0000,  0.0000],
        [-2.1788,  0.5684]], grad_fn=<EmbeddingBackward0>)
"""
e.weight = nn.Parameter(torch.randn(3, 2))  # new weights, as load_state_dict would copy in
print(e(index))  # row 0 is no longer zero
"""
tensor([[ 0.4033,  0.8380],
        [-0.7193, -0.4033]], grad_fn=<EmbeddingBackward0>)
"""
e(index).sum().backward()
print(e.weight.grad)  # but padding_idx still gives row 0 no gradient
"""
tensor([[0., 0.],
        [1., 1.],
        [0., 0.]])
"""
print(torch.nn.functional.embedding(index, e.weight, padding_idx=0))  # never zeroes either
"""
tensor([[ 0.4033,  0.8380],
        [-0.7193, -0.4033]], grad_fn=<EmbeddingBackward0>)
"""

# The fix: zero the row again after replacing or loading the weights.
with torch.no_grad():
    e.weight[e.padding_idx].zero_()
print(e(index))
"""
tensor([[ 0.0000,  0.0000],
        [-0.7193, -0.4033]], grad_fn=<EmbeddingBackward0>)
"""
# --8<-- [end:embedding_padding_idx]
