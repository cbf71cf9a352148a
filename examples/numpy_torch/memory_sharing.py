"""When NumPy arrays and torch tensors share memory, and when they copy.

Run with `python examples/numpy_torch/memory_sharing.py`. Each `#>` line (or
triple-quoted block) under a print is the output the libraries printed when the
site was built; the test suite re-runs this script and compares.
"""

# --8<-- [start:from_numpy]
import warnings

import numpy as np
import torch

a = np.ones((2, 3), dtype=np.float32)
t = torch.from_numpy(a)

# Same buffer: the tensor's data pointer is the array's data pointer.
print(t.data_ptr() == a.__array_interface__["data"][0])
#> True

a[0, 1] = 100  # a write through the array ...
print(t)  # ... is seen through the tensor
"""
tensor([[  1., 100.,   1.],
        [  1.,   1.,   1.]])
"""

t[1, 2] = -1  # and the other way round
print(a)
"""
[[  1. 100.   1.]
 [  1.   1.  -1.]]
"""

# from_numpy never converts: it takes no dtype (or any other keyword) argument.
try:
    torch.from_numpy(a, dtype=torch.float64)
except TypeError as err:
    print(type(err).__name__, err)
    #> TypeError torch._VariableFunctionsClass.from_numpy() takes no keyword arguments
# --8<-- [end:from_numpy]

# --8<-- [start:tensor_numpy]
c = t.numpy()  # a view of the tensor's memory, not a copy
print(np.shares_memory(c, a))
#> True
t[0, 0] = 5  # modify the tensor ...
print(c[0, 0], a[0, 0])  # ... and both arrays have changed with it
#> 5.0 5.0
c[0, 0] = 7  # a write through c is seen by a and t
print(a[0, 0], t[0, 0].item())
#> 7.0 7.0
# --8<-- [end:tensor_numpy]

# --8<-- [start:torch_tensor_copies]
copied = torch.tensor(a)  # torch.tensor always copies its data argument
a[0, 0] = 0
print(copied[0, 0].item(), a[0, 0])
#> 7.0 0.0
print(np.shares_memory(copied.numpy(), a))
#> False

# To copy a tensor, use .clone(): torch.tensor(tensor) copies too, but warns.
cloned = t.clone()
print(np.shares_memory(cloned.numpy(), a))
#> False
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from_tensor = torch.tensor(t)
print(caught[0].category.__name__, str(caught[0].message).split(",")[0])
#> UserWarning To copy construct from a tensor
print(from_tensor.data_ptr() == t.data_ptr(), cloned.data_ptr() == t.data_ptr())  # both copies
#> False False
print(caught[0].message)
"""
To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).
"""

# The copy is also cut from autograd: it does not require grad.
weight = torch.ones(2, requires_grad=True)
with warnings.catch_warnings(record=True):
    warnings.simplefilter("ignore")
    print(torch.tensor(weight).requires_grad, weight.detach().clone().requires_grad)
    #> False False

# A helper that accepts a list, a number or a tensor: torch.as_tensor, no warning.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.as_tensor(weight) is weight, torch.as_tensor([1, 2]), torch.as_tensor(3.0))
    #> True tensor([1, 2]) tensor(3.)
print(len(caught))
#> 0
# --8<-- [end:torch_tensor_copies]

# --8<-- [start:list_of_arrays]
rows = [np.full(3, float(i)) for i in range(4)]  # a Python list of separate arrays
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from_list = torch.tensor(rows)
for warning in caught:  # the text before torch's "(Triggered internally at <path>)"
    print(f"{warning.category.__name__}: {str(warning.message).split(' (Triggered')[0]}")
    """
    UserWarning: Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the list to a single numpy.ndarray with numpy.array() before converting to a tensor.
    """

# The fix: one array first (np.stack, or np.array), then one conversion.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    stacked = np.stack(rows)  # a single (4, 3) array: the one copy
    from_stack = torch.from_numpy(stacked)  # shares it, no second copy
print(len(caught), torch.equal(from_list, from_stack), from_stack.shape, from_stack.dtype)
#> 0 True torch.Size([4, 3]) torch.float64
print(np.shares_memory(from_stack.numpy(), stacked))
#> True
# --8<-- [end:list_of_arrays]

# --8<-- [start:array_like]
class Store:
    """An array-like, as an h5py Dataset is: it reads rows one by one, or all at once."""

    def __init__(self, data):
        self._data, self.shape, self.dtype, self.reads = data, data.shape, data.dtype, 0

    def __len__(self):
        return len(self._data)

    def __getitem__(self, i):  # one read from the file for each call
        self.reads += 1
        return self._data[i]

    def __array__(self, dtype=None, copy=None):  # one read of the whole block
        self.reads += 1
        return np.asarray(self._data, dtype=dtype)


store = Store(np.arange(12.0).reshape(4, 3))
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the list-of-arrays warning, shown above
    item_by_item = torch.tensor(store)  # ignores __array__: indexes the object
print("torch.tensor:", store.reads, "reads")
#> torch.tensor: 10 reads
store.reads = 0
at_once = torch.from_numpy(np.asarray(store))  # the fix: one array first
print("np.asarray:", store.reads, "read;", torch.equal(item_by_item, at_once))
#> np.asarray: 1 read; True
# --8<-- [end:array_like]

# --8<-- [start:as_tensor]
same = torch.as_tensor(a)  # no copy: the array's own dtype, on the CPU
print(same.dtype, np.shares_memory(same.numpy(), a))
#> torch.float32 True
# Naming the dtype and device it already has still shares.
named = torch.as_tensor(a, dtype=torch.float32, device="cpu")
print(np.shares_memory(named.numpy(), a))
#> True
converted = torch.as_tensor(a, dtype=torch.float64)  # a different dtype forces a copy
print(converted.dtype, np.shares_memory(converted.numpy(), a))
#> torch.float64 False
# A float64 array is not converted to torch's default float32: it is shared as float64.
doubles = np.zeros(2)
kept = torch.as_tensor(doubles)
print(kept.dtype, np.shares_memory(kept.numpy(), doubles))
#> torch.float64 True
# Given a tensor that needs no conversion, as_tensor returns that very tensor.
print(torch.as_tensor(t) is t)
#> True
# --8<-- [end:as_tensor]

# --8<-- [start:legacy_constructor]
a32 = np.ones(3, dtype=np.float32)
a64 = np.ones(3, dtype=np.float64)
i64 = np.ones(3, dtype=np.int64)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    legacy32 = torch.Tensor(a32)  # float32 in, float32 out: shares memory
    legacy64 = torch.Tensor(a64)  # float64 in: converted to float32, so copied
    legacy_i = torch.Tensor(i64)  # int64 in: converted to float32 too
print("warnings:", len(caught))  # the conversions are silent
#> warnings: 0
pairs = [("float32", a32, legacy32), ("float64", a64, legacy64), ("int64", i64, legacy_i)]
for name, arr, ten in pairs:
    print(f"{name:>8} -> {ten.dtype}, shares memory: {np.shares_memory(arr, ten.numpy())}")
    #>  float32 -> torch.float32, shares memory: True
    #>  float64 -> torch.float32, shares memory: False
    #>    int64 -> torch.float32, shares memory: False

# torch.tensor infers the dtype from the data; torch.Tensor always gives the default.
print(torch.tensor([1, 2]).dtype, torch.tensor([1.0, 2.0]).dtype, torch.tensor(a64).dtype)
#> torch.int64 torch.float32 torch.float64
print(torch.Tensor([1, 2]).dtype, torch.Tensor([1.0, 2.0]).dtype, torch.Tensor(a64).dtype)
#> torch.float32 torch.float32 torch.float32

# The dtype follows torch's default dtype: change the default and it changes too.
torch.set_default_dtype(torch.float64)
print(torch.Tensor(a32).dtype)
#> torch.float64
torch.set_default_dtype(torch.float32)  # back to the default
# --8<-- [end:legacy_constructor]

# --8<-- [start:legacy_shape]
# Given ints instead of data, torch.Tensor and torch.FloatTensor read them as a shape and
# allocate that many uninitialised elements; torch.tensor holds the number itself.
print(torch.Tensor(5, 3).shape, torch.FloatTensor(10).shape, torch.tensor(10.0).shape)
#> torch.Size([5, 3]) torch.Size([10]) torch.Size([])
# Deterministic mode fills uninitialised memory with NaN, which makes it visible.
torch.use_deterministic_algorithms(True)
print(torch.Tensor(3), torch.FloatTensor(3), torch.empty(3))
#> tensor([nan, nan, nan]) tensor([nan, nan, nan]) tensor([nan, nan, nan])
torch.use_deterministic_algorithms(False)  # back to the default
print(torch.tensor(10.0), torch.zeros(2, 3).shape)  # the number 10; a shape, filled with zeros
#> tensor(10.) torch.Size([2, 3])
# --8<-- [end:legacy_shape]

# --8<-- [start:legacy_large_integers]
# torch.Tensor makes integers float32, which holds every integer only up to 2**24.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    rounded = torch.Tensor([16777217, 16777219])
print(rounded, "warnings:", len(caught))
#> tensor([16777216., 16777220.]) warnings: 0
kept = torch.tensor([16777217, 16777219])  # torch.tensor keeps integers as int64
print(kept, kept.dtype)
#> tensor([16777217, 16777219]) torch.int64

# Just above 2**24 = 16777216, float32 holds only the even integers.
around = [2**24 - 1, 2**24, 2**24 + 1, 2**24 + 2, 2**24 + 3]
print(torch.tensor(around, dtype=torch.float32).long().tolist())
#> [16777215, 16777216, 16777216, 16777218, 16777220]

# The same happens to an int64 array of IDs; from_numpy keeps them int64.
ids = np.array([16777217, 123456789], dtype=np.int64)
shared_ids = torch.from_numpy(ids)
print(torch.Tensor(ids).long().tolist(), shared_ids.tolist(), shared_ids.dtype)
#> [16777216, 123456792] [16777217, 123456789] torch.int64
# --8<-- [end:legacy_large_integers]

# --8<-- [start:asarray]
source = torch.arange(6.0).reshape(2, 3)
view = np.asarray(source)  # uses the tensor's buffer (NumPy's __array__ protocol)
print(np.shares_memory(view, source.numpy()), view.flags.writeable)
#> True True
view[0, 0] = 42
print(source[0, 0].item())
#> 42.0

# Like .numpy(), np.asarray refuses a tensor that requires grad (and a GPU tensor).
weights = torch.ones(3, requires_grad=True)
try:
    np.asarray(weights)
except RuntimeError as err:
    print(type(err).__name__, err)
    """
    RuntimeError Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.
    """
print(np.asarray(weights.detach()))
#> [1. 1. 1.]

# np.array copies by default. With NumPy 2 it also warns: torch's Tensor.__array__
# does not take NumPy 2's `copy` keyword yet, so NumPy falls back and says so.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    snapshot = np.array(source)
print([warning.category.__name__ for warning in caught])
#> ['DeprecationWarning']
for warning in caught:
    print(warning.message)
    """
    __array__ implementation doesn't accept a copy keyword, so passing copy=False failed. __array__ must implement 'dtype' and 'copy' keyword arguments. To learn more, see the migration guide https://numpy.org/devdocs/numpy_2_0_migration_guide.html#adapting-to-changes-in-the-copy-keyword
    """
snapshot[0, 1] = -5
print(source[0, 1].item())
#> 1.0

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    explicit = source.numpy().copy()  # the same copy, stated explicitly
print(np.shares_memory(explicit, source.numpy()), len(caught))
#> False 0
# --8<-- [end:asarray]

# --8<-- [start:object_array_of_tensors]
pair = (torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0, 6.0]))
stored = np.array(pair, dtype=object)  # calls each tensor's __array__, as np.asarray does
print(stored.shape, type(stored[0, 0]).__name__)  # a 2 x 3 array of numbers, no tensors
#> (2, 3) float

# A tensor that cannot become an array fails: on the meta device as on a GPU (cuda:0).
on_meta = (torch.zeros(3, device="meta"), torch.zeros(3, device="meta"))
try:
    np.array(on_meta, dtype=object)
except TypeError as err:
    print(type(err).__name__, err)
    """
    TypeError can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
    """

# The fix: an empty object array, filled one element at a time, keeps the tensors themselves.
holder = np.empty(len(on_meta), dtype=object)
for i, t in enumerate(on_meta):
    holder[i] = t
print(holder.shape, holder[0] is on_meta[0], holder[1].device)
#> (2,) True meta
# --8<-- [end:object_array_of_tensors]

# --8<-- [start:torch_dtype_in_numpy]
image = torch.rand(4, 4)
# A NumPy-based function that reads its input's dtype and hands it to NumPy:
try:
    np.zeros(image.shape, dtype=image.dtype)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Cannot interpret 'torch.float32' as a data type
print(image.dtype, isinstance(image.dtype, np.dtype))  # a torch dtype, not a NumPy one
#> torch.float32 False

# The fix: convert the tensor to an array first, and give NumPy code the array.
pixels = image.numpy()
print(pixels.dtype, isinstance(pixels.dtype, np.dtype))
#> float32 True
print(np.zeros(pixels.shape, dtype=pixels.dtype).dtype)
#> float32
# --8<-- [end:torch_dtype_in_numpy]

# --8<-- [start:tensor_index_in_numpy]
import operator

frames = np.zeros((3, 4, 4))
print(frames[np.array([1])].shape, frames[torch.tensor([1])].shape)  # the axis is gone
#> (1, 4, 4) (4, 4)
print(frames[torch.tensor([0]), :].shape, frames[torch.tensor([0, 2])].shape)
#> (4, 4) (2, 4, 4)
print(operator.index(torch.tensor([1])))  # a one-element integer tensor reads as an int
#> 1

# The fix: index with an array (.numpy()), or index a tensor.
print(frames[torch.tensor([1]).numpy()].shape, torch.zeros(3, 4, 4)[torch.tensor([1])].shape)
#> (1, 4, 4) torch.Size([1, 4, 4])
# --8<-- [end:tensor_index_in_numpy]

# --8<-- [start:numpy_index_in_torch]
grid = torch.arange(12).reshape(3, 4)
rows, cols = np.meshgrid(np.arange(3), np.arange(4), indexing="ij")  # int64 arrays
t_rows, t_cols = torch.meshgrid(torch.arange(3), torch.arange(4), indexing="ij")
print(grid[rows].shape, grid[t_rows].shape)  # one grid: one index per row, as a tensor
#> torch.Size([3, 4, 4]) torch.Size([3, 4, 4])
print(torch.equal(grid[rows, cols], grid[t_rows, t_cols]))
#> True
print(torch.equal(grid[torch.from_numpy(rows), torch.from_numpy(cols)], grid))
#> True
# A nested list is not an array: PyTorch still reads it as a tuple of indices, and warns.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(grid[rows[:2, :2].tolist()].shape, grid[torch.tensor(rows[:2, :2].tolist())].shape)
    #> torch.Size([2]) torch.Size([2, 2, 4])
print([w.category.__name__ for w in caught])
#> ['UserWarning']
# --8<-- [end:numpy_index_in_torch]

# --8<-- [start:rebinding]
base = torch.zeros(3)
arr = base.numpy()
arr = arr + 1  # builds a new array and rebinds the name: the tensor is untouched
print(base, np.shares_memory(arr, base.numpy()))
#> tensor([0., 0., 0.]) False

arr = base.numpy()
arr += 1  # writes into the existing buffer: the tensor changes
print(base)
#> tensor([1., 1., 1.])

zeros = np.zeros(3)
ten = torch.from_numpy(zeros)
ten += 1  # in place on the tensor side: the array changes
print(zeros)
#> [1. 1. 1.]
ten.add_(1)  # the same in-place write, as a method
print(zeros)
#> [2. 2. 2.]
ten = ten + 1  # a new tensor: the array keeps its values
print(zeros, ten)
#> [2. 2. 2.] tensor([3., 3., 3.], dtype=torch.float64)
# --8<-- [end:rebinding]

# --8<-- [start:overlap]
# In place, with an input that overlaps the output: torch refuses.
steps = torch.arange(5.0)
try:
    steps[1:] -= steps[:-1]
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.
    """
steps[1:] = steps[1:] - steps[:-1]  # the right side is a new tensor, computed first
print(steps)
#> tensor([0., 1., 1., 1., 1.])
again = torch.arange(5.0)
again[1:] -= again[:-1].clone()  # or clone the input, as the message says
print(again)
#> tensor([0., 1., 1., 1., 1.])

# x += x.T: the transpose is a view of the same memory, so torch refuses too.
square = torch.arange(9.0).reshape(3, 3)
try:
    square += square.T
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).split(':')[0]}")
    #> RuntimeError: unsupported operation
square = square + square.T  # a new tensor: symmetric
print(torch.equal(square, square.T))
#> True

# x += x: the input is exactly the memory written to, not a partial overlap: torch runs it.
doubled = torch.arange(3.0)
doubled += doubled
print(doubled)
#> tensor([0., 2., 4.])

# NumPy gives the intended result for both in-place forms.
values = np.arange(5.0)
values[1:] -= values[:-1]
print(values)
#> [0. 1. 1. 1. 1.]
matrix = np.arange(10000.0).reshape(100, 100)
matrix += matrix.T
print(np.array_equal(matrix, matrix.T))
#> True
# --8<-- [end:overlap]

# --8<-- [start:overlap_mask]
import torch

# A mask used to index itself while it is written: the index and the target overlap.
active = torch.tensor([True, False, True, True])
still = torch.tensor([False, True, True])  # one new value per True element
try:
    active[active] = still
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.
    """
active[active.clone()] = still  # the fix: index with a copy
print(active)
#> tensor([False, False,  True,  True])
# --8<-- [end:overlap_mask]

# --8<-- [start:shift_assign]
import numpy as np
import torch

# Shift by one with a plain assignment: the source a[:-1] overlaps the target a[1:].
shifted = torch.arange(10)
try:
    shifted[1:] = shifted[:-1]
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.
    """
left = torch.arange(10)
try:
    left[:-1].copy_(left[1:])  # the other direction, spelled with copy_
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).split(':')[0]}")
    #> RuntimeError: unsupported operation

# Along the second axis the check misses the overlap: no error, a wrong result.
rows = torch.arange(9).reshape(3, 3)
rows[:, 1:] = rows[:, :-1]
print(rows)
"""
tensor([[0, 0, 0],
        [3, 3, 3],
        [6, 6, 6]])
"""

# NumPy copies an overlapping source first: the intended shift.
shifted_np = np.arange(10)
shifted_np[1:] = shifted_np[:-1]
print(shifted_np)
#> [0 0 1 2 3 4 5 6 7 8]
rows_np = np.arange(9).reshape(3, 3)
rows_np[:, 1:] = rows_np[:, :-1]
print(rows_np)
"""
[[0 0 1]
 [3 3 4]
 [6 6 7]]
"""

# The fixes: clone the source, or build a new tensor.
shifted[1:] = shifted[:-1].clone()
print(shifted)
#> tensor([0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
rows = torch.arange(9).reshape(3, 3)
rows[:, 1:] = rows[:, :-1].clone()
print(rows)
"""
tensor([[0, 0, 1],
        [3, 3, 4],
        [6, 6, 7]])
"""
print(torch.roll(torch.arange(10), 1))  # wraps the last element around
#> tensor([9, 0, 1, 2, 3, 4, 5, 6, 7, 8])
source = torch.arange(10)
print(torch.cat([source[:1], source[:-1]]))  # shift, repeating the first element
#> tensor([0, 0, 1, 2, 3, 4, 5, 6, 7, 8])
# --8<-- [end:shift_assign]

# --8<-- [start:fancy_assign_overlap]
import numpy as np
import torch

a = np.array([0, 1, 2])
idx = [2, 1, 0]  # meant to reverse a
a[idx] = a  # the source is the array being written
print(np.__version__.split(".")[0], a)
#> 2 [2 1 0]
a = np.array([0, 1, 2])
a[idx] = a.copy()  # the fix: a source that no write can reach
print(a)
#> [2 1 0]

t = torch.tensor([0, 1, 2])
try:
    t[torch.tensor(idx)] = t  # torch sees the overlap and refuses
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).split('. ')[0]}")
    """
    RuntimeError: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location
    """
t[torch.tensor(idx)] = t.clone()
print(t, torch.flip(torch.tensor([0, 1, 2]), [0]))  # or build the result: flip, a[::-1]
#> tensor([2, 1, 0]) tensor([2, 1, 0])
# --8<-- [end:fancy_assign_overlap]
