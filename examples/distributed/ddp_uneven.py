"""DistributedDataParallel when the ranks get different numbers of batches: the hang in
backward, equal shares from DistributedSampler, and Join. 2 processes, gloo, on the CPU.

Run with `torchrun --standalone --nproc-per-node 2 examples/distributed/ddp_uneven.py`.
Every process runs this whole file; only rank 0 prints. The `#>` lines under each print are
what rank 0 printed when the site was built; the test suite starts the 2 processes again and
compares. The first section waits 3 seconds on purpose, for a collective that times out.
"""
# launch: torchrun 2

# --8<-- [start:uneven]
import inspect
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, Subset, TensorDataset

dist.init_process_group(backend="gloo")
rank = dist.get_rank()


def gather(value) -> list:
    """Every rank's value, in rank order."""
    values = [None] * dist.get_world_size()
    dist.all_gather_object(values, value)
    return values


features = torch.randn(11, 4, generator=torch.Generator().manual_seed(0))
dataset = TensorDataset(features, features.sum(dim=1, keepdim=True))
# Split by hand, as with one file per rank: 7 samples for rank 0, 4 for rank 1
by_hand = Subset(dataset, range(0, 7) if rank == 0 else range(7, 11))
loader = DataLoader(by_hand, batch_size=2)
batches = gather(len(loader))

# A process group whose collectives give up after 3 seconds instead of waiting
short_wait = dist.new_group(timeout=timedelta(seconds=3))
model = nn.Linear(4, 1)
ddp_model = DistributedDataParallel(model, process_group=short_wait)
optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.1)
completed, failure = 0, None
try:
    for step, (batch, target) in enumerate(loader, start=1):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(ddp_model(batch), target)
        loss.backward()  # DDP all-reduces the gradients with every other rank here
        optimizer.step()
        completed = step
except RuntimeError as err:
    message = str(err).split("] ")[-1]  # without the source file's path
    failure = f"step {step}, in loss.backward(): {type(err).__name__}: {message}"
steps, failures = gather(completed), gather(failure)
del ddp_model
if rank == 0:
    print("batches per rank:", batches)
    #> batches per rank: [4, 2]
    print("steps completed per rank:", steps)
    #> steps completed per rank: [2, 2]
    print("rank 0:", failures[0])
    """
    rank 0: step 3, in loss.backward(): RuntimeError: Timed out waiting 3000ms for recv operation to complete
    """
    doc = " ".join(inspect.getdoc(dist.init_process_group).split())
    print(doc[doc.index("timeout (timedelta"):].split(" This is done")[0])
    """
    timeout (timedelta, optional): Timeout for operations executed against the process group. Default value is 10 minutes for NCCL and 30 minutes for other backends. This is the duration after which collectives will be aborted asynchronously and the process will crash.
    """
# --8<-- [end:uneven]

# --8<-- [start:equal_shares]
from torch.utils.data import DistributedSampler

shares = {}
for drop_last in (False, True):
    sampler = DistributedSampler(dataset, shuffle=False, drop_last=drop_last)
    shares[drop_last] = gather((len(sampler), len(DataLoader(dataset, batch_size=2, sampler=sampler))))
if rank == 0:
    for drop_last, counts in shares.items():
        print(f"DistributedSampler(drop_last={drop_last}): (samples, batches) per rank: {counts}")
        #> DistributedSampler(drop_last=False): (samples, batches) per rank: [(6, 3), (6, 3)]
        #> DistributedSampler(drop_last=True): (samples, batches) per rank: [(5, 3), (5, 3)]
# --8<-- [end:equal_shares]

# --8<-- [start:join]
from torch.distributed.algorithms.join import Join

torch.manual_seed(0)
model = nn.Linear(4, 1)
ddp_model = DistributedDataParallel(model)  # the default group: no short timeout
optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.1)
completed = 0
with Join([ddp_model]):  # a rank that runs out of batches keeps answering the others' all-reduces
    for batch, target in loader:  # still 4 batches on rank 0 and 2 on rank 1
        optimizer.zero_grad()
        nn.functional.mse_loss(ddp_model(batch), target).backward()
        optimizer.step()
        completed += 1
steps = gather(completed)
parameters = gather(torch.cat([p.detach().flatten() for p in model.parameters()]))
if rank == 0:
    print("steps completed per rank:", steps)
    #> steps completed per rank: [4, 2]
    print("parameters equal on all ranks:", torch.equal(parameters[0], parameters[1]))
    #> parameters equal on all ranks: True
# --8<-- [end:join]

import gc

dist.barrier()
del ddp_model
gc.collect()
dist.destroy_process_group()
