"""Errors and warnings met when computing gradients with autograd.

Run with `python examples/errors/autograd_errors.py`.
"""

# --8<-- [start:no_grad_fn]
import torch

weight = torch.ones(3, requires_grad=True)
with torch.no_grad():  # nothing computed in here is recorded
    loss = (weight * 2).sum()
try:
    loss.backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn
print(loss.requires_grad, loss.grad_fn)
#> False None
# "element 0" counts the tensors being differentiated, not the values inside one.
try:
    torch.autograd.backward([(weight * 2).sum(), loss])
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: element 1 of tensors does not require grad and does not have a grad_fn
# A loss rebuilt from .item() is a new tensor made from a Python float: no graph either.
loss = torch.tensor((weight * 2).sum().item())
print(loss.requires_grad, loss.grad_fn)
#> False None
try:
    loss.backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn

# The fix: compute the loss outside no_grad() (and without .detach() or .item()).
loss = (weight * 2).sum()
print(loss.grad_fn is not None)
#> True
loss.backward()
print(weight.grad)
#> tensor([2., 2., 2.])
# --8<-- [end:no_grad_fn]

# --8<-- [start:requires_grad_loss]
torch.manual_seed(0)
model = torch.nn.Linear(1, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1.0], [2.0], [3.0]])
y = 2 * x
losses = []
for _ in range(3):
    prediction = model(x).detach()  # cut off from the model
    loss = ((prediction - y) ** 2).mean()
    before = (loss.is_leaf, loss.requires_grad)  # already a leaf, with no graph behind it
    loss.requires_grad = True  # silences the error: still a leaf, now one that requires grad
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(round(loss.item(), 4))
print(before, (loss.is_leaf, loss.requires_grad))
#> (True, False) (True, True)
print(losses, model.weight.grad)
#> [14.7868, 14.7868, 14.7868] None

# The fix: keep the loss connected to the model, and drop requires_grad = True.
losses = []
for _ in range(3):
    loss = ((model(x) - y) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(round(loss.item(), 4))
print(losses, loss.grad_fn is not None)
#> [14.7868, 0.3675, 0.1862] True
# --8<-- [end:requires_grad_loss]

# --8<-- [start:grad_in_eval]
weight = torch.ones(3, requires_grad=True)
with torch.no_grad():  # an evaluation loop
    with torch.enable_grad():  # turns recording back on
        loss = (weight * 2).sum()
print(loss.grad_fn is not None)
#> True
with torch.inference_mode():  # an evaluation loop in inference mode
    with torch.enable_grad():  # does not turn recording back on here
        loss = (weight * 2).sum()
        print(torch.is_grad_enabled(), loss.grad_fn)
        #> True None
try:
    loss.backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn

# The fix: turn inference mode off for the lines that need gradients.
with torch.inference_mode():
    with torch.inference_mode(False):
        loss = (weight * 2).sum()
        loss.backward()
print(weight.grad)
#> tensor([2., 2., 2.])
# --8<-- [end:grad_in_eval]

# --8<-- [start:backward_twice]
weight = torch.ones(3, requires_grad=True)
loss = weight.exp().sum()  # exp saves its result for the backward pass
loss.backward()
try:
    loss.backward()  # the saved values were freed by the first call
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if you need to access saved tensors after calling backward.
    """

# The fix: compute the loss again (the usual case: one forward pass per backward),
# or keep the graph with retain_graph=True when you really need two passes.
weight.grad = None
loss = weight.exp().sum()
loss.backward(retain_graph=True)
loss.backward()  # gradients add up: twice e^1
print(weight.grad)
#> tensor([5.4366, 5.4366, 5.4366])
# --8<-- [end:backward_twice]

# --8<-- [start:leaf_inplace]
weight = torch.ones(3, requires_grad=True)
try:
    weight.sub_(0.1)  # e.g. a hand-written update step
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
try:
    weight[0] = 0.0  # writing into part of it is in-place too
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.
    """

# The fix: change parameters inside torch.no_grad(), as optimizers do.
with torch.no_grad():
    weight.sub_(0.1)
    weight[0] = 0.0
print(weight)
#> tensor([0.0000, 0.9000, 0.9000], requires_grad=True)

# Or write into a clone: it is not a leaf, so the write is recorded as one more step
# of the graph, and the original stays as it was and still gets its gradient.
weight = torch.ones(3, requires_grad=True)
table = weight.clone()
table[0] = 0.0
print(table.is_leaf, type(table.grad_fn).__name__)
#> False CopySlices
table.sum().backward()
print(weight.grad, weight)
#> tensor([0., 1., 1.]) tensor([1., 1., 1.], requires_grad=True)
# --8<-- [end:leaf_inplace]

# --8<-- [start:leaf_inplace_relu]
from torch import nn


class Fusion(nn.Module):  # learnt weights for adding two feature maps
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.tensor([1.0, -0.5]))
        self.relu = nn.ReLU(inplace=True)

    def forward(self, a, b):
        weight = self.relu(self.weight)  # in place on the parameter itself
        return weight[0] * a + weight[1] * b


try:
    Fusion()(torch.ones(2), torch.ones(2))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.

# The fix: an out-of-place ReLU (nn.ReLU() or F.relu).
fusion = Fusion()
fusion.relu = nn.ReLU()
fusion(torch.ones(2), torch.ones(2)).sum().backward()
print(fusion.weight.grad)  # the gradient reaches the parameter through the ReLU
#> tensor([2., 0.])
# Or the in-place ReLU on a clone of the parameter, not on the parameter itself.
print(nn.ReLU(inplace=True)(fusion.weight.clone()))
#> tensor([1., 0.], grad_fn=<ReluBackward0>)
print(fusion.weight)  # and the parameter itself is left as it was
"""
Parameter containing:
tensor([ 1.0000, -0.5000], requires_grad=True)
"""
# --8<-- [end:leaf_inplace_relu]

# --8<-- [start:inplace_modified]
weight = torch.ones(3, requires_grad=True)
hidden = weight.exp()  # exp saves its output for the backward pass
hidden.add_(1)  # in-place: the saved output is changed
try:
    hidden.sum().backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Exp, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).
    """
print(hidden._version)  # each in-place operation adds one
#> 1

# The fix: the out-of-place version makes a new tensor and leaves the saved one alone.
hidden = weight.exp()
shifted = hidden + 1
shifted.sum().backward()
print(weight.grad)
#> tensor([2.7183, 2.7183, 2.7183])
# --8<-- [end:inplace_modified]

# --8<-- [start:inplace_indexed]
# An indexed assignment is in place too: here into a ReLU's output, which ReLU saved.
weight = torch.ones(2, 3, requires_grad=True)
att = torch.relu(weight * 2)
att[:, 0] = 0  # zero the first column, as one would a border of an attention map
try:
    att.sum().backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).split('. Hint')[0]}")
    """
    RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [2, 3]], which is output 0 of Relu, is at version 1; expected version 0 instead
    """

# The fix: assign into a clone, or keep the zeros out of place with a mask.
att = torch.relu(weight * 2).clone()
att[:, 0] = 0
att.sum().backward()
print(weight.grad)
"""
tensor([[0., 2., 2.],
        [0., 2., 2.]])
"""
weight.grad = None
keep = torch.ones(3)
keep[0] = 0
(torch.relu(weight * 2) * keep).sum().backward()
print(weight.grad)
"""
tensor([[0., 2., 2.],
        [0., 2., 2.]])
"""
# --8<-- [end:inplace_indexed]

# --8<-- [start:inplace_relu_chain]
from torch import nn

torch.manual_seed(0)
norm = nn.BatchNorm1d(3)
relu1, relu2 = nn.ReLU(inplace=True), nn.ReLU(inplace=True)
inputs = torch.randn(4, 3, requires_grad=True)
hidden = relu2(relu1(norm(inputs)))  # relu1 saves its output; relu2 then changes it
try:
    hidden.sum().backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [4, 3]], which is output 0 of Relu, is at version 2; expected version 1 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).
    """

# In place before the ReLU passes: here += changes batch norm's output, not a ReLU's.
hidden = norm(inputs)
hidden += 1  # as a residual connection adds its shortcut
relu1(hidden).sum().backward()
print(inputs.grad.shape)
#> torch.Size([4, 3])

# The fix: one ReLU is enough (a second one changes nothing), or make the second out of place.
hidden = relu1(norm(inputs))
print(torch.equal(hidden, torch.relu(hidden)))
#> True
torch.relu(hidden).sum().backward()
print(inputs.grad.shape)
#> torch.Size([4, 3])
# --8<-- [end:inplace_relu_chain]

# --8<-- [start:inplace_optimizer_step]
from torch import nn

torch.manual_seed(0)
generator, critic = nn.Linear(3, 3), nn.Linear(3, 1)
opt_critic = torch.optim.SGD(critic.parameters(), lr=0.1)
scores = critic(generator(torch.randn(4, 3)))  # the matrix product saved critic.weight
scores.mean().backward(retain_graph=True)  # the critic's loss
opt_critic.step()  # changes critic.weight in place: version 1 -> 2
try:
    (-scores.mean()).backward()  # the generator's loss, through the same forward pass
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.FloatTensor [3, 1]], which is output 0 of AsStrided, is at version 2; expected version 1 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).
    """

# The fix: after step(), run the forward pass again for the next loss.
scores = critic(generator(torch.randn(4, 3)))
(-scores.mean()).backward()
print(generator.weight.grad.shape)
#> torch.Size([3, 3])
# --8<-- [end:inplace_optimizer_step]

# --8<-- [start:scalar_outputs]
weight = torch.ones(3, requires_grad=True)
losses = weight * 2  # one loss per element: not a scalar
try:
    losses.backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: grad can be implicitly created only for scalar outputs

# The fix: reduce to a scalar first, or pass the gradient of the output yourself.
losses.sum().backward(retain_graph=True)
print(weight.grad)
#> tensor([2., 2., 2.])
weight.grad = None
losses.backward(gradient=torch.ones_like(losses))  # the same as .sum() here
print(weight.grad)
#> tensor([2., 2., 2.])
weight.grad = None
(weight * 2)[0].backward()  # the gradient of one element of the output only
print(weight.grad)
#> tensor([2., 0., 0.])
# --8<-- [end:scalar_outputs]

# --8<-- [start:scalar_outputs_data_parallel]
import re

# DataParallel's documentation: what a forward that returns a 0-dimensional loss gives back.
doc = re.sub(r":\w+:`([^`]*)`", r"\1", " ".join(torch.nn.DataParallel.__doc__.split()))
print(re.search(r"When module returns a scalar.*?each device\.", doc).group())
"""
When module returns a scalar (i.e., 0-dimensional tensor) in forward, this wrapper will return a vector of length equal to number of devices used in data parallelism, containing the result from each device.
"""

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
inputs, targets = torch.randn(8, 3), torch.randn(8, 1)
loss_fn = torch.nn.MSELoss()
# On two GPUs, each replica gets half the batch and returns its loss; the gather joins them.
# Without two GPUs, compute the two replicas' losses on the CPU and join them the same way:
losses = torch.stack([loss_fn(model(x), y) for x, y in zip(inputs.split(4), targets.split(4), strict=True)])
print(losses.shape)
#> torch.Size([2])
try:
    losses.backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: grad can be implicitly created only for scalar outputs

# The fix: average the replicas' losses, which gives the gradient of the whole batch's loss.
losses.mean().backward()
per_gpu = model.weight.grad.clone()
model.zero_grad()
loss_fn(model(inputs), targets).backward()  # one device, the whole batch
print(torch.allclose(per_gpu, model.weight.grad))
#> True
# --8<-- [end:scalar_outputs_data_parallel]

# --8<-- [start:non_leaf_grad]
import warnings

weight = torch.ones(3, requires_grad=True)
hidden = weight * 2  # computed from a leaf: not a leaf
hidden.sum().backward()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(hidden.grad)
    #> None
for w in caught:
    # The message ends with the location in PyTorch's C++ sources, which depends on
    # the build: print the part before it.
    message = str(w.message).split(" (Triggered internally")[0]
    print(f"{w.category.__name__}: {message}")
    """
    UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information.
    """
print(hidden.is_leaf, weight.is_leaf)
#> False True

# The fix: retain_grad() before backward() keeps the gradient of a non-leaf tensor.
hidden = weight * 2
hidden.retain_grad()
hidden.sum().backward()
print(hidden.grad)
#> tensor([1., 1., 1.])
# --8<-- [end:non_leaf_grad]

# --8<-- [start:inference_tensor_saved]
with torch.inference_mode():
    features = torch.ones(3)  # made in inference mode: an inference tensor
weight = torch.ones(3, requires_grad=True)
try:
    (weight * features).sum().backward()  # multiplication saves features
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.
    """
print(features.is_inference())
#> True

# The fix: clone it outside inference mode (or use torch.no_grad() to make it).
features = features.clone()
print(features.is_inference())
#> False
(weight * features).sum().backward()
print(weight.grad)
#> tensor([1., 1., 1.])
# --8<-- [end:inference_tensor_saved]

# --8<-- [start:integer_requires_grad]
try:
    torch.tensor([1, 2, 3], requires_grad=True)  # integers: int64
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Only Tensors of floating point and complex dtype can require gradients
try:
    torch.arange(3).requires_grad_()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: only Tensors of floating point dtype can require gradients

# The fix: a floating-point dtype (gradients are not defined for integers).
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(weight)
#> tensor([1., 2., 3.], requires_grad=True)
print(torch.arange(3, dtype=torch.float32).requires_grad_())
#> tensor([0., 1., 2.], requires_grad=True)
# --8<-- [end:integer_requires_grad]

# --8<-- [start:integer_requires_grad_argmax]
scores = torch.tensor([[0.1, 0.7, 0.2]], requires_grad=True)
values, indices = torch.max(scores, dim=1)
try:
    indices.requires_grad = True  # the indices of the maximum: int64
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: only Tensors of floating point and complex dtype can require gradients
print(indices.dtype, values.grad_fn.name())
#> torch.int64 MaxBackward0
print(indices.float().requires_grad_().grad_fn)  # a float copy: a new leaf, not connected to the scores
#> None
# The fix: the gradient flows through the values (or a loss on the scores), not the indices.
values.sum().backward()
print(scores.grad)
#> tensor([[0., 1., 0.]])
# --8<-- [end:integer_requires_grad_argmax]

# --8<-- [start:requires_grad_non_leaf]
weight = torch.ones(3, requires_grad=True)
hidden = weight * 2
try:
    hidden.requires_grad = False  # e.g. to stop gradients flowing back through it
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: you can only change requires_grad flags of leaf variables. If you want to use a computed variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().
    """

# The fix: detach() gives a tensor outside the graph (it shares the memory).
frozen = hidden.detach()
print(frozen.requires_grad, frozen.is_leaf)
#> False True
# --8<-- [end:requires_grad_non_leaf]

# --8<-- [start:requires_grad_true_non_leaf]
x = torch.zeros(3, requires_grad=True)
s = torch.sigmoid(x)  # computed from a leaf that requires grad
try:
    s.requires_grad = True  # meant to keep the gradient of s
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: you can only change requires_grad flags of leaf variables.
print(s.requires_grad, s.is_leaf)  # it requires grad already
#> True False

# The fix: retain_grad() alone, no flag to set; s.grad is filled by backward().
s.retain_grad()
s.sum().backward()
print(s.grad, x.grad)
#> tensor([1., 1., 1.]) tensor([0.2500, 0.2500, 0.2500])

# retain_grad() refuses a tensor that really does not require grad (computed under no_grad).
with torch.no_grad():
    t = torch.sigmoid(x)
try:
    t.retain_grad()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: can't retain_grad on Tensor that has requires_grad=False
# --8<-- [end:requires_grad_true_non_leaf]

# --8<-- [start:optimize_non_leaf]
torch.manual_seed(0)
image_syn = torch.randn(2, 3, requires_grad=True) * 0.01  # the flag, then a multiplication
print(image_syn.is_leaf, image_syn.grad_fn.name())
#> False MulBackward0
try:
    torch.optim.SGD([image_syn], lr=0.1)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: can't optimize a non-leaf Tensor
# A conversion after the flag is an operation too: a dtype, or a device (meta needs no GPU).
print(torch.randn(2, requires_grad=True).double().is_leaf, torch.randn(2, requires_grad=True).to("meta").is_leaf)
#> False False

# The fix: compute the starting value first, then set the flag (or make it a Parameter).
image_syn = (torch.randn(2, 3) * 0.01).requires_grad_()
param = torch.nn.Parameter(torch.randn(2, 3) * 0.01)
optimizer = torch.optim.SGD([image_syn, param], lr=0.1)
print(image_syn.is_leaf, param.is_leaf, len(optimizer.param_groups[0]["params"]))
#> True True 2
# --8<-- [end:optimize_non_leaf]

# --8<-- [start:optimizer_empty_params]
class Normalize(torch.nn.Module):  # a module with no learnable weights
    def forward(self, x):
        return x / x.norm()


model = Normalize()
print(list(model.parameters()))
#> []
try:
    torch.optim.Adam(model.parameters(), lr=1e-3)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: optimizer got an empty parameter list
# Two more ways to hand over nothing: every parameter frozen and filtered out,
# and a generator that an earlier loop has already used up.
frozen = torch.nn.Linear(2, 2).requires_grad_(False)
params = torch.nn.Linear(2, 2).parameters()
print(sum(p.numel() for p in params))  # consumes the generator
#> 6
for given in (filter(lambda p: p.requires_grad, frozen.parameters()), params):
    try:
        torch.optim.SGD(given, lr=0.1)
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        #> ValueError: optimizer got an empty parameter list
        #> ValueError: optimizer got an empty parameter list

# The fix: make a list once, and build the optimizer only when it is not empty.
params = list(model.parameters())
optimizer = torch.optim.Adam(params, lr=1e-3) if params else None
print(optimizer)
#> None
# --8<-- [end:optimizer_empty_params]

# --8<-- [start:unused_in_graph]
weight = torch.ones(3, requires_grad=True)
bias = torch.zeros(3, requires_grad=True)
loss = (weight * 2).sum()  # bias plays no part in the loss
try:
    torch.autograd.grad(loss, [weight, bias])
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: The differentiated Tensor at index 1 appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.
    """

# The fix: allow_unused=True returns None for the unused tensor (or drop it from the list).
loss = (weight * 2).sum()  # the failed call freed the graph: compute the loss again
print(torch.autograd.grad(loss, [weight, bias], allow_unused=True))
#> (tensor([2., 2., 2.]), None)
(weight * 2).sum().backward()  # backward() does not raise: it leaves bias.grad alone
print(bias.grad)
#> None
# --8<-- [end:unused_in_graph]

# --8<-- [start:higher_order]
# A second derivative: create_graph=True makes the first gradient differentiable.
x = torch.tensor([1.0, 2.0], requires_grad=True)
(grad,) = torch.autograd.grad((x**3).sum(), x, create_graph=True)
print(grad, torch.autograd.grad(grad.sum(), x))
#> tensor([ 3., 12.], grad_fn=<MulBackward0>) (tensor([ 6., 12.]),)
# A function linear in x (Linear layers only): its gradient does not depend on x.
torch.manual_seed(0)
linear = torch.nn.Linear(2, 1)
(grad,) = torch.autograd.grad(linear(x).sum(), x, create_graph=True)
try:
    torch.autograd.grad(grad.sum(), x)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: The differentiated Tensor at index 0 appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior.
    """
# The fix: allow_unused=True, and read None as a second derivative of zero.
(grad,) = torch.autograd.grad(linear(x).sum(), x, create_graph=True)
print(torch.autograd.grad(grad.sum(), x, allow_unused=True))
#> (None,)
(grad,) = torch.autograd.grad(linear(x).sum(), x, create_graph=True)
print(torch.autograd.grad(grad.sum(), x, allow_unused=True, materialize_grads=True))
#> (tensor([0., 0.]),)
# --8<-- [end:higher_order]

# --8<-- [start:higher_order_backward]
import warnings

x = torch.tensor([1.0, 2.0], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    (x**3).sum().backward(create_graph=True)
print(x.grad)  # 3 * x**2, with a grad_fn: part of the graph
#> tensor([ 3., 12.], grad_fn=<CopyBackwards>)
for w in caught:  # warned once per process: the first such backward() here
    print(f"{w.category.__name__}: {str(w.message).split(' (Triggered')[0]}")
    """
    UserWarning: Using backward() with create_graph=True will create a reference cycle between the parameter and its gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters to None after use to break the cycle and avoid the leak.
    """
first = x.grad
first.sum().backward()  # the second derivative, 6 * x, is added to x.grad
print(x.grad)
#> tensor([ 9., 24.], grad_fn=<CopyBackwards>)

# The fix: empty x.grad before differentiating the first gradient again.
x.grad = None
(x**3).sum().backward(create_graph=True)
first, x.grad = x.grad, None
first.sum().backward()
print(x.grad)
#> tensor([ 6., 12.])
# Or torch.autograd.grad, which returns the gradients and leaves x.grad alone.
(first,) = torch.autograd.grad((x**3).sum(), x, create_graph=True)
print(torch.autograd.grad(first.sum(), x))
#> (tensor([ 6., 12.]),)
# --8<-- [end:higher_order_backward]

# --8<-- [start:higher_order_constant]
x = torch.tensor([1.0, 2.0], requires_grad=True)
(dydx,) = torch.autograd.grad((2 * x).sum(), x, create_graph=True)
print(dydx, dydx.requires_grad, dydx.grad_fn)  # a constant: nothing to differentiate
#> tensor([2., 2.]) False None
for kwargs in ({}, {"allow_unused": True}):
    try:
        torch.autograd.grad(dydx.sum(), x, **kwargs)
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        #> RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn
        #> RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn


# The fix: a first derivative that does not require grad is constant: the second is zero.
def second_derivative(f, x):
    (grad,) = torch.autograd.grad(f(x), x, create_graph=True)
    if not grad.requires_grad:
        return torch.zeros_like(x)
    return torch.autograd.grad(grad.sum(), x, allow_unused=True, materialize_grads=True)[0]


print(second_derivative(lambda x: (2 * x).sum(), x), second_derivative(lambda x: (x**3).sum(), x))
#> tensor([0., 0.]) tensor([ 6., 12.])
# --8<-- [end:higher_order_constant]

# --8<-- [start:no_grad_fn_argmax]
torch.manual_seed(0)
model = torch.nn.Linear(4, 3)
logits = model(torch.randn(2, 4))
targets = torch.tensor([2, 0])
predictions = torch.softmax(logits, dim=1).argmax(dim=1)  # class ids: integers
print(predictions.dtype, predictions.requires_grad, predictions.grad_fn)
#> torch.int64 False None
loss = (predictions != targets).float().mean()  # the error rate
try:
    loss.backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn

# The fix: compute the loss from the scores themselves; keep argmax for accuracy.
loss = torch.nn.functional.cross_entropy(logits, targets)
loss.backward()
print(loss.grad_fn is not None, model.weight.grad.shape)
#> True torch.Size([3, 4])
# --8<-- [end:no_grad_fn_argmax]

# --8<-- [start:grad_in_hook]
w = torch.tensor([2.0], requires_grad=True)
x = torch.tensor([1.0, 3.0])
seen = {}


def penalty_grad(g):  # g: the gradient arriving at y during the backward pass
    handle.remove()  # the grad below passes through y again: run once
    seen["grad mode"], seen["g has a grad_fn"] = torch.is_grad_enabled(), g.grad_fn is not None
    try:
        seen["result"] = torch.autograd.grad((g**2).sum(), w, retain_graph=True)
    except RuntimeError as err:
        seen["result"] = f"{type(err).__name__}: {err}"


y = w * x
handle = y.register_hook(penalty_grad)
(y**2).sum().backward()  # the backward pass records nothing: g has no graph
print(seen.pop("result"))
#> RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn
print(seen)
#> {'grad mode': False, 'g has a grad_fn': False}

# The fix: create_graph=True records the backward pass, so g depends on w.
y = w * x
handle = y.register_hook(penalty_grad)
(dw,) = torch.autograd.grad((y**2).sum(), w, create_graph=True)
print(seen)
#> {'grad mode': True, 'g has a grad_fn': True, 'result': (tensor([160.]),)}


# A derivative with respect to g itself: record under enable_grad, from a detached copy.
def grad_wrt_g(g):
    with torch.enable_grad():
        g = g.detach().requires_grad_()
        seen["d/dg"] = torch.autograd.grad((g**2).sum(), g)


y = w * x
y.register_hook(grad_wrt_g)
(y**2).sum().backward()
print(seen["d/dg"])
#> (tensor([ 8., 24.]),)
# --8<-- [end:grad_in_hook]

# --8<-- [start:jacobian_create_graph]
from torch.autograd.functional import jacobian


def cube(a):
    return a**3


a = torch.tensor(3.0, requires_grad=True)
d = jacobian(cube, a)  # g'(a) = 3a^2, computed without a graph
print(d, d.grad_fn)
#> tensor(27.) None
try:
    torch.autograd.grad(d, a)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn

# The fix: create_graph=True keeps the graph, so g'(a) can be differentiated: g''(a) = 6a.
d = jacobian(cube, a, create_graph=True)
print(d, torch.autograd.grad(d, a))
#> tensor(27., grad_fn=<ViewBackward0>) (tensor(18.),)
(d,) = torch.autograd.grad(cube(a), a, create_graph=True)  # the same with autograd.grad
print(torch.autograd.grad(d, a), torch.func.grad(torch.func.grad(cube))(torch.tensor(3.0)))
#> (tensor(18.),) tensor(18.)

import tensorflow as tf

a = tf.constant(3.0)
with tf.GradientTape() as outer:  # TensorFlow: the inner gradient computed inside the outer tape
    outer.watch(a)
    with tf.GradientTape() as inner:
        inner.watch(a)
        y = a**3
    d = inner.gradient(y, a)
print(d.numpy(), outer.gradient(d, a).numpy())
#> 27.0 18.0
# --8<-- [end:jacobian_create_graph]

# --8<-- [start:backward_twice_gan]
torch.manual_seed(0)
generator = torch.nn.Linear(2, 2)
discriminator = torch.nn.Linear(2, 1)
fake = generator(torch.randn(4, 2))  # D(G(z)): one graph through both networks
loss_g = -discriminator(fake).mean()
loss_g.backward()  # frees the graph, the generator's part included
loss_d = discriminator(fake).mean()  # fake still leads back into the generator
try:
    loss_d.backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}".split(" (")[0])
    #> RuntimeError: Trying to backward through the graph a second time

# The fix: the discriminator's loss uses the fake samples detached from the generator.
before = generator.weight.grad.clone()
loss_d = discriminator(fake.detach()).mean()
loss_d.backward()
print(torch.equal(generator.weight.grad, before))  # the generator's gradients are untouched
#> True
# --8<-- [end:backward_twice_gan]

# --8<-- [start:anomaly_nan]
import warnings

hits = torch.zeros(1, requires_grad=True)
total = torch.zeros(1, requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        ratio = hits / total  # 0 / 0
        try:
            ratio.sum().backward()
        except RuntimeError as err:
            print(f"{type(err).__name__}: {err}")
            #> RuntimeError: Function 'DivBackward0' returned nan values in its 1th output.
print(ratio)
#> tensor([nan], grad_fn=<DivBackward0>)
# Anomaly mode warns that it is on, and names the operation (then the forward traceback).
enabled, detected = caught[0], caught[1]
print(f"{enabled.category.__name__}: {enabled.message}")
"""
UserWarning: Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for debugging.
"""
print(f"{detected.category.__name__}: {str(detected.message).splitlines()[0]}")
#> UserWarning: Error detected in DivBackward0. Traceback of forward call that caused the error:

# Without anomaly mode, the NaN reaches the gradients without an error.
(hits / total).sum().backward()
print(total.grad)
#> tensor([nan])

# The fix: keep the divisor away from zero (or leave empty cases out).
hits.grad, total.grad = None, None
ratio = hits / total.clamp(min=1e-8)
ratio.sum().backward()
print(ratio, hits.grad.isnan().any().item(), total.grad.isnan().any().item())
#> tensor([0.], grad_fn=<DivBackward0>) False False
# --8<-- [end:anomaly_nan]

# --8<-- [start:atan2_nan]
import warnings

# Bins of a spectrogram: imaginary parts (the numerator) and real parts (the denominator).
numerator = torch.tensor([0.5, 3e-20, 0.0], requires_grad=True)
denominator = torch.tensor([0.0, 4e-20, 0.0], requires_grad=True)
weight = torch.tensor([1.0, 0.0, 1.0])  # the loss leaves the second bin out
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # anomaly mode's warnings, shown in the entry above
    with torch.autograd.detect_anomaly():
        nudge = (denominator == 0) * 1e-7  # the reader's guard: exact zeros only
        phase = torch.atan2(numerator, denominator + nudge)
        try:
            (phase * weight).sum().backward()
        except RuntimeError as err:
            print(f"{type(err).__name__}: {err}")
            #> RuntimeError: Function 'Atan2Backward0' returned nan values in its 0th output.
# Both gradients divide by x**2 + y**2: tiny, but not zero, in the second bin.
print((numerator**2 + denominator**2).detach())
#> tensor([2.5000e-01, 2.5000e-39, 0.0000e+00])
# Without the guard and without anomaly mode: 1 / 2.5e-39 overflows float32 to inf, and the
# zero weight times inf is NaN. Exact zeros give 0.
numerator.grad = None
(torch.atan2(numerator, denominator) * weight).sum().backward()
print(numerator.grad)
#> tensor([0., nan, 0.])
# With a weight of 1 the gradient is inf, and anomaly mode lets it pass.
numerator.grad = None
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        torch.atan2(numerator, denominator).sum().backward()
print(numerator.grad)
#> tensor([0., inf, 0.])
# A NaN that reaches atan2 from the layers before it is named the same way.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    with torch.autograd.detect_anomaly():
        try:
            torch.atan2(numerator * float("nan"), denominator).sum().backward()
        except RuntimeError as err:
            print(f"{type(err).__name__}: {err}")
            #> RuntimeError: Function 'Atan2Backward0' returned nan values in its 0th output.

# The fix: keep x**2 + y**2 away from zero. Bins of (near) zero magnitude get atan2(0, 1).
numerator.grad, denominator.grad = None, None
small = torch.hypot(numerator, denominator) < 1e-6  # a bool mask: no gradient of its own
safe_numerator = torch.where(small, torch.zeros_like(numerator), numerator)
safe_denominator = torch.where(small, torch.ones_like(denominator), denominator)
phase = torch.atan2(safe_numerator, safe_denominator)
(phase * weight).sum().backward()
print(phase.detach(), numerator.grad, denominator.grad)
#> tensor([1.5708, 0.0000, 0.0000]) tensor([0., 0., 0.]) tensor([-2.,  0.,  0.])
# --8<-- [end:atan2_nan]

# --8<-- [start:grad_frozen]
model = torch.nn.Linear(3, 2)
model.bias.requires_grad_(False)  # a frozen parameter
loss = model(torch.ones(1, 3)).sum()
try:
    torch.autograd.grad(loss, list(model.parameters()))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: One of the differentiated Tensors does not require grad

# The fix: ask only for the tensors that require grad.
trainable = [p for p in model.parameters() if p.requires_grad]
grads = torch.autograd.grad(loss, trainable)
print(len(grads), grads[0])
"""
1 tensor([[1., 1., 1.],
        [1., 1., 1.]])
"""
# --8<-- [end:grad_frozen]

# --8<-- [start:hook_no_grad]
model = torch.nn.Linear(3, 2)
with torch.no_grad():
    output = model(torch.ones(1, 3))  # no graph: output does not require grad
try:
    output.register_hook(print)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: cannot register a hook on a tensor that doesn't require gradient

# The fix: a gradient hook (as Grad-CAM uses) needs the forward pass recorded.
grads = []
output = model(torch.ones(1, 3))
output.register_hook(grads.append)
output.sum().backward()
print(grads[0])
#> tensor([[1., 1.]])
# --8<-- [end:hook_no_grad]

# --8<-- [start:unbind_inplace]
means, stds = [0.5, 0.4, 0.3], [0.2, 0.2, 0.2]
image = torch.zeros(3, 2, 2, requires_grad=True)
normalized = image * 1  # an image that is part of a graph
try:
    for channel, mean, std in zip(normalized, means, stds, strict=True):  # unbinds it
        channel.mul_(std).add_(mean)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Output 0 of Unbind is a view and is being modified inplace. This view is the output of a function that returns multiple views. Such functions do not allow the output views to be modified inplace. You should replace the inplace operation by an out-of-place one.
    """

# The fix: one out-of-place operation for all channels.
restored = normalized * torch.tensor(stds).view(3, 1, 1) + torch.tensor(means).view(3, 1, 1)
print(restored[:, 0, 0], restored.grad_fn is not None)
#> tensor([0.5000, 0.4000, 0.3000], grad_fn=<SelectBackward0>) True
# --8<-- [end:unbind_inplace]

# --8<-- [start:backward_gradient_shape]
weight = torch.ones(3, requires_grad=True)
loss = (weight * 2).sum()  # a 0-dimensional tensor
one = torch.tensor([1.0])  # shape (1,)
try:
    loss.backward(one)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Mismatch in shape: grad_output[0] has a shape of torch.Size([1]) and output[0] has a shape of torch.Size([]).
    """

# The fix: a gradient of the loss's own shape, torch.tensor(1.0) (or none at all).
loss.backward(torch.tensor(1.0))
print(weight.grad)
#> tensor([2., 2., 2.])
# --8<-- [end:backward_gradient_shape]

# --8<-- [start:function_gradient_count]
class Sign(torch.autograd.Function):
    """sign(x) in the forward pass; the gradient passes through unchanged (straight through)."""

    @staticmethod
    def forward(ctx, x, is_training):  # two inputs: a tensor and a flag
        return torch.sign(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output  # one gradient for two inputs


x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
try:
    Sign.apply(x, True).sum().backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: function SignBackward returned an incorrect number of gradients (expected 2, got 1)
    """


# The fix: one gradient per input of forward, None for the flag, which has none.
class SignFixed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, is_training):
        return torch.sign(x)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None


SignFixed.apply(x, True).sum().backward()
print(x.grad)
#> tensor([1., 1., 1.])
# --8<-- [end:function_gradient_count]

# --8<-- [start:legacy_function]
import warnings


class BinActive(torch.autograd.Function):
    """An old-style Function: ordinary methods, and `self` in place of `ctx`."""

    def forward(self, x):
        self.save_for_backward(x)
        return x.sign()

    def backward(self, grad_output):
        (x,) = self.saved_tensors
        return grad_output * (x.abs() < 1)  # no gradient where |x| >= 1


x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        BinActive()(x)  # an instance called like a module, as older code does
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        """
        RuntimeError: Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd function with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)
        """
for w in caught:  # creating the instance warned first (the class's name left out)
    print(f"{w.category.__name__}: {str(w.message).split('> ', 1)[1]}")
    """
    DeprecationWarning: should not be instantiated. Methods on autograd functions are all static, so you should invoke them on the class itself. Instantiating an autograd function will raise an error in a future version of PyTorch.
    """


# The fix: static methods that take ctx, called through the class's apply().
class BinActiveFixed(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sign()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() < 1)


BinActiveFixed.apply(x).sum().backward()
print(x.grad)
#> tensor([0., 1., 0.])
# --8<-- [end:legacy_function]

# --8<-- [start:function_no_backward]
class SignNoBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.sign(x)  # and no backward()


x = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
try:
    SignNoBackward.apply(x).sum().backward()
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    """
    NotImplementedError: You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.
    """
# --8<-- [end:function_no_backward]

# --8<-- [start:tape_non_persistent]
import tensorflow as tf

w = tf.Variable(3.0)
with tf.GradientTape() as tape:
    loss_a = w * w
    loss_b = 2.0 * w
print(tape.gradient(loss_a, w).numpy())
#> 6.0
try:
    tape.gradient(loss_b, w)  # a second call on the same tape
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)
    """
# Fix 1: a persistent tape answers any number of calls; delete it when done.
with tf.GradientTape(persistent=True) as tape:
    loss_a = w * w
    loss_b = 2.0 * w
print(tape.gradient(loss_a, w).numpy(), tape.gradient(loss_b, w).numpy())
#> 6.0 2.0
del tape  # a persistent tape holds its recorded values until it is deleted
# Fix 2: one call; a list of targets gives the gradient of their sum.
with tf.GradientTape() as tape:
    loss_a = w * w
    loss_b = 2.0 * w
print(tape.gradient([loss_a, loss_b], w).numpy())
#> 8.0
# One call also takes a list of sources: one gradient each.
b = tf.Variable(1.0)
with tf.GradientTape() as tape:
    loss = w * w + 5.0 * b
print([float(g) for g in tape.gradient(loss, [w, b])])
#> [6.0, 5.0]
# --8<-- [end:tape_non_persistent]

# --8<-- [start:tape_still_recording]
import tensorflow as tf

y = tf.constant([2.0, 1.0])
v = tf.Variable([3.0, 4.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(y)
    w = y * y * v
    grads = tape.gradient(w, y)  # 2 * y * v, recorded by the same tape
    try:
        with tape:  # entering the tape again inside its own block
            pass
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        """
        ValueError: Tape is still recording, This can happen if you try to re-enter an already-active tape.
        """
    print(tape.jacobian(grads, v).numpy())  # inside the block: runs in these releases
    """
    [[4. 0.]
     [0. 2.]]
    """
# The first gradient outside the block: not recorded, so no path back to v.
with tf.GradientTape(persistent=True) as tape:
    tape.watch(y)
    w = y * y * v
grads = tape.gradient(w, y)
print(tape.jacobian(grads, v))
#> None
# Fix: nested tapes; the inner gradient inside the outer tape, the outer jacobian after it.
with tf.GradientTape() as outer:
    outer.watch(y)
    with tf.GradientTape() as inner:
        inner.watch(y)
        w = y * y * v
    grads = inner.gradient(w, y)
print(outer.jacobian(grads, v).numpy())
"""
[[4. 0.]
 [0. 2.]]
"""
# --8<-- [end:tape_still_recording]

# --8<-- [start:no_gradients_provided]
import re

import keras
import tensorflow as tf

y_n = tf.Variable(1.0, name="y_n")
cost = (y_n - 3.0) ** 2  # computed once, before minimize
adam = keras.optimizers.Adam(0.5)
print(hasattr(adam, "minimize"))  # Keras 3 optimizers have no minimize
#> False
v1_adam = tf.compat.v1.train.AdamOptimizer(0.5)
try:
    v1_adam.minimize(lambda: cost, var_list=[y_n])
except ValueError as err:
    print(f"{type(err).__name__}: {re.sub('0x[0-9a-f]+', '0x...', str(err))}")
    """
    ValueError: No gradients provided for any variable, check your graph for ops that do not support gradients, between variables ["<tf.Variable 'y_n:0' shape=() dtype=float32, numpy=1.0>"] and loss <function <lambda> at 0x...>.
    """
# Keras 3's form of the same mistake: the loss computed before the tape.
with tf.GradientTape() as tape:
    pass
grads = tape.gradient(cost, [y_n])
print(grads)
#> [None]
try:
    adam.apply_gradients(zip(grads, [y_n], strict=True))
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: No gradients provided for any variable.
# Fix: compute the loss inside the callable (or inside the tape).
v1_adam.minimize(lambda: (y_n - 3.0) ** 2, var_list=[y_n])
print(y_n.numpy())
#> 1.5
with tf.GradientTape() as tape:
    cost = (y_n - 3.0) ** 2
grads = tape.gradient(cost, [y_n])
adam.apply_gradients(zip(grads, [y_n], strict=True))
print(round(float(y_n), 3))
#> 2.0
# --8<-- [end:no_gradients_provided]
