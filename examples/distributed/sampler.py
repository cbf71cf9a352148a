"""How DistributedSampler shares out a dataset: runs on any machine, in one process.

Run with `python examples/distributed/sampler.py`. A DistributedSampler normally
reads the number of processes and its rank from the process group; given them as
`num_replicas=` and `rank=`, it needs no process group, so one process can show
every rank's share. The `#>` lines under each print are the output the libraries
printed when the site was built; the test suite runs this script again and compares.
"""

# --8<-- [start:padding]
from torch.utils.data import DistributedSampler

dataset = list(range(5))  # 5 samples for 2 processes: they do not divide evenly


def shares(**options) -> list[list[int]]:
    """The indices each of 2 ranks reads, in rank order."""
    return [list(DistributedSampler(dataset, num_replicas=2, rank=r, **options)) for r in range(2)]


print(shares(shuffle=False))  # rank r takes every 2nd index from r: sample 0 is repeated
#> [[0, 2, 4], [1, 3, 0]]
print(shares(shuffle=False, drop_last=True))  # the tail is dropped instead: sample 4 is unused
#> [[0, 2], [1, 3]]
# --8<-- [end:padding]

# --8<-- [start:validation_padding]
import torch

correct = torch.tensor([1, 1, 1, 1, 1, 1, 1, 1, 0, 0])  # 10 validation samples, 8 right: 0.8
world_size = 4  # 10 samples do not divide by 4: the sampler pads to 12
per_rank = [list(DistributedSampler(range(10), num_replicas=world_size, rank=r, shuffle=False)) for r in range(world_size)]
print(per_rank)  # samples 0 and 1 are evaluated twice
#> [[0, 4, 8], [1, 5, 9], [2, 6, 0], [3, 7, 1]]
# What an all-reduce of each rank's right answers and counts gives:
right = sum(correct[share].sum().item() for share in per_rank)
seen = sum(len(share) for share in per_rank)
print(right, seen, round(right / seen, 4))
#> 10 12 0.8333

# The fix: count each sample once. Drop the padded positions (global position i * world_size + rank >= 10)...
kept = [[index for i, index in enumerate(share) if i * world_size + r < 10] for r, share in enumerate(per_rank)]
right = sum(correct[share].sum().item() for share in kept)
seen = sum(len(share) for share in kept)
print(right, seen, right / seen)
#> 8 10 0.8
# ...or give evaluation an unpadded split, rank r reading range(r, 10, world_size), and sum counts, not ratios.
unpadded = [list(range(r, 10, world_size)) for r in range(world_size)]
print(unpadded, sum(correct[share].sum().item() for share in unpadded) / 10)
#> [[0, 4, 8], [1, 5, 9], [2, 6], [3, 7]] 0.8
# --8<-- [end:validation_padding]

# --8<-- [start:set_epoch]
sampler = DistributedSampler(range(8), num_replicas=2, rank=0, shuffle=True, seed=0)
first_epoch, second_epoch = list(sampler), list(sampler)
print("epoch before set_epoch:", sampler.epoch)
#> epoch before set_epoch: 0
sampler.set_epoch(1)
print("same order without set_epoch:", first_epoch == second_epoch)
#> same order without set_epoch: True
print("same order after set_epoch(1):", first_epoch == list(sampler))
#> same order after set_epoch(1): False
seed_one = DistributedSampler(range(8), num_replicas=2, rank=0, shuffle=True, seed=1)
print("seed 0, epoch 1 == seed 1, epoch 0:", list(sampler) == list(seed_one))  # seed + epoch
#> seed 0, epoch 1 == seed 1, epoch 0: True
# --8<-- [end:set_epoch]

# --8<-- [start:batch_size]
from torch.utils.data import DataLoader

train_set = range(50_000)  # as many samples as CIFAR-10's training set


def steps_per_epoch(processes: int, batch_size: int) -> tuple[int, int]:
    """Steps per epoch of each process, and samples per step over all processes."""
    sampler = DistributedSampler(train_set, num_replicas=processes, rank=0)
    loader = DataLoader(train_set, batch_size=batch_size, sampler=sampler)
    return len(loader), processes * batch_size


print("1 GPU,  batch_size=128:", steps_per_epoch(1, 128))
#> 1 GPU,  batch_size=128: (391, 128)
print("8 GPUs, batch_size=128:", steps_per_epoch(8, 128))  # per process: 8 x the samples per step
#> 8 GPUs, batch_size=128: (49, 1024)
print("8 GPUs, batch_size=16:", steps_per_epoch(8, 16))  # the same 128 samples per step
#> 8 GPUs, batch_size=16: (391, 128)
# --8<-- [end:batch_size]
