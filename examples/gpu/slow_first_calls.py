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

# --8<-- [start:compile_recompile_reason]
import logging


class RecompileReasons(logging.Handler):
    """Keep the reason lines that TORCH_LOGS="recompiles" prints ("- 0/0: ...")."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        lines = record.getMessage().splitlines()
        self.lines += [line.strip() for line in lines if line.strip().startswith("- ")]


reasons = RecompileReasons()
logging.getLogger("torch._dynamo").addHandler(reasons)
torch._logging.set_logs(recompiles=True)  # the same as TORCH_LOGS="recompiles"


def causal_mask(x):  # the report's function
    _, length = x.shape
    return torch.full((length, length), torch.finfo(torch.float16).min)


for compile_kwargs in ({}, {"dynamic": True}):
    torch._dynamo.reset()
    reasons.lines.clear()
    counter = CompileCounter()
    compiled = torch.compile(causal_mask, backend=counter, **compile_kwargs)
    for length in (3, 4, 5):  # the report's lengths
        compiled(torch.randint(10, 1000, (2, length)))
    print(compile_kwargs, "compilations:", counter.frame_count, reasons.lines)
    #> {} compilations: 2 ["- 0/0: tensor 'x' size mismatch at index 1. expected 3, actual 4"]
    #> {'dynamic': True} compilations: 1 []
torch._logging.set_logs()  # logging back to its defaults
logging.getLogger("torch._dynamo").removeHandler(reasons)
# --8<-- [end:compile_recompile_reason]

# --8<-- [start:compile_small_overhead]
import timeit


def min_sum(a, b):  # the report's function: a few hundred elements
    return torch.minimum(a, b).sum()


def min_sum_dynamic(a, b):  # the same code in another function: compiled apart from min_sum
    return torch.minimum(a, b).sum()


def best_times(*fns, rounds=10):
    """The best timing of each fn (ten calls each), taken in turns: a pause of the machine
    then slows every fn in one round, never one fn in all of its rounds."""
    times = [[timeit.timeit(fn, number=10) for fn in fns] for _ in range(rounds)]
    return [min(column) for column in zip(*times, strict=True)]


threads = torch.get_num_threads()
torch.set_num_threads(1)  # one thread: steadier timings on a shared machine
torch._dynamo.reset()
static = torch.compile(min_sum, backend="eager")  # captures the graph, runs it as it is
dynamic = torch.compile(min_sum_dynamic, backend="eager", dynamic=True)
a, b = torch.rand(192), torch.rand(192)
static(a, b), dynamic(a, b)  # compile first: only steady-state calls are timed
eager_t, static_t, dynamic_t = best_times(lambda: min_sum(a, b), lambda: static(a, b), lambda: dynamic(a, b))
print("192 elements, compiled slower than eager:", static_t > eager_t)
#> 192 elements, compiled slower than eager: True
print("192 elements, dynamic=True more than 2x slower than eager:", dynamic_t > 2 * eager_t)
#> 192 elements, dynamic=True more than 2x slower than eager: True
torch.set_num_threads(threads)
# --8<-- [end:compile_small_overhead]
