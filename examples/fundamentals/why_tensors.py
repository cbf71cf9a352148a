"""What tensors add to arrays: autograd, dynamic graphs, training, layers, deployment.

Run with `python examples/fundamentals/why_tensors.py`. The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares.
"""

# --8<-- [start:autograd]
import torch

x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
z = x**2 + y**3 + x * y
z.backward()  # fills x.grad and y.grad with dz/dx and dz/dy
print(x.grad, y.grad)
#> tensor(7.) tensor(29.)
# By hand: dz/dx = 2x + y = 7 and dz/dy = 3y^2 + x = 29 at x = 2, y = 3.
print(x.grad.item() == 2 * 2 + 3, y.grad.item() == 3 * 3**2 + 2)
#> True True
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

before = loss_fn(model(inputs), targets)
optimizer.zero_grad()
before.backward()  # gradients of the loss for every parameter
optimizer.step()  # parameters -= lr * gradient
after = loss_fn(model(inputs), targets)
print(round(before.item(), 3), round(after.item(), 3), after.item() < before.item())
#> 2.026 1.863 True
# --8<-- [end:training_step]

# --8<-- [start:layers]
torch.manual_seed(0)
images = torch.randn(1, 3, 32, 32)  # batch, channels, height, width
features = torch.nn.Conv2d(3, 64, kernel_size=3)(images)
print(features.shape)  # 32 - 3 + 1 = 30
#> torch.Size([1, 64, 30, 30])
activated = torch.nn.functional.relu(features)
pooled = torch.nn.functional.max_pool2d(activated, 2)
print(pooled.shape)  # 30 / 2 = 15
#> torch.Size([1, 64, 15, 15])
normalized = torch.nn.BatchNorm2d(64)(pooled)
print(normalized.shape)  # batch norm keeps the shape
#> torch.Size([1, 64, 15, 15])
# --8<-- [end:layers]

# --8<-- [start:deployment]
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.jit.script(model)
print(caught[0].category.__name__, caught[0].message)
"""
FutureWarning `torch.jit.script` is deprecated. Please switch to `torch.compile` or `torch.export`.
"""
# --8<-- [end:deployment]
