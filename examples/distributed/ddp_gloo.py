"""DistributedDataParallel on the CPU: 2 processes, the gloo backend, started by torchrun.

Run with `torchrun --standalone --nproc-per-node 2 examples/distributed/ddp_gloo.py`.
Every process runs this whole file; only rank 0 prints. The `#>` lines under each
print are what rank 0 printed when the site was built; the test suite starts the
2 processes again and compares.
"""
# launch: torchrun 2

# --8<-- [start:setup]
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

dist.init_process_group(backend="gloo")  # rank, world size and address come from torchrun
rank, world_size = dist.get_rank(), dist.get_world_size()
local_rank = int(os.environ["LOCAL_RANK"])  # index on this machine: the GPU to use
names = ["RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"]
set_by_torchrun = [name for name in names if name in os.environ]
if rank == 0:
    print(f"backend={dist.get_backend()} world_size={world_size}")
    #> backend=gloo world_size=2
    print("set by torchrun:", set_by_torchrun)
    #> set by torchrun: ['RANK', 'LOCAL_RANK', 'WORLD_SIZE', 'MASTER_ADDR', 'MASTER_PORT']


def gather(value: float) -> list[float]:
    """Every rank's value, in rank order (an all_gather of Python objects)."""
    values = [None] * world_size
    dist.all_gather_object(values, value)
    return values


def parameters_of(module: nn.Module) -> torch.Tensor:
    """All of the module's parameter values, as one flat tensor."""
    return torch.cat([p.detach().flatten() for p in module.parameters()])


def equal_on_all_ranks(values: list[torch.Tensor]) -> bool:
    """Whether every rank's tensor equals rank 0's, element for element."""
    return all(torch.equal(values[0], value) for value in values[1:])


local_ranks = gather(local_rank)
if rank == 0:
    print("local rank of each rank:", local_ranks)
    #> local rank of each rank: [0, 1]
# --8<-- [end:setup]

# --8<-- [start:broadcast]
torch.manual_seed(rank)  # on purpose: each rank starts from different random weights
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
before = gather(parameters_of(model))
ddp_model = DistributedDataParallel(model)  # broadcasts rank 0's parameters and buffers
after = gather(parameters_of(model))
if rank == 0:
    print("before DDP, equal on all ranks:", equal_on_all_ranks(before))
    #> before DDP, equal on all ranks: False
    print("after DDP, equal on all ranks:", equal_on_all_ranks(after), torch.equal(after[0], before[0]))
    #> after DDP, equal on all ranks: True True
# --8<-- [end:broadcast]

# --8<-- [start:buffers]
import warnings
from contextlib import nullcontext

norm = nn.BatchNorm1d(4).eval()  # eval: forward reads running_mean, does not update it
norm.running_mean.fill_(float(rank))  # before wrapping: each rank's buffer differs
before_wrapping = gather(norm.running_mean[0].item())
ddp_norm = DistributedDataParallel(norm)  # broadcasts rank 0's buffers too
after_wrapping = gather(norm.running_mean[0].item())


def forward_pass(ddp: DistributedDataParallel, context) -> list[float]:
    """Make the ranks' running means differ, run one forward pass, gather them."""
    ddp.module.running_mean.fill_(float(rank))
    with context:
        ddp(torch.ones(2, 4))
    return gather(ddp.module.running_mean[0].item())


# Before a pass, DDP broadcasts rank 0's buffers only if the previous pass (if any) ran
# with autograd on and outside no_sync(); training or eval mode makes no difference.
passes = [("autograd on", nullcontext()), ("no_grad", torch.no_grad()),
          ("autograd on", nullcontext()), ("no_sync", ddp_norm.no_sync()),
          ("autograd on", nullcontext())]
after_passes = [(name, forward_pass(ddp_norm, context)) for name, context in passes]
del ddp_norm  # its reducer holds the process group too


def wrapped_with(**option) -> tuple[list[float], list[str]]:
    """Wrap a BatchNorm whose running mean differs per rank: the means after wrapping, and the
    categories of the warnings that wrapping gave."""
    fresh = nn.BatchNorm1d(4).eval()
    fresh.running_mean.fill_(float(rank))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        wrapped = DistributedDataParallel(fresh, **option)
    del wrapped
    return gather(fresh.running_mean[0].item()), [w.category.__name__ for w in caught]


# Off before forward passes: forward_sync_buffers=False keeps the broadcast at construction,
# the deprecated broadcast_buffers=False skipped it as well.
options = {"forward_sync_buffers=False": wrapped_with(forward_sync_buffers=False),
           "broadcast_buffers=False": wrapped_with(broadcast_buffers=False)}
if rank == 0:
    print("running_mean[0] per rank before wrapping:", before_wrapping, "| after:", after_wrapping)
    #> running_mean[0] per rank before wrapping: [0.0, 1.0] | after: [0.0, 0.0]
    print("\n".join(f"pass {i} ({name}): {values}" for i, (name, values) in enumerate(after_passes, 1)))
    """
    pass 1 (autograd on): [0.0, 0.0]
    pass 2 (no_grad): [0.0, 0.0]
    pass 3 (autograd on): [0.0, 1.0]
    pass 4 (no_sync): [0.0, 0.0]
    pass 5 (autograd on): [0.0, 1.0]
    """
    for option, (values, warned) in options.items():  # running_mean[0] per rank after wrapping
        print(f"{option}: {values}, warnings: {warned}")
        #> forward_sync_buffers=False: [0.0, 0.0], warnings: []
        #> broadcast_buffers=False: [0.0, 1.0], warnings: ['FutureWarning']
# --8<-- [end:buffers]

# --8<-- [start:data]
generator = torch.Generator().manual_seed(0)  # the same dataset on every rank
features = torch.randn(64, 4, generator=generator)
targets = features.sum(dim=1, keepdim=True)
dataset = TensorDataset(features, targets)
sampler = DistributedSampler(dataset, shuffle=True, seed=0)  # a different shard per rank
loader = DataLoader(dataset, batch_size=8, sampler=sampler)
shares = gather(list(sampler))
if rank == 0:
    print(len(sampler), "samples per rank; first indices per rank:", [s[:4] for s in shares])
    #> 32 samples per rank; first indices per rank: [[44, 17, 47, 35], [46, 3, 21, 6]]
    overlap, covered = set(shares[0]) & set(shares[1]), set(shares[0]) | set(shares[1])
    print("shares overlap:", bool(overlap), "| together they cover the dataset:", len(covered) == len(dataset))
    #> shares overlap: False | together they cover the dataset: True
# --8<-- [end:data]

# --8<-- [start:allreduce]
batch, target = next(iter(loader))
loss_fn = nn.MSELoss()
with ddp_model.no_sync():  # backward without synchronising: each rank's own gradient
    loss_fn(ddp_model(batch), target).backward()
local = model[0].weight.grad.clone()
ddp_model.zero_grad()
loss_fn(ddp_model(batch), target).backward()  # DDP all-reduces the gradients, then averages
local_sum = local.clone()
dist.all_reduce(local_sum, op=dist.ReduceOp.SUM)
averaged = gather(torch.equal(model[0].weight.grad, local_sum / world_size))
if rank == 0:
    print("gradient == mean of the ranks' gradients, per rank:", averaged)
    #> gradient == mean of the ranks' gradients, per rank: [True, True]
# --8<-- [end:allreduce]

# --8<-- [start:train]
optimizer = torch.optim.SGD(ddp_model.parameters(), lr=0.05)  # one optimizer per process
for epoch in range(3):
    sampler.set_epoch(epoch)  # a new shuffle each epoch, the same on every rank
    for batch, target in loader:
        optimizer.zero_grad()
        loss = loss_fn(ddp_model(batch), target)
        loss.backward()
        optimizer.step()
    values = gather(parameters_of(model))
    losses = gather(round(loss.item(), 4))
    if rank == 0:
        equal = equal_on_all_ranks(values)
        print(f"epoch {epoch}: parameters equal on all ranks: {equal}; last losses: {losses}")
        #> epoch 0: parameters equal on all ranks: True; last losses: [3.0212, 2.5268]
        #> epoch 1: parameters equal on all ranks: True; last losses: [4.0545, 2.8265]
        #> epoch 2: parameters equal on all ranks: True; last losses: [1.4001, 3.4555]
# --8<-- [end:train]

# --8<-- [start:loss_average]
with torch.no_grad():  # a validation pass over this rank's share of the data
    sums = [loss_fn(model(batch), target) * len(batch) for batch, target in loader]
local_loss = torch.stack(sums).sum() / len(sampler)  # this rank's loss only
mean_loss = local_loss.clone()  # all_reduce overwrites its tensor: reduce a copy
dist.all_reduce(mean_loss, op=dist.ReduceOp.SUM)  # on every rank, or the others wait
mean_loss /= world_size
avg_loss = local_loss.clone()
dist.all_reduce(avg_loss, op=dist.ReduceOp.AVG)  # the same in one call
totals = torch.stack([torch.stack(sums).sum(), torch.tensor(float(len(sampler)))])
dist.all_reduce(totals)  # (sum of losses, samples): right when the ranks' counts differ
per_rank = " ".join(f"{value:.4f}" for value in gather(local_loss.item()))
means = gather(" ".join(f"{t.item():.4f}" for t in (mean_loss, avg_loss, totals[0] / totals[1])))
if rank == 0:
    print(f"printed on rank 0: {local_loss.item():.4f} | each rank's loss: {per_rank}")
    #> printed on rank 0: 0.9646 | each rank's loss: 0.9646 1.9780
    print("mean over ranks (SUM / size, AVG, totals), on each rank:", means)
    """
    mean over ranks (SUM / size, AVG, totals), on each rank: ['1.4713 1.4713 1.4713', '1.4713 1.4713 1.4713']
    """
# --8<-- [end:loss_average]

# --8<-- [start:checkpoint]
import tempfile

folder = tempfile.TemporaryDirectory() if rank == 0 else None
shared = [folder.name if rank == 0 else None]
dist.broadcast_object_list(shared, src=0)  # one folder for every rank, as on one machine
path = os.path.join(shared[0], "checkpoint.pt")
checkpoint = {"model": model.state_dict(), "epoch": 3}


class PausedFile:
    """A file whose writer stops once, partway through torch.save, until rank 1 has loaded
    the path: the moment when two ranks' saves overlap, made the same in every run."""

    def __init__(self, name: str):
        self.file, self.paused = open(name, "wb"), False

    def write(self, data: bytes) -> int:
        written = self.file.write(data)
        if not self.paused and self.file.tell() > 512:
            self.file.flush()
            self.paused = True
            dist.barrier()  # rank 1 loads the file now...
            dist.barrier()  # ...and has loaded it
        return written

    def flush(self) -> None:
        self.file.flush()


# Every rank saves to the same path. Rank 1 is done first and loads the file,
# while rank 0, a little behind, is partway through its own save.
outcome = None
if rank == 0:
    dist.barrier()  # rank 1 has saved
    writer = PausedFile(path)  # opening the file for writing empties it
    torch.save(checkpoint, writer)
    writer.file.close()
else:
    torch.save(checkpoint, path)
    saved = os.path.getsize(path)
    dist.barrier()  # rank 0 starts its save now
    dist.barrier()  # rank 0 is partway through its save
    loading = os.path.getsize(path)
    try:
        torch.load(path)
        outcome = "loaded"
    except RuntimeError as err:
        outcome = f"{type(err).__name__}: {str(err).split('. ')[0]}"
    outcome = f"saved {saved} bytes, found {loading} when loading: {outcome}"
    dist.barrier()
dist.barrier()
outcome = gather(outcome)[1]
if rank == 0:
    print("rank 1:", outcome)
    """
    rank 1: saved 2683 bytes, found 568 when loading: RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory
    """

# The fix: rank 0 alone saves, and a barrier holds the other ranks until the file is complete.
if rank == 0:
    torch.save(checkpoint, path)
dist.barrier()
loaded = torch.load(path)["model"]
same = gather(all(torch.equal(value, model.state_dict()[key]) for key, value in loaded.items()))
dist.barrier()  # every rank has read the file before rank 0 removes the folder
if rank == 0:
    print("loaded checkpoint equals the model, per rank:", same)
    #> loaded checkpoint equals the model, per rank: [True, True]
    folder.cleanup()
# --8<-- [end:checkpoint]

# --8<-- [start:teardown]
import gc

dist.barrier()  # every rank has finished communicating before any rank tears down
del ddp_model  # DDP's reducer holds the process group: release it first
gc.collect()
dist.destroy_process_group()
# --8<-- [end:teardown]
