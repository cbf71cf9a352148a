"""Loss scaling on a GPU: the CPU example of the page "16-bit floats" with `"cuda"`. Needs a CUDA
device.

Run with `python examples/numpy_torch/mixed_precision_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:cuda]
import torch
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to("cuda")
inputs = torch.randn(16, 4, device="cuda")
before = net[0].weight.detach().clone()


def small_loss():
    """A loss with tiny gradients (scaled down by 1e-7 on purpose), the forward pass in float16."""
    with torch.autocast("cuda", dtype=torch.float16):
        return net(inputs).float().mean() * 1e-7


small_loss().backward()  # without scaling: the float16 gradients underflow
print(torch.count_nonzero(net[0].weight.grad).item())

net.zero_grad()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler()  # "cuda" is its default device
scaler.scale(small_loss()).backward()
scaler.unscale_(optimizer)
grad = net[0].weight.grad
print(torch.isfinite(grad).all().item(), torch.count_nonzero(grad).item())
scaler.step(optimizer)
scaler.update()
print(torch.equal(net[0].weight, before), scaler.get_scale())
# --8<-- [end:cuda]

# --8<-- [start:bce_autocast]
import torch.nn.functional as F

layer = nn.Linear(4, 1).to("cuda")
features = torch.randn(6, 4, device="cuda") * 3
targets = (torch.rand(6, 1, device="cuda") > 0.5).float()
with torch.autocast("cuda", dtype=torch.float16):
    logits = layer(features)
    try:
        F.binary_cross_entropy(torch.sigmoid(logits), targets)
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
    print(F.binary_cross_entropy_with_logits(logits, targets).dtype)  # fix 1: the sigmoid inside
    with torch.autocast("cuda", enabled=False):  # fix 2: the whole loss, from the logits, in float32
        logits32 = logits.float()
        probs = torch.sqrt(torch.sigmoid(logits32) * torch.sigmoid(2 * logits32))  # not one sigmoid
        print(F.binary_cross_entropy(probs, targets).dtype)
# --8<-- [end:bce_autocast]

# --8<-- [start:no_grad_cache]
layer = nn.Linear(10, 20).to("cuda")
features = torch.randn(1, 10, device="cuda")
with torch.autocast("cuda"):
    with torch.no_grad():
        layer(features)  # caches a float16 copy of the weight, without a graph
    outputs = layer(features)  # reuses that copy
print(outputs.requires_grad)
try:
    outputs.mean().backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")

with torch.autocast("cuda", cache_enabled=False):  # the fix: no cached copies
    with torch.no_grad():
        layer(features)
    outputs = layer(features)
outputs.mean().backward()
print(outputs.requires_grad, layer.weight.grad is not None)
# --8<-- [end:no_grad_cache]

# --8<-- [start:replaced_fc]
import torch
from torch import nn

torch.manual_seed(0)
device = torch.device("cuda")
model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5))
model.to(device)
model[3] = nn.Linear(8, 10)  # the new head, as model.fc = nn.Linear(512, 10): on the CPU
x = torch.ones(2, 3, 8, 8, device=device)
with torch.autocast("cuda"):
    try:
        model(x)
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")

# The fix: replace the head first, then move the whole model.
model.to(device)
with torch.autocast("cuda"):
    out = model(x)
print(out.dtype, out.device)
# --8<-- [end:replaced_fc]
