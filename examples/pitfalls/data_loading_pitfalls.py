"""Data loading: DataLoader, samplers and datasets that run without an error and give
data in an order, or with random numbers, the reader did not expect.

Each section runs code that raises nothing and prints a result readers did not expect,
then the fix's result. It starts DataLoader worker processes; with spawn (the default on
macOS and Windows) put the loops under `if __name__ == "__main__":` when you copy them.

Run with `python examples/pitfalls/data_loading_pitfalls.py`.
"""

# --8<-- [start:set_epoch]
from torch.utils.data import DistributedSampler

dataset = list(range(8))
# rank and num_replicas given explicitly: no process group is needed to see rank 0's share.
sampler = DistributedSampler(dataset, num_replicas=2, rank=0, shuffle=True, seed=0)
print([list(sampler) for epoch in range(3)])  # three epochs without set_epoch
#> [[4, 7, 2, 1], [4, 7, 2, 1], [4, 7, 2, 1]]

orders = []
for epoch in range(3):
    sampler.set_epoch(epoch)  # at the start of every epoch
    orders.append(list(sampler))
print(orders)
#> [[4, 7, 2, 1], [5, 2, 7, 1], [0, 7, 6, 1]]

# Every rank shuffles with the same seed and epoch, so the shares never overlap.
other = DistributedSampler(dataset, num_replicas=2, rank=1, shuffle=True, seed=0)
other.set_epoch(2)
print(sorted(orders[-1] + list(other)))
#> [0, 1, 2, 3, 4, 5, 6, 7]
# --8<-- [end:set_epoch]

# --8<-- [start:own_generator]
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class Jitter(Dataset):
    """A random value per item, drawn from the dataset's own generator."""

    def __init__(self):
        self.rng = np.random.default_rng(0)  # created once, in the main process

    def __len__(self):
        return 4

    def __getitem__(self, index):
        return round(float(self.rng.random()), 4)


loader = DataLoader(Jitter(), batch_size=2, num_workers=2)  # worker 0: items 0, 1; worker 1: 2, 3
print([batch.tolist() for batch in loader])  # every worker copies the same generator
#> [[0.637, 0.2698], [0.637, 0.2698]]
print([batch.tolist() for batch in loader])  # and copies it again each epoch
#> [[0.637, 0.2698], [0.637, 0.2698]]


def seed_worker(worker_id):
    """Give the worker's copy of the dataset a generator of its own."""
    info = get_worker_info()
    info.dataset.rng = np.random.default_rng(info.seed)  # differs per worker and per epoch


loader = DataLoader(
    Jitter(),
    batch_size=2,
    num_workers=2,
    worker_init_fn=seed_worker,
    generator=torch.Generator().manual_seed(0),  # the same numbers again on the next run
)
print([batch.tolist() for batch in loader])
#> [[0.777, 0.6413], [0.6529, 0.2669]]
print([batch.tolist() for batch in loader])
#> [[0.7152, 0.7211], [0.0053, 0.8152]]
# --8<-- [end:own_generator]

# --8<-- [start:worker_init_get_state]
class Augment(Dataset):
    """A random value per item from NumPy's global generator, as np.random augmentations draw."""

    def __len__(self):
        return 4

    def __getitem__(self, index):
        return int(np.random.randint(1000))


class FirstWord(Augment):
    """What the reader's worker_init_fn reads: the first word of NumPy's state in the worker."""

    def __getitem__(self, index):
        return int(np.random.get_state()[1][0])


def reseed_from_state(worker_id):
    """The reader's worker_init_fn: reseed NumPy from the first word of its state."""
    np.random.seed(np.random.get_state()[1][0] + worker_id)


print([list(DataLoader(FirstWord(), batch_size=None, num_workers=2)) for epoch in range(2)])
"""
[[2147483648, 2147483648, 2147483648, 2147483648], [2147483648, 2147483648, 2147483648, 2147483648]]
"""
for seed in ([1, 2], [3, 4]):  # seeded with an array, as the DataLoader seeds each worker
    np.random.seed(seed)
    print(np.random.get_state()[1][0])
    #> 2147483648
    #> 2147483648

loader = DataLoader(Augment(), batch_size=None, num_workers=2, worker_init_fn=reseed_from_state)
print([list(loader) for epoch in range(2)])  # the same draws in every epoch
#> [[282, 684, 4, 17], [282, 684, 4, 17]]


def seed_from_torch(worker_id):
    """Seed NumPy from torch's seed in the worker, which differs per worker and per epoch."""
    np.random.seed(torch.initial_seed() % 2**32)


loader = DataLoader(
    Augment(),
    batch_size=None,
    num_workers=2,
    worker_init_fn=seed_from_torch,
    generator=torch.Generator().manual_seed(0),  # the same numbers again on the next run
)
print([list(loader) for epoch in range(2)])
#> [[594, 524, 170, 778], [762, 156, 763, 886]]
# --8<-- [end:worker_init_get_state]

# --8<-- [start:iterable_workers]
import torch
from torch.utils.data import DataLoader, IterableDataset


class Stream(IterableDataset):
    def __iter__(self):
        return iter(range(6))


items = [int(x) for x in DataLoader(Stream(), batch_size=None, num_workers=2)]
print(len(items), sorted(items))  # each of the 2 workers yields all 6 items
#> 12 [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


class SplitStream(IterableDataset):
    def __iter__(self):
        items = range(6)
        info = torch.utils.data.get_worker_info()  # None in the main process
        if info is not None:
            items = items[info.id :: info.num_workers]  # worker 0: 0, 2, 4; worker 1: 1, 3, 5
        return iter(items)


items = [int(x) for x in DataLoader(SplitStream(), batch_size=None, num_workers=2)]
print(len(items), sorted(items))
#> 6 [0, 1, 2, 3, 4, 5]
# --8<-- [end:iterable_workers]

# --8<-- [start:set_epoch_per_rank]
from torch.utils.data import DistributedSampler

dataset = list(range(8))
samplers = [DistributedSampler(dataset, num_replicas=2, rank=rank, seed=0) for rank in (0, 1)]
epoch = 3
for rank, sampler in enumerate(samplers):
    sampler.set_epoch(epoch + rank)  # each process passes another value
shares = [list(sampler) for sampler in samplers]
print(shares, sorted(shares[0] + shares[1]))  # some items twice, others never
#> [[2, 3, 1, 6], [7, 6, 1, 0]] [0, 1, 1, 2, 3, 6, 6, 7]

# The fix: every process passes the same epoch, so all draw one permutation.
for sampler in samplers:
    sampler.set_epoch(epoch)
shares = [list(sampler) for sampler in samplers]
print(shares, sorted(shares[0] + shares[1]))
#> [[2, 3, 1, 6], [4, 5, 0, 7]] [0, 1, 2, 3, 4, 5, 6, 7]
# --8<-- [end:set_epoch_per_rank]

# --8<-- [start:batch_mean]
import torch
from torch.utils.data import DataLoader, TensorDataset

correct = torch.tensor([1.0] * 8 + [0.0] * 2)  # 10 predictions: 8 right, 2 wrong
loader = DataLoader(TensorDataset(correct), batch_size=4)  # batches of 4, 4 and 2
batch_means = [batch.mean().item() for (batch,) in loader]
print(batch_means, round(sum(batch_means) / len(batch_means), 4))  # the mean of the means
#> [1.0, 1.0, 0.0] 0.6667

# The fix: add up the sums (or mean * batch size) and divide by the number of samples.
total = sum(batch.sum().item() for (batch,) in loader)
count = sum(len(batch) for (batch,) in loader)
print(total / count)
#> 0.8
# --8<-- [end:batch_mean]

# --8<-- [start:evaluate_reshuffled]
import keras
import numpy as np
import tensorflow as tf

ids = np.arange(16, dtype="float32")[:, None]  # sample i holds the number i
labels = (np.arange(16) % 2).astype("float32")[:, None]
# As in the tutorial: a shuffled dataset, and its first 2 batches kept as the test set.
keras.utils.set_random_seed(0)
validation = tf.data.Dataset.from_tensor_slices((ids, labels)).shuffle(16, seed=0).batch(4)
test = validation.take(2)
# A fixed model: logit = i - 7.5, so it says 1 for samples 8 to 15.
model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones", bias_initializer=keras.initializers.Constant(-7.5))])
model.compile(loss=keras.losses.BinaryCrossentropy(from_logits=True), metrics=[keras.metrics.BinaryAccuracy(threshold=0.0)], run_eagerly=True)  # eager: no tracing


def by_hand(dataset):
    """The reader's loop: sigmoid, threshold 0.5, compare with the labels."""
    right = total = 0
    for x, y in dataset:
        predicted = tf.cast(tf.nn.sigmoid(model(x)) >= 0.5, tf.float32)
        right += int(tf.reduce_sum(tf.cast(predicted == y, tf.int32)))
        total += len(y)
    return right / total


print("evaluate:", [model.evaluate(test, verbose=0)[1] for _ in range(3)], "loop:", by_hand(test), by_hand(test))
#> evaluate: [0.375, 0.375, 0.5] loop: 0.5 0.5
print([sorted(int(i) for x, _ in test for i in x[:, 0]) for _ in range(2)])  # two passes, other samples
#> [[0, 2, 3, 5, 6, 8, 11, 15], [0, 3, 5, 6, 8, 10, 12, 14]]

# The fix: a test set that is the same on every pass (shuffle once, or shuffle=False).
fixed = tf.data.Dataset.from_tensor_slices((ids, labels)).shuffle(16, seed=0, reshuffle_each_iteration=False)
test = fixed.batch(4).take(2)
print("evaluate:", [model.evaluate(test, verbose=0)[1] for _ in range(3)], "loop:", by_hand(test), by_hand(test))
#> evaluate: [0.375, 0.375, 0.375] loop: 0.375 0.375
# --8<-- [end:evaluate_reshuffled]

# --8<-- [start:predict_shuffled]
import inspect

import torch
from torch.utils.data import DataLoader, TensorDataset

numbers = np.arange(8, dtype="float32")[:, None]
is_big = (numbers >= 4).astype("float32")  # label 1 for samples 4 to 7
# A classifier that is always right: logit = i - 3.5.
classifier = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones", bias_initializer=keras.initializers.Constant(-3.5))])
print("image_dataset_from_directory shuffles by default:", inspect.signature(keras.utils.image_dataset_from_directory).parameters["shuffle"].default)
#> image_dataset_from_directory shuffles by default: True
test = tf.data.Dataset.from_tensor_slices((numbers, is_big)).shuffle(8, seed=1).batch(4)
predicted = (classifier.predict(test, verbose=0) > 0).astype("float32")  # one pass
truth = np.concatenate([y for _, y in test])  # another pass: another order
print("predict, labels from a second pass:", float((predicted == truth).mean()))
#> predict, labels from a second pass: 0.5

# The fix: predictions and labels from the same pass (or a test set with shuffle=False).
pairs = [((classifier.predict_on_batch(x) > 0).astype("float32"), y.numpy()) for x, y in test]
print("same pass:", float(np.mean([(p == y).mean() for p, y in pairs])))
#> same pass: 1.0
in_order = tf.data.Dataset.from_tensor_slices((numbers, is_big)).batch(4)  # not shuffled
print("shuffle=False:", float(((classifier.predict(in_order, verbose=0) > 0) == np.concatenate([y for _, y in in_order])).mean()))
#> shuffle=False: 1.0

# PyTorch: a DataLoader with shuffle=True, compared with the dataset's labels in their stored order.
torch_set = TensorDataset(torch.from_numpy(numbers), torch.from_numpy(is_big))
loader = DataLoader(torch_set, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
torch_predicted = torch.cat([(x - 3.5 > 0).float() for x, _ in loader])
print("DataLoader(shuffle=True) vs stored labels:", (torch_predicted == torch_set.tensors[1]).float().mean().item())
#> DataLoader(shuffle=True) vs stored labels: 0.5
print("same pass:", torch.cat([((x - 3.5 > 0).float() == y).float() for x, y in loader]).mean().item())
#> same pass: 1.0
# --8<-- [end:predict_shuffled]

# --8<-- [start:flow_from_directory_classes]
import contextlib
import io
import os
import tempfile

import keras
import numpy as np
import tensorflow as tf
from keras.src.legacy.preprocessing.image import ImageDataGenerator  # private in Keras 3

# Keras 3 has no predict_generator (predict takes the generator) and no public ImageDataGenerator:
print(hasattr(keras.Model, "predict_generator"), hasattr(keras.preprocessing.image, "ImageDataGenerator"))
#> False False
# An always-right classifier: black images (cats) give 0, white images (dogs) give 1.
ones_third, minus_half = keras.initializers.Constant(1 / 3), keras.initializers.Constant(-0.5)
classifier = keras.Sequential(
    [keras.Input((4, 4, 3)), keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(1, kernel_initializer=ones_third, bias_initializer=minus_half)]
)
classifier.run_eagerly = True  # no graph to trace for six images

with tempfile.TemporaryDirectory() as folder:
    for name, value in (("cats", 0), ("dogs", 255)):
        os.makedirs(os.path.join(folder, name))
        for i in range(3):
            image = tf.fill((4, 4, 3), tf.constant(value, tf.uint8))
            tf.io.write_file(os.path.join(folder, name, f"{i}.png"), tf.io.encode_png(image))
    for shuffle in (False, True):
        with contextlib.redirect_stdout(io.StringIO()):  # "Found 6 images belonging to 2 classes."
            generator = ImageDataGenerator(rescale=1 / 255).flow_from_directory(
                folder, target_size=(4, 4), batch_size=2, class_mode="binary", shuffle=shuffle, seed=0
            )
        predicted = (classifier.predict(generator, verbose=0)[:, 0] > 0).astype(int)
        print(f"shuffle={shuffle}:", predicted, generator.classes, round(float((predicted == generator.classes).mean()), 2))
        #> shuffle=False: [0 0 0 1 1 1] [0 0 0 1 1 1] 1.0
        #> shuffle=True: [1 0 0 1 0 1] [0 0 0 1 1 1] 0.67
    print(generator.class_indices, generator.filenames[:2])
    #> {'cats': 0, 'dogs': 1} ['cats/0.png', 'cats/1.png']
# --8<-- [end:flow_from_directory_classes]

# --8<-- [start:list_label]
import torch
from torch.utils.data import DataLoader, Dataset


class OneHot(Dataset):
    """Three samples, each with its one-hot label as a Python list, as in the report."""

    def __len__(self):
        return 3

    def __getitem__(self, i):
        label = [0, 0, 0, 0]
        label[i] = 1.0
        return torch.full((2,), float(i)), label


images, labels = next(iter(DataLoader(OneHot(), batch_size=3)))
print(images.shape, type(labels).__name__, len(labels))  # a list of 4, not a 3 x 4 tensor
#> torch.Size([3, 2]) list 4
print(labels)  # one tensor per position in the list, across the batch
"""
[tensor([1., 0., 0.], dtype=torch.float64), tensor([0., 1., 0.]), tensor([0., 0., 1.]), tensor([0, 0, 0])]
"""


# The fix: return the label as a tensor; the batch then stacks the labels.
class OneHotTensor(OneHot):
    def __getitem__(self, i):
        image, label = super().__getitem__(i)
        return image, torch.tensor(label, dtype=torch.float32)


images, labels = next(iter(DataLoader(OneHotTensor(), batch_size=3)))
print(labels.shape, labels.dtype)
#> torch.Size([3, 4]) torch.float32
print(labels)
"""
tensor([[1., 0., 0., 0.],
        [0., 1., 0., 0.],
        [0., 0., 1., 0.]])
"""
# --8<-- [end:list_label]

# --8<-- [start:weighted_sampler_class_weights]
import torch
from torch.utils.data import WeightedRandomSampler

labels = torch.tensor([0, 0, 0, 0, 0, 0, 1, 1])  # 6 samples of class 0, 2 of class 1
class_weights = 1.0 / torch.bincount(labels).double()  # one weight per class: [1/6, 1/2]
generator = torch.Generator().manual_seed(0)
sampler = WeightedRandomSampler(class_weights, num_samples=8, generator=generator)
print(sorted(sampler))  # reads them as the weights of samples 0 and 1
#> [0, 1, 1, 1, 1, 1, 1, 1]

# The fix: one weight per sample, the weight of its class.
sample_weights = class_weights[labels]
print(len(sample_weights), sample_weights.tolist()[5:])
#> 8 [0.16666666666666666, 0.5, 0.5]
sampler = WeightedRandomSampler(sample_weights, num_samples=4000, generator=generator)
drawn = torch.tensor(list(sampler))
print(torch.bincount(drawn, minlength=8).tolist())  # every index drawn
#> [321, 338, 328, 336, 339, 323, 1027, 988]
print(torch.bincount(labels[drawn]).tolist())  # the classes balanced
#> [1985, 2015]
# --8<-- [end:weighted_sampler_class_weights]

# --8<-- [start:validation_split_last]
import keras
import numpy as np
import torch

x = np.arange(10, dtype="float32")[:, None]  # sample i holds the number i
y = np.repeat(np.arange(5), 2)  # sorted by class: 0 0 1 1 2 2 3 3 4 4
# A probe: its output is its input, so the validation loss (MSE against 0) says which samples it saw.
probe = keras.Sequential(
    [keras.Input((1,), name="x"), keras.layers.Dense(1, use_bias=False, kernel_initializer="ones", name="same")],
    name="probe",
)
probe.compile(keras.optimizers.SGD(learning_rate=0.0), "mse")
history = probe.fit(x, np.zeros(10), validation_split=0.2, shuffle=True, epochs=1, verbose=0)
print(history.history["val_loss"], (8**2 + 9**2) / 2)  # samples 8 and 9: the last 20%
#> [72.5] 72.5
print(y[8:])  # all of one class: a model that never trained on it scores 0 on validation
#> [4 4]

# The fix: shuffle the arrays (with the same permutation) before fit.
order = np.random.default_rng(0).permutation(len(x))
x_mixed, y_mixed = x[order], y[order]
history = probe.fit(x_mixed, np.zeros(10), validation_split=0.2, epochs=1, verbose=0)
print(history.history["val_loss"], float(np.mean(x_mixed[8:, 0] ** 2)))
#> [32.5] 32.5
print(y_mixed[8:])
#> [4 0]

# PyTorch's random_split draws the validation samples at random instead.
train, val = torch.utils.data.random_split(range(10), [8, 2], generator=torch.Generator().manual_seed(0))
print(list(val))
#> [6, 2]
# --8<-- [end:validation_split_last]


# --8<-- [start:text_vectorization_max_tokens]
import keras

texts = ["cat dog bird", "dog bird", "bird"]  # three words
small = keras.layers.TextVectorization(max_tokens=3)  # room for one word only
small.adapt(texts)  # no error, no warning
print([str(w) for w in small.get_vocabulary()], small(["cat dog bird"]).numpy().tolist())
#> ['', '[UNK]', 'bird'] [[1, 1, 2]]
lookup = keras.layers.StringLookup(max_tokens=3)  # the lookup layers reserve slots too
lookup.adapt(["cat", "dog", "bird", "bird"])
print([str(w) for w in lookup.get_vocabulary()], lookup(["cat", "bird"]).numpy().tolist())
#> ['[UNK]', 'bird', 'dog'] [0, 1]

# The fix: max_tokens = vocabulary size + 2 (padding "" and OOV "[UNK]"), or None.
for max_tokens in (5, None):
    vectorize = keras.layers.TextVectorization(max_tokens=max_tokens)
    vectorize.adapt(texts)
    print(max_tokens, vectorize.vocabulary_size(), vectorize(["cat dog bird"]).numpy().tolist())
    #> 5 5 [[4, 3, 2]]
    #> None 5 [[4, 3, 2]]
# --8<-- [end:text_vectorization_max_tokens]
