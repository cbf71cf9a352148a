"""Porting a model between Keras/TensorFlow and PyTorch, layer by layer: GRU and LSTM gate
order, 'same' padding with a stride, BatchNormalization's epsilon, default initialisation,
softmax_cross_entropy_with_logits and dropout rates, each checked by comparing outputs.

Run with `python examples/tensorflow/porting_layers.py`. The `#>` lines under each print are the
output the libraries printed when the site was built; the test suite runs this script again
and compares.
"""

# --8<-- [start:gru_gate_order]
import keras
import numpy as np
import torch
import torch.nn.functional as F

keras.utils.set_random_seed(0)
x = np.random.default_rng(0).normal(size=(2, 5, 3)).astype("float32")  # (batch, time, features)
k_gru = keras.layers.GRU(4, return_sequences=True)  # reset_after=True: CuDNNGRU's weights
y_keras = k_gru(x).numpy()
kernel, recurrent, bias = k_gru.get_weights()
print(kernel.shape, recurrent.shape, bias.shape)  # gates z, r, h side by side; two biases
#> (3, 12) (4, 12) (2, 12)

t_gru = torch.nn.GRU(3, 4, batch_first=True)
print(t_gru.weight_ih_l0.shape, t_gru.bias_ih_l0.shape)  # gates r, z, n stacked on axis 0
#> torch.Size([12, 3]) torch.Size([12])


def copy_gru(reorder):
    def fix(w):  # Keras (..., z|r|h) -> PyTorch (r|z|n, ...)
        z, r, h = np.split(w, 3, axis=-1)
        return np.concatenate([r, z, h], axis=-1) if reorder else w

    with torch.no_grad():
        t_gru.weight_ih_l0.copy_(torch.from_numpy(fix(kernel).T))
        t_gru.weight_hh_l0.copy_(torch.from_numpy(fix(recurrent).T))
        t_gru.bias_ih_l0.copy_(torch.from_numpy(fix(bias[0])))  # input bias
        t_gru.bias_hh_l0.copy_(torch.from_numpy(fix(bias[1])))  # recurrent bias
        return t_gru(torch.from_numpy(x))[0].numpy()


print(np.abs(copy_gru(reorder=False) - y_keras).max().round(4))  # transposed only
#> 0.421
print(np.abs(copy_gru(reorder=True) - y_keras).max() < 1e-5)  # z, r swapped too
#> True
# --8<-- [end:gru_gate_order]

# --8<-- [start:gru_reset_after]
k_gru_v1 = keras.layers.GRU(4, return_sequences=True, reset_after=False)  # Keras 2.0-style GRU
y_keras = k_gru_v1(x).numpy()
kernel, recurrent, bias = k_gru_v1.get_weights()
print(bias.shape)  # one bias
#> (12,)
bias = np.stack([bias, np.zeros_like(bias)])  # all of it as the input bias
print(np.abs(copy_gru(reorder=True) - y_keras).max().round(4))
#> 0.0266
# --8<-- [end:gru_reset_after]

# --8<-- [start:lstm_gate_order]
k_lstm = keras.layers.LSTM(4, return_sequences=True)
y_keras = k_lstm(x).numpy()
kernel, recurrent, bias = k_lstm.get_weights()  # gates i, f, c, o; one bias
t_lstm = torch.nn.LSTM(3, 4, batch_first=True)  # gates i, f, g, o: the same order
with torch.no_grad():
    t_lstm.weight_ih_l0.copy_(torch.from_numpy(kernel.T))
    t_lstm.weight_hh_l0.copy_(torch.from_numpy(recurrent.T))
    t_lstm.bias_ih_l0.copy_(torch.from_numpy(bias))
    t_lstm.bias_hh_l0.zero_()  # PyTorch adds both biases: one of them must be 0
    y_torch = t_lstm(torch.from_numpy(x))[0].numpy()
print(np.abs(y_torch - y_keras).max() < 1e-5)
#> True
# --8<-- [end:lstm_gate_order]

# --8<-- [start:tf1_lstm_cell]
import tensorflow as tf

try:
    tf.compat.v1.nn.rnn_cell.LSTMCell(4)
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: `LSTMCell` is not available with Keras 3.

# TF1's cell: one kernel (input + units, 4 * units), gates i, j, f, o, forget_bias=1.0 added when run
rng = np.random.default_rng(3)
xs = rng.normal(size=(2, 5, 3)).astype("float32")  # (batch, time, features)
old_kernel = rng.normal(size=(3 + 4, 16)).astype("float32") * 0.5
old_bias = rng.normal(size=(16,)).astype("float32") * 0.1
c = h = np.zeros((2, 4), "float32")
no_peephole = np.zeros(4, "float32")
for t in range(5):  # the fused op behind TF1's LSTMBlockCell: the same formula and weights
    out = tf.raw_ops.LSTMBlockCell(
        x=xs[:, t], cs_prev=c, h_prev=h, w=old_kernel, b=old_bias, wci=no_peephole,
        wcf=no_peephole, wco=no_peephole, forget_bias=1.0, cell_clip=-1.0, use_peephole=False)
    c, h = out[1].numpy(), out[6].numpy()

cell = keras.layers.LSTMCell(4)
rnn = keras.layers.RNN(cell)  # last output, as h after the loop
rnn.build(xs.shape)
print([w.shape for w in cell.get_weights()])  # kernel, recurrent_kernel, bias
#> [(3, 16), (4, 16), (16,)]
try:
    cell.set_weights([old_kernel, old_bias])
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: You called `set_weights(weights)` on layer 'lstm_cell' with a weight list of length 2, but the layer was expecting 3 weights.
    """
cell.set_weights([old_kernel[:3], old_kernel[3:], old_bias])  # split only: input rows, hidden rows
print(np.abs(rnn(xs).numpy() - h).max().round(4))
#> 0.518


def keras_gates(w):  # TF1 (..., i|j|f|o) -> Keras (..., i|f|c|o)
    i, j, f, o = np.split(w, 4, axis=-1)
    return np.concatenate([i, f, j, o], axis=-1)


bias = keras_gates(old_bias)
bias[4:8] += 1.0  # forget_bias: added at run time in TF1, stored in the Keras bias
cell.set_weights([keras_gates(old_kernel[:3]), keras_gates(old_kernel[3:]), bias])
print(np.abs(rnn(xs).numpy() - h).max() < 1e-5)
#> True
# --8<-- [end:tf1_lstm_cell]

# --8<-- [start:conv_weights_nchw_nhwc]
rng = np.random.default_rng(4)
x_nchw = rng.normal(size=(1, 3, 5, 5)).astype("float32")
w_oihw = rng.normal(size=(2, 3, 3, 3)).astype("float32")  # an NCHW model's kernel: (out, in, kH, kW)
y_ref = F.conv2d(torch.from_numpy(x_nchw), torch.from_numpy(w_oihw)).numpy()
x_nhwc = x_nchw.transpose(0, 2, 3, 1)  # the activation: (0, 2, 3, 1)
for name, w_hwio in [("reshape", w_oihw.reshape(3, 3, 3, 2)), ("transpose", w_oihw.transpose(2, 3, 1, 0))]:
    y = tf.nn.conv2d(x_nhwc, w_hwio, strides=1, padding="VALID").numpy()  # NHWC, HWIO
    print(name, np.abs(y.transpose(0, 3, 1, 2) - y_ref).max() < 1e-5)
    #> reshape False
    #> transpose True


def small_model(data_format):  # Conv2D, Flatten, Dense
    shape = (3, 5, 5) if data_format == "channels_first" else (5, 5, 3)
    return keras.Sequential([keras.Input(shape), keras.layers.Conv2D(2, 3, data_format=data_format),
                             keras.layers.Flatten(), keras.layers.Dense(1)])


first, last = small_model("channels_first"), small_model("channels_last")
print([w.shape for w in first.get_weights()] == [w.shape for w in last.get_weights()])
#> True
y_first = first(x_nchw).numpy()
last.set_weights(first.get_weights())  # copied unchanged
print(np.abs(last(x_nhwc).numpy() - y_first).max().round(4))
#> 1.0371
kernel, bias, dense_kernel, dense_bias = first.get_weights()
rows = dense_kernel.reshape(2, 3, 3, 1).transpose(1, 2, 0, 3).reshape(18, 1)  # rows (C, H, W) -> (H, W, C)
last.set_weights([kernel, bias, rows, dense_bias])
print(np.abs(last(x_nhwc).numpy() - y_first).max() < 1e-5)
#> True
# --8<-- [end:conv_weights_nchw_nhwc]

# --8<-- [start:same_stride_error]
try:
    torch.nn.Conv2d(2, 3, kernel_size=3, stride=2, padding="same")
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: padding='same' is not supported for strided convolutions


def same_pads(size, kernel_size, stride):
    """TensorFlow's 'SAME' padding along one axis: (before, after)."""
    out = -(-size // stride)  # ceil(size / stride)
    total = max((out - 1) * stride + kernel_size - size, 0)
    return total // 2, total - total // 2  # the odd pixel goes after


images = np.random.default_rng(1).normal(size=(1, 8, 8, 2)).astype("float32")  # NHWC
k_conv = keras.layers.Conv2D(3, 3, strides=2, padding="same")
y_keras = k_conv(images).numpy()
t_conv = torch.nn.Conv2d(2, 3, kernel_size=3, stride=2, padding=0)
with torch.no_grad():
    t_conv.weight.copy_(torch.from_numpy(k_conv.kernel.numpy().transpose(3, 2, 0, 1)))  # HWIO -> OIHW
    t_conv.bias.copy_(torch.from_numpy(k_conv.bias.numpy()))
top, bottom = same_pads(8, 3, 2)
left, right = same_pads(8, 3, 2)
print((top, bottom), (left, right))
#> (0, 1) (0, 1)
x_nchw = torch.from_numpy(images).permute(0, 3, 1, 2)
with torch.no_grad():
    y_torch = t_conv(F.pad(x_nchw, (left, right, top, bottom))).permute(0, 2, 3, 1).numpy()
print(y_torch.shape, np.abs(y_torch - y_keras).max() < 1e-5)
#> (1, 4, 4, 3) True
# --8<-- [end:same_stride_error]

# --8<-- [start:same_asymmetric]
image = np.random.default_rng(2).normal(size=(1, 224, 224, 1)).astype("float32")
k_conv7 = keras.layers.Conv2D(1, 7, strides=2, padding="same", use_bias=False)
y_keras = k_conv7(image).numpy()
weight = torch.from_numpy(k_conv7.kernel.numpy().transpose(3, 2, 0, 1))
x_nchw = torch.from_numpy(image).permute(0, 3, 1, 2)
y_sym = F.conv2d(x_nchw, weight, stride=2, padding=3).permute(0, 2, 3, 1).numpy()
print(y_sym.shape, y_keras.shape)  # the same shape...
#> (1, 112, 112, 1) (1, 112, 112, 1)
print(np.abs(y_sym - y_keras).max().round(4))  # ...other values
#> 5.8942
print(same_pads(224, 7, 2))  # TensorFlow: 2 before, 3 after
#> (2, 3)
y_pad = F.conv2d(F.pad(x_nchw, (2, 3, 2, 3)), weight, stride=2).permute(0, 2, 3, 1).numpy()
print(np.abs(y_pad - y_keras).max() < 1e-4)
#> True
# --8<-- [end:same_asymmetric]


# --8<-- [start:same_asymmetric_keras]
torch.manual_seed(0)
image = np.random.default_rng(3).normal(size=(1, 8, 8, 2)).astype("float32")  # NHWC
t_conv = torch.nn.Conv2d(2, 4, 3, stride=2, padding=1, bias=False)  # ResNet's downsampling conv
with torch.no_grad():
    y_torch = t_conv(torch.from_numpy(image).permute(0, 3, 1, 2)).permute(0, 2, 3, 1).numpy()
kernel = t_conv.weight.detach().numpy().transpose(2, 3, 1, 0)  # (out, in, kH, kW) -> (kH, kW, in, out)

same = keras.layers.Conv2D(4, 3, strides=2, padding="same", use_bias=False)
same.build((None, 8, 8, 2))
same.set_weights([kernel])
y_same = same(image).numpy()
print(y_same.shape, y_torch.shape)  # the same shape...
#> (1, 4, 4, 4) (1, 4, 4, 4)
print(np.abs(y_same - y_torch).max().round(4))  # ...other values
#> 1.8561
print(same_pads(8, 3, 2))  # 'same': 0 before, 1 after; PyTorch's padding=1: 1 and 1
#> (0, 1)

# The fix on the Keras side: pad k // 2 on every side, then a 'valid' convolution.
ported = keras.Sequential(
    [
        keras.Input((8, 8, 2)),
        keras.layers.ZeroPadding2D(3 // 2),
        keras.layers.Conv2D(4, 3, strides=2, padding="valid", use_bias=False),
    ]
)
ported.layers[-1].set_weights([kernel])
print(np.abs(ported(image).numpy() - y_torch).max() < 1e-5)
#> True
# With stride 1, 'same' pads 1 on each side, as padding=1 does: they already agree.
same_1 = keras.layers.Conv2D(4, 3, padding="same", use_bias=False)
same_1.build((None, 8, 8, 2))
same_1.set_weights([kernel])
with torch.no_grad():
    y_torch_1 = F.conv2d(torch.from_numpy(image).permute(0, 3, 1, 2), t_conv.weight, padding=1)
print(np.abs(same_1(image).numpy() - y_torch_1.permute(0, 2, 3, 1).numpy()).max() < 1e-5)
#> True
# --8<-- [end:same_asymmetric_keras]

# --8<-- [start:conv_transpose_output_shape]
import tensorflow as tf

x = np.random.default_rng(4).normal(size=(1, 4, 4, 1)).astype("float32")  # NHWC
k_tf = np.random.default_rng(5).normal(size=(3, 3, 1, 1)).astype("float32")  # (h, w, out, in)
y7 = tf.nn.conv2d_transpose(x, k_tf, output_shape=(1, 7, 7, 1), strides=2, padding="SAME").numpy()
y8 = tf.nn.conv2d_transpose(x, k_tf, output_shape=(1, 8, 8, 1), strides=2, padding="SAME").numpy()
print(y7.shape, y8.shape)  # one input, two output shapes
#> (1, 7, 7, 1) (1, 8, 8, 1)

x_t = torch.from_numpy(x).permute(0, 3, 1, 2)  # NCHW
w_t = torch.from_numpy(k_tf).permute(3, 2, 0, 1)  # (in, out, h, w), no flip


def same(y_torch, y_tf):
    return tuple(y_torch.shape), np.allclose(y_torch.permute(0, 2, 3, 1).detach().numpy(), y_tf, atol=1e-5)


print(same(F.conv_transpose2d(x_t, w_t, stride=2, padding=1), y7))  # (4-1)*2 - 2*1 + 3 = 7
#> ((1, 1, 7, 7), True)
print(same(F.conv_transpose2d(x_t, w_t, stride=2, padding=1, output_padding=1), y8))  # 8, shifted a pixel
#> ((1, 1, 8, 8), False)
print(same(F.conv_transpose2d(x_t, w_t, stride=2)[..., :8, :8], y8))  # 9, cut after
#> ((1, 1, 8, 8), True)
up = torch.nn.ConvTranspose2d(1, 1, 3, stride=2, padding=1, bias=False)
print(tuple(up(x_t, output_size=(8, 8)).shape))  # the module picks output_padding=1 itself
#> (1, 1, 8, 8)
# --8<-- [end:conv_transpose_output_shape]

# --8<-- [start:keras_output_padding]
for padding in ["same", "valid"]:
    shapes = [keras.layers.Conv2DTranspose(1, 3, strides=2, padding=padding, output_padding=p)(x).shape[1] for p in [None, 0, 1]]
    print(padding, shapes)  # output_padding None, 0, 1
    #> same [8, 7, 8]
    #> valid [9, 9, 10]
# --8<-- [end:keras_output_padding]

# --8<-- [start:same_even_stride1]
print(same_pads(8, 4, 1))  # even kernel, stride 1: TensorFlow pads 1 before, 2 after
#> (1, 2)
k_conv4 = keras.layers.Conv2D(1, 4, padding="same", use_bias=False)
y_keras = k_conv4(images[..., :1]).numpy()
weight4 = torch.from_numpy(k_conv4.kernel.numpy().transpose(3, 2, 0, 1))
x1 = torch.from_numpy(images[..., :1]).permute(0, 3, 1, 2)
y_torch = F.conv2d(x1, weight4, padding="same").permute(0, 2, 3, 1).numpy()  # PyTorch pads 1, 2 too
print(np.abs(y_torch - y_keras).max() < 1e-5)
#> True
# --8<-- [end:same_even_stride1]

# --8<-- [start:valid_padding]
k_valid = keras.layers.Conv2D(3, 3, strides=2, padding="valid")
y_keras = k_valid(images).numpy()
x_nchw = torch.from_numpy(images).permute(0, 3, 1, 2)
weight = torch.from_numpy(k_valid.kernel.numpy().transpose(3, 2, 0, 1))
y_torch = F.conv2d(x_nchw, weight, torch.from_numpy(k_valid.bias.numpy()), stride=2)
y_torch = y_torch.permute(0, 2, 3, 1).numpy()
print(y_keras.shape, y_torch.shape)  # both drop the last row and column: (8 - 3) // 2 + 1 = 3
#> (1, 3, 3, 3) (1, 3, 3, 3)
print(np.abs(y_torch - y_keras).max() < 1e-5)
#> True
print(keras.layers.MaxPooling2D(3, strides=2)(images).shape)  # pooling rounds down as well
#> (1, 3, 3, 2)
print(torch.nn.MaxPool2d(3, stride=2)(x_nchw).shape, torch.nn.MaxPool2d(3, stride=2, ceil_mode=True)(x_nchw).shape)
#> torch.Size([1, 2, 3, 3]) torch.Size([1, 2, 4, 4])
# --8<-- [end:valid_padding]

# --8<-- [start:same_pooling]
x5 = np.random.default_rng(4).normal(size=(1, 5, 5, 2)).astype("float32")  # NHWC
x5_t = torch.from_numpy(x5).permute(0, 3, 1, 2)  # NCHW


def nhwc(t):
    return t.permute(0, 2, 3, 1).numpy()


# max pooling, 2x2 stride 2: 'SAME' needs same_pads(5, 2, 2) = (0, 1) on each axis
k_max = keras.layers.MaxPooling2D(2, strides=2, padding="same")(x5).numpy()
zero_pad = nhwc(F.max_pool2d(F.pad(x5_t, (0, 1, 0, 1)), 2, stride=2))  # pads with 0
inf_pad = nhwc(F.max_pool2d(F.pad(x5_t, (0, 1, 0, 1), value=float("-inf")), 2, stride=2))
print(k_max.shape, np.abs(zero_pad - k_max).max() > 0, np.abs(inf_pad - k_max).max() < 1e-6)
#> (1, 3, 3, 2) True True
k_max3 = keras.layers.MaxPooling2D(3, strides=1, padding="same")(x5).numpy()  # pads (1, 1)
print(np.abs(nhwc(F.max_pool2d(x5_t, 3, stride=1, padding=1)) - k_max3).max() < 1e-6)
#> True

# average pooling, 3x3 stride 1: 'SAME' pads (1, 1), and Keras averages only real pixels
k_avg = keras.layers.AveragePooling2D(3, strides=1, padding="same")(x5).numpy()
counted = nhwc(F.avg_pool2d(x5_t, 3, stride=1, padding=1))  # count_include_pad=True
excluded = nhwc(F.avg_pool2d(x5_t, 3, stride=1, padding=1, count_include_pad=False))
print(np.abs(counted - k_avg).max() > 1e-3, np.abs(excluded - k_avg).max() < 1e-6)
#> True True

# uneven 'SAME' for average pooling: pad by hand, divide by the real pixels counted
k_avg2 = keras.layers.AveragePooling2D(2, strides=2, padding="same")(x5).numpy()
total = F.avg_pool2d(F.pad(x5_t, (0, 1, 0, 1)), 2, stride=2)
real = F.avg_pool2d(F.pad(torch.ones_like(x5_t), (0, 1, 0, 1)), 2, stride=2)
print(np.abs(nhwc(total / real) - k_avg2).max() < 1e-6)
#> True
# --8<-- [end:same_pooling]

# --8<-- [start:bn_epsilon]
k_bn = keras.layers.BatchNormalization()
k_bn.build((None, 8, 8, 2))
rng = np.random.default_rng(3)
gamma, beta = rng.normal(size=2).astype("float32"), rng.normal(size=2).astype("float32")
mean = rng.normal(size=2).astype("float32")
variance = np.array([0.002, 0.0005], dtype="float32")  # small variances
k_bn.set_weights([gamma, beta, mean, variance])
y_keras = k_bn(images, training=False).numpy()
print(k_bn.epsilon, torch.nn.BatchNorm2d(2).eps)
#> 0.001 1e-05
print(np.sqrt((variance + 1e-3) / (variance + 1e-5)).round(2))  # how much the two eps change the scale
#> [1.22 1.71]


def torch_bn(**kwargs):
    bn = torch.nn.BatchNorm2d(2, **kwargs).eval()
    with torch.no_grad():
        for name, value in zip(["weight", "bias", "running_mean", "running_var"], [gamma, beta, mean, variance], strict=True):
            getattr(bn, name).copy_(torch.from_numpy(value))
        return bn(torch.from_numpy(images).permute(0, 3, 1, 2)).permute(0, 2, 3, 1).numpy()


print(np.abs(torch_bn() - y_keras).max().round(4))  # PyTorch's default eps
#> 106.5493
print(np.abs(torch_bn(eps=1e-3) - y_keras).max() < 1e-4)  # Keras's epsilon
#> True
# --8<-- [end:bn_epsilon]

# --8<-- [start:bn_set_weights]
import copy

t_bn = torch.nn.BatchNorm2d(2, eps=1e-3)  # Keras's epsilon
with torch.no_grad():
    t_bn.weight.copy_(torch.tensor([1.5, 0.5]))
    t_bn.bias.copy_(torch.tensor([0.1, -0.2]))
    t_bn.running_mean.copy_(torch.tensor([0.3, -0.4]))
    t_bn.running_var.copy_(torch.tensor([2.0, 0.25]))
x_nchw = torch.from_numpy(images).permute(0, 3, 1, 2)
params = [t.detach().numpy() for t in (t_bn.weight, t_bn.bias, t_bn.running_mean, t_bn.running_var)]
print([w.name for w in k_bn.weights])  # the order set_weights expects
#> ['gamma', 'beta', 'moving_mean', 'moving_variance']


def keras_bn(weights):
    layer = keras.layers.BatchNormalization(epsilon=1e-3)
    layer.build(images.shape)
    layer.set_weights(weights)
    return layer(images, training=False).numpy()


def gap(y_torch):  # largest difference, both in NHWC
    return np.abs(y_torch.permute(0, 2, 3, 1).detach().numpy() - y_keras_bn).max().round(4)


y_keras_bn = keras_bn(params)  # gamma, beta, moving_mean, moving_variance
print(gap(copy.deepcopy(t_bn)(x_nchw)))  # still in training mode (a copy: training updates the running stats)
#> 1.5401
t_bn.eval()  # running statistics, as Keras's training=False
print(gap(t_bn(x_nchw)) < 1e-4)
#> True
y_keras_bn = keras_bn([params[0], params[1], params[3], params[2]])  # running_var before running_mean
print(gap(t_bn(x_nchw)))
#> nan
# --8<-- [end:bn_set_weights]

# --8<-- [start:dense_linear]
import tensorflow as tf

try:
    tf.compat.v1.layers.dense(tf.ones((4, 5)), 3)  # TF1's tf.layers.dense(x, units)
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: `dense` is not available with Keras 3.

x = np.random.default_rng(0).standard_normal((4, 5)).astype(np.float32)  # 4 samples, 5 features
dense = keras.layers.Dense(3)  # Keras: the input size is read from the first call
y_keras = dense(x).numpy()
linear = torch.nn.Linear(x.shape[-1], 3)  # PyTorch: in_features given up front
lazy = torch.nn.LazyLinear(3)  # or read from the first call, like Dense
lazy(torch.from_numpy(x))
print(tuple(dense.kernel.shape), tuple(linear.weight.shape), tuple(lazy.weight.shape))
#> (5, 3) (3, 5) (3, 5)

with torch.no_grad():  # Keras's weights into PyTorch: transpose the kernel
    linear.weight.copy_(torch.from_numpy(dense.kernel.numpy().T))
    linear.bias.copy_(torch.from_numpy(dense.bias.numpy()))
    y_torch = linear(torch.from_numpy(x)).numpy()
print(np.allclose(y_torch, y_keras, atol=1e-6))
#> True
# --8<-- [end:dense_linear]

# --8<-- [start:default_init]
torch.manual_seed(0)
k_dense = keras.layers.Dense(32)
k_dense.build((None, 64))
t_linear = torch.nn.Linear(64, 32)
glorot, kaiming = np.sqrt(6 / (64 + 32)), 1 / np.sqrt(64)
print(glorot.round(4), kaiming.round(4))  # bounds of glorot_uniform and kaiming_uniform_(a=sqrt(5))
#> 0.25 0.125
k_max = np.abs(k_dense.kernel.numpy()).max()
print(glorot * 0.99 < k_max <= glorot, np.abs(k_dense.bias.numpy()).max())  # Keras: kernel up to 0.25, bias zeros
#> True 0.0
t_max = t_linear.weight.abs().max().item()
print(kaiming * 0.99 < t_max <= kaiming)  # PyTorch: weight up to 0.125
#> True
print(t_linear.bias.abs().max().item() <= kaiming, bool(t_linear.bias.ne(0).all()))  # bias: the same bound, not zeros
#> True True
t_conv = torch.nn.Conv2d(2, 3, 3)  # the same rule, with fan_in = 2 * 3 * 3
print(t_conv.weight.abs().max().item() <= 1 / np.sqrt(18))
#> True

torch.nn.init.xavier_uniform_(t_linear.weight)  # Keras's glorot_uniform
torch.nn.init.zeros_(t_linear.bias)
print(glorot * 0.99 < t_linear.weight.abs().max().item() <= glorot, t_linear.bias.abs().max().item())
#> True 0.0
# --8<-- [end:default_init]

# --8<-- [start:softmax_cross_entropy]
import tensorflow as tf

logits = np.array([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]], dtype="float32")
one_hot = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], dtype="float32")
soft = np.array([[0.8, 0.1, 0.1], [0.2, 0.2, 0.6]], dtype="float32")
print(tf.nn.softmax_cross_entropy_with_logits(labels=one_hot, logits=logits).numpy().round(4))
#> [0.2413 0.1096]
try:
    F.cross_entropy(torch.from_numpy(logits), torch.from_numpy(one_hot).long())
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Expected floating point type for target with class probabilities, got Long

t_logits = torch.from_numpy(logits)
print(F.cross_entropy(t_logits, torch.from_numpy(one_hot), reduction="none").numpy().round(4))
#> [0.2413 0.1096]
print(F.cross_entropy(t_logits, torch.from_numpy(one_hot).argmax(1), reduction="none").numpy().round(4))
#> [0.2413 0.1096]
print(tf.nn.softmax_cross_entropy_with_logits(labels=soft, logits=logits).numpy().round(4))
#> [0.6913 1.2496]
print(F.cross_entropy(t_logits, torch.from_numpy(soft), reduction="none").numpy().round(4))
#> [0.6913 1.2496]
print((-(torch.from_numpy(soft) * F.log_softmax(t_logits, dim=1)).sum(1)).numpy().round(4))
#> [0.6913 1.2496]
print(round(F.cross_entropy(t_logits, torch.from_numpy(soft)).item(), 3))  # PyTorch's default: the mean
#> 0.97
# --8<-- [end:softmax_cross_entropy]

# --8<-- [start:dropout_rate]
ones = np.ones((1, 10000), dtype="float32")
keras.utils.set_random_seed(0)
y_keras = keras.layers.Dropout(0.2)(ones, training=True).numpy()
y_torch = torch.nn.Dropout(p=0.2)(torch.from_numpy(ones)).numpy()  # training mode
print((y_keras == 0).mean().round(1), (y_torch == 0).mean().round(1))  # both drop about 20 %
#> 0.2 0.2
print(y_keras.max(), y_torch.max())  # and scale the rest by 1 / (1 - 0.2)
#> 1.25 1.25
# --8<-- [end:dropout_rate]

# --8<-- [start:embedding_mask_zero]
keras.utils.set_random_seed(0)
ids = np.array([[3, 1, 0, 0]])  # two tokens, then padding 0
masked = keras.Sequential([keras.Input((4,), dtype="int32"), keras.layers.Embedding(5, 2, mask_zero=True)])
plain = keras.Sequential([keras.Input((4,), dtype="int32"), keras.layers.Embedding(5, 2)])
plain.set_weights(masked.get_weights())
vectors = masked.predict(ids, verbose=0)
print(vectors[0, 2:].round(3))  # index 0 still has its own (non-zero) vector
"""
[[ 0.002 -0.019]
 [ 0.002 -0.019]]
"""
print(np.array_equal(vectors, plain.predict(ids, verbose=0)))  # the same as without the flag
#> True
embedding = masked.layers[0]
print(embedding.compute_mask(ids).numpy())  # the mask, which only mask-aware layers downstream read
#> [[ True  True False False]]
pooled = keras.layers.GlobalAveragePooling1D()(embedding(ids))  # reads the mask: skips the padding
print(pooled.numpy().round(3), vectors[:, :2].mean(1).round(3))
#> [[0.017 0.005]] [[0.017 0.005]]

# Zeros wanted: multiply by the mask. PyTorch's nn.Embedding(padding_idx=0) starts row 0 at zeros.
mask = np.asarray(embedding.compute_mask(ids))[..., None]
print((vectors * mask)[0, 2:] + 0.0)
"""
[[0. 0.]
 [0. 0.]]
"""
torch.manual_seed(0)
print(torch.nn.Embedding(5, 2, padding_idx=0)(torch.from_numpy(ids))[0, 2:])
"""
tensor([[0., 0.],
        [0., 0.]], grad_fn=<SliceBackward0>)
"""
# --8<-- [end:embedding_mask_zero]

# --8<-- [start:lstm_get_weights]
import keras
import numpy as np

keras.utils.set_random_seed(0)
units = 2
lstm = keras.layers.LSTM(units, return_state=True)
rng = np.random.default_rng(5)
x_step = rng.normal(size=(1, 1, 3)).astype("float32")  # one sample, one time step, 3 features
h0, c0 = rng.normal(size=(2, 1, units)).astype("float32")  # a non-zero state, so every gate counts
h_keras, _, c_keras = (t.numpy() for t in lstm(x_step, initial_state=[h0, c0]))
kernel, recurrent_kernel, bias = lstm.get_weights()
print(kernel.shape, recurrent_kernel.shape, bias.shape)  # (input_dim, 4*units), (units, 4*units), (4*units,)
#> (3, 8) (2, 8) (8,)


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def one_step(order):
    """One step from (h0, c0), reading the column blocks as the gates named in `order`."""
    z = x_step[:, 0] @ kernel + h0 @ recurrent_kernel + bias  # (1, 4*units)
    gate = dict(zip(order, np.split(z, 4, axis=-1), strict=True))  # column blocks of `units` each
    i, f, o = sigmoid(gate["i"]), sigmoid(gate["f"]), sigmoid(gate["o"])
    c = f * c0 + i * np.tanh(gate["c"])  # cell state
    return o * np.tanh(c), c


h, c = one_step("ifco")  # columns 0:2 input, 2:4 forget, 4:6 cell candidate, 6:8 output
print(np.abs(h - h_keras).max() < 1e-6, np.abs(c - c_keras).max() < 1e-6)
#> True True
h, c = one_step("icfo")  # forget and cell blocks swapped
print(np.abs(h - h_keras).max().round(4))
#> 0.0493
# --8<-- [end:lstm_get_weights]

# --8<-- [start:lstm_initial_state]
import keras
import numpy as np
import torch

keras.utils.set_random_seed(0)
x = np.random.default_rng(6).normal(size=(2, 5, 3)).astype("float32")  # (batch, time, features)
k_lstm = keras.layers.LSTM(4, return_sequences=True, return_state=True)
seq, h_n, c_n = k_lstm(x)  # called with x alone: h0 and c0 are zeros
print(seq.shape, h_n.shape, c_n.shape)
#> (2, 5, 4) (2, 4) (2, 4)
zeros = np.zeros((2, 4), "float32")
seq_zeros, _, _ = k_lstm(x, initial_state=[zeros, zeros])
print(np.array_equal(seq.numpy(), seq_zeros.numpy()))
#> True

t_lstm = torch.nn.LSTM(3, 4, batch_first=True)  # the same weights, copied as in #lstm-gate-order
kernel, recurrent_kernel, bias = k_lstm.get_weights()
with torch.no_grad():
    t_lstm.weight_ih_l0.copy_(torch.from_numpy(kernel.T))
    t_lstm.weight_hh_l0.copy_(torch.from_numpy(recurrent_kernel.T))
    t_lstm.bias_ih_l0.copy_(torch.from_numpy(bias))
    t_lstm.bias_hh_l0.zero_()

rng = np.random.default_rng(7)
h0, c0 = rng.normal(size=(2, 2, 4)).astype("float32")  # (batch, units) each, Keras's shape
seq_k, h_k, c_k = k_lstm(x, initial_state=[h0, c0])  # Keras: a list [h0, c0], batch first
with torch.no_grad():
    # PyTorch: a tuple (h0, c0), each (num_layers * directions, batch, hidden)
    state = (torch.from_numpy(h0)[None], torch.from_numpy(c0)[None])
    seq_t, (h_t, c_t) = t_lstm(torch.from_numpy(x), state)
print(tuple(state[0].shape), tuple(h_t.shape))
#> (1, 2, 4) (1, 2, 4)
same = [np.abs(a.numpy() - b.numpy()).max() < 1e-5 for a, b in [(seq_t, seq_k), (h_t[0], h_k), (c_t[0], c_k)]]
print([bool(s) for s in same])  # outputs, last h, last c
#> [True, True, True]
print(np.abs(seq_k.numpy() - seq.numpy()).max().round(4))  # other states, other outputs
#> 0.4992
with torch.no_grad():  # PyTorch's default is zeros as well
    zero_state = (torch.zeros(1, 2, 4), torch.zeros(1, 2, 4))
    print(torch.equal(t_lstm(torch.from_numpy(x))[0], t_lstm(torch.from_numpy(x), zero_state)[0]))
    #> True
# --8<-- [end:lstm_initial_state]
