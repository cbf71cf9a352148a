"""Which dtype you get when converting between NumPy and torch, and when that copies.

Run with `python examples/numpy_torch/conversion_dtypes.py`.
"""

# --8<-- [start:defaults]
import numpy as np
import torch

print(np.array([1.0, 2.0]).dtype, torch.tensor([1.0, 2.0]).dtype)
#> float64 torch.float32
print(np.array([1, 2]).dtype, torch.tensor([1, 2]).dtype)
#> int64 torch.int64
print(torch.get_default_dtype())
#> torch.float32
# --8<-- [end:defaults]

# --8<-- [start:from_numpy_keeps_dtype]
features = np.random.default_rng(0).random((4, 3))  # NumPy's default: float64
x = torch.from_numpy(features)
print(x.dtype)
#> torch.float64

layer = torch.nn.Linear(3, 1)  # parameters use torch's default: float32
print(layer.weight.dtype)
#> torch.float32
# The error message uses the legacy type names: Double is float64, Float is float32.
print(x.type(), layer.weight.type())
#> torch.DoubleTensor torch.FloatTensor
try:
    layer(x)
except RuntimeError as err:
    print(type(err).__name__, err)
    #> RuntimeError mat1 and mat2 must have the same dtype, but got Double and Float
# --8<-- [end:from_numpy_keeps_dtype]

# --8<-- [start:copy_on_dtype_change]
doubles = np.ones(3)  # float64
kept = torch.as_tensor(doubles)  # dtype matches: shared
cast = torch.as_tensor(doubles, dtype=torch.float32)  # dtype differs: copied
print(np.shares_memory(kept.numpy(), doubles), np.shares_memory(cast.numpy(), doubles))
#> True False

# .to() and its shorthands return the same tensor when nothing has to change,
# and a new tensor (new memory) when the dtype changes.
print(kept.to(torch.float64) is kept, kept.to("cpu") is kept, kept.double() is kept)
#> True True True
single = kept.float()
print(single is kept, np.shares_memory(single.numpy(), doubles))
#> False False
# --8<-- [end:copy_on_dtype_change]

# --8<-- [start:choose_explicitly]
raw = [[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]]

# 1. Choose at the source, then share: one float32 buffer, no copy on the torch side.
batch = np.asarray(raw, dtype=np.float32)
inputs = torch.from_numpy(batch)
print(inputs.dtype, np.shares_memory(inputs.numpy(), batch))
#> torch.float32 True

# 2. Or let torch convert (a copy when the dtype changes).
inputs = torch.as_tensor(np.asarray(raw), dtype=torch.float32)
print(inputs.dtype)
#> torch.float32

# Class-index targets of cross_entropy must be int64 ("Long") or uint8; int32 is refused.
logits = torch.zeros(3, 4)
int32_labels = torch.from_numpy(np.array([2, 0, 1], dtype=np.int32))
try:
    torch.nn.functional.cross_entropy(logits, int32_labels)
except RuntimeError as err:
    print(type(err).__name__, err)
    #> RuntimeError expected target dtype to be Long or Byte, but got Int
labels = int32_labels.long()  # or torch.as_tensor(..., dtype=torch.long)
print(labels.dtype, round(torch.nn.functional.cross_entropy(logits, labels).item(), 4))
#> torch.int64 1.3863
byte_labels = int32_labels.to(torch.uint8)  # uint8 ("Byte") is accepted too
print(round(torch.nn.functional.cross_entropy(logits, byte_labels).item(), 4))
#> 1.3863

print(torch.nn.Linear(3, 1)(torch.from_numpy(batch)).dtype)
#> torch.float32
# --8<-- [end:choose_explicitly]

# --8<-- [start:numpy_scalars]
# A NumPy scalar carries its dtype into torch.tensor; a Python float does not.
print(torch.tensor(np.float64(1.5)).dtype, torch.tensor(1.5).dtype)
#> torch.float64 torch.float32
# --8<-- [end:numpy_scalars]

# --8<-- [start:unsupported]
try:
    torch.from_numpy(np.array(["a", "b"]))
except TypeError as err:
    print(type(err).__name__, err)
    """
    TypeError can't convert np.ndarray of type numpy.str_. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.
    """
try:
    torch.from_numpy(np.array([1, None], dtype=object))  # Python objects
except TypeError as err:
    print(type(err).__name__, str(err).split(". ")[0])
    #> TypeError can't convert np.ndarray of type numpy.object_

big_endian = np.arange(3, dtype=">f4")  # e.g. read from a file written on another machine
for convert in (torch.from_numpy, torch.as_tensor, torch.tensor):
    try:
        convert(big_endian)
    except ValueError as err:
        print(f"{convert.__name__}: {type(err).__name__}")
        #> from_numpy: ValueError
        #> as_tensor: ValueError
        #> tensor: ValueError
        message = str(err)
print(message)
"""
given numpy array has byte order different from the native byte order. Conversion between byte orders is currently not supported.
"""
native = big_endian.astype("=f4")  # "=": native byte order
print(torch.from_numpy(native), np.shares_memory(native, big_endian))
#> tensor([0., 1., 2.]) False
# --8<-- [end:unsupported]
