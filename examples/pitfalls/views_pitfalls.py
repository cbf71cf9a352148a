"""View and shared-memory pitfalls: code that runs without an error and changes or keeps
more data than the reader expected.

Each section prints the surprising result a reader reported, then the fix's result.

Run with `python examples/pitfalls/views_pitfalls.py`.
"""

# --8<-- [start:from_numpy_in_place]
import numpy as np
import torch

images = np.array([[0.0, 100.0], [50.0, 150.0]], dtype=np.float32)  # a dataset held in memory


def get_item(index):
    item = torch.from_numpy(images[index])  # shares the array's memory
    return item.sub_(50.0).div_(50.0)  # normalised in place


for epoch in range(3):
    print(epoch, get_item(0))  # the same item, normalised once more every epoch
    #> 0 tensor([-1.,  1.])
    #> 1 tensor([-1.0200, -0.9800])
    #> 2 tensor([-1.0204, -1.0196])
print(images[0])  # the dataset itself has changed
#> [-1.0204 -1.0196]

# The fix: normalise out of place; the array keeps its values.
images = np.array([[0.0, 100.0], [50.0, 150.0]], dtype=np.float32)


def get_item_fixed(index):
    item = torch.from_numpy(images[index])
    return (item - 50.0) / 50.0  # a new tensor


for epoch in range(3):
    print(epoch, get_item_fixed(0))
    #> 0 tensor([-1.,  1.])
    #> 1 tensor([-1.,  1.])
    #> 2 tensor([-1.,  1.])
print(images[0])
#> [  0. 100.]
# --8<-- [end:from_numpy_in_place]

# --8<-- [start:slice_is_a_view]
import numpy as np
import torch

original = np.zeros(5)
part = original[:]  # for a Python list this would be a copy
original[0] = 5
print(part)  # the slice shows the change
#> [5. 0. 0. 0. 0.]
part[1] = 7
print(original)  # and a write through the slice changes the original
#> [5. 7. 0. 0. 0.]

# PyTorch slices are views too.
t = torch.zeros(5)
t_part = t[:]
t[0] = 5
print(t_part)
#> tensor([5., 0., 0., 0., 0.])

# The fix: copy explicitly when you need independent data.
original = np.zeros(5)
part = original[:].copy()
original[0] = 5
print(part, np.shares_memory(part, original))
#> [0. 0. 0. 0. 0.] False
t = torch.zeros(5)
t_part = t[:].clone()
t[0] = 5
print(t_part)
#> tensor([0., 0., 0., 0., 0.])
# --8<-- [end:slice_is_a_view]

# --8<-- [start:detach_shares]
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([2.0, 3.0], requires_grad=True)
y = torch.tensor([1.0, 1.0], requires_grad=True)

x = a * b
x_detach = x.detach()  # no graph, but the same memory as x
x_detach.zero_()
print(x)  # x is zeroed too
#> tensor([0., 0.], grad_fn=<MulBackward0>)
(x * y).sum().backward()
print(y.grad)  # the gradient of y is x: zeros
#> tensor([0., 0.])

# The fix: detach().clone() gives a copy outside the graph.
y.grad = None
x = a * b
x_copy = x.detach().clone()
x_copy.zero_()
print(x)
#> tensor([2., 6.], grad_fn=<MulBackward0>)
(x * y).sum().backward()
print(y.grad)
#> tensor([2., 6.])
# --8<-- [end:detach_shares]

# --8<-- [start:slice_keeps_memory]
import numpy as np
import torch

kept = []
for _ in range(3):
    signal = np.zeros(1_000_000)  # 8 MB each step
    kept.append(signal[:10])  # keep the first ten values
print(kept[0].nbytes, kept[0].base.nbytes)  # 80 bytes of values, 8 MB kept alive
#> 80 8000000
print(sum(part.base.nbytes for part in kept))
#> 24000000

# PyTorch: a slice keeps its tensor's whole storage.
samples = torch.zeros(1_000_000)
print(samples[:10].untyped_storage().nbytes())
#> 4000000

# The fix: copy the slice, and the large array can be freed.
kept = []
for _ in range(3):
    signal = np.zeros(1_000_000)
    kept.append(signal[:10].copy())
print(kept[0].nbytes, kept[0].base)
#> 80 None
print(samples[:10].clone().untyped_storage().nbytes())
#> 40
# --8<-- [end:slice_keeps_memory]

# --8<-- [start:expand_write]
import torch

pages = torch.zeros(2, 2).unsqueeze(-1).expand(-1, -1, 3)
print(pages.stride())  # stride 0: the three pages are one memory location
#> (2, 1, 0)
pages[:, :, 0] = 1  # writes the one location that every page shows
print(pages[0])
"""
tensor([[1., 1., 1.],
        [1., 1., 1.]])
"""

# clone() (or repeat) gives each page its own memory: only page 0 changes.
pages = torch.zeros(2, 2).unsqueeze(-1).expand(-1, -1, 3).clone()
pages[:, :, 0] = 1
print(pages[0])
"""
tensor([[1., 0., 0.],
        [1., 0., 0.]])
"""
# --8<-- [end:expand_write]

# --8<-- [start:tf_numpy_copy]
import tensorflow as tf
import torch

counts = tf.constant([3, 4])
array = counts.numpy()
array[0] = 1  # the array changes, the TensorFlow tensor does not
print(counts.numpy(), array)
#> [3 4] [1 4]
tensor = torch.tensor([3, 4])
tensor.numpy()[0] = 1  # a PyTorch tensor on the CPU shares its memory
print(tensor)
#> tensor([1, 4])

# To change a TensorFlow tensor's values, make a new tensor from the array.
counts = tf.constant(array)
print(counts)
#> tf.Tensor([1 4], shape=(2,), dtype=int32)
# --8<-- [end:tf_numpy_copy]

# --8<-- [start:masked_fill_expanded]
import warnings

import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
mask = torch.tensor([[[True, False]], [[False, True]]])  # (2, 1, 2): a mask for each view
xb, mb = torch.broadcast_tensors(x, mask)  # xb: x seen twice, (2, 2, 2)
print(xb.shape, xb.stride())  # stride 0 on axis 0: both views are x's memory
#> torch.Size([2, 2, 2]) (0, 2, 1)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    xb.masked_fill_(mb, 0)
print(xb)  # each view should keep the values its own mask leaves
"""
tensor([[[0., 0.],
         [0., 0.]],

        [[0., 0.],
         [0., 0.]]])
"""
print(x)  # and x itself is zeroed
"""
tensor([[0., 0.],
        [0., 0.]])
"""
print([str(w.message).split(".")[0] for w in caught])
#> ['Use of masked_fill_ on expanded tensors is deprecated']

# The fix: masked_fill (no underscore) returns a new tensor, or clone() before masked_fill_.
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
xb, mb = torch.broadcast_tensors(x, mask)
print(xb.masked_fill(mb, 0))
"""
tensor([[[0., 2.],
         [0., 4.]],

        [[1., 0.],
         [3., 0.]]])
"""
print(torch.equal(xb.clone().masked_fill_(mb, 0), xb.masked_fill(mb, 0)), x.sum().item())
#> True 10.0
# --8<-- [end:masked_fill_expanded]

# --8<-- [start:flatten_view]
import numpy as np
import torch

x = torch.arange(6).reshape(2, 3)  # contiguous
flat = torch.flatten(x)  # a view of x's memory, no copy
flat[0] = 100
print(x[0, 0].item(), flat.data_ptr() == x.data_ptr())  # the write reached x
#> 100 True
v = torch.arange(3)
print(torch.flatten(v) is v)  # already 1-d: flatten returns the input itself
#> True
print(torch.flatten(x.T).data_ptr() == x.data_ptr())  # not contiguous: flatten copies
#> False

a = np.arange(6).reshape(2, 3)
a_flat = a.flatten()  # NumPy's ndarray.flatten always copies
a_flat[0] = 100
print(a[0, 0], np.shares_memory(a, a_flat))
#> 0 False
print(np.shares_memory(a, np.ravel(a)))  # np.ravel: a view when it can, like torch.flatten
#> True

# The fix: clone the result before writing into it.
x = torch.arange(6).reshape(2, 3)
flat = torch.flatten(x).clone()
flat[0] = 100
print(x[0, 0].item(), flat[0].item())
#> 0 100
# --8<-- [end:flatten_view]
