"""What tensors add to arrays: autograd, dynamic graphs, training, layers, deployment.

Run with `python examples/fundamentals/why_tensors.py`. The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares.
"""

import os

# The profiler used below logs its own start and stop lines; this keeps them off the terminal.
os.environ.setdefault("KINETO_LOG_LEVEL", "9")

# --8<-- [start:autograd]
import numpy as np
import torch

x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
z = x**2 + y**3 + x * y
# z records the operation that made it, which links back to the operations before:
print(type(z.grad_fn).__name__, [type(f).__name__ for f, _ in z.grad_fn.next_functions])
#> AddBackward0 ['AddBackward0', 'MulBackward0']
z.backward()  # fills x.grad and y.grad with dz/dx and dz/dy
print(x.grad, y.grad)
#> tensor(7.) tensor(29.)
# By hand: dz/dx = 2x + y = 7 and dz/dy = 3y^2 + x = 29 at x = 2, y = 3.
print(x.grad.item() == 2 * 2 + 3, y.grad.item() == 3 * 3**2 + 2)
#> True True

# The same formula in NumPy gives the value and nothing else: no record to differentiate.
x_np, y_np = np.array(2.0), np.array(3.0)
z_np = x_np**2 + y_np**3 + x_np * y_np
print(z_np, hasattr(z_np, "grad_fn"), hasattr(z_np, "backward"))
#> 37.0 False False
# --8<-- [end:autograd]


# --8<-- [start:dynamic_graph]
def power(value, square):
    if square:  # ordinary Python control flow decides the graph
        return value**2
    return value**3


for square in (True, False):
    a = torch.tensor(2.0, requires_grad=True)
    power(a, square).backward()
    print(square, a.grad)  # 2a = 4, or 3a^2 = 12
    #> True tensor(4.)
    #> False tensor(12.)
# --8<-- [end:dynamic_graph]

# --8<-- [start:training_step]
torch.manual_seed(0)
model = torch.nn.Linear(10, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = torch.nn.MSELoss()
inputs, targets = torch.randn(32, 10), torch.randn(32, 1)

# The layer's parameters are tensors that require grad:
print([(name, tuple(p.shape), p.requires_grad) for name, p in model.named_parameters()])
#> [('weight', (1, 10), True), ('bias', (1,), True)]
weight_before = model.weight.detach().clone()

before = loss_fn(model(inputs), targets)
optimizer.zero_grad()
before.backward()  # gradients of the loss for every parameter
optimizer.step()  # parameters -= lr * gradient
after = loss_fn(model(inputs), targets)
print(round(before.item(), 3), round(after.item(), 3), after.item() < before.item())
#> 2.026 1.863 True
print(torch.allclose(model.weight, weight_before - 0.1 * model.weight.grad))
#> True
# --8<-- [end:training_step]

# --8<-- [start:layers]
torch.manual_seed(0)
images = torch.randn(1, 3, 32, 32)  # batch, channels, height, width
features = torch.nn.Conv2d(3, 64, kernel_size=3)(images)
print(features.shape)  # 32 - 3 + 1 = 30
#> torch.Size([1, 64, 30, 30])
activated = torch.nn.functional.relu(features)
print(activated.shape)  # ReLU keeps the shape
#> torch.Size([1, 64, 30, 30])
pooled = torch.nn.functional.max_pool2d(activated, 2)
print(pooled.shape)  # 30 / 2 = 15
#> torch.Size([1, 64, 15, 15])
normalised = torch.nn.BatchNorm2d(64)(pooled)
print(normalised.shape)  # batch norm keeps the shape
#> torch.Size([1, 64, 15, 15])
# --8<-- [end:layers]

# --8<-- [start:python_loop]
from torch.profiler import ProfilerActivity, profile

b = torch.arange(100.0)
c = torch.arange(100.0)


def operations(function):
    """The PyTorch operations one call of `function` runs, with how often each runs."""
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        function()
    return dict(sorted((event.key, event.count) for event in prof.key_averages()))


def add_in_a_loop():
    out = torch.empty(100)
    for i in range(100):
        out[i] = b[i] + c[i]  # b[i] and c[i] are tensors of their own
    return out


looped = operations(add_in_a_loop)
print(sum(looped.values()), looped)  # 100 elements: 801 operations
"""
801 {'aten::add': 100, 'aten::as_strided': 300, 'aten::copy_': 100, 'aten::empty': 1, 'aten::select': 300}
"""
print(operations(lambda: b + c))  # the whole tensors at once: one
#> {'aten::add': 1}
print(torch.equal(add_in_a_loop(), b + c))
#> True
print(type(b[0]).__name__, b[0].shape, type(b.numpy()[0]).__name__)  # NumPy gives a NumPy scalar (float32)
#> Tensor torch.Size([]) float32
# A loop that cannot be avoided: over Python numbers, with no PyTorch operation per element.
print(sum(operations(lambda: [x + y for x, y in zip(b.tolist(), c.tolist(), strict=True)]).values()))
#> 4
# --8<-- [end:python_loop]

# --8<-- [start:deployment]
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    scripted = torch.jit.script(model)
print(caught[0].category.__name__, caught[0].message)
"""
FutureWarning `torch.jit.script` is deprecated. Please switch to `torch.compile` or `torch.export`.
"""
print(torch.equal(scripted(inputs), model(inputs)))  # it still works
#> True
# --8<-- [end:deployment]
