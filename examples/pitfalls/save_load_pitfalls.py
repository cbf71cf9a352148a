"""Saving and loading pitfalls: files that run and load without an error and hold more, less
or something other than the reader meant to save.

Each section prints the surprising result a reader reported, then the fix's result.

Run with `python examples/pitfalls/save_load_pitfalls.py`. It writes its files into a
temporary directory and removes them.
"""

# --8<-- [start:saved_view]
import tempfile
from pathlib import Path

import torch

workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)


def megabytes(path):
    return f"{path.stat().st_size / 1e6:.2f} MB"


for batch_size in (16, 64):
    activations = torch.zeros(batch_size, 256, 14, 14)  # one batch of feature maps
    torch.save(activations[0], folder / "image0.pt")  # one image's maps: a view of the batch
    print(f"batch of {batch_size}: image0.pt is {megabytes(folder / 'image0.pt')}")
    #> batch of 16: image0.pt is 3.21 MB
    #> batch of 64: image0.pt is 12.85 MB

# The fix: clone() copies the image's maps into a storage of their own.
torch.save(activations[0].clone(), folder / "image0.pt")
print(f"cloned: image0.pt is {megabytes(folder / 'image0.pt')}")
#> cloned: image0.pt is 0.20 MB
workdir.cleanup()
# --8<-- [end:saved_view]

# --8<-- [start:object_array_size]
import os
import sys

import numpy as np

workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)
rng = np.random.default_rng(0)
parts = [rng.standard_normal((100, 100)) for _ in range(50)]  # 50 arrays of 80,000 bytes each
ragged = np.empty(len(parts), dtype=object)  # an object array: one pointer per element
ragged[:] = parts
data_bytes = sum(part.nbytes for part in parts)  # what the arrays hold
print("sys.getsizeof:", sys.getsizeof(ragged), "| nbytes:", ragged.nbytes, "| the arrays' nbytes:", data_bytes)
#> sys.getsizeof: 512 | nbytes: 400 | the arrays' nbytes: 4000000
np.save(folder / "ragged.npy", ragged, allow_pickle=True)  # every element array is pickled
print("np.save file / the arrays' nbytes:", round(os.path.getsize(folder / "ragged.npy") / data_bytes, 3))
#> np.save file / the arrays' nbytes: 1.001

np.savez(folder / "parts.npz", *parts)  # one numeric array per entry, no pickle
print("np.savez file / the arrays' nbytes:", round(os.path.getsize(folder / "parts.npz") / data_bytes, 3))
#> np.savez file / the arrays' nbytes: 1.003
np.savez_compressed(folder / "packed.npz", *parts)  # zip compression: random floats barely shrink
print("np.savez_compressed, random floats, over 90% of their nbytes:", os.path.getsize(folder / "packed.npz") / data_bytes > 0.9)
#> np.savez_compressed, random floats, over 90% of their nbytes: True
np.savez_compressed(folder / "zeros.npz", *[np.zeros_like(part) for part in parts])  # repeated values
print("np.savez_compressed, zeros, under 1% of their nbytes:", os.path.getsize(folder / "zeros.npz") / data_bytes < 0.01)
#> np.savez_compressed, zeros, under 1% of their nbytes: True
with np.load(folder / "parts.npz") as loaded:  # allow_pickle stays False
    print("same arrays:", all(np.array_equal(loaded[f"arr_{i}"], p) for i, p in enumerate(parts)))
    #> same arrays: True
workdir.cleanup()
# --8<-- [end:object_array_size]

# --8<-- [start:strict_false_prefix]
import torch
from torch import nn
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present


class Wrapper(nn.Module):
    """Holds the network as its attribute `model`, as a Lightning module often does."""

    def __init__(self):
        super().__init__()
        self.model = nn.Linear(3, 2)


torch.manual_seed(0)
trained = Wrapper()
checkpoint = trained.state_dict()
print(list(checkpoint))  # every key starts with "model."
#> ['model.weight', 'model.bias']

net = nn.Linear(3, 2)
result = net.load_state_dict(checkpoint, strict=False)  # no error, and nothing loaded
print(torch.equal(net.weight, trained.model.weight))
#> False
print(result.missing_keys, result.unexpected_keys)  # the only sign: every key in both lists
#> ['weight', 'bias'] ['model.weight', 'model.bias']

# The fix: remove the prefix, then load with the default strict=True.
consume_prefix_in_state_dict_if_present(checkpoint, "model.")
print(net.load_state_dict(checkpoint))
#> <All keys matched successfully>
print(torch.equal(net.weight, trained.model.weight))
#> True
# --8<-- [end:strict_false_prefix]

# --8<-- [start:state_dict_reference]
import copy

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
inputs, targets = torch.randn(8, 2), torch.randn(8, 1)


def train_step():
    optimizer.zero_grad()
    nn.functional.mse_loss(model(inputs), targets).backward()
    optimizer.step()


train_step()  # say this epoch has the best validation score
weight_at_best = model.weight.detach().clone()
best_state = model.state_dict()  # references to the parameters, not a copy
best_copy = copy.deepcopy(model.state_dict())  # the fix: a copy of every tensor
for _ in range(5):
    train_step()  # training goes on after the best epoch

print(torch.equal(best_state["weight"], weight_at_best))  # the kept state moved on
#> False
print(torch.equal(best_state["weight"], model.weight))  # it is the current weight
#> True
print(best_state["weight"].data_ptr() == model.weight.data_ptr())  # the same memory
#> True
print(torch.equal(best_copy["weight"], weight_at_best))  # the copy kept the best epoch
#> True
# --8<-- [end:state_dict_reference]

# --8<-- [start:optimizer_state]
import tempfile
from pathlib import Path

import torch
from torch import nn

workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)
torch.manual_seed(0)
inputs, targets = torch.randn(16, 4), torch.randn(16, 1)


def step(model, optimizer):
    """One training step; returns how far each weight moved."""
    before = model.weight.detach().clone()
    optimizer.zero_grad()
    nn.functional.mse_loss(model(inputs), targets).backward()
    optimizer.step()
    return [round(change, 4) for change in (model.weight - before).flatten().tolist()]


model = nn.Linear(4, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(200):
    step(model, optimizer)
torch.save(
    {"model": model.state_dict(), "optimizer": optimizer.state_dict()},
    folder / "checkpoint.pt",
)
print(sorted(optimizer.state_dict()["state"][0]))  # Adam's state for the weight
#> ['exp_avg', 'exp_avg_sq', 'step']
print("uninterrupted:", step(model, optimizer))  # step 201 of the run that was not stopped
#> uninterrupted: [0.0019, -0.0009, 0.0006, -0.0002]

checkpoint = torch.load(folder / "checkpoint.pt")
resumed = nn.Linear(4, 1)
resumed.load_state_dict(checkpoint["model"])
fresh = torch.optim.Adam(resumed.parameters(), lr=0.01)  # its state is not loaded
print("fresh Adam:   ", step(resumed, fresh))  # every weight moves by the learning rate
#> fresh Adam:    [0.01, -0.01, 0.01, -0.01]

# The fix: load the optimizer's state as well.
resumed = nn.Linear(4, 1)
resumed.load_state_dict(checkpoint["model"])
restored = torch.optim.Adam(resumed.parameters(), lr=0.01)
restored.load_state_dict(checkpoint["optimizer"])
print("restored:     ", step(resumed, restored))
#> restored:      [0.0019, -0.0009, 0.0006, -0.0002]
workdir.cleanup()
# --8<-- [end:optimizer_state]

# --8<-- [start:loaded_train_mode]
import tempfile
from pathlib import Path

import torch
from torch import nn

workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)


def build():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 1))


torch.manual_seed(1)
trained = build()
trained.eval()  # the mode is a flag on each module, not a tensor of the state_dict
torch.save(trained.state_dict(), folder / "weights.pt")
print(list(trained.state_dict()))  # parameters and buffers: here weights and biases
#> ['0.weight', '0.bias', '3.weight', '3.bias']

loaded = build()  # a new module starts in training mode
loaded.load_state_dict(torch.load(folder / "weights.pt"))
image = torch.randn(1, 4)
with torch.no_grad():
    outputs = [round(loaded(image).item(), 4) for _ in range(3)]
print(loaded.training, outputs)  # dropout draws a new mask at every call
#> True [-0.3234, -0.4555, -0.1294]

# The fix: call eval() on the loaded model before inference.
loaded.eval()
with torch.no_grad():
    outputs = [round(loaded(image).item(), 4) for _ in range(3)]
print(loaded.training, outputs)
#> False [-0.2347, -0.2347, -0.2347]
workdir.cleanup()
# --8<-- [end:loaded_train_mode]

# --8<-- [start:keras_weights]
import numpy as np
import tensorflow as tf
import torch
from torch import nn

tf.keras.utils.set_random_seed(0)
keras_model = tf.keras.Sequential(
    [tf.keras.Input((5, 5, 4)), tf.keras.layers.Conv2D(3, 2), tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)]
)
kernel, conv_bias, dense, dense_bias = keras_model.get_weights()
print(kernel.shape, dense.shape)  # Conv2D: (kH, kW, in, out); Dense: (in, out)
#> (2, 2, 4, 3) (48, 1)

torch_model = nn.Sequential(nn.Conv2d(4, 3, 2), nn.Flatten(), nn.Linear(48, 1))
with torch.no_grad():
    torch_model[0].weight.copy_(torch.from_numpy(kernel.transpose(3, 2, 0, 1)))  # (out, in, kH, kW)
    torch_model[0].bias.copy_(torch.from_numpy(conv_bias))
    torch_model[2].weight.copy_(torch.from_numpy(dense.T))  # the same shape, (1, 48)
    torch_model[2].bias.copy_(torch.from_numpy(dense_bias))

images = np.random.default_rng(0).standard_normal((4, 5, 5, 4)).astype(np.float32)  # NHWC
expected = keras_model(images).numpy()
with torch.no_grad():
    got = torch_model(torch.from_numpy(images).permute(0, 3, 1, 2)).numpy()  # NCHW
print(round(float(np.abs(expected - got).max()), 4))  # no error, another output
#> 2.5739

# The fix: Keras flattens (H, W, C), PyTorch (C, H, W): reorder the Dense rows to match.
rows = dense.reshape(4, 4, 3, 1).transpose(3, 2, 0, 1).reshape(1, 48)  # (out, C, H, W)
with torch.no_grad():
    torch_model[2].weight.copy_(torch.from_numpy(rows))
    got = torch_model(torch.from_numpy(images).permute(0, 3, 1, 2)).numpy()
print(np.abs(expected - got).max() < 1e-5)
#> True
# --8<-- [end:keras_weights]

# --8<-- [start:keras_kernel_transpose]
tf.keras.utils.set_random_seed(0)
conv3d = tf.keras.Sequential([tf.keras.Input((4, 4, 4, 2)), tf.keras.layers.Conv3D(3, 2)])
kernel, bias = conv3d.get_weights()
print(kernel.shape, kernel.T.shape)  # (kD, kH, kW, in, out); .T reverses every axis
#> (2, 2, 2, 2, 3) (3, 2, 2, 2, 2)

volumes = np.random.default_rng(0).standard_normal((1, 4, 4, 4, 2)).astype(np.float32)  # NDHWC
expected = conv3d(volumes).numpy().transpose(0, 4, 1, 2, 3)  # to NCDHW, as PyTorch gives


def torch_conv3d(weight: np.ndarray) -> np.ndarray:
    layer = nn.Conv3d(2, 3, 2)
    with torch.no_grad():
        layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(weight)))
        layer.bias.copy_(torch.from_numpy(bias))
        return layer(torch.from_numpy(volumes).permute(0, 4, 1, 2, 3)).numpy()


print(f"{np.abs(expected - torch_conv3d(kernel.T)).max():.4f}")  # (out, in, kW, kH, kD)
#> 2.2438

# The fix: move only the two channel axes to the front, (out, in, kD, kH, kW).
fixed = kernel.transpose(4, 3, 0, 1, 2)  # in 2-D: kernel.transpose(3, 2, 0, 1)
print(np.abs(expected - torch_conv3d(fixed)).max() < 1e-5)
#> True
print(np.array_equal(fixed, torch.movedim(torch.from_numpy(kernel), (-1, -2), (0, 1)).numpy()))
#> True
# --8<-- [end:keras_kernel_transpose]

# --8<-- [start:whole_model_code]
import tempfile
from pathlib import Path

import torch
from torch import nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.factor = nn.Parameter(torch.tensor(2.0))

    def forward(self, x):
        return x * self.factor


model, x = Scale(), torch.tensor(3.0)
with tempfile.TemporaryDirectory() as folder:
    torch.save(model, Path(folder) / "model.pt")  # the whole model, pickled
    exported = torch.export.export(model, (x,))  # the fix: a program with its own graph
    torch.export.save(exported, Path(folder) / "model.pt2")

    Scale.forward = lambda self, x: x * self.factor + 1  # later, the class is edited

    loaded = torch.load(Path(folder) / "model.pt", weights_only=False)
    print(loaded(x).item())  # runs today's forward: 3 * 2 + 1
    #> 7.0
    program = torch.export.load(Path(folder) / "model.pt2")
    print(program.module()(x).item())  # runs the graph that was saved: 3 * 2
    #> 6.0
# --8<-- [end:whole_model_code]
