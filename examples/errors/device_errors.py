"""Device errors that need no GPU: device strings, the meta device, mixed devices.

Each section triggers one error the way readers meet it, prints the message as the
library raised it, then shows the fix working. Everything runs on a CPU-only machine.
Run with `python examples/errors/device_errors.py`.
"""

# --8<-- [start:device_type_expected]
import torch

try:
    torch.ones(2, device="gpu")
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: gpu
    """

# The fix: NVIDIA GPUs are "cuda"; pick the device the machine has.
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(torch.device("cuda"), torch.device("cuda:1").index, device.type in ("cuda", "cpu"))
#> cuda 1 True
# --8<-- [end:device_type_expected]

# --8<-- [start:is_available_no_call]
from unittest import mock

import torch

print(type(torch.cuda.is_available).__name__, bool(torch.cuda.is_available))  # without (): a function
#> function True
# A stand-in for a machine without a GPU: a function that returns False, as is_available() does there.
with mock.patch("torch.cuda.is_available", lambda: False):
    device = "cuda" if torch.cuda.is_available else "cpu"  # tests the function, not its answer
    print(torch.cuda.is_available(), device)
    #> False cuda

    # The fix: call it.
    device = "cuda" if torch.cuda.is_available() else "cpu"
    print(device)
    #> cpu
# --8<-- [end:is_available_no_call]

# --8<-- [start:invalid_device_string]
import torch

for name in ["cuda0", "cuda:-1", "cuda:x"]:
    try:
        torch.device(name)
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        #> RuntimeError: Invalid device string: 'cuda0'
        #> RuntimeError: Invalid device string: 'cuda:-1'
        #> RuntimeError: Invalid device string: 'cuda:x'

# The fix: type, a colon, then an index of 0 or more; or pass the index separately.
print(torch.device("cuda:0"), torch.device("cuda", 0), torch.device("cuda", 0) == torch.device("cuda:0"))
#> cuda:0 cuda:0 True
# --8<-- [end:invalid_device_string]

# --8<-- [start:meta_copy_out]
import torch

x = torch.ones(3, device="meta")  # shape and dtype only: no memory, no values
print(x)
#> tensor(..., device='meta', size=(3,))
try:
    x.cpu()
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    #> NotImplementedError: Cannot copy out of meta tensor; no data!

# The fix: a meta tensor has no values to copy; allocate real memory, then fill it.
real = torch.empty_like(x, device="cpu").fill_(1.0)
print(real)
#> tensor([1., 1., 1.])
# --8<-- [end:meta_copy_out]

# --8<-- [start:meta_module_to]
import torch

with torch.device("meta"):
    model = torch.nn.Linear(2, 3)  # built without allocating its parameters
try:
    model.to("cpu")
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    """
    NotImplementedError: Cannot copy out of meta tensor; no data! Please use torch.nn.Module.to_empty() instead of torch.nn.Module.to() when moving module from meta to a different device.
    """

# The fix: to_empty allocates (uninitialised) memory; then initialise or load weights.
model = model.to_empty(device="cpu")
torch.manual_seed(0)
model.reset_parameters()
print(model.weight.device, model(torch.ones(1, 2)).shape)
#> cpu torch.Size([1, 3])
# --8<-- [end:meta_module_to]

# --8<-- [start:meta_load_state_dict]
import warnings

import torch

torch.manual_seed(0)
checkpoint = torch.nn.Linear(2, 3).state_dict()
with torch.device("meta"):
    model = torch.nn.Linear(2, 3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    model.load_state_dict(checkpoint)  # no error, but nothing is loaded
print("\n".join(f"{w.category.__name__}: {w.message}" for w in caught))
"""
UserWarning: for weight: copying from a non-meta parameter in the checkpoint to a meta parameter in the current model, which is a no-op. (Did you mean to pass `assign=True` to assign items in the state dictionary to their corresponding key in the module instead of copying them in place?)
UserWarning: for bias: copying from a non-meta parameter in the checkpoint to a meta parameter in the current model, which is a no-op. (Did you mean to pass `assign=True` to assign items in the state dictionary to their corresponding key in the module instead of copying them in place?)
"""
print(model.weight.device)
#> meta

# The fix: assign=True puts the checkpoint's tensors into the model as they are.
model.load_state_dict(checkpoint, assign=True)
print(model.weight.device, torch.equal(model.weight, checkpoint["weight"]))
#> cpu True
# --8<-- [end:meta_load_state_dict]

# --8<-- [start:not_on_expected_device]
import torch

with torch.device("meta"):
    model = torch.nn.Linear(2, 3)  # parameters on meta: shapes, no values
batch = torch.ones(4, 2)  # on the CPU
try:
    model(batch)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Tensor on device meta is not on the expected device cpu!

# Moving the batch to meta makes the error go away, and the values with it.
out = model(batch.to("meta"))
print(out.shape, out.device)
#> torch.Size([4, 3]) meta
try:
    out.cpu()
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    #> NotImplementedError: Cannot copy out of meta tensor; no data!

# The fix: parameters on a device that holds data (for a meta model: to_empty, then
# load the weights), and the inputs moved to the parameters' device.
torch.manual_seed(0)
checkpoint = torch.nn.Linear(2, 3).state_dict()  # the trained weights, say
model = model.to_empty(device="cpu")
model.load_state_dict(checkpoint)
device = next(model.parameters()).device
out = model(batch.to(device))
print(device, out.shape)
#> cpu torch.Size([4, 3])
print(out[0].detach().round(decimals=4))
#> tensor([ 0.3600, -0.5417, -0.1455])
# --8<-- [end:not_on_expected_device]

# --8<-- [start:meta_item]
import torch

loss = torch.ones((), device="meta")
try:
    if loss > 0:  # Python's if needs a value: bool() calls item()
        pass
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Tensor.item() cannot be called on meta tensors

# The fix: compute on a device that holds data; on meta, only shapes are known.
print((loss > 0).shape, (loss > 0).device, bool(torch.ones(()) > 0))
#> torch.Size([]) meta True
# --8<-- [end:meta_item]

# --8<-- [start:meta_to_numpy]
import torch

x = torch.ones(3, device="meta")
try:
    x.numpy()
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
    """

# The fix: NumPy needs values in host memory, so the data must exist there first.
print(torch.ones(3).numpy())
#> [1. 1. 1.]

# A dict of tensors taken before the model moved keeps the old tensors.
with torch.device("meta"):
    model = torch.nn.Linear(2, 1)
weights = model.state_dict()  # taken while the model was on meta
model = model.to_empty(device="cpu")  # the model moves; the dict does not
print(weights["weight"].device, model.weight.device)
#> meta cpu
try:
    weights["weight"].numpy()
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
    """
# The fix: take the state_dict after the move (or move each tensor with .cpu()).
print(model.state_dict()["weight"].numpy().shape)
#> (1, 2)
# --8<-- [end:meta_to_numpy]

# --8<-- [start:tensor_created_in_forward]
import torch
from torch import nn


class Masked(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 3)

    def forward(self, x):
        mask = torch.tril(torch.ones(3, 3))  # created here: on the CPU, whatever x is on
        return torch.cat([self.linear(x) * mask, x])


with torch.device("meta"):  # meta stands in for the GPU: model and batch are both there
    model, batch = Masked(), torch.ones(3, 3)
try:
    model(batch)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Tensor on device cpu is not on the expected device meta!
print(model.linear.weight.device, batch.device, torch.tril(torch.ones(3, 3)).device)
#> meta meta cpu


# The fix: create the tensor on the input's device, or register it as a buffer,
# which model.to(device) moves with the parameters.
class MaskedFixed(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(3, 3)
        self.register_buffer("mask", torch.tril(torch.ones(3, 3)))

    def forward(self, x):
        ones = torch.ones(3, 3, device=x.device)  # or: on x's device
        return torch.cat([self.linear(x) * self.mask * ones, x])


torch.manual_seed(0)
fixed = MaskedFixed()
print(fixed.to("meta").mask.device, fixed(batch).shape, fixed(batch).device)
#> meta torch.Size([6, 3]) meta
print(MaskedFixed()(torch.ones(3, 3)).shape)  # the same code on the CPU, with values
#> torch.Size([6, 3])
# --8<-- [end:tensor_created_in_forward]

# --8<-- [start:layer_created_in_forward]
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, kernel_size=3, padding=1)

    def forward(self, x):
        bn = nn.BatchNorm2d(4)  # a new layer at every call, with new weights, on the CPU
        return nn.ReLU()(bn(self.conv(x)))


model = Block().to("meta")  # meta stands in for the GPU: model.to(device) moves conv only
try:
    model(torch.ones(2, 3, 4, 4, device="meta"))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Tensor on device cpu is not on the expected device meta!
print(list(model.state_dict()), len(list(model.parameters())))  # the model does not know the layer
#> ['conv.weight', 'conv.bias'] 2


# The fix: create the layers once, in __init__; the model then owns, moves and saves them.
class BlockFixed(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, kernel_size=3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(self.conv(x)))


fixed = BlockFixed().to("meta")
print(fixed(torch.ones(2, 3, 4, 4, device="meta")).device, fixed.bn.weight.device)
#> meta meta
print(list(fixed.state_dict()))
"""
['conv.weight', 'conv.bias', 'bn.weight', 'bn.bias', 'bn.running_mean', 'bn.running_var', 'bn.num_batches_tracked']
"""
# --8<-- [end:layer_created_in_forward]

# --8<-- [start:optimizer_state_device]
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
optimizer = torch.optim.Adam(model.parameters())
model(torch.ones(1, 2)).sum().backward()
optimizer.step()
checkpoint = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}

# Resuming on another device (meta stands in for the GPU): model first, then the
# optimizer over its parameters, then the optimizer's state.
with torch.device("meta"):
    resumed = nn.Linear(2, 1)
optimizer = torch.optim.Adam(resumed.parameters())
optimizer.load_state_dict(checkpoint["optimizer"])
state = optimizer.state[resumed.weight]
print(resumed.weight.device, state["exp_avg"].device, state["step"].device)
#> meta meta cpu
# --8<-- [end:optimizer_state_device]

# --8<-- [start:optimizer_before_to]
import torch
from torch import nn

model = nn.Linear(2, 1)
weight = model.weight
adam = torch.optim.Adam(model.parameters())  # creates its state at the first step()
adagrad = torch.optim.Adagrad(model.parameters())  # creates its state here, now
model.double()  # after the optimizers; float64 stands in for the GPU
print(model.weight is weight, adam.param_groups[0]["params"][0] is model.weight)
#> True True
print(dict(adam.state), adagrad.state[model.weight]["sum"].dtype)
#> {} torch.float32
model(torch.ones(1, 2, dtype=torch.float64)).sum().backward()
adam.step()
print(adam.state[model.weight]["exp_avg"].dtype)
#> torch.float64

# The fix: move the model first, then build the optimizer.
model = nn.Linear(2, 1).double()
adagrad = torch.optim.Adagrad(model.parameters())
print(adagrad.state[model.weight]["sum"].dtype)
#> torch.float64
# --8<-- [end:optimizer_before_to]

# --8<-- [start:pin_memory_no_accelerator]
import warnings

import torch
from torch.utils.data import DataLoader

data = torch.arange(4.0)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    batches = list(DataLoader(data, batch_size=2, pin_memory=True))  # no GPU here
for w in caught:
    print(f"{w.category.__name__}: {w.message}")
    """
    UserWarning: 'pin_memory' argument is set as true but no accelerator is found, then device pinned memory won't be used.
    """
print(batches, batches[0].is_pinned())
#> [tensor([0., 1.]), tensor([2., 3.])] False

# The fix: pin only when there is a GPU to copy to.
loader = DataLoader(data, batch_size=2, pin_memory=torch.cuda.is_available())
print(list(loader))
#> [tensor([0., 1.]), tensor([2., 3.])]
# --8<-- [end:pin_memory_no_accelerator]

# --8<-- [start:pin_not_cpu]
from torch.utils.data._utils.pin_memory import pin_memory as pin_batch  # what the loader calls

# A batch already off the CPU: a meta tensor here; on a GPU, CUDA tensors made by the dataset.
try:
    pin_batch({"inputs": torch.empty(2, 3, device="meta")})
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: cannot pin 'MetaFloatType' only dense CPU tensors can be pinned


# The fix: build batches on the CPU, and move each one to the device in the loop.
def collate_on_cpu(samples):
    return torch.stack(samples)


device = "cuda" if torch.cuda.is_available() else "cpu"
loader = DataLoader([torch.zeros(3)] * 4, batch_size=2, collate_fn=collate_on_cpu,
                    pin_memory=torch.cuda.is_available())
for batch in loader:
    batch = batch.to(device, non_blocking=True)
print(batch.shape, batch.device.type == device)
#> torch.Size([2, 3]) True
# --8<-- [end:pin_not_cpu]

# --8<-- [start:plain_list_not_moved]
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = [torch.nn.Conv2d(3, 3, 1)]  # a plain list: not a submodule
        self.head = torch.nn.ModuleList([torch.nn.Conv2d(3, 3, 1)])


net = Net().to("meta")  # meta stands in for cuda
print("list:", net.blocks[0].weight.device, "ModuleList:", net.head[0].weight.device)
#> list: cpu ModuleList: meta
print(len(list(net.parameters())))  # the plain list's weight and bias are missing
#> 2
# --8<-- [end:plain_list_not_moved]

# --8<-- [start:tf_threads_after_init]
import tensorflow as tf

print(tf.constant([1.0, 2.0]) * 2)  # the first op starts TensorFlow's thread pools
#> tf.Tensor([2. 4.], shape=(2,), dtype=float32)
try:
    tf.config.threading.set_intra_op_parallelism_threads(2)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Intra op parallelism cannot be modified after initialization.
try:
    tf.config.threading.set_inter_op_parallelism_threads(2)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Inter op parallelism cannot be modified after initialization.
print("intra-op threads:", tf.config.threading.get_intra_op_parallelism_threads())  # 0: TF picks
#> intra-op threads: 0
# --8<-- [end:tf_threads_after_init]
