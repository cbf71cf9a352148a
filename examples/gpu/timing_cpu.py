"""Timing PyTorch code with torch.utils.benchmark: runs on any machine, CPU only.

Run with `python examples/gpu/timing_cpu.py`. Times differ from run to run, so the
example prints what does not: the parts of a measurement and how they relate. The
`#>` lines under each print are the output the libraries printed when
the site was built; the test suite runs this script again and compares.
"""

# --8<-- [start:timer]
import torch
from torch.utils import benchmark

a, b = torch.randn(256, 256), torch.randn(256, 256)
timer = benchmark.Timer(
    stmt="a @ b", globals={"a": a, "b": b}, label="matmul", sub_label="256 x 256"
)
measurement = timer.blocked_autorange(min_run_time=0.2)  # warm-up, then blocks of runs
print(measurement.label, "|", measurement.sub_label, "|", type(measurement).__name__)
#> matmul | 256 x 256 | Measurement
blocks = measurement.raw_times  # seconds per block of `number_per_run` runs
print(sum(blocks) >= 0.2, measurement.times == [t / measurement.number_per_run for t in blocks])
#> True True
print(min(measurement.times) <= measurement.median <= max(measurement.times))
#> True
# --8<-- [end:timer]

# --8<-- [start:repr]
fixed = benchmark.Measurement(  # the same task with made-up times, so the output is fixed
    number_per_run=100, raw_times=[0.0100, 0.0101, 0.0103, 0.0150], task_spec=measurement.task_spec
)
print("\n".join(repr(fixed).splitlines()[1:]))  # line 0 names the object and its address
"""
matmul: 256 x 256
  Median: 102.00 us
  IQR:    14.00 us (100.75 to 114.75)
  4 measurements, 100 runs per measurement, 1 thread
  WARNING: Interquartile range is 13.7% of the median measurement.
           This could indicate system fluctuation.
"""
three_blocks = benchmark.Measurement(100, [0.0100, 0.0101, 0.0103], measurement.task_spec)
print("IQR shown for 3 blocks:", "IQR" in repr(three_blocks))
#> IQR shown for 3 blocks: False
# --8<-- [end:repr]

# --8<-- [start:threads]
print(measurement.task_spec.num_threads)  # Timer's default: ONE thread
#> 1
threads = torch.get_num_threads()  # what torch uses outside the Timer
all_threads = benchmark.Timer(stmt="a @ b", globals={"a": a, "b": b}, num_threads=threads)
print(all_threads.timeit(10).task_spec.num_threads == threads)
#> True
# --8<-- [end:threads]

# --8<-- [start:event]
import re

doc = " ".join(torch.cuda.Event.__doc__.split())  # the docstring, on one line: no GPU needed
print(re.search(r"The underlying CUDA events.*?\.", doc).group())
"""
The underlying CUDA events are lazily initialized when the event is first recorded or exported to another process.
"""
# --8<-- [end:event]

# --8<-- [start:warm_up]
doc = " ".join(benchmark.Timer.__doc__.split())
print(re.search(r"Timer will perform warmups \(.*?\)", doc).group())
#> Timer will perform warmups (important as some elements of PyTorch are lazily initialized)
# --8<-- [end:warm_up]

# --8<-- [start:elapsed_checks]
from pathlib import Path

header = Path(torch.__file__).parent / "include" / "c10" / "cuda" / "CUDAEvent.h"  # ships with torch
source = header.read_text()
body = source[source.index("float elapsed_time(") :]  # Event.elapsed_time in C++, up to its return
body = body[: body.index("return time_ms;")]
for message in re.findall(r'"(Both events must be [^"]*)"', body):  # checked in this order
    print(message)
    #> Both events must be created with argument 'enable_timing=True'.
    #> Both events must be recorded before calculating elapsed time.
    #> Both events must be completed before calculating elapsed time.
print(re.search(r"// (raise cudaErrorNotReady.*)", body).group(1))  # the CUDA call after the checks
#> raise cudaErrorNotReady if either event is recorded but not yet completed
# --8<-- [end:elapsed_checks]

# --8<-- [start:dtype_conversion]
import numpy as np


def best_time(stmt, **names):
    """The fastest of five Timer measurements of stmt, each of 500 runs, at one thread."""
    timer = benchmark.Timer(stmt, globals=names)  # num_threads=1, Timer's default
    return min(timer.timeit(500).median for _ in range(5))


samples = np.random.default_rng(0).integers(-1000, 1000, 16000, dtype=np.int16)
as_torch = torch.from_numpy(samples)  # shares the memory: no conversion yet
ratio = best_time("t.float()", t=as_torch) / best_time("a.astype(np.float32)", a=samples, np=np)
print("torch int16 -> float32 slower than NumPy:", ratio > 1)
#> torch int16 -> float32 slower than NumPy: True
# The same values either way: convert in NumPy, then share with torch.
print(torch.equal(as_torch.float(), torch.from_numpy(samples.astype(np.float32))))
#> True

# torch.Tensor(array) already converts to float32: a later .to(torch.float32) does nothing.
image = np.zeros((160, 120, 3), dtype=np.uint8)
converted = torch.Tensor(image)
print(converted.dtype, converted.to(torch.float32) is converted)
#> torch.float32 True
# --8<-- [end:dtype_conversion]
