"""torch.manual_seed, generators and random state: what a seed makes repeatable.

Run with `python examples/api/random_seeds.py`. The `#>` lines under each print are
the output the libraries printed when the site was built; the test suite runs this
script again and compares.
"""

# --8<-- [start:same_seed]
import torch

generator = torch.manual_seed(0)  # returns the default CPU generator, now seeded
print(generator is torch.default_generator, torch.initial_seed())
#> True 0
print(torch.rand(3))
#> tensor([0.4963, 0.7682, 0.0885])
torch.manual_seed(0)  # the same seed again: the same numbers again
print(torch.rand(3))
#> tensor([0.4963, 0.7682, 0.0885])
print(torch.rand(3))  # the next draw continues the sequence; it is not reset
#> tensor([0.1320, 0.3074, 0.6341])


def draw_all() -> list:
    """Draw from randn, randperm, dropout and a new layer's initial weights."""
    dropped = torch.nn.functional.dropout(torch.ones(6), p=0.5)
    return [torch.randn(3), torch.randperm(5), dropped, torch.nn.Linear(2, 2).weight]


torch.manual_seed(1)
first = draw_all()
torch.manual_seed(1)
second = draw_all()
print(all(torch.equal(x, y) for x, y in zip(first, second, strict=True)))  # all follow the seed
#> True
# --8<-- [end:same_seed]

# --8<-- [start:size]
import numpy as np

torch.manual_seed(0)
one_row = torch.randn(1, 8)
torch.manual_seed(0)
two_rows = torch.randn(2, 8)
print(one_row[0, :4])
#> tensor([ 1.5410, -0.2934, -2.1788,  0.5684])
print(two_rows[0, :4])  # the same seed, but a batch of 2 starts with other numbers
#> tensor([-1.1258, -1.1524, -0.2506, -0.4339])


def first_value(count: int) -> torch.Tensor:
    """The first of `count` normal values drawn right after seeding."""
    torch.manual_seed(0)
    return torch.randn(count)[:1]


# Does a draw of 8, 15, 16 or 100 values start like a draw of 1?
print([torch.equal(first_value(n), first_value(1)) for n in (8, 15, 16, 100)])
#> [True, True, False, False]

np.random.seed(0)
np_one_row = np.random.randn(1, 8)
np.random.seed(0)
print(np.array_equal(np.random.randn(2, 8)[0], np_one_row[0]))  # NumPy: the same first row
#> True


def randn_rows(rows: int, size: int) -> torch.Tensor:
    """Draw each row with its own call, so that every call asks for the same number of values."""
    return torch.stack([torch.randn(size) for _ in range(rows)])


torch.manual_seed(0)
one_row = randn_rows(1, 8)
torch.manual_seed(0)
print(torch.equal(randn_rows(2, 8)[0], one_row[0]))  # row by row: the batch of 2 starts the same
#> True
# --8<-- [end:size]

# --8<-- [start:devices]
from unittest import mock

with (
    mock.patch("torch.cuda.manual_seed_all") as cuda_seed_all,  # record calls, run nothing
    mock.patch("torch.mps.manual_seed") as mps_seed,
    mock.patch("torch.xpu.manual_seed_all") as xpu_seed_all,
):
    torch.manual_seed(5)
print(cuda_seed_all.call_args, mps_seed.call_args, xpu_seed_all.call_args)
#> call(5) call(5) call(5)

torch.manual_seed(3)
expected = torch.rand(2)
torch.manual_seed(3)
torch.cuda.manual_seed(9)  # no error, with or without a GPU
torch.cuda.manual_seed_all(9)
print(torch.initial_seed(), torch.equal(torch.rand(2), expected))  # the CPU generator is untouched
#> 3 True
print(torch.cuda.is_available())  # False: the machine that built this page has no GPU
#> False
# --8<-- [end:devices]

# --8<-- [start:other_libraries]
import random

import numpy as np

torch.manual_seed(0)
first = (random.random(), np.random.rand(), torch.rand(1).item())
torch.manual_seed(0)
second = (random.random(), np.random.rand(), torch.rand(1).item())
# random, NumPy, torch: only torch repeats
print([x == y for x, y in zip(first, second, strict=True)])
#> [False, False, True]


def seed_everything(seed: int) -> None:
    """Seed Python's, NumPy's and torch's global generators (torch's on every device)."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


seed_everything(7)
first = (random.random(), np.random.rand(), torch.rand(1).item())
seed_everything(7)
second = (random.random(), np.random.rand(), torch.rand(1).item())
# random, NumPy, torch: all three repeat
print([x == y for x, y in zip(first, second, strict=True)])
#> [True, True, True]
# --8<-- [end:other_libraries]

# --8<-- [start:generators]
from torch.utils.data import DataLoader

before = torch.get_rng_state()
local = torch.Generator().manual_seed(42)  # a private stream
print(torch.rand(2, generator=local))
#> tensor([0.8823, 0.9150])
print(torch.randperm(5, generator=torch.Generator().manual_seed(0)))
#> tensor([4, 0, 1, 3, 2])

shuffle = torch.Generator().manual_seed(0)
loader = DataLoader(range(6), batch_size=3, shuffle=True, generator=shuffle)
print([batch.tolist() for batch in loader])  # the same order in every run
#> [[5, 1, 0], [3, 2, 4]]
print(torch.equal(torch.get_rng_state(), before))  # none of them drew from the global generator
#> True

local.manual_seed(42)
private_draw = torch.rand(2, generator=local)
local.manual_seed(42)
torch.rand(100)  # other code draws from the global generator in between
print(torch.equal(torch.rand(2, generator=local), private_draw))  # the private stream is unmoved
#> True
# --8<-- [end:generators]

# --8<-- [start:loader_global]
def train_orders(validate: bool, generator=None) -> list:
    """Seed once, then three epochs: the training order of each, with or without a validation pass."""
    torch.manual_seed(0)
    train = DataLoader(range(6), batch_size=6, shuffle=True, generator=generator)
    val = DataLoader(range(4), batch_size=2)  # shuffle=False
    orders = []
    for _epoch in range(3):
        orders.append(next(iter(train)).tolist())
        if validate:
            for _batch in val:  # a validation pass
                pass
    return orders


print(train_orders(validate=False))
#> [[0, 4, 3, 5, 2, 1], [2, 3, 1, 5, 4, 0], [5, 2, 0, 3, 1, 4]]
print(train_orders(validate=True))  # epochs 2 and 3 change
#> [[0, 4, 3, 5, 2, 1], [4, 5, 1, 2, 3, 0], [1, 5, 2, 4, 3, 0]]
before = torch.get_rng_state()
iter(DataLoader(range(4), batch_size=2))  # shuffle=False, no batch taken
print(torch.equal(torch.get_rng_state(), before))  # each iterator draws a base seed
#> False

# the fix: a generator of the training loader's own
print(train_orders(False, torch.Generator().manual_seed(0)) == train_orders(True, torch.Generator().manual_seed(0)))
#> True

# a rerun with the seed set in worker_init_fn only: the order is drawn in the main process
def seed_worker(_worker_id: int) -> None:
    torch.manual_seed(0)  # runs in the worker, after the order is drawn


loader = DataLoader(range(20), batch_size=20, shuffle=True, num_workers=1, worker_init_fn=seed_worker)
runs = []
for _run in range(2):
    torch.seed()  # what a new process starts with: a seed from the OS
    runs.append(next(iter(loader)).tolist())
print(runs[0] == runs[1])
#> False
loader = DataLoader(range(20), batch_size=20, shuffle=True)
for run in range(2):
    torch.manual_seed(0)  # in the main process, before iterating
    runs[run] = next(iter(loader)).tolist()
print(runs[0] == runs[1])
#> True
# --8<-- [end:loader_global]

# --8<-- [start:workers]
from torch.utils.data import Dataset


class Draws(Dataset):
    """Four items, each drawn in a worker from Python's, NumPy's and torch's generators."""

    def __len__(self) -> int:
        return 4

    def __getitem__(self, index: int) -> tuple:
        worker = torch.utils.data.get_worker_info().id
        return worker, random.random(), np.random.rand(), torch.rand(1).item()


def draw_in_workers(seed: int) -> list:
    """Load every item with two worker processes; `seed` seeds the loader's generator."""
    generator = torch.Generator().manual_seed(seed)
    loader = DataLoader(Draws(), batch_size=None, num_workers=2, generator=generator)
    return list(loader)


def seed_numpy(worker_id: int) -> None:
    """The older releases' fix: seed NumPy from torch's seed, which differs per worker and epoch."""
    np.random.seed(torch.initial_seed() % 2**32)


if __name__ == "__main__":  # with spawn (macOS, Windows), each worker imports this script again
    first, second = draw_in_workers(0), draw_in_workers(0)
    print([item[0] for item in first])  # which worker loaded each item
    #> [0, 1, 0, 1]
    print(first == second)  # the same generator seed: the same numbers in every worker
    #> True
    worker_0, worker_1 = first[0][1:], first[1][1:]  # the first draw of each worker
    # random, NumPy, torch: each library's numbers differ between the workers
    print([x != y for x, y in zip(worker_0, worker_1, strict=True)])
    #> [True, True, True]
    other_seed = draw_in_workers(1)[0][1:]
    # another seed: other numbers from each library
    print([x != y for x, y in zip(other_seed, worker_0, strict=True)])
    #> [True, True, True]
    for init in (None, seed_numpy):  # two epochs of one loader, as it is and with the older releases' fix
        loader = DataLoader(Draws(), batch_size=None, num_workers=2, worker_init_fn=init)
        epoch_1, epoch_2 = list(loader), list(loader)
        print([a[2] != b[2] for a, b in zip(epoch_1, epoch_2, strict=True)])  # NumPy's draws
        #> [True, True, True, True]
        #> [True, True, True, True]
# --8<-- [end:workers]

# --8<-- [start:persistent]
import os


class WorkerPids(Dataset):
    """Two items; each is the process id of the worker that loaded it."""

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> int:
        return os.getpid()


def workers_started(persistent: bool) -> int:
    """Run three epochs with two workers; return how many worker processes loaded items."""
    loader = DataLoader(WorkerPids(), batch_size=None, num_workers=2, persistent_workers=persistent)
    return len({pid for epoch in range(3) for pid in loader})


if __name__ == "__main__":
    print(workers_started(persistent=False))  # two new processes for each of the three epochs
    #> 6
    print(workers_started(persistent=True))  # the same two processes for all three epochs
    #> 2
# --8<-- [end:persistent]

# --8<-- [start:state]
saved = torch.get_rng_state()  # the whole state of the CPU generator, as a tensor
print(saved.dtype, saved.shape)
#> torch.uint8 torch.Size([5056])
draw = torch.rand(2)
torch.set_rng_state(saved)  # rewind
print(torch.equal(draw, torch.rand(2)))
#> True

with torch.random.fork_rng(devices=[]):  # devices=[]: fork the CPU generator only
    torch.manual_seed(123)
    inside = torch.rand(1)
after_fork = torch.rand(1)
torch.set_rng_state(saved)
torch.rand(2)
print(torch.equal(after_fork, torch.rand(1)))  # the seed set inside did not leak out
#> True
# --8<-- [end:state]

# --8<-- [start:range]
torch.manual_seed(-1)  # a negative seed is stored as 2**64 + seed
print(hex(torch.initial_seed()), torch.initial_seed() == 2**64 - 1)
#> 0xffffffffffffffff True
torch.manual_seed(-2)
print(hex(torch.initial_seed()))
#> 0xfffffffffffffffe
try:
    torch.manual_seed(2**64)  # one more than the largest seed
except (RuntimeError, ValueError) as err:
    print(type(err).__name__, err)
    #> ValueError Overflow when unpacking long long
# --8<-- [end:range]

# --8<-- [start:deterministic]
print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)  # the defaults
#> False False
print(torch.are_deterministic_algorithms_enabled())
#> False
torch.use_deterministic_algorithms(True)
try:
    indices, values = (torch.tensor([0, 0]),), torch.tensor([1.0, 2.0])
    print(torch.zeros(3).index_put_(indices, values, accumulate=True))  # deterministic version: runs
    #> tensor([3., 0., 0.])
    torch.zeros(3).put_(torch.tensor([0]), torch.tensor([1.0]))  # put_ has none
except RuntimeError as err:
    print(type(err).__name__, str(err).split(",")[0])
    #> RuntimeError put_ does not have a deterministic implementation
finally:
    torch.use_deterministic_algorithms(False)  # back to the default
# --8<-- [end:deterministic]

# --8<-- [start:fill_uninitialized]
import torch.utils.deterministic
from torch.profiler import profile


def fill_calls():  # aten::fill_ calls while creating one empty tensor
    with profile() as prof:
        torch.empty(3)
    return sum(event.name == "aten::fill_" for event in prof.events())


print(torch.utils.deterministic.fill_uninitialized_memory, fill_calls())  # the default
#> True 0
torch.use_deterministic_algorithms(True)
print(torch.empty(3), torch.empty(2, dtype=torch.int64))  # filled: NaN, the largest integer
#> tensor([nan, nan, nan]) tensor([9223372036854775807, 9223372036854775807])
print(torch.empty(3).sum())  # a loss read from it: NaN on every run, not inf once and a number next
#> tensor(nan)
print(torch.zeros(3).sum())  # the fix: written before it is read
#> tensor(0.)
print(fill_calls())
#> 1

# For code that never reads memory it has not written: keep the mode, skip the fill.
torch.utils.deterministic.fill_uninitialized_memory = False
print(torch.are_deterministic_algorithms_enabled(), fill_calls())
#> True 0
torch.utils.deterministic.fill_uninitialized_memory = True  # back to the defaults
torch.use_deterministic_algorithms(False)
# --8<-- [end:fill_uninitialized]

# --8<-- [start:warn_only]
import warnings

index, value = torch.tensor([0]), torch.tensor([1.0])
torch.use_deterministic_algorithms(True)
try:
    torch.zeros(3).put_(index, value)
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).split('. ')[0]}.")  # the message's first sentence
    """
    RuntimeError: put_ does not have a deterministic implementation, but you set 'torch.use_deterministic_algorithms(True)'.
    """

print(torch.zeros(3).scatter_add_(0, torch.tensor([0, 0]), torch.tensor([1.0, 2.0])))  # CPU: runs
#> tensor([3., 0., 0.])

torch.use_deterministic_algorithms(True, warn_only=True)  # fix 1: a warning instead of the error
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.zeros(3).put_(index, value))  # runs
    #> tensor([1., 0., 0.])
for w in caught:
    print(f"{w.category.__name__}: {str(w.message).split('. ')[0]}.")
    """
    UserWarning: put_ does not have a deterministic implementation, but you set 'torch.use_deterministic_algorithms(True, warn_only=True)'.
    """

torch.use_deterministic_algorithms(False)  # fix 2: deterministic mode off around this operation
print(torch.zeros(3).put_(index, value))
#> tensor([1., 0., 0.])
torch.use_deterministic_algorithms(True)  # and on again for the rest of the program
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())
#> True False
torch.use_deterministic_algorithms(False)  # back to the default
# --8<-- [end:warn_only]
