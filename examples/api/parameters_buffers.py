"""nn.Parameter and register_buffer: what a module trains, saves and moves.

Run with `python examples/api/parameters_buffers.py`. The `#>` lines under each print
are the output the libraries printed when the site was built; the test suite runs
this script again and compares.
"""

# --8<-- [start:module]
import torch
from torch import nn


class Scaler(nn.Module):
    """Learns a scale; keeps a running mean, a cache and a plain tensor for comparison."""

    def __init__(self) -> None:
        super().__init__()
        self.scale = nn.Parameter(torch.ones(3))  # assigning a Parameter registers it
        self.register_buffer("running_mean", torch.zeros(3))  # saved, not trained
        self.register_buffer("cache", torch.zeros(3), persistent=False)  # neither
        self.register_buffer("steps", torch.tensor(0))  # an integer buffer
        self.plain = torch.zeros(3)  # a plain attribute: the module does not know it

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            self.running_mean.mul_(0.9).add_(0.1 * x.mean(dim=0))
            self.steps += 1
        return x * self.scale


scaler = Scaler()
# --8<-- [end:module]

# --8<-- [start:listing]
print([name for name, _ in scaler.named_parameters()])
#> ['scale']
print([name for name, _ in scaler.named_buffers()])
#> ['running_mean', 'cache', 'steps']
print(list(scaler.state_dict()))  # parameters and persistent buffers
#> ['scale', 'running_mean', 'steps']
print(scaler.scale.requires_grad, scaler.running_mean.requires_grad)
#> True False
saved = scaler.state_dict()  # no "cache" key in it
print(Scaler().load_state_dict(saved))  # strict=True by default, and nothing is missing
#> <All keys matched successfully>
# --8<-- [end:listing]

# --8<-- [start:none_buffer]
class Tracker(nn.Module):
    """Registers a buffer as None: it is set only later, in training."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("some_state", None)


fresh = Tracker()
print(list(fresh.state_dict()))  # a None buffer is not in the state_dict
#> []
trained = Tracker()
trained.some_state = torch.ones(3)  # set during training: now it is saved
saved = trained.state_dict()
print(list(saved))
#> ['some_state']
try:
    Tracker().load_state_dict(saved)
except RuntimeError as err:
    print(type(err).__name__, str(err).expandtabs(4).strip())  # the message indents with a tab
    """
    RuntimeError Error(s) in loading state_dict for Tracker:
        Unexpected key(s) in state_dict: "some_state".
    """
restored = Tracker()
restored.some_state = torch.empty_like(saved["some_state"])  # a tensor of the saved shape first
print(restored.load_state_dict(saved), restored.some_state)
#> <All keys matched successfully> tensor([1., 1., 1.])
# --8<-- [end:none_buffer]

# --8<-- [start:optimizer]
optimizer = torch.optim.SGD(scaler.parameters(), lr=0.1)
print(sum(len(group["params"]) for group in optimizer.param_groups))  # only `scale`
#> 1
batch = torch.tensor([[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]])
scaler(batch).sum().backward()
optimizer.step()
print(scaler.scale.detach(), scaler.running_mean, scaler.steps)
#> tensor([0.6000, 0.4000, 0.2000]) tensor([0.2000, 0.3000, 0.4000]) tensor(1)
# --8<-- [end:optimizer]

# --8<-- [start:to]
scale_before, mean_before = scaler.scale, scaler.running_mean
converted = scaler.to(torch.float64)
print(converted is scaler)  # modules convert in place and return themselves
#> True
print(scaler.scale is scale_before, scaler.running_mean is mean_before)  # buffers: new tensors
#> True False
print(mean_before.dtype, scaler.running_mean.dtype)  # the earlier reference is not converted
#> torch.float32 torch.float64
print(scaler.scale.dtype, scaler.running_mean.dtype, scaler.cache.dtype)
#> torch.float64 torch.float64 torch.float64
print(scaler.steps.dtype)  # .to(dtype) leaves integer tensors as they are
#> torch.int64
print(scaler.plain.dtype)  # a plain attribute is left behind
#> torch.float32
on_meta = Scaler().to("meta")  # a device move: "meta" stands in for "cuda" on any machine
print([tensor.device.type for tensor in (on_meta.scale, on_meta.running_mean, on_meta.cache, on_meta.steps, on_meta.plain)])
#> ['meta', 'meta', 'meta', 'meta', 'cpu']
print(torch.nn.Module.cuda.__doc__.split(".")[0].strip())  # .cuda() is .to("cuda") in short
#> Move all model parameters and buffers to the GPU
# --8<-- [end:to]

# --8<-- [start:buffer_list]
class Anchors(nn.Module):
    def __init__(self):
        super().__init__()
        self.anchors = []  # a list kept beside the registered buffers
        for i in range(2):
            self.register_buffer(f"anchor{i}", torch.zeros(2))
            self.anchors.append(getattr(self, f"anchor{i}"))

    def anchor_list(self) -> list[torch.Tensor]:  # the fix: read them from the module
        return [getattr(self, f"anchor{i}") for i in range(2)]


anchors = Anchors().to("meta")  # "meta" stands in for .cuda()
print([t.device.type for t in anchors.anchors])  # the list: the old tensors
#> ['cpu', 'cpu']
print([t.device.type for t in anchors.anchor_list()], [t.device.type for _, t in anchors.named_buffers()])
#> ['meta', 'meta'] ['meta', 'meta']
print(hasattr(nn, "ParameterList"), hasattr(nn, "BufferList"))  # no list type for buffers
#> True False
# --8<-- [end:buffer_list]

# --8<-- [start:keep_on_cpu]
class Recommender(nn.Module):
    def __init__(self, table: nn.Embedding):
        super().__init__()
        self.table = table  # too large for the GPU, in the report
        self.head = nn.Linear(4, 1)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        rows = self.table(ids)
        return self.head(rows.to(self.head.weight.device))  # only the looked-up rows move


model = Recommender(nn.Embedding(1000, 4)).to("meta")  # "meta" stands in for "cuda"
print({name: p.device.type for name, p in model.named_parameters()})  # the table moved too
#> {'table.weight': 'meta', 'head.weight': 'meta', 'head.bias': 'meta'}


class CpuEmbedding(nn.Embedding):
    """An embedding table that stays on the CPU when its model moves."""

    def _apply(self, fn, recurse=True):
        return self  # .to(), .cuda(), .half() and the like skip this module

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return super().forward(ids.cpu())  # the lookup runs on the CPU


torch.manual_seed(0)
model = Recommender(CpuEmbedding(1000, 4)).to("meta")
print({name: p.device.type for name, p in model.named_parameters()})
#> {'table.weight': 'cpu', 'head.weight': 'meta', 'head.bias': 'meta'}
print(model(torch.tensor([1, 2])).device)  # the output is on the model's device
#> meta
print(model.half().table.weight.dtype, model.head.weight.dtype)  # .half() skips it too
#> torch.float32 torch.float16

# Still registered: in parameters() (so in the optimizer) and in the state_dict. A step on the
# CPU trains the table too.
model = Recommender(CpuEmbedding(1000, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
before = model.table.weight[1].clone()
model(torch.tensor([1, 2])).sum().backward()
opt.step()
print(list(model.state_dict()), not torch.equal(before, model.table.weight[1]))
#> ['table.weight', 'head.weight', 'head.bias'] True

# Kept out of the module instead: not moved, but not in parameters() or the state_dict either.
hidden = Recommender(nn.Embedding(1000, 4))
del hidden.table  # unregister, then store it as a plain attribute
hidden.__dict__["table"] = nn.Embedding(1000, 4)
hidden.to("meta")
print(hidden.table.weight.device.type, [name for name, _ in hidden.named_parameters()])
#> cpu ['head.weight', 'head.bias']
# --8<-- [end:keep_on_cpu]

# --8<-- [start:assignment]
scaler.running_mean = torch.ones(3)  # assigning a tensor to a buffer's name keeps it a buffer
print("running_mean" in dict(scaler.named_buffers()))
#> True
try:
    scaler.scale = torch.ones(3)  # a parameter's name accepts only a Parameter (or None)
except TypeError as err:
    print(err)
    #> cannot assign 'torch.FloatTensor' as parameter 'scale' (torch.nn.Parameter or None expected)
scaler.extra = nn.Parameter(torch.zeros(1))  # a new Parameter attribute: registered
print([name for name, _ in scaler.named_parameters()])
#> ['scale', 'extra']
# --8<-- [end:assignment]

# --8<-- [start:freezing]
layers = nn.Sequential(nn.Linear(8, 4), nn.Linear(4, 2))
layers[0].requires_grad_(False)  # freeze the first layer: it stays a parameter
trainable = [p for p in layers.parameters() if p.requires_grad]
print(sum(p.numel() for p in layers.parameters()), sum(p.numel() for p in trainable))
#> 46 10
print(len(layers.state_dict()))  # frozen parameters are still saved
#> 4
# --8<-- [end:freezing]

# --8<-- [start:freeze_later_layers]
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 1))
x = torch.randn(16, 4)
net(x).pow(2).mean().backward()  # nothing frozen: the first layer's gradient, for comparison
reference = net[0].weight.grad.clone()
net.zero_grad(set_to_none=True)

net[1:].requires_grad_(False)  # freeze every layer after the first
optimizer = torch.optim.SGD(net[0].parameters(), lr=0.1)  # and train the first one only
before = [p.clone() for p in net.parameters()]
out = net(x)
print(type(out.grad_fn).__name__)  # the frozen last layer's operation is still recorded
#> AddmmBackward0
with torch.no_grad():  # torch.no_grad() instead records nothing: no gradient for any layer
    print(net(x).requires_grad)
    #> False
out.pow(2).mean().backward()
print(torch.equal(net[0].weight.grad, reference))  # the same gradient reaches the first layer
#> True
print([p.grad is None for p in net.parameters()])  # the frozen parameters store none
#> [False, False, True, True, True, True]
optimizer.step()
print([torch.equal(p, b) for p, b in zip(net.parameters(), before, strict=True)])  # unchanged?
#> [False, False, True, True, True, True]
# --8<-- [end:freeze_later_layers]

# --8<-- [start:freezing_optimizer]
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 1))
net[0].requires_grad_(False)  # freeze the first layer
# Frozen parameters may go to the optimizer (releases before pull request 7419 raised ValueError here).
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=0.1)
before = net[0].weight.clone()
net(torch.ones(2, 4)).sum().backward()
optimizer.step()
print(net[0].weight.grad, torch.equal(net[0].weight, before))  # no gradient: skipped
#> None True
# The filter that old answers give still works, and leaves the optimizer only the trainable ones.
optimizer = torch.optim.SGD(filter(lambda p: p.requires_grad, net.parameters()), lr=0.1)
print(len(optimizer.param_groups[0]["params"]), len(list(net.parameters())))
#> 2 4
# --8<-- [end:freezing_optimizer]

# --8<-- [start:batchnorm]
norm = nn.BatchNorm1d(3)  # PyTorch's own layers use buffers for running statistics
print([name for name, _ in norm.named_parameters()])
#> ['weight', 'bias']
print([name for name, _ in norm.named_buffers()])
#> ['running_mean', 'running_var', 'num_batches_tracked']
print(list(norm.state_dict()))  # both kinds are saved
#> ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
# --8<-- [end:batchnorm]

# --8<-- [start:batchnorm_train]
batch = torch.tensor([[1.0, 2.0, 3.0], [3.0, 6.0, 9.0]])
print(norm.training)  # a new module is in training mode
#> True
with torch.no_grad():  # no_grad stops autograd recording, not this update
    norm(batch)
print(norm.running_mean, norm.running_var, norm.num_batches_tracked)
#> tensor([0.2000, 0.4000, 0.6000]) tensor([1.1000, 1.7000, 2.7000]) tensor(1)

norm.eval()  # evaluation mode: the layer normalises with its running statistics...
with torch.no_grad():
    out = norm(batch * 10)
# weight 1 and bias 0, as initialised: the output is (x - running_mean) / sqrt(running_var + eps)
print(torch.allclose(out, (batch * 10 - norm.running_mean) / (norm.running_var + norm.eps).sqrt()))
#> True
print(norm.running_mean, norm.running_var, norm.num_batches_tracked)  # ...and keeps them
#> tensor([0.2000, 0.4000, 0.6000]) tensor([1.1000, 1.7000, 2.7000]) tensor(1)
# --8<-- [end:batchnorm_train]

# --8<-- [start:batchnorm_unbiased]
single = nn.BatchNorm1d(1, momentum=1.0)  # momentum=1: the running statistics are the last batch's
pair = torch.tensor([[1.0], [3.0]])
train_out = single(pair)  # training mode: normalised with the batch's biased variance
single.eval()
eval_out = single(pair)  # evaluation mode: normalised with running_var
print(train_out.detach().flatten(), eval_out.detach().flatten())
#> tensor([-1.0000,  1.0000]) tensor([-0.7071,  0.7071])
print(pair.var(dim=0, correction=0), pair.var(dim=0), single.running_var)  # biased, unbiased, stored
#> tensor([1.]) tensor([2.]) tensor([2.])
# --8<-- [end:batchnorm_unbiased]

# --8<-- [start:batchnorm_formula]
import torch
from torch import nn

torch.manual_seed(0)
# A batch of 4 images with 3 channels whose values sit at different levels.
x = torch.randn(4, 3, 5, 5) * torch.tensor([1.0, 5.0, 10.0]).view(1, 3, 1, 1)
bn = nn.BatchNorm2d(3, affine=False, track_running_stats=False).eval()
out = bn(x)  # without running statistics, eval mode normalises with the batch's too
print(bn.running_mean, bn.running_var)
#> None None

# The paper's formula over the whole tensor: one mean and one variance for everything.
whole = (x - x.mean()) / torch.sqrt(x.var(unbiased=False) + bn.eps)
print(torch.allclose(out, whole), round((out - whole).abs().max().item(), 2))
#> False 2.22

# BatchNorm2d: one mean and one variance per channel, over (N, H, W), biased.
mean = x.mean(dim=(0, 2, 3), keepdim=True)
var = x.var(dim=(0, 2, 3), keepdim=True, unbiased=False)
per_channel = (x - mean) / torch.sqrt(var + bn.eps)
print(torch.allclose(out, per_channel))
#> True
print(torch.allclose(out, (x - mean) / torch.sqrt(x.var(dim=(0, 2, 3), keepdim=True) + bn.eps)))
#> False
# --8<-- [end:batchnorm_formula]

# --8<-- [start:batchnorm_freeze]
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3))
model.requires_grad_(False)  # freezes every parameter, not the running statistics
model(batch)  # in training mode
print(model[1].num_batches_tracked)  # 0 before: the statistics were updated
#> tensor(1)


def freeze_batchnorm(module: nn.Module) -> None:
    """Put every BatchNorm layer in evaluation mode, so that it keeps its statistics."""
    for layer in module.modules():
        if isinstance(layer, nn.BatchNorm1d | nn.BatchNorm2d | nn.BatchNorm3d):
            layer.eval()


model.train()
freeze_batchnorm(model)  # after train(), which sets every submodule back to training mode
model(batch)
print(model.training, model[1].training, model[1].num_batches_tracked)
#> True False tensor(1)
model.train()  # and again after each later train()
print(model[1].training)
#> True
# --8<-- [end:batchnorm_freeze]

# --8<-- [start:keras_batchnorm_freeze]
import keras
import numpy as np

x = np.arange(12, dtype="float32").reshape(4, 3)  # one batch; its mean is [4.5, 5.5, 6.5]


def moving_mean_after_fit(bn, training=None):
    """Fit a model around one BatchNormalization layer for one batch, learning nothing."""
    inputs = keras.Input((3,), name="x")
    model = keras.Model(inputs, bn(inputs, training=training), name="bn_model")
    model.compile(keras.optimizers.SGD(learning_rate=0.0), "mse")
    model.fit(x, np.zeros((4, 3)), batch_size=4, epochs=1, verbose=0)
    return bn.moving_mean.numpy()  # starts at 0; momentum 0.5 moves it halfway to the batch mean


print(moving_mean_after_fit(keras.layers.BatchNormalization(momentum=0.5, name="bn")))
#> [2.25 2.75 3.25]
# trainable=False freezes gamma and beta and runs the layer in inference mode: the mean stays.
frozen = keras.layers.BatchNormalization(momentum=0.5, name="bn")
frozen.trainable = False
print(moving_mean_after_fit(frozen))
#> [0. 0. 0.]
# training=False written into the model does not: fit's training=True reaches the layer.
print(moving_mean_after_fit(keras.layers.BatchNormalization(momentum=0.5, name="bn"), training=False))
#> [2.25 2.75 3.25]
# --8<-- [end:keras_batchnorm_freeze]


# --8<-- [start:keras_batchnorm_loop]
import keras
import numpy as np
import tensorflow as tf

x = np.arange(12, dtype="float32").reshape(4, 3)  # one batch; its mean is [4.5, 5.5, 6.5]
y = np.zeros((4, 3), dtype="float32")


def bn_model(trainable=True):
    """One BatchNormalization layer (momentum 0.5: one batch moves the mean halfway)."""
    inputs = keras.Input((3,))
    bn = keras.layers.BatchNormalization(momentum=0.5)
    bn.trainable = trainable
    model = keras.Model(inputs, bn(inputs))
    model.compile(keras.optimizers.SGD(learning_rate=0.0), "mse", run_eagerly=True)
    return model, bn


model, bn = bn_model()
print("before:", bn.moving_mean.numpy())
#> before: [0. 0. 0.]
model.train_on_batch(x, y)  # a hand-written loop's step: training=True
print("train_on_batch:", bn.moving_mean.numpy())
#> train_on_batch: [2.25 2.75 3.25]

model, bn = bn_model()
model(x)  # a direct call: training defaults to False, inference statistics
print("model(x):", bn.moving_mean.numpy())
#> model(x): [0. 0. 0.]
with tf.GradientTape() as tape:  # a GradientTape loop must pass training=True
    loss = tf.reduce_mean(model(x, training=True) ** 2)
print("model(x, training=True):", bn.moving_mean.numpy())
#> model(x, training=True): [2.25 2.75 3.25]

model, bn = bn_model(trainable=False)
model.train_on_batch(x, y)  # a frozen layer runs in inference mode
print("trainable=False:", bn.moving_mean.numpy())
#> trainable=False: [0. 0. 0.]

# TF1's update ops (tf.GraphKeys.UPDATE_OPS, to run with the train op) are gone with Keras 3.
# (Its AttributeError's message depends on what the process imported before: not printed.)
print("tf.compat.v1.layers.batch_normalization:", hasattr(tf.compat.v1.layers, "batch_normalization"))
#> tf.compat.v1.layers.batch_normalization: False
print("bn.updates:", hasattr(bn, "updates"))
#> bn.updates: False
# --8<-- [end:keras_batchnorm_loop]

# --8<-- [start:keras_torch_param_count]
import keras
import torch
from torch import nn

# The same small CNN: 3 -> 8 channels, batch norm, ReLU, pooling, 10 classes
k_model = keras.Sequential([keras.Input((32, 32, 3)), keras.layers.Conv2D(8, 3),
                            keras.layers.BatchNormalization(), keras.layers.ReLU(),
                            keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(10)])
k_bn = k_model.layers[1]
print([w.name for w in k_bn.weights], k_bn.count_params())  # 4 * 8 channels
#> ['gamma', 'beta', 'moving_mean', 'moving_variance'] 32
trainable = sum(w.numpy().size for w in k_model.trainable_weights)
non_trainable = sum(w.numpy().size for w in k_model.non_trainable_weights)
print("Keras total:", k_model.count_params(), "trainable:", trainable, "non-trainable:", non_trainable)
#> Keras total: 346 trainable: 330 non-trainable: 16

t_model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU(),
                        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
t_bn = t_model[1]
print([name for name, _ in t_bn.named_parameters()], sum(p.numel() for p in t_bn.parameters()))
#> ['weight', 'bias'] 16
print("PyTorch parameters():", sum(p.numel() for p in t_model.parameters()))  # Keras's trainable
#> PyTorch parameters(): 330

# Keras's non-trainable params are PyTorch's running_mean and running_var buffers
stats = sum(b.numel() for name, b in t_model.named_buffers() if name.endswith(("running_mean", "running_var")))
print([name for name, _ in t_bn.named_buffers()], stats)
#> ['running_mean', 'running_var', 'num_batches_tracked'] 16
print("PyTorch with the statistics:", sum(p.numel() for p in t_model.parameters()) + stats)  # Keras's total
#> PyTorch with the statistics: 346
# --8<-- [end:keras_torch_param_count]
