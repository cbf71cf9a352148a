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

# --8<-- [start:float32_digits]
value = 234678.5462495405945
print(torch.tensor([value]).item())  # float32: about seven significant digits survive
#> 234678.546875
print(torch.tensor([value], dtype=torch.float64).item())  # float64 keeps what Python has
#> 234678.54624954058
print(np.array([value]).item())  # NumPy's default, float64
#> 234678.54624954058
# The gap between 1 and the next number each dtype can hold.
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float64).eps)
#> 1.1920928955078125e-07 2.220446049250313e-16
# --8<-- [end:float32_digits]

# --8<-- [start:float32_vs_numpy]
rng = np.random.default_rng(0)
a, b, c = (rng.random((100, 100)) for _ in range(3))  # NumPy's default: float64
a32, b32, c32 = (torch.from_numpy(m).float() for m in (a, b, c))  # the same, in float32

# Equal in exact arithmetic; after rounding, the two sides differ.
gap64 = np.abs((a + b) @ c - (a @ c + b @ c)).max()
gap32 = ((a32 + b32) @ c32 - (a32 @ c32 + b32 @ c32)).abs().max().item()
print(gap64 < 1e-11, gap32 > 1e-6)
#> True True

# torch's float32 result agrees with NumPy's float64 one within 1e-5, not within 1e-10.
expected = (a + b) @ c
result32 = ((a32 + b32) @ c32).numpy()
print(np.allclose(result32, expected, rtol=1e-5, atol=0))
#> True
print(np.allclose(result32, expected, rtol=1e-10, atol=0))
#> False
# In float64 (torch.from_numpy keeps NumPy's dtype), it agrees within 1e-10.
a64, b64, c64 = (torch.from_numpy(m) for m in (a, b, c))
print(np.allclose(((a64 + b64) @ c64).numpy(), expected, rtol=1e-10, atol=0))
#> True
# --8<-- [end:float32_vs_numpy]

# --8<-- [start:float32_sums]
x = torch.ones(5, 68, 64, 64) * 0.1  # 1,392,640 copies of 0.1, in float32
print(x[0, 0, 0, 0].item())  # 0.1 itself is rounded
#> 0.10000000149011612
print(x.sum(dtype=torch.float64).item())  # added up in float64: exact here
#> 139264.0020751953

# Each thread adds up its share, then the shares are added: the float32 rounding
# depends on how the additions are grouped, here on the number of threads.
threads = torch.get_num_threads()
totals = {}
for n in (1, 5):
    torch.set_num_threads(n)
    totals[n] = x.sum()
    print(n, totals[n].item())
    #> 1 139264.015625
    #> 5 139264.046875
torch.set_num_threads(threads)
array = x.numpy()
print(array.sum().item(), array.sum(dtype=np.float64).item())  # NumPy: its own grouping
#> 139264.03125 139264.0020751953
# Compare float32 results with a tolerance, not with ==.
print(torch.equal(totals[1], totals[5]), torch.isclose(totals[1], totals[5]).item())
#> False True
# --8<-- [end:float32_sums]

# --8<-- [start:float32_matmul]
import tensorflow as tf

rng = np.random.default_rng(0)
a = rng.standard_normal((64, 256), dtype=np.float32)
b = rng.standard_normal((256, 32), dtype=np.float32)
exact = a.astype(np.float64) @ b.astype(np.float64)  # the reference, in float64
products = {
    "numpy": a @ b,
    "torch": (torch.from_numpy(a) @ torch.from_numpy(b)).numpy(),
    "tensorflow": tf.matmul(a, b).numpy(),
}
for name, product in products.items():
    # None equals the float64 product; each is within 1e-4 of it.
    print(name, np.array_equal(product, exact), np.allclose(product, exact, rtol=0, atol=1e-4))
    #> numpy False True
    #> torch False True
    #> tensorflow False True
# Whether they agree bit for bit depends on each library's kernels and the CPU: within 1e-4, they do.
print(np.allclose(products["numpy"], products["torch"], rtol=0, atol=1e-4), np.allclose(products["numpy"], products["tensorflow"], rtol=0, atol=1e-4))
#> True True
# --8<-- [end:float32_matmul]

# --8<-- [start:float64_matmul]
import math

rng = np.random.default_rng(0)
J = rng.uniform(0.0, 100.0, size=(100_000, 2))  # float64; the reader's J had 1,005,001 rows
numpy_jtj = J.T @ J
torch_jtj = torch.from_numpy(J).T @ torch.from_numpy(J)
print(numpy_jtj.dtype, torch_jtj.dtype)  # both float64: no float32 anywhere
#> float64 torch.float64

# numpy_jtj[0, 1] is the sum of 100,000 products; the order of the additions matters.
products = J[:, 0] * J[:, 1]
exact = math.fsum(products)  # the correctly rounded sum: the reference
pairwise = np.sum(products)  # NumPy's pairwise order
sequential = np.cumsum(products)[-1]  # left to right
print(f"{exact:.6f} {pairwise:.6f} {sequential:.6f}")
#> 249418169.094160 249418169.094160 249418169.094158
difference = abs(pairwise - sequential)
print(f"absolute {difference:.1e}, relative {difference / exact:.1e}, last bit {np.spacing(exact):.1e}")
#> absolute 1.6e-06, relative 6.5e-15, last bit 3.0e-08

# The fix: compare with a relative tolerance. Both products are within 1e-13 of the exact sum.
print(np.allclose(numpy_jtj, torch_jtj.numpy(), rtol=1e-12, atol=0))
#> True
print(abs(numpy_jtj[0, 1] - exact) / exact < 1e-13, abs(torch_jtj[0, 1].item() - exact) / exact < 1e-13)
#> True True
# --8<-- [end:float64_matmul]

# --8<-- [start:printed_decimals]
small = np.array([0.00012, 0.00007587], dtype=np.float32)
total = torch.from_numpy(small).sum()
print(total, small.sum())  # a tensor prints four decimals; NumPy prints every digit it needs
#> tensor(0.0002) 0.00019587
print(torch.from_numpy(small).sum(dtype=torch.float64))  # float64 prints four decimals too
#> tensor(0.0002, dtype=torch.float64)
print(total.item())  # the value, as a Python float: no digit was lost
#> 0.000195870001334697
torch.set_printoptions(precision=8)  # show eight decimals from now on
print(total)
#> tensor(0.00019587)
torch.set_printoptions(profile="default")  # back to four
print(total)
#> tensor(0.0002)
# --8<-- [end:printed_decimals]

# --8<-- [start:float32_printed_digits]
a = np.array([1.920941165, 0.9518795607])  # float64
a32 = a.astype(np.float32)
print(a32)  # NumPy: the shortest decimals that identify each float32
#> [1.9209411  0.95187956]
torch.set_printoptions(precision=10)
print(torch.tensor(a32), torch.tensor(a))  # ten decimals of the stored float32, of the float64
#> tensor([1.9209411144, 0.9518795609]) tensor([1.9209411650, 0.9518795607], dtype=torch.float64)
print(torch.equal(torch.tensor(a32), torch.from_numpy(a32)))  # the same values as the array
#> True
print(float(a32[0]))  # the first stored float32, as a Python float: more digits than either
#> 1.9209411144256592
print(np.format_float_positional(a32[0], precision=10, unique=False))  # NumPy, ten decimals
#> 1.9209411144
torch.set_printoptions(profile="default")
# --8<-- [end:float32_printed_digits]

# --8<-- [start:round_tolist]
import numpy as np
import torch

x = torch.tensor([0.44897, 0.12345])
r = torch.round(x, decimals=3)
print(r, r.tolist())  # printed 0.4490, but tolist() gives many decimals
#> tensor([0.4490, 0.1230]) [0.4490000009536743, 0.12300000339746475]
print(float(np.float32(0.449)))  # the float32 nearest 0.449, as a Python float
#> 0.4490000009536743
print(r.numpy(), np.round(x.numpy(), 3).tolist())  # NumPy: the same float32 values
#> [0.449 0.123] [0.4490000009536743, 0.12300000339746475]

# The fixes: round the Python floats, or round in float64.
print([round(v, 3) for v in r.tolist()], torch.round(x.double(), decimals=3).tolist())
#> [0.449, 0.123] [0.449, 0.123]
# --8<-- [end:round_tolist]

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

# Without a choice, NumPy's float64 stays float64 in the tensor.
print(np.asarray(raw).dtype, torch.tensor(np.asarray(raw)).dtype)
#> float64 torch.float64

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

# --8<-- [start:int32_labels]
# "long" and "intc" are names of C types: NumPy maps each to a sized integer type.
print(np.dtype("long"), np.dtype("intc"))  # here "long" is int64; a reader on Windows got int32
#> int64 int32
logits = torch.zeros(3, 4)
reader_labels = np.array([2, 0, 1], dtype=np.int32)  # what astype("long") gave the reader
try:
    torch.nn.functional.cross_entropy(logits, torch.from_numpy(reader_labels))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: expected target dtype to be Long or Byte, but got Int
# Ask for a size, not a C type, and the labels are int64 on every machine:
targets = torch.from_numpy(reader_labels.astype(np.int64))
print(targets.dtype, torch.long is torch.int64)
#> torch.int64 True
print(round(torch.nn.functional.cross_entropy(logits, targets).item(), 4))
#> 1.3863
# Or convert on the torch side: .long() gives int64 too.
torch_side = torch.from_numpy(reader_labels).long()
print(torch_side.dtype, round(torch.nn.functional.cross_entropy(logits, torch_side).item(), 4))
#> torch.int64 1.3863
# --8<-- [end:int32_labels]

# --8<-- [start:int_type_numbers]
# NumPy's integer types are C types; two of them may have one size, each with its own number.
for name in ["intc", "int_", "longlong"]:
    dtype = np.dtype(getattr(np, name))
    print(name, dtype, dtype.num, dtype.char)
    #> intc int32 5 i
    #> int_ int64 7 l
    #> longlong int64 9 q
a = np.arange(4)  # the default integer: C long here
b = np.arange(4, dtype=np.longlong)  # C long long: int64 too, another type number
print(a.dtype == b.dtype, a.dtype.num, b.dtype.num)
#> True 7 9
# torch reads both as int64, and an intc array (kept by a % 2) as int32
print(torch.from_numpy(a).dtype, torch.from_numpy(b).dtype, torch.from_numpy(np.arange(4, dtype=np.intc) % 2).dtype)
#> torch.int64 torch.int64 torch.int32
# Asking for a size gives the same tensor dtype in every release and on every system:
print(torch.from_numpy(b.astype(np.int64)).dtype, torch.from_numpy((a % 2).astype(np.int32)).dtype)
#> torch.int64 torch.int32
# --8<-- [end:int_type_numbers]

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

# --8<-- [start:uint16]
depth = np.array([[0, 1000], [40000, 65535]], dtype=np.uint16)  # e.g. a 16-bit depth PNG
t = torch.from_numpy(depth)
print(t.dtype)
#> torch.uint16
try:
    t + 1
except NotImplementedError as err:
    print(type(err).__name__, err)
    #> NotImplementedError "add_stub" not implemented for 'UInt16'
# int32 holds every uint16 value; float32 too, for a model's input.
print(torch.from_numpy(depth.astype(np.int32)) + 1)
"""
tensor([[    1,  1001],
        [40001, 65536]], dtype=torch.int32)
"""
print(torch.from_numpy(depth.astype(np.float32)) / 65535)
"""
tensor([[0.0000, 0.0153],
        [0.6104, 1.0000]])
"""
# --8<-- [end:uint16]

# --8<-- [start:complex]
prediction = torch.tensor([1 + 2j, 3 - 1j])  # complex64
target = torch.tensor([1 + 1j, 2 - 1j])
try:
    torch.nn.MSELoss()(prediction, target)
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    #> NotImplementedError: "mse_cpu" not implemented for 'ComplexFloat'

# A mean squared error for complex numbers: the mean of |prediction - target| squared.
print(((prediction - target).abs() ** 2).mean())
#> tensor(1.)

# view_as_real: the same memory seen as (real, imaginary) pairs, a float32 tensor (..., 2).
pairs = torch.view_as_real(prediction)
print(pairs.dtype, pairs.shape, pairs.data_ptr() == prediction.data_ptr())
#> torch.float32 torch.Size([2, 2]) True
print(torch.nn.MSELoss()(pairs, torch.view_as_real(target)))  # a mean over 4 numbers, not 2
#> tensor(0.5000)

# view_as_complex: back, without a copy; a write through one view shows in the other.
back = torch.view_as_complex(pairs)
pairs[0, 1] = 5.0
print(back.data_ptr() == prediction.data_ptr(), prediction)
#> True tensor([1.+5.j, 3.-1.j])
try:
    torch.view_as_complex(torch.zeros(3, 3))  # the last dimension must have size 2
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Tensor must have a last dimension of size 2
try:
    torch.view_as_complex(torch.zeros(2, 3).t())  # shape (3, 2), but the pairs are not adjacent
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Tensor must have a last dimension with stride 1
print(torch.view_as_complex(torch.zeros(2, 3).t().contiguous()).shape)  # a copy with stride 1
#> torch.Size([3])

# NumPy: view a float32 array with a last axis of 2 as complex64 (the last axis becomes 1).
print(np.array([[1.0, 2.0], [3.0, -1.0]], dtype=np.float32).view(np.complex64))
"""
[[1.+2.j]
 [3.-1.j]]
"""
# --8<-- [end:complex]
