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
# --8<-- [end:same_seed]

# --8<-- [start:other_libraries]
import random

import numpy as np

torch.manual_seed(0)
first = (random.random(), np.random.rand())
torch.manual_seed(0)
second = (random.random(), np.random.rand())
print(first == second)  # torch's seed does not reach Python's or NumPy's generators
#> False


def seed_everything(seed: int) -> None:
    """Seed Python's, NumPy's and torch's global generators (torch's on every device)."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


seed_everything(7)
first = (random.random(), np.random.rand(), torch.rand(1).item())
seed_everything(7)
second = (random.random(), np.random.rand(), torch.rand(1).item())
print(first == second)
#> True
# --8<-- [end:other_libraries]

# --8<-- [start:generators]
from torch.utils.data import DataLoader

local = torch.Generator().manual_seed(42)  # a private stream: the global one is untouched
print(torch.rand(2, generator=local))
#> tensor([0.8823, 0.9150])
print(torch.randperm(5, generator=torch.Generator().manual_seed(0)))
#> tensor([4, 0, 1, 3, 2])

shuffle = torch.Generator().manual_seed(0)
loader = DataLoader(range(6), batch_size=3, shuffle=True, generator=shuffle)
print([batch.tolist() for batch in loader])  # the same order in every run
#> [[5, 1, 0], [3, 2, 4]]
# --8<-- [end:generators]

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
