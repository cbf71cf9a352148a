"""torch.unique: distinct values, where each element went, and how often each occurs.

Run with `python examples/api/unique.py`. The `#>` lines under each print are the
output the libraries printed when the site was built; the test suite runs this
script again and compares.
"""

# --8<-- [start:basic]
import torch

values = torch.tensor([1, 3, 2, 3])
print(torch.unique(values))
#> tensor([1, 2, 3])
# --8<-- [end:basic]

# --8<-- [start:cpu_speed]
import timeit

import numpy as np
import torch

x = torch.randn(10000, generator=torch.Generator().manual_seed(0))  # float32, on the CPU
forms = (lambda: x.unique(), lambda: np.unique(x.numpy()), lambda: x.sort(), lambda: np.sort(x.numpy()))
rounds = [[timeit.timeit(fn, number=3) for fn in forms] for _ in range(5)]  # in turns, each's best
torch_unique, numpy_unique, torch_sort, numpy_sort = (min(column) for column in zip(*rounds, strict=True))
print("x.unique() more than 2x slower than np.unique(x.numpy()):", torch_unique > 2 * numpy_unique)
#> x.unique() more than 2x slower than np.unique(x.numpy()): True
print("x.sort() more than 2x slower than np.sort(x.numpy()):", torch_sort > 2 * numpy_sort)
#> x.sort() more than 2x slower than np.sort(x.numpy()): True

# The workaround: NumPy's unique on the tensor's memory, back as a tensor: the same values.
np_values, np_inverse, np_counts = np.unique(x.numpy(), return_inverse=True, return_counts=True)
t_values, t_inverse, t_counts = x.unique(return_inverse=True, return_counts=True)
print(torch.equal(torch.from_numpy(np_values), t_values), torch.equal(torch.from_numpy(np_inverse), t_inverse))
#> True True
print(torch.equal(torch.from_numpy(np_counts), t_counts), np_values.dtype, np_inverse.dtype)
#> True float32 int64
# --8<-- [end:cpu_speed]

# --8<-- [start:inverse]
grid = torch.tensor([[1, 3], [2, 3]])
distinct, inverse = torch.unique(grid, return_inverse=True)
print(distinct)
#> tensor([1, 2, 3])
print(inverse)  # same shape as the input: the index of each element in `distinct`
"""
tensor([[0, 2],
        [1, 2]])
"""
print(torch.equal(distinct[inverse], grid))  # so distinct[inverse] rebuilds the input
#> True
# --8<-- [end:inverse]

# --8<-- [start:first_index]
import numpy as np

repeated = torch.tensor([3, 1, 2, 3, 1])
try:
    torch.unique(repeated, return_index=True)  # NumPy's keyword, not torch's
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: _return_output() got an unexpected keyword argument 'return_index'
distinct, inverse = torch.unique(repeated, return_inverse=True)
positions = torch.arange(len(repeated))
# for each distinct value, the smallest position whose inverse points at it
first = torch.full_like(distinct, len(repeated)).scatter_reduce(0, inverse, positions, reduce="amin")
print(distinct, first)
#> tensor([1, 2, 3]) tensor([1, 2, 0])
print(np.unique(repeated.numpy(), return_index=True))  # NumPy's return_index: the same indices
#> (array([1, 2, 3]), array([1, 2, 0]))
print(torch.equal(repeated[first], distinct))  # so repeated[first] picks one element per value
#> True
labels = torch.tensor([30, 10, 20, 31, 11])  # a second tensor, one entry per element of repeated
print(labels[first])  # its entries where 1, 2 and 3 first occur
#> tensor([10, 20, 30])
# --8<-- [end:first_index]

# --8<-- [start:counts]
distinct, counts = torch.unique(values, return_counts=True)
print(distinct, counts)  # 1 and 2 once each, 3 twice
#> tensor([1, 2, 3]) tensor([1, 1, 2])
# --8<-- [end:counts]

# --8<-- [start:dim]
rows = torch.tensor([[1, 2], [1, 2], [3, 4]])
print(torch.unique(rows, dim=0))  # distinct rows, not distinct numbers
"""
tensor([[1, 2],
        [3, 4]])
"""
print(torch.unique(rows))  # without dim: the input is flattened first
#> tensor([1, 2, 3, 4])
# --8<-- [end:dim]

# --8<-- [start:dim_numpy]
cube = torch.tensor([[[2, 1, 2], [0, 5, 0]], [[7, 3, 7], [4, 4, 4]]])  # shape (2, 2, 3)
print(torch.unique(cube, dim=-1))  # distinct slices cube[..., i]: here 2 of the 3 columns
"""
tensor([[[1, 2],
         [5, 0]],

        [[3, 7],
         [4, 4]]])
"""
print(np.array_equal(torch.unique(cube, dim=-1).numpy(), np.unique(cube.numpy(), axis=-1)))
#> True
# --8<-- [end:dim_numpy]

# --8<-- [start:sorted_false]
print(torch.unique(torch.tensor([3, 1, 2, 3, 1]), sorted=False))  # first appearance: 3, 1, 2
#> tensor([1, 2, 3])
b = torch.tensor([1, 1, 2, 3])  # a 2018 report: unique() gave [3, 2, 1] on the CPU
print(b.unique(), b.unique(sorted=True))  # sorted=True: ascending on every device
#> tensor([1, 2, 3]) tensor([1, 2, 3])
# --8<-- [end:sorted_false]

# --8<-- [start:tf_unique]
import tensorflow as tf

repeated = [3, 1, 2, 3, 1]
found, idx = tf.unique(repeated)  # TensorFlow: order of first appearance
print(found.numpy(), idx.numpy())
#> [3 1 2] [0 1 2 0 1]
print(np.unique(repeated, return_index=True, return_inverse=True))  # NumPy: sorted
#> (array([1, 2, 3]), array([1, 2, 0]), array([2, 0, 1, 2, 0]))
distinct, inverse = torch.unique(torch.tensor(repeated), return_inverse=True)  # PyTorch: sorted
print(distinct, inverse)
#> tensor([1, 2, 3]) tensor([2, 0, 1, 2, 0])
# tf.unique has no return_index: the smallest position of each value in idx gives it
first = tf.math.unsorted_segment_min(tf.range(len(repeated)), idx, num_segments=tf.size(found))
print(first.numpy())
#> [0 1 2]
order = tf.argsort(found)  # sorted as NumPy's: the same values and first indices
print(tf.gather(found, order).numpy(), tf.gather(first, order).numpy())
#> [1 2 3] [1 2 0]
_, index = np.unique(repeated, return_index=True)
print(np.array(repeated)[np.sort(index)])  # the other way: NumPy's result in order of appearance
#> [3 1 2]
# --8<-- [end:tf_unique]

# --8<-- [start:consecutive]
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1])))
#> tensor([1, 2, 3, 1])
# --8<-- [end:consecutive]
