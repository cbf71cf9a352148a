"""Autograd essentials: requires_grad, leaf tensors and .grad, detach, no_grad and
inference_mode, in-place operations and the version counter, retain_graph, and
gradients that accumulate.

Run with `python examples/fundamentals/autograd_basics.py`. The `#>` lines under each
print are the output PyTorch printed when the site was built; the test suite runs this
script again and compares.
"""

# --8<-- [start:requires_grad]
import torch

weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
data = torch.tensor([4.0, 5.0, 6.0])  # requires_grad is False by default
print(weight.requires_grad, data.requires_grad)
#> True False

# A result requires grad when at least one of its inputs does, and records how it
# was made in grad_fn.
product = weight * data
print(product.requires_grad, product.grad_fn.name())
#> True MulBackward0

# Computed from tensors that do not require grad: nothing is recorded.
doubled = data * 2
print(doubled.requires_grad, doubled.grad_fn)
#> False None

# requires_grad_() switches it on for a tensor you created.
data.requires_grad_()
print((data * 2).requires_grad)
#> True
# --8<-- [end:requires_grad]

# --8<-- [start:leaf]
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
data = torch.tensor([4.0, 5.0, 6.0])
hidden = weight * data  # computed: not a leaf
loss = hidden.sum()
print(weight.is_leaf, data.is_leaf, hidden.is_leaf, loss.is_leaf)
#> True True False False

print(weight.grad)  # no gradient before backward()
#> None
loss.backward()
print(weight.grad)  # d(loss)/d(weight) = data
#> tensor([4., 5., 6.])
print(data.grad)  # a leaf that does not require grad gets none
#> None
# --8<-- [end:leaf]

# --8<-- [start:leaf_conversion]
import warnings

weight = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
converted = weight.type(torch.float)
print(converted.is_leaf, converted.grad_fn.name())
#> False ToCopyBackward0
print(weight.float().is_leaf, weight.to(torch.float32).is_leaf)  # the same
#> False False
converted.sum().backward()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # reading .grad of a non-leaf warns
    print(converted.grad)  # computed, not a leaf: no gradient kept
    #> None
print(weight.grad)  # the gradient went to the leaf, in its own dtype
#> tensor([1., 1., 1.], dtype=torch.float64)

# Converting to the dtype a tensor already has returns the tensor itself.
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(weight.float() is weight, weight.to(torch.float32) is weight)
#> True True
print(weight.type(torch.float) is weight)
#> True

# The fix: make the leaf in the dtype you want, or convert before requires_grad_().
weight = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float32, requires_grad=True)
loaded = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
other = loaded.float().requires_grad_()
(weight * other).sum().backward()
print(weight.grad, other.grad)
#> tensor([1., 2., 3.]) tensor([1., 2., 3.])
# --8<-- [end:leaf_conversion]

# --8<-- [start:retain_grad]
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
hidden = weight * 2
hidden.retain_grad()  # ask backward() to keep this intermediate gradient
loss = (hidden**2).sum()
loss.retain_grad()  # the loss is a computed tensor too: without this, loss.grad is None
loss.backward()
print(hidden.grad)  # d(loss)/d(hidden) = 2 * hidden
#> tensor([ 4.,  8., 12.])
print(weight.grad)  # through hidden = 2 * weight: 2 * 2 * hidden
#> tensor([ 8., 16., 24.])
print(loss.grad)  # backward() starts from d(loss)/d(loss) = 1
#> tensor(1.)
# --8<-- [end:retain_grad]

# --8<-- [start:input_gradient]
torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.ReLU(), torch.nn.Dropout(0.5),
    torch.nn.Flatten(), torch.nn.Linear(4 * 8 * 8, 10),
)
model.eval()  # dropout off: the gradient describes the model you predict with
for p in model.parameters():
    p.requires_grad_(False)  # optional: only the image's gradient is wanted
image = torch.rand(1, 3, 8, 8)
image.requires_grad_()  # the input is a leaf: backward() fills image.grad
scores = model(image)
c = scores.argmax(dim=1).item()  # the class to explain
scores[0, c].backward()  # one number: d(score of class c) / d(every pixel)
print(image.grad.shape)  # same shape as the image
#> torch.Size([1, 3, 8, 8])
saliency = image.grad.abs().amax(dim=1)[0]  # strongest channel per pixel
print(saliency.shape)
#> torch.Size([8, 8])

# torch.autograd.grad returns the gradient instead of storing it in .grad
(grad,) = torch.autograd.grad(model(image)[0, c], image)
print(torch.equal(grad, image.grad))
#> True

model.train()  # forgotten eval(): dropout draws a new mask on every call
g1, g2 = (torch.autograd.grad(model(image)[0, c], image)[0] for _ in range(2))
print(torch.equal(g1, g2))
#> False
# --8<-- [end:input_gradient]

# --8<-- [start:where_gradient]
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
y = torch.tensor([-1.0, -2.0, 3.0, 4.0], requires_grad=True)
mask = x > 2  # computed from x, but a bool tensor outside the graph
print(mask, mask.requires_grad, mask.grad_fn)
#> tensor([False, False,  True,  True]) False None
z = torch.where(mask, x, y)
print(z)
#> tensor([-1., -2.,  3.,  4.], grad_fn=<WhereBackward0>)
z.sum().backward()
print(x.grad, y.grad)  # x's gradient where the mask is True, y's where it is False
#> tensor([0., 0., 1., 1.]) tensor([1., 1., 0., 0.])

# A threshold used only in the comparison gets no gradient at all.
threshold = torch.tensor(2.5, requires_grad=True)
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
torch.where(x > threshold, x, 0.0).sum().backward()
print(x.grad, threshold.grad)
#> tensor([0., 0., 1., 1.]) None

# The fix, to learn the threshold: a soft mask, close to the hard one for a small tau.
tau = 0.1
soft_mask = torch.sigmoid((x - threshold) / tau)
z = soft_mask * x
print(z.detach().round(decimals=2))
#> tensor([0.0000, 0.0100, 2.9800, 4.0000])
z.sum().backward()
print(threshold.grad.round(decimals=2))
#> tensor(-0.3300)
# --8<-- [end:where_gradient]

# --8<-- [start:where_nan]
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
root = torch.sqrt(x)  # sqrt(0) is fine, but its derivative at 0 is inf
root.retain_grad()
y = torch.where(x > 0, root, 0.0)  # the value at 0 comes from the other branch
print(y)
#> tensor([0., 1., 2.], grad_fn=<WhereBackward0>)
y.sum().backward()
print(x.grad)  # NaN where the branch was not taken
#> tensor([   nan, 0.5000, 0.2500])
print(root.grad)  # where() sends 0 to the branch it did not take...
#> tensor([0., 1., 1.])
zero = torch.tensor(0.0)
print(zero / (2 * torch.sqrt(zero)))  # ...and sqrt's backward divides it by 2 * sqrt(0): NaN
#> tensor(nan)

# The fix: give the unused branch an input it can differentiate.
x.grad = None
safe = torch.where(x > 0, x, 1.0)  # any value where sqrt has a finite derivative
y = torch.where(x > 0, torch.sqrt(safe), 0.0)
y.sum().backward()
print(y.detach(), x.grad)
#> tensor([0., 1., 2.]) tensor([0.0000, 0.5000, 0.2500])
# --8<-- [end:where_nan]

# --8<-- [start:detach]
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
hidden = weight * 2
frozen = hidden.detach()
print(frozen.requires_grad, frozen.grad_fn, frozen.is_leaf)
#> False None True

# detach() copies nothing: the result shares memory (and the version counter).
print(frozen.data_ptr() == hidden.data_ptr())
#> True
frozen[0] = 100.0
print(hidden)
#> tensor([100.,   4.,   6.], grad_fn=<MulBackward0>)
print(hidden._version, frozen._version)
#> 1 1

# No gradient flows back through a detached value: it counts as a constant.
weight = torch.tensor([3.0], requires_grad=True)
loss = weight * weight.detach()  # d(loss)/d(weight) = 3, not 2 * 3
loss.backward()
print(weight.grad)
#> tensor([3.])
# --8<-- [end:detach]

# --8<-- [start:data]
import re

weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = weight.sigmoid()  # sigmoid saves its result for the backward pass
print(out.data.requires_grad)  # .data is outside the graph, like detach()
#> False
out.data.zero_()  # an in-place write through .data changes out...
print(out, out._version)  # ...but is not counted
#> tensor([0., 0., 0.], grad_fn=<SigmoidBackward0>) 0
out.sum().backward()  # no error, and a wrong gradient
print(weight.grad)
#> tensor([0., 0., 0.])

# Through detach() the same write is counted, and backward() refuses.
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = weight.sigmoid()
out.detach().zero_()
print(out._version)
#> 1
try:
    out.sum().backward()
except RuntimeError as err:
    found = re.search(r"is at version \d+; expected version \d+", str(err))
    print(f"{type(err).__name__}: ... {found.group()} ...")
    #> RuntimeError: ... is at version 1; expected version 0 ...

# The right gradient, without the write: sigmoid(w) * (1 - sigmoid(w)).
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
weight.sigmoid().sum().backward()
print(weight.grad)
#> tensor([0.1966, 0.1050, 0.0452])
# --8<-- [end:data]

# --8<-- [start:no_grad]
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    print(torch.is_grad_enabled())
    #> False
    hidden = weight * 2  # not recorded
print(torch.is_grad_enabled())
#> True
print(weight.requires_grad, hidden.requires_grad, hidden.grad_fn)
#> True False None

# What no_grad() makes are normal tensors: they can join a recorded computation later.
print(hidden.is_inference())
#> False
loss = (weight * hidden).sum()
loss.backward()
print(weight.grad)
#> tensor([2., 4., 6.])


# As a decorator, it switches recording off for every call of the function.
@torch.no_grad()
def predict(x):
    return x * weight


print(predict(torch.ones(3)).requires_grad)
#> False
# --8<-- [end:no_grad]

# --8<-- [start:inference_mode]
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
data = torch.zeros(3)
with torch.inference_mode():
    features = weight * 2  # a new tensor: an inference tensor
    first_two = data[:2]  # a view of an ordinary tensor stays ordinary
print(features.requires_grad, features.is_inference(), first_two.is_inference())
#> False True False

# An inference tensor keeps no version counter...
try:
    print(features._version)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Inference tensors do not track version counter.

# ...so outside inference mode it cannot be changed in place...
try:
    features.add_(1)
except RuntimeError as err:
    print(f"{type(err).__name__}: {str(err).split('.')[0]}")
    #> RuntimeError: Inplace update to inference tensor outside InferenceMode is not allowed

# ...but it can be read, and clone() gives a normal tensor.
print((features + 1).is_inference())
#> False
copy = features.clone()
print(copy.is_inference())
#> False
copy.add_(1)
print(copy)
#> tensor([4., 6., 8.])
# --8<-- [end:inference_mode]

# --8<-- [start:version_counter]
hidden = torch.zeros(4)
print(hidden._version)
#> 0
hidden.add_(1)  # in-place methods end in an underscore
hidden += 1  # so do augmented assignments on a tensor
hidden[0] = 5.0  # and writes through indexing
print(hidden._version)
#> 3

# A view shares its base's counter: writing into the view counts for both.
first_half = hidden[:2]
first_half.mul_(2)
print(hidden._version, first_half._version)
#> 4 4

# An out-of-place operation makes a new tensor, at version 0.
print((hidden + 1)._version)
#> 0
# --8<-- [end:version_counter]

# --8<-- [start:inplace_saved]
def backward_after(make, change):
    """Compute make(weight), change the result in place, then call backward()."""
    weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    result = make(weight)
    change(result)
    try:
        result.sum().backward()
    except RuntimeError as err:
        # The part of the message that names the versions (the full message is in
        # the error atlas).
        found = re.search(r"is at version \d+; expected version \d+", str(err))
        return f"{type(err).__name__}: ... {found.group()} ..."
    return f"ok, grad {weight.grad}"


def add_one(t):
    t += 1


# Multiplying by 2 saves the 2, not its result: changing the result is safe.
print(backward_after(lambda w: w * 2, add_one))
#> ok, grad tensor([2., 2., 2.])
# exp and sigmoid save their result for the backward pass: changing it is not.
print(backward_after(torch.exp, add_one))
#> RuntimeError: ... is at version 1; expected version 0 ...
print(backward_after(torch.sigmoid, add_one))
#> RuntimeError: ... is at version 1; expected version 0 ...

# exp saves its output, not its input: changing its input afterwards is safe.
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
hidden = weight * 2
result = torch.exp(hidden)
hidden += 1  # the input of exp, changed after exp ran
result.sum().backward()
print(torch.allclose(weight.grad, 2 * result.detach()))  # the gradient of exp(2w) is 2 exp(2w)
#> True

# The out-of-place form makes a new tensor and leaves the saved one alone.
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
result = torch.exp(weight)
result = result + 1
result.sum().backward()
print(torch.allclose(weight.grad, weight.detach().exp()))  # the gradient of exp is exp
#> True
# --8<-- [end:inplace_saved]

# --8<-- [start:inplace_relu]
# ReLU(inplace=True) writes into its input and returns it: no second tensor.
torch.manual_seed(0)
layer = torch.nn.Linear(3, 3)
hidden = layer(torch.ones(2, 3))
activated = torch.nn.ReLU(inplace=True)(hidden)
print(activated is hidden, activated.grad_fn.name())
#> True ReluBackward0
activated.sum().backward()  # Linear saves its input, not its output: safe
print(layer.bias.grad)
#> tensor([0., 0., 2.])


def saved_changed(err):
    """The part of the message that names the saved tensor and its versions."""
    found = re.search(r"output 0 of \w+, is at version \d+; expected version \d+", str(err))
    return f"{type(err).__name__}: ... {found.group()} ..."


# relu saves its result, so out += residual after it breaks backward()...
weight = torch.tensor([-1.0, 2.0, 3.0], requires_grad=True)
residual = torch.ones(3)
out = torch.relu(weight)
out += residual
try:
    out.sum().backward()
except RuntimeError as err:
    print(saved_changed(err))
    #> RuntimeError: ... output 0 of Relu, is at version 1; expected version 0 ...

# ...and an in-place relu changes the result that sigmoid saved.
out = torch.sigmoid(weight)
out = torch.nn.functional.relu(out, inplace=True)
try:
    out.sum().backward()
except RuntimeError as err:
    print(saved_changed(err))
    #> RuntimeError: ... output 0 of Sigmoid, is at version 1; expected version 0 ...

# The fixes: out = out + residual makes a new tensor...
out = torch.relu(weight)
out = out + residual
out.sum().backward()
print(weight.grad)
#> tensor([0., 1., 1.])

# ...and a relu that is not in place leaves sigmoid's result alone.
weight.grad = None
torch.nn.functional.relu(torch.sigmoid(weight)).sum().backward()
print(weight.grad)
#> tensor([0.1966, 0.1050, 0.0452])
# --8<-- [end:inplace_relu]

# --8<-- [start:inplace_input]
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
data = torch.tensor([4.0, 5.0, 6.0])
loss = (weight * data).sum()  # the gradient for weight needs data: mul saves it
data.add_(1)  # no error here...
try:
    loss.backward()  # ...the check runs at backward()
except RuntimeError as err:
    found = re.search(r"is at version \d+; expected version \d+", str(err))
    print(f"{type(err).__name__}: ... {found.group()} ...")
    #> RuntimeError: ... is at version 1; expected version 0 ...

# Change data only after backward(), or change a copy.
loss = (weight * data).sum()
loss.backward()
data.add_(1)
print(weight.grad)
#> tensor([5., 6., 7.])
# --8<-- [end:inplace_input]

# --8<-- [start:inplace_leaf]
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
try:
    weight -= 0.1  # a hand-written update step, while autograd records
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.

# Writing through a view of the leaf, or into it with out=, is refused as well.
try:
    weight[:] += 1
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place operation.
    """
try:
    torch.add(weight, 1, out=weight)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: add(): functions with out=... arguments don't support automatic differentiation, but one of the arguments requires grad.
    """
print(weight.is_leaf, weight._version)  # none of them went through
#> True 0

# Inside no_grad() it is allowed, and counted by the version counter.
with torch.no_grad():
    weight -= 0.1
print(weight, weight._version)
#> tensor([0.9000, 1.9000, 2.9000], requires_grad=True) 1

# So are the other two forms, and the tensor stays a leaf that requires grad.
with torch.no_grad():
    weight[:] += 1
    torch.add(weight, 1, out=weight)
print(weight.is_leaf, weight.requires_grad)
#> True True
# --8<-- [end:inplace_leaf]

# --8<-- [start:retain_graph]
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = weight.exp().sum()  # exp saves its result
loss.backward(retain_graph=True)  # keep the saved tensors for another pass
loss.backward()  # this one frees them
print(weight.grad.round(decimals=4))  # two passes: 2 * exp(weight)
#> tensor([ 5.4366, 14.7781, 40.1711])
try:
    loss.backward()
except RuntimeError as err:
    print(type(err).__name__, "second time" in str(err))
    #> RuntimeError True

# A graph that saved no tensor has nothing to free: adding a constant saves nothing.
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
loss = (weight + 1).sum()
loss.backward()
loss.backward()
print(weight.grad)
#> tensor([2., 2., 2.])
# --8<-- [end:retain_graph]

# --8<-- [start:two_losses]
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
shared = weight.exp()  # both losses use this part of the graph
loss_a = shared.sum()
loss_b = (shared * 2).sum()
loss_a.backward()  # frees what exp saved
try:
    loss_b.backward(retain_graph=True)  # too late: the shared part is gone
except RuntimeError as err:
    print(type(err).__name__, "second time" in str(err))
    #> RuntimeError True

# Fix 1: retain_graph=True on every backward() but the last.
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
shared = weight.exp()
shared.sum().backward(retain_graph=True)
(shared * 2).sum().backward()
twice = weight.grad.clone()

# Fix 2: add the losses and call backward() once.
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
shared = weight.exp()
(shared.sum() + (shared * 2).sum()).backward()
print(torch.allclose(weight.grad, twice), torch.allclose(weight.grad, 3 * shared))
#> True True
# --8<-- [end:two_losses]

# --8<-- [start:accumulate]
weight = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
for step in range(3):
    loss = (weight * 2).sum()  # the gradient of each pass is 2
    loss.backward()  # adds to weight.grad, it does not replace it
    print(step, weight.grad)
    #> 0 tensor([2., 2., 2.])
    #> 1 tensor([4., 4., 4.])
    #> 2 tensor([6., 6., 6.])

weight.grad.zero_()  # reset in place: the tensor stays, filled with zeros
print(weight.grad)
#> tensor([0., 0., 0.])
weight.grad = None  # or drop it: the next backward() creates it again
print(weight.grad)
#> None
# --8<-- [end:accumulate]

# --8<-- [start:zero_grad]
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.ones(2, 3)).sum().backward()
print(model.bias.grad)
#> tensor([2.])

optimizer.zero_grad()  # set_to_none=True by default
print(model.bias.grad)
#> None

model(torch.ones(2, 3)).sum().backward()
optimizer.zero_grad(set_to_none=False)  # keep the tensors, filled with zeros
print(model.bias.grad)
#> tensor([0.])
# --8<-- [end:zero_grad]

# --8<-- [start:grad_none_skipped]
trained = torch.nn.Parameter(torch.ones(2))
frozen = torch.nn.Parameter(torch.ones(2), requires_grad=False)  # never gets a .grad
for optimizer in (
    torch.optim.SGD([trained, frozen], lr=0.1, momentum=0.9, weight_decay=0.1),
    torch.optim.Adam([trained, frozen], lr=0.1, weight_decay=0.1),
    torch.optim.AdamW([trained, frozen], lr=0.1, weight_decay=0.1),
):
    optimizer.zero_grad()
    (trained * 3).sum().backward()
    optimizer.step()
print(trained.grad, frozen.grad)
#> tensor([3., 3.]) None
print(trained.data, frozen.data)  # three optimizers stepped: only the parameter with a .grad moved
#> tensor([0.4841, 0.4841]) tensor([1., 1.])

# A parameter trained for a step, then frozen: a .grad of zeros is not None.
for set_to_none in (True, False):
    weight = torch.nn.Parameter(torch.ones(2))
    optimizer = torch.optim.SGD([weight], lr=0.1, weight_decay=0.1)
    (weight * 3).sum().backward()
    optimizer.step()
    weight.requires_grad_(False)  # frozen from now on
    optimizer.zero_grad(set_to_none=set_to_none)
    before = weight.detach().clone()
    optimizer.step()
    print(set_to_none, weight.grad, before, weight.data)
    #> True None tensor([0.6900, 0.6900]) tensor([0.6900, 0.6900])
    #> False tensor([0., 0.]) tensor([0.6900, 0.6900]) tensor([0.6831, 0.6831])
# --8<-- [end:grad_none_skipped]

# --8<-- [start:micro_batches]
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
inputs, targets = torch.randn(8, 3), torch.randn(8, 1)
loss_fn = torch.nn.MSELoss()

# One batch of 8.
model.zero_grad()
loss_fn(model(inputs), targets).backward()
full = model.weight.grad.clone()

# The same 8 in two micro-batches of 4: each loss halved, gradients summed.
model.zero_grad()
for part_in, part_target in zip(inputs.split(4), targets.split(4), strict=True):
    (loss_fn(model(part_in), part_target) / 2).backward()
print(torch.allclose(model.weight.grad, full))
#> True
# --8<-- [end:micro_batches]

# --8<-- [start:micro_batches_batchnorm]
import copy

torch.manual_seed(0)
inputs, targets = torch.randn(8, 3), torch.randn(8, 1)
for norm in (torch.nn.BatchNorm1d(4), torch.nn.LayerNorm(4)):
    whole = torch.nn.Sequential(torch.nn.Linear(3, 4), norm, torch.nn.Linear(4, 1))
    parts = copy.deepcopy(whole)  # the same weights
    loss_fn(whole(inputs), targets).backward()  # one batch of 8
    for part_in, part_target in zip(inputs.split(2), targets.split(2), strict=True):
        (loss_fn(parts(part_in), part_target) / 4).backward()  # four micro-batches of 2
    print(type(norm).__name__, torch.allclose(whole[0].weight.grad, parts[0].weight.grad))
    #> BatchNorm1d False
    #> LayerNorm True

# BatchNorm's running statistics: one update from the batch of 8, four from the micro-batches.
whole, parts = torch.nn.BatchNorm1d(3), torch.nn.BatchNorm1d(3)
whole(inputs)
for part_in in inputs.split(2):
    parts(part_in)
print(whole.num_batches_tracked.item(), whole.running_mean)
#> 1 tensor([-0.0048,  0.0005,  0.0074])
print(parts.num_batches_tracked.item(), parts.running_mean)
#> 4 tensor([0.0060, 0.0036, 0.0111])
# --8<-- [end:micro_batches_batchnorm]

# --8<-- [start:param_groups]
from torch import nn

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))  # backbone, then head
backbone = model[0]
lr = 1e-3
backbone_ids = {id(p) for p in backbone.parameters()}
base = [p for p in model.parameters() if id(p) not in backbone_ids]
optimizer = torch.optim.Adam(
    [{"params": base}, {"params": backbone.parameters(), "lr": 0.1 * lr}], lr=lr
)
for group in optimizer.param_groups:  # the group without "lr" takes the default
    print(len(group["params"]), group["lr"], group["betas"])
    #> 2 0.001 (0.9, 0.999)
    #> 2 0.0001 (0.9, 0.999)

# A parameter in two groups (base = all of model.parameters()) is refused.
try:
    torch.optim.Adam(
        [{"params": model.parameters()}, {"params": backbone.parameters(), "lr": 0.1 * lr}], lr=lr
    )
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: some parameters appear in more than one parameter group

# A scheduler scales each group's own rate.
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.5)
optimizer.step()
scheduler.step()
print([group["lr"] for group in optimizer.param_groups])
#> [0.0005, 5e-05]
# --8<-- [end:param_groups]

# --8<-- [start:param_groups_unused]
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 1))
stray = torch.randn(3, 64, 64)  # a random tensor that nothing computes with
optimizer = torch.optim.SGD(
    [{"params": model[0].parameters(), "lr": 0.1}, {"params": stray}], lr=1e15, momentum=0.85
)
groups = optimizer.param_groups
print([len(group["params"]) for group in groups], [group["lr"] for group in groups])
#> [2, 1] [0.1, 1000000000000000.0]
print(groups[0]["params"][0] is model[0].weight, groups[1]["params"][0] is stray)  # the objects
#> True True
weight_before, stray_before = model[0].weight.clone(), stray.clone()
last_before = model[1].weight.clone()  # the last layer is in no group
model(torch.randn(8, 4)).pow(2).mean().backward()
print(model[0].weight.grad is None, stray.grad)
#> False None
optimizer.step()
# The first layer moved by -lr * its own .grad; the tensor without a .grad did not move.
print(torch.allclose(model[0].weight, weight_before - 0.1 * model[0].weight.grad))
#> True
print(torch.equal(stray, stray_before))
#> True
print(model[1].weight.grad is None, torch.equal(model[1].weight, last_before))
#> False True
# --8<-- [end:param_groups_unused]
