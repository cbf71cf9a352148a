"""The device mismatch of the error atlas on a GPU: a model on CUDA, a batch on the CPU, and the
fix. Needs a CUDA device.

Run with `python examples/errors/device_errors_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:model_on_cuda]
import torch

torch.manual_seed(0)
model = torch.nn.Linear(2, 3).to("cuda")
batch = torch.ones(4, 2)  # on the CPU
try:
    model(batch)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")

# The fix: put the inputs where the parameters are.
device = next(model.parameters()).device
out = model(batch.to(device))
print(device, out.shape, out.device)
# --8<-- [end:model_on_cuda]

# --8<-- [start:input_on_cuda_model_on_cpu]
import torch

torch.manual_seed(0)
device = torch.device("cuda")
model = torch.nn.Conv2d(3, 8, kernel_size=3)  # built, not yet moved: on the CPU
x = torch.ones(2, 3, 16, 16, device=device)  # the input torchsummary.summary builds
try:
    model(x)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")

# The fix: move the model first; build inputs on the device of its parameters.
model.to(device)
x = torch.ones(2, 3, 16, 16, device=next(model.parameters()).device)
out = model(x)
print(out.shape, out.device)
# --8<-- [end:input_on_cuda_model_on_cpu]

# --8<-- [start:optimizer_state_on_cpu]
import torch

torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
optimizer = torch.optim.Adam(model.parameters())
model(torch.ones(1, 2)).sum().backward()
optimizer.step()
checkpoint = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}

# The mistake: the optimizer's state is loaded while the model is on the CPU, then the
# model moves; the state stays where it was loaded.
resumed = torch.nn.Linear(2, 1)
optimizer = torch.optim.Adam(resumed.parameters())
optimizer.load_state_dict(checkpoint["optimizer"])
resumed.to("cuda")
print(optimizer.state[resumed.weight]["exp_avg"].device)
resumed(torch.ones(1, 2, device="cuda")).sum().backward()
try:
    optimizer.step()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")

# The fix: move the model first, then build the optimizer and load its state.
resumed = torch.nn.Linear(2, 1).to("cuda")
resumed.load_state_dict(checkpoint["model"])
optimizer = torch.optim.Adam(resumed.parameters())
optimizer.load_state_dict(checkpoint["optimizer"])
print(optimizer.state[resumed.weight]["exp_avg"].device)
# --8<-- [end:optimizer_state_on_cpu]

# --8<-- [start:optimizer_before_cuda]
import torch

model = torch.nn.Linear(2, 1)
weight = model.weight
adam = torch.optim.Adam(model.parameters())
adagrad = torch.optim.Adagrad(model.parameters())  # its state is created here, on the CPU
model.cuda()  # after the optimizers
print(model.weight is weight, adagrad.state[model.weight]["sum"].device)
model(torch.ones(1, 2, device="cuda")).sum().backward()
adam.step()  # Adam creates its state now, next to the parameter
print(adam.state[model.weight]["exp_avg"].device)
try:
    adagrad.step()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")

# The fix: model.cuda() first, then the optimizer.
model = torch.nn.Linear(2, 1).cuda()
adagrad = torch.optim.Adagrad(model.parameters())
model(torch.ones(1, 2, device="cuda")).sum().backward()
adagrad.step()
print(adagrad.state[model.weight]["sum"].device)
# --8<-- [end:optimizer_before_cuda]

# --8<-- [start:index_on_other_device]
import torch

S = torch.arange(6.0).reshape(3, 2)  # on the CPU
index = torch.tensor([2, 0], device="cuda")
try:
    S[index, :]
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")

# Accepted: a CPU index into a CPU or CUDA tensor, a CUDA index into a CUDA tensor.
print(S[index.cpu(), :].device, S.cuda()[index.cpu(), :].device, S.cuda()[index, :].device)
# --8<-- [end:index_on_other_device]
