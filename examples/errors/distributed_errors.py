"""Errors met when setting up torch.distributed, DDP and DataLoader workers, each raised for real.

Run with `python examples/errors/distributed_errors.py`. Every process group here has
one process (world_size=1) and meets through a file in a temporary directory
(`file://` init_method), so the script needs no launcher; the one section about a port in use
binds ports the OS picks, on 127.0.0.1.

The section on CUDA in forked DataLoader workers starts CUDA in this process (or tries to),
which changes torch for the whole process and cannot be undone: every process forked from it
afterwards is refused CUDA. So the test suite runs this script in a process of its own (the
launch line below), and no later example inherits that.
"""
# launch: python 1

# --8<-- [start:not_initialized]
import tempfile

import torch
import torch.distributed as dist
from torch.utils.data import DistributedSampler

calls = {
    "get_rank": dist.get_rank,
    "all_reduce": lambda: dist.all_reduce(torch.ones(2)),
    "DistributedSampler": lambda: DistributedSampler(range(8)),  # no num_replicas, rank
}
for name, call in calls.items():
    try:
        call()
    except ValueError as err:
        print(f"{name}: {type(err).__name__}")
        #> get_rank: ValueError
        #> all_reduce: ValueError
        #> DistributedSampler: ValueError
        message = f"{type(err).__name__}: {err}"
print(message)  # the same message from all three
"""
ValueError: Default process group has not been initialized, please make sure to call init_process_group.
"""

# The fix: start the process group first (torchrun starts the processes; here, one process).
with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    total = torch.ones(2)
    dist.all_reduce(total)
    print(dist.get_rank(), dist.get_world_size(), total, len(DistributedSampler(range(8))))
    #> 0 1 tensor([1., 1.]) 8
    dist.destroy_process_group()
# A sampler given num_replicas= and rank= needs no process group at all.
print(list(DistributedSampler(range(8), num_replicas=2, rank=1, shuffle=False)))
#> [1, 3, 5, 7]
# --8<-- [end:not_initialized]

# --8<-- [start:sync_batchnorm]
from torch import nn

net = nn.Sequential(nn.Conv2d(3, 4, 1), nn.SyncBatchNorm(4))  # as in a multi-GPU config
images = torch.ones(2, 3, 4, 4)
print(dist.is_initialized(), net(images).shape)  # no process group: it runs as BatchNorm
#> False torch.Size([2, 4, 4, 4])
try:
    dist.get_world_size()  # what still needs the group: code that asks it itself
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Default process group has not been initialized, please make sure to call init_process_group.
    """

with tempfile.TemporaryDirectory() as tmp:  # a one-process group, on the CPU
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    try:
        net(images)  # now it synchronises, and only GPU (XPU, ...) inputs are accepted
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        #> ValueError: SyncBatchNorm expected input tensor to be on GPU or XPU or privateuseone
    dist.destroy_process_group()


# The fix for one GPU or the CPU: every SyncBatchNorm back to a BatchNorm, weights kept.
def to_batchnorm(module):
    if isinstance(module, nn.SyncBatchNorm):
        bn = nn.BatchNorm2d(module.num_features, module.eps, module.momentum,
                            module.affine, module.track_running_stats)
        bn.load_state_dict(module.state_dict())
        return bn
    for name, child in module.named_children():
        setattr(module, name, to_batchnorm(child))
    return module


net = to_batchnorm(net)
print(net[1], net(images).shape)
"""
BatchNorm2d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True) torch.Size([2, 4, 4, 4])
"""
# For several GPUs, the other way: nn.SyncBatchNorm.convert_sync_batchnorm(net).
print(type(nn.SyncBatchNorm.convert_sync_batchnorm(net)[1]).__name__)
#> SyncBatchNorm
# --8<-- [end:sync_batchnorm]

# --8<-- [start:env_not_set]
import os

for name in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
    os.environ.pop(name, None)  # as in a plain `python script.py`, without torchrun
try:
    dist.init_process_group("gloo")  # init_method defaults to "env://"
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable RANK expected, but not set
    """

os.environ.update(RANK="0", WORLD_SIZE="1")  # with these set, the next one is missing
try:
    dist.init_process_group("gloo")
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable MASTER_ADDR expected, but not set
    """
for name in ("RANK", "WORLD_SIZE"):
    del os.environ[name]

# The fix: start the script with torchrun, which sets all four variables, or pass
# init_method, rank and world_size yourself.
with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    print(dist.is_initialized(), dist.get_backend())
    #> True gloo
    dist.destroy_process_group()
# --8<-- [end:env_not_set]

# --8<-- [start:address_in_use]
import os
import socket

# A first job's rendezvous store listens on its port (torchrun's default is 29500;
# here a free port the OS picks, so that the example never collides with a real job).
first_job = dist.TCPStore("127.0.0.1", 0, world_size=1, is_master=True, wait_for_workers=False)
taken = first_job.port

# A second job on the same machine, with the same MASTER_PORT:
os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(taken), RANK="0", WORLD_SIZE="1")
try:
    dist.init_process_group("gloo")
except RuntimeError as err:  # DistNetworkError is a RuntimeError
    print(f"{type(err).__name__}: {err}".replace(str(taken), "<port>"))
    """
    DistNetworkError: The server socket has failed to listen on any local network address. port: <port>, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use
    """

# Which port a torchrun command line uses: torchrun's own code, with the launch of the
# processes replaced by a record of the rendezvous it would use.
from unittest import mock

import torch.distributed.run as torchrun

for argv in (
    "--nproc-per-node=1 train.py",  # one machine, no port given: a free port (":0")
    "--nproc-per-node=1 --master-port=29500 train.py",  # a fixed port: clashes
    "--nnodes=2 --nproc-per-node=1 train.py",  # several machines: 29500 by default
    "--nproc-per-node=1 --master-port=29501 train.py",  # the fix: another port
):
    with mock.patch.object(torchrun, "elastic_launch") as launch:
        torchrun.run(torchrun.get_args_parser().parse_args(argv.split()))
    config = launch.call_args.kwargs["config"]
    print(f"{argv:50} {config.rdzv_backend:6} {config.rdzv_endpoint}")
    #> --nproc-per-node=1 train.py                        c10d   localhost:0
    #> --nproc-per-node=1 --master-port=29500 train.py    static 127.0.0.1:29500
    #> --nnodes=2 --nproc-per-node=1 train.py             static 127.0.0.1:29500
    #> --nproc-per-node=1 --master-port=29501 train.py    static 127.0.0.1:29501

import torch.distributed.launch as launcher  # python -m torch.distributed.launch

print(launcher.parse_args(["--master_port=29501", "train.py"]).master_port)
#> 29501

# The same fix where the code sets MASTER_PORT itself: a port no other job uses;
# here one the OS reports free.
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    free = probe.getsockname()[1]
os.environ["MASTER_PORT"] = str(free)
dist.init_process_group("gloo")
print(dist.is_initialized(), free != taken)
#> True True
dist.destroy_process_group()
for name in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE"):
    del os.environ[name]
del first_job
# --8<-- [end:address_in_use]

# --8<-- [start:init_twice]
with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    try:
        dist.init_process_group("gloo", init_method=f"file://{tmp}/again", rank=0, world_size=1)
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        #> ValueError: trying to initialize the default process group twice!

    # The fix: initialise once per process; code that may run twice checks first.
    if not dist.is_initialized():
        dist.init_process_group("gloo", init_method=f"file://{tmp}/again", rank=0, world_size=1)
    print(dist.is_initialized())
    #> True
    dist.destroy_process_group()  # after this, init_process_group may be called again
    print(dist.is_initialized())
    #> False
# --8<-- [end:init_twice]

# --8<-- [start:unused_parameters]
from torch import nn
from torch.nn.parallel import DistributedDataParallel


class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.used = nn.Linear(4, 1)  # parameters 0 and 1
        self.unused = nn.Linear(4, 1)  # parameters 2 and 3: forward never calls it

    def forward(self, x):
        return self.used(x)


with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    model = DistributedDataParallel(TwoHeads())
    model(torch.ones(2, 4)).sum().backward()  # the first step runs
    try:
        model(torch.ones(2, 4))  # the next forward finds the last reduction unfinished
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        """
        RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one. This error indicates that your module has parameters that were not used in producing loss. You can enable unused parameter detection by passing the keyword argument `find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`, and by
        making sure all `forward` function outputs participate in calculating loss.
        If you already have done the above, then the distributed data parallel module wasn't able to locate the output tensors in the return value of your module's `forward` function. Please include the loss function and the structure of the return value of `forward` of your module when reporting this issue (e.g. list, dict, iterable).
        Parameter indices which did not receive grad for rank 0: 2 3
         In addition, you can set the environment variable TORCH_DISTRIBUTED_DEBUG to either INFO or DETAIL to print out information about which particular parameters did not receive gradient on this rank as part of this error
        """
    # The indices at the end count the parameters in named_parameters() order.
    names = [name for name, _ in model.module.named_parameters()]
    print(names[2], names[3])
    #> unused.weight unused.bias

    # The fix: find_unused_parameters=True (or remove the layer forward never uses).
    model = DistributedDataParallel(TwoHeads(), find_unused_parameters=True)
    for _ in range(2):
        model(torch.ones(2, 4)).sum().backward()
    print(model.module.used.weight.grad, model.module.unused.weight.grad)  # None: never used
    #> tensor([[4., 4., 4., 4.]]) None
    dist.destroy_process_group()
# --8<-- [end:unused_parameters]

# --8<-- [start:unused_output]
class WithAux(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Linear(4, 1)  # parameters 0 and 1
        self.aux = nn.Linear(4, 1)  # parameters 2 and 3: an auxiliary head

    def forward(self, x):
        return self.main(x), self.aux(x)  # forward returns both outputs


x = torch.ones(2, 4)
with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    model = DistributedDataParallel(WithAux())
    out, aux = model(x)
    out.sum().backward()  # the loss leaves aux out
    try:
        model(x)
    except RuntimeError as err:
        lines = str(err).splitlines()
        print(f"{type(err).__name__}: {lines[0].split('. ')[0]}.")
        """
        RuntimeError: Expected to have finished reduction in the prior iteration before starting a new one.
        """
        print(next(line for line in lines if line.startswith("Parameter indices")))
        #> Parameter indices which did not receive grad for rank 0: 2 3

    # With find_unused_parameters=True it runs, but the auxiliary head never trains.
    model = DistributedDataParallel(WithAux(), find_unused_parameters=True)
    for _ in range(2):
        out, aux = model(x)
        out.sum().backward()
    print(model.module.aux.weight.grad)
    #> None

    # The fix: every output takes part in the loss (or forward does not return it).
    model = DistributedDataParallel(WithAux())
    for _ in range(2):
        out, aux = model(x)
        (out.sum() + 0.5 * aux.sum()).backward()
    print(model.module.aux.weight.grad)
    #> tensor([[2., 2., 2., 2.]])
    dist.destroy_process_group()
# --8<-- [end:unused_output]

# --8<-- [start:checkpoint_ready_twice]
from torch.utils.checkpoint import checkpoint


class Checkpointed(nn.Module):
    def __init__(self, use_reentrant):
        super().__init__()
        self.stem = nn.Linear(4, 4)  # parameters 0 and 1
        self.block = nn.Linear(4, 4)  # parameters 2 and 3: recomputed in backward
        self.use_reentrant = use_reentrant

    def forward(self, x):
        return checkpoint(self.block, self.stem(x), use_reentrant=self.use_reentrant)


with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    model = DistributedDataParallel(Checkpointed(use_reentrant=True), find_unused_parameters=True)
    try:
        model(torch.ones(2, 4)).sum().backward()
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        """
        RuntimeError: Expected to mark a variable ready only once. This error is caused by one of the following reasons: 1) Use of a module parameter outside the `forward` function. Please make sure model parameters are not shared across multiple concurrent forward-backward passes. or try to use _set_static_graph() as a workaround if this module graph does not change during training loop.2) Reused parameters in multiple reentrant backward passes. For example, if you use multiple `checkpoint` functions to wrap the same part of your model, it would result in the same set of parameters been used by different reentrant backward passes multiple times, and hence marking a variable ready multiple times. DDP does not support such use cases in default. You can try to use _set_static_graph() as a workaround if your module graph does not change over iterations.
        Parameter at index 3 with name block.bias has been marked as ready twice. This means that multiple autograd engine  hooks have fired for this particular parameter during this iteration.
        """

    # The fixes: the non-reentrant checkpoint; or static_graph=True; or no
    # find_unused_parameters when every parameter is used.
    for use_reentrant, options in [
        (False, {"find_unused_parameters": True}),
        (True, {"static_graph": True}),
        (True, {}),
    ]:
        model = DistributedDataParallel(Checkpointed(use_reentrant), **options)
        for _ in range(2):
            model(torch.ones(2, 4)).sum().backward()
        print(use_reentrant, options, model.module.block.bias.grad)
        #> False {'find_unused_parameters': True} tensor([4., 4., 4., 4.])
        #> True {'static_graph': True} tensor([4., 4., 4., 4.])
        #> True {} tensor([4., 4., 4., 4.])
    dist.destroy_process_group()
# --8<-- [end:checkpoint_ready_twice]

# --8<-- [start:module_prefix]
with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    ddp_model = DistributedDataParallel(nn.Linear(2, 1))
    checkpoint = ddp_model.state_dict()  # saved from the DDP wrapper
    print(list(checkpoint))
    #> ['module.weight', 'module.bias']
    try:
        nn.Linear(2, 1).load_state_dict(checkpoint)  # loaded into the plain model
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}".expandtabs(4))  # the message indents with tabs
        """
        RuntimeError: Error(s) in loading state_dict for Linear:
            Missing key(s) in state_dict: "weight", "bias".
            Unexpected key(s) in state_dict: "module.weight", "module.bias".
        """

    # The fix: save ddp_model.module.state_dict(), or strip the prefix when loading.
    print(list(ddp_model.module.state_dict()))
    #> ['weight', 'bias']
    from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present

    consume_prefix_in_state_dict_if_present(checkpoint, "module.")
    print(nn.Linear(2, 1).load_state_dict(checkpoint))
    #> <All keys matched successfully>
    dist.destroy_process_group()
# --8<-- [end:module_prefix]

# --8<-- [start:data_parallel_attribute]
class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.generator = nn.Linear(2, 1)

    def forward(self, x):
        return self.generator(x)

    def train_model(self):  # a method of the model's own
        return "training"


model = nn.DataParallel(Detector())
for name in ("train_model", "generator"):
    try:
        getattr(model, name)
    except AttributeError as err:
        print(f"{type(err).__name__}: {err}")
        #> AttributeError: 'DataParallel' object has no attribute 'train_model'
        #> AttributeError: 'DataParallel' object has no attribute 'generator'

# The fix: the wrapper keeps the model as .module; DDP does the same.
print(model.module.train_model(), model.module.generator)
#> training Linear(in_features=2, out_features=1, bias=True)
with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    ddp_model = DistributedDataParallel(Detector())
    print(hasattr(ddp_model, "train_model"), ddp_model.module.train_model())
    #> False training
    dist.destroy_process_group()
# --8<-- [end:data_parallel_attribute]

# --8<-- [start:no_grad_parameters]
with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    frozen = nn.Linear(4, 2).requires_grad_(False)  # a frozen model, e.g. for evaluation
    try:
        DistributedDataParallel(frozen)
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        """
        RuntimeError: DistributedDataParallel is not needed when a module doesn't have any parameter that requires a gradient.
        """

    # The fix: no DDP for a model that does not train: every process runs it as it is.
    with torch.no_grad():
        print(frozen(torch.zeros(1, 4)).shape)
        #> torch.Size([1, 2])
    # A model that trains only some layers is fine: one trainable parameter is enough.
    frozen.bias.requires_grad_(True)
    print(type(DistributedDataParallel(frozen)).__name__)
    #> DistributedDataParallel
    dist.destroy_process_group()
# --8<-- [end:no_grad_parameters]

# --8<-- [start:device_ids_cpu]
with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    try:
        DistributedDataParallel(nn.Linear(2, 1), device_ids=[0])  # the model is on the CPU
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        """
        ValueError: DistributedDataParallel device_ids and output_device arguments only work with single-device/multiple-device GPU modules or CPU modules, but got device_ids [0], output_device None, and module parameters {device(type='cpu')}.
        """

    # The fix: on the CPU, leave device_ids out (on a GPU: model.to(local_rank) first).
    cpu_model = DistributedDataParallel(nn.Linear(2, 1))
    print(cpu_model.device_ids, next(cpu_model.parameters()).device)
    #> None cpu
    dist.destroy_process_group()
# --8<-- [end:device_ids_cpu]

# --8<-- [start:sampler_rank]
try:
    DistributedSampler(range(8), num_replicas=2, rank=2)  # ranks count from 0
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Invalid rank 2, rank should be in the interval [0, 1]

# The fix: rank is 0 ... num_replicas - 1 (RANK from torchrun, or dist.get_rank()).
print([list(DistributedSampler(range(8), num_replicas=2, rank=r, shuffle=False)) for r in range(2)])
#> [[0, 2, 4, 6], [1, 3, 5, 7]]
# --8<-- [end:sampler_rank]

# --8<-- [start:unknown_backend]
import warnings

with tempfile.TemporaryDirectory() as tmp:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            dist.init_process_group("glo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
        except AssertionError as err:
            print(f"{type(err).__name__}: {err}")
            #> AssertionError: Unknown backend type glo
    for w in caught:
        print(f"{w.category.__name__}: {w.message}")
        """
        UserWarning: Device capability of glo unknown, assuming `cpu` and the current accelerator. You can specify it in `device:backend` format in `init_process_group` call.
        """

# The fix: a backend this build has ("gloo" on the CPU, "nccl" on NVIDIA GPUs).
print(dist.is_backend_available("glo"), dist.is_backend_available("gloo"))
#> False True
# --8<-- [end:unknown_backend]

# --8<-- [start:mpi_not_built]
with tempfile.TemporaryDirectory() as tmp:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            dist.init_process_group("mpi", init_method=f"file://{tmp}/store", rank=0, world_size=1)
        except RuntimeError as err:
            print(f"{type(err).__name__}: {err}")
            """
            RuntimeError: Distributed package doesn't have MPI built in. MPI is only included if you build PyTorch from source on a host that has MPI installed.
            """
    for w in caught:
        print(f"{w.category.__name__}: {w.message}")
        """
        UserWarning: For MPI backend, world_size (1) and rank (0) are ignored since they are assigned by the MPI runtime.
        """

# The fix: pip's torch has no MPI backend; use gloo or nccl (mpi4py can still start the job).
print(dist.is_mpi_available(), dist.is_gloo_available())
#> False True
# --8<-- [end:mpi_not_built]

# --8<-- [start:init_wait_timeout]
from datetime import timedelta

with tempfile.TemporaryDirectory() as tmp:
    try:  # world_size=2, but only this process ever joins
        dist.init_process_group(
            "gloo", init_method=f"file://{tmp}/store", rank=0, world_size=2,
            timeout=timedelta(seconds=1),  # the default waits 30 minutes
        )
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        #> RuntimeError: Wait timeout

# The fix: start as many processes as world_size (torchrun --nproc-per-node=2 starts
# two and sets RANK and WORLD_SIZE); one process alone has world_size=1.
with tempfile.TemporaryDirectory() as tmp:
    dist.init_process_group("gloo", init_method=f"file://{tmp}/store", rank=0, world_size=1)
    print(dist.get_world_size())
    #> 1
    dist.destroy_process_group()
# --8<-- [end:init_wait_timeout]

# --8<-- [start:sampler_shuffle]
from torch.utils.data import DataLoader

data = range(8)
sampler = DistributedSampler(data, num_replicas=2, rank=0)  # shuffles by default
try:
    DataLoader(data, batch_size=2, sampler=sampler, shuffle=True)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: sampler option is mutually exclusive with shuffle

# The fix: leave shuffle out; the sampler shuffles, reseeded each epoch by set_epoch.
loader = DataLoader(data, batch_size=2, sampler=sampler)
for epoch in range(2):
    sampler.set_epoch(epoch)
    print(epoch, [batch.tolist() for batch in loader])
    #> 0 [[4, 7], [2, 1]]
    #> 1 [[5, 2], [7, 1]]
# --8<-- [end:sampler_shuffle]

# --8<-- [start:local_rank_key]
os.environ.pop("LOCAL_RANK", None)  # as in a plain `python train.py`
try:
    local_rank = int(os.environ["LOCAL_RANK"])
except KeyError as err:
    print(f"{type(err).__name__}: {err}")
    #> KeyError: 'LOCAL_RANK'

# The fix: start the script with torchrun, which sets LOCAL_RANK for each process;
# code that must also run as one plain process falls back to 0.
local_rank = int(os.environ.get("LOCAL_RANK", 0))
print(local_rank)
#> 0
# --8<-- [end:local_rank_key]

# --8<-- [start:unrecognized_local_rank]
import argparse
import contextlib
import io

# torch.distributed.launch appends --local-rank=<n> to the script's own arguments.
argv = ["--epochs", "3", "--local-rank=0"]
parser = argparse.ArgumentParser(prog="main")
parser.add_argument("--epochs", type=int)
stderr = io.StringIO()
try:
    with contextlib.redirect_stderr(stderr):
        parser.parse_args(argv)
except SystemExit as exit_status:
    print(stderr.getvalue().splitlines()[-1])
    #> main: error: unrecognized arguments: --local-rank=0
    print(f"exit status {exit_status.code}")
    #> exit status 2

# The fix: accept the argument (both spellings), or start with torchrun and read
# LOCAL_RANK from the environment instead.
parser.add_argument("--local-rank", "--local_rank", type=int, default=0)
print(parser.parse_args(argv))
#> Namespace(epochs=3, local_rank=0)
# --8<-- [end:unrecognized_local_rank]

# --8<-- [start:pickle_local_object]
import pickle

from torch.utils.data import Dataset


def build_dataset():
    class Squares(Dataset):  # defined inside a function
        def __len__(self):
            return 4

        def __getitem__(self, i):
            return i * i

    return Squares()


dataset = build_dataset()
loader = DataLoader(dataset, num_workers=1, multiprocessing_context="spawn")  # as on Windows
with warnings.catch_warnings(record=True):  # DataLoader adds a hint as a warning
    warnings.simplefilter("always")
    try:
        list(loader)
    except AttributeError as err:
        print(f"{type(err).__name__}: {err}")
        #> AttributeError: Can't pickle local object 'build_dataset.<locals>.Squares'


# The fix: define the Dataset at the top level of a module, which pickling finds by name.
class Squares(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return i * i


print(type(pickle.loads(pickle.dumps(Squares()))).__name__)
#> Squares
print([batch.tolist() for batch in DataLoader(Squares(), batch_size=2)])
#> [[0, 1], [4, 9]]
# --8<-- [end:pickle_local_object]

# --8<-- [start:bootstrapping_phase]
import re
import runpy
import subprocess
import sys
from pathlib import Path

# train.py loops over a DataLoader at the top level; its worker starts with spawn, as on
# Windows and macOS.
train = """
from torch.utils.data import DataLoader

loader = DataLoader(range(4), batch_size=2, num_workers=1, multiprocessing_context="spawn")
for batch in loader:
    print(batch.tolist())
"""
with tempfile.TemporaryDirectory() as folder:
    script = Path(folder, "train.py")
    script.write_text(train)
    run = subprocess.run([sys.executable, script], capture_output=True, text=True)  # python train.py
    worker, rest = run.stderr.split("RuntimeError: \n", 1)  # the worker's traceback comes first
    print("RuntimeError:", " ".join(rest.split()).split(". ")[0] + ".")  # its message, on one line
    """
    RuntimeError: An attempt has been made to start a new process before the current process has finished its bootstrapping phase.
    """
    where = re.search(r'train\.py", line (\d+), in <module>\n\s*(.+)', worker)
    print(f"in the worker: train.py, line {where[1]}: {where[2]}")  # it ran the loop again
    #> in the worker: train.py, line 5: for batch in loader:
    print(re.sub(r"\d+", "...", run.stderr.splitlines()[-1]))  # the main process's error, last
    #> RuntimeError: DataLoader worker (pid(s) ...) exited unexpectedly

    # The fix: the code that starts workers goes under if __name__ == "__main__":
    script.write_text("""
from torch.utils.data import DataLoader

if __name__ == "__main__":  # true for `python train.py`, false in its workers
    loader = DataLoader(range(4), batch_size=2, num_workers=1, multiprocessing_context="spawn")
    for batch in loader:
        print(batch.tolist())
""")
    # What a spawned worker runs: multiprocessing imports the script as runpy does here.
    in_worker = runpy.run_path(str(script), run_name="__mp_main__")
    print([name for name in in_worker if not name.startswith("__")])  # no loader, no new process
    #> ['DataLoader']
# --8<-- [end:bootstrapping_phase]

# --8<-- [start:cuda_forked_subprocess]
class OnGPU(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.full((2,), float(i)).cuda()  # moved to the GPU inside the worker


print(torch.backends.cuda.is_built())  # this torch is built with CUDA
#> True
try:
    torch.cuda.init()  # the main process starts CUDA, as model.cuda() does first
except (RuntimeError, AssertionError):
    pass  # this machine has no GPU: the attempt is enough to show the error below
batches = iter(DataLoader(OnGPU(), batch_size=2, num_workers=1))  # workers forked, as on Linux
try:
    next(batches)
except (RuntimeError, AssertionError) as err:
    first, *_, last = str(err).splitlines()
    print(f"{type(err).__name__}: {first}")
    #> RuntimeError: Caught RuntimeError in DataLoader worker process 0.
    print(last)  # the worker's error, the last line of its traceback
    """
    RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method
    """
del batches  # shuts its worker down


# The fix: the Dataset returns CPU tensors; the training loop moves each batch.
class OnCPU(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.full((2,), float(i))


device = "cuda" if torch.cuda.is_available() else "cpu"
for batch in DataLoader(OnCPU(), batch_size=2, num_workers=1):
    batch = batch.to(device)
print(batch.tolist(), batch.device.type == device)
#> [[2.0, 2.0], [3.0, 3.0]] True
# --8<-- [end:cuda_forked_subprocess]

# --8<-- [start:context_already_set]
import torch.multiprocessing as mp

print(mp.get_start_method())  # asking fixes the method for this process
#> fork
try:
    mp.set_start_method("spawn")
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: context has already been set

# The fix: call set_start_method once, first thing under if __name__ == "__main__":,
# or ask for a context where it is needed, without changing the default.
spawn = mp.get_context("spawn")
print(spawn.get_start_method(), mp.get_start_method())
#> spawn fork
mp.set_start_method("spawn", force=True)  # force=True replaces the choice for the whole process
print(mp.get_start_method())
#> spawn
mp.set_start_method("fork", force=True)  # back to the default for the rest of this script
# --8<-- [end:context_already_set]
