"""Autograd pitfalls: training code that runs without an error and learns the wrong thing,
or keeps what it should have let go.

Each section prints the surprising result a reader reported, then the fix's result.

Run with `python examples/pitfalls/autograd_pitfalls.py`.
"""

# --8<-- [start:running_loss]
import torch


def graph_nodes(tensor):
    """The number of autograd nodes that `tensor` keeps alive through its grad_fn."""
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(next_node for next_node, _ in node.next_functions)
    return len(seen)


torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
inputs, targets = torch.randn(8, 4), torch.randn(8, 1)

running_loss, sizes = 0.0, {}
for step in range(1, 101):
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(inputs), targets)
    loss.backward()
    optimizer.step()
    running_loss += loss  # a tensor with a grad_fn: this step's graph joins the total
    if step in (1, 2, 10, 100):
        sizes[step] = graph_nodes(running_loss)
print(type(running_loss).__name__, type(running_loss.grad_fn).__name__)
#> Tensor AddBackward0
print(sizes)  # nodes kept alive after 1, 2, 10 and 100 steps
#> {1: 6, 2: 10, 10: 42, 100: 402}

# The fix: add a Python number (loss.item()), or a detached tensor (loss.detach()).
running_loss = 0.0
for _ in range(100):
    optimizer.zero_grad()
    loss = torch.nn.functional.mse_loss(model(inputs), targets)
    loss.backward()
    optimizer.step()
    running_loss += loss.item()
print(type(running_loss).__name__, round(running_loss / 100, 3))  # the mean loss
#> float 1.094
# --8<-- [end:running_loss]

# --8<-- [start:accumulated_loss]
import torch
from torch import nn


class Saved:
    """A tensor autograd saved for backward: its bytes count until backward frees it.

    A tensor saved by two operations (a layer's output and the next layer's input) counts twice.
    """

    alive = 0

    def __init__(self, tensor):
        self.tensor, self.nbytes = tensor, tensor.numel() * tensor.element_size()
        Saved.alive += self.nbytes

    def __del__(self):
        Saved.alive -= self.nbytes


def saved_kib():
    return Saved.alive // 1024


counting = torch.autograd.graph.saved_tensors_hooks(Saved, lambda saved: saved.tensor)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 64), nn.Tanh(), nn.Linear(64, 1))
criterion = nn.MSELoss()
sequences = [torch.randn(100 * (i % 3 + 1), 16) for i in range(8)]  # 8 lengths: 100 to 300
targets = [torch.randn(len(seq), 1) for seq in sequences]

with counting:
    loss, kib = 0, []
    for seq, y in zip(sequences, targets, strict=True):
        loss_part = criterion(model(seq), y)
        loss += loss_part  # every part's graph stays alive until loss.backward()
        kib.append(saved_kib())
    print("loss += loss_part, KiB saved after each part:", kib)
    #> loss += loss_part, KiB saved after each part: [57, 171, 342, 400, 514, 685, 743, 857]
    loss.backward()
    print("after backward():", saved_kib())
    #> after backward(): 0
summed = [p.grad.clone() for p in model.parameters()]
model.zero_grad()

with counting:  # one loss over the concatenated sequences saves as much
    loss = criterion(model(torch.cat(sequences)), torch.cat(targets))
    print("concatenated, KiB saved before backward():", saved_kib())
    #> concatenated, KiB saved before backward(): 855
    loss.backward()
model.zero_grad()

# The fix: backward() on each part; the gradients add up in .grad.
with counting:
    kib = []
    for seq, y in zip(sequences, targets, strict=True):
        loss_part = criterion(model(seq), y)
        kib.append(saved_kib())
        loss_part.backward()  # frees this part's graph
    print("loss_part.backward(), KiB saved before each backward():", kib)
    #> loss_part.backward(), KiB saved before each backward(): [57, 114, 171, 57, 114, 171, 57, 114]
print(all(torch.allclose(p.grad, s) for p, s in zip(model.parameters(), summed, strict=True)))
#> True

# What backward() does not free: tensors you keep. A list that lives across iterations grows.
kept = []
with counting:
    for iteration in (1, 2):
        loss = 0
        for seq, y in zip(sequences, targets, strict=True):
            hidden = model[1](model[0](seq))
            kept.append(hidden)  # features kept for later, with their graph
            loss += criterion(model[2](hidden), y)
        loss.backward()
        kept_kib = sum(t.numel() * t.element_size() for t in kept) // 1024
        print(f"iteration {iteration}: saved {saved_kib()} KiB, kept in the list {kept_kib} KiB")
        #> iteration 1: saved 0 KiB, kept in the list 375 KiB
        #> iteration 2: saved 0 KiB, kept in the list 750 KiB
print(type(kept[0].grad_fn).__name__, kept[0].detach().grad_fn)
#> TanhBackward0 None
# --8<-- [end:accumulated_loss]

# --8<-- [start:no_zero_grad]
x = torch.tensor([1.0, 2.0, 3.0])
y = 3 * x  # the weight to learn is 3

for reset in (False, True):
    weight = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.SGD([weight], lr=0.02)
    losses = []
    for _ in range(30):
        if reset:
            optimizer.zero_grad()  # the fix: one call before each backward()
        loss = ((weight * x - y) ** 2).mean()
        loss.backward()  # adds this step's gradient to weight.grad
        optimizer.step()
        losses.append(round(loss.item(), 4))
    print(f"zero_grad={reset}: loss every 5 steps {losses[::5]}")
    #> zero_grad=False: loss every 5 steps [42.0, 23.7426, 0.8557, 35.1337, 34.0263, 0.5235]
    #> zero_grad=True: loss every 5 steps [42.0, 5.3203, 0.6739, 0.0854, 0.0108, 0.0014]
    print(f"zero_grad={reset}: weight {round(weight.item(), 4)}")
    #> zero_grad=False: weight 0.6816
    #> zero_grad=True: weight 2.9939
# --8<-- [end:no_zero_grad]

# --8<-- [start:clip_after_step]
import torch


def one_step(order):
    w = torch.nn.Parameter(torch.tensor([1.0, 1.0]))
    opt = torch.optim.SGD([w], lr=0.05)
    (10 * w).sum().backward()  # gradient 10 per weight, norm 14.14
    if order == "step, then clip":
        opt.step()
        torch.nn.utils.clip_grad_norm_([w], max_norm=1.0)  # too late: the update is done
    elif order == "backward, clip, step":
        torch.nn.utils.clip_grad_norm_([w], max_norm=1.0)
        opt.step()
    else:
        opt.step()
    return w.detach(), round(w.grad.norm().item(), 2)  # the weight, the gradient norm



print(one_step("no clipping"))
#> (tensor([0.5000, 0.5000]), 14.14)
print(one_step("step, then clip"))  # the same update: clipped too late
#> (tensor([0.5000, 0.5000]), 1.0)
print(one_step("backward, clip, step"))
#> (tensor([0.9646, 0.9646]), 1.0)
# --8<-- [end:clip_after_step]

# --8<-- [start:tensor_of_losses]
import warnings

weight = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
losses = [weight[0] * 3, weight[1] ** 2]  # two losses, each with a grad_fn

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    stacked = torch.tensor(losses)  # copies the values only
print([f"{w.category.__name__}: {str(w.message).splitlines()[0]}" for w in caught])
"""
['UserWarning: Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.']
"""
print(stacked, stacked.requires_grad, stacked.grad_fn)
#> tensor([3., 4.]) False None
(stacked.sum() + weight.sum()).backward()
print(weight.grad)  # only the gradient of weight.sum(): the two losses are missing
#> tensor([1., 1.])

# The fix: torch.stack (or torch.cat) keeps each loss in the graph.
weight.grad = None
stacked = torch.stack(losses)
print(stacked, type(stacked.grad_fn).__name__)
#> tensor([3., 4.], grad_fn=<StackBackward0>) StackBackward0
(stacked.sum() + weight.sum()).backward()
print(weight.grad)
#> tensor([4., 5.])
# --8<-- [end:tensor_of_losses]

# --8<-- [start:eval_still_tracks]
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.5))
batch = torch.randn(2, 4)

model.eval()  # switches Dropout and BatchNorm to evaluation behaviour, and only that
output = model(batch)
print(model.training, output.requires_grad, type(output.grad_fn).__name__)
#> False True AddmmBackward0

# The fix: run evaluation under torch.no_grad() (or torch.inference_mode()) as well.
with torch.no_grad():
    output = model(batch)
print(model.training, output.requires_grad, output.grad_fn)
#> False False None
# --8<-- [end:eval_still_tracks]

# --8<-- [start:validation_keeps_graphs]
import weakref

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))


def batches_still_in_memory(grad_enabled, keep_number=False):
    """Validate 5 batches, keeping each loss; count the batches whose activations stay alive."""
    losses, activations = [], []
    for _ in range(5):
        with torch.set_grad_enabled(grad_enabled):
            hidden = model[1](model[0](torch.randn(2, 4)))
            loss = model[2](hidden).mean()
        losses.append(loss.item() if keep_number else loss)  # kept for the epoch's average
        activations.append(weakref.ref(hidden))
    del hidden, loss
    return sum(ref() is not None for ref in activations)


print("without no_grad:", batches_still_in_memory(True))
#> without no_grad: 5
print("under no_grad:", batches_still_in_memory(False))
#> under no_grad: 0
print("without no_grad, keeping loss.item():", batches_still_in_memory(True, keep_number=True))
#> without no_grad, keeping loss.item(): 0
# --8<-- [end:validation_keeps_graphs]

# --8<-- [start:requires_grad_after]
x = torch.tensor([1.0, 2.0])
y = x * 2  # recorded nowhere: x does not require grad yet
y.requires_grad = True  # set after the operation: y becomes a leaf of its own
(y**2).sum().backward()
print(x.grad, y.grad, y.is_leaf)  # the gradient stops at y
#> None tensor([4., 8.]) True

# The fix: set requires_grad on the tensor you want the gradient of, before using it.
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
(y**2).sum().backward()
print(x.grad, y.is_leaf, type(y.grad_fn).__name__)  # d/dx (2x)**2 = 8x
#> tensor([ 8., 16.]) False MulBackward0
# --8<-- [end:requires_grad_after]

# --8<-- [start:module_requires_grad]
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 3), torch.nn.Linear(3, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model[1].requires_grad = False  # meant to freeze the last layer
print(model[1].requires_grad, [p.requires_grad for p in model[1].parameters()])
#> False [True, True]
print("requires_grad" in vars(model[1]))  # a plain attribute of the module object, read by nothing
#> True
before = model[1].weight.detach().clone()
model(torch.ones(2, 3)).sum().backward()
optimizer.step()
print(torch.equal(model[1].weight, before))  # the "frozen" layer has trained
#> False

# The fix: the method requires_grad_(False) sets the flag of each of the module's parameters.
model[1].requires_grad_(False)
print([p.requires_grad for p in model[1].parameters()])
#> [False, False]
before = model[1].weight.detach().clone()
optimizer.zero_grad()
model(torch.ones(2, 3)).sum().backward()
print(model[1].weight.grad)  # no gradient: the optimizer skips the parameter
#> None
optimizer.step()
print(torch.equal(model[1].weight, before))
#> True
# --8<-- [end:module_requires_grad]

# --8<-- [start:data_edit]
import torch

weight = torch.tensor([3.0], requires_grad=True)
scaled = weight * 1.0  # not a leaf: recorded by autograd
scaled.data *= 4  # the edit through .data is not recorded
loss = (2 * scaled).sum()  # 2 * 4 * weight = 24
loss.backward()
print(loss.item(), weight.grad)  # d(8 * weight)/d(weight) is 8
#> 24.0 tensor([2.])

# The fix: make the change an operation autograd records.
weight.grad = None
scaled = weight * 1.0
scaled = scaled * 4
(2 * scaled).sum().backward()
print(weight.grad)
#> tensor([8.])
# --8<-- [end:data_edit]

# --8<-- [start:where_nan]
import torch

x = torch.tensor([-1.0, -4.0, 4.0], requires_grad=True)
torch.where(x > 0, torch.sqrt(x), x).sum().backward()  # sqrt is taken only where x > 0
print(x.grad)  # but the negative x get nan, not 1
#> tensor([   nan,    nan, 0.2500])

# The fix: give sqrt a safe input where its result is not used.
x.grad = None
safe = torch.where(x > 0, x, torch.ones_like(x))
torch.where(x > 0, torch.sqrt(safe), x).sum().backward()
print(x.grad)
#> tensor([1.0000, 1.0000, 0.2500])
# --8<-- [end:where_nan]

# --8<-- [start:tf_where_nan]
import tensorflow as tf
import torch

a = tf.Variable([1.0, 2.0, 10.0])  # all < 15: the output is a itself
with tf.GradientTape() as tape:
    y = tf.where(a < 15.0, a, tf.math.pow(10.0, tf.math.exp(a)))  # 10 ** e**10 overflows
print(y.numpy(), tape.gradient(y, a).numpy())
#> [ 1.  2. 10.] [ 1.  1. nan]

# The fix, a double where: feed the unused branch a safe value, then select again.
with tf.GradientTape() as tape:
    safe = tf.where(a < 15.0, tf.zeros_like(a), a)
    y = tf.where(a < 15.0, a, tf.math.pow(10.0, tf.math.exp(safe)))
print(y.numpy(), tape.gradient(y, a).numpy())
#> [ 1.  2. 10.] [1. 1. 1.]

# The same with log at 0, the usual variant, and its fix.
x = tf.Variable([0.0, 2.0])
with tf.GradientTape() as tape:
    y = tf.where(x > 0, tf.math.log(x), 0.0)
print(tape.gradient(y, x).numpy())
#> [nan 0.5]
with tf.GradientTape() as tape:
    y = tf.where(x > 0, tf.math.log(tf.where(x > 0, x, 1.0)), 0.0)
print(tape.gradient(y, x).numpy())
#> [0.  0.5]

# PyTorch gives the same nan for the overflow.
t = torch.tensor([1.0, 2.0, 10.0], requires_grad=True)
torch.where(t < 15, t, torch.pow(10.0, torch.exp(t))).sum().backward()
print(t.grad)
#> tensor([1., 1., nan])
# --8<-- [end:tf_where_nan]

# --8<-- [start:unused_rows_nan]
import tensorflow as tf
import torch

torch.manual_seed(0)
layer = torch.nn.Linear(3, 2)
batch = torch.randn(4, 3)
batch[2:] = float("nan")  # two rows of the batch hold NaN
layer(batch)[:2].sum().backward()  # the loss uses only the first two rows
print(layer.weight.grad)  # yet every weight gradient is NaN
"""
tensor([[nan, nan, nan],
        [nan, nan, nan]])
"""
print(layer.bias.grad)
#> tensor([2., 2.])
# The fix: drop (or replace) the NaN rows before the layer, not after it.
layer.zero_grad()
layer(batch[:2]).sum().backward()
print(layer.weight.grad.isnan().any().item(), layer.bias.grad)
#> False tensor([2., 2.])
# TensorFlow: the same with a Dense layer and a mask on the output.
dense = tf.keras.layers.Dense(2)
rows = tf.constant(batch.numpy())
mask = tf.constant([[1.0], [1.0], [0.0], [0.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(dense(rows) * mask)
kernel_grad, bias_grad = tape.gradient(loss, [dense.kernel, dense.bias])
print(tf.reduce_any(tf.math.is_nan(kernel_grad)).numpy(), bias_grad.numpy())
#> True [2. 2.]
clean = tf.where(tf.math.is_nan(rows), 0.0, rows)  # replace NaN inputs first
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(dense(clean) * mask)
print(tf.reduce_any(tf.math.is_nan(tape.gradient(loss, dense.kernel))).numpy())
#> False
# --8<-- [end:unused_rows_nan]

# --8<-- [start:tape_gradient_none]
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
model = tf.keras.Sequential(
    [tf.keras.Input((2,)), tf.keras.layers.Dense(2), tf.keras.layers.BatchNormalization()]
)
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x, training=True))
grads = tape.gradient(loss, model.variables)  # includes the moving statistics
print([v.name for v, g in zip(model.variables, grads, strict=True) if g is None])
#> ['moving_mean', 'moving_variance']
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x, training=True))
grads = tape.gradient(loss, model.trainable_variables)  # the fix: trainable ones only
print(sum(g is None for g in grads))
#> 0

# A tensor (a constant, or one made from NumPy) is not watched, unlike a tf.Variable.
image = tf.ones((1, 4, 4, 1))
kernel = tf.ones((3, 3, 1, 1))
with tf.GradientTape() as tape:
    out = tf.reduce_sum(tf.nn.conv2d(image, kernel, strides=1, padding="VALID"))
print(tape.gradient(out, [image, kernel]))
#> [None, None]
with tf.GradientTape(persistent=True) as tape:  # persistent: gradient() more than once
    tape.watch([image, kernel])  # the fix: watch the tensors inside the tape
    out = tf.reduce_sum(tf.nn.conv2d(image, kernel, strides=1, padding="VALID"))
print(tape.gradient(out, image).shape, tape.gradient(out, kernel).shape)
#> (1, 4, 4, 1) (3, 3, 1, 1)
# A variable the result does not depend on: None, or zeros if asked for.
unused = tf.Variable([1.0, 2.0])
print(tape.gradient(out, unused))
#> None
print(tape.gradient(out, unused, unconnected_gradients=tf.UnconnectedGradients.ZERO))
#> tf.Tensor([0. 0.], shape=(2,), dtype=float32)
# --8<-- [end:tape_gradient_none]


# --8<-- [start:tape_layer_output]
import keras
import numpy as np
import tensorflow as tf

keras.utils.set_random_seed(0)
model = keras.Sequential(
    [keras.Input((3,)), keras.layers.Dense(4, name="hidden"), keras.layers.Dense(1, name="out")]
)
x = np.ones((2, 3), dtype="float32")
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x))
output = model.get_layer("hidden").output  # a placeholder of the model's graph
print(type(output).__name__, isinstance(output, tf.Tensor))  # not a tensor this call recorded
#> KerasTensor False

# The fix: compute the layer's output inside the tape and ask for the gradient of that tensor.
with tf.GradientTape() as tape:
    hidden = model.get_layer("hidden")(x)
    loss = tf.reduce_sum(model.get_layer("out")(hidden))
grad_hidden = tape.gradient(loss, hidden)  # Torch's gradOutput of the hidden layer
print(grad_hidden.shape, hidden.shape)
#> (2, 4) (2, 4)
# d loss / d hidden is the next layer's kernel, for each sample:
print(np.allclose(grad_hidden, np.tile(model.get_layer("out").kernel.numpy().T, (2, 1))))
#> True

# Or a model that also returns the hidden output, called inside the tape.
probe = keras.Model(model.inputs[0], [model.get_layer("hidden").output, model.outputs[0]])
with tf.GradientTape() as tape:
    hidden, out = probe(x)
    loss = tf.reduce_sum(out)
print(np.allclose(tape.gradient(loss, hidden), grad_hidden))
#> True
# --8<-- [end:tape_layer_output]

# --8<-- [start:tape_numpy]
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)
generator = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(6)])
discriminator = tf.keras.Sequential([tf.keras.Input((3, 2)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
noise = tf.ones((4, 2))
with tf.GradientTape() as tape:
    fake = generator(noise)
    fake_np = fake.numpy().reshape(4, 3, 2)  # leaves TensorFlow: the tape loses the path
    g_loss = -tf.reduce_mean(discriminator(fake_np))
print(tape.gradient(g_loss, generator.trainable_variables))
#> [None, None]

with tf.GradientTape() as tape:
    fake = np.reshape(generator(noise), (4, 3, 2))  # a NumPy function returns an ndarray too
    g_loss = -tf.reduce_mean(discriminator(fake))
print(type(fake).__name__, tape.gradient(g_loss, generator.trainable_variables))
#> ndarray [None, None]

with tf.GradientTape() as tape:
    fake = tf.reshape(generator(noise), (4, 3, 2))  # the fix: stay in TensorFlow
    g_loss = -tf.reduce_mean(discriminator(fake))
print([g.shape for g in tape.gradient(g_loss, generator.trainable_variables)])
#> [TensorShape([2, 6]), TensorShape([6])]
# --8<-- [end:tape_numpy]
