"""Training and evaluation modes: models that run without an error in the wrong mode, so
dropout keeps dropping, BatchNorm keeps learning, or results depend on the batch.

Each section prints the surprising result a reader reported, then the fix's result.

Run with `python examples/pitfalls/train_eval_pitfalls.py`.
"""

# --8<-- [start:no_grad_dropout]
import torch
from torch import nn

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 1))
batch = torch.randn(1, 4)

for context in (torch.no_grad, torch.inference_mode):
    with context():  # no graph is recorded, and the model is still in training mode
        outputs = [round(model(batch).item(), 4) for _ in range(3)]
    print(f"{context.__name__}: training={model.training} {outputs}")
    #> no_grad: training=True [-0.3919, 0.0534, -0.137]
    #> inference_mode: training=True [-0.5473, -0.1021, -0.2151]

# The fix: eval() switches dropout off; inference_mode (or no_grad) stops the recording.
model.eval()
with torch.inference_mode():
    outputs = [round(model(batch).item(), 4) for _ in range(3)]
print(f"eval + inference_mode: training={model.training} {outputs}")
#> eval + inference_mode: training=False [-0.247, -0.247, -0.247]
# --8<-- [end:no_grad_dropout]

# --8<-- [start:validation_batchnorm]
import copy

import torch
from torch import nn

torch.manual_seed(0)
train_x = torch.randn(256, 3)
test_x, test_y = torch.randn(64, 3) * 2 + 1, torch.randn(64, 1)  # data unlike the training set


def build():
    return nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3), nn.Linear(3, 1))


def test_loss(model):
    with torch.no_grad():
        return round(nn.functional.mse_loss(model(test_x), test_y).item(), 4)


def from_checkpoint(state):
    """What a test script gives: a new model, the saved state, evaluation mode."""
    tester = build()
    tester.load_state_dict(state)
    tester.eval()
    return test_loss(tester)


model = build()
for start in range(0, 256, 32):
    model(train_x[start : start + 32])  # training batches update the running statistics
trained = copy.deepcopy(model.state_dict())

print("running_mean before testing:", [round(v, 3) for v in model[1].running_mean.tolist()])
#> running_mean before testing: [-0.154, -0.02, 0.067]
during_training = test_loss(model)  # model.eval() forgotten: still in training mode
print("running_mean after testing: ", [round(v, 3) for v in model[1].running_mean.tolist()])
#> running_mean after testing:  [-0.228, 0.022, 0.127]
checkpoint = copy.deepcopy(model.state_dict())  # saved after the test
print("test loss during training:", during_training, "from the checkpoint:", from_checkpoint(checkpoint))
#> test loss during training: 1.4446 from the checkpoint: 1.7809

# The fix: call eval() before testing; the statistics stay as training left them.
model.load_state_dict(trained)
model.eval()
during_training = test_loss(model)
print("running_mean after testing: ", [round(v, 3) for v in model[1].running_mean.tolist()])
#> running_mean after testing:  [-0.154, -0.02, 0.067]
checkpoint = copy.deepcopy(model.state_dict())
print("test loss during training:", during_training, "from the checkpoint:", from_checkpoint(checkpoint))
#> test loss during training: 1.8891 from the checkpoint: 1.8891
# --8<-- [end:validation_batchnorm]

# --8<-- [start:no_train_after_eval]
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
inputs, targets = torch.randn(16, 4), torch.randn(16, 1)


def validate(model):
    model.eval()
    with torch.no_grad():
        model(inputs)


def train(steps, switch_back):
    dropped = []  # units zeroed by dropout at each training step
    for step in range(1, steps + 1):
        if switch_back:
            model.train()  # the fix: training mode at the start of every step
        hidden = model[1](model[0](inputs))
        dropped.append(int((hidden == 0).sum()))
        optimizer.zero_grad()
        nn.functional.mse_loss(model[2](hidden), targets).backward()
        optimizer.step()
        if step % 2 == 0:  # validation every two steps, in the middle of the epoch
            validate(model)
    return dropped


model.train()  # once, before the epoch
print("train() once:      ", train(6, switch_back=False))
#> train() once:       [63, 59, 0, 0, 0, 0]
model.train()
print("train() every step:", train(6, switch_back=True))
#> train() every step: [56, 62, 66, 59, 71, 76]
# --8<-- [end:no_train_after_eval]

# --8<-- [start:batch_size]
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4), nn.Conv2d(4, 1, 1))
for _ in range(20):
    model(torch.randn(8, 3, 8, 8))  # training batches of 8 set the running statistics
images = torch.randn(8, 3, 8, 8)


def first_image_score(batch_size):
    with torch.no_grad():
        return round(model(images[:batch_size])[0].mean().item(), 4)


print("training mode:", {size: first_image_score(size) for size in (1, 2, 8)})
#> training mode: {1: -0.1244, 2: -0.033, 8: 0.0592}

# The fix: eval() normalises with the running statistics, whatever the batch size.
model.eval()
print("eval mode:    ", {size: first_image_score(size) for size in (1, 2, 8)})
#> eval mode:     {1: -0.0079, 2: -0.0079, 8: -0.0079}
# --8<-- [end:batch_size]

# --8<-- [start:predict_batch_rounding]
import keras
import numpy as np

keras.utils.set_random_seed(0)
model = keras.Sequential(
    [keras.Input((64,)), keras.layers.Dense(64), keras.layers.BatchNormalization(), keras.layers.Dense(1)]
)
images = np.random.default_rng(0).normal(size=(8, 64)).astype("float32")
alone = model.predict(images[:1], verbose=0)[0]
in_batch = model.predict(images, verbose=0)[0]
# Equal or not in the last bits depends on the CPU's kernels: compare with a tolerance.
print(bool(np.abs(alone - in_batch).max() < 1e-5), np.allclose(alone, in_batch, rtol=1e-5, atol=1e-6))
#> True True

others = images.copy()
others[1:] = 0.0  # same batch size, other neighbours
print(np.array_equal(model.predict(others, verbose=0)[0], in_batch))  # no batch statistics
#> True
# --8<-- [end:predict_batch_rounding]

# --8<-- [start:bn_momentum]
import numpy as np
import tensorflow as tf
import torch
from torch import nn

batches = np.random.default_rng(0).normal(5.0, 1.0, size=(30, 16, 1)).astype(np.float32)
keras_bn = tf.keras.layers.BatchNormalization(momentum=0.99)  # Keras's default
copied = nn.BatchNorm1d(1, momentum=0.99)  # the same number, copied into PyTorch
for batch in batches:
    keras_bn(batch, training=True)
    copied(torch.from_numpy(batch))
print(round(float(keras_bn.moving_mean.numpy()[0]), 4), round(copied.running_mean.item(), 4))
#> 1.2949 4.7063
print(round(float(batches[-1].mean()), 4))  # PyTorch's 0.99: almost the last batch's mean
#> 4.7041

# The fix: PyTorch's momentum is the weight of the new batch, 1 - Keras's momentum.
ported = nn.BatchNorm1d(1, momentum=1 - 0.99)
for batch in batches:
    ported(torch.from_numpy(batch))
print(round(ported.running_mean.item(), 4))
#> 1.2949
# The variances still differ: PyTorch keeps the unbiased one, Keras the biased one; eps differs too.
print(round(float(keras_bn.moving_variance.numpy()[0]), 4), round(ported.running_var.item(), 4), keras_bn.epsilon, ported.eps)
#> 0.9899 1.0066 0.001 1e-05
# --8<-- [end:bn_momentum]

# --8<-- [start:functional_dropout]
import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self, follow_mode):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.follow_mode = follow_mode

    def forward(self, x):
        if self.follow_mode:  # the fix: pass the module's mode on
            return F.dropout(self.fc(x), p=0.5, training=self.training)
        return F.dropout(self.fc(x), p=0.5)  # training=True by default


torch.manual_seed(0)
x = torch.ones(1, 4)


def two_calls_in_eval_mode(follow_mode):
    net = Net(follow_mode).eval()
    with torch.no_grad():
        return net.training, torch.equal(net(x), net(x))


print(two_calls_in_eval_mode(follow_mode=False))  # (training flag, same output twice?)
#> (False, False)
print(two_calls_in_eval_mode(follow_mode=True))
#> (False, True)
# --8<-- [end:functional_dropout]

# --8<-- [start:keras_call_training]
import keras
import numpy as np


class Net(keras.Model):
    """A subclassed model whose call decides dropout from its training argument."""

    def __init__(self):
        super().__init__(name="net")
        self.dense = keras.layers.Dense(4, kernel_initializer="ones", name="dense")
        self.drop = keras.layers.Dropout(0.5, name="drop")

    def call(self, x, training=False):  # defaults to inference
        return self.drop(self.dense(x), training=training)


keras.utils.set_random_seed(0)
model = Net()
model.compile(keras.optimizers.SGD(learning_rate=0.0), "mse")  # learns nothing: only dropout differs
x = np.ones((8, 2), dtype="float32")
y = np.full((8, 4), 2.0, dtype="float32")  # exactly the output without dropout
print(model.fit(x, y, batch_size=8, verbose=0).history["loss"], model.evaluate(x, y, verbose=0))
#> [4.0] 0.0
print(model(x)[0].numpy(), model(x, training=True)[0].numpy())  # a direct call: the default rules
#> [2. 2. 2. 2.] [4. 0. 0. 4.]
# --8<-- [end:keras_call_training]

# --8<-- [start:keras_dropout_training]
import inspect

import keras
import numpy as np
import tensorflow as tf

print("is_training" in inspect.signature(keras.layers.Dropout.__init__).parameters)
#> False
print("training" in inspect.signature(keras.layers.Dropout.call).parameters)
#> True
# TF1's switches are gone: tf.layers.dropout(training=...) and the learning phase.
print(hasattr(tf.compat.v1.layers, "dropout"), hasattr(keras.backend, "learning_phase"))
#> False False

keras.utils.set_random_seed(0)
x = np.ones((1, 2), dtype="float32")  # without dropout every output is 2.0
dense = keras.layers.Dense(4, kernel_initializer="ones")
drop = keras.layers.Dropout(0.5)


def forward(x, training):
    """Keras layers mixed with raw TF ops, as code written for tf.layers does."""
    h = tf.nn.relu(dense(x))
    return drop(h, training=True)  # hard-coded, like tf.layers.dropout(training=True)


def forward_fixed(x, training):
    h = tf.nn.relu(dense(x))
    return drop(h, training=training)  # the caller's flag reaches the layer


print(forward(x, training=False).numpy(), forward_fixed(x, training=False).numpy())
#> [[4. 0. 4. 0.]] [[2. 2. 2. 2.]]

# In a Keras 3 functional model, the training of the outer call wins over one written in:
inputs = keras.Input((2,))
h = keras.layers.Dense(4, kernel_initializer="ones")(inputs)
written = keras.Model(inputs, keras.layers.Dropout(0.5)(h, training=True))
written.run_eagerly = True  # one row: skip tracing
print(written.predict(x, verbose=0), written(x).numpy(), written(x, training=True).numpy())
#> [[2. 2. 2. 2.]] [[0. 0. 0. 4.]] [[0. 0. 0. 0.]]
# --8<-- [end:keras_dropout_training]


# --8<-- [start:keras_val_accuracy_higher]
import keras
import numpy as np

keras.utils.set_random_seed(0)
rng = np.random.default_rng(0)


def samples(n):
    x = rng.normal(size=(n, 4)).astype("float32")
    return x, (x.sum(axis=1) > 0).astype("int32")


(x_train, y_train), (x_val, y_val) = samples(64), samples(64)
model = keras.Sequential(
    [
        keras.Input((4,)),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dropout(0.5),
        keras.layers.Dense(2, activation="softmax"),
    ]
)
model.compile(
    keras.optimizers.Adam(0.01), "sparse_categorical_crossentropy", metrics=["accuracy"], run_eagerly=True
)
history = model.fit(
    x_train, y_train, validation_data=(x_val, y_val), epochs=2, batch_size=32, verbose=0
).history
pairs = zip(history["accuracy"], history["val_accuracy"], strict=True)
print("val_accuracy > accuracy:", [v > a for a, v in pairs])
#> val_accuracy > accuracy: [True, True]

# The fix: evaluate both sets with the same weights, in inference mode, after the epoch.
train_acc = model.evaluate(x_train, y_train, verbose=0)[1]
val_acc = model.evaluate(x_val, y_val, verbose=0)[1]
print("evaluate: train > val:", train_acc > val_acc, "| train > history:", train_acc > history["accuracy"][-1])
#> evaluate: train > val: True | train > history: True
print("history's val_accuracy is evaluate's:", history["val_accuracy"][-1] == val_acc)
#> history's val_accuracy is evaluate's: True
# Dropout alone lowers the training figure: the same weights with training=True.
dropped = np.mean(np.argmax(model(x_train, training=True), axis=1) == y_train)
print("with dropout on, train accuracy is lower:", dropped < train_acc)
#> with dropout on, train accuracy is lower: True
# --8<-- [end:keras_val_accuracy_higher]

# --8<-- [start:plain_list]
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, registered):
        super().__init__()
        hidden = [nn.Linear(2, 2), nn.Linear(2, 2)]
        self.hidden = nn.ModuleList(hidden) if registered else hidden  # the fix: ModuleList
        self.head = nn.Linear(2, 1)

    def forward(self, x):
        for layer in self.hidden:
            x = torch.tanh(layer(x))
        return self.head(x)


torch.manual_seed(0)
x, y = torch.randn(8, 2), torch.randn(8, 1)


def one_step(registered):
    net = Net(registered)
    before = net.hidden[0].weight.clone()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    nn.functional.mse_loss(net(x), y).backward()
    optimizer.step()
    changed = not torch.equal(before, net.hidden[0].weight)
    return len(list(net.parameters())), changed  # parameter tensors; did the hidden layer learn?


print(one_step(registered=False))
#> (2, False)
print(one_step(registered=True))
#> (6, True)
print(list(Net(registered=False).state_dict()))  # the listed layers are not saved either
#> ['head.weight', 'head.bias']
# --8<-- [end:plain_list]

# --8<-- [start:keras_variable_list]
import keras
import numpy as np
import tensorflow as tf


class Scale(keras.layers.Layer):
    def __init__(self, use_add_weight):
        super().__init__()
        self.ws = []
        for _ in range(2):  # appended one by one, as in the report
            if use_add_weight:  # the fix
                self.ws.append(self.add_weight(shape=(2,), initializer="ones"))
            else:
                self.ws.append(tf.Variable(tf.ones((2,))))

    def call(self, x):
        return x * self.ws[0] + self.ws[1]


keras.utils.set_random_seed(0)
x, y = np.ones((4, 2), "float32"), np.zeros((4, 2), "float32")
for use_add_weight in (False, True):
    layer = Scale(use_add_weight)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2), layer])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", run_eagerly=True)
    model.fit(x, y, epochs=1, verbose=0)
    print(len(layer.trainable_variables), len(model.trainable_variables), np.asarray(layer.ws[0]).round(3))
    #> 0 2 [1. 1.]
    #> 2 4 [1.003 1.021]

# tf.Variable is not tracked by a Keras 3 layer in any form: list comprehension or attribute.
class Comprehension(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.ws = [tf.Variable(tf.ones((2,))) for _ in range(2)]
        self.w = tf.Variable(tf.ones((2,)))


print(len(Comprehension().trainable_variables))
#> 0
# --8<-- [end:keras_variable_list]

# --8<-- [start:keras_binary_accuracy]
import keras
import numpy as np

# 17 classes with one-hot labels, sigmoid outputs and binary_crossentropy, as in the report.
keras.utils.set_random_seed(0)
x = np.random.default_rng(0).normal(size=(20, 4)).astype("float32")
y = keras.utils.to_categorical(np.arange(20) % 17, 17)
model = keras.Sequential(
    [keras.Input((4,)), keras.layers.Dense(17, activation="sigmoid", bias_initializer=keras.initializers.Constant(-2.0))]
)
model.compile("adam", "binary_crossentropy", metrics=["accuracy", "binary_accuracy"])
scores = model.evaluate(x, y, verbose=0, return_dict=True)
print({name: round(value, 4) for name, value in scores.items()})
#> {'accuracy': 0.05, 'binary_accuracy': 0.9412, 'loss': 0.2609}

# By hand: binary_accuracy thresholds each of the 17 outputs at 0.5 and averages all 20 x 17;
# the right class per sample (argmax) is what "accuracy" measures here.
probs = model.predict(x, verbose=0)
print(round(float(np.mean((probs > 0.5) == (y == 1))), 4), float(np.mean(probs.argmax(1) == y.argmax(1))))
#> 0.9412 0.05
print(round(float(np.mean(y == 0)), 4))  # a model that answers "no" to every class scores this
#> 0.9412

# The fix: name the metric that asks "is the right class the top one?"; it needs no model.
metric = keras.metrics.CategoricalAccuracy()
metric.update_state(y, probs)
print(round(float(metric.result()), 4))
#> 0.05
# --8<-- [end:keras_binary_accuracy]

# --8<-- [start:keras_h5_accuracy]
import os
import tempfile

import keras
import numpy as np

# A trained 4-class model stands in for the reader's best MNIST model: softmax, integer labels.
rng = np.random.default_rng(0)
x = rng.normal(size=(200, 4)).astype("float32")
y = np.argmax(x + 0.3 * rng.normal(size=x.shape), axis=1)  # integer labels, as MNIST's y_test
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(4, activation="softmax")])
model.set_weights([np.eye(4, dtype="float32") * 5, np.zeros(4, dtype="float32")])  # "trained"
model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
workdir = tempfile.TemporaryDirectory()
path = os.path.join(workdir.name, "my_mnist_model.h5")
model.save(path)  # the legacy HDF5 format, as in the report

reloaded = keras.models.load_model(path)
probs = reloaded(x).numpy()
scores = reloaded.evaluate(x, y, batch_size=len(x), verbose=0, return_dict=True)
print(round(scores["accuracy"], 4), round(float(np.mean(probs.argmax(axis=-1) == y)), 4))
#> 0.84 0.84
# What the reader's reloaded "accuracy" measured: categorical accuracy, which expects one-hot
# labels; an integer label read as a one-hot row of length 1 has its largest entry at index 0.
categorical = keras.metrics.CategoricalAccuracy()
categorical.update_state(y[:, None], probs)
print(round(float(categorical.result()), 4), round(float(np.mean(probs.argmax(axis=-1) == 0)), 4))
#> 0.27 0.27

# The fix in any version: name the metric for integer labels.
sparse = keras.metrics.SparseCategoricalAccuracy()
sparse.update_state(y, probs)
print(round(float(sparse.result()), 4))
#> 0.84
workdir.cleanup()
# --8<-- [end:keras_h5_accuracy]

# --8<-- [start:keras_single_softmax]
import warnings

import keras
import numpy as np
import torch

x = np.random.default_rng(0).normal(size=(32, 2)).astype("float32")
y = (x[:, 0] + x[:, 1] > 0).astype("float32")  # a binary toy problem: 15 of the 32 labels are 1


def fit(activation):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, activation=activation)])
    model.compile(keras.optimizers.SGD(0.5), "binary_crossentropy", metrics=["accuracy"], run_eagerly=True)
    history = model.fit(x, y, epochs=3, batch_size=32, verbose=0)
    return model, {name: [round(v, 4) for v in values] for name, values in history.history.items()}


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    model, history = fit("softmax")  # Dense(1, activation="softmax"), as in the report
    probs = model(x).numpy()
print(f"{caught[0].category.__name__}: {str(caught[0].message).split('. The')[0]}")
"""
UserWarning: You are using a softmax over axis -1 of a tensor of shape (32, 1). This axis has size 1
"""
print(history)  # accuracy stays at the share of 1 labels
#> {'accuracy': [0.4688, 0.4688, 0.4688], 'loss': [0.8571, 0.7305, 0.636]}
print(np.unique(probs), round(float(keras.losses.binary_crossentropy(y[:, None], probs).numpy().mean()), 4))
#> [1.] 8.4694
print(torch.softmax(torch.tensor([[-3.0], [0.2], [5.0]]), dim=1).flatten())  # PyTorch: the same ones
#> tensor([1., 1., 1.])

model, history = fit("sigmoid")  # the fix: one sigmoid unit for one yes/no output
print(history)
#> {'accuracy': [0.1875, 0.4688, 0.7188], 'loss': [0.8571, 0.7305, 0.636]}
# --8<-- [end:keras_single_softmax]

# --8<-- [start:keras_bn_not_converged]
import keras
import numpy as np

rng = np.random.default_rng(0)
labels = np.repeat(np.arange(3), 20)  # 60 samples, 3 classes
x = (rng.normal(size=(60, 4)) + 20 + 4 * np.eye(3, 4)[labels]).astype("float32")  # features near 20


def train(momentum):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8),
                              keras.layers.BatchNormalization(momentum=momentum),
                              keras.layers.ReLU(), keras.layers.Dense(3, activation="softmax")])
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(x, labels, batch_size=12, epochs=6, verbose=0)  # 5 batches x 6 epochs: 30 updates
    return model, history.history["accuracy"][-1]


model, fit_accuracy = train(momentum=0.99)  # Keras's default
print("fit:", fit_accuracy, "evaluate on the same data:", round(model.evaluate(x, labels, verbose=0)[1], 4))
#> fit: 1.0 evaluate on the same data: 0.3333
bn = model.layers[1]
print(bn.moving_mean.numpy()[:3].round(2), model.layers[0](x).numpy().mean(0)[:3].round(2))  # moving mean vs the data's mean
#> [0.44 8.88 2.48] [-2.89 39.12  9.6 ]

# Fix 1, without retraining: recompute the statistics from the training data, weights unchanged
bn.momentum = 0.0  # the next update replaces the moving averages with the batch's statistics
model(x, training=True)
print("evaluate:", round(model.evaluate(x, labels, verbose=0)[1], 4))
#> evaluate: 1.0

# Fix 2: a lower momentum, so that 30 updates are enough
model, fit_accuracy = train(momentum=0.8)
print("fit:", fit_accuracy, "evaluate:", round(model.evaluate(x, labels, verbose=0)[1], 4))
#> fit: 1.0 evaluate: 1.0
# --8<-- [end:keras_bn_not_converged]
