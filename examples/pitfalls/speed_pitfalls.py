"""Slow code: calls that give the right result but run much more slowly than expected.

Each section prints what makes the slow form slow (the operations it runs, the copies it
makes, the traces it builds, the threads it uses), never a timing, then the fast form's
result, equal to the slow one.

Run with `python examples/pitfalls/speed_pitfalls.py`.
"""

import os

# The profiler used below logs its own start and stop lines; this keeps them off the terminal.
os.environ.setdefault("KINETO_LOG_LEVEL", "9")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

# --8<-- [start:numpy_einsum]
import sys

import numpy as np


def einsum_kernels(*args, **kwargs):
    """The routines of NumPy's einsum that a call of np.einsum runs, in order."""
    seen = []

    def watch(frame, event, arg):
        name = arg.__name__ if event == "c_call" else frame.f_code.co_name
        if event in ("call", "c_call") and name in {"c_einsum", "bmm_einsum", "tensordot"}:
            seen.append(name)

    sys.setprofile(watch)
    result = np.einsum(*args, **kwargs)
    sys.setprofile(None)
    return seen, result


rng = np.random.default_rng(0)
a = rng.standard_normal((100, 30, 30))
b = rng.standard_normal((100, 30, 30))

# The default, optimize=False: einsum's own C loop, not the matrix product of matmul.
kernels, slow = einsum_kernels("qij,qjk->qik", a, b)
print(kernels[0])
#> c_einsum
print(np.einsum_path("qij,qjk->qik", a, b, optimize=True)[0])  # one contraction of both
#> ['einsum_path', (0, 1)]

# optimize=True: what runs that one contraction depends on the NumPy release.
kernels, optimized = einsum_kernels("qij,qjk->qik", a, b, optimize=True)
print(kernels[0])
#> bmm_einsum

# matmul gives the same numbers.
fast = np.matmul(a, b)
print(fast.shape, np.allclose(slow, fast), np.allclose(optimized, fast))
#> (100, 30, 30) True True
# --8<-- [end:numpy_einsum]

# --8<-- [start:numpy_einsum_small]
import time


def python_calls(*args, **kwargs):
    """The Python functions one np.einsum call runs."""
    calls = []

    def watch(frame, event, arg):
        if event == "call":
            calls.append(frame.f_code.co_name)

    sys.setprofile(watch)
    np.einsum(*args, **kwargs)
    sys.setprofile(None)
    return calls


def best_times(forms, rounds=5, number=200):
    """Each form's best time over the rounds; every round times every form once, in turn."""
    best = [float("inf")] * len(forms)
    for _ in range(rounds):
        for i, form in enumerate(forms):
            start = time.perf_counter()
            for _ in range(number):
                form()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


rng = np.random.default_rng(0)
b, t, p = rng.random((5, 2)), rng.random((5, 5, 2)), rng.random((2, 5))  # the report's tiny arrays
spec = "ij,ixy,ji->xy"  # three operands
path = np.einsum_path(spec, b, t, p, optimize=True)[0]  # computed once
default, searched = python_calls(spec, b, t, p), python_calls(spec, b, t, p, optimize=True)
print("path search by default:", "einsum_path" in default, "| with optimize=True:", "einsum_path" in searched)
#> path search by default: False | with optimize=True: True
print("optimize=True runs more than 10x as many Python calls:", len(searched) > 10 * len(default))
#> optimize=True runs more than 10x as many Python calls: True
plain, optimized, given_path = best_times(
    [
        lambda: np.einsum(spec, b, t, p),  # the default, optimize=False: one C loop
        lambda: np.einsum(spec, b, t, p, optimize=True),
        lambda: np.einsum(spec, b, t, p, optimize=path),
    ]
)
print("optimize=True more than 10x slower than the default:", optimized > 10 * plain)
#> optimize=True more than 10x slower than the default: True
print("a precomputed path still more than 5x slower:", given_path > 5 * plain)
#> a precomputed path still more than 5x slower: True
print(np.allclose(np.einsum(spec, b, t, p), np.einsum(spec, b, t, p, optimize=path)))
#> True
# --8<-- [end:numpy_einsum_small]

# --8<-- [start:full_contraction]
import timeit


def best(fn, number):
    """The best of five timings of fn, in seconds per call."""
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


rng = np.random.default_rng(0)
A, B = rng.random((10, 10)), rng.random((10, 10))
# The sum of A * B, element by element, six ways: the same value.
forms = [np.tensordot(A, B), np.sum(A * B), np.einsum("ij,ij->", A, B), np.inner(A.ravel(), B.ravel())]
forms += [np.vdot(A, B), np.trace(A.T @ B)]
print(np.allclose(forms, forms[0]))
#> True
# Small arrays: tensordot's reshapes and transposes cost more than the sum itself.
tensordot_time = best(lambda: np.tensordot(A, B), 200)
print("tensordot slower than np.sum(A * B):", tensordot_time > best(lambda: np.sum(A * B), 200))
#> tensordot slower than np.sum(A * B): True
ratio = tensordot_time / best(lambda: np.inner(A.ravel(), B.ravel()), 200)
print("tensordot more than 3x slower than inner:", ratio > 3)
#> tensordot more than 3x slower than inner: True
# trace(A.T @ B) computes the whole n x n product to keep its diagonal:
n = 300
print("multiplications:", n**3, "against", n**2)  # A.T @ B, then what the sum needs
#> multiplications: 27000000 against 90000
# --8<-- [end:full_contraction]

# --8<-- [start:numpy_matmul_dtypes]
import timeit

import numpy as np


def best_times(*fns, rounds=7):
    """The best timing of each fn, in seconds, taken in turns: a pause of the machine then
    slows every fn in one round, never one fn in all of its rounds."""
    times = [[timeit.timeit(fn, number=1) for fn in fns] for _ in range(rounds)]
    return [min(column) for column in zip(*times, strict=True)]


rng = np.random.default_rng(0)
a, b = rng.integers(0, 100, (60, 60)), rng.integers(0, 100, (60, 60))  # int64, small to run fast
a64, b64 = a.astype(np.float64), b.astype(np.float64)
a32, b32 = (a64 / 100).astype(np.float32), (b64 / 100).astype(np.float32)
a16, b16 = a32.astype(np.float16), b32.astype(np.float16)
t_int, t_f64, t_round_trip, t_f16, t_f32, t_f16_via_f32 = best_times(
    lambda: a @ b,
    lambda: a64 @ b64,
    lambda: (a.astype(np.float64) @ b.astype(np.float64)).astype(np.int64),
    lambda: a16 @ b16,
    lambda: a32 @ b32,
    lambda: (a16.astype(np.float32) @ b16.astype(np.float32)).astype(np.float16),
)
print("int64 @ more than 4x slower than float64 @:", t_int > 4 * t_f64)
#> int64 @ more than 4x slower than float64 @: True
print("int64 @ more than 3x slower than casting to float64 and back:", t_int > 3 * t_round_trip)
#> int64 @ more than 3x slower than casting to float64 and back: True
print("float16 @ more than 20x slower than float32 @:", t_f16 > 20 * t_f32)
#> float16 @ more than 20x slower than float32 @: True
print("float16 @ more than 8x slower than computing in float32:", t_f16 > 8 * t_f16_via_f32)
#> float16 @ more than 8x slower than computing in float32: True
# The round trip through float64 is exact while every sum stays below 2**53:
print(np.array_equal(a @ b, (a64 @ b64).astype(np.int64)))
#> True
big = np.array([[2**31 + 1]])  # its square, 2**62 + 2**32 + 1, needs 63 bits
print(big @ big, (big.astype(np.float64) @ big.astype(np.float64)).astype(np.int64))
#> [[4611686022722355201]] [[4611686022722355200]]
# float16 through float32: the same result to float16's precision.
print(np.allclose(a16 @ b16, (a16.astype(np.float32) @ b16.astype(np.float32)).astype(np.float16), rtol=1e-2))
#> True
# --8<-- [end:numpy_matmul_dtypes]

# --8<-- [start:numpy_matmul_strided]
c = a64 + 1j * b64  # complex128
print(c.real.dtype, c.real.flags["C_CONTIGUOUS"], c.real.strides)  # every other float64
#> float64 False (960, 16)
t_view, t_copy = best_times(lambda: c.real @ b64, lambda: np.ascontiguousarray(c.real) @ b64)
print("c.real @ b more than 3x slower than a contiguous copy @ b:", t_view > 3 * t_copy)
#> c.real @ b more than 3x slower than a contiguous copy @ b: False
print(np.array_equal(c.real @ b64, np.ascontiguousarray(c.real) @ b64))
#> True
# --8<-- [end:numpy_matmul_strided]

# --8<-- [start:torch_einsum]
import torch
from torch.profiler import ProfilerActivity, profile


def ops(fn, names):
    """The operations among `names` that fn() runs, each with its input shapes."""
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        fn()
    return [(e.name, e.input_shapes[:2]) for e in prof.events() if e.name in names]


torch.manual_seed(0)
x = torch.randn(1000, 64)
y = torch.randn(1000, 64)

# einsum turns a row-wise dot product into 1000 matrix products of 1 x 64 by 64 x 1.
print(ops(lambda: torch.einsum("Nc,Nc->N", x, y), {"aten::bmm", "aten::mul", "aten::sum"}))
#> [('aten::bmm', [[1000, 1, 64], [1000, 64, 1]])]

# Multiply, then sum: two elementwise operations, the same numbers.
print(ops(lambda: (x * y).sum(-1), {"aten::bmm", "aten::mul", "aten::sum"}))
#> [('aten::mul', [[1000, 64], [1000, 64]]), ('aten::sum', [[1000, 64], []])]
print(torch.allclose(torch.einsum("Nc,Nc->N", x, y), (x * y).sum(-1), atol=1e-5))
#> True

# A 2018 report's contraction: 2000 products of 1 x 2 by 2 x 2.
import numpy as np

a = torch.randn(2, 2000)
b = torch.randn(2, 2, 2000)
print(ops(lambda: torch.einsum("ac,abc->cb", a, b), {"aten::bmm", "aten::mul", "aten::sum"}))
#> [('aten::bmm', [[2000, 1, 2], [2000, 2, 2]])]
reference = torch.from_numpy(np.einsum("ac,abc->cb", a.numpy(), b.numpy()))
print(torch.allclose((a[:, None, :] * b).sum(0).T, reference, atol=1e-5))
#> True
# --8<-- [end:torch_einsum]

# --8<-- [start:broadcast_matmul]
# ops() is the helper defined in the section above.
torch.manual_seed(0)
A = torch.randn(3, 64, 64)  # 3 matrices
B = torch.randn(4096, 3, 64, 1)  # 4096 x 3 vectors

names = {"aten::clone", "aten::bmm"}
# matmul broadcasts A to (4096, 3, 64, 64), copies it, then runs 12288 products of a
# 64 x 64 matrix by one vector.
print(ops(lambda: A @ B, names))
#> [('aten::clone', [[4096, 3, 64, 64], []]), ('aten::bmm', [[12288, 64, 64], [12288, 64, 1]])]
print(4096 * 3 * 64 * 64 * A.element_size() / 2**20, "MiB copied")
#> 192.0 MiB copied

# einsum keeps the 3 matrices and multiplies each by all 4096 vectors at once.
print(ops(lambda: torch.einsum("cij,ncjk->ncik", A, B), names))
#> [('aten::bmm', [[3, 64, 64], [3, 64, 4096]])]
print(torch.allclose(A @ B, torch.einsum("cij,ncjk->ncik", A, B), atol=1e-4))
#> True
# --8<-- [end:broadcast_matmul]

# --8<-- [start:repeat_interleave]
# ops() is the helper defined above.
t = torch.arange(10000.0)
names = {"aten::expand", "aten::clone", "aten::index_select"}

# An int count: expand, then one copy, exactly what expand().flatten() runs.
print(ops(lambda: t.repeat_interleave(100), names))
#> [('aten::expand', [[10000, 1], []]), ('aten::clone', [[10000, 100], []])]
print(ops(lambda: t[:, None].expand(-1, 100).flatten(), names))
#> [('aten::expand', [[10000, 1], []]), ('aten::clone', [[10000, 100], []])]

# A count given as a tensor: an index of 1,000,000 positions is built, then gathered from.
print(ops(lambda: t.repeat_interleave(torch.tensor(100)), names))
"""
[('aten::expand', [[1], []]), ('aten::clone', [[10000], []]), ('aten::clone', [[10000], []]), ('aten::index_select', [[10000], []])]
"""
print(torch.equal(t.repeat_interleave(torch.tensor(100)), t[:, None].expand(-1, 100).flatten()))
#> True
# --8<-- [end:repeat_interleave]

# --8<-- [start:numpy_append_loop]
import numpy as np
import torch

n = 1000
labels = np.empty(0)
copied = 0  # elements written into new arrays
for value in range(n):
    grown = np.append(labels, value)  # a new array each time, the old one copied into it
    copied += 0 if np.shares_memory(grown, labels) else grown.size
    labels = grown
print(n, "np.append calls copied", copied, "elements")
#> 1000 np.append calls copied 500500 elements

rows = []
for value in range(n):
    rows.append(value)  # a Python list grows in place
from_list = np.array(rows, dtype=labels.dtype)  # one conversion at the end: n elements
preallocated = np.empty(n)  # or, when n is known, fill an array made once
for i in range(n):
    preallocated[i] = i
print(np.array_equal(from_list, labels), np.array_equal(preallocated, labels))
#> True True

# torch.cat in a loop copies the same way: the result is new memory each time.
t = torch.zeros(3)
print(torch.cat([t, torch.ones(1)]).data_ptr() == t.data_ptr())
#> False
# --8<-- [end:numpy_append_loop]

# --8<-- [start:torch_cat_loop]
import torch

pieces = [torch.full((10, 4), float(k)) for k in range(100)]  # 100 blocks of 10 rows

grown = torch.empty(0, 4)
copied = 0  # elements written by torch.cat
for piece in pieces:
    grown = torch.cat([grown, piece])  # a new tensor each time: the old rows copied again
    copied += grown.numel()
print(len(pieces), "torch.cat calls copied", copied, "elements for a result of", grown.numel())
#> 100 torch.cat calls copied 202000 elements for a result of 4000

# Fix 1: preallocate once with torch.empty and fill slices in place.
filled = torch.empty(1000, 4)
start = filled.data_ptr()
for k, piece in enumerate(pieces):
    filled[10 * k : 10 * (k + 1)] = piece  # writes 40 elements, no new tensor
print(filled.data_ptr() == start, torch.equal(filled, grown))
#> True True

# Fix 2: collect the pieces in a list and concatenate once (4000 elements copied).
print(torch.equal(torch.cat(pieces), grown), torch.equal(torch.stack(pieces).reshape(-1, 4), grown))
#> True True
# --8<-- [end:torch_cat_loop]

# --8<-- [start:numpy_vectorize]
import numpy as np
import torch

calls = 0


def sigmoid_double(x):
    global calls
    calls += 1
    return 1.0 / (1.0 + np.exp(-x))


z = np.random.default_rng(0).standard_normal(10_000)
looped = np.vectorize(sigmoid_double)(z)
print("np.vectorize calls:", calls)  # once per element, plus once to find the output dtype
#> np.vectorize calls: 10001
calls = 0
direct = sigmoid_double(z)  # the same expression on the whole array
print("direct calls:", calls, "same result:", np.allclose(looped, direct))
#> direct calls: 1 same result: True

# The other per-element (or per-row) loops in Python: each one calls f many times.
calls = 0
np.apply_along_axis(sigmoid_double, 1, z.reshape(100, 100))  # once per row
print("np.apply_along_axis calls:", calls)
#> np.apply_along_axis calls: 100
calls = 0
torch.from_numpy(z[:100].copy()).apply_(lambda v: float(sigmoid_double(v)))  # CPU only
print("torch Tensor.apply_ calls:", calls)
#> torch Tensor.apply_ calls: 100

t_vectorize, t_direct = best_times(lambda: np.vectorize(sigmoid_double)(z), lambda: sigmoid_double(z))
print("np.vectorize more than 10x slower than the direct call:", t_vectorize > 10 * t_direct)
#> np.vectorize more than 10x slower than the direct call: True

# A branch written for one number: np.where keeps it on the whole array.
relu_like = np.vectorize(lambda v: v if v > 0 else 0.0)(z)
print(np.array_equal(relu_like, np.where(z > 0, z, 0.0)))
#> True
# --8<-- [end:numpy_vectorize]

# --8<-- [start:median_dim]
import timeit

torch.manual_seed(0)
x = torch.rand(11, 25, 400)  # the report's 11 x 1000 x 4000, scaled down
threads = torch.get_num_threads()
torch.set_num_threads(1)  # one thread, as the report's Timer used
median_time = min(timeit.repeat(lambda: torch.median(x, dim=0), number=2, repeat=5))
sort_time = min(timeit.repeat(lambda: torch.sort(x, dim=0).values[5], number=2, repeat=5))
torch.set_num_threads(threads)
print("median more than 10x slower than sort:", median_time > 10 * sort_time)
#> median more than 10x slower than sort: False
# The same values three ways: the 6th smallest of 11 along dim 0.
values = torch.median(x, dim=0).values
print(torch.equal(values, torch.sort(x, dim=0).values[5]), torch.equal(values, torch.kthvalue(x, 6, dim=0).values))
#> True True
# --8<-- [end:median_dim]

# --8<-- [start:small_calls]
# ops() is the helper defined above.
torch.manual_seed(0)
M = torch.randn(16, 16)
vectors = torch.randn(1000, 16)

# One call per vector: 1000 operations, each paying the fixed cost of a call.
loop = ops(lambda: [M @ v for v in vectors], {"aten::mv", "aten::mm"})
print(len(loop), loop[0])
#> 1000 ('aten::mv', [[16, 16], [16]])

# All vectors in one call: one operation.
print(ops(lambda: vectors @ M.T, {"aten::mv", "aten::mm"}))
#> [('aten::mm', [[1000, 16], [16, 16]])]
print(torch.allclose(torch.stack([M @ v for v in vectors]), vectors @ M.T, atol=1e-5))
#> True
# --8<-- [end:small_calls]

# --8<-- [start:small_overhead]
import timeit


def per_call(first, second, number=200):
    """How many times as long a call of first takes as one of second: each timed in turns, in
    fifteen short rounds, each's best (a busy machine then pauses some rounds of a function,
    rarely all: five long rounds once measured a 1.4x ratio as 6x on a loaded machine)."""
    rounds = [[timeit.timeit(fn, number=number) for fn in (first, second)] for _ in range(15)]
    return min(r[0] for r in rounds) / min(r[1] for r in rounds)


a = np.ones(16, dtype=np.float32)
t = torch.ones(16)
# An addition of 16 numbers: the time is the fixed cost of the call.
ratio = per_call(lambda: t + t, lambda: a + a)
print("t + t more than 1.5x slower than a + a:", ratio > 1.5)
#> t + t more than 1.5x slower than a + a: True

# nonzero on 512 elements: the same indices as NumPy's, in about the same time.
mask = np.zeros(512)
mask[::7] = 1
as_tensor = torch.from_numpy(mask)
print(np.array_equal(torch.nonzero(as_tensor).numpy()[:, 0], np.nonzero(mask)[0]))
#> True
ratio = per_call(lambda: torch.nonzero(as_tensor), lambda: np.nonzero(mask))
print("torch.nonzero within 3x of np.nonzero:", 1 / 3 < ratio < 3)
#> torch.nonzero within 3x of np.nonzero: True

# Many small additions: one call for all of them pays the fixed cost once.
rows = torch.ones(1000, 16)
ratio = per_call(lambda: [r + r for r in rows], lambda: rows + rows, 1)
print("1000 calls more than 20x slower than one:", ratio > 20)
#> 1000 calls more than 20x slower than one: True
print(torch.equal(torch.stack([r + r for r in rows]), rows + rows))
#> True
# --8<-- [end:small_overhead]

# --8<-- [start:element_loop]
import tensorflow as tf

t = torch.arange(500.0).reshape(20, 25)
a = t.numpy()  # shares t's memory: no copy
print(t[2, 3], t[2, 3].shape)  # each index makes a new 0-dim tensor
#> tensor(53.) torch.Size([])


def loop_tensor():
    return sum(t[i, j] for i in range(20) for j in range(25))  # 500 tensors, 500 additions


def loop_item():
    return sum(t[i, j].item() for i in range(20) for j in range(25))  # still 500 tensors


def loop_numpy():
    return sum(a[i, j] for i in range(20) for j in range(25))


def loop_list():
    rows = t.tolist()  # one conversion into Python floats
    return sum(rows[i][j] for i in range(20) for j in range(25))


rounds = [[timeit.timeit(fn, number=1) for fn in (loop_tensor, loop_item, loop_numpy, loop_list)] for _ in range(5)]
tensor_time, item_time, numpy_time, list_time = (min(column) for column in zip(*rounds, strict=True))
print("t[i, j] loop more than 4x slower than a[i, j] on the NumPy array:", tensor_time > 4 * numpy_time)
#> t[i, j] loop more than 4x slower than a[i, j] on the NumPy array: True
print("t[i, j].item() loop more than 5x slower than a list from t.tolist():", item_time > 5 * list_time)
#> t[i, j].item() loop more than 5x slower than a list from t.tolist(): True
print(loop_tensor().item(), loop_item(), float(loop_numpy()), loop_list(), t.sum().item())
#> 124750.0 124750.0 124750.0 124750.0 124750.0

# TensorFlow: indexing an eager tensor also makes a new tensor per element.
tf_t = tf.constant(a)
print(type(tf_t[2, 3]).__name__, tf_t[2, 3].shape, tf_t.numpy()[2, 3])
#> EagerTensor () 53.0
# --8<-- [end:element_loop]

# --8<-- [start:numpy_element_loop]
a = np.arange(4000, dtype=np.float64)
values = a.tolist()  # one conversion: a list of Python floats
print(type(a[5]).__name__, type(values[5]).__name__)
#> float64 float
print(a[5] is a[5], values[5] is values[5])  # each a[5] builds a new NumPy scalar object
#> False True


def loop_array():
    total = 0.0
    for v in a:  # a new np.float64 per element, and NumPy scalar arithmetic
        total += v
    return total


def loop_list():
    total = 0.0
    for v in values:  # the floats already exist: nothing is built
        total += v
    return total


def loop_tolist():
    total = 0.0
    for v in a.tolist():  # the conversion counted in
        total += v
    return total


print("loop over the array more than 2x slower than over the list:", per_call(loop_array, loop_list, 5) > 2)
#> loop over the array more than 2x slower than over the list: True
print("a.tolist() and its loop faster than the loop over the array:", per_call(loop_tolist, loop_array, 5) < 1)
#> a.tolist() and its loop faster than the loop over the array: True
print("a.sum() more than 5x faster than the loop over the list:", per_call(loop_list, a.sum, 5) > 5)
#> a.sum() more than 5x faster than the loop over the list: True
print(type(loop_array()).__name__, loop_array() == loop_list() == loop_tolist() == a.sum())
#> float64 True
# --8<-- [end:numpy_element_loop]

# --8<-- [start:threads]
import threading

# By default torch uses at most one thread per CPU core (its own count, shown in a relation).
print(torch.get_num_threads() <= os.cpu_count())
#> True

# set_num_threads sets the count for the whole process: every Python thread sees it.
default = torch.get_num_threads()
torch.set_num_threads(2)
seen = []
worker = threading.Thread(target=lambda: seen.append(torch.get_num_threads()))
worker.start()
worker.join()
print(torch.get_num_threads(), seen)
#> 2 [2]
torch.set_num_threads(default)  # back to the default for the rest of the program

# The parallel backend this build of torch was compiled with.
info = torch.__config__.parallel_info().splitlines()
print([line for line in info if line.startswith("ATen parallel backend")])
#> ['ATen parallel backend: OpenMP']
# --8<-- [end:threads]

# --8<-- [start:affinity]
# Linux: restrict this process to one of its cores, as taskset or sched_setaffinity does.
allowed = os.sched_getaffinity(0)
threads = torch.get_num_threads()
os.sched_setaffinity(0, {min(allowed)})
print(len(os.sched_getaffinity(0)), torch.get_num_threads() == threads)
#> 1 True
# The fix: one torch thread per core the process may use.
torch.set_num_threads(len(os.sched_getaffinity(0)))
print(torch.get_num_threads())
#> 1
os.sched_setaffinity(0, allowed)  # back to all cores for the rest of the program
torch.set_num_threads(threads)
# --8<-- [end:affinity]

# --8<-- [start:timer_threads]
from torch.utils import benchmark

before = torch.get_num_threads()
inside = []
timer = benchmark.Timer("f()", globals={"f": lambda: inside.append(torch.get_num_threads())})
timer.timeit(3)
# Timer measures with one thread by default, and here sets the count back afterwards.
print(sorted(set(inside)), torch.get_num_threads() == before)
#> [1] True

# num_threads= measures with the count the session uses.
inside.clear()
timer = benchmark.Timer(
    "f()",
    globals={"f": lambda: inside.append(torch.get_num_threads())},
    num_threads=torch.get_num_threads(),
)
timer.timeit(3)
print(sorted(set(inside)) == [before], torch.get_num_threads() == before)
#> True True
# --8<-- [end:timer_threads]

# --8<-- [start:predict_retracing]
import keras
import numpy as np
import tensorflow as tf

traces = []


class Double(keras.layers.Layer):
    def call(self, inputs):
        # Python code in call runs once per trace (graph) or once per eager call.
        traces.append("eager" if tf.executing_eagerly() else "trace")
        return inputs * 2.0


model = keras.Sequential([keras.Input((3,)), Double()])
batches = [np.ones((n, 3), "float32") for n in range(1, 7)]  # six batch sizes
traces.clear()

# predict builds a tf.function and traces it for new input shapes.
for batch in batches:
    predicted = model.predict(batch, verbose=0)
print(traces)
#> ['trace', 'trace']

# model(x) runs the layers directly: no tf.function, no trace.
traces.clear()
for batch in batches:
    called = model(batch)
print(traces)
#> ['eager', 'eager', 'eager', 'eager', 'eager', 'eager']

# A tf.function with a fixed input_signature: one trace for every batch size.
serve = tf.function(model, input_signature=[tf.TensorSpec((None, 3), tf.float32)])
traces.clear()
for batch in batches:
    served = serve(batch)
print(traces, np.array_equal(predicted, called.numpy()), np.array_equal(predicted, served.numpy()))
#> ['trace'] True True
# --8<-- [end:predict_retracing]

# --8<-- [start:tf_function_traces_kept]
import gc
import weakref

import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)
mlp = keras.Sequential(
    [
        keras.Input((32,)),
        keras.layers.Dense(64, activation="relu"),
        keras.layers.Dropout(0.2),
        keras.layers.LayerNormalization(),
        keras.layers.Dense(1, activation="sigmoid"),
    ]
)


@tf.function
def inference(model, inputs):  # the reader's prediction function
    return tf.stop_gradient(model(inputs, training=False))


for rows in range(1, 9):  # blocks of 1 to 8 rows: a new input shape at each call
    inference(mlp, np.ones((rows, 32), "float32"))
print("traces:", inference.experimental_get_tracing_count())
#> traces: 8
one_trace = weakref.ref(inference.get_concrete_function(mlp, tf.TensorSpec((3, 32), tf.float32)))
keras.backend.clear_session()
gc.collect()
print("after clear_session() and gc.collect(), the trace is alive:", one_trace() is not None)
#> after clear_session() and gc.collect(), the trace is alive: True
for rows in range(1, 9):
    inference(mlp, np.ones((rows, 32), "float32"))
print("traces after the same shapes again:", inference.experimental_get_tracing_count())
#> traces after the same shapes again: 8
del inference
gc.collect()
print("after del inference, the trace is alive:", one_trace() is not None)
#> after del inference, the trace is alive: False

# The fix: one tf.function, created once, with the batch dimension left open.
@tf.function(input_signature=[tf.TensorSpec((None, 32), tf.float32)])
def serve_mlp(inputs):
    return mlp(inputs, training=False)


for rows in range(1, 9):
    served = serve_mlp(np.ones((rows, 32), "float32"))
print("input_signature, traces:", serve_mlp.experimental_get_tracing_count())
#> input_signature, traces: 1
same = np.allclose(served, mlp(np.ones((8, 32), "float32"), training=False))
print("same predictions as mlp(x, training=False):", same)
#> same predictions as mlp(x, training=False): True
# --8<-- [end:tf_function_traces_kept]

# --8<-- [start:predict_timing]
import time

import keras
import numpy as np
import tensorflow as tf

traces = []
model = keras.Sequential([keras.Input((3,)), Double(), keras.layers.Dense(2)])
sample = np.ones((1, 3), "float32")  # one small input, the same shape at every call


def loop_seconds(predict_once, calls: int = 5) -> float:
    predict_once()  # warm-up: the first call traces
    start = time.perf_counter()
    for _ in range(calls):
        predict_once()
    return time.perf_counter() - start


traces.clear()
predict_s = loop_seconds(lambda: model.predict(sample, verbose=0))
print("model.predict, same shape:", traces)  # one trace: this is not retracing
#> model.predict, same shape: ['trace']
call_s = loop_seconds(lambda: model(sample, training=False))
print("model.predict slower than model(x, training=False) by more than 3x:", predict_s > 3 * call_s)
#> model.predict slower than model(x, training=False) by more than 3x: True
served = tf.function(model)  # model(x) in a graph: traced once for this shape
served_s = loop_seconds(lambda: served(sample, training=False))
print("model.predict slower than a tf.function of the model by more than 3x:", predict_s > 3 * served_s)
#> model.predict slower than a tf.function of the model by more than 3x: True
same = np.allclose(model.predict(sample, verbose=0), model(sample, training=False))
print("same predictions:", same)
#> same predictions: True
# --8<-- [end:predict_timing]

# --8<-- [start:model_call_vs_predict]
import keras
import numpy as np


class CountCalls(keras.layers.Layer):
    """Passes its input on and counts the batches it sees."""

    calls = 0

    def call(self, x):
        self.calls += 1
        return x


counter = CountCalls()
inputs = keras.Input((1,))
model = keras.Model(inputs, keras.layers.BatchNormalization()(counter(inputs)))
model.run_eagerly = True  # Python runs at every batch, so the counter counts them
x = np.array([[1.0], [2.0], [3.0], [4.0], [5.0]], dtype="float32")

counter.calls = 0
direct = model(x)
print(type(direct).__name__, "batches:", counter.calls)
#> EagerTensor batches: 1
counter.calls = 0
predicted = model.predict(x, batch_size=2, verbose=0)
print(type(predicted).__name__, "batches:", counter.calls)
#> ndarray batches: 3
# Both run in inference mode: BatchNormalization uses its moving mean 0 and variance 1.
print(np.round(direct.numpy()[:, 0], 3), np.round(predicted[:, 0], 3))
#> [1.    1.999 2.999 3.998 4.998] [1.    1.999 2.999 3.998 4.998]
# training=True normalises with the batch's own statistics and moves the moving mean:
print(np.round(model(x, training=True).numpy()[:, 0], 3))
#> [-1.414 -0.707  0.     0.707  1.414]
print(np.round(model.layers[-1].moving_mean.numpy(), 3), np.round(model(x).numpy()[:, 0], 3))
#> [0.03] [0.965 1.959 2.954 3.948 4.943]
# --8<-- [end:model_call_vs_predict]

# --8<-- [start:model_call_nan]
import keras
import numpy as np


class Classifier(keras.Model):  # a subclassed model: Keras checks no input shape
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(3, activation="softmax")

    def call(self, x):  # standardises each sample over its features, without an epsilon
        centred = x - keras.ops.mean(x, axis=1, keepdims=True)
        return self.dense(centred / keras.ops.std(x, axis=1, keepdims=True))


keras.utils.set_random_seed(0)
model = Classifier()
samples = np.random.default_rng(0).normal(size=(64, 4)).astype("float32")
predicted = model.predict(samples, verbose=0)  # in batches of 32
sample = samples[:1]  # one sample, already a batch of one
print(np.round(predicted[:1], 4))
#> [[0.2528 0.5403 0.2068]]
print(np.round(model(sample[np.newaxis]).numpy(), 4))  # one more axis, as in the report
#> [[[nan nan nan]]]

# Find the difference: the shape each call received, and the shape it returned.
print(sample.shape, sample[np.newaxis].shape, model(sample[np.newaxis]).shape)
#> (1, 4) (1, 1, 4) (1, 1, 3)
# The fix: call the model on the array predict got; one batch or many, the two agree.
print(np.allclose(model(sample), predicted[:1]), np.allclose(model(samples), predicted))
#> True True
# --8<-- [end:model_call_nan]

# --8<-- [start:predict_after_compile]
import timeit

import keras
import numpy as np


def build():
    return keras.Sequential([keras.Input((3,)), Double(), keras.layers.Dense(2)])


model = build()
sample = np.ones((1, 3), "float32")


def seconds_per_call(*functions, calls: int = 5, rounds: int = 15) -> list[float]:
    """Each function's seconds per call, timed in turns: each round times every function once,
    and each keeps its best round (a busy machine then slows all of them, never one alone)."""
    times = [[timeit.timeit(f, number=calls) for f in functions] for _ in range(rounds)]
    return [min(column) / calls for column in zip(*times, strict=True)]


traces.clear()
for _ in range(3):
    model.predict_on_batch(sample)
print("predict_on_batch before compile:", traces)  # traced once, then reused
#> predict_on_batch before compile: ['trace']
model.compile(optimizer="sgd", loss="mse")
print("predict function after compile:", model.predict_function)  # compile dropped it
#> predict function after compile: None
traces.clear()
for _ in range(3):
    model.predict_on_batch(sample)
print("predict_on_batch after compile:", traces)  # one new trace, then reused again
#> predict_on_batch after compile: ['trace']
twin = build()  # the same model, never compiled, for "before"
twin.predict_on_batch(sample)
model(sample, training=False)
after_s, before_s, call_s = seconds_per_call(
    lambda: model.predict_on_batch(sample),
    lambda: twin.predict_on_batch(sample),
    lambda: model(sample, training=False),
)
print("after compile slower than before by more than 5x:", after_s > 5 * before_s)
#> after compile slower than before by more than 5x: False
print("predict_on_batch slower than model(x) by more than 3x:", after_s > 3 * call_s)
#> predict_on_batch slower than model(x) by more than 3x: False
print("same predictions:", np.allclose(model.predict_on_batch(sample), model(sample, training=False)))
#> same predictions: True
# --8<-- [end:predict_after_compile]

# --8<-- [start:graph_grows]
import timeit

import numpy as np
import tensorflow as tf

image = np.ones((1, 3), "float32")
graph = tf.Graph()  # TF1 graph mode, as Keras 2.1 with the TensorFlow backend ran
with graph.as_default():
    weights = tf.compat.v1.get_variable("w", initializer=np.full((3, 2), 0.5, "float32"))

    def tiny_model(inputs):  # calling a TF1 Keras model adds its ops to the graph
        return tf.nn.relu(tf.matmul(inputs, weights))

    session = tf.compat.v1.Session(graph=graph)
    session.run(weights.initializer)

    def call_on_new_variable():  # model(inputs=K.variable(x)), then its value
        variable = tf.compat.v1.Variable(image)  # a new variable, new ops, every call
        session.run(variable.initializer)
        return session.run(tiny_model(variable))

    sizes = []
    for _ in range(3):
        called = call_on_new_variable()
        sizes.append(len(graph.get_operations()))
    print("ops in the graph after each model(K.variable(x)):", sizes)
    #> ops in the graph after each model(K.variable(x)): [14, 23, 32]

    inputs = tf.compat.v1.placeholder(tf.float32, (None, 3))
    outputs = tiny_model(inputs)  # what predict does: build once, then feed

    def predict_like():
        return session.run(outputs, feed_dict={inputs: image})

    sizes = []
    for _ in range(3):
        predicted = predict_like()
        sizes.append(len(graph.get_operations()))
    print("ops in the graph after each fed run:", sizes)
    #> ops in the graph after each fed run: [36, 36, 36]
    new_variable_s = min(timeit.repeat(call_on_new_variable, number=5, repeat=3))
    fed_s = min(timeit.repeat(predict_like, number=5, repeat=3))
    print("new variable per call slower than feeding by more than 3x:", new_variable_s > 3 * fed_s)
    #> new variable per call slower than feeding by more than 3x: True
    print("same predictions:", np.array_equal(called, predicted))
    #> same predictions: True
    session.close()
# --8<-- [end:graph_grows]

# --8<-- [start:model_in_loop]
import keras
import numpy as np


def new_model() -> keras.Model:
    model = keras.Sequential([keras.Input((3,)), Double(), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model


data = np.ones((4, 3), "float32")
traces.clear()
for _run in range(3):  # a new model, compiled anew, for each run
    new_model().predict(data, verbose=0)
print("a new model per run:", traces)
#> a new model per run: ['trace', 'trace', 'trace', 'trace', 'trace', 'trace']

traces.clear()
model = new_model()
initial = model.get_weights()
for _run in range(3):  # the fix: one model, its initial weights restored for each run
    model.set_weights(initial)
    model.predict(data, verbose=0)
print("one model, weights reset:", traces)
#> one model, weights reset: ['trace', 'trace']
# --8<-- [end:model_in_loop]
