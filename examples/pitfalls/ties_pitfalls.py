"""Order and ties: results that depend on the order of equal values or of repeated indices.

Each section runs code that raises nothing and prints a result readers did not expect,
then the fix's result.

Run with `python examples/pitfalls/ties_pitfalls.py`. Its TensorFlow section turns on op
determinism, which changes TensorFlow for the whole process and cannot be undone, so the test
suite runs this script in a process of its own (the launch line below).
"""
# launch: python 1

# --8<-- [start:numpy_argsort]
import numpy as np

rng = np.random.default_rng(0)
labels = rng.integers(0, 3, size=1000)  # 1000 labels, many of them equal
zeros_in_order = np.flatnonzero(labels == 0)  # where the 0s are, first to last

order = np.argsort(labels)  # default kind="quicksort": not stable
print(np.array_equal(order[: len(zeros_in_order)], zeros_in_order))
#> False

stable = np.argsort(labels, kind="stable")  # equal labels keep their original order
print(np.array_equal(stable[: len(zeros_in_order)], zeros_in_order))
#> True
print(stable[:5], zeros_in_order[:5])
#> [3 4 5 6 7] [3 4 5 6 7]
# --8<-- [end:numpy_argsort]

# --8<-- [start:sort_by_columns]
import numpy as np
import torch

rows = np.array([[2, 5], [1, 3], [2, 9], [1, 7], [3, 1]])
# Column 0 ascending, then column 1 descending; np.lexsort takes the primary key last.
print(rows[np.lexsort((-rows[:, 1], rows[:, 0]))])
"""
[[1 7]
 [1 3]
 [2 9]
 [2 5]
 [3 1]]
"""
print(rows[np.argsort(rows[:, 0], kind="stable")])  # one key only: column 1 stays unsorted
"""
[[1 3]
 [1 7]
 [2 5]
 [2 9]
 [3 1]]
"""

# PyTorch: stable argsorts, from the last key to the first.
t = torch.from_numpy(rows)
order = torch.argsort(t[:, 1], descending=True, stable=True)
order = order[torch.argsort(t[order, 0], stable=True)]
print(t[order].tolist())
#> [[1, 7], [1, 3], [2, 9], [2, 5], [3, 1]]
# --8<-- [end:sort_by_columns]

# --8<-- [start:torch_argsort]
import torch

scores = torch.zeros(17)  # 17 equal values
print(torch.equal(torch.argsort(scores), torch.arange(17)))  # default stable=False
#> False
print(torch.equal(torch.argsort(torch.zeros(16)), torch.arange(16)))  # 16 equal values
#> True
print(torch.argsort(scores, stable=True))
#> tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16])
print(torch.sort(scores, stable=True).indices.equal(torch.arange(17)))
#> True
# --8<-- [end:torch_argsort]

# --8<-- [start:argsort_not_rank]
import numpy as np
import torch

x = torch.tensor([[1.54, -0.29], [-2.18, 0.57], [-1.08, -1.40], [0.40, 0.84], [-0.72, -0.40]])
order = torch.argsort(x, dim=0)  # per column: which row holds the smallest, the next, ...
print(order.T)  # transposed to fit a line: one row per column of x
"""
tensor([[1, 2, 4, 3, 0],
        [2, 4, 0, 1, 3]])
"""
print(torch.equal(x.gather(0, order), torch.sort(x, dim=0).values))  # it does sort
#> True

# Each element's rank (0 = smallest): argsort the argsort.
print(torch.argsort(order, dim=0).T)
"""
tensor([[4, 0, 1, 3, 2],
        [2, 3, 0, 4, 1]])
"""
# Rank 0 = largest, what the reader expected:
print(torch.argsort(torch.argsort(x, dim=0, descending=True), dim=0).T)
"""
tensor([[0, 4, 3, 1, 2],
        [2, 1, 4, 0, 3]])
"""
# The same without a second sort: scatter 0..n-1 to the places argsort names.
ranks = torch.empty_like(order).scatter_(0, order, torch.arange(5).unsqueeze(1).expand(5, 2))
print(ranks.T)
"""
tensor([[4, 0, 1, 3, 2],
        [2, 3, 0, 4, 1]])
"""
print(np.argsort(np.argsort(x.numpy(), axis=0), axis=0).T)  # NumPy: the same two steps
"""
[[4 0 1 3 2]
 [2 3 0 4 1]]
"""
# --8<-- [end:argsort_not_rank]

# --8<-- [start:argmax_ties]
import numpy as np
import torch

probs = torch.tensor([[0.1, 0.7, 0.2, 0.7], [0.5, 0.5, 0.0, 0.0]])  # each row: a tied maximum
print(probs.argmax(dim=1), probs.max(dim=1).indices, np.argmax(probs.numpy(), axis=1))
#> tensor([1, 0]) tensor([1, 0]) [1 0]

# The last index of an ascending sort: the last of the tied maxima, not the first.
print(np.argsort(probs.numpy(), axis=1, kind="stable")[:, -1])
#> [3 1]

# A descending sort that agrees with argmax: sort the negated values, stably.
print(np.argsort(-probs.numpy(), axis=1, kind="stable")[:, 0])
#> [1 0]
# --8<-- [end:argmax_ties]

# --8<-- [start:argmax_ties_old]
import numpy as np
import torch

a = torch.zeros(1, 3, 10, 10)  # the 2020 report: PyTorch 1.4 and 1.6 returned 2 here
b = torch.argmax(a, dim=1)
print(b.min().item(), b.max().item(), np.argmax(a.numpy(), axis=1).max())
#> 0 0 0
print(a.max(dim=1).indices.max().item(), a.argmin(dim=1).max().item())
#> 0 0

# Independent of any tie-break: the smallest channel index that holds the maximum.
is_max = a == a.amax(dim=1, keepdim=True)
channels = torch.arange(a.shape[1]).view(1, -1, 1, 1)
print(torch.where(is_max, channels, a.shape[1]).amin(dim=1).max().item())
#> 0
# --8<-- [end:argmax_ties_old]

# --8<-- [start:topk_ties]
import torch

x = torch.tensor([-1, -1, -1, -1])  # four equal values
print(torch.topk(x, 1).indices, torch.topk(x, 2).indices)  # not the first indices
#> tensor([2]) tensor([2, 3])

# The fix: argmax returns the first index; a stable descending sort keeps the order of ties.
print(torch.argmax(x), torch.sort(x, descending=True, stable=True).indices[:2])
#> tensor(0) tensor([0, 1])
# --8<-- [end:topk_ties]

# --8<-- [start:topk_unsorted_order]
import numpy as np
import torch

a = torch.tensor([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
print(torch.topk(a, 3, sorted=False))  # the same descending order as sorted=True
"""
torch.return_types.topk(
values=tensor([9., 6., 5.]),
indices=tensor([5, 7, 4]))
"""
print(torch.topk(torch.tensor([1.0, 5.0, 2.0, 8.0, 3.0, 7.0]), 3, sorted=False).values)  # or another
#> tensor([7., 8., 5.])

# The fix: sort the returned indices, then gather the values in their original order.
index = torch.topk(a, 3, sorted=False).indices.sort().values
print(index, a[index], a.gather(0, index))
#> tensor([4, 5, 7]) tensor([5., 9., 6.]) tensor([5., 9., 6.])
top = np.sort(np.argpartition(-a.numpy(), 3)[:3])  # NumPy: the same in original order
print(top, a.numpy()[top])
#> [4 5 7] [5. 9. 6.]
# --8<-- [end:topk_unsorted_order]

# --8<-- [start:argpartition_unsorted]
import numpy as np
import torch

scores = np.random.default_rng(0).random(1000)  # one score per item
top_k = 300
top = np.argpartition(-scores, top_k)[:top_k]
print(np.all(np.diff(scores[top]) <= 0))  # in decreasing order?
#> False
print(np.array_equal(np.sort(scores[top]), np.sort(scores)[-top_k:]))  # but they are the top k
#> True

# The fix: sort the k indices by their scores; torch.topk returns them sorted.
top = top[np.argsort(-scores[top])]
print(np.all(np.diff(scores[top]) <= 0), scores[top][:3].round(4))
#> True [0.9995 0.9972 0.997 ]
indices = torch.topk(torch.from_numpy(scores), top_k).indices
print(np.array_equal(indices.numpy(), top))
#> True
# --8<-- [end:argpartition_unsorted]

# --8<-- [start:scatter_repeated]
import torch

index = torch.tensor([0, 0, 1, 1, 0])  # index 0 three times, index 1 twice
values = torch.tensor([5.0, 2.0, 1.0, 4.0, 3.0])

# scatter: one value per index survives, and which one is not defined.
print(torch.zeros(2).scatter(0, index, values))
#> tensor([3., 4.])

# Say what repeated indices should do: add them up, or keep the largest.
print(torch.zeros(2).index_add(0, index, values))
#> tensor([10.,  5.])
print(torch.zeros(2).scatter_reduce(0, index, values, reduce="sum"))
#> tensor([10.,  5.])
print(torch.zeros(2).scatter_reduce(0, index, values, reduce="amax", include_self=False))
#> tensor([5., 4.])
# --8<-- [end:scatter_repeated]

# --8<-- [start:argwhere_tensor]
import numpy as np
import torch

mask = torch.tensor([[0, 1, 1], [0, 0, 1]])  # three non-zero elements
print(np.argwhere(mask.numpy()).shape)  # on an array: one row per element
#> (3, 2)
found = np.argwhere(mask)  # on a tensor
print(type(found).__name__, found.shape)
#> Tensor torch.Size([2, 3])
print(np.nonzero(mask).shape)  # Tensor.nonzero(): already one row per element
#> torch.Size([3, 2])

# Convert first, or use torch's own function: both give one row per element.
print(np.argwhere(np.asarray(mask)).shape, torch.argwhere(mask).shape)
#> (3, 2) torch.Size([3, 2])
# --8<-- [end:argwhere_tensor]

# --8<-- [start:summation_order]
import numpy as np
import tensorflow as tf

values = np.random.default_rng(0).standard_normal(10_000).astype(np.float32)
order = np.random.default_rng(1).permutation(values.size)
in_order = np.cumsum(values)[-1]  # cumsum adds one value after the other, first to last
shuffled = np.cumsum(values[order])[-1]  # the same values, added in another order
print(in_order, shuffled, in_order == shuffled)
#> 63.11896 63.11894 False

x = np.random.default_rng(2).standard_normal((64, 4)).astype(np.float32)
y = x.sum(axis=1, keepdims=True)


def train_once():
    tf.keras.utils.set_random_seed(0)  # seeds Python's random, NumPy and TensorFlow
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, epochs=2, batch_size=16, verbose=0)
    return model.get_weights()[0]


# The fix: seeds, and kernels that add in a fixed order (on the GPU too).
tf.config.experimental.enable_op_determinism()
print(np.array_equal(train_once(), train_once()))
#> True
# --8<-- [end:summation_order]

# --8<-- [start:set_label_map]
import os
import subprocess
import sys

code = """
labels = ["cat", "dog", "bird", "fish", "cat"]
print({name: i for i, name in enumerate(set(labels))}, end=" ")
print({name: i for i, name in enumerate(sorted(set(labels)))})
"""
# Two runs of the same script, as two fresh interpreters (the hash seed is fixed here
# only so that this page prints the same each time: by default it is random per run).
def run_with_hash_seed(seed):
    env = {**os.environ, "PYTHONHASHSEED": seed}
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    return run.stdout.strip()


print(run_with_hash_seed("1"))
#> {'bird': 0, 'dog': 1, 'cat': 2, 'fish': 3} {'bird': 0, 'cat': 1, 'dog': 2, 'fish': 3}
print(run_with_hash_seed("2"))
#> {'bird': 0, 'cat': 1, 'fish': 2, 'dog': 3} {'bird': 0, 'cat': 1, 'dog': 2, 'fish': 3}
# --8<-- [end:set_label_map]

# --8<-- [start:python_random_seed]
import random

import numpy as np
import torch


def augment(n=5):
    """Random crop offsets drawn the way many augmentation libraries draw them."""
    return [random.randint(0, 31) for _ in range(n)]


np.random.seed(0)
torch.manual_seed(0)
first_run = augment()
np.random.seed(0)  # the same seeds again, as a second run of the script sets them
torch.manual_seed(0)
second_run = augment()
print(first_run == second_run)  # these seeds do not reset Python's random
#> False

# The fix: seed every generator the code draws from, Python's random included.
def seeded_run():
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    return augment()


print(seeded_run())
#> [24, 26, 2, 16, 31]
print(seeded_run())
#> [24, 26, 2, 16, 31]
# --8<-- [end:python_random_seed]
