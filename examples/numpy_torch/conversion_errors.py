"""Errors and warnings met when converting between torch tensors and NumPy arrays.

Run with `python examples/numpy_torch/conversion_errors.py`.
"""

# --8<-- [start:requires_grad]
import warnings

import numpy as np
import torch

weights = torch.ones(3, requires_grad=True)
try:
    weights.numpy()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.
    """

# detach() gives a tensor outside the autograd graph; it still shares memory.
detached = weights.detach()
print(detached.requires_grad, detached.data_ptr() == weights.data_ptr())
#> False True
plain = detached.numpy()
print(plain)
#> [1. 1. 1.]

# force=True does the detach (and, for a GPU tensor, the copy to the CPU) for you.
forced = weights.numpy(force=True)
print(forced, np.shares_memory(forced, plain))
#> [1. 1. 1.] True
forced[0] = 5  # shared memory: the write reaches the original tensor
print(weights)
#> tensor([5., 1., 1.], requires_grad=True)

# Still the error after adding detach(): another tensor in the graph reaches NumPy,
# here a list of losses kept for a plot (plotting converts the list with NumPy).
losses = [(weights * step).sum() for step in (1, 2)]
last = losses[-1].detach().numpy()  # detaching one loss leaves the list as it was
try:
    np.asarray(losses)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.
    """
print(np.asarray([loss.item() for loss in losses]))  # keep plain numbers: loss.item()
#> [ 7. 14.]
# --8<-- [end:requires_grad]

# --8<-- [start:force]
# numpy(force=True) is the one-call form of detach().cpu().numpy().
loss = torch.ones(3, requires_grad=True) * 2
long_form = loss.detach().cpu().numpy()
short_form = loss.numpy(force=True)
print(short_form, np.shares_memory(short_form, long_form))  # on the CPU both share memory
#> [2. 2. 2.] True

# The difference: force=True also resolves a conjugate view, which detach().cpu() keeps.
conjugated = torch.tensor([1 + 2j]).conj()
try:
    conjugated.detach().cpu().numpy()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj().numpy() instead.
    """
print(conjugated.numpy(force=True))
#> [1.-2.j]
# --8<-- [end:force]

# --8<-- [start:negative_strides]
values = np.arange(5)
reversed_view = values[::-1]  # a view with a negative stride, no copy
print(reversed_view.strides, np.shares_memory(reversed_view, values))
#> (-8,) True
print(np.flip(values).strides, np.flipud(values).strides)  # np.flip and np.flipud return such views too
#> (-8,) (-8,)
for convert in (torch.from_numpy, torch.as_tensor, torch.tensor):
    try:
        convert(reversed_view)
    except ValueError as err:
        print(f"{convert.__name__}: {type(err).__name__}")
        #> from_numpy: ValueError
        #> as_tensor: ValueError
        #> tensor: ValueError
        message = f"{type(err).__name__}: {err}"
print(message)
"""
ValueError: At least one stride in the given numpy array is negative, and tensors with negative strides are not currently supported. (You can probably work around this by making a copy of your array  with array.copy().)
"""

print(reversed_view.copy().strides)  # a copy has positive strides
#> (8,)
print(torch.from_numpy(reversed_view.copy()))
#> tensor([4, 3, 2, 1, 0])
print(torch.from_numpy(values).flip(0))  # or reverse on the torch side
#> tensor([4, 3, 2, 1, 0])
# --8<-- [end:negative_strides]

# --8<-- [start:read_only]
# An array over a bytes object is read-only; so is one whose flag is cleared.
print(np.frombuffer(b"\x00\x01", dtype=np.uint8).flags.writeable)
#> False
frozen = np.arange(3.0)
frozen.flags.writeable = False
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")  # show every warning, even repeated ones
    copied = torch.tensor(frozen)  # a copy: no warning
print("torch.tensor warnings:", len(caught))
#> torch.tensor warnings: 0
print(frozen.copy().flags.writeable)  # a copy is writable: from_numpy does not warn on it
#> True
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.from_numpy(frozen.copy())  # a copy is writable: no warning
print("from_numpy of a copy warnings:", len(caught))
#> from_numpy of a copy warnings: 0
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    shared = torch.from_numpy(frozen)
    torch.from_numpy(frozen)  # the same conversion again: torch does not warn again
print(shared.data_ptr() == frozen.__array_interface__["data"][0])  # still shared
#> True
print(len(caught), caught[0].category.__name__)
#> 1 UserWarning
# The location suffix of the message depends on the build.
warning = caught[0]
print(f"{warning.category.__name__}: {str(warning.message).split(' (Triggered internally')[0]}")
"""
UserWarning: The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This means writing to this tensor will result in undefined behavior. You may want to copy the array to protect its data or make it writable before converting it to a tensor. This type of warning will be suppressed for the rest of this program.
"""

safe = torch.tensor(frozen)  # copying avoids the problem
print(safe, np.shares_memory(safe.numpy(), frozen))
#> tensor([0., 1., 2.], dtype=torch.float64) False

shared[0] = 10  # undefined behaviour, as the warning says; here the write reached the array
print(frozen, frozen.flags.writeable)
#> [10.  1.  2.] False
# --8<-- [end:read_only]

# --8<-- [start:numpy_functions]
import numpy as np
import torch

steps = [torch.ones(2), torch.full((2,), 2.0)]  # e.g. one tensor per step, in a list
total = np.sum(steps, 0)  # NumPy converts each tensor to an array first
print(type(total).__name__, total)
#> ndarray [3. 3.]

weight = torch.ones(2, requires_grad=True)
try:
    np.sum([weight * 2, weight], 0)  # the same conversion, on tensors in the graph
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.
    """

# The fix: stay in PyTorch: stack the list, then sum with torch (nothing goes to NumPy).
total = torch.stack([weight * 2, weight]).sum(0)
print(total)
#> tensor([3., 3.], grad_fn=<SumBackward1>)
# --8<-- [end:numpy_functions]

# --8<-- [start:numpy_precision]
import numpy as np
import torch

# On a GPU, t = t.cuda(): .cpu() then copies the same bytes to host memory.
t = torch.randn(3, generator=torch.Generator().manual_seed(0)) / 3
a = t.detach().cpu().numpy()
print(t.dtype, a.dtype)
#> torch.float32 float32
print(torch.equal(torch.from_numpy(a), t.cpu()), np.array_equal(a, t.numpy()))
#> True True
print(t)  # PyTorch prints four decimals by default
#> tensor([ 0.5137, -0.0978, -0.7263])
print(a)  # NumPy prints the shortest digits that give back the float32
#> [ 0.5136654  -0.09780964 -0.7262631 ]
print(a.astype(np.float64))  # the same numbers with more digits: no precision added
#> [ 0.51366538 -0.09780964 -0.72626311]
print(a.astype(np.float64).astype(np.float32).tobytes() == a.tobytes())
#> True

# More precision needs the computation itself in float64.
third = torch.tensor(1.0) / 3
print(f"{third.item():.17f}", f"{(torch.tensor(1.0, dtype=torch.float64) / 3).item():.17f}")
#> 0.33333334326744080 0.33333333333333331
# --8<-- [end:numpy_precision]
