"""Type promotion: the dtype of a result when operands differ, in NumPy, PyTorch, TensorFlow.

Run with `python examples/fundamentals/type_promotion.py`. The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares.
"""

# --8<-- [start:numpy_nep50]
import numpy as np

single = np.array([1.0, 2.0], dtype=np.float32)
print((single + 1.0).dtype)  # a Python float adapts to the array
#> float32
print((single + np.float64(1.0)).dtype)  # a NumPy float64 scalar does not
#> float64
print(np.result_type(np.int8, np.uint8))  # the smallest type that holds both ranges
#> int16
print(np.result_type(np.int64, np.uint64))  # no integer type holds both: float64
#> float64
print((np.array([1, 2], dtype=np.int8) + 1.5).dtype)  # another kind: NumPy's default float
#> float64
print((single + 1j).dtype)  # a Python complex adapts too: complex64, not complex128
#> complex64
# --8<-- [end:numpy_nep50]

# --8<-- [start:numpy_overflow]
import warnings

small = np.uint8(200)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    wrapped = small + 100  # by default: a warning, and the value wraps around
print(wrapped, wrapped.dtype, [warning.category.__name__ for warning in caught])
#> 44 uint8 ['RuntimeWarning']
print(np.array([200], dtype=np.uint8) + 100)  # arrays wrap silently, with no warning
#> [44]
pixel = np.array([182], dtype=np.int16)
print(pixel * pixel)  # 182 * 182 = 33124 does not fit int16: a wrong product, no warning
#> [-32412]
with np.errstate(over="raise"):
    print(np.array([200], dtype=np.uint8) + 100)  # errstate does not reach integer arrays
    #> [44]

with np.errstate(over="raise"):
    try:
        print(small + 100)  # stays uint8, and 300 does not fit
    except FloatingPointError as err:
        print(type(err).__name__, err)
        #> FloatingPointError overflow encountered in scalar add

try:
    print(np.uint8(1) + 300)  # a Python int that uint8 cannot hold at all
except OverflowError as err:
    print(type(err).__name__, err)
    #> OverflowError Python integer 300 out of bounds for uint8
# --8<-- [end:numpy_overflow]

# --8<-- [start:uint8_subtraction]
import torch

first = np.array([10, 200], dtype=np.uint8)  # two pixels of one image
second = np.array([20, 100], dtype=np.uint8)  # the same pixels of another
difference = first - second
print(difference, difference.dtype)  # uint8 minus uint8 is uint8: 10 - 20 wraps around to 246
#> [246 100] uint8
print(np.array([1, 1], dtype=np.uint16) - np.array([2, 2], dtype=np.uint16))  # uint16: 65535
#> [65535 65535]
widened = first.astype(np.int16) - second
print(widened, widened.dtype)  # a signed, wider type first: the true differences, in int16
#> [-10 100] int16
print(np.abs(first.astype(np.int16) - second).astype(np.uint8))  # absolute difference, back to uint8
#> [ 10 100]
print(torch.tensor([10, 200], dtype=torch.uint8) - torch.tensor([20, 100], dtype=torch.uint8))  # PyTorch too
#> tensor([246, 100], dtype=torch.uint8)
print(torch.tensor([10, 200], dtype=torch.uint8).to(torch.int16) - torch.tensor([20, 100], dtype=torch.uint8))
#> tensor([-10, 100], dtype=torch.int16)
# --8<-- [end:uint8_subtraction]

# --8<-- [start:int32_sum]
powers = np.power(np.array(range(26)), 7)  # from 22**7 = 2494357888 on, the powers exceed int32's largest value, 2147483647
print(powers.dtype, powers.sum())  # the default integer here: int64, the right sum
#> int64 22267545625
narrow = np.power(np.array(range(26), dtype=np.int32), 7)  # the same with int32
print(narrow[-4:], narrow.sum(dtype=np.int32))  # 22**7 to 25**7 wrapped silently; the sum: 792709145
#> [-1800609408  -890141849   291504128  1808548329] 792709145
print(np.power(np.array(range(26), dtype=np.int64), 7).sum())  # an explicit int64 on every machine
#> 22267545625
# Totals and running totals accumulated in int32 turn negative past 2147483647.
print(np.arange(10_000_000).sum(dtype=np.int32), np.arange(10_000_000).sum())
#> -2014260032 49999995000000
print(np.cumsum([2_000_000_000, 2_000_000_000], dtype=np.int32), np.cumsum([2_000_000_000, 2_000_000_000]))
#> [2000000000 -294967296] [2000000000 4000000000]
print(np.arange(10**5).sum(dtype=np.int32), np.arange(10**5).sum())  # int32 as on a reader's Windows, and int64
#> 704982704 4999950000
# --8<-- [end:int32_sum]

# --8<-- [start:int_list_sum]
import math

row63 = [math.comb(63, k) for k in range(64)]  # Python ints, each below int64's largest, 2**63 - 1
row64 = [math.comb(64, k) for k in range(65)]
print(np.array(row63).dtype, np.sum(row63), sum(row63))  # the total 2**63 wraps to negative
#> int64 -9223372036854775808 9223372036854775808
print(np.array(row64).dtype, np.sum(row64), sum(row64))  # 2**64 wraps to 0
#> int64 0 18446744073709551616
row67 = [math.comb(67, k) for k in range(68)]  # some values beyond int64, all below 2**64
row68 = [math.comb(68, k) for k in range(69)]  # one value beyond 2**64
print(np.array(row67).dtype, np.sum(row67), sum(row67))  # int64 with uint64 gives float64
#> float64 1.475739525896764e+20 147573952589676412928
print(np.array(row68).dtype, np.sum(row68), sum(row68))  # Python ints in an object array: exact
#> object 295147905179352825856 295147905179352825856
# The fix: sum the Python ints in Python, or ask NumPy for an object array.
print(sum(row64), np.sum(np.array(row64, dtype=object)))
#> 18446744073709551616 18446744073709551616
print(torch.tensor(row64).sum())  # PyTorch: int64, the same wrap
#> tensor(0)
try:
    torch.tensor(row68)
except (ValueError, RuntimeError) as error:
    print(type(error).__name__, error)
    #> ValueError Overflow when unpacking long long
# --8<-- [end:int_list_sum]

# --8<-- [start:torch_categories]
import torch

single = torch.ones(2)  # float32
print((single * 2.0).dtype, (single * np.float64(2.0)).dtype)  # scalars adapt
#> torch.float32 torch.float32
print((single * torch.tensor(2.0, dtype=torch.float64)).dtype)  # so does a 0-dim tensor
#> torch.float32
whole = torch.tensor([1, 2], dtype=torch.int32)
print((whole * 2.0).dtype, (whole * torch.tensor(2.0, dtype=torch.float64)).dtype)
#> torch.float32 torch.float64
print((single * torch.ones(2, dtype=torch.float64)).dtype)  # a dimensioned one does not
#> torch.float64
print((single * torch.from_numpy(np.ones(2))).dtype)  # nor does a float64 array from NumPy
#> torch.float64
print((torch.tensor([1, 2]) * 1.5).dtype)  # integer tensor, float scalar: default float
#> torch.float32
print(torch.result_type(torch.tensor([1, 2], dtype=torch.int32), np.int64(1)))
#> torch.int32
print(torch.tensor([1], dtype=torch.uint8) + torch.tensor(255, dtype=torch.int16))  # same category: uint8 wins
#> tensor([0], dtype=torch.uint8)
# --8<-- [end:torch_categories]

# --8<-- [start:tensor_plus_array]
half = torch.tensor([1.0, 2.0], dtype=torch.float16)
counts = np.array([1, 2], dtype=np.int32)
print(half.__add__(counts))  # the tensor declines the array...
#> NotImplemented
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # NumPy 2 on torch's __array_wrap__
    mixed = half + counts  # ...so NumPy computes it and wraps the result as a tensor
    ints = torch.tensor([1, 2], dtype=torch.int32) + np.array([0.5], dtype=np.float32)
print(type(mixed).__name__, mixed.dtype, np.result_type(np.float16, np.int32))
#> Tensor torch.float64 float64
print(ints.dtype)
#> torch.float64
try:
    torch.add(half, counts)  # the function form refuses the array
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: add(): argument 'other' (position 2) must be Tensor, not numpy.ndarray

# The fix: make the array a tensor first; PyTorch's rules then give float16.
print((half + torch.from_numpy(counts)).dtype, (half + torch.as_tensor(counts)).dtype)
#> torch.float16 torch.float16
# --8<-- [end:tensor_plus_array]

# --8<-- [start:numpy_scalar_left]
import math

weight = torch.nn.Parameter(torch.ones(2))  # requires grad
for scale in (np.float64(2), np.float32(2)):  # a NumPy scalar on either side
    print(type(scale).__name__, weight * scale, scale * weight)
    #> float64 tensor([2., 2.], grad_fn=<MulBackward0>) tensor([2., 2.], grad_fn=<MulBackward0>)
    #> float32 tensor([2., 2.], grad_fn=<MulBackward0>) tensor([2., 2.], grad_fn=<MulBackward0>)
log_prob = -0.5 * np.log(2 * np.pi) - 0.5 * weight  # NumPy float64 minus a Parameter
print(type(log_prob).__name__, log_prob.dtype, log_prob)
#> Tensor torch.float32 tensor([-1.4189, -1.4189], grad_fn=<RsubBackward1>)

# An ndarray (even 0-dim) on either side fails; so does a NumPy function.
for name, op in [
    ("np.ones(2) * weight", lambda: np.ones(2) * weight),
    ("np.array(2.0) * weight", lambda: np.array(2.0) * weight),
    ("weight * np.ones(2)", lambda: weight * np.ones(2)),
    ("np.exp(weight)", lambda: np.exp(weight)),
]:
    try:
        op()
    except (TypeError, RuntimeError) as err:
        print(f"{name}: {type(err).__name__}: {err}")
        """
        np.ones(2) * weight: TypeError: unsupported operand type(s) for *: 'numpy.ndarray' and 'Parameter'
        np.array(2.0) * weight: TypeError: unsupported operand type(s) for *: 'numpy.ndarray' and 'Parameter'
        weight * np.ones(2): RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.
        np.exp(weight): RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.
        """

# The fix: a Python float (float(), math.log) or a tensor, and torch's functions.
for constant in (float(np.log(2 * np.pi)), math.log(2 * math.pi)):
    print(type(constant).__name__, -0.5 * constant - 0.5 * weight)
    #> float tensor([-1.4189, -1.4189], grad_fn=<RsubBackward1>)
    #> float tensor([-1.4189, -1.4189], grad_fn=<RsubBackward1>)
print(torch.as_tensor(np.ones(2), dtype=torch.float32) * weight, torch.exp(weight))
#> tensor([1., 1.], grad_fn=<MulBackward0>) tensor([2.7183, 2.7183], grad_fn=<ExpBackward0>)
# --8<-- [end:numpy_scalar_left]

# --8<-- [start:cat_mixed_dtypes]
import tensorflow as tf

memory = torch.tensor([[0.5, 1.5]])  # float32
weights = torch.tensor([[1, 2]])  # int64 (Long)
print(torch.cat([memory, weights]).dtype, torch.stack([memory, weights]).dtype)  # promoted
#> torch.float32 torch.float32
print(torch.cat([memory.double(), weights.int()]).dtype)  # the usual rule: float64 wins
#> torch.float64
try:
    torch.cat([memory, weights], out=torch.empty(0, dtype=torch.long))  # no room for floats
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: torch.cat(): input types can't be cast to the desired output type Long
print(np.concatenate([memory.numpy(), weights.numpy()]).dtype)  # NumPy promotes too
#> float64
try:
    tf.concat([tf.constant([[0.5, 1.5]]), tf.constant([[1, 2]])], axis=0)  # TensorFlow does not
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0][:60]}")
    #> InvalidArgumentError: cannot compute ConcatV2 as input #1(zero-based) was expected

# The fix that every release accepts: convert the integer tensor yourself.
print(torch.cat([memory, weights.float()]))
"""
tensor([[0.5000, 1.5000],
        [1.0000, 2.0000]])
"""
# --8<-- [end:cat_mixed_dtypes]

# --8<-- [start:uint8_comparison]
pixels = torch.tensor([0, 255], dtype=torch.uint8)
print(pixels == 256, pixels < 256)  # 256 is taken as a uint8, where it becomes 0
#> tensor([ True, False]) tensor([False, False])
print(torch.result_type(pixels, 256), torch.tensor(256).to(torch.uint8))
#> torch.uint8 tensor(0, dtype=torch.uint8)
print(pixels < torch.tensor(256))  # a 0-dim int64 tensor is taken as uint8 too
#> tensor([False, False])
print(np.array([0, 255], dtype=np.uint8) == 256, np.array([0, 255], dtype=np.uint8) < 256)  # NumPy: true values
#> [False False] [ True  True]
print(pixels.to(torch.int16) == 256, pixels.to(torch.int16) < 256)  # the fix: a wider dtype first
#> tensor([False, False]) tensor([True, True])
# --8<-- [end:uint8_comparison]

# --8<-- [start:division]
print(torch.tensor([7, -7]) / 2)  # true division: always floating point
#> tensor([ 3.5000, -3.5000])
print(torch.tensor([7, -7]) // 2)  # floor division: rounds towards minus infinity
#> tensor([ 3, -4])
print(torch.floor_divide(torch.tensor([7, -7]), 2))  # the same as //
#> tensor([ 3, -4])
print(torch.div(torch.tensor([7, -7]), 2, rounding_mode="trunc"))  # C-style
#> tensor([ 3, -3])
print(np.array([7, -7]) / 2, np.array([7, -7]) // 2)
#> [ 3.5 -3.5] [ 3 -4]
# --8<-- [end:division]

# --8<-- [start:tensorflow]
import tensorflow as tf

print(tf.constant([7, -7]) / 2)  # int32 true division gives float64
#> tf.Tensor([ 3.5 -3.5], shape=(2,), dtype=float64)
print(tf.constant([7, -7]) // 2)
#> tf.Tensor([ 3 -4], shape=(2,), dtype=int32)

try:
    tf.constant([1.0]) + tf.constant([1.0], dtype=tf.float64)  # no implicit promotion
except tf.errors.InvalidArgumentError as err:
    print(type(err).__name__, err.message.split(" [")[0])
    """
    InvalidArgumentError cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a double tensor
    """
doubles = tf.constant([1.0], dtype=tf.float64)
print(tf.constant([1.0]) + tf.cast(doubles, tf.float32))  # convert one of them first
#> tf.Tensor([2.], shape=(1,), dtype=float32)

# A NumPy array passed as it is takes the other operand's dtype (float64 becomes float32),
print(tf.matmul(tf.ones((1, 2)), np.ones((2, 2))).dtype)
#> <dtype: 'float32'>
# but a tensor made from it keeps float64, and a graph refuses to mix the two.
mapping = tf.constant(np.ones((2, 2)))


@tf.function
def project(x):
    return tf.matmul(x, mapping)


try:
    project(tf.ones((1, 2)))
except TypeError as err:
    print(str(err).strip().splitlines()[-1].strip())  # the last line, without the file
    """
    TypeError: Input 'b' of 'MatMul' Op has type float64 that does not match type float32 of argument 'a'.
    """
print(tf.matmul(tf.ones((1, 2)), tf.cast(mapping, tf.float32)).dtype)  # the fix: tf.cast
#> <dtype: 'float32'>
# --8<-- [end:tensorflow]

# --8<-- [start:tensorflow_scalars]
print(tf.constant([1.0]) + np.float64(1.0))  # a scalar is converted to the tensor's dtype
#> tf.Tensor([2.], shape=(1,), dtype=float32)
try:
    tf.constant([1]) + 1.5  # a Python float and an integer tensor: refused
except tf.errors.InvalidArgumentError as err:
    print(type(err).__name__)
    #> InvalidArgumentError
print(tf.constant([1]) + np.float64(1.5))  # a NumPy scalar is cast anyway: 1.5 becomes 1
#> tf.Tensor([2], shape=(1,), dtype=int32)
try:
    tf.constant([1]) + 2.0  # refused too, though 2.0 has no fraction to lose
except tf.errors.InvalidArgumentError as err:
    print(type(err).__name__)
    #> InvalidArgumentError
# --8<-- [end:tensorflow_scalars]

# --8<-- [start:tensorflow_wrap]
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(tf.constant([1], dtype=tf.uint8) + 300)  # 300 wraps around to 44
    #> tf.Tensor([45], shape=(1,), dtype=uint8)
    print(tf.constant([1], dtype=tf.int8) + 1000)  # 1000 wraps around to -24
    #> tf.Tensor([-23], shape=(1,), dtype=int8)
    print(tf.constant([1]) + 2**40)  # int32: 2**40 wraps around to 0
    #> tf.Tensor([1], shape=(1,), dtype=int32)
    print(tf.constant([1], dtype=tf.uint8) + (-1))  # -1 becomes 255, and 1 + 255 wraps to 0
    #> tf.Tensor([0], shape=(1,), dtype=uint8)
    print(tf.constant([1.0]) + 1e40)  # too large for float32: inf
    #> tf.Tensor([inf], shape=(1,), dtype=float32)
print([str(warning.message) for warning in caught])  # and no warning for any of them
#> []
try:
    tf.constant([1]) + 2**63  # beyond int64, the widest integer: refused
except ValueError as err:
    print(type(err).__name__, err)
    #> ValueError Can't convert Python sequence with out-of-range integer to Tensor.
print(tf.constant([1], dtype=tf.uint64) + 2**63)  # a uint64 tensor takes it
#> tf.Tensor([9223372036854775809], shape=(1,), dtype=uint64)
# --8<-- [end:tensorflow_wrap]
