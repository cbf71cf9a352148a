"""Porting training code between TensorFlow/Keras and PyTorch: where Adam adds its epsilon, and the
epsilon defaults of Adam and LayerNorm, checked by feeding both optimizers the same gradients.
PyTorch builds its first optimizer (which loads torch's compiler stack) before Keras imports
TensorFlow: the other way round, with torch 2.15 this process aborts with an LLVM "registered more
than once" error (docs/en/tensorflow/torch-and-tensorflow.md#import-order).

Run with `python examples/tensorflow/porting_optimizers.py`. The `#>` lines under each print are
the output the libraries printed when the site was built; the test suite runs this script again
and compares.
"""

# --8<-- [start:adam_epsilon]
import numpy as np
import torch

print(torch.optim.Adam([torch.zeros(1)]).defaults["eps"], torch.nn.LayerNorm(4).eps)  # PyTorch's optimizer before Keras: see the docstring
#> 1e-08 1e-05
import keras  # noqa: E402

print(keras.optimizers.Adam().epsilon, keras.layers.LayerNormalization().epsilon)
#> 1e-07 0.001
grads = np.random.default_rng(6).normal(scale=1e-6, size=(5, 4))  # the same gradients fed to both, five steps
w0 = np.ones(4)


def keras_adam(**kwargs):
    w = keras.Variable(w0, dtype="float64")
    opt = keras.optimizers.Adam(learning_rate=0.01, **kwargs)
    for g in grads:
        opt.apply_gradients([(keras.ops.convert_to_tensor(g), w)])
    return w.numpy()


def torch_adam(eps_per_step=None, **kwargs):
    w = torch.tensor(w0, requires_grad=True)
    opt = torch.optim.Adam([w], lr=0.01, **kwargs)
    for step, g in enumerate(grads, start=1):
        if eps_per_step:
            opt.param_groups[0]["eps"] = eps_per_step(step)
        w.grad = torch.from_numpy(g)
        opt.step()
    return w.detach().numpy()


print(f"{np.abs(torch_adam() - keras_adam()).max():.1e}")  # defaults
#> 2.6e-02
print(f"{np.abs(torch_adam(eps=1e-7) - keras_adam()).max():.1e}")  # the same epsilon, another place
#> 2.4e-02
grads = grads * 1e3  # gradients 1000 times larger against epsilon: a smaller gap
print(f"{np.abs(torch_adam(eps=1e-7) - keras_adam()).max():.1e}")
#> 1.9e-04
grads = grads / 1e3
keras_eps, beta_2 = 1e-7, 0.999
tf_like = torch_adam(eps_per_step=lambda t: keras_eps / np.sqrt(1 - beta_2**t))
print(np.abs(tf_like - keras_adam()).max() < 1e-6)
#> True
# --8<-- [end:adam_epsilon]
