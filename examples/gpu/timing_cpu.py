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
times = measurement.times  # seconds per run, one value per block
print(len(times) >= 1, measurement.number_per_run >= 1, min(times) <= measurement.median)
#> True True True
# --8<-- [end:timer]

# --8<-- [start:threads]
print(measurement.task_spec.num_threads)  # Timer's default: ONE thread
#> 1
threads = torch.get_num_threads()  # what torch uses outside the Timer
all_threads = benchmark.Timer(stmt="a @ b", globals={"a": a, "b": b}, num_threads=threads)
print(all_threads.timeit(10).task_spec.num_threads == threads)
#> True
# --8<-- [end:threads]
