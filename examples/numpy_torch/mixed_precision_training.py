"""Training in float16 and bfloat16 on the CPU: gradients that underflow, and loss scaling.

Small float16 gradients flush to zero; scaling the loss (torch.amp.GradScaler) keeps
them; bfloat16, with float32's range, needs no scaling. Activations beyond float16's range
turn the loss into nan, which no scaling fixes; bfloat16 keeps them finite. The page "16-bit floats" embeds
it with reduced_precision.py.

Run with `python examples/numpy_torch/mixed_precision_training.py`. The `#>` lines under
each print are the output the libraries printed when the site was built; the test suite
runs this script again and compares.
"""

# --8<-- [start:underflow]
import torch
from torch import nn


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))


model = make_model()
inputs = torch.randn(16, 4)


def small_loss(net, dtype=None):
    """A loss with tiny gradients (scaled down by 1e-7 on purpose), the forward pass under
    autocast in `dtype` (None: plain float32)."""
    with torch.autocast("cpu", dtype=dtype or torch.bfloat16, enabled=dtype is not None):
        return net(inputs).float().mean() * 1e-7


def first_layer_grad(dtype=None, scale=1.0):
    """The first layer's weight gradient of `small_loss` times `scale`, divided by `scale`."""
    model.zero_grad()
    (small_loss(model, dtype) * scale).backward()
    return model[0].weight.grad / scale


def close(grad, reference):
    """Whether `grad` is within 1% of `reference` (relative error of the whole tensor)."""
    return ((grad - reference).norm() / reference.norm()).item() < 0.01


reference = first_layer_grad()  # in float32
print(torch.count_nonzero(reference).item(), f"{reference.abs().max().item():.1e}")
#> 32 1.4e-08
in_half = first_layer_grad(torch.float16)
print(torch.count_nonzero(in_half).item())  # every one underflowed to 0
#> 0
scaled = first_layer_grad(torch.float16, scale=2.0**16)  # the loss scaled by 65536
print(torch.count_nonzero(scaled).item(), close(scaled, reference))
#> 32 True
in_bf16 = first_layer_grad(torch.bfloat16)  # bfloat16 has float32's range: no scaling
print(torch.count_nonzero(in_bf16).item(), close(in_bf16, reference))
#> 32 True
# --8<-- [end:underflow]

# --8<-- [start:bf16_weights]
weight = torch.tensor([1.0], dtype=torch.bfloat16)
print(weight - 1e-3, torch.tensor([1.0]) - 1e-3)  # a bfloat16 weight ignores a small update
#> tensor([1.], dtype=torch.bfloat16) tensor([0.9990])
print(torch.nextafter(weight, torch.tensor([2.0], dtype=torch.bfloat16)) - weight)  # spacing at 1
#> tensor([0.0078], dtype=torch.bfloat16)

torch.manual_seed(0)
features = torch.randn(64, 8)
goal = features @ torch.linspace(0.5, 1.5, 8)


def train_in(dtype, autocast, steps=200):
    model = nn.Linear(8, 1, bias=False)
    nn.init.constant_(model.weight, 1.0)
    model.to(dtype)  # dtype=torch.bfloat16: weights, gradients and updates all in bfloat16
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    for _ in range(steps):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            loss = ((model(features.to(dtype)).squeeze(1) - goal.to(dtype)) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return round(loss.item(), 4)


print("float32:", train_in(torch.float32, False), "bfloat16 model:", train_in(torch.bfloat16, False))
#> float32: 0.3261 bfloat16 model: 0.7109
# The fix: keep the parameters in float32 and let autocast run the operations in bfloat16.
print("float32 weights + bfloat16 autocast:", train_in(torch.float32, True))
#> float32 weights + bfloat16 autocast: 0.3272
# --8<-- [end:bf16_weights]

# --8<-- [start:grad_scaler]
import contextlib
import io
import math
import warnings

# Without scaling, the float16 gradients are 0, and the optimizer does not move the weights:
net = make_model()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
before = net[0].weight.detach().clone()
small_loss(net, torch.float16).backward()
optimizer.step()
print(torch.count_nonzero(net[0].weight.grad).item(), torch.equal(net[0].weight, before))
#> 0 True

# With a GradScaler: scale the loss, backward, unscale, step, update
net = make_model()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler("cpu")
print(scaler.get_scale(), scaler.get_growth_interval(), scaler.get_backoff_factor())
#> 65536.0 2000 0.5
scaler.scale(small_loss(net, torch.float16)).backward()  # the gradients of loss * 65536
scaler.unscale_(optimizer)  # divided by 65536 again, to inspect or clip them
grad = net[0].weight.grad
print(torch.isfinite(grad).all().item(), torch.count_nonzero(grad).item(), close(grad, reference))
#> True 32 True
scaler.step(optimizer)  # steps only if every gradient is finite
scaler.update()  # the scale for the next step
print(torch.equal(net[0].weight, before), scaler.get_scale())
#> False 65536.0

# A scale too large: the scaled gradients overflow; step() (unscaling by itself) skips the
# update, and update() halves the scale
net = make_model()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**60)
scaler.scale(small_loss(net, torch.float16)).backward()
with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(out):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scaler.step(optimizer)
        scaler.update()
print(repr(out.getvalue()), len(caught))  # the skip itself prints and warns nothing
#> '' 0
print(torch.isfinite(net[0].weight.grad).all().item(), torch.equal(net[0].weight, before))
#> False True
print(scaler.get_scale() == 2.0**59)
#> True
# --8<-- [end:grad_scaler]

# --8<-- [start:scale_growth]
def train(scaler, dtype=None, steps=10, cap=None):
    """`steps` steps on `small_loss` (autocast in `dtype`); each step's scale, the steps
    whose gradients were not finite, and the steps that left the weights unchanged."""
    net = make_model()
    optimizer = torch.optim.SGD(net.parameters(), lr=100.0)  # the gradients are about 1e-8
    scales, not_finite, unchanged = [], 0, 0
    for _ in range(steps):
        before = net[0].weight.detach().clone()
        optimizer.zero_grad()
        scaler.scale(small_loss(net, dtype)).backward()
        not_finite += not all(torch.isfinite(p.grad).all() for p in net.parameters())
        scaler.step(optimizer)
        scaler.update()
        if cap is not None and scaler.get_scale() > cap:
            scaler.update(cap)  # update(new_scale) sets the scale
        scales.append(scaler.get_scale())
        unchanged += torch.equal(before, net[0].weight)
    return scales, not_finite, unchanged


# growth_interval=1: the scale doubles after every step whose gradients are finite. Starting
# at 2**125 (not 65536) to reach the top in a few steps:
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**125, growth_interval=1)
scales, not_finite, unchanged = train(scaler, torch.bfloat16, steps=5)
print([f"2**{math.log2(s):.0f}" for s in scales], not_finite, unchanged)
#> ['2**126', '2**127', '2**127', '2**127', '2**127'] 0 0

# A scale of inf, as in older releases: every step is skipped, and inf * 0.5 stays inf
scaler.update(float("inf"))
scales, not_finite, unchanged = train(scaler, steps=3)
print(scales, not_finite, unchanged)
#> [inf, inf, inf] 3 3

# The fixes: the default growth_interval (2000), or a cap; bfloat16 needs no scaler at all
print(train(torch.amp.GradScaler("cpu", init_scale=2.0**120), steps=3)[0][-1] == 2.0**120)
#> True
print(train(torch.amp.GradScaler("cpu", init_scale=2.0**120, growth_interval=1), steps=3, cap=2.0**24)[0][-1])
#> 16777216.0
# --8<-- [end:scale_growth]

# --8<-- [start:forward_overflow]
large_inputs = inputs * 1e5  # activations beyond float16's 65504
net = make_model()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
scaler = torch.amp.GradScaler("cpu")
before = net[0].weight.detach().clone()
for _ in range(3):
    optimizer.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        loss = net(large_inputs).float().mean()
    scaler.scale(loss).backward()
    scaler.step(optimizer)  # skipped: the gradients are not finite
    scaler.update()  # halves the scale, every time
    print(loss.item(), torch.isfinite(net[0].weight.grad).all().item(), scaler.get_scale())
    #> nan False 32768.0
    #> nan False 16384.0
    #> nan False 8192.0
print(torch.equal(net[0].weight, before))  # never updated
#> True


# Which layer? A forward hook on each counts the infs and nans in its output
def count_bad(name):
    def hook(module, args, output):
        print(name, output.dtype, torch.isinf(output).sum().item(), torch.isnan(output).sum().item())
        #> 0 torch.float16 57 55
        #> 1 torch.float16 29 55
        #> 2 torch.float16 0 14

    return hook


handles = [module.register_forward_hook(count_bad(name)) for name, module in net.named_children()]
with torch.autocast("cpu", dtype=torch.float16):
    net(large_inputs)
for handle in handles:
    handle.remove()

# The fix: float32 (no autocast), or bfloat16, with float32's range (no GradScaler needed)
in_float32 = net(large_inputs)
optimizer.zero_grad()
with torch.autocast("cpu", dtype=torch.bfloat16):
    outputs = net(large_inputs)
print(torch.isfinite(in_float32).all().item(), torch.isfinite(outputs).all().item())
#> True True
print(close(outputs.float(), in_float32))  # bfloat16 within 1% of float32
#> True
outputs.float().mean().backward()
optimizer.step()
print(torch.isfinite(net[0].weight.grad).all().item(), torch.equal(net[0].weight, before))
#> True False
# --8<-- [end:forward_overflow]

# --8<-- [start:float32_region]
torch.manual_seed(0)
layer = nn.Linear(4, 256)
features = torch.randn(8, 4) * 30  # outputs in the hundreds: finite in float16
with torch.autocast("cpu", dtype=torch.float16):
    outputs = layer(features)
    # on the CPU, pow and sum stay in float16: the total passes 65504
    # (CUDA autocast runs them in float32)
    loss = outputs.pow(2).sum()
    with torch.autocast("cpu", enabled=False):  # one region without autocast
        still_half = outputs.pow(2).sum()  # its inputs are still float16
        loss32 = outputs.float().pow(2).sum()  # .float(): the loss in float32
print(outputs.dtype, torch.isfinite(outputs).all().item())
#> torch.float16 True
print(loss.dtype, loss.item(), still_half.item())
#> torch.float16 inf inf
print(loss32.dtype, torch.isfinite(loss32).item())
#> torch.float32 True
print(close(loss32, layer(features).pow(2).sum()))  # within 1% of the float32 run's loss
#> True
loss32.backward()
print(torch.isfinite(layer.weight.grad).all().item())
#> True
# --8<-- [end:float32_region]

# --8<-- [start:bce_autocast]
import torch.nn.functional as F

torch.manual_seed(0)
layer = nn.Linear(4, 1)
features = torch.randn(6, 4) * 3
targets = (torch.rand(6, 1) > 0.5).float()
in_float32 = layer(features)  # the logits of a float32 run, for reference
with torch.autocast("cpu", dtype=torch.float16):
    logits = layer(features)
    plain = F.binary_cross_entropy(torch.sigmoid(logits), targets)  # the CPU runs it in float32
    with_logits = F.binary_cross_entropy_with_logits(logits, targets)  # fix 1: the sigmoid inside
    with torch.autocast("cpu", enabled=False):  # fix 2: the whole loss, from the logits, in float32
        logits32 = logits.float()
        probs = torch.sqrt(torch.sigmoid(logits32) * torch.sigmoid(2 * logits32))  # not one sigmoid
        region = F.binary_cross_entropy(probs, targets)
print(logits.dtype, plain.dtype, with_logits.dtype, region.dtype)
#> torch.float16 torch.float32 torch.float32 torch.float32
print(close(with_logits, F.binary_cross_entropy(torch.sigmoid(in_float32), targets)))
#> True
reference_probs = torch.sqrt(torch.sigmoid(in_float32) * torch.sigmoid(2 * in_float32))
print(close(region, F.binary_cross_entropy(reference_probs, targets)))
#> True
# --8<-- [end:bce_autocast]

# --8<-- [start:no_grad_cache]
torch.manual_seed(0)
layer = nn.Linear(10, 20)
features = torch.randn(1, 10)
with torch.autocast("cpu", dtype=torch.float16):
    with torch.no_grad():
        layer(features)  # a pass without gradients first
    outputs = layer(features)  # then the pass to train on, in the same block
outputs.float().mean().backward()
print(outputs.dtype, outputs.requires_grad, layer.weight.grad is not None)
#> torch.float16 True True
# --8<-- [end:no_grad_cache]
