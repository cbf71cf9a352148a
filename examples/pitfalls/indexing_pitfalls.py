"""Indexing and accumulation: repeated indices, copies made by indexing, and index arrays read
another way than intended.

Each section runs code that raises nothing and prints a result readers did not expect,
then the fix's result.

Run with `python examples/pitfalls/indexing_pitfalls.py`.
"""

# --8<-- [start:repeated_add]
import numpy as np
import torch

m = torch.tensor([1, 1, 2, 0])  # row indices: the pair (1, 2) comes twice
p = torch.tensor([2, 2, 1, 0])  # column indices
g = torch.zeros(3, 3, dtype=torch.long)
g[m, p] += 1
print(g[1, 2], g.sum())  # (1, 2) gained 1, not 2
#> tensor(1) tensor(3)
a = np.zeros((3, 3), dtype=np.int64)
a[m.numpy(), p.numpy()] += 1  # NumPy does the same
print(a[1, 2], a.sum())
#> 1 3

# Add once per repeat: index_put_ with accumulate=True, or np.add.at.
g = torch.zeros(3, 3, dtype=torch.long)
g.index_put_((m, p), torch.ones(4, dtype=torch.long), accumulate=True)
print(g[1, 2], g.sum())
#> tensor(2) tensor(4)
print(torch.zeros(3).index_put_((torch.tensor([0, 0]),), torch.tensor(1.0), accumulate=True))
#> tensor([2., 0., 0.])
a = np.zeros((3, 3), dtype=np.int64)
np.add.at(a, (m.numpy(), p.numpy()), 1)
print(a[1, 2], a.sum())
#> 2 4
# Along one axis, index_add_ does the same.
print(torch.zeros(3, dtype=torch.long).index_add_(0, m, torch.ones(4, dtype=torch.long)))
#> tensor([1, 2, 1])
# --8<-- [end:repeated_add]

# --8<-- [start:chained_mask]
import numpy as np
import torch

a = torch.arange(8)
mask = a < 4
a[mask][1:] = -1  # a[mask] is a copy; the slice assignment writes into that copy
print(a)
#> tensor([0, 1, 2, 3, 4, 5, 6, 7])
b = np.arange(8)
b[b < 4][1:] = -1  # the same in NumPy
print(b)
#> [0 1 2 3 4 5 6 7]

# Index once: turn the mask into positions, pick among them, then write.
positions = torch.where(mask)  # one argument: a tuple of index tensors, as np.where
print(positions, np.where(mask.numpy()))
#> (tensor([0, 1, 2, 3]),) (array([0, 1, 2, 3]),)
print(torch.equal(positions[0], mask.nonzero(as_tuple=True)[0]))
#> True
a[positions[0][1:]] = -1
print(a)
#> tensor([ 0, -1, -1, -1,  4,  5,  6,  7])
# --8<-- [end:chained_mask]

# --8<-- [start:indexed_inplace]
import torch

x = torch.zeros(5)
idx = torch.tensor([0, 2])
v = torch.tensor([1.0, 2.0])
x[idx].add_(v, alpha=-0.1)  # x[idx] is a new tensor: add_ changes that copy
x[idx].fill_(7)  # so does every in-place method
print(x)
#> tensor([0., 0., 0., 0., 0.])
x[idx] -= 0.1 * v  # runs as t = x[idx]; t -= 0.1 * v; x[idx] = t: the last step writes x
print(x)
#> tensor([-0.1000,  0.0000, -0.2000,  0.0000,  0.0000])

# In place, with the index: index_add_. A slice is a view, so its add_ writes through.
y = torch.zeros(5)
y.index_add_(0, idx, v, alpha=-0.1)
print(y)
#> tensor([-0.1000,  0.0000, -0.2000,  0.0000,  0.0000])
z = torch.zeros(5)
z[0:3:2].add_(v, alpha=-0.1)
print(z)
#> tensor([-0.1000,  0.0000, -0.2000,  0.0000,  0.0000])
# --8<-- [end:indexed_inplace]

# --8<-- [start:gather_vs_take]
import numpy as np
import torch

x = np.array([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]])
ind = np.array([[0, 1], [1, 2]])
print(torch.gather(torch.tensor(x), 0, torch.tensor(ind)))  # one element per index
"""
tensor([[1.0000, 3.4000],
        [2.3000, 5.7000]], dtype=torch.float64)
"""
print(np.take(x, ind, axis=0).shape)  # one whole row per index
#> (2, 2, 2)

# np.take's meaning in PyTorch: plain indexing (or index_select for a 1-d index).
print(torch.tensor(x)[torch.tensor(ind)].shape)
#> torch.Size([2, 2, 2])
# torch.gather's meaning in NumPy: take_along_axis.
print(np.take_along_axis(x, ind, axis=0))
"""
[[1.  3.4]
 [2.3 5.7]]
"""

# dim=1: out[i][j] = scores[i][index[i][j]], one pick per row: each sample's score for its label.
scores = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]])
labels = torch.tensor([1, 0])
print(scores.gather(1, labels.unsqueeze(1)))  # index (2, 1): output (2, 1)
"""
tensor([[0.7000],
        [0.5000]])
"""
print(scores.gather(1, labels.unsqueeze(1)).squeeze(1))
#> tensor([0.7000, 0.5000])
# --8<-- [end:gather_vs_take]

# --8<-- [start:batched_gather_nd]
import numpy as np
import tensorflow as tf
import torch

x = torch.arange(24).reshape(2, 4, 3)  # (B, T, H): batch, time steps, features
idx = torch.tensor([[3, 0], [1, 1]])  # (B, K): the steps to pick for each batch element
loop = torch.cat([x[b].index_select(0, idx[b]).unsqueeze(0) for b in range(2)])
print(loop.shape, loop[0].tolist())
#> torch.Size([2, 2, 3]) [[9, 10, 11], [0, 1, 2]]

# One indexing operation: a batch index that broadcasts against idx.
picked = x[torch.arange(2)[:, None], idx]
print(picked.shape, torch.equal(picked, loop))
#> torch.Size([2, 2, 3]) True
# torch.gather needs an index as large as the output: expand idx over H.
gathered = torch.gather(x, 1, idx[:, :, None].expand(-1, -1, 3))
print(torch.equal(gathered, loop))
#> True

# TensorFlow gives the same values with batch_dims=1.
print(np.array_equal(tf.gather(x.numpy(), idx.numpy(), batch_dims=1), loop.numpy()))
#> True
print(np.array_equal(tf.gather_nd(x.numpy(), idx.numpy()[..., None], batch_dims=1), loop.numpy()))
#> True
# --8<-- [end:batched_gather_nd]

# --8<-- [start:take_clip]
import numpy as np
import torch

x = np.array([10, 20, 30, 40])
print(np.take(x, [-1, 4], mode="clip"))  # -1 is clipped to 0, not read as the last
#> [10 40]
print(np.take(x, [-1]), torch.take(torch.tensor(x), torch.tensor([-1])))  # default: last
#> [40] tensor([40])

# Read negative indices first, then clip only what is past the end.
idx = np.array([-1, 4])
print(np.take(x, np.where(idx < 0, idx + len(x), idx), mode="clip"))
#> [40 40]
# --8<-- [end:take_clip]

# --8<-- [start:one_hot_range]
import tensorflow as tf

labels = tf.constant([0, 3, 4, -1])  # 4 and -1 are not classes of depth 4
encoded = tf.one_hot(labels, depth=4)
print(encoded.numpy())
"""
[[1. 0. 0. 0.]
 [0. 0. 0. 1.]
 [0. 0. 0. 0.]
 [0. 0. 0. 0.]]
"""
print(tf.reduce_sum(encoded, axis=1).numpy())  # rows of zeros, no error
#> [1. 1. 0. 0.]

# Check the labels before encoding them.
valid = (labels >= 0) & (labels < 4)
print(bool(tf.reduce_all(valid)), tf.where(~valid)[:, 0].numpy())
#> False [2 3]
# --8<-- [end:one_hot_range]

# --8<-- [start:to_categorical_negative]
import keras
import numpy as np

labels = np.array([-1, 1, 1, -1])  # a binary dataset labelled -1 and 1
print(keras.utils.to_categorical(labels, num_classes=2))  # -1 is read as the last column
"""
[[0. 1.]
 [0. 1.]
 [0. 1.]
 [0. 1.]]
"""
print(np.eye(2)[labels])  # NumPy indexing does the same
"""
[[0. 1.]
 [0. 1.]
 [0. 1.]
 [0. 1.]]
"""

# The fix: map the labels to 0 .. num_classes-1 first (-1 -> 0, 1 -> 1).
classes, index = np.unique(labels, return_inverse=True)
print(classes, keras.utils.to_categorical(index, num_classes=len(classes)).argmax(axis=1))
#> [-1  1] [0 1 1 0]
print((labels + 1) // 2)  # the same for -1/1 labels
#> [0 1 1 0]
# --8<-- [end:to_categorical_negative]

# --8<-- [start:coo_duplicates]
import torch

indices = torch.tensor([[0, 2, 2, 5]])  # position 2 comes twice
values = torch.tensor([1, 1, 1, 1])
s = torch.sparse_coo_tensor(indices, values, (6,), check_invariants=True)
print(s.to_dense())  # the two 1s at position 2 are added
#> tensor([1, 0, 2, 0, 0, 1])
print(s.is_coalesced(), s.coalesce().values())
#> False tensor([1, 2, 1])

# To hold 0 or 1 at each position: add the repeats, then cap the sums at 1.
summed = s.coalesce()
once = torch.sparse_coo_tensor(
    summed.indices(), summed.values().clamp(max=1), s.shape, check_invariants=True
)
print(once.to_dense())
#> tensor([1, 0, 1, 0, 0, 1])
# --8<-- [end:coo_duplicates]

# --8<-- [start:csr_indices]
import torch

lam = torch.tensor([1, 2, 3, 4, 5, 6])
il = torch.arange(len(lam))
matrix = torch.sparse_csr_tensor(il, il, lam)  # il read as crow_indices: 5 rows
print(matrix.shape)
#> torch.Size([5, 6])
print(matrix.to_dense()[-1])  # the last row holds 5 and 6
#> tensor([0, 0, 0, 0, 5, 6])
# Unchecked by default: crow_indices should end at the number of values, 6, and ends at 5.
print(torch.sparse.check_sparse_tensor_invariants.is_enabled(), il[-1].item(), len(lam))
#> False 5 6

# crow_indices has one entry per row plus one: where each row starts in col_indices.
crow = torch.arange(len(lam) + 1)
print(torch.sparse_csr_tensor(crow, il, lam).to_dense().diagonal())
#> tensor([1, 2, 3, 4, 5, 6])
# From (row, column) pairs, as SciPy's csr_matrix((data, (row, col))): build COO, convert.
coo = torch.sparse_coo_tensor(torch.stack([il, il]), lam)
print(coo.to_sparse_csr().crow_indices())
#> tensor([0, 1, 2, 3, 4, 5, 6])
# --8<-- [end:csr_indices]

# --8<-- [start:repeated_write]
import numpy as np
import torch

b = torch.tensor([0, 1, 0, 0])  # index 0 receives three values
values = torch.tensor([1.0, 2.0, 3.0, 4.0])
c = torch.zeros(2)
c[b] = values
print(c)  # one of the three values is kept at index 0
#> tensor([4., 2.])
a = np.zeros(2)
a[b.numpy()] = values.numpy()  # NumPy promises no order either
print(a)
#> [4. 2.]

# Say which value to keep: here the last one written to each index.
last = torch.zeros(2, dtype=torch.long).scatter_reduce(
    0, b, torch.arange(len(b)), reduce="amax", include_self=False
)
print(last, values[last])
#> tensor([3, 1]) tensor([4., 2.])

# TensorFlow: tf.scatter_nd adds the updates of a repeated index.
import tensorflow as tf

indices = tf.constant([[4], [3], [1], [1]])  # index 1 comes twice
updates = tf.constant([9.0, 10.0, 11.0, 12.0])
print(tf.scatter_nd(indices, updates, [8]).numpy())  # index 1: 11 + 12
#> [ 0. 23.  0. 10.  9.  0.  0.  0.]
print(tf.tensor_scatter_nd_update(tf.zeros(8), indices, updates).numpy())
#> [ 0. 12.  0. 10.  9.  0.  0.  0.]
# --8<-- [end:repeated_write]

# --8<-- [start:advanced_axes_first]
import numpy as np
import torch

a = np.arange(125).reshape(5, 5, 5)
# Two advanced indices (the integer 0 and the list) separated by a slice:
# NumPy puts the indexed axis first.
print(a[0, :, [0, 1, 3]].shape)
#> (3, 5)
print(a[0][:, [0, 1, 3]].shape)  # two steps: the slice's axis stays first
#> (5, 3)
print(np.moveaxis(a[0, :, [0, 1, 3]], 0, -1).shape)
#> (5, 3)
# A boolean mask counts as an advanced index too.
x = np.zeros((10, 11, 12))
mask = np.arange(12) > 5
print(x[3, :, mask].shape)
#> (6, 11)
print(x[3][:, mask].shape)
#> (11, 6)
# PyTorch keeps the slice's axis first for the same index.
print(torch.arange(125).reshape(5, 5, 5)[0, :, [0, 1, 3]].shape)
#> torch.Size([5, 3])
# --8<-- [end:advanced_axes_first]

# --8<-- [start:empty_ellipsis]
a = np.zeros((3, 4, 5))
t = torch.zeros(3, 4, 5)
# Two index tuples with an ellipsis between them that stands for no axis:
print(a[:, (0, 1), ..., (0, 1)].shape, t[:, (0, 1), ..., (0, 1)].shape)
#> (2, 3) torch.Size([3, 2])
# When the ellipsis does stand for an axis, both put the indexed axis first:
print(np.zeros((3, 4, 6, 5))[:, (0, 1), ..., (0, 1)].shape)
#> (2, 3, 6)
print(torch.zeros(3, 4, 6, 5)[:, (0, 1), ..., (0, 1)].shape)
#> torch.Size([2, 3, 6])
# The fix: leave out the empty ellipsis, and both agree; move the axis where wanted.
print(a[:, (0, 1), (0, 1)].shape, t[:, (0, 1), (0, 1)].shape)
#> (3, 2) torch.Size([3, 2])
print(np.moveaxis(a[:, (0, 1), ..., (0, 1)], 0, 1).shape, t[:, (0, 1), (0, 1)].T.shape)
#> (3, 2) torch.Size([2, 3])
# --8<-- [end:empty_ellipsis]

# --8<-- [start:uint8_index]
import warnings

import torch

number = torch.arange(66).reshape(2, 3, 11)
p = torch.arange(10, dtype=torch.uint8)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(number[0, 0, p[0]])  # 0 is read as False: nothing is selected
    #> tensor([], size=(0, 11), dtype=torch.int64)
    print(number[0, 0, p[3]].shape)  # 3 is read as True: the whole row, under a new axis
    #> torch.Size([1, 11])
    print(len(caught))  # a single uint8 value gives no warning
    #> 0
    print(number[0, p[:3]][:, 0])  # [0, 1, 2] read as a mask: rows 1 and 2 only
    #> tensor([11, 22])
print([f"{w.category.__name__}: {str(w.message).split(' (Triggered')[0]}" for w in caught])
"""
['UserWarning: indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.']
"""

# The fix: int64 positions (.long()), or a Python int for a single one.
print(number[0, 0, p[0].long()], number[0, 0, int(p[3])])
#> tensor(0) tensor(3)
print(number[0, p[:3].long()][:, 0])
#> tensor([ 0, 11, 22])
# --8<-- [end:uint8_index]

# --8<-- [start:histogram_edges]
import numpy as np
import torch

values = np.array([1, 2, 2, 3, 3, 4, 4])
counts, edges = np.histogram(values, bins=[1, 2, 3, 4])  # a list gives edges, not bins
print(counts, edges)  # 4 edges, 3 bins: [1, 2), [2, 3) and [3, 4], which takes the 4s too
#> [1 2 4] [1 2 3 4]
print(torch.histogram(torch.tensor(values, dtype=torch.float32), bins=torch.tensor([1.0, 2, 3, 4])).hist)
#> tensor([1., 2., 4.])

# The fix: one more edge than the bins you want; for integers, put the edges between them.
print(np.histogram(values, bins=[1, 2, 3, 4, 5])[0], np.histogram(values, bins=np.arange(0.5, 5))[0])
#> [1 2 2 2] [1 2 2 2]
print(np.bincount(values)[1:])  # counts of each integer value
#> [1 2 2 2]
# --8<-- [end:histogram_edges]

# --8<-- [start:digitize_like_histogram]
import numpy as np

values = np.array([1, 2, 2, 3, 3, 4, 4])
edges = np.array([1, 2, 3, 4])
print(np.digitize(values, edges) - 1)  # the 4s land past the last bin, at 3
#> [0 1 1 2 2 3 3]
print(np.digitize(values, edges, right=True) - 1)  # right=True: now the first edge falls outside
#> [-1  0  0  1  1  2  2]

# The fix: the same half-open bins, with the right edge moved into the last bin.
bins = np.clip(np.digitize(values, edges) - 1, 0, len(edges) - 2)
print(bins, np.bincount(bins, minlength=len(edges) - 1), np.histogram(values, edges)[0])
#> [0 1 1 2 2 2 2] [1 2 4] [1 2 4]
# np.searchsorted says the same; values below the first edge need a check of their own.
print(np.clip(np.searchsorted(edges, values, side="right") - 1, 0, len(edges) - 2))
#> [0 1 1 2 2 2 2]
# --8<-- [end:digitize_like_histogram]

# --8<-- [start:bucketize_right]
import numpy as np
import tensorflow as tf
import torch

boundaries = [1.0, 2.0, 3.0]
values = [0.5, 1.0, 2.5, 3.0, 3.5]  # 1.0 and 3.0 sit on boundaries
b, v = torch.tensor(boundaries), torch.tensor(values)
print(np.digitize(values, boundaries), np.digitize(values, boundaries, right=True))
#> [0 1 2 3 3] [0 0 2 2 3]
print(torch.bucketize(v, b), torch.bucketize(v, b, right=True))  # the other way round
#> tensor([0, 0, 2, 2, 3]) tensor([0, 1, 2, 3, 3])
print(tf.raw_ops.Bucketize(input=values, boundaries=boundaries).numpy())  # as np.digitize
#> [0 1 2 3 3]

# The matching calls: right flipped, or searchsorted's side, which means the same in both.
print(torch.bucketize(v, b, right=True).tolist() == np.digitize(values, boundaries).tolist())
#> True
print(torch.searchsorted(b, v, side="right"), np.searchsorted(boundaries, values, side="right"))
#> tensor([0, 1, 2, 3, 3]) [0 1 2 3 3]
# --8<-- [end:bucketize_right]

# --8<-- [start:histc_bin_edges]
import numpy as np
import torch

# The reader's integers 116..128, bins=151, min=0, max=151: each counted in its own bin today.
counts = torch.histc(torch.arange(116, 129, dtype=torch.float32), bins=151, min=0, max=151)
print(counts[116:129].int().tolist())
#> [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
# 0.0, 0.1, ..., 9.9 in 100 bins of width 0.1: each value sits on a bin's left edge.
x = torch.arange(100, dtype=torch.float32) / 10
hist = torch.histc(x, bins=100, min=0, max=10)
print((hist == 0).nonzero().flatten().tolist(), x[21].item())  # empty bins; 2.1 went to bin 20
#> [21, 42, 47, 84, 89, 94, 99] 2.0999999046325684
print(np.histogram(x.numpy(), bins=100, range=(0, 10))[0].max())  # NumPy: one value per bin
#> 1

# The fixes: edges halfway between the values, explicit edges, or counts of integer codes.
print(torch.histc(x, bins=100, min=-0.05, max=9.95).max().item())
#> 1.0
print(torch.histogram(x, bins=torch.arange(101, dtype=torch.float32) / 10).hist.max().item())
#> 1.0
print(torch.bincount((x * 10).round().long(), minlength=100).max().item())
#> 1
# --8<-- [end:histc_bin_edges]
