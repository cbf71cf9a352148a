"""Why the first calls are slow: CUDA start-up, cuDNN autotuning, torch.compile.

Run with `python examples/gpu/slow_first_calls.py`; it runs on any machine (CPU only).
It prints counts and flags, never times. The timings that need a GPU are in
`examples/gpu/slow_first_calls_cuda.py`.
"""

# --8<-- [start:lazy_cuda]
import torch

print("CUDA initialised after import torch:", torch.cuda.is_initialized())
#> CUDA initialised after import torch: False
x = torch.randn(256, 256) @ torch.randn(256, 256)  # CPU work does not start CUDA either
print("CUDA initialised after CPU work:", torch.cuda.is_initialized())
#> CUDA initialised after CPU work: False
print("CUDA available:", torch.cuda.is_available())  # False where these outputs were recorded
#> CUDA available: False
# --8<-- [end:lazy_cuda]

# --8<-- [start:cudnn_flags]
print("cudnn.benchmark by default:", torch.backends.cudnn.benchmark)
#> cudnn.benchmark by default: False
print("cudnn.deterministic by default:", torch.backends.cudnn.deterministic)
#> cudnn.deterministic by default: False
# --8<-- [end:cudnn_flags]

# --8<-- [start:compile_count]
import torch._dynamo
from torch._dynamo.testing import CompileCounter

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))


def count_compilations(batch_sizes, mark_dynamic=False, **compile_kwargs):
    """Call a compiled model once per batch size; return how many graphs were compiled."""
    torch._dynamo.reset()  # forget what earlier runs compiled
    counter = CompileCounter()  # a backend that counts the graphs it is given
    compiled = torch.compile(model, backend=counter, **compile_kwargs)
    for batch_size in batch_sizes:
        x = torch.randn(batch_size, 8)
        if mark_dynamic:
            torch._dynamo.mark_dynamic(x, 0)  # dimension 0 may change: compile for any size
        compiled(x)
    return counter.frame_count


same_shape = [32] * 10
print("10 batches of 32:", count_compilations(same_shape))
#> 10 batches of 32: 1
epochs = [32, 32, 32, 10] * 3  # the last, smaller batch of each epoch
print("3 epochs, last batch 10:", count_compilations(epochs))
#> 3 epochs, last batch 10: 2
sizes = [32, 10, 7, 5, 3]
print("5 sizes, dynamic=False:", count_compilations(sizes, dynamic=False))
#> 5 sizes, dynamic=False: 5
print("5 sizes, default:", count_compilations(sizes))
#> 5 sizes, default: 2
print("5 sizes, mark_dynamic:", count_compilations(sizes, mark_dynamic=True))
#> 5 sizes, mark_dynamic: 1
print("5 sizes, dynamic=True:", count_compilations(sizes, dynamic=True))
#> 5 sizes, dynamic=True: 1
# --8<-- [end:compile_count]

# --8<-- [start:compile_int_args]
def rows_from(x, start):
    """Sum four rows of x from row `start`: a Python int, not a tensor."""
    return x[start] + x[start + 1] + x[start + 2] + x[start + 3]


def loop_from(x, start, end=10):
    """Sum rows start..end-1 with a Python loop over the int."""
    total = x[start]
    for i in range(start + 1, end):
        total = total + x[i]
    return total


def slice_from(x, start, end=10):
    """The same sum as one tensor operation on a slice."""
    return x[start:end].sum(0)


def count_int_compilations(fn, **compile_kwargs):
    torch._dynamo.reset()
    counter = CompileCounter()
    compiled = torch.compile(fn, backend=counter, **compile_kwargs)
    x = torch.arange(40.0).reshape(10, 4)
    for start in range(6):  # a new int at every step of the loop
        compiled(x, start)
    return counter.frame_count


print("6 values of start, dynamic=False:", count_int_compilations(rows_from, dynamic=False))
#> 6 values of start, dynamic=False: 6
print("6 values of start, default:", count_int_compilations(rows_from))
#> 6 values of start, default: 2
print("6 values of start, dynamic=True:", count_int_compilations(rows_from, dynamic=True))
#> 6 values of start, dynamic=True: 1
print("loop over range, default:", count_int_compilations(loop_from))
#> loop over range, default: 6
print("loop over range, dynamic=True:", count_int_compilations(loop_from, dynamic=True))
#> loop over range, dynamic=True: 6
print("slice, default:", count_int_compilations(slice_from))
#> slice, default: 2
print("slice, dynamic=True:", count_int_compilations(slice_from, dynamic=True))
#> slice, dynamic=True: 1
x = torch.arange(40.0).reshape(10, 4)
print("slice sums what the loop sums:", torch.equal(slice_from(x, 2), loop_from(x, 2)))
#> slice sums what the loop sums: True
# --8<-- [end:compile_int_args]

# --8<-- [start:compile_same_result]
torch._dynamo.reset()
compiled = torch.compile(model, backend=CompileCounter())
x = torch.randn(4, 8)
print("same result as eager:", torch.allclose(compiled(x), model(x)))
#> same result as eager: True
# --8<-- [end:compile_same_result]
