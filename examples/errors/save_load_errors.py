"""Errors met when saving and loading tensors, state_dicts and checkpoints.

Run with `python examples/errors/save_load_errors.py`. It writes its files into a
temporary directory and removes them.
"""

# --8<-- [start:weights_only_load_failed]
import pickle
import re
import tempfile
from pathlib import Path

import torch
from torch import nn

workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)

model = nn.Linear(4, 2)
torch.save(model, folder / "model.pt")  # the whole object, pickled
try:
    torch.load(folder / "model.pt")  # weights_only=True by default since 2.6
except pickle.UnpicklingError as err:
    # The message makes one phrase bold with terminal escape codes: drop them, as a
    # terminal does; the lines are indented with tabs.
    message = re.sub(r"\x1b\[\d+m", "", str(err)).expandtabs(4)
    print(f"{type(err).__name__}: {message}")
    """
    UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint.
        (1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.
        (2) Alternatively, to load with `weights_only=True` please check the recommended steps in the following error message.
        WeightsUnpickler error: Unsupported global: GLOBAL torch.nn.modules.linear.Linear was not an allowed global by default. Please use `torch.serialization.add_safe_globals([torch.nn.modules.linear.Linear])` or the `torch.serialization.safe_globals([torch.nn.modules.linear.Linear])` context manager to allowlist this global if you trust this class/function.

    Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.
    """

# The fix: save the state_dict, and build the model in code before loading it.
torch.save(model.state_dict(), folder / "weights.pt")
restored = nn.Linear(4, 2)
print(restored.load_state_dict(torch.load(folder / "weights.pt")))
#> <All keys matched successfully>
# Or, for a file you trust, allow the classes it names.
with torch.serialization.safe_globals([nn.Linear]):
    print(torch.load(folder / "model.pt"))
    #> Linear(in_features=4, out_features=2, bias=True)
# --8<-- [end:weights_only_load_failed]

# --8<-- [start:weights_only_numpy]
import numpy as np

torch.save({"epoch": 3, "loss": np.float64(0.25)}, folder / "checkpoint.pt")
try:
    torch.load(folder / "checkpoint.pt")
except pickle.UnpicklingError as err:
    lines = str(err).splitlines()  # the line that differs from the message above
    line = next(text.strip() for text in lines if "Unsupported global" in text)
    print(f"{type(err).__name__}: {line}")
    """
    UnpicklingError: WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. Please use `torch.serialization.add_safe_globals([numpy._core.multiarray.scalar])` or the `torch.serialization.safe_globals([numpy._core.multiarray.scalar])` context manager to allowlist this global if you trust this class/function.
    """

# The fix: store a Python number (float(x) or x.item()), not a NumPy scalar.
torch.save({"epoch": 3, "loss": float(np.float64(0.25))}, folder / "checkpoint.pt")
print(torch.load(folder / "checkpoint.pt"))
#> {'epoch': 3, 'loss': 0.25}
# --8<-- [end:weights_only_numpy]

# --8<-- [start:weights_only_numpy_load]
torch.save({"epoch": 3, "loss": np.float64(0.25)}, folder / "released.pt")  # not yours to re-save
print(sorted(torch.serialization.get_unsafe_globals_in_checkpoint(folder / "released.pt")))
#> ['numpy._core.multiarray.scalar', 'numpy.dtype']

scalar = np.float64(0).__reduce__()[0]  # NumPy's scalar function, whatever its module
allowed = [
    (scalar, "numpy.core.multiarray.scalar"),  # the name NumPy 1.x writes
    (scalar, "numpy._core.multiarray.scalar"),  # the name NumPy 2 writes
    np.dtype,
    type(np.dtype(np.float64)),  # the dtype's class, numpy.dtypes.Float64DType
]
with torch.serialization.safe_globals(allowed):  # only for a file you trust
    print(torch.load(folder / "released.pt"))
    #> {'epoch': 3, 'loss': np.float64(0.25)}
print(torch.load(folder / "released.pt", weights_only=False))  # runs whatever the file names
#> {'epoch': 3, 'loss': np.float64(0.25)}
# --8<-- [end:weights_only_numpy_load]

# --8<-- [start:weights_only_library]
import os
import warnings


def load_pretrained(path):  # inside a library you cannot edit
    return torch.load(path)


linear = nn.Linear(4, 2)
torch.save({"weights": linear.state_dict(), "hook": linear.forward}, folder / "lib.pt")
try:
    load_pretrained(folder / "lib.pt")  # a method is pickled as getattr(object, name)
except pickle.UnpicklingError as err:
    line = next(text.strip() for text in str(err).splitlines() if "GLOBAL" in text)
    print(f"{type(err).__name__}: {line[: line.index(' Please')]}")
    """
    UnpicklingError: WeightsUnpickler error: Unsupported global: GLOBAL getattr was not an allowed global by default.
    """

# For a file you trust: the variable, set before the library's call (or in the shell).
os.environ["TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"] = "1"
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(sorted(load_pretrained(folder / "lib.pt")))
    #> ['hook', 'weights']
print(f"{caught[0].category.__name__}: {caught[0].message}")
"""
UserWarning: Environment variable TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected, since the`weights_only` argument was not explicitly passed to `torch.load`, forcing weights_only=False.
"""
# A call that passes weights_only=True itself ignores the variable.
try:
    torch.load(folder / "lib.pt", weights_only=True)
except pickle.UnpicklingError as err:
    line = next(text.strip() for text in str(err).splitlines() if "GLOBAL" in text)
    print(f"{type(err).__name__}: {line[: line.index(' Please')]}")
    """
    UnpicklingError: WeightsUnpickler error: Unsupported global: GLOBAL getattr was not an allowed global by default.
    """
del os.environ["TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"]
# --8<-- [end:weights_only_library]

# --8<-- [start:cant_get_attribute]
import sys
import types


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)


class RecorderMeter:  # a helper object, such as a training log
    pass


# Two scripts, each run as __main__: the training script defines the classes, the
# loading script does not.
Net.__module__ = RecorderMeter.__module__ = "__main__"
train_script, load_script = types.ModuleType("__main__"), types.ModuleType("__main__")
train_script.Net, train_script.RecorderMeter = Net, RecorderMeter
real_main = sys.modules["__main__"]
sys.modules["__main__"] = train_script
torch.save(Net(), folder / "net.pt")  # the whole model: pickle names __main__.Net
checkpoint = {"state_dict": Net().state_dict(), "meter": RecorderMeter()}
torch.save(checkpoint, folder / "checkpoint.pt")

sys.modules["__main__"] = load_script
for name in ("net.pt", "checkpoint.pt"):
    try:
        torch.load(folder / name, weights_only=False)
    except AttributeError as err:
        print(f"{type(err).__name__}: {err}")
        #> AttributeError: Can't get attribute 'Net' on <module '__main__'>
        #> AttributeError: Can't get attribute 'RecorderMeter' on <module '__main__'>

# The fix: define (or import) the classes in the loading script, load once, and save
# the state_dict alone: that file needs no class to load.
load_script.Net, load_script.RecorderMeter = Net, RecorderMeter
state = torch.load(folder / "checkpoint.pt", weights_only=False)["state_dict"]
torch.save(state, folder / "state.pt")
sys.modules["__main__"] = real_main
print(Net().load_state_dict(torch.load(folder / "state.pt")))
#> <All keys matched successfully>
# --8<-- [end:cant_get_attribute]

# --8<-- [start:pickle_local_object]
import functools

import torch.nn.functional as F


class LambdaLayer(nn.Module):
    """A layer that applies a function, as CIFAR ResNets write their option-A shortcut."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class BasicBlock(nn.Module):
    def __init__(self, planes):
        super().__init__()
        self.conv = nn.Conv2d(planes // 2, planes, 3, stride=2, padding=1)
        # Option A: halve the image and pad the new channels with zeros, in a lambda.
        pad = planes // 4
        self.shortcut = LambdaLayer(lambda x: F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, pad, pad)))

    def forward(self, x):
        return self.conv(x) + self.shortcut(x)


block = BasicBlock(4)
try:
    torch.save(block, folder / "block.pt")  # the whole model: pickle must store the lambda
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: Can't pickle local object 'BasicBlock.__init__.<locals>.<lambda>'

# The fix: save the state_dict, tensors only, and build the model from its class to load it.
torch.save(block.state_dict(), folder / "block_weights.pt")
restored = BasicBlock(4)
print(restored.load_state_dict(torch.load(folder / "block_weights.pt")))
#> <All keys matched successfully>
x = torch.ones(1, 2, 4, 4)
print(torch.equal(restored(x), block(x)))
#> True


# To save the whole model, give the function a name pickle can find: a module-level function.
def shortcut_a(x, pad):
    return F.pad(x[:, :, ::2, ::2], (0, 0, 0, 0, pad, pad))


block.shortcut = LambdaLayer(functools.partial(shortcut_a, pad=1))
torch.save(block, folder / "block.pt")
print(type(torch.load(folder / "block.pt", weights_only=False)).__name__)  # a file you trust
#> BasicBlock
# --8<-- [end:pickle_local_object]

# --8<-- [start:state_dict_missing_keys]
wrapped = nn.DataParallel(nn.Linear(4, 2))  # DDP and DataParallel add "module."
torch.save(nn.Linear(4, 2).state_dict(), folder / "plain.pt")  # saved from a plain model
try:
    wrapped.load_state_dict(torch.load(folder / "plain.pt"))  # loaded into the wrapper
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).expandtabs(4)}")
    """
    RuntimeError: Error(s) in loading state_dict for DataParallel:
        Missing key(s) in state_dict: "module.weight", "module.bias".
        Unexpected key(s) in state_dict: "weight", "bias".
    """

torch.save(wrapped.state_dict(), folder / "wrapped.pt")  # the other way round
bare = nn.Linear(4, 2)
try:
    bare.load_state_dict(torch.load(folder / "wrapped.pt"))
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).expandtabs(4)}")
    """
    RuntimeError: Error(s) in loading state_dict for Linear:
        Missing key(s) in state_dict: "weight", "bias".
        Unexpected key(s) in state_dict: "module.weight", "module.bias".
    """

# The fix: load into the inner model, wrapped.module; or remove the prefix (or save
# wrapped.module.state_dict() in the first place).
print(wrapped.module.load_state_dict(torch.load(folder / "plain.pt")))
#> <All keys matched successfully>
state = torch.load(folder / "wrapped.pt")
nn.modules.utils.consume_prefix_in_state_dict_if_present(state, "module.")
print(bare.load_state_dict(state))
#> <All keys matched successfully>
# --8<-- [end:state_dict_missing_keys]

# --8<-- [start:state_dict_whole_checkpoint]
net = nn.Linear(4, 2)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
torch.save(
    {"net": net.state_dict(), "optimizer": optimizer.state_dict(), "epoch": 3},
    folder / "training.pt",
)
checkpoint = torch.load(folder / "training.pt")
try:
    net.load_state_dict(checkpoint)  # the whole checkpoint, not the model's entry
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).expandtabs(4)}")
    """
    RuntimeError: Error(s) in loading state_dict for Linear:
        Missing key(s) in state_dict: "weight", "bias".
        Unexpected key(s) in state_dict: "net", "optimizer", "epoch".
    """

# The fix: pass the model's entry; list(checkpoint) shows the keys.
print(list(checkpoint))
#> ['net', 'optimizer', 'epoch']
print(net.load_state_dict(checkpoint["net"]))
#> <All keys matched successfully>
# --8<-- [end:state_dict_whole_checkpoint]

# --8<-- [start:num_batches_tracked]
from collections import OrderedDict


class FrozenBatchNorm2d(nn.Module):
    """A BatchNorm without a num_batches_tracked buffer, like BatchNorm2d before 0.4.1."""

    def __init__(self, channels: int):
        super().__init__()
        for name in ("weight", "bias", "running_mean", "running_var"):
            self.register_buffer(name, torch.ones(channels))


def encoder(norm) -> nn.Sequential:
    return nn.Sequential(OrderedDict(conv1=nn.Conv2d(3, 4, 3), bn1=norm(4)))


released = encoder(nn.BatchNorm2d).state_dict()  # BatchNorm2d since 0.4.1: one more buffer
print([key for key in released if key.startswith("bn1.")])
#> ['bn1.weight', 'bn1.bias', 'bn1.running_mean', 'bn1.running_var', 'bn1.num_batches_tracked']
try:
    encoder(FrozenBatchNorm2d).load_state_dict(released)  # a layer without that buffer
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).expandtabs(4)}")
    """
    RuntimeError: Error(s) in loading state_dict for Sequential:
        Unexpected key(s) in state_dict: "bn1.num_batches_tracked".
    """

# The fix: drop the counters, which the model has no place for...
kept = {k: v for k, v in released.items() if not k.endswith("num_batches_tracked")}
print(encoder(FrozenBatchNorm2d).load_state_dict(kept))
#> <All keys matched successfully>
# ...or strict=False, checking that nothing else is missing or unexpected.
result = encoder(FrozenBatchNorm2d).load_state_dict(released, strict=False)
print(result.missing_keys, [k for k in result.unexpected_keys if "num_batches" not in k])
#> [] []

# The other way round: a plain dict without counters loads into today's BatchNorm2d,
# which starts the counter at 0; a state_dict saved since 0.4.1 with a key deleted does not.
model = encoder(nn.BatchNorm2d)
print(model.load_state_dict(kept), model.bn1.num_batches_tracked)
#> <All keys matched successfully> tensor(0)
trimmed = encoder(nn.BatchNorm2d).state_dict()
del trimmed["bn1.num_batches_tracked"]  # keeps the version recorded in the state_dict
try:
    encoder(nn.BatchNorm2d).load_state_dict(trimmed)
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).expandtabs(4)}")
    """
    RuntimeError: Error(s) in loading state_dict for Sequential:
        Missing key(s) in state_dict: "bn1.num_batches_tracked".
    """
print(list(nn.BatchNorm2d(4, track_running_stats=False).state_dict()))  # no statistics at all
#> ['weight', 'bias']
# --8<-- [end:num_batches_tracked]

# --8<-- [start:state_dict_size_mismatch]
def classifier(classes):
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, classes))


torch.save(classifier(10).state_dict(), folder / "ten_classes.pt")
model = classifier(3)  # the same body, a head for 3 classes instead of 10
try:
    model.load_state_dict(torch.load(folder / "ten_classes.pt"))
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).expandtabs(4)}")
    """
    RuntimeError: Error(s) in loading state_dict for Sequential:
        size mismatch for 2.weight: copying a param with shape torch.Size([10, 8]) from checkpoint, the shape in current model is torch.Size([3, 8]).
        size mismatch for 2.bias: copying a param with shape torch.Size([10]) from checkpoint, the shape in current model is torch.Size([3]).
    """

# strict=False tolerates missing and unexpected keys, not a changed shape.
try:
    model.load_state_dict(torch.load(folder / "ten_classes.pt"), strict=False)
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[1].strip()}")
    """
    RuntimeError: size mismatch for 2.weight: copying a param with shape torch.Size([10, 8]) from checkpoint, the shape in current model is torch.Size([3, 8]).
    """

# The fix (fine-tuning): leave out the entries whose shape changed, load the rest.
state = torch.load(folder / "ten_classes.pt")
own = model.state_dict()
kept = {key: value for key, value in state.items() if value.shape == own[key].shape}
result = model.load_state_dict(kept, strict=False)
print(sorted(kept), result.missing_keys)
#> ['0.bias', '0.weight'] ['2.weight', '2.bias']
# --8<-- [end:state_dict_size_mismatch]

# --8<-- [start:cuda_deserialize]
from unittest import mock

# Stand-ins, so that this runs the same on every machine: a file saved from a GPU
# (its tensors are recorded as 'cuda:0'), loaded on a machine without one.
with mock.patch("torch.serialization.location_tag", return_value="cuda:0"):
    torch.save({"weight": torch.ones(2)}, folder / "from_gpu.pt")
with mock.patch("torch.cuda.is_available", return_value=False):
    try:
        torch.load(folder / "from_gpu.pt")
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        """
        RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
        """

    # The fix: map_location puts the tensors on a device this machine has.
    print(torch.load(folder / "from_gpu.pt", map_location="cpu"))
    #> {'weight': tensor([1., 1.])}
    state = torch.load(folder / "from_gpu.pt", map_location=torch.device("cpu"))  # the same
    print(state["weight"].device)
    #> cpu
# --8<-- [end:cuda_deserialize]

# --8<-- [start:cuda_deserialize_which_torch]
import os

# Run these lines in the script that fails, in the same environment and the same way
# (the same interpreter, launcher and environment variables): they say what torch.load sees.
# Add print(torch.cuda.is_available()) there: the check torch.load makes.
print(torch.__version__, torch.backends.cuda.is_built(), torch.version.cuda)
#> 2.15.0+cu132 True 13.2
print("GPUs hidden:", os.environ.get("CUDA_VISIBLE_DEVICES") in ("", "-1"))
#> GPUs hidden: False
# --8<-- [end:cuda_deserialize_which_torch]

# --8<-- [start:cuda_getdevice]
# torch._C has _cuda_getDevice only in a CUDA build (torch.version.cuda is None in a
# CPU-only one); older torch.load called it to restore a CUDA storage.
print(hasattr(torch._C, "_cuda_getDevice") == (torch.version.cuda is not None))
#> True

# The fix in every version: map_location. The older spellings still work.
with mock.patch("torch.serialization.location_tag", return_value="cuda:0"):
    torch.save({"weight": torch.ones(2)}, folder / "from_gpu.pt")
with mock.patch("torch.cuda.is_available", return_value=False):
    state = torch.load(folder / "from_gpu.pt", map_location=lambda storage, loc: storage)
    print(state["weight"].device)
    #> cpu
    state = torch.load(folder / "from_gpu.pt", map_location={"cuda:0": "cpu"})
    print(state["weight"].device)
    #> cpu
# --8<-- [end:cuda_getdevice]

# --8<-- [start:map_location_load_state_dict]
model = torch.nn.Linear(2, 1, bias=False)
with mock.patch("torch.serialization.location_tag", return_value="cuda:0"):
    torch.save(model.state_dict(), folder / "model_from_gpu.pt")
with mock.patch("torch.cuda.is_available", return_value=False):
    try:  # torch.load runs first, without map_location
        model.load_state_dict(torch.load(folder / "model_from_gpu.pt"), map_location="cpu")
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        """
        RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
        """
    try:  # even with a state_dict that loaded
        model.load_state_dict(model.state_dict(), map_location="cpu")
    except TypeError as err:
        print(f"{type(err).__name__}: {err}")
        #> TypeError: Module.load_state_dict() got an unexpected keyword argument 'map_location'

    # The fix: map_location goes to torch.load.
    print(model.load_state_dict(torch.load(folder / "model_from_gpu.pt", map_location="cpu")))
    #> <All keys matched successfully>
# --8<-- [end:map_location_load_state_dict]

# --8<-- [start:pickle_dumps_map_location]
import io

with mock.patch("torch.serialization.location_tag", return_value="cuda:0"):
    blob = pickle.dumps({"weight": torch.ones(2)})  # pickled on the GPU machine
with mock.patch("torch.cuda.is_available", return_value=False):
    try:  # map_location cannot reach tensors inside plain pickle bytes
        torch.load(io.BytesIO(blob), map_location="cpu", weights_only=False)
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        """
        RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
        """

# The fix: save with torch.save (into a file or a buffer); then map_location applies.
with mock.patch("torch.serialization.location_tag", return_value="cuda:0"):
    buffer = io.BytesIO()
    torch.save({"weight": torch.ones(2)}, buffer)
with mock.patch("torch.cuda.is_available", return_value=False):
    buffer.seek(0)
    print(torch.load(buffer, map_location="cpu"))
    #> {'weight': tensor([1., 1.])}
# --8<-- [end:pickle_dumps_map_location]

# --8<-- [start:truncated_checkpoint]
torch.save(nn.Linear(4, 2).state_dict(), folder / "weights.pt")
complete = (folder / "weights.pt").read_bytes()
(folder / "copied.pt").write_bytes(complete[: len(complete) // 2])  # a copy cut short
try:
    torch.load(folder / "copied.pt")
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory. This is an internal miniz error. If you are seeing this error, there is a high likelihood that your checkpoint file is corrupted. This can happen if the checkpoint was not saved properly, was transferred incorrectly, or the file was modified after saving.
    """

# The fix: copy the file again. Save to a temporary name and rename it when complete;
# os.replace swaps the file in one step, so a save cut short leaves the old file in place.
import os

torch.save(nn.Linear(4, 2).state_dict(), folder / "weights.pt.tmp")
os.replace(folder / "weights.pt.tmp", folder / "weights.pt")
print(sorted(torch.load(folder / "weights.pt")))
#> ['bias', 'weight']
# --8<-- [end:truncated_checkpoint]

# --8<-- [start:ran_out_of_input]
(folder / "empty.pt").touch()  # a download that wrote nothing, a placeholder
for weights_only in (False, True):
    try:
        torch.load(folder / "empty.pt", weights_only=weights_only)
    except EOFError as err:
        print(f"{type(err).__name__}: {err}")
        #> EOFError: Ran out of input
        #> EOFError:

# The fix: check the file's size (a checkpoint is never empty), then fetch it again.
print(os.path.getsize(folder / "empty.pt"), os.path.getsize(folder / "weights.pt") > 0)
#> 0 True
# --8<-- [end:ran_out_of_input]

# --8<-- [start:unsupported_operand]
np.save(folder / "features.npy", np.arange(3.0))  # a NumPy file, not a torch one
try:
    torch.load(folder / "features.npy")
except pickle.UnpicklingError as err:
    print(f"{type(err).__name__}: {err}")
    """
    UnpicklingError: Weights only load failed. In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.
    Please file an issue with the following so that we can make `weights_only=True` compatible with your use case: WeightsUnpickler error:

    Unsupported operand 147

    Check the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.
    """

try:
    torch.load(folder / "features.npy", weights_only=False)  # not the cause: fails too
except pickle.UnpicklingError as err:
    print(f"{type(err).__name__}: {err}")
    #> UnpicklingError: unpickling stack underflow
# Byte 147 (0x93) is the first byte of every .npy file.
print((folder / "features.npy").read_bytes()[:6], 0x93)
#> b'\x93NUMPY' 147

# The fix: read it with the library that wrote it, then convert.
print(torch.from_numpy(np.load(folder / "features.npy")))
#> tensor([0., 1., 2.], dtype=torch.float64)
# --8<-- [end:unsupported_operand]

# --8<-- [start:state_dict_not_dict]
model = nn.Linear(4, 2)
torch.save(model.state_dict(), folder / "weights.pt")
try:
    model.load_state_dict(str(folder / "weights.pt"))  # a path, not a state_dict
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Expected state_dict to be dict-like, got <class 'str'>.

# The fix: torch.load reads the file; load_state_dict takes what it returns.
print(model.load_state_dict(torch.load(folder / "weights.pt")))
#> <All keys matched successfully>
# --8<-- [end:state_dict_not_dict]

# --8<-- [start:allow_pickle]
labels = np.array([{"name": "cat"}, {"name": "dog"}], dtype=object)  # Python objects
np.save(folder / "labels.npy", labels)  # saving pickles them
try:
    np.load(folder / "labels.npy")
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Object arrays cannot be loaded when allow_pickle=False

# The fix, for a file you trust: allow_pickle=True (unpickling can run any code).
print(np.load(folder / "labels.npy", allow_pickle=True))
#> [{'name': 'cat'} {'name': 'dog'}]
# --8<-- [end:allow_pickle]

# --8<-- [start:state_dict_no_eval]
torch.save(nn.Linear(4, 2).state_dict(), folder / "weights.pt")  # a state_dict, not a model
loaded = torch.load(folder / "weights.pt")
print(type(loaded).__name__, list(loaded))
#> OrderedDict ['weight', 'bias']
try:
    loaded.eval()
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: 'collections.OrderedDict' object has no attribute 'eval'

# The fix: build the model in code, then load the weights into it.
model = nn.Linear(4, 2)
print(model.load_state_dict(loaded))
#> <All keys matched successfully>
print(model.eval())
#> Linear(in_features=4, out_features=2, bias=True)
# --8<-- [end:state_dict_no_eval]

# --8<-- [start:state_dict_not_callable]
loaded = torch.load(folder / "weights.pt")
try:
    loaded(torch.ones(1, 4))  # a dict of tensors cannot run a forward pass
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: 'collections.OrderedDict' object is not callable

# The fix: the model runs; the state_dict only fills it.
model = nn.Linear(4, 2)
model.load_state_dict(loaded)
print(model(torch.ones(1, 4)).shape)
#> torch.Size([1, 2])
# --8<-- [end:state_dict_not_callable]

# --8<-- [start:state_dict_no_to]
loaded = torch.load(folder / "weights.pt")
try:
    loaded.to("cpu")  # as if it were the model
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: 'collections.OrderedDict' object has no attribute 'to'

# The fix: move the model; map_location moves the loaded tensors themselves.
model = nn.Linear(4, 2)
model.load_state_dict(torch.load(folder / "weights.pt", map_location="cpu"))
print(next(model.to("cpu").parameters()).device)
#> cpu
# --8<-- [end:state_dict_no_to]

# --8<-- [start:optimizer_group_size]
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
optimizer = torch.optim.Adam(model.parameters())
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, folder / "ckpt.pt")
checkpoint = torch.load(folder / "ckpt.pt")
print([len(group["params"]) for group in checkpoint["optimizer"]["param_groups"]])
#> [4]

# Resumed with another set of parameters: only the last layer is trained now.
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
optimizer = torch.optim.Adam(model[2].parameters())
print([len(group["params"]) for group in optimizer.param_groups])
#> [2]
try:
    optimizer.load_state_dict(checkpoint["optimizer"])
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: loaded state dict contains a parameter group that doesn't match the size of optimizer's group
    """

# The fix: build the optimizer over the same parameters, in the same order, as when saving.
model.load_state_dict(checkpoint["model"])
optimizer = torch.optim.Adam(model.parameters())
optimizer.load_state_dict(checkpoint["optimizer"])
print(len(optimizer.state_dict()["param_groups"][0]["params"]))
#> 4
# --8<-- [end:optimizer_group_size]

# --8<-- [start:optimizer_group_count]
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
groups = [
    {"params": model[0].parameters(), "lr": 1e-4},  # the body, slowly
    {"params": model[2].parameters(), "lr": 1e-3},  # the head
]
torch.save(torch.optim.SGD(groups).state_dict(), folder / "optimizer.pt")
try:
    torch.optim.SGD(model.parameters(), lr=1e-3).load_state_dict(torch.load(folder / "optimizer.pt"))
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: loaded state dict has a different number of parameter groups

# The fix: the same groups as when saving; their learning rates come from the file.
optimizer = torch.optim.SGD(
    [{"params": model[0].parameters()}, {"params": model[2].parameters()}], lr=0.1
)
optimizer.load_state_dict(torch.load(folder / "optimizer.pt"))
print([group["lr"] for group in optimizer.param_groups])
#> [0.0001, 0.001]
# --8<-- [end:optimizer_group_count]

# --8<-- [start:optimizer_param_groups]
model = nn.Linear(4, 2)
optimizer = torch.optim.Adam(model.parameters())
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, folder / "ckpt.pt")
checkpoint = torch.load(folder / "ckpt.pt")
try:
    optimizer.load_state_dict(checkpoint)  # the whole checkpoint, not its optimizer entry
except KeyError as err:
    print(f"{type(err).__name__}: {err}")
    #> KeyError: 'param_groups'
print(list(checkpoint), list(checkpoint["optimizer"]))
#> ['model', 'optimizer'] ['state', 'param_groups']

# The fix: pass the optimizer's own state_dict.
optimizer.load_state_dict(checkpoint["optimizer"])
print(optimizer.param_groups[0]["lr"])
#> 0.001
# --8<-- [end:optimizer_param_groups]

# --8<-- [start:invalid_load_key]
# What a clone without Git LFS leaves in place of the weights: a small text file.
pointer = "version https://git-lfs.github.com/spec/v1\noid sha256:0000\nsize 1048576\n"
(folder / "vae.pt").write_text(pointer)
try:
    torch.load(folder / "vae.pt", weights_only=False)
except pickle.UnpicklingError as err:
    print(f"{type(err).__name__}: {err}")
    #> UnpicklingError: invalid load key, 'v'.
print((folder / "vae.pt").stat().st_size, (folder / "vae.pt").read_bytes()[:7])
#> 72 b'version'
try:  # with the default weights_only=True
    torch.load(folder / "vae.pt")
except pickle.UnpicklingError as err:
    print(next(line for line in str(err).splitlines() if line.startswith("Unsupported")))
    #> Unsupported operand 118
(folder / "page.pt").write_text("<!DOCTYPE html><html></html>")  # a web page saved instead
try:
    torch.load(folder / "page.pt", weights_only=False)
except pickle.UnpicklingError as err:
    print(f"{type(err).__name__}: {err}")
    #> UnpicklingError: invalid load key, '<'.

# The fix: fetch the real file (git lfs pull); a checkpoint starts like a zip archive.
torch.save(nn.Linear(4, 2).state_dict(), folder / "vae.pt")
print((folder / "vae.pt").read_bytes()[:2], sorted(torch.load(folder / "vae.pt")))
#> b'PK' ['bias', 'weight']
# --8<-- [end:invalid_load_key]

# --8<-- [start:parent_directory]
import os

start = os.getcwd()
os.chdir(folder)  # relative paths, as in a training script
try:
    torch.save(nn.Linear(4, 2).state_dict(), "ckpts/model.pt")
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Parent directory ckpts does not exist.

# The fix: create the directory first; torch.save does not.
os.makedirs("ckpts", exist_ok=True)
torch.save(nn.Linear(4, 2).state_dict(), "ckpts/model.pt")
print(sorted(torch.load("ckpts/model.pt")))
#> ['bias', 'weight']
os.chdir(start)
# --8<-- [end:parent_directory]

# --8<-- [start:keras_unknown_layer]
import keras


class TrigPosEmbedding(keras.layers.Layer):  # a custom layer, not registered with Keras
    def call(self, x):
        positions = keras.ops.arange(keras.ops.shape(x)[1], dtype="float32")
        return x + keras.ops.sin(positions)[:, None]


model = keras.Sequential([keras.Input((3, 2)), TrigPosEmbedding()])
model.save(folder / "model.h5")  # the legacy HDF5 format
model.save(folder / "model.keras")  # Keras 3's format
try:
    keras.models.load_model(folder / "model.h5")
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Unknown layer: 'TrigPosEmbedding'. Please ensure you are using a `keras.utils.custom_object_scope` and that this object is included in the scope. See https://www.tensorflow.org/guide/keras/save_and_serialize#registering_the_custom_object for details.
    """
try:
    keras.models.load_model(folder / "model.keras")
except TypeError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
    """
    TypeError: <class 'keras.src.models.sequential.Sequential'> could not be deserialized properly. Please ensure that components that are Python object instances (layers, models, etc.) returned by `get_config()` are explicitly deserialized in the model's `from_config()` method.
    """
    message = " ".join(str(err).split())  # the lines between print the model's config
    print(message[message.index("Exception encountered") : message.index(" Full object config")])
    """
    Exception encountered: Could not locate class 'TrigPosEmbedding'. Make sure custom classes and functions are decorated with `@keras.saving.register_keras_serializable()`. If they are already decorated, make sure they are all imported so that the decorator is run before trying to load them.
    """

# The fix: name the class when loading (or register it, see the topic page).
for name in ["model.h5", "model.keras"]:
    loaded = keras.models.load_model(folder / name, custom_objects={"TrigPosEmbedding": TrigPosEmbedding})
    print(name, type(loaded.layers[0]).__name__)
    #> model.h5 TrigPosEmbedding
    #> model.keras TrigPosEmbedding
# --8<-- [end:keras_unknown_layer]

# --8<-- [start:keras_subclassed_h5]
import keras
import numpy as np


class CustomModel(keras.Model):  # a subclassed model, as in the reader's report
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)


x = np.ones((4, 2), dtype="float32")
model = CustomModel()
model.compile(loss="mse", metrics=["mae"])
model(x)  # builds it, as training would
model.save(folder / "custom.h5")  # no error when saving
with_class = {"custom_objects": {"CustomModel": CustomModel}}
for kwargs in [{}, with_class, {**with_class, "compile": False}]:
    try:
        keras.models.load_model(folder / "custom.h5", **kwargs)
    except ValueError as err:
        print(f"{type(err).__name__}: {str(err).split('. Please')[0]}")
        """
        ValueError: Unknown layer: 'CustomModel'
        ValueError: Layer count mismatch when loading weights from file. Model expected 0 layers, found 1 saved layers.
        ValueError: Layer count mismatch when loading weights from file. Model expected 0 layers, found 1 saved layers.
        """

# The fix: the .keras format (with the class), or the weights alone into a built model.
model.save(folder / "custom.keras")
loaded = keras.models.load_model(folder / "custom.keras", custom_objects={"CustomModel": CustomModel})
print(type(loaded).__name__, np.allclose(loaded(x), model(x)))
#> CustomModel True
# --8<-- [end:keras_subclassed_h5]

# --8<-- [start:keras_custom_objects_name]
import json

import keras


@keras.saving.register_keras_serializable(package="my_package")
class MyLayer(keras.layers.Layer):
    def call(self, x):
        return x * 2.0


model = keras.Sequential([keras.Input((2,)), MyLayer()])
model.save(folder / "mylayer.h5")
config = json.loads(model.to_json())["config"]["layers"][1]
print(config["class_name"], config["registered_name"])  # the name the file keeps
#> MyLayer my_package>MyLayer
keras.saving.get_custom_objects().pop("my_package>MyLayer")  # as in a process that did not import it
try:
    keras.models.load_model(folder / "mylayer.h5", custom_objects={"MyLayer": MyLayer})
except ValueError as err:
    print(f"{type(err).__name__}: {str(err).split('. Please')[0]}")
    #> ValueError: Unknown layer: 'my_package>MyLayer'

# The fix: the key the message names (or import the module that registers the class).
loaded = keras.models.load_model(folder / "mylayer.h5", custom_objects={"my_package>MyLayer": MyLayer})
print(type(loaded.layers[0]).__name__)
#> MyLayer
with keras.saving.custom_object_scope({"my_package>MyLayer": MyLayer}):  # model_from_json too
    print(type(keras.models.model_from_json(model.to_json()).layers[0]).__name__)
    #> MyLayer
# --8<-- [end:keras_custom_objects_name]

# --8<-- [start:keras_custom_loss]
import keras
import numpy as np


class SSD_Loss:  # the reader's loss: a method of an object
    def __init__(self, weight=1.0):
        self.weight = weight

    def compute_loss(self, y_true, y_pred):
        return self.weight * keras.ops.mean((y_true - y_pred) ** 2)


x = np.ones((4, 2), dtype="float32")
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss=SSD_Loss().compute_loss)
model.save(folder / "loss.h5")
model.save(folder / "loss.keras")
try:
    keras.models.load_model(folder / "loss.h5")
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: string indices must be integers, not 'str'
try:
    keras.models.load_model(folder / "loss.keras", custom_objects={"compute_loss": SSD_Loss().compute_loss})
except TypeError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
    #> TypeError: Expected 'config' to be a dict for method,

# The fix: compile=False (for inference, or compile again), or name the loss in custom_objects.
for name in ["loss.h5", "loss.keras"]:
    loaded = keras.models.load_model(folder / name, compile=False)
    print(name, loaded.compiled, np.allclose(loaded(x), model(x)))
    #> loss.h5 False True
    #> loss.keras False True
loaded.compile(optimizer="sgd", loss=SSD_Loss().compute_loss)  # to train on
loaded = keras.models.load_model(folder / "loss.h5", custom_objects={"compute_loss": SSD_Loss().compute_loss})
print(loaded.loss.__name__)
#> compute_loss


def compute_loss(y_true, y_pred):  # a plain function: .keras names it too
    return keras.ops.mean((y_true - y_pred) ** 2)


model.compile(optimizer="sgd", loss=compute_loss)
model.save(folder / "function.keras")
try:
    keras.models.load_model(folder / "function.keras")
except TypeError as err:
    print(f"{type(err).__name__}: {str(err).split(' Make sure')[0]}")
    #> TypeError: Could not locate function 'compute_loss'.
loaded = keras.models.load_model(folder / "function.keras", custom_objects={"compute_loss": compute_loss})
print(loaded.loss.__name__)
#> compute_loss
# --8<-- [end:keras_custom_loss]

# --8<-- [start:keras_checkpoint_filepath]
import keras

try:
    keras.callbacks.ModelCheckpoint("Model_ckpt.ckpt", save_best_only=True)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: The filepath provided must end in `.keras` (Keras model format). Received: filepath=Model_ckpt.ckpt
    """
try:
    keras.callbacks.ModelCheckpoint("Model_ckpt.h5", save_weights_only=True)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided must end in `.weights.h5` (Keras weights format). Received: filepath=Model_ckpt.h5
    """

# The fix: a .keras file for the whole model, a .weights.h5 file for the weights alone.
for callback in [
    keras.callbacks.ModelCheckpoint("Model_ckpt.keras", save_best_only=True),
    keras.callbacks.ModelCheckpoint("Model_ckpt.weights.h5", save_weights_only=True),
    keras.callbacks.ModelCheckpoint("Model_ckpt.h5", save_best_only=True),  # the reader's line
]:
    print(callback.filepath, callback.save_weights_only)
    #> Model_ckpt.keras False
    #> Model_ckpt.weights.h5 True
    #> Model_ckpt.h5 False
# --8<-- [end:keras_checkpoint_filepath]

# --8<-- [start:keras_layer_count]
import warnings

import keras
import numpy as np


class Net(keras.Model):  # a subclassed model: its layer makes its weights at the first call
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)


x = np.ones((1, 2), dtype="float32")
keras.utils.set_random_seed(0)
trained = Net()
print(np.round(trained(x).numpy(), 4))
#> [[-0.4957]]
trained.save(folder / "net.h5")  # a legacy HDF5 file, the format of Keras 2's .h5 files
trained.save_weights(folder / "net.weights.h5")  # Keras 3's weights file
try:
    Net().load_weights(folder / "net.h5")  # a new model: no weights yet
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Layer count mismatch when loading weights from file. Model expected 0 layers, found 1 saved layers.
    """
try:
    Net().load_weights(folder / "net.weights.h5")
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: You are loading weights into a model that has not yet been built. Try building the model first by calling it on some data or by using `build()`.
    """

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    empty = Net(name="empty")
    empty.build((None, 2))  # what the message suggests: it builds nothing here
    empty.load_weights(folder / "net.weights.h5")  # no error: nothing to load into
print(f"{caught[0].category.__name__}: {caught[0].message}")
"""
UserWarning: `build()` was called on layer 'empty', however the layer does not have a `build()` method implemented and it looks like it has unbuilt state. This will cause the layer to be marked as built, despite not being actually built, which may cause failures down the line. Make sure to implement a proper `build()` method.
"""
print(np.round(empty(x).numpy(), 4))  # random weights, not the saved ones
#> [[0.2341]]

# The fix: call the model on a batch, so that its weights exist, then load.
for name in ["net.h5", "net.weights.h5"]:
    new = Net()
    new(x)
    new.load_weights(folder / name)
    print(name, np.round(new(x).numpy(), 4))
    #> net.h5 [[-0.4957]]
    #> net.weights.h5 [[-0.4957]]
# --8<-- [end:keras_layer_count]

# --8<-- [start:keras_savedmodel]
import os

import keras
import numpy as np

model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
start = os.getcwd()
os.chdir(folder)  # relative paths, as in the reader's project
model.export("segmenter", verbose=False)  # a SavedModel folder, as Keras 2's model.save wrote
print(sorted(os.listdir("segmenter")))
#> ['assets', 'fingerprint.pb', 'saved_model.pb', 'variables']
try:
    keras.models.load_model("segmenter")
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: File format not supported: filepath=segmenter. Keras 3 only supports V3 `.keras` files, legacy H5 format files (`.h5` extension). Note that the legacy SavedModel format is not supported by `load_model()` in Keras 3. In order to reload a TensorFlow SavedModel as an inference-only layer in Keras 3, use `keras.layers.TFSMLayer(segmenter, call_endpoint='serving_default')` (note that your `call_endpoint` might have a different name).
    """

# The fix, for inference: the SavedModel's serving function as a Keras layer.
layer = keras.layers.TFSMLayer("segmenter", call_endpoint="serving_default")
x = np.ones((3, 2), dtype="float32")
outputs = layer(x)
print(list(outputs), np.allclose(outputs["output_0"], model(x)))
#> ['output_0'] True
os.chdir(start)
# --8<-- [end:keras_savedmodel]

# --8<-- [start:keras_savedmodel_twice]
import keras
import numpy as np


class CustomLayer(keras.layers.Layer):  # the reader's layer
    def call(self, inputs, *args, **kwargs):
        return inputs


model1 = keras.Sequential([CustomLayer()])
model1.build((None, 1))
model1.compile()
try:
    model1.save(folder / "model1")  # the reader's line: Keras 2 wrote a SavedModel folder here
except ValueError as err:
    print(f"{type(err).__name__}: {str(err).split('. Please')[0]}")
    #> ValueError: Invalid filepath extension for saving

# Keras 3's way: a .keras file, saved, loaded, saved again and loaded again, the class named.
x = np.array([[1.0], [2.0]], dtype="float32")
custom = {"CustomLayer": CustomLayer}
model1.save(folder / "model1.keras")
model2 = keras.models.load_model(folder / "model1.keras", custom_objects=custom)
model2.save(folder / "model2.keras")
model3 = keras.models.load_model(folder / "model2.keras", custom_objects=custom)
print(type(model3.layers[0]).__name__, model3(x).numpy().ravel())
#> CustomLayer [1. 2.]

# A SavedModel twice: export, load as an inference-only layer, export that model, load again.
model1.export(folder / "model1", verbose=False)
model2 = keras.Sequential([keras.Input((1,)), keras.layers.TFSMLayer(folder / "model1", call_endpoint="serve")])
model2.export(folder / "model2", verbose=False)
model3 = keras.layers.TFSMLayer(folder / "model2", call_endpoint="serve")
print(type(model3).__name__, model3(x).numpy().ravel())
#> TFSMLayer [1. 2.]
# --8<-- [end:keras_savedmodel_twice]

# --8<-- [start:keras_userobject]
import numpy as np
import tensorflow as tf

restored = tf.saved_model.load(folder / "segmenter")  # the SavedModel exported above
x = np.ones((3, 2), dtype="float32")
try:
    restored.predict(x)
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: '_UserObject' object has no attribute 'predict'
print(list(restored.signatures))
#> ['serve', 'serving_default']

# The fix: call the saved functions (a plain TensorFlow object has no Keras methods).
print(np.allclose(restored.serve(x), model(x)))
#> True
outputs = restored.signatures["serving_default"](tf.constant(x))
print(list(outputs), np.allclose(outputs["output_0"], model(x)))
#> ['output_0'] True
# For predict, fit and evaluate: save the model as .keras and load it with keras.models.load_model.
# --8<-- [end:keras_userobject]

workdir.cleanup()
