"""GPU memory on a GPU: memory_allocated, memory_reserved and what the device reports in use,
before and after del and torch.cuda.empty_cache().

Needs a CUDA device. Run with `python examples/gpu/memory_cuda.py` on a machine with a GPU, in a
process of its own: the figures count everything the process did on the GPU before. It prints
sizes in MiB; the memory in use on the device includes the CUDA context and other processes,
so it is printed only as a comparison with PyTorch's own figures.
"""
# requires: cuda

# --8<-- [start:allocated_reserved]
import torch

MiB = 2**20


def figures() -> str:
    """PyTorch's two counters, and whether the device has more memory in use than PyTorch holds."""
    free, total = torch.cuda.mem_get_info()
    allocated, reserved = torch.cuda.memory_allocated(), torch.cuda.memory_reserved()
    return (f"allocated {allocated // MiB} MiB, reserved {reserved // MiB} MiB, "
            f"in use on the device beyond reserved: {total - free > reserved}")


torch.cuda.init()
print("before any tensor:", figures())
t = torch.zeros(256 * MiB // 4, device="cuda")  # 256 MiB of float32
print("t on the GPU:     ", figures())
del t  # freed, but the memory stays in PyTorch's cache
print("after del t:      ", figures())
u = torch.zeros(256 * MiB // 4, device="cuda")  # the same size again: served from the cache
print("a new tensor:     ", figures())
del u
torch.cuda.empty_cache()  # returns the unused cache to the driver
print("after empty_cache:", figures())
# --8<-- [end:allocated_reserved]

# --8<-- [start:still_referenced]
t = torch.zeros(256 * MiB // 4, device="cuda")
history = [t]  # another reference to the same tensor
del t
torch.cuda.empty_cache()
print("del t, still in a list, after empty_cache:", figures())
history.clear()
torch.cuda.empty_cache()
print("after history.clear() and empty_cache:   ", figures())
# --8<-- [end:still_referenced]

# --8<-- [start:peak]
first_model = torch.zeros(256 * MiB // 4, device="cuda")  # a first model, still referenced
torch.cuda.empty_cache()
torch.cuda.reset_peak_memory_stats()  # the peak restarts from what is allocated now, not from 0
start = torch.cuda.memory_allocated()
print("peak right after the reset, MiB:", torch.cuda.max_memory_allocated() // MiB, "of which allocated:", start // MiB)
second_model = torch.zeros(64 * MiB // 4, device="cuda")
print("second model alone, MiB:", (torch.cuda.max_memory_allocated() - start) // MiB)
del first_model, second_model
torch.cuda.reset_peak_memory_stats()
print("after del and a reset, peak MiB:", torch.cuda.max_memory_allocated() // MiB)
# --8<-- [end:peak]

# --8<-- [start:other_process]
import subprocess
import sys

held = torch.zeros(4096 * MiB // 4, device="cuda")  # this process holds 4 GiB
child = (
    "import torch; free, total = torch.cuda.mem_get_info(); "
    "print(torch.cuda.memory_reserved() // 2**20, (total - free) // 2**20 >= 4096)"
)
reserved_there, device_in_use = subprocess.run(
    [sys.executable, "-c", child], capture_output=True, text=True, check=True
).stdout.split()
print("another process: memory_reserved", reserved_there, "MiB")  # counts its own allocator only
print("another process: mem_get_info shows the 4 GiB in use:", device_in_use)
del held
# --8<-- [end:other_process]

# --8<-- [start:cap]
torch.cuda.empty_cache()
torch.cuda.set_per_process_memory_fraction(0.5)  # at most half of the GPU's memory
total = torch.cuda.get_device_properties(0).total_memory
try:
    too_big = torch.empty(int(total * 0.6), dtype=torch.uint8, device="cuda")
except torch.OutOfMemoryError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0][:60]}")
fits = torch.empty(int(total * 0.4), dtype=torch.uint8, device="cuda")
print("40% of the GPU fits:", fits.numel() == int(total * 0.4))
del fits
torch.cuda.set_per_process_memory_fraction(1.0)
# --8<-- [end:cap]

# --8<-- [start:empty_cache_per_batch]
def train(steps: int, empty_cache: bool) -> tuple[str, torch.Tensor]:
    """A few training steps from the same start; PyTorch's counters after them, how often the
    allocator asked the driver for memory, and the weights they reached."""
    torch.manual_seed(0)
    model = torch.nn.Linear(4096, 4096, device="cuda")  # 64 MiB of weights
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    torch.cuda.empty_cache()
    calls = torch.cuda.memory_stats()["segment.all.allocated"]  # cudaMalloc calls so far
    for _ in range(steps):
        loss = model(torch.randn(1024, 4096, device="cuda")).square().mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        del loss
        if empty_cache:
            torch.cuda.empty_cache()  # after each batch, as in the report
    stats = torch.cuda.memory_stats()
    figures = (f"allocated {torch.cuda.memory_allocated() // MiB} MiB, "
               f"reserved {torch.cuda.memory_reserved() // MiB} MiB, "
               f"cudaMalloc calls {stats['segment.all.allocated'] - calls}")
    return figures, model.weight.detach().cpu()  # on the CPU: no GPU memory kept between runs


without, weights = train(10, empty_cache=False)
print("without empty_cache:", without)
with_it, weights_with = train(10, empty_cache=True)
print("with empty_cache:   ", with_it)
print("the same weights:", torch.equal(weights, weights_with))
# --8<-- [end:empty_cache_per_batch]

# --8<-- [start:empty_cache_partial]
def counters(label: str) -> None:
    """PyTorch's counters, in MiB, and the number of segments the cache holds."""
    segments = torch.cuda.memory_stats()["segment.all.current"]
    reserved, allocated = torch.cuda.memory_reserved() // MiB, torch.cuda.memory_allocated() // MiB
    print(f"{label}: reserved {reserved} MiB, allocated {allocated} MiB, segments {segments}")


torch.cuda.empty_cache()
counters("start")
# A forward pass: an activation and a tensor that outlives it (3 MiB each) share one segment.
activation = torch.empty(3 * MiB, dtype=torch.uint8, device="cuda")
kept = torch.empty(3 * MiB, dtype=torch.uint8, device="cuda")
counters("after forward")
del activation
torch.cuda.empty_cache()
counters("activation freed, empty_cache")
# The next epoch asks for a size the free part of that segment cannot hold: a new segment.
larger = torch.empty(24 * MiB, dtype=torch.uint8, device="cuda")
counters("next epoch, 24 MiB")
del kept, larger
torch.cuda.empty_cache()
counters("all freed, empty_cache")
# --8<-- [end:empty_cache_partial]
