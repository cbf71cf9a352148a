"""Hidden synchronisation points on a GPU: which calls wait for it, and what that costs.

Needs a CUDA device. Run with `python examples/gpu/sync_points_cuda.py` on a machine with
a GPU. Each call runs under torch.cuda.set_sync_debug_mode("warn"), which warns when a
call synchronises the CPU with the GPU; CUDA events show whether a loop got ahead of the
GPU. It prints what happened and comparisons, never times, so that its output is the same
on every GPU.
"""
# requires: cuda

# --8<-- [start:detect]
import warnings

import torch

x = torch.tensor([0.0, 3.0, 0.0, 5.0], device="cuda")
mask = x > 0
loss = x.mean()
total = torch.zeros((), device="cuda")
positive_definite = 2 * torch.eye(3, device="cuda")  # for the torch.linalg calls
torch.cuda.synchronize()


def synchronizes(call) -> str:  # whether call() warned that it synchronised, and the class
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # record a warning even if it was shown before
        torch.cuda.set_sync_debug_mode("warn")
        try:
            call()
        finally:
            torch.cuda.set_sync_debug_mode("default")
    found = sorted({w.category.__name__ for w in caught if "synchron" in str(w.message).lower()})
    return f"{bool(found)} {found}"


calls = [
    ("Tensor.item", lambda: loss.item()),
    ("float(t)", lambda: float(loss)),
    ("bool(t)", lambda: bool(x.any())),
    ("if t.any()", lambda: 1 if x.any() else 0),
    ("Tensor.tolist", lambda: x.tolist()),
    ("Tensor.cpu", lambda: x.cpu()),
    ("t.cpu().numpy()", lambda: x.cpu().numpy()),
    ("print(t)", lambda: str(x)),  # what print(t) does first: format the values
    ("torch.nonzero", lambda: torch.nonzero(x)),
    ("nonzero(as_tuple=True)", lambda: torch.nonzero(x, as_tuple=True)),
    ("x[mask]", lambda: x[mask]),
    ("torch.masked_select", lambda: torch.masked_select(x, mask)),
    ("torch.unique", lambda: torch.unique(x)),
    ("torch.linalg.cholesky", lambda: torch.linalg.cholesky(positive_definite)),
    ("torch.linalg.cholesky_ex", lambda: torch.linalg.cholesky_ex(positive_definite)),
    ("torch.linalg.inv", lambda: torch.linalg.inv(positive_definite)),
    ("torch.linalg.inv_ex", lambda: torch.linalg.inv_ex(positive_definite)),
    ("torch.where", lambda: torch.where(mask, x, 0.0)),
    ("Tensor.masked_fill", lambda: x.masked_fill(~mask, 0.0)),
    ("torch.nonzero_static", lambda: torch.nonzero_static(x, size=2)),
    ("total += loss.detach()", lambda: total.add_(loss.detach())),
]
for name, call in calls:
    print(f"{name}: synchronizes: {synchronizes(call)}")
# --8<-- [end:detect]

# --8<-- [start:loops]
a = torch.randn(4096, 4096, device="cuda")
(a @ a).mean().item()  # warm-up: the first call initialises cuBLAS and allocates memory


def run_loop(read_every_step: bool, steps: int = 20) -> list[torch.cuda.Event]:
    """Queues `steps` steps of GPU work; returns an event recorded after each step."""
    done = []
    running = torch.zeros((), device="cuda")
    for _ in range(steps):
        loss = (a @ a).mean()  # a few milliseconds of GPU work
        done.append(torch.cuda.Event())
        done[-1].record()  # a marker in the GPU's queue, after this step's kernels
        if read_every_step:
            loss.item()  # waits until the GPU has computed this step's loss
        else:
            running += loss.detach()  # queued like the step: no wait
    return done


torch.cuda.synchronize()
done = run_loop(read_every_step=True)
print("item every step: all steps done when the loop returned:", all(e.query() for e in done))
torch.cuda.synchronize()
done = run_loop(read_every_step=False)
print("accumulate: last step still queued when the loop returned:", not done[-1].query())
torch.cuda.synchronize()  # what a single .item() at the end would do
print("accumulate: all steps done after one synchronisation:", all(e.query() for e in done))
# --8<-- [end:loops]

# --8<-- [start:profile_item]
from torch.profiler import ProfilerActivity, profile


def steps() -> None:
    """Five steps of GPU work, each read with .item() as a training loop logs its loss."""
    for _ in range(5):
        (a @ a).mean().item()


torch.cuda.synchronize()
with profile(activities=[ProfilerActivity.CPU]) as cpu_only:
    steps()
top = max(cpu_only.key_averages(), key=lambda e: e.self_cpu_time_total)
print("CPU profile, most self CPU time:", top.key)

with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as with_cuda:
    steps()
gpu_time = {e.key: e.device_time_total for e in with_cuda.key_averages()}
mm_longer = gpu_time["aten::mm"] > gpu_time["aten::_local_scalar_dense"]
print("with CUDA activity, more GPU time under aten::mm than under item:", mm_longer)
# --8<-- [end:profile_item]
