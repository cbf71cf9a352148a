"""Saving and loading models: state_dict, checkpoints, torch.save(model) and weights_only.

Run with `python examples/api/save_load.py`. It writes its files into a temporary
directory and removes them. The `#>` lines under each print are the output the
libraries printed when the site was built; the test suite runs this script again
and compares.
"""

# --8<-- [start:model]
import torch
import torch.nn.functional as F
from torch import nn


class SmallCNN(nn.Module):
    """LeNet-style classifier for 3 x 32 x 32 images (the CIFAR-10 size)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, kernel_size=5)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, start_dim=1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


torch.manual_seed(0)
model = SmallCNN()
optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
# --8<-- [end:model]

# --8<-- [start:model_state_dict]
for name, tensor in model.state_dict().items():
    print(f"{name:<12} {tuple(tensor.shape)}")
    #> conv1.weight (6, 3, 5, 5)
    #> conv1.bias   (6,)
    #> conv2.weight (16, 6, 5, 5)
    #> conv2.bias   (16,)
    #> fc1.weight   (120, 400)
    #> fc1.bias     (120,)
    #> fc2.weight   (84, 120)
    #> fc2.bias     (84,)
    #> fc3.weight   (10, 84)
    #> fc3.bias     (10,)
# --8<-- [end:model_state_dict]

# --8<-- [start:optimizer_state_dict]
print(optimizer.state_dict())  # before the first step: no state yet
"""
{'state': {}, 'param_groups': [{'lr': 0.001, 'momentum': 0.9, 'dampening': 0, 'weight_decay': 0, 'nesterov': False, 'maximize': False, 'foreach': None, 'differentiable': False, 'fused': None, 'params': [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]}]}
"""
images, labels = torch.randn(4, 3, 32, 32), torch.tensor([0, 1, 2, 3])
F.cross_entropy(model(images), labels).backward()
optimizer.step()
state = optimizer.state_dict()["state"]
print(len(state), list(state[0]))  # one momentum buffer per parameter, keyed by index
#> 10 ['momentum_buffer']
# --8<-- [end:optimizer_state_dict]

# --8<-- [start:save_state_dict]
import tempfile
from pathlib import Path

workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)

torch.save(model.state_dict(), folder / "weights.pt")
fresh = SmallCNN()  # rebuild the architecture in code, then fill in the weights
print(fresh.load_state_dict(torch.load(folder / "weights.pt")))
#> <All keys matched successfully>
print(torch.equal(fresh.fc3.weight, model.fc3.weight))
#> True
import tarfile
import zipfile

torch.save(model.state_dict(), folder / "weights.tar")  # the name does not choose the format
print(zipfile.is_zipfile(folder / "weights.tar"), tarfile.is_tarfile(folder / "weights.tar"))
#> True False
# --8<-- [end:save_state_dict]

# --8<-- [start:saved_slice]
big = torch.zeros(1000, 1000)  # 4 MB of float32
first_rows = big[:10]  # a view: 40 kB of values, kept in big's storage
torch.save(first_rows, folder / "rows.pt")
print(f"{(folder / 'rows.pt').stat().st_size / 1e6:.2f} MB")  # the whole storage is written
#> 4.00 MB
print(torch.load(folder / "rows.pt").untyped_storage().nbytes())  # and comes back
#> 4000000
torch.save(first_rows.clone(), folder / "rows.pt")  # a copy with a storage of its own
print(f"{(folder / 'rows.pt').stat().st_size / 1e6:.2f} MB")
#> 0.04 MB
torch.save(big.narrow(0, 0, 10), folder / "rows.pt")  # narrow also returns a view
print(f"{(folder / 'rows.pt').stat().st_size / 1e6:.2f} MB")
#> 4.00 MB
# --8<-- [end:saved_slice]

# --8<-- [start:mismatch]
renamed = dict(model.state_dict())
renamed["fc4.bias"] = renamed.pop("fc3.bias")  # one key missing, one unexpected
try:
    SmallCNN().load_state_dict(renamed)  # strict=True by default
except RuntimeError as err:
    print(str(err).expandtabs(4))  # the message indents its lines with a tab
    """
    Error(s) in loading state_dict for SmallCNN:
        Missing key(s) in state_dict: "fc3.bias".
        Unexpected key(s) in state_dict: "fc4.bias".
    """
partial = SmallCNN()
result = partial.load_state_dict(renamed, strict=False)  # loads the keys that match
print(result.missing_keys, result.unexpected_keys)
#> ['fc3.bias'] ['fc4.bias']
print(torch.equal(partial.fc3.weight, model.fc3.weight), torch.equal(partial.fc3.bias, model.fc3.bias))
#> True False
try:
    SmallCNN().load_state_dict({"fc3.weight": torch.zeros(5, 84)}, strict=False)
except RuntimeError as err:
    print(str(err).expandtabs(4))  # a shape mismatch is an error even with strict=False
    """
    Error(s) in loading state_dict for SmallCNN:
        size mismatch for fc3.weight: copying a param with shape torch.Size([5, 84]) from checkpoint, the shape in current model is torch.Size([10, 84]).
    """
# --8<-- [end:mismatch]

# --8<-- [start:prefixes]
import torch.distributed as dist
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present

wrapped = nn.DataParallel(model)
print(list(wrapped.state_dict())[:2])
#> ['module.conv1.weight', 'module.conv1.bias']
# DistributedDataParallel needs a process group: here one process, its store in memory
dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
print(list(nn.parallel.DistributedDataParallel(SmallCNN()).state_dict())[:2])
#> ['module.conv1.weight', 'module.conv1.bias']
dist.destroy_process_group()
compiled = torch.compile(model)  # compiles lazily, on the first call: nothing runs here
print(list(compiled.state_dict())[:2])
#> ['_orig_mod.conv1.weight', '_orig_mod.conv1.bias']
result = SmallCNN().load_state_dict(compiled.state_dict(), strict=False)
print(len(result.missing_keys), len(result.unexpected_keys))  # no key matches
#> 10 10
print(list(wrapped.module.state_dict())[:2])  # the inner model: keys without the prefix
#> ['conv1.weight', 'conv1.bias']
weights = compiled.state_dict()
consume_prefix_in_state_dict_if_present(weights, "_orig_mod.")  # strips it, in place
print(list(weights)[:2], SmallCNN().load_state_dict(weights))
#> ['conv1.weight', 'conv1.bias'] <All keys matched successfully>
# --8<-- [end:prefixes]

# --8<-- [start:checkpoint]
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)


def train_step(net: nn.Module, opt: torch.optim.Optimizer, sched) -> float:
    """One step on a random batch, which stands in for the next batch of real data."""
    images, labels = torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))  # uses the RNG
    opt.zero_grad()
    loss = F.cross_entropy(net(images), labels)
    loss.backward()
    opt.step()
    sched.step()  # here once per step; usually once per epoch
    return loss.item()  # a Python float


epochs_done = 3
for _ in range(epochs_done):
    loss = train_step(model, optimizer, scheduler)
checkpoint = {
    "epochs_done": epochs_done,
    "loss": loss,
    "model": model.state_dict(),
    "optimizer": optimizer.state_dict(),
    "scheduler": scheduler.state_dict(),
    "rng": torch.get_rng_state(),  # on a GPU, also torch.cuda.get_rng_state_all()
}
torch.save(checkpoint, folder / "checkpoint.pt")
go_on = [(train_step(model, optimizer, scheduler), scheduler.get_last_lr()) for _ in range(2)]

# later, in a new process: build everything again, then load the states into it
resumed_model = SmallCNN()
resumed_optimizer = torch.optim.SGD(resumed_model.parameters(), lr=0.001, momentum=0.9)
resumed_scheduler = torch.optim.lr_scheduler.StepLR(resumed_optimizer, step_size=2, gamma=0.5)
loaded = torch.load(folder / "checkpoint.pt")  # weights_only=True: plain data only
resumed_model.load_state_dict(loaded["model"])
resumed_optimizer.load_state_dict(loaded["optimizer"])
resumed_scheduler.load_state_dict(loaded["scheduler"])
torch.set_rng_state(loaded["rng"])  # the same random batches as the run that was saved
resumed_model.train()  # back to training mode before training goes on
print("epochs done:", loaded["epochs_done"], "lr:", resumed_scheduler.get_last_lr())
#> epochs done: 3 lr: [0.0005]
resumed = [
    (
        train_step(resumed_model, resumed_optimizer, resumed_scheduler),
        resumed_scheduler.get_last_lr(),
    )
    for _ in range(2)
]
print("lr:", [lr for _, lr in resumed], "same losses and rates:", resumed == go_on)
#> lr: [[0.00025], [0.00025]] same losses and rates: True
# --8<-- [end:checkpoint]

# --8<-- [start:scheduler_order]
import warnings


def rates_used(scheduler_first: bool) -> list[float]:
    """The learning rate of three optimizer steps, with StepLR halving it after each step."""
    weight = nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([weight], lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    used = []
    for _ in range(3):
        weight.grad = torch.ones(1)
        if scheduler_first:
            sched.step()  # too early
        used.append(opt.param_groups[0]["lr"])
        opt.step()
        if not scheduler_first:
            sched.step()  # after optimizer.step(): the intended order
    return used


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(rates_used(scheduler_first=True))  # the first rate, 0.1, is never used
    #> [0.05, 0.025, 0.0125]
    print(caught[0].category.__name__, str(caught[0].message).split(" See more")[0])
    """
    UserWarning Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value of the learning rate schedule.
    """
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(rates_used(scheduler_first=False), len(caught))  # no warning
    #> [0.1, 0.05, 0.025] 0
# --8<-- [end:scheduler_order]

# --8<-- [start:scaler_skipped_step]
import warnings


def amp_rates(skip_scheduler_on_skip: bool) -> tuple[list[float], list[float], list[str]]:
    """Three steps under a GradScaler; the first gradient overflows once scaled by 65536."""
    torch.manual_seed(0)
    model = nn.Linear(2, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    scaler = torch.amp.GradScaler("cpu")  # torch.amp.GradScaler("cuda") on a GPU
    used, scales = [], []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for loss_factor in (1e34, 1.0, 1.0):  # 1e34 * 65536 is inf in float32
            opt.zero_grad()
            loss = model(torch.ones(4, 2)).sum() * loss_factor
            scaler.scale(loss).backward()
            scale = scaler.get_scale()
            used.append(opt.param_groups[0]["lr"])
            scaler.step(opt)  # skips opt.step() when a gradient is inf or NaN
            scaler.update()  # and then halves the scale
            scales.append(scaler.get_scale())
            if skip_scheduler_on_skip and scaler.get_scale() < scale:
                continue  # the optimizer did not step: neither does the schedule
            sched.step()
    return used, scales, [str(w.message).split(". In")[0] for w in caught]


used, scales, messages = amp_rates(skip_scheduler_on_skip=False)
print("scale after each step:", scales)
#> scale after each step: [32768.0, 32768.0, 32768.0]
print("rates:", used, messages)  # step 1 was skipped: 0.1 was never applied
#> rates: [0.1, 0.05, 0.025] ['Detected call of `lr_scheduler.step()` before `optimizer.step()`']
used, scales, messages = amp_rates(skip_scheduler_on_skip=True)
print("rates:", used, messages)
#> rates: [0.1, 0.1, 0.05] []
# --8<-- [end:scaler_skipped_step]

# --8<-- [start:get_lr]
import warnings

weight = nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([weight], lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.5)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for epoch in range(11):
        if epoch in (4, 5, 6, 10):
            print(epoch, sched.get_lr(), sched.get_last_lr(), opt.param_groups[0]["lr"])
            #> 4 [0.1] [0.1] 0.1
            #> 5 [0.025] [0.05] 0.05
            #> 6 [0.05] [0.05] 0.05
            #> 10 [0.0125] [0.025] 0.025
        weight.grad = torch.ones(1)
        opt.step()
        sched.step()
print({f"{w.category.__name__}: {w.message}" for w in caught})
"""
{'UserWarning: To get the last learning rate computed by the scheduler, please use `get_last_lr()`.'}
"""
# --8<-- [end:get_lr]

# --8<-- [start:checkpoint_objects]
import argparse

import numpy as np

options = argparse.Namespace(lr=0.001, epochs=10)  # what argparse returns
for name, value in [
    ("NumPy number", np.float64(0.5)),
    ("NumPy array", np.zeros(3)),
    ("Namespace", options),
]:
    torch.save({"value": value}, folder / "objects.pt")
    try:
        torch.load(folder / "objects.pt")
    except Exception as err:
        print(f"{name}: {type(err).__name__}: {str(err).split('.')[0]}")
        #> NumPy number: UnpicklingError: Weights only load failed
        #> NumPy array: UnpicklingError: Weights only load failed
        #> Namespace: UnpicklingError: Weights only load failed
torch.save({"loss": np.float64(0.5)}, folder / "numpy.pt")
unsafe = torch.serialization.get_unsafe_globals_in_checkpoint(folder / "numpy.pt")
print(sorted(unsafe))  # NumPy internals, named after NumPy's own modules
#> ['numpy._core.multiarray.scalar', 'numpy.dtype']

plain = {
    "loss": float(np.float64(0.5)),
    "mean": torch.from_numpy(np.zeros(3)),
    "options": vars(options),
}  # a Python number, a tensor, a dict
torch.save(plain, folder / "objects.pt")
print(torch.load(folder / "objects.pt"))
"""
{'loss': 0.5, 'mean': tensor([0., 0., 0.], dtype=torch.float64), 'options': {'lr': 0.001, 'epochs': 10}}
"""
torch.save({"options": options}, folder / "objects.pt")
with torch.serialization.safe_globals([argparse.Namespace]):  # or allow a class you trust
    print(torch.load(folder / "objects.pt"))
    #> {'options': Namespace(lr=0.001, epochs=10)}
# --8<-- [end:checkpoint_objects]

# --8<-- [start:best_model]
import copy

torch.manual_seed(0)
net = nn.Linear(4, 1)
opt = torch.optim.SGD(net.parameters(), lr=0.3)
x_train, y_train = torch.randn(16, 4), torch.randn(16, 1)
x_val, y_val = torch.randn(8, 4), torch.randn(8, 1)


def validation_loss(m: nn.Module) -> float:
    m.eval()
    with torch.no_grad():
        return F.mse_loss(m(x_val), y_val).item()


best_loss = float("inf")
for epoch in range(6):
    net.train()
    opt.zero_grad()
    F.mse_loss(net(x_train), y_train).backward()
    opt.step()
    val_loss = validation_loss(net)
    if val_loss < best_loss:  # what ModelCheckpoint(save_best_only=True) compares
        best_loss, best_epoch = val_loss, epoch
        torch.save(net.state_dict(), folder / "best.pt")  # the file is a snapshot
        best_in_memory = copy.deepcopy(net.state_dict())  # a copy, not references
    print(epoch, round(val_loss, 3), "saved" if best_epoch == epoch else "")
    #> 0 1.852 saved
    #> 1 1.711 saved
    #> 2 1.671 saved
    #> 3 1.664 saved
    #> 4 1.667
    #> 5 1.672

best_net = nn.Linear(4, 1)
best_net.load_state_dict(torch.load(folder / "best.pt"))
print(best_epoch, validation_loss(best_net) == best_loss, validation_loss(net) == best_loss)
#> 3 True False
best_net.load_state_dict(best_in_memory)
print(validation_loss(best_net) == best_loss)
#> True
# --8<-- [end:best_model]

# --8<-- [start:whole_model]
torch.save(model, folder / "whole_model.pt")  # pickles the object, class by name
try:
    torch.load(folder / "whole_model.pt")
except Exception as err:
    lines = [line.strip() for line in str(err).splitlines()]
    print(type(err).__name__)
    #> UnpicklingError
    print(next(line for line in lines if "PyTorch 2.6" in line))  # since when, and why
    """
    (1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.
    """
    print(next(line for line in lines if "Unsupported global" in line))  # what to allow
    """
    WeightsUnpickler error: Unsupported global: GLOBAL __main__.SmallCNN was not an allowed global by default. Please use `torch.serialization.add_safe_globals([__main__.SmallCNN])` or the `torch.serialization.safe_globals([__main__.SmallCNN])` context manager to allowlist this global if you trust this class/function.
    """
# --8<-- [end:whole_model]

# --8<-- [start:many_small_tensors]
import pickle

small = [torch.full((3,), float(i)) for i in range(1000)]  # 1000 tensors of 12 bytes each
print(len(pickle.dumps(small)) // len(small), "bytes per tensor")
#> 298 bytes per tensor
print(len(pickle.dumps([t.numpy() for t in small])) // len(small), "bytes per NumPy array")
#> 42 bytes per NumPy array
stacked = torch.stack(small)  # one (1000, 3) tensor
print(len(pickle.dumps(stacked)) // len(small), "bytes per row of the stacked tensor")
#> 12 bytes per row of the stacked tensor
rows = pickle.loads(pickle.dumps(stacked))
print(all(torch.equal(rows[i], small[i]) for i in range(len(small))))  # the same values
#> True
# --8<-- [end:many_small_tensors]

# --8<-- [start:save_small_slow]
import io
import pickle
import time

torch.manual_seed(0)
tensors = [torch.randn(10) for _ in range(200)]  # small tensors, saved one at a time


def with_torch_save(tensor):
    buffer = io.BytesIO()
    torch.save(tensor, buffer)  # a whole zip archive for each tensor
    buffer.seek(0)
    return torch.load(buffer), buffer.getbuffer().nbytes


def with_pickle_numpy(tensor):
    data = pickle.dumps(tensor.numpy())
    return torch.from_numpy(pickle.loads(data)), len(data)


def with_pickle_tensor(tensor):
    data = pickle.dumps(tensor)
    return pickle.loads(data), len(data)


def stacked_once(tensors):
    buffer = io.BytesIO()
    torch.save(torch.stack(tensors), buffer)  # one archive, one storage record
    buffer.seek(0)
    return torch.load(buffer).unbind(), buffer.getbuffer().nbytes


ways = {
    "torch.save": lambda: [with_torch_save(t) for t in tensors],
    "pickle of NumPy": lambda: [with_pickle_numpy(t) for t in tensors],
    "pickle of tensors": lambda: [with_pickle_tensor(t) for t in tensors],
    "stacked, one torch.save": lambda: stacked_once(tensors),
}
best = dict.fromkeys(ways, float("inf"))
for _ in range(5):  # in turns, keeping each way's fastest round
    for name, run in ways.items():
        start = time.perf_counter()
        run()
        best[name] = min(best[name], time.perf_counter() - start)
print("one tensor of 40 bytes: torch.save", with_torch_save(tensors[0])[1], "bytes, pickle", with_pickle_tensor(tensors[0])[1])
#> one tensor of 40 bytes: torch.save 1577 bytes, pickle 437
print("torch.save slower than pickle of NumPy by more than 5x:", best["torch.save"] > 5 * best["pickle of NumPy"])
#> torch.save slower than pickle of NumPy by more than 5x: True
print("pickle of tensors slower than pickle of NumPy by more than 3x:", best["pickle of tensors"] > 3 * best["pickle of NumPy"])
#> pickle of tensors slower than pickle of NumPy by more than 3x: True
print("stacked, one torch.save faster than torch.save per tensor by more than 20x:", best["torch.save"] > 20 * best["stacked, one torch.save"])
#> stacked, one torch.save faster than torch.save per tensor by more than 20x: True
restored, size = stacked_once(tensors)
print("bytes per tensor, stacked:", size // len(tensors), "| same values:", all(map(torch.equal, restored, tensors)))
#> bytes per tensor, stacked: 47 | same values: True
# --8<-- [end:save_small_slow]

# --8<-- [start:save_file_overhead]
import os
import zipfile

import numpy as np

values = torch.arange(100, dtype=torch.float32)  # 400 bytes of values
torch.save(values, folder / "cache.pt")
print("torch.save:", os.path.getsize(folder / "cache.pt"), "bytes; tobytes:", len(values.numpy().tobytes()))
#> torch.save: 1947 bytes; tobytes: 400
np.save(folder / "cache.npy", values.numpy())
print("np.save:", os.path.getsize(folder / "cache.npy"), "bytes")
#> np.save: 528 bytes
for record in zipfile.ZipFile(folder / "cache.pt").infolist():  # what the archive holds
    print(f"{record.filename:30} {record.file_size:3} bytes")
    #> cache/data.pkl                 150 bytes
    #> cache/.format_version            1 bytes
    #> cache/.storage_alignment         2 bytes
    #> cache/byteorder                  6 bytes
    #> cache/data/0                   400 bytes
    #> cache/version                    2 bytes
    #> cache/.data/serialization_id    40 bytes

rows = [torch.full((100,), float(i)) for i in range(1000)]  # a cache of 1000 such tensors
torch.save(rows, folder / "cache.pt")  # one file, one storage record per tensor
print("list in one torch.save, bytes per tensor:", os.path.getsize(folder / "cache.pt") // len(rows))
#> list in one torch.save, bytes per tensor: 644
torch.save(torch.stack(rows), folder / "cache.pt")  # one (1000, 100) tensor
print("stacked, bytes per tensor:", os.path.getsize(folder / "cache.pt") // len(rows))
#> stacked, bytes per tensor: 401
torch.stack(rows).numpy().tofile(folder / "cache.bin")  # raw bytes: the reader's tobytes
print("raw bytes, bytes per tensor:", os.path.getsize(folder / "cache.bin") // len(rows))
#> raw bytes, bytes per tensor: 400
back = torch.from_numpy(np.fromfile(folder / "cache.bin", dtype=np.float32).reshape(1000, 100))
print("same values:", torch.equal(back, torch.stack(rows)))
#> same values: True
# --8<-- [end:save_file_overhead]

# --8<-- [start:safe_globals]
import pickle

print(sorted(torch.serialization.get_unsafe_globals_in_checkpoint(folder / "whole_model.pt")))
"""
['__main__.SmallCNN', 'torch.nn.modules.conv.Conv2d', 'torch.nn.modules.linear.Linear', 'torch.nn.modules.pooling.MaxPool2d']
"""
allowed = [SmallCNN, nn.Conv2d, nn.MaxPool2d, nn.Linear]
with torch.serialization.safe_globals(allowed):  # inside this block only
    restored = torch.load(folder / "whole_model.pt")
print(type(restored).__name__, torch.equal(restored.fc3.bias, model.fc3.bias))
#> SmallCNN True
torch.serialization.add_safe_globals(allowed)  # from now on, in this whole process
print(type(torch.load(folder / "whole_model.pt")).__name__)
#> SmallCNN
torch.serialization.clear_safe_globals()  # back to the default list
try:
    torch.load(folder / "whole_model.pt")
except Exception as err:
    print(type(err).__name__)  # refused again
    #> UnpicklingError
restored = torch.load(folder / "whole_model.pt", weights_only=False)  # trusted files only
print(type(restored).__name__)
#> SmallCNN
with torch.serialization.safe_globals(allowed):  # the classes allowed, as the reader had them
    try:
        torch.load(folder / "whole_model.pt", pickle_module=pickle, weights_only=True)
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        #> RuntimeError: Can not safely load weights when explicit pickle_module is specified
    print(type(torch.load(folder / "whole_model.pt", weights_only=True)).__name__)  # the fix
    #> SmallCNN
# --8<-- [end:safe_globals]

# --8<-- [start:map_location]
saved_on = set()


def note_location(storage, location):
    """torch.load calls this for each stored tensor, with the device it was saved from."""
    saved_on.add(location)
    return storage  # returned as it is: no move


torch.load(folder / "weights.pt", map_location=note_location)
print(saved_on)  # a tensor saved from the first GPU says 'cuda:0'
#> {'cpu'}
on_cpu = torch.load(folder / "weights.pt", map_location="cpu")  # e.g. saved on a GPU
print(on_cpu["fc3.bias"].device)
#> cpu
shapes_only = torch.load(folder / "weights.pt", map_location="meta")  # no data read
print(shapes_only["fc1.weight"])
#> tensor(..., device='meta', size=(120, 400))
# --8<-- [end:map_location]

# --8<-- [start:map_location_dict]
# A dict maps the device recorded in the file to the device to load onto:
# in DDP, {"cuda:0": f"cuda:{rank}"} sends what was saved from GPU 0 to this rank's GPU
remapped = torch.load(folder / "weights.pt", map_location={"cpu": "meta"})
print(remapped["fc3.bias"].device)
#> meta
unlisted = torch.load(folder / "weights.pt", map_location={"cuda:0": "cuda:1"})
print(unlisted["fc3.bias"].device)  # a device the dict does not name stays where it was
#> cpu
# --8<-- [end:map_location_dict]

# --8<-- [start:map_location_model]
# load_state_dict copies the loaded values into the model's own parameters, which keep
# their device and dtype. On the CPU, a float64 state_dict shows it as another device would.
built = nn.Linear(2, 1)  # built on the CPU, float32
weight = built.weight
loaded = nn.Linear(2, 1).double().state_dict()  # loaded tensors of another dtype
built.load_state_dict(loaded)
print(built.weight is weight, built.weight.dtype, built.weight.device)  # the same parameter
#> True torch.float32 cpu
print(torch.equal(built.weight, loaded["weight"].float()))  # holding the loaded values
#> True
built.to(torch.float64)  # only .to() changes where and how the model keeps them
print(built.weight.dtype)
#> torch.float64
# --8<-- [end:map_location_model]

# --8<-- [start:device_attribute]
class CTRModel(nn.Module):
    """Like DeepCTR's models: the device is kept in a plain attribute, which moves the inputs."""

    def __init__(self, device: str = "cpu") -> None:
        super().__init__()
        self.device = device
        self.linear = nn.Linear(4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x)

    def predict(self, x: torch.Tensor) -> torch.Tensor:
        return self(x.to(self.device))


trained = CTRModel(device="cuda:1")  # trained on the second GPU (its weights: on this CPU here)
torch.save(trained, folder / "ctr_model.pt")  # the whole model, the attribute included
loaded = torch.load(folder / "ctr_model.pt", map_location="cpu", weights_only=False)
print(next(loaded.parameters()).device, loaded.device)  # map_location moves tensors only
#> cpu cuda:1
print(loaded.to("cpu").device)  # .to() moves parameters and buffers, not other attributes
#> cuda:1

# Fix: reset the attribute after loading, or save the state_dict and rebuild on the CPU.
loaded.device = "cpu"
x = torch.ones(2, 4)
print(loaded.predict(x).shape)
#> torch.Size([2, 1])
torch.save(trained.state_dict(), folder / "ctr_weights.pt")
rebuilt = CTRModel(device="cpu")
rebuilt.load_state_dict(torch.load(folder / "ctr_weights.pt", map_location="cpu"))
print(rebuilt.device, torch.equal(rebuilt.predict(x), trained(x)))
#> cpu True
# --8<-- [end:device_attribute]

# --8<-- [start:eval_train]
net = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Dropout(p=0.5))
print(net.training)  # a new module is in training mode
#> True
x = torch.randn(8, 4, generator=torch.Generator().manual_seed(0))
torch.manual_seed(1)
print(torch.equal(net(x), net(x)))  # training: a new dropout mask each call
#> False
weights_before = {key: value.clone() for key, value in net.state_dict().items()}
net.eval()  # sets .training = False on every submodule
print(net[2].training, torch.equal(net(x), net(x)))
#> False True
print(all(torch.equal(value, net.state_dict()[key]) for key, value in weights_before.items()))
#> True
norm, hidden = net[1], net[0](x)  # BatchNorm in eval mode: the running statistics
by_running = (hidden - norm.running_mean) / torch.sqrt(norm.running_var + norm.eps)
print(torch.allclose(norm(hidden), by_running * norm.weight + norm.bias))
#> True
bn = nn.BatchNorm2d(3)
images = torch.randn(8, 3, 4, 4, generator=torch.Generator().manual_seed(0))
bn.train()  # batch statistics: one image alone is normalised by its own mean and variance
print("train:", torch.allclose(bn(images[:1]), bn(images)[:1]))
#> train: False
bn.eval()  # running statistics: the same result alone or in a batch
print("eval:", torch.allclose(bn(images[:1]), bn(images)[:1]))
#> eval: True
print(net(x).requires_grad)  # eval() does not turn off gradient tracking
#> True
with torch.no_grad():
    tracked_in_no_grad = net(x).requires_grad
with torch.inference_mode():
    tracked_in_inference_mode = net(x).requires_grad
print(tracked_in_no_grad, tracked_in_inference_mode)
#> False False
net.train()
print(net[2].training)
#> True
# --8<-- [end:eval_train]

workdir.cleanup()
