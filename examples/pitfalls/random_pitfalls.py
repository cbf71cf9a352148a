"""Random numbers and seeds: code that sets a seed and still draws other numbers than expected.

Each section runs code that raises nothing and prints a result readers did not expect,
then the fix's result.

Run with `python examples/pitfalls/random_pitfalls.py`.
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # keep TensorFlow's start-up log off the terminal

# --8<-- [start:numpy_augmentation]
import numpy as np
import torch


def augment(images: torch.Tensor) -> torch.Tensor:
    """Add noise and flip at random, both drawn with NumPy."""
    noise = torch.from_numpy(np.random.normal(0.0, 0.1, images.shape).astype(np.float32))
    if np.random.rand() < 0.5:
        images = images.flip(-1)
    return images + noise


def first_step() -> tuple:
    """A new model's weights and its output for one augmented batch."""
    model = torch.nn.Linear(4, 1)
    images = torch.arange(8.0).reshape(2, 4)
    return model.weight.detach().clone(), model(augment(images)).detach()


torch.manual_seed(0)
weights, output = first_step()
torch.manual_seed(0)
weights_again, output_again = first_step()
print(torch.equal(weights, weights_again), torch.equal(output, output_again))  # weights, output
#> True False

torch.manual_seed(0)
np.random.seed(0)  # fix: seed NumPy as well
weights, output = first_step()
torch.manual_seed(0)
np.random.seed(0)
weights_again, output_again = first_step()
print(torch.equal(weights, weights_again), torch.equal(output, output_again))
#> True True
# --8<-- [end:numpy_augmentation]

# --8<-- [start:extra_layer]
import torch
from torch import nn


class Net(nn.Module):
    """An encoder and a head; with `extra=True`, one more layer that forward never uses."""

    def __init__(self, extra: bool = False, fork: bool = False):
        super().__init__()
        self.encoder = nn.Linear(4, 4)
        if extra and fork:
            with torch.random.fork_rng(devices=[]):  # draws from a copy of the generator's state
                self.unused = nn.Linear(4, 4)
        elif extra:
            self.unused = nn.Linear(4, 4)
        self.head = nn.Linear(4, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.encoder(x))


x = torch.ones(1, 4)
torch.manual_seed(0)
net = Net()
torch.manual_seed(0)
with_unused = Net(extra=True)
print(torch.equal(net.encoder.weight, with_unused.encoder.weight))  # created before the extra layer
#> True
print(torch.equal(net.head.weight, with_unused.head.weight))  # created after it
#> False
print(torch.equal(net(x), with_unused(x)))
#> False

torch.manual_seed(0)
forked = Net(extra=True, fork=True)  # fix: the extra layer draws inside fork_rng
print(torch.equal(net.head.weight, forked.head.weight), torch.equal(net(x), forked(x)))
#> True True
# --8<-- [end:extra_layer]

# --8<-- [start:random_split]
import torch
from torch.utils.data import random_split

data = range(10)
torch.manual_seed(0)
train, val = random_split(data, [8, 2])
print(list(val))
#> [6, 2]
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)  # a line added between the seed and the split
train, val = random_split(data, [8, 2])
print(list(val))  # the same seed, another validation set
#> [4, 0]


def split(seed: int = 0) -> list:
    """Split with a generator of its own: other draws cannot move the split."""
    return random_split(data, [8, 2], generator=torch.Generator().manual_seed(seed))


first_val = list(split()[1])
torch.manual_seed(123)
model = torch.nn.Linear(3, 1)
print(first_val, list(split()[1]))  # the same split, whatever was drawn before
#> [6, 2] [6, 2]
# --8<-- [end:random_split]

# --8<-- [start:batch_noise]
import torch

size = 100  # noise values per sample
torch.manual_seed(0)
together = torch.randn(3, size)  # noise for a batch of 3
torch.manual_seed(0)
one_by_one = [torch.randn(1, size) for _ in range(3)]  # the same samples, one at a time
print([torch.equal(together[i], one_by_one[i][0]) for i in range(3)])
#> [False, False, False]
same = together[0] == one_by_one[0][0]  # sample 0 starts at the same place in the stream
print(torch.equal(together[0][:84], one_by_one[0][0][:84]), same.sum().item())
#> True 84


def sample_noise(indices: list) -> torch.Tensor:
    """Noise for each sample from a generator seeded with the sample's index."""
    rows = [torch.randn(size, generator=torch.Generator().manual_seed(i)) for i in indices]
    return torch.stack(rows)


together = sample_noise([0, 1, 2])
one_by_one = [sample_noise([i]) for i in range(3)]
print([torch.equal(together[i], one_by_one[i][0]) for i in range(3)])
#> [True, True, True]
# --8<-- [end:batch_noise]

# --8<-- [start:cpu_gpu]
import torch

torch.manual_seed(0)
low, high = torch.tensor(0.0), torch.tensor(1.0)
print(torch.distributions.Uniform(low, high).rsample((5,)))  # drawn by the CPU's generator
#> tensor([0.4963, 0.7682, 0.0885, 0.1320, 0.3074])


def uniform_sample(low: torch.Tensor, high: torch.Tensor, n: int, seed: int) -> torch.Tensor:
    """Uniform samples on low's device, from uniform numbers always drawn on the CPU."""
    u = torch.rand(n, generator=torch.Generator().manual_seed(seed))  # the CPU's generator
    return low + (high - low) * u.to(low.device)  # on the GPU too, the same numbers


print(uniform_sample(low, high, 5, seed=0))
#> tensor([0.4963, 0.7682, 0.0885, 0.1320, 0.3074])
# --8<-- [end:cpu_gpu]

# --8<-- [start:numpy_generators]
import numpy as np

np.random.seed(1969)
print(np.random.rand(4).round(4))
#> [0.599  0.5777 0.9256 0.1372]
print(np.random.rand(4).round(4))  # the next call continues the sequence
#> [0.0947 0.6226 0.9281 0.3722]
print(np.random.RandomState(1969).rand(4).round(4))  # the legacy generator: the same stream
#> [0.599  0.5777 0.9256 0.1372]
rng = np.random.default_rng(1969)  # the same seed, another generator
print(rng.random(4).round(4))
#> [0.4744 0.8233 0.0411 0.3249]

np.random.seed(0)
unseeded = np.random.default_rng().random()  # np.random.seed does not reach default_rng()
np.random.seed(0)
print(unseeded == np.random.default_rng().random())
#> False

# Fix: create the generator from the seed, and create it again to repeat its numbers.
print(np.array_equal(np.random.default_rng(1969).random(4), np.random.default_rng(1969).random(4)))
#> True
# --8<-- [end:numpy_generators]

# --8<-- [start:tf_op_seed]
import tensorflow as tf

x = tf.random.uniform([1], seed=1)
y = tf.random.uniform([1], seed=1)  # the same operation seed
print(x.numpy(), y.numpy())
#> [0.2390374] [0.22267115]

# Fix: a stateless operation gives the same numbers for the same seed, call after call.
a = tf.random.stateless_uniform([1], seed=[1, 0])
b = tf.random.stateless_uniform([1], seed=[1, 0])
print(bool(tf.reduce_all(a == b)))
#> True
# --8<-- [end:tf_op_seed]

# --8<-- [start:tf_function_seed]
import numpy as np
import tensorflow as tf


@tf.function
def noise() -> tf.Tensor:
    return tf.random.uniform([2])


tf.random.set_seed(42)
first = noise().numpy()  # traced now: its operation seed follows from the global seed 42
tf.random.set_seed(7)
print(np.array_equal(first, noise().numpy()))  # seed 7, and still the numbers of seed 42
#> True

# Fix: a tf.random.Generator holds its state in a variable the function reads on every call.
generator = tf.random.Generator.from_seed(42)


@tf.function
def generator_noise() -> tf.Tensor:
    return generator.uniform([2])


first = generator_noise().numpy()
generator.reset_from_seed(7)
seven = generator_noise().numpy()
generator.reset_from_seed(42)
print(np.array_equal(first, seven), np.array_equal(first, generator_noise().numpy()))
#> False True
# --8<-- [end:tf_function_seed]

# --8<-- [start:tf_while_loop_seed]
import tensorflow as tf


def draws():
    before = tf.random.uniform([])
    _, inside = tf.while_loop(lambda i, x: i < 1, lambda i, x: (i + 1, tf.random.uniform([])), (0, 0.0))
    branch = tf.cond(before > 2.0, lambda: 0.0, lambda: tf.random.uniform([]))  # the second branch runs
    return before, inside, branch


tf.random.set_seed(0)
for name, function in [("eager", draws), ("tf.function", tf.function(draws))]:
    before, inside, branch = function()
    print(name, bool(before == inside), bool(before == branch))  # equal to the draw before?
    #> eager False False
    #> tf.function True True

# Fix: a tf.random.Generator, whose state advances at each draw, or an operation seed per call.
generator = tf.random.Generator.from_seed(0)


@tf.function
def fixed_draws():
    before = (generator.uniform([]), tf.random.uniform([], seed=1))
    body = lambda i, x, y: (i + 1, generator.uniform([]), tf.random.uniform([], seed=2))  # noqa: E731
    _, *inside = tf.while_loop(lambda i, x, y: i < 1, body, (0, 0.0, 0.0))
    return before, inside


before, inside = fixed_draws()
print([bool(b == i) for b, i in zip(before, inside, strict=True)])  # Generator, seed=
#> [False, False]
# --8<-- [end:tf_while_loop_seed]

# --8<-- [start:dataset_map_random]
import random

import numpy as np
import tensorflow as tf


def count_shifts(draws):  # shifts five elements by each draw, inside map; counts distinct shifts
    dataset = tf.data.Dataset.range(5).map(lambda x: {k: tf.cast(x, tf.float32) + f() for k, f in draws.items()})
    elements = list(dataset)
    return {name: len({round(float(element[name]) - i, 4) for i, element in enumerate(elements)}) for name in draws}


np.random.seed(0)
random.seed(0)
python_draws = {  # Python code: runs once, when map traces the function
    "np.random.uniform()": np.random.uniform,
    "random.random()": random.random,
    "1 if random() > 0.5": lambda: 1.0 if random.random() > 0.5 else 0.0,  # one branch for all
}
for name, distinct in count_shifts(python_draws).items():
    print(f"{name:22} {distinct} distinct shifts for 5 elements")
    #> np.random.uniform()    1 distinct shifts for 5 elements
    #> random.random()        1 distinct shifts for 5 elements
    #> 1 if random() > 0.5    1 distinct shifts for 5 elements

# The fix: TensorFlow operations, which run for each element.
tf.random.set_seed(0)
generator = tf.random.Generator.from_seed(0)
tf_draws = {
    "tf.random.uniform([])": lambda: tf.random.uniform([]),
    "generator.uniform([])": lambda: generator.uniform([]),
}
for name, distinct in count_shifts(tf_draws).items():
    print(f"{name:22} {distinct} distinct shifts for 5 elements")
    #> tf.random.uniform([])  5 distinct shifts for 5 elements
    #> generator.uniform([])  5 distinct shifts for 5 elements
# --8<-- [end:dataset_map_random]

# --8<-- [start:tf1_seed_order]
import tensorflow as tf

print("tf.set_random_seed exists:", hasattr(tf, "set_random_seed"))  # TF1 names: tf.compat.v1
#> tf.set_random_seed exists: False
v1 = tf.compat.v1


def program(seed_before_op: bool) -> tuple:
    """The report's program A (seed first) or B (op first), in a graph of its own."""
    graph = tf.Graph()
    with graph.as_default():
        if seed_before_op:
            v1.set_random_seed(0)
        sample = v1.random_normal([1], seed=0)
        if not seed_before_op:
            v1.set_random_seed(0)  # too late: the op above has its seeds already
        op = next(o for o in graph.get_operations() if o.type == "RandomStandardNormal")
        with v1.Session(graph=graph) as sess:
            value = round(float(sess.run(sample)[0]), 4)
        return (op.get_attr("seed"), op.get_attr("seed2")), value


print("A, seed before op:", program(True))
#> A, seed before op: ((0, 2147483647), 0.1239)
print("A, a fresh graph: ", program(True))  # a new graph stands in for a new run
#> A, a fresh graph:  ((0, 2147483647), 0.1239)
print("B, seed after op: ", program(False))
#> B, seed after op:  ((87654321, 0), -0.3992)
print("B, a fresh graph: ", program(False))
#> B, a fresh graph:  ((87654321, 0), -0.3992)
print("a new graph's seed:", tf.Graph().seed)
#> a new graph's seed: None


def kernel_seeds(seed: int, seed2: int) -> float:
    """The kernel called with an explicit seed pair, in a fresh graph."""
    with tf.Graph().as_default():
        draw = tf.raw_ops.RandomStandardNormal(shape=[1], dtype=tf.float32, seed=seed, seed2=seed2)
        with v1.Session() as sess:
            return float(sess.run(draw)[0])


print("(0, 0) repeats in a fresh graph:", kernel_seeds(0, 0) == kernel_seeds(0, 0))
#> (0, 0) repeats in a fresh graph: False
print("(0, 2147483647) repeats:", kernel_seeds(0, 2**31 - 1) == kernel_seeds(0, 2**31 - 1))
#> (0, 2147483647) repeats: True
# --8<-- [end:tf1_seed_order]

# --8<-- [start:tf_data_same_random]
import numpy as np
import tensorflow as tf


def values(dataset) -> list:
    return [float(v) for v in dataset]


tf.random.set_seed(0)
first = tf.data.Dataset.range(3).map(lambda _: tf.random.uniform([]))
second = tf.data.Dataset.range(3).map(lambda _: tf.random.uniform([]))
print("global seed only, same sequence:", values(first) == values(second))
#> global seed only, same sequence: True

# Fixes: distinct operation seeds, one shared Generator, or stateless ops with distinct seeds.
first = tf.data.Dataset.range(3).map(lambda _: tf.random.uniform([], seed=1))
second = tf.data.Dataset.range(3).map(lambda _: tf.random.uniform([], seed=2))
print("seed=1 and seed=2, same sequence:", values(first) == values(second))
#> seed=1 and seed=2, same sequence: False
generator = tf.random.Generator.from_seed(0)
first = tf.data.Dataset.range(3).map(lambda _: generator.uniform([]))
second = tf.data.Dataset.range(3).map(lambda _: generator.uniform([]))
print("one Generator, same sequence:", values(first) == values(second))
#> one Generator, same sequence: False
first = tf.data.Dataset.range(3).map(lambda i: tf.random.stateless_uniform([], seed=[i, 1]))
second = tf.data.Dataset.range(3).map(lambda i: tf.random.stateless_uniform([], seed=[i, 2]))
print("stateless, seeds [i, 1] and [i, 2], same sequence:", values(first) == values(second))
#> stateless, seeds [i, 1] and [i, 2], same sequence: False
# --8<-- [end:tf_data_same_random]


# --8<-- [start:keras_seed]
import random

import keras
import numpy as np
import tensorflow as tf


def initial_kernel() -> np.ndarray:
    """The initial weights of a new Dense layer."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    return model.layers[0].kernel.numpy()


np.random.seed(1337)
tf.random.set_seed(1337)
kernel = initial_kernel()
np.random.seed(1337)
tf.random.set_seed(1337)
print(np.array_equal(kernel, initial_kernel()))  # NumPy and TensorFlow seeded: other weights
#> False

random.seed(1337)  # Keras draws each initializer's seed from Python's random module
kernel = initial_kernel()
random.seed(1337)
print(np.array_equal(kernel, initial_kernel()))
#> True

keras.utils.set_random_seed(1337)  # fix: seeds random, NumPy and TensorFlow in one call
kernel = initial_kernel()
keras.utils.set_random_seed(1337)
print(np.array_equal(kernel, initial_kernel()))
#> True
# --8<-- [end:keras_seed]

# --8<-- [start:tf_version_seed]
import tempfile
from pathlib import Path


def build(seed: int) -> keras.Sequential:
    keras.utils.set_random_seed(seed)
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])


x = np.ones((1, 3), dtype=np.float32)
original = build(1337)
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "initial_weights.npz"
    np.savez(path, *original.get_weights())  # saved once, right after building
    other = build(7)  # stands in for other numbers drawn from the same seed
    print(np.array_equal(original(x), other(x)))
    #> False
    with np.load(path) as saved:  # fix: start from the saved weights
        other.set_weights([saved[name] for name in saved.files])
print(np.array_equal(original(x), other(x)))
#> True
# --8<-- [end:tf_version_seed]
