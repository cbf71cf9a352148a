"""Shape and broadcasting pitfalls: code that runs without an error and gives a result of a shape
the reader did not expect.

Each section prints the surprising result a reader reported, then the fix's result.

Run with `python examples/pitfalls/shapes_pitfalls.py`.
"""

# --8<-- [start:loss_broadcast]
import warnings

import torch
import torch.nn.functional as F

prediction = torch.tensor([[1.0], [2.0], [3.0]])  # a regression head's output: (N, 1)
target = torch.tensor([1.0, 2.0, 3.0])  # the labels: (N,)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(F.mse_loss(prediction, target))  # every prediction against every target
    #> tensor(1.3333)
print(f"{caught[0].category.__name__}: {caught[0].message}")
"""
UserWarning: Using a target size (torch.Size([3])) that is different to the input size (torch.Size([3, 1])). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.
"""
print((prediction - target).shape)  # what the loss averages over
#> torch.Size([3, 3])

# The fix: give both sides the same shape.
print(F.mse_loss(prediction.squeeze(1), target), F.mse_loss(prediction, target.unsqueeze(1)))
#> tensor(0.) tensor(0.)

# A linear regression y = 3x trained on such a loss: the weight goes to 0, the loss gets stuck.
x = torch.linspace(-1, 1, 8).unsqueeze(1)  # inputs (N, 1)
y = 3 * x.squeeze(1)  # targets (N,)
for targets in (y, y.unsqueeze(1)):  # (N,) as the labels came, then the fix, (N, 1)
    weight, bias = torch.ones(1, requires_grad=True), torch.zeros(1, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the same warning, at every step
        for _ in range(100):  # gradient descent, learning rate 0.5
            loss = F.mse_loss(x * weight + bias, targets)
            loss.backward()
            with torch.no_grad():
                for param in (weight, bias):
                    param -= 0.5 * param.grad
                    param.grad = None
    print(tuple(targets.shape), "weight:", round(weight.item(), 3), "loss:", round(loss.item(), 4))
    #> (8,) weight: 0.0 loss: 3.8571
    #> (8, 1) weight: 3.0 loss: 0.0
# --8<-- [end:loss_broadcast]

# --8<-- [start:loss_broadcast_keras]
import keras
import numpy as np

x_train = np.array([[1.0], [2.0], [3.0], [4.0]])
y_train = np.array([1.5, 2.0, 3.0, 4.5])  # the labels: (N,)
model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones")])
model.compile(loss="mse")
predictions = model.predict(x_train, verbose=0)
print(predictions.shape, y_train.shape)
#> (4, 1) (4,)
print(model.evaluate(x_train, y_train, verbose=0), np.square(np.subtract(y_train, predictions)).mean())
#> 0.125 2.625
print(np.subtract(y_train, predictions).shape)  # what the hand-written mean averages over
#> (4, 4)
print(keras.losses.mean_squared_error(y_train, predictions).shape)  # Keras: one loss per sample
#> (4,)

# The fix: give both sides the same shape.
print(np.square(y_train - predictions.squeeze(1)).mean(), np.square(y_train[:, None] - predictions).mean())
#> 0.125 0.125
# --8<-- [end:loss_broadcast_keras]

# --8<-- [start:squeeze_batch]
import torch

pooled = torch.arange(8.0).reshape(2, 4, 1, 1)  # global pooling output: (N, C, 1, 1)
single = pooled[:1]  # the same model on one image: N = 1

print(pooled.squeeze().shape, single.squeeze().shape)  # squeeze() also drops N = 1
#> torch.Size([2, 4]) torch.Size([4])
print(single.squeeze().mean(dim=0))  # "the mean feature over the batch" is one number
#> tensor(1.5000)

# The fix: name the axes to remove, or flatten from axis 1 on.
print(single.flatten(1).shape, single.squeeze(3).squeeze(2).shape)
#> torch.Size([1, 4]) torch.Size([1, 4])
print(single.flatten(1).mean(dim=0))
#> tensor([0., 1., 2., 3.])
# --8<-- [end:squeeze_batch]

# --8<-- [start:reshape_for_permute]
import torch

red = torch.tensor([[11, 12], [13, 14]])  # a 2 x 2 image: red values in the 10s,
image = torch.stack([red, red + 10, red + 20], dim=-1)  # green in the 20s, blue in the 30s
print(image.shape)  # (H, W, C), as images are read from files
#> torch.Size([2, 2, 3])

print(image.reshape(3, 2, 2)[0])  # "the red channel": red, green and blue mixed
"""
tensor([[11, 21],
        [31, 12]])
"""

# The fix: permute moves the channel axis to the front.
print(image.permute(2, 0, 1)[0])
"""
tensor([[11, 12],
        [13, 14]])
"""
print(image.permute(2, 0, 1).shape)
#> torch.Size([3, 2, 2])
# And back, (C, H, W) to (H, W, C) as imshow wants: permute(1, 2, 0), not reshape(2, 2, 3).
chw = image.permute(2, 0, 1)
print(torch.equal(chw.permute(1, 2, 0), image), torch.equal(chw.reshape(2, 2, 3), image))
#> True False
print((chw.numpy().transpose(1, 2, 0) == image.numpy()).all())  # NumPy: transpose(1, 2, 0)
#> True
# --8<-- [end:reshape_for_permute]

# --8<-- [start:reduction_keepdim]
import torch

torch.manual_seed(0)
batch = torch.randn(3, 2, 3)  # three 2 x 3 matrices: K == n == 3

norms = batch.norm(dim=(-2, -1))  # one norm per matrix, shape (3,)
scaled = batch / norms  # (3,) lines up with the last axis: columns, not matrices
print(norms.shape)
#> torch.Size([3])
print(scaled.norm(dim=(-2, -1)).round(decimals=4))  # each matrix should now have norm 1
#> tensor([1.0292, 0.9746, 1.2597])

# The fix: keepdim=True keeps the reduced axes as size 1, so the norms line up with the matrices.
norms = batch.norm(dim=(-2, -1), keepdim=True)
print(norms.shape)
#> torch.Size([3, 1, 1])
print((batch / norms).norm(dim=(-2, -1)).round(decimals=4))
#> tensor([1., 1., 1.])
# --8<-- [end:reduction_keepdim]

# --8<-- [start:cross_entropy_class_axis]
import torch
import torch.nn.functional as F

labels = torch.tensor([[1, 2, 0], [2, 2, 1]])  # (N, L): 2 sequences of 3 tokens
# A perfect model's output, as a sequence model returns it: (N, L, C), with L == C == 3.
logits = 10 * F.one_hot(labels, num_classes=3).float()
print(logits.shape)
#> torch.Size([2, 3, 3])
print(F.cross_entropy(logits, labels).round(decimals=4))  # classes read from axis 1: tokens
#> tensor(5.2987)

# The fix: put the classes on axis 1, (N, C, L), or flatten to (N * L, C) and (N * L,).
print(F.cross_entropy(logits.transpose(1, 2), labels).round(decimals=4))
#> tensor(1.0000e-04)
print(F.cross_entropy(logits.reshape(-1, 3), labels.reshape(-1)).round(decimals=4))
#> tensor(1.0000e-04)
# --8<-- [end:cross_entropy_class_axis]

# --8<-- [start:lstm_batch_first]
import torch
from torch import nn

torch.manual_seed(0)
lstm = nn.LSTM(input_size=1, hidden_size=2)  # batch_first=False, the default
batch = torch.zeros(4, 3, 1)  # 4 sequences of 3 steps: (batch, seq, feature)
changed = batch.clone()
changed[0] = 1.0  # change sequence 0, and only it

out, _ = lstm(batch)
out_changed, _ = lstm(changed)
print(out.shape)  # the shape looks right
#> torch.Size([4, 3, 2])
print(torch.equal(out[2], out_changed[2]))  # has sequence 2's output stayed the same?
#> False

# The fix: batch_first=True (same weights here), or pass (seq, batch, feature).
fixed = nn.LSTM(input_size=1, hidden_size=2, batch_first=True)
fixed.load_state_dict(lstm.state_dict())
out, _ = fixed(batch)
out_changed, _ = fixed(changed)
print(out.shape, torch.equal(out[2], out_changed[2]))
#> torch.Size([4, 3, 2]) True
print(torch.allclose(out, lstm(batch.transpose(0, 1))[0].transpose(0, 1)))
#> True
# --8<-- [end:lstm_batch_first]

# --8<-- [start:lstm_h_n_batch_first]
import torch
from torch import nn

torch.manual_seed(0)
lstm = nn.LSTM(input_size=3, hidden_size=5, num_layers=2, batch_first=True)
x = torch.randn(4, 6, 3)  # (batch, seq, feature)
output, (h_n, c_n) = lstm(x)
print(tuple(output.shape))  # batch first, as asked
#> (4, 6, 5)
print(tuple(h_n.shape), tuple(c_n.shape))  # (num_layers, batch, hidden): not batch first
#> (2, 4, 5) (2, 4, 5)

# The last layer's final state per sample: h_n[-1], shape (batch, hidden).
last = h_n[-1]
print(tuple(last.shape), torch.allclose(last, output[:, -1, :]))
#> (4, 5) True
# All layers per sample, batch first: h_n.transpose(0, 1), shape (batch, num_layers, hidden).
print(tuple(h_n.transpose(0, 1).shape))
#> (4, 2, 5)
# --8<-- [end:lstm_h_n_batch_first]

# --8<-- [start:softmax_axis]
import torch
import torch.nn.functional as F

# Scores of shape (views, batch, classes): 2 views of 2 samples, 3 classes.
preds = torch.tensor(
    [[[2.0, 0.0, 0.0], [0.0, 3.0, 0.0]], [[1.0, 1.0, 0.0], [0.0, 0.0, 4.0]]]
)
probs = F.softmax(preds, dim=1)  # dim=1 is the batch axis here
print(probs.sum(dim=-1).round(decimals=4))  # each sample's class probabilities
"""
tensor([[1.4282, 1.5718],
        [1.4801, 1.5199]])
"""
print(probs.sum(dim=1))  # what dim=1 normalised: the batch
"""
tensor([[1.0000, 1.0000, 1.0000],
        [1.0000, 1.0000, 1.0000]])
"""

# The fix: normalise over the classes, the last axis.
print(F.softmax(preds, dim=-1).sum(dim=-1).round(decimals=4))
"""
tensor([[1., 1.],
        [1., 1.]])
"""
# --8<-- [end:softmax_axis]

# --8<-- [start:argmax_no_dim]
import numpy as np
import tensorflow as tf
import torch

# CLIP-style logits (N, N): row i should pick column i; 3 of the 4 rows do.
logits = torch.tensor(
    [[5.0, 1.0, 0.0, 0.0], [0.0, 4.0, 9.0, 0.0], [0.0, 1.0, 3.0, 0.0], [1.0, 0.0, 0.0, 2.0]]
)
ground_truth = torch.arange(4)
print(torch.argmax(logits), (torch.argmax(logits) == ground_truth).sum())  # one index, flattened
#> tensor(6) tensor(0)
print(np.argmax(logits.numpy()), tf.math.argmax(logits.numpy()).numpy())  # NumPy flattens; TF's axis=0
#> 6 [0 1 1 3]

# The fix: one index per row, over the classes.
print(torch.argmax(logits, dim=1), (logits.argmax(dim=-1) == ground_truth).sum())
#> tensor([0, 2, 2, 3]) tensor(3)
print(np.argmax(logits.numpy(), axis=1), tf.math.argmax(logits.numpy(), axis=-1).numpy())
#> [0 2 2 3] [0 2 2 3]
# --8<-- [end:argmax_no_dim]

# --8<-- [start:flatten_scalar]
import numpy as np
import torch

s = torch.tensor(123)  # 0-d
print(s.flatten().shape, np.asarray(123.0).flatten().shape)  # 1-d in both now
#> torch.Size([1]) (1,)
print(torch.tensor([7]).squeeze().shape, np.squeeze(np.array([7])).shape)  # a batch of one: 0-d
#> torch.Size([]) ()

# The fix: reshape(-1) always gives 1-d; atleast_1d lifts only 0-d inputs.
for t in (s, torch.tensor([7]), torch.zeros(2, 2)):
    print(t.reshape(-1).shape, torch.atleast_1d(t).shape, np.atleast_1d(t.numpy()).shape)
    #> torch.Size([1]) torch.Size([1]) (1,)
    #> torch.Size([1]) torch.Size([1]) (1,)
    #> torch.Size([4]) torch.Size([2, 2]) (2, 2)
# --8<-- [end:flatten_scalar]
