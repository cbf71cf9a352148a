"""Dtype and type promotion errors in PyTorch, NumPy and TensorFlow.

Each section triggers one error as readers meet it, prints the message as a traceback's
last line shows it, then shows the fix working.

Run with `python examples/errors/dtype_errors.py`.
"""

# --8<-- [start:linear_double_input]
import numpy as np
import torch

layer = torch.nn.Linear(3, 1)  # parameters are float32
features = torch.from_numpy(np.ones((2, 3)))  # NumPy's default: float64
try:
    layer(features)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float

# A convolution says the same in other words.
try:
    torch.nn.Conv2d(1, 1, 1)(torch.ones(1, 1, 2, 2, dtype=torch.float64))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Input type (double) and bias type (float) should be the same

# Which side is which: the dtypes of the model's parameters, and of the data it receives.
print({name: param.dtype for name, param in layer.named_parameters()}, features.dtype)
#> {'weight': torch.float32, 'bias': torch.float32} torch.float64
# np.random.rand gives float64 too, and the tensor's older type name says Double.
print(np.random.rand(2, 3).dtype, torch.from_numpy(np.random.rand(2, 3)).type())
#> float64 torch.DoubleTensor

# The fix: convert the data to the model's dtype (or the model: layer.double()).
print(layer(features.float()).dtype)
#> torch.float32
# --8<-- [end:linear_double_input]

# --8<-- [start:matmul_mixed_dtypes]
single = torch.ones(2, 2)  # float32
double = torch.from_numpy(np.ones((2, 2)))  # float64: NumPy's default, kept by from_numpy
try:
    single @ double  # matmul does not promote
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: expected m1 and m2 to have the same dtype, but got: float != double

print(single + double)  # element-wise operations do promote
"""
tensor([[2., 2.],
        [2., 2.]], dtype=torch.float64)
"""

# The fix: pick one dtype for both operands.
print(single @ double.to(single.dtype))
"""
tensor([[2., 2.],
        [2., 2.]])
"""
# --8<-- [end:matmul_mixed_dtypes]

# --8<-- [start:addmm_mixed_dtypes]
bias = torch.zeros(2)
single = torch.ones(2, 2)
double = torch.ones(2, 2, dtype=torch.float64)
try:
    torch.addmm(bias, single, double)  # bias + single @ double
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: self and mat2 must have the same dtype, but got Float and Double

# The fix: the same as for matmul, one dtype for all three.
print(torch.addmm(bias, single, double.float()))
"""
tensor([[2., 2.],
        [2., 2.]])
"""
# --8<-- [end:addmm_mixed_dtypes]

# --8<-- [start:inplace_result_type]
counts = torch.tensor([1, 2, 3])  # int64
try:
    counts.mul_(0.5)  # the float result cannot be written into int64 memory
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: result type Float can't be cast to the desired output type Long

# Integer (int64) labels for nn.BCEWithLogitsLoss fail the same way.
logits = torch.zeros(3)
labels = torch.tensor([0, 1, 1])
try:
    torch.nn.BCEWithLogitsLoss()(logits, labels)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: result type Float can't be cast to the desired output type Long

# Averaging or updating a model's state_dict in place: BatchNorm counts its batches in int64.
state = torch.nn.BatchNorm1d(2).state_dict()
print(state["num_batches_tracked"].dtype)
#> torch.int64
try:
    state["num_batches_tracked"].add_(torch.tensor(0.5))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: result type Float can't be cast to the desired output type Long

# The fix: an out-of-place operation promotes; or make the tensor float first.
print(counts * 0.5)
#> tensor([0.5000, 1.0000, 1.5000])
print(torch.nn.BCEWithLogitsLoss()(logits, labels.float()))  # float labels
#> tensor(0.6931)
for value in state.values():  # in a state_dict: update the float entries, keep the counter
    if value.is_floating_point():
        value.add_(0.5)
print(state["running_mean"], state["num_batches_tracked"])
#> tensor([0.5000, 0.5000]) tensor(0)
# --8<-- [end:inplace_result_type]

# --8<-- [start:numpy_same_kind]
totals = np.array([1, 2, 3])  # int64
try:
    totals += 0.5  # in place: the float64 result cannot go into an int64 array
except TypeError as err:  # NumPy's UFuncTypeError, a subclass of TypeError
    print(f"{type(err).__name__}: {err}")
    """
    UFuncTypeError: Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with casting rule 'same_kind'
    """
    print(f"{type(err).__module__}.{type(err).__qualname__}")  # as a traceback names it
    #> numpy._core._exceptions._UFuncOutputCastingError

# The fix: a new array (which promotes), or an explicit unsafe cast in place.
print(totals + 0.5)
#> [1.5 2.5 3.5]
np.add(totals, 0.5, out=totals, casting="unsafe")  # truncates: 1.5 becomes 1
print(totals)
#> [1 2 3]
# --8<-- [end:numpy_same_kind]

# --8<-- [start:numpy_uint8_negative]
counts = np.array([3, 5], dtype=np.uint8)
try:
    counts += -1  # a negative Python int with an unsigned array
except (TypeError, OverflowError) as err:  # NumPy 1.x: UFuncTypeError; NumPy 2: OverflowError
    print(f"{type(err).__name__}: {err}")
    #> OverflowError: Python integer -1 out of bounds for uint8
try:
    counts += np.int8(-1)  # a signed NumPy scalar (or array): int16 result in every release
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    UFuncTypeError: Cannot cast ufunc 'add' output from dtype('int16') to dtype('uint8') with casting rule 'same_kind'
    """

# The fix: subtract a positive number, or cast on purpose.
counts -= 1
print(counts, counts.dtype)
#> [2 4] uint8
print(counts.astype(np.int16) - 3)  # room for negative results
#> [-1  1]
np.add(counts, np.int8(-3), out=counts, casting="unsafe")  # wrap-around, on purpose
print(counts)
#> [255   1]
# --8<-- [end:numpy_uint8_negative]

# --8<-- [start:numpy_uint8_out_of_bounds]
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        print(np.array([1, 300], dtype=np.uint8))  # 300 does not fit in uint8
    except OverflowError as err:
        print(f"{type(err).__name__}: {err}")
        #> OverflowError: Python integer 300 out of bounds for uint8
print([w.category.__name__ for w in caught])
#> []

pixels = np.array([200], dtype=np.uint8)
try:
    print(pixels + 300)  # a Python int takes the array's dtype
except OverflowError as err:
    print(f"{type(err).__name__}: {err}")
    #> OverflowError: Python integer 300 out of bounds for uint8

# The fix: compute in a wider dtype, then clip (or wrap) on purpose.
print(np.clip(pixels.astype(np.int64) + 300, 0, 255).astype(np.uint8))
#> [255]
# --8<-- [end:numpy_uint8_out_of_bounds]

# --8<-- [start:torch_uint8_overflow]
try:
    torch.tensor([1, 300], dtype=torch.uint8)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: value cannot be converted to type uint8 without overflow

# Writing a Python integer into an existing uint8 tensor is checked too.
pixels = torch.zeros(2, dtype=torch.uint8)
try:
    pixels[0] = 300
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: value cannot be converted to type uint8_t without overflow

# The check is looser than the range below zero: -1 to -255 wrap around silently,
# and only -256 and below raise. int8 is checked at both ends of its range.
print(torch.tensor([-1, -255], dtype=torch.uint8), torch.tensor([-128, 127], dtype=torch.int8))
#> tensor([255,   1], dtype=torch.uint8) tensor([-128,  127], dtype=torch.int8)
for values, dtype in [([-256], torch.uint8), ([128], torch.int8), ([-129], torch.int8)]:
    try:
        torch.tensor(values, dtype=dtype)
    except RuntimeError as err:
        print(values, f"{type(err).__name__}: {err}")
        #> [-256] RuntimeError: value cannot be converted to type uint8 without overflow
        #> [128] RuntimeError: value cannot be converted to type int8 without overflow
        #> [-129] RuntimeError: value cannot be converted to type int8 without overflow

# Arithmetic does not check: 200 + 300 wraps around, and so does 87 squared (7569).
print(torch.tensor([200], dtype=torch.uint8) + 300)
#> tensor([244], dtype=torch.uint8)
print(torch.square(torch.tensor([87], dtype=torch.uint8)))
#> tensor([145], dtype=torch.uint8)

# The fix: clip the values to the range before converting.
print(torch.tensor([1, 300]).clamp(0, 255).to(torch.uint8))
#> tensor([  1, 255], dtype=torch.uint8)
# And compute in a wider dtype.
print(torch.square(torch.tensor([87], dtype=torch.uint8).to(torch.int32)))
#> tensor([7569], dtype=torch.int32)
# --8<-- [end:torch_uint8_overflow]

# --8<-- [start:numpy_float_alias]
try:
    weights = np.ones(3, dtype=np.float)  # code written for NumPy < 1.24
except AttributeError as err:
    lines = str(err).splitlines()
    print(f"{type(err).__name__}: {lines[0]}")
    #> AttributeError: module 'numpy' has no attribute 'float'.
    print(lines[1][:58])
    #> `np.float` was a deprecated alias for the builtin `float`.

# The other removed aliases fail the same way; np.bool came back in NumPy 2.
for name in ["int", "object", "str", "complex", "bool"]:
    try:
        print(f"np.{name}:", getattr(np, name))
        #> np.bool: <class 'numpy.bool'>
    except AttributeError as err:
        print(f"np.{name}:", str(err).splitlines()[0])
        #> np.int: module 'numpy' has no attribute 'int'.
        #> np.object: module 'numpy' has no attribute 'object'.
        #> np.str: module 'numpy' has no attribute 'str'.
        #> np.complex: module 'numpy' has no attribute 'complex'.

# The fix: the builtin (same behaviour as the alias) or the sized NumPy type.
print(np.ones(3, dtype=float).dtype, np.ones(3, dtype=np.float64).dtype)
#> float64 float64
print(np.array([1.7, 2.2]).astype(int).dtype, np.zeros(2, dtype=bool).dtype)
#> int64 bool
# --8<-- [end:numpy_float_alias]

# --8<-- [start:numpy_nan_alias]
try:
    fill = np.NaN  # code written for NumPy 1.x
    print("np.NaN:", fill)
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: `np.NaN` was removed in the NumPy 2.0 release. Use `np.nan` instead.

# The other capitalised or old spellings NumPy 2 removed; each message names the replacement.
for name in ["Inf", "NINF", "PINF", "infty", "float_"]:
    try:
        print(f"np.{name}:", getattr(np, name))
    except AttributeError as err:
        print(f"np.{name}:", err)
        #> np.Inf: `np.Inf` was removed in the NumPy 2.0 release. Use `np.inf` instead.
        #> np.NINF: `np.NINF` was removed in the NumPy 2.0 release. Use `-np.inf` instead.
        #> np.PINF: `np.PINF` was removed in the NumPy 2.0 release. Use `np.inf` instead.
        #> np.infty: `np.infty` was removed in the NumPy 2.0 release. Use `np.inf` instead.
        #> np.float_: `np.float_` was removed in the NumPy 2.0 release. Use `np.float64` instead.

# The fix, the same in NumPy 1 and 2: the lower-case constants.
values = np.array([1.0, 2.0, 3.0])
values[1] = np.nan
print(values, np.inf, -np.inf, np.isnan(values).sum())
#> [ 1. nan  3.] inf -inf 1
# --8<-- [end:numpy_nan_alias]

# --8<-- [start:linalg_object_dtype]
innovation = np.empty((2, 2), dtype=object)  # entries filled one by one from matrix products
innovation[0, 0] = np.matrix([[2.0]])  # a 1 x 1 matrix where a number was meant
innovation[0, 1] = innovation[1, 0] = 0.0
innovation[1, 1] = np.matrix([[1.0]])
S = np.matrix(innovation)
print(S.dtype)
#> object
try:
    np.linalg.inv(S)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    UFuncTypeError: Cannot cast ufunc 'inv' input from dtype('O') to dtype('float64') with casting rule 'same_kind'
    """

# The fix: build a float array, taking the number out of each 1 x 1 matrix.
S = np.array([[np.asarray(v).item() for v in row] for row in innovation.tolist()])
print(S.dtype, np.linalg.inv(S).tolist())
#> float64 [[0.5, 0.0], [0.0, 1.0]]
# Plain numbers in an object array only need astype.
print(np.linalg.inv(np.array([[2.0, 0.0], [0.0, 1.0]], dtype=object).astype(np.float64)).tolist())
#> [[0.5, 0.0], [0.0, 1.0]]
# --8<-- [end:linalg_object_dtype]

# --8<-- [start:overflow_unpacking_long]
hashes = [2**63 + 5, 12345]  # 64-bit hashes: the first is above int64's largest, 2**63 - 1
try:
    torch.tensor(hashes)  # Python integers become int64
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Overflow when unpacking long long

# uint64 holds them, made from Python integers or from a NumPy uint64 array...
as_uint64 = torch.tensor(hashes, dtype=torch.uint64)
print(as_uint64)
#> tensor([9223372036854775813,               12345], dtype=torch.uint64)
print(torch.equal(as_uint64, torch.from_numpy(np.array(hashes, dtype=np.uint64))))
#> True
# ...but few operations accept uint64: == does, + does not.
print(as_uint64 == 12345)
#> tensor([False,  True])
try:
    as_uint64 + 1
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    #> NotImplementedError: "add_stub" not implemented for 'UInt64'

# To compute with them, read the same 64 bits as int64: nothing is lost, but values
# above 2**63 - 1 read as negative numbers, with other remainders than Python's.
as_int64 = as_uint64.view(torch.int64)
print(as_int64, as_int64 % 1000, [h % 1000 for h in hashes])
#> tensor([-9223372036854775803,                12345]) tensor([197, 345]) [813, 345]
print(as_int64.view(torch.uint64).tolist() == hashes)
#> True
# --8<-- [end:overflow_unpacking_long]

# --8<-- [start:mean_integer]
steps = torch.tensor([1, 2, 4])
try:
    steps.mean()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    NotImplementedError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long
    """

# The fix: convert, or name the dtype of the result.
print(steps.float().mean(), steps.mean(dtype=torch.float64))
#> tensor(2.3333) tensor(2.3333, dtype=torch.float64)
print(np.array([1, 2, 4]).mean().dtype)  # NumPy returns float64 for integer input
#> float64
# --8<-- [end:mean_integer]

# --8<-- [start:not_implemented_for_dtype]
try:
    torch.softmax(torch.tensor([1, 2, 3]), dim=0)
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    #> NotImplementedError: "softmax_lastdim_kernel_impl" not implemented for 'Long'
try:
    torch.ones(2) & torch.ones(2)  # bitwise operations need integers or booleans
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    #> NotImplementedError: "bitwise_and_cpu" not implemented for 'Float'

# The fix: the dtype the operation is defined for.
print(torch.softmax(torch.tensor([1, 2, 3]).float(), dim=0))
#> tensor([0.0900, 0.2447, 0.6652])
print(torch.ones(2, dtype=torch.bool) & torch.ones(2, dtype=torch.bool))
#> tensor([True, True])
# --8<-- [end:not_implemented_for_dtype]

# --8<-- [start:complex_cross_entropy]
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(2, 3, dtype=torch.complex64, requires_grad=True)  # a complex network's output
labels = torch.tensor([0, 2])
try:
    F.cross_entropy(logits, labels)
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    #> NotImplementedError: "log_softmax_lastdim_kernel_impl" not implemented for 'ComplexFloat'
print(logits.exp().dtype)  # softmax's exponentials of complex scores are complex
#> torch.complex64

# The fix: real scores for the loss, here each output's magnitude (.abs()).
loss = F.cross_entropy(logits.abs(), labels)
print(loss.dtype, round(loss.item(), 4))
#> torch.float32 1.2751
loss.backward()
print(logits.grad.dtype)  # the gradient still reaches the complex output
#> torch.complex64
# Or keep the real and imaginary parts as real features, for a last real-valued layer.
print(torch.view_as_real(logits).shape, torch.view_as_real(logits).dtype)
#> torch.Size([2, 3, 2]) torch.float32
# --8<-- [end:complex_cross_entropy]

# --8<-- [start:bool_subtraction]
src = torch.tensor([[101, 2023, 0, 0]])  # token ids; 0 is padding
try:
    mask_src = 1 - (src == 0)  # src == 0 is a bool tensor
except RuntimeError as err:  # torch 2.15 raises NotImplementedError, a subclass
    print(f"{type(err).__name__}: {err}")
    """
    NotImplementedError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.
    """
is_pad = src == 0
try:
    is_pad - is_pad
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    NotImplementedError: Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.
    """

# The fix: invert a mask with ~ (or torch.logical_not); convert it where numbers are wanted.
print(~is_pad, torch.equal(~is_pad, torch.logical_not(is_pad)))
#> tensor([[ True,  True, False, False]]) True
print((~is_pad).long(), 1 - is_pad.long())
#> tensor([[1, 1, 0, 0]]) tensor([[1, 1, 0, 0]])
# --8<-- [end:bool_subtraction]

# --8<-- [start:float_indices]
table = torch.tensor([10, 20, 30])
positions = torch.tensor([0.0, 2.0])  # e.g. computed with a division
try:
    table[positions]
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: tensors used as indices must be long, int, byte or bool tensors

try:
    table[positions.to(torch.int16)]  # not every integer dtype: int16 and int8 fail too
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: tensors used as indices must be long, int, byte or bool tensors

# The fix: int64 indices (or int32, or a boolean mask).
print(table[positions.long()])
#> tensor([10, 30])
# --8<-- [end:float_indices]

# --8<-- [start:numpy_float_index]
values = np.arange(10, 20)
n = len(values)
try:
    values[n / 2]  # Python 3: / always gives a float, 5.0
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    """
    IndexError: only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices
    """
try:
    values[: n / 2]  # a float in a slice
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: slice indices must be integers or None or have an __index__ method
try:
    values[np.array([0.0, 5.0])]  # a float array
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: arrays used as indices must be of integer (or boolean) type

# The fix: floor division, or int() of a computed float.
print(values[n // 2], values[: n // 2], values[np.array([0.0, 5.0]).astype(int)])
#> 15 [10 11 12 13 14] [10 15]
# --8<-- [end:numpy_float_index]

# --8<-- [start:numpy_float_shape]
items = list(range(12))
try:
    np.zeros((len(items) / float(3),))  # a shape computed with /
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: 'float' object cannot be interpreted as an integer
try:
    np.arange(12).reshape(2, len(items) / 2)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: 'float' object cannot be interpreted as an integer
try:
    torch.zeros(len(items) / 3)
except TypeError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
    #> TypeError: zeros(): argument 'size' (position 1) must be tuple of ints, not float

# The fix: shapes are integers: // or int().
print(np.zeros((len(items) // 3,)).shape, np.zeros(int(len(items) / 3.0)).shape)
#> (4,) (4,)
# --8<-- [end:numpy_float_shape]

# --8<-- [start:json_float32]
import json

loss = np.float32(0.1)  # e.g. a mean over a float32 array
try:
    json.dumps({"loss": loss})  # Flask's jsonify fails the same way
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Object of type float32 is not JSON serializable
print(json.dumps({"loss": np.float64(0.1)}))  # float64 works: it is a Python float
#> {"loss": 0.1}
print(isinstance(np.float64(0.1), float), isinstance(loss, float))
#> True False
for value in (np.int64(3), np.array([1.5]), torch.tensor(1.5)):
    try:
        json.dumps(value)
    except TypeError as err:
        print(f"{type(err).__name__}: {err}")
        #> TypeError: Object of type int64 is not JSON serializable
        #> TypeError: Object of type ndarray is not JSON serializable
        #> TypeError: Object of type Tensor is not JSON serializable

# The fix: convert to Python numbers first: .item(), float(), .tolist().
print(json.dumps({"loss": loss.item(), "sizes": np.array([1.5]).tolist()}))
#> {"loss": 0.10000000149011612, "sizes": [1.5]}
print(json.dumps({"loss": float(loss)}), json.dumps(torch.tensor(1.5).item()))
#> {"loss": 0.10000000149011612} 1.5


class NumpyEncoder(json.JSONEncoder):  # or convert everything NumPy in one place
    def default(self, o):
        if isinstance(o, (np.generic, np.ndarray)):
            return o.tolist()
        return super().default(o)


print(json.dumps({"loss": loss, "ids": np.arange(3)}, cls=NumpyEncoder))
#> {"loss": 0.10000000149011612, "ids": [0, 1, 2]}
# --8<-- [end:json_float32]

# --8<-- [start:int32_indices]
a = torch.tensor([10, 20, 30])
idx = torch.tensor([2, 0], dtype=torch.int32)
print(a[idx], a.index_select(0, idx))  # int32 indexes in the releases verified here
#> tensor([30, 10]) tensor([30, 10])
print(a[idx.long()])  # int64 indexes in every release
#> tensor([30, 10])
# --8<-- [end:int32_indices]

# --8<-- [start:expected_long_found_float]
import torch.nn.functional as F

batch = torch.cat([torch.zeros(3), torch.ones(3)])  # point -> sample, built as float32
print(batch.dtype)
#> torch.float32
scores = torch.randn(2, 3)
labels = torch.tensor([[0.0, 1.0, -1.0], [2.0, -1.0, 0.0]])  # class lists, as floats
try:  # a kernel that reads its int64 argument directly, as extension ops do
    F.multilabel_margin_loss(scores, labels)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: expected scalar type Long but found Float

# The fix: build the vectors as int64, or convert with .long().
print(torch.cat([torch.zeros(3, dtype=torch.long), torch.ones(3, dtype=torch.long)]))
#> tensor([0, 0, 0, 1, 1, 1])
print(torch.arange(2).repeat_interleave(3), batch.long().dtype)
#> tensor([0, 0, 0, 1, 1, 1]) torch.int64
print(F.multilabel_margin_loss(scores, labels.long()).shape)
#> torch.Size([])
# --8<-- [end:expected_long_found_float]

# --8<-- [start:expected_dtype_first_operand]
conv = torch.nn.Conv1d(1, 1, kernel_size=2)  # weights: float32
signal = torch.tensor([[[1, 2, 3, 4]]])  # int64 data: the input, not the layer, is Long
for name, call in [("F.conv1d", lambda: F.conv1d(signal, conv.weight)), ("Conv1d", lambda: conv(signal))]:
    try:
        call()
    except RuntimeError as err:
        print(f"{name}: {type(err).__name__}: {err}")
        #> F.conv1d: RuntimeError: expected scalar type Long but found Float
        #> Conv1d: RuntimeError: Input type (long int) and bias type (float) should be the same

ints = torch.ones(1, 2, 2, dtype=torch.long)
floats = torch.ones(1, 2, 2)
for name, left, right in [("bmm(ints, floats)", ints, floats), ("bmm(floats, ints)", floats, ints)]:
    try:
        torch.bmm(left, right)
    except RuntimeError as err:  # "expected" is the first operand's dtype
        print(f"{name}: {err}")
        #> bmm(ints, floats): expected scalar type Long but found Float
        #> bmm(floats, ints): expected scalar type Float but found Long

# Which tensor is Long? Print the dtype of every tensor the call reads.
print(signal.dtype, conv.weight.dtype)
#> torch.int64 torch.float32

# The fix: cast the data to the model's dtype (a float model cannot compute in int64).
print(conv(signal.float()).dtype, torch.bmm(ints.float(), floats).dtype)
#> torch.float32 torch.float32
# --8<-- [end:expected_dtype_first_operand]

# --8<-- [start:index_select_float_index]
vocabulary_size = 3
top_ids = torch.tensor([4, 2])  # best positions in the flattened (beam, word) scores
beams = torch.tensor([[10, 11], [20, 21]])  # one row per beam
prev_k = top_ids / vocabulary_size  # true division: floats
print(prev_k)
#> tensor([1.3333, 0.6667])
try:
    beams.index_select(0, prev_k)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: index_select(): Expected dtype int32 or int64 for index
try:
    torch.zeros(2).index_add_(0, prev_k, torch.ones(2))  # index_add_ words it differently
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: index_add_(): Expected dtype int32/int64 for index but got: Float

# The fix: floor division keeps int64, and gives each position's beam.
prev_k = top_ids // vocabulary_size
print(prev_k, beams.index_select(0, prev_k))
"""
tensor([1, 0]) tensor([[20, 21],
        [10, 11]])
"""
# --8<-- [end:index_select_float_index]

# --8<-- [start:uint8_mask_indexing]
import warnings

next_states = [torch.ones(2), None, torch.ones(2)]  # None where the episode ended
values = torch.tensor([0.5, 0.7, 0.9])
non_final = torch.tensor([s is not None for s in next_states], dtype=torch.uint8)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(values[non_final])
    #> tensor([0.5000, 0.9000])
for warning in caught:  # the text before torch's "(Triggered internally at <path>)"
    print(f"{warning.category.__name__}: {str(warning.message).split(' (Triggered internally')[0]}")
    """
    UserWarning: indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.
    """

# The fix: a bool mask, made with dtype=torch.bool or converted with .bool().
non_final = torch.tensor([s is not None for s in next_states], dtype=torch.bool)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(values[non_final], values[non_final.byte().bool()])
    #> tensor([0.5000, 0.9000]) tensor([0.5000, 0.9000])
print(len(caught))
#> 0
# --8<-- [end:uint8_mask_indexing]

# --8<-- [start:embedding_float_indices]
embedding = torch.nn.Embedding(num_embeddings=5, embedding_dim=2)
token_ids = torch.tensor([1.0, 3.0])
try:
    embedding(token_ids)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding)
    """

# The fix: int64 (or int32) ids.
print(embedding(token_ids.long()).shape)
#> torch.Size([2, 2])
# --8<-- [end:embedding_float_indices]

# --8<-- [start:embedding_int32_indices]
embedding = torch.nn.Embedding(num_embeddings=5, embedding_dim=2)
int32_ids = torch.tensor([1, 3], dtype=torch.int32)  # a torch.IntTensor
print(int32_ids.type())
#> torch.IntTensor
# This PyTorch looks up int32 ids; .long() (int64) gives the same rows, in every version.
print(torch.equal(embedding(int32_ids), embedding(int32_ids.long())))
#> True
print(torch.equal(torch.nn.functional.embedding(int32_ids, embedding.weight), embedding(int32_ids.long())))
#> True
# --8<-- [end:embedding_int32_indices]

# --8<-- [start:cross_entropy_target]
scores = torch.zeros(3, 4)  # 3 samples, 4 classes
targets = torch.tensor([2.0, 0.0, 1.0])  # class indices, but float
try:
    torch.nn.functional.cross_entropy(scores, targets)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: expected target dtype to be Long or Byte, but got Float

# The fix: class indices as int64.
print(round(torch.nn.functional.cross_entropy(scores, targets.long()).item(), 4))
#> 1.3863
# --8<-- [end:cross_entropy_target]

# --8<-- [start:cross_entropy_weight_dtype]
import numpy as np
import torch
import torch.nn.functional as F

counts = np.array([50, 30, 20])  # samples per class in the training set
class_weight = torch.tensor(counts.sum() / counts)  # NumPy's division gives float64
print(class_weight.dtype)
#> torch.float64
logits = torch.zeros(4, 3)  # a float32 model's output
labels = torch.tensor([0, 2, 1, 2])
criterion = torch.nn.CrossEntropyLoss(weight=class_weight)
try:
    criterion(logits, labels)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: expected scalar type Float but found Double

# NLLLoss says the same; with float64 logits and float32 weights the two names swap.
for name, call in [
    ("NLLLoss", lambda: torch.nn.NLLLoss(weight=class_weight)(F.log_softmax(logits, dim=1), labels)),
    ("float64 logits", lambda: F.cross_entropy(logits.double(), labels, weight=class_weight.float())),
]:
    try:
        call()
    except RuntimeError as err:
        print(f"{name}: {err}")
        #> NLLLoss: expected scalar type Float but found Double
        #> float64 logits: expected scalar type Double but found Float

# The fix: make the weights float32, the logits' dtype (on a GPU, move them there too).
class_weight = torch.tensor(counts.sum() / counts, dtype=torch.float32)  # or .float()
criterion = torch.nn.CrossEntropyLoss(weight=class_weight)
print(class_weight, round(criterion(logits, labels).item(), 4))
#> tensor([2.0000, 3.3333, 5.0000]) 1.0986
# --8<-- [end:cross_entropy_weight_dtype]

# --8<-- [start:tf_mixed_dtypes]
import tensorflow as tf

try:
    tf.constant([1.0]) + tf.constant([1.0], dtype=tf.float64)  # float32 + float64
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {err.message}")
    """
    InvalidArgumentError: cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a double tensor [Op:AddV2] name:
    """
try:
    tf.constant([1]) + 1.5  # int32 tensor + Python float
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {err.message}")
    """
    InvalidArgumentError: cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a float tensor [Op:AddV2] name:
    """

# The fix: tf.cast one operand to the other's dtype.
print(tf.constant([1.0]) + tf.cast(tf.constant([1.0], dtype=tf.float64), tf.float32))
#> tf.Tensor([2.], shape=(1,), dtype=float32)
print(tf.cast(tf.constant([1]), tf.float32) + 1.5)
#> tf.Tensor([2.5], shape=(1,), dtype=float32)
# --8<-- [end:tf_mixed_dtypes]


# --8<-- [start:tf_graph_mixed_dtypes]
@tf.function  # traced into a graph first, as Keras does when it trains a model
def scale(x, factor):
    return x * factor


try:
    scale(tf.constant([1.0], dtype=tf.float64), tf.constant([2.0]))  # float64 * float32
except TypeError as err:
    print(str(err).strip().splitlines()[-1].strip())  # the last line, without the file
    """
    TypeError: Input 'y' of 'Mul' Op has type float32 that does not match type float64 of argument 'x'.
    """

# The fix: the same as in eager mode, tf.cast one operand.
x = tf.constant([1.0], dtype=tf.float64)
print(scale(x, tf.cast(tf.constant([2.0]), x.dtype)))
#> tf.Tensor([2.], shape=(1,), dtype=float64)
# --8<-- [end:tf_graph_mixed_dtypes]

# --8<-- [start:tf_convert_dtype]
try:
    tf.constant([-1.5, 2.5], dtype=tf.int32)  # creation does not truncate floats
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Cannot convert [-1.5, 2.5] to EagerTensor of dtype int32

# The fix: create as float, then tf.cast (which truncates towards zero).
print(tf.cast(tf.constant([-1.5, 2.5]), tf.int32))
#> tf.Tensor([-1  2], shape=(2,), dtype=int32)
# --8<-- [end:tf_convert_dtype]

# --8<-- [start:tf_float_int64_step]
import math

step = tf.constant(4000, dtype=tf.int64)  # an int64 step counter
# The second: 0.9375 meeting the counter directly, as in the report's message;
# current Keras refuses a float step count before it gets there (below).
for compute in (lambda: step ** (-0.5), lambda: step * (30 / 32)):
    try:
        compute()
    except TypeError as err:
        print(f"{type(err).__name__}: {err}")
        #> TypeError: Cannot convert -0.5 to EagerTensor of dtype int64
        #> TypeError: Cannot convert 0.9375 to EagerTensor of dtype int64
try:
    step + 0.5  # with + the refusal is another exception
except tf.errors.InvalidArgumentError as err:
    print(type(err).__name__)
    #> InvalidArgumentError

# The fix: cast the counter to float before the arithmetic.
print(tf.cast(step, tf.float32) ** (-0.5))
#> tf.Tensor(0.015811387, shape=(), dtype=float32)

# Keras's own step counts must be integers: a float validation_steps is refused,
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
x, y = np.ones((8, 2), np.float32), np.ones((8, 1), np.float32)
for steps in (30 / 32, math.ceil(30 / 32)):
    try:
        model.fit(x, y, batch_size=4, validation_data=(x, y), validation_steps=steps, verbose=0)
        print(steps, "fits")
        #> 1 fits
    except TypeError as err:
        print(steps, f"{type(err).__name__}: {err}")
        #> 0.9375 TypeError: 'float' object cannot be interpreted as an integer
# and so is a float steps_per_epoch, even with an integer validation_steps.
try:
    model.fit(x, y, batch_size=4, steps_per_epoch=455 / 32, validation_steps=1, verbose=0,
              validation_data=(x, y))
except TypeError as err:
    print("steps_per_epoch", 455 / 32, f"{type(err).__name__}: {err}")
    #> steps_per_epoch 14.21875 TypeError: 'float' object cannot be interpreted as an integer
# --8<-- [end:tf_float_int64_step]

# --8<-- [start:tf_int_not_allowed]
x = tf.constant([2, 0, -2])  # Python integers: an int32 tensor
try:
    tf.math.rsqrt(x)
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {err.message.splitlines()[0]}")  # without the op's signature
    """
    InvalidArgumentError: Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double, complex64, complex128
    """
for op in (tf.sqrt, tf.math.log, tf.math.rint):  # other float-only operations
    try:
        op(x)
    except tf.errors.InvalidArgumentError as err:
        print(op.__name__, type(err).__name__)
        #> sqrt InvalidArgumentError
        #> log InvalidArgumentError
        #> rint InvalidArgumentError

# The fix: cast to a float dtype first.
print(tf.math.rsqrt(tf.cast(x, tf.float32)))
#> tf.Tensor([0.70710677        inf        nan], shape=(3,), dtype=float32)
# --8<-- [end:tf_int_not_allowed]


# --8<-- [start:tf_graph_int_not_allowed]
@tf.function  # runs as a graph, as TensorFlow 1 code and Keras's training steps do
def round_to_grid(size):
    return tf.math.rint(size)


image_h = tf.constant(500)  # an int32 tensor
try:
    round_to_grid(image_h // 32)  # // keeps int32, as / did in Python 2
except TypeError as err:
    print(str(err).strip().splitlines()[-1].strip())  # the last line, without the file
    """
    TypeError: Value passed to parameter 'x' has DataType int32 not in list of allowed values: bfloat16, float16, float32, float64
    """


@tf.function
def inverse_root(x):
    return tf.math.rsqrt(x)


try:
    inverse_root(tf.constant([2, 0, -2]))  # rsqrt in a graph: the same refusal
except TypeError as err:
    print(str(err).strip().splitlines()[-1].strip())
    """
    TypeError: Value passed to parameter 'x' has DataType int32 not in list of allowed values: bfloat16, float16, float32, float64, complex64, complex128
    """


print((image_h / 32).dtype)  # / of Python 3 gives a float tensor
#> <dtype: 'float64'>
# The fix: cast to float explicitly, which works whatever / does.
print(round_to_grid(tf.cast(image_h, tf.float32) / 32))
#> tf.Tensor(16.0, shape=(), dtype=float32)
# --8<-- [end:tf_graph_int_not_allowed]


# --8<-- [start:tf_cast_string]
import keras

lookup = keras.layers.StringLookup()  # maps strings to integer ids
lookup.adapt(["cat", "dog", "cat", "bird"])
words = tf.constant([["cat"], ["bird"]])  # a string tensor
model = keras.Sequential([keras.Input(shape=(1,)), lookup])  # Input's dtype: float32
try:
    model(words)
except tf.errors.UnimplementedError as err:
    print(f'{type(err).__name__}: {str(err).split("}} ")[1].split(" name:")[0]}')
    #> UnimplementedError: Cast string to float is not supported [Op:Cast]
try:
    tf.cast(words, tf.int64)  # the same Cast op, to the integer dtype of TF 2.8's message
except tf.errors.UnimplementedError as err:
    print(f'{type(err).__name__}: {str(err).split("}} ")[1].split(" name:")[0]}')
    #> UnimplementedError: Cast string to int64 is not supported [Op:Cast]

# The fix: declare the string input, or let the model take its dtype from the data.
model = keras.Sequential([keras.Input(shape=(1,), dtype="string"), lookup])
print(model(words).numpy().tolist())
#> [[1], [3]]
print(keras.Sequential([lookup])(words).numpy().tolist())  # no Input: Keras 3 accepts it
#> [[1], [3]]
try:
    model.predict(np.array([["cat"]]), verbose=0)  # a NumPy str array is refused
except ValueError as err:
    print(type(err).__name__, err)
    #> ValueError Invalid dtype: str96
print(model.predict(tf.constant([["cat"]]), verbose=0).tolist())
#> [[1]]
print(tf.strings.to_number(tf.constant(["3", "4.5"])))  # digits in strings: parse, not cast
#> tf.Tensor([3.  4.5], shape=(2,), dtype=float32)
# --8<-- [end:tf_cast_string]


# --8<-- [start:lookup_positional_vocabulary]
vocab = ["cat", "dog", "bird"]
try:
    keras.layers.StringLookup(vocab)  # the first positional parameter is max_tokens
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: '<=' not supported between instances of 'list' and 'int'
for layer in (keras.layers.IntegerLookup, keras.layers.TextVectorization):
    try:
        layer([1, 2] if layer is keras.layers.IntegerLookup else vocab)
    except TypeError as err:
        print(layer.__name__, type(err).__name__)
        #> IntegerLookup TypeError
        #> TextVectorization TypeError

# The fix: pass the vocabulary by keyword.
lookup = keras.layers.StringLookup(vocabulary=vocab)
print([str(w) for w in lookup.get_vocabulary()], lookup(tf.constant(["dog", "fish"])).numpy().tolist())
#> ['[UNK]', 'cat', 'dog', 'bird'] [2, 0]
# --8<-- [end:lookup_positional_vocabulary]


# --8<-- [start:tf_one_hot_float]
labels = tf.constant([0.0, 2.0, 1.0])  # labels read as float32, e.g. from an image volume
try:
    tf.one_hot(labels, 3)
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {err.message.splitlines()[0]}")
    """
    InvalidArgumentError: Value for attr 'TI' of float is not in the list of allowed values: uint8, int8, int32, int64
    """
dataset = tf.data.Dataset.from_tensor_slices(labels)
try:
    dataset.map(lambda y: tf.one_hot(y, 3))  # map traces a graph: a TypeError at once
except TypeError as err:
    print(str(err).strip().splitlines()[-1].strip())
    """
    TypeError: Value passed to parameter 'indices' has DataType float32 not in list of allowed values: uint8, int8, int32, int64
    """

# The fix: cast the labels to an integer dtype before one_hot.
onehot = dataset.map(lambda y: tf.one_hot(tf.cast(y, tf.int32), 3))
print(next(iter(onehot.batch(3))).numpy().tolist())
#> [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]]
# --8<-- [end:tf_one_hot_float]

# --8<-- [start:half_on_cpu]
# float16 layers run on the CPU in the releases verified here.
layer = torch.nn.Linear(3, 2).half()
print(layer(torch.ones(1, 3, dtype=torch.float16)).dtype)
#> torch.float16
# --8<-- [end:half_on_cpu]

# --8<-- [start:half_float_mismatch]
scores = torch.ones(1, 2, 3, dtype=torch.float16)  # a half-precision model's output
weights = torch.ones(1, 3, 2)  # float32, created by user code
try:
    torch.bmm(scores, weights)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: expected scalar type Half but found Float
try:
    torch.bmm(weights, scores)  # the other way round
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: expected scalar type Float but found Half

# Autocast chooses a lower precision inside its region only; its outputs keep that dtype.
layer = torch.nn.Linear(3, 3)
x = torch.ones(1, 3)
with torch.autocast("cpu", dtype=torch.bfloat16):
    hidden = layer(x)
    print(hidden.dtype, torch.bmm(hidden[None], x.t()[None]).dtype)  # bmm is cast too
    #> torch.bfloat16 torch.bfloat16
try:
    torch.bmm(hidden[None], x.t()[None])  # outside the region: bfloat16 meets float32
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: expected scalar type BFloat16 but found Float
print(torch.get_autocast_dtype("cpu"), torch.get_autocast_dtype("cuda"))  # the lower precision per device
#> torch.bfloat16 torch.float16

# The fix: one dtype where the two meet.
print(torch.bmm(scores, weights.to(scores.dtype)).dtype)
#> torch.float16
print(torch.bmm(hidden[None].float(), x.t()[None]).dtype)
#> torch.float32

# float16 meeting bfloat16: a float16 model trained with bf16, or two inputs of one operation.
try:
    torch.bmm(scores, weights.bfloat16())
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: expected scalar type Half but found BFloat16
with torch.autocast("cpu", dtype=torch.bfloat16):
    try:
        torch.cat([scores, scores.bfloat16()])  # cat runs in the widest input dtype
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        #> RuntimeError: Unexpected floating ScalarType in at::autocast::prioritize
    print(torch.cat([scores.bfloat16(), scores.float()]).dtype)  # bfloat16 and float32: the wider
    #> torch.float32
    print(torch.cat([scores.bfloat16(), scores.bfloat16()]).dtype)  # one dtype
    #> torch.bfloat16
# --8<-- [end:half_float_mismatch]

# --8<-- [start:conv_half_input]
image = torch.ones(1, 1, 4, 4, dtype=torch.float16)  # a half-precision feature map
conv = torch.nn.Conv2d(1, 1, 3)  # its weight and bias are created in float32
torch.nn.init.ones_(conv.weight), torch.nn.init.zeros_(conv.bias)
try:
    conv(image)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Input type (c10::Half) and bias type (float) should be the same
try:  # without a bias: worded by the CPU's convolution kernel, which differs between CPUs
    torch.nn.functional.conv2d(image, conv.weight)
except RuntimeError as err:
    print(type(err).__name__, "Half" in str(err), "Float" in str(err))
    #> RuntimeError True True

# The fix: one dtype for input and layer (the layer in the input's, or both in float32).
with torch.no_grad():
    print(conv(image.float())[0, 0, 0])
    #> tensor([9., 9.])
    print(conv.to(image.dtype)(image)[0, 0, 0])
    #> tensor([9., 9.], dtype=torch.float16)
# --8<-- [end:conv_half_input]

# --8<-- [start:where_condition_dtype]
scores = torch.tensor([0.2, -1.0, 3.0])
mask = torch.tensor([1.0, 0.0, 1.0], dtype=torch.float64)  # a 0/1 mask stored as floats
try:
    torch.where(mask, scores, 0.0)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: where expected condition to be a boolean tensor, but got a tensor with dtype Double
    """

# The fix: a boolean condition, from a comparison or .bool().
print(torch.where(mask.bool(), scores, 0.0))
#> tensor([0.2000, 0.0000, 3.0000])
print(torch.where(mask == 1, scores, 0.0))
#> tensor([0.2000, 0.0000, 3.0000])
# A Python float as a branch keeps the tensor's dtype: float32 here, not float64.
print(torch.where(scores > 0, scores, 1.0).dtype)
#> torch.float32
# --8<-- [end:where_condition_dtype]

# --8<-- [start:masked_fill_mask_dtype]
probability_matrix = torch.full((2, 4), 0.15)
special_tokens_mask = [[1, 0, 0, 1], [1, 0, 1, 1]]  # 1 marks [CLS], [SEP], padding
byte_mask = torch.tensor(special_tokens_mask, dtype=torch.uint8)
try:
    probability_matrix.masked_fill_(byte_mask, value=0.0)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype unsigned char

# The fix: a bool mask, made as bool or converted with .bool().
bool_mask = torch.tensor(special_tokens_mask, dtype=torch.bool)
print(probability_matrix.masked_fill_(bool_mask, value=0.0))
"""
tensor([[0.0000, 0.1500, 0.1500, 0.0000],
        [0.0000, 0.1500, 0.0000, 0.0000]])
"""
print(torch.equal(probability_matrix.masked_fill(byte_mask.bool(), 0.0), probability_matrix))
#> True
# --8<-- [end:masked_fill_mask_dtype]

# --8<-- [start:gather_index_dtype]
probs = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]])
picked = torch.tensor([[1.0], [0.0]])  # class positions stored as floats
try:
    probs.gather(1, picked)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: gather(): Expected dtype int32/int64 for index

# The fix: integer positions. int64 is the usual dtype; int32 is accepted too.
print(probs.gather(1, picked.long()))
"""
tensor([[0.7000],
        [0.5000]])
"""
print(probs.gather(1, picked.int()))
"""
tensor([[0.7000],
        [0.5000]])
"""
# --8<-- [end:gather_index_dtype]

# --8<-- [start:scatter_index_dtype]
target = torch.tensor([2.0, 0.0, 1.0])  # class labels read from a float array
target_onehot = torch.zeros(3, 4)
try:
    target_onehot.scatter_(1, target.unsqueeze(1), 1.0)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: scatter(): Expected dtype int32/int64 for index

# The fix: integer labels. scatter_ takes int64 (or int32); one_hot takes int64 only.
print(target_onehot.scatter_(1, target.long().unsqueeze(1), 1.0))
"""
tensor([[0., 0., 1., 0.],
        [1., 0., 0., 0.],
        [0., 1., 0., 0.]])
"""
print(torch.nn.functional.one_hot(target.long(), num_classes=4))
"""
tensor([[0, 0, 1, 0],
        [1, 0, 0, 0],
        [0, 1, 0, 0]])
"""
try:
    torch.nn.functional.one_hot(target.int(), num_classes=4)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: one_hot is only applicable to index tensor of type LongTensor.
# --8<-- [end:scatter_index_dtype]

# --8<-- [start:bce_target_dtype]
probs = torch.sigmoid(torch.tensor([0.5, -1.0, 2.0]))
labels = torch.full((3,), 1)  # a Python int fills an int64 tensor
print(labels.dtype)
#> torch.int64
try:
    torch.nn.BCELoss()(probs, labels)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Found dtype Long but expected Float

# The fix: float labels, created as such or converted.
labels = torch.full((3,), 1, dtype=torch.float)
print(round(torch.nn.BCELoss()(probs, labels).item(), 4))
#> 0.6381
# --8<-- [end:bce_target_dtype]

# --8<-- [start:rnn_input_dtype]
rnn = torch.nn.RNN(input_size=3, hidden_size=2)  # float32 weights
sequence = torch.from_numpy(np.array([[8.0, -3.0, 5.0]]))  # float64, NumPy's default
try:
    rnn(sequence)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: input.to(torch.float32), or convert model: model.to(torch.float64)
    """

# The fix: convert the input to the weights' dtype (or the model, with rnn.double()).
output, hidden = rnn(sequence.float())
print(output.dtype, tuple(output.shape))
#> torch.float32 (1, 2)
# --8<-- [end:rnn_input_dtype]

# --8<-- [start:scatter_src_dtype]
totals = torch.zeros(2)  # float32 sums, one per group
groups = torch.tensor([0, 1, 0])
values = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
try:
    totals.scatter_add_(0, groups, values)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: scatter(): Expected self.dtype to be equal to src.dtype

# The fix: convert the source to the destination's dtype.
print(totals.scatter_add_(0, groups, values.to(totals.dtype)))
#> tensor([4., 2.])
# --8<-- [end:scatter_src_dtype]

# --8<-- [start:index_put_dtype]
grid = torch.zeros(3, 3)  # float32
value = torch.tensor(5.0, dtype=torch.float64)
grid[:, 1] = value  # slicing: the value is converted
try:
    grid[[0, 2], 2] = value  # a list (or tensor) of positions: no conversion
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Index put requires the source and destination dtypes match, got Float for the destination and Double for the source.
    """

# The fix: convert the value to the destination's dtype.
grid[[0, 2], 2] = value.to(grid.dtype)
print(grid)
"""
tensor([[0., 5., 5.],
        [0., 5., 0.],
        [0., 5., 5.]])
"""
# --8<-- [end:index_put_dtype]
