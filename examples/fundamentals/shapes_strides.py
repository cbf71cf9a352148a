"""Shapes and strides: view, reshape, transpose, permute, contiguous.

Run with `python examples/fundamentals/shapes_strides.py`. The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares.
"""

# --8<-- [start:strides]
import torch

x = torch.arange(6).view(2, 3)
print(x)
"""
tensor([[0, 1, 2],
        [3, 4, 5]])
"""
print(x.stride(), x.is_contiguous())
#> (3, 1) True

# A slice reads the same memory from an offset, with strides of its own:
middle = x[:, 1]
memory = x.untyped_storage().data_ptr()
print(middle, middle.stride(), middle.storage_offset(), middle.untyped_storage().data_ptr() == memory)
#> tensor([1, 4]) (3,) 1 True
# --8<-- [end:strides]

# --8<-- [start:write_through_view]
base = torch.arange(6)
v = base.view(2, 3)  # no copy: the same memory, read as 2 rows of 3
v[0, 0] = 100  # a write through the view...
print(base)  # ...changes the original
#> tensor([100,   1,   2,   3,   4,   5])
base[5] = -1  # and a write to the original shows in the view
print(v)
"""
tensor([[100,   1,   2],
        [  3,   4,  -1]])
"""
v[:, 1].zero_()  # an in-place operation on a slice of the view writes there too
v.T[2, 0] = 7  # and so does a write through a transpose
print(base)
#> tensor([100,   0,   7,   3,   0,  -1])

own = base.view(2, 3).clone()  # clone(): a copy with memory of its own
own[0, 0] = 0
print(own[0, 0], base[0])  # the original keeps its value
#> tensor(0) tensor(100)
# --8<-- [end:write_through_view]

# --8<-- [start:transpose]
t = x.T  # the same as x.transpose(0, 1)
print(t.shape, t.stride(), t.is_contiguous())
#> torch.Size([3, 2]) (1, 3) False
print(t.data_ptr() == x.data_ptr())  # no data moved
#> True
print(torch.equal(t, x.transpose(0, 1)))
#> True
# --8<-- [end:transpose]

# --8<-- [start:view_fails]
try:
    t.view(6)
except RuntimeError as err:
    print(type(err).__name__, err)
    """
    RuntimeError view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.
    """

# An element-wise result keeps its input's layout, so the same error follows it:
doubled = t * 2
print(doubled.stride(), doubled.is_contiguous())
#> (1, 3) False
try:
    doubled.view(-1)
except RuntimeError as err:
    print(type(err).__name__, err)
    """
    RuntimeError view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.
    """
# --8<-- [end:view_fails]

# --8<-- [start:view_on_non_contiguous]
# view works on a non-contiguous tensor when the new shape fits its strides,
# and the result is not contiguous either:
column = t.view(3, 2, 1)
print(column.stride(), column.is_contiguous(), column.data_ptr() == x.data_ptr())
#> (1, 3, 3) False True
# --8<-- [end:view_on_non_contiguous]

# --8<-- [start:reshape]
flat = t.reshape(6)  # cannot be a view of x: reshape copies
print(flat, flat.data_ptr() == x.data_ptr())
#> tensor([0, 3, 1, 4, 2, 5]) False
same = x.reshape(3, 2)  # can be a view: reshape does not copy
print(same.data_ptr() == x.data_ptr())
#> True
print(t.contiguous().view(6))  # contiguous() copies, then view
#> tensor([0, 3, 1, 4, 2, 5])
# --8<-- [end:reshape]

# --8<-- [start:view_is_a_method]
# torch.reshape is a function as well as a method; view is a method only:
print(hasattr(torch, "reshape"), hasattr(torch.Tensor, "reshape"), hasattr(torch.Tensor, "view"), hasattr(torch, "view"))
#> True True True False
try:
    torch.view(x, 6)
except AttributeError as err:
    print(type(err).__name__, err)
    #> AttributeError module 'torch' has no attribute 'view'
print(torch.reshape(x, (6,)), x.view(6))
#> tensor([0, 1, 2, 3, 4, 5]) tensor([0, 1, 2, 3, 4, 5])
# --8<-- [end:view_is_a_method]

# --8<-- [start:permute]
p = torch.arange(24).view(2, 3, 4)
q = p.permute(2, 0, 1)  # axes in the order 2, 0, 1
print(q.shape, q.stride(), q.is_contiguous())
#> torch.Size([4, 2, 3]) (1, 12, 4) False
print(q.data_ptr() == p.data_ptr())  # a view: no data moved
#> True
print(torch.equal(q.contiguous().view(4, 6), q.reshape(4, 6)))
#> True
# Merging the last two axes fits q's strides (12 = 4 * 3): reshape returns a view here,
# where contiguous().view() always copies.
print(q.reshape(4, 6).data_ptr() == p.data_ptr(), q.contiguous().data_ptr() == p.data_ptr())
#> True False
# transpose swaps two axes; permute reorders any number of them:
print(torch.equal(p.transpose(0, 2), p.permute(2, 1, 0)))
#> True
# --8<-- [end:permute]

# --8<-- [start:numpy_transpose]
import numpy as np

a = np.arange(6).reshape(2, 3)
t = torch.arange(6).reshape(2, 3)
print(a.transpose(0, 1).shape, t.transpose(0, 1).shape)  # NumPy: the axes in order 0, 1, unchanged
#> (2, 3) torch.Size([3, 2])
print(np.swapaxes(a, 0, 1).shape, a.transpose(1, 0).shape, a.T.shape)  # NumPy spellings of the swap
#> (3, 2) (3, 2) (3, 2)
b = np.arange(24).reshape(2, 3, 4)
try:
    b.transpose(0, 1)  # NumPy wants every axis, in its new order
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: axes don't match array
# NumPy's transpose with axes is PyTorch's permute; with none, it reverses every axis.
print(b.transpose(2, 0, 1).shape, torch.from_numpy(b).permute(2, 0, 1).shape)
#> (4, 2, 3) torch.Size([4, 2, 3])
print(b.transpose().shape, torch.from_numpy(b).permute(*reversed(range(b.ndim))).shape)
#> (4, 3, 2) torch.Size([4, 3, 2])
# --8<-- [end:numpy_transpose]

# --8<-- [start:same_shape_other_contents]
print(x.view(3, 2))  # the same 6 numbers, read in memory order
"""
tensor([[0, 1],
        [2, 3],
        [4, 5]])
"""
print(x.T)  # rows become columns
"""
tensor([[0, 3],
        [1, 4],
        [2, 5]])
"""
print(torch.equal(x.view(3, 2), x.T))
#> False
print(x.T.reshape(2, 3))  # transposed, then reshaped back: not x, its rows are mixed
"""
tensor([[0, 3, 1],
        [4, 2, 5]])
"""
# --8<-- [end:same_shape_other_contents]

# --8<-- [start:minus_one]
print(x.view(-1, 2).shape)  # -1: the size that makes the element count fit
#> torch.Size([3, 2])
try:
    x.view(4, -1)
except RuntimeError as err:
    print(type(err).__name__, err)
    #> RuntimeError shape '[4, -1]' is invalid for input of size 6
# --8<-- [end:minus_one]
