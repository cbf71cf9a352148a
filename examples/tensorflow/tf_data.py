"""tf.data pipelines: batch, shuffle, repeat and cache, and the batches Keras's fit expects.

Run with `python examples/tensorflow/tf_data.py`. The `#>` lines under each print are the
output the libraries printed when the site was built; the test suite runs this script again
and compares.
"""

# --8<-- [start:unbatched]
import re

import keras
import numpy as np
import tensorflow as tf


def incompatible(err):
    """The line of a Keras error that names the shapes, without its bold markers."""
    line = next(part for part in str(err).splitlines() if "incompatible" in part)
    line = re.sub(r"\x1b\[[0-9;]*m", "", line).strip()
    return f"{type(err).__name__}: {line}"


def build():
    """A model for samples of two features."""
    inputs = keras.Input(shape=(2,), name="features")
    model = keras.Model(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse")
    return model


features = np.array([[0, 1], [1, 0], [1, 1], [0, 0]], dtype=np.float32)
labels = np.array([1, 1, 0, 0], dtype=np.float32)
history = build().fit(features, labels, batch_size=2, verbose=0)  # NumPy: fit makes batches
print("NumPy arrays: trained", len(history.epoch), "epoch")
#> NumPy arrays: trained 1 epoch

dataset = tf.data.Dataset.from_tensor_slices((features, labels))
print(dataset.element_spec)  # each element is one sample: shape (2,), no batch axis
"""
(TensorSpec(shape=(2,), dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.float32, name=None))
"""
try:
    build().fit(dataset, verbose=0)
except ValueError as err:
    print(incompatible(err))
    """
    ValueError: Invalid input shape for input Tensor("data:0", shape=(2,), dtype=float32) with name 'features' and path ''. Expected shape (None, 2), but input has incompatible shape (2,)
    """

batched = dataset.batch(2)  # the fix: elements of 2 samples
print(batched.element_spec)
"""
(TensorSpec(shape=(None, 2), dtype=tf.float32, name=None), TensorSpec(shape=(None,), dtype=tf.float32, name=None))
"""
history = build().fit(batched, verbose=0)
print("batched Dataset: trained", len(history.epoch), "epoch")
#> batched Dataset: trained 1 epoch
# --8<-- [end:unbatched]

# --8<-- [start:slices_tuple]
words = ("the", "cat", "sat")  # a tuple: three components, each a scalar string
try:
    tf.data.Dataset.from_tensor_slices(words)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Unbatching a tensor is only supported for rank >= 1

print(tf.data.Dataset.from_tensors(words).element_spec)  # the same tuple as one element
"""
(TensorSpec(shape=(), dtype=tf.string, name=None), TensorSpec(shape=(), dtype=tf.string, name=None), TensorSpec(shape=(), dtype=tf.string, name=None))
"""

for data in (list(words), np.array(words)):  # the fix: one tensor of shape (3,)
    dataset = tf.data.Dataset.from_tensor_slices(data)
    print(type(data).__name__, [w.decode() for w in dataset.as_numpy_iterator()])
    #> list ['the', 'cat', 'sat']
    #> ndarray ['the', 'cat', 'sat']

pairs = tf.data.Dataset.from_tensor_slices((list(words), [0, 1, 0]))  # tuple of 2 components
print(pairs.element_spec)  # each element: (word, label)
"""
(TensorSpec(shape=(), dtype=tf.string, name=None), TensorSpec(shape=(), dtype=tf.int32, name=None))
"""
# --8<-- [end:slices_tuple]

# --8<-- [start:batch_twice]
import os
import tempfile


def classifier():
    """A model for batches of 8 x 8 RGB images, in two classes."""
    inputs = keras.Input(shape=(8, 8, 3), name="image")
    pooled = keras.layers.GlobalAveragePooling2D()(inputs)
    model = keras.Model(inputs, keras.layers.Dense(2)(pooled), name="classifier")
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    return model


with tempfile.TemporaryDirectory() as folder:
    for name in ("cat", "dog"):  # one folder per class, three small PNG files in each
        os.makedirs(os.path.join(folder, name))
        for i in range(3):
            png = tf.io.encode_png(tf.zeros((8, 8, 3), tf.uint8))
            tf.io.write_file(os.path.join(folder, name, f"{i}.png"), png)

    images = keras.utils.image_dataset_from_directory(
        folder, image_size=(8, 8), batch_size=4, verbose=False
    )
    print(images.element_spec[0].shape)  # already batches of up to 4 images
    #> (None, 8, 8, 3)
    twice = images.batch(4)  # a batch of batches: one axis more
    print(twice.element_spec[0].shape)
    #> (None, None, 8, 8, 3)
    try:
        classifier().fit(twice, verbose=0)
    except ValueError as err:
        print(incompatible(err))
        """
        ValueError: Input 0 with name 'image' of layer 'classifier' is incompatible with the layer: expected shape=(None, 8, 8, 3), found shape=(None, None, 8, 8, 3)
        """

    # The fix: batch once. For another batch size, unbatch first (or pass batch_size= above).
    print(images.unbatch().batch(2).element_spec[0].shape)
    #> (None, 8, 8, 3)
    history = classifier().fit(images, verbose=0)
    print("trained", len(history.epoch), "epoch")
    #> trained 1 epoch
# --8<-- [end:batch_twice]


# --8<-- [start:class_names]
with tempfile.TemporaryDirectory() as folder:
    for name in ("dog", "cat", "bird"):  # one sub-folder per class, one PNG file in each
        os.makedirs(os.path.join(folder, name))
        tf.io.write_file(os.path.join(folder, name, "0.png"), tf.io.encode_png(tf.zeros((8, 8, 3), tf.uint8)))
    loaded = keras.utils.image_dataset_from_directory(folder, image_size=(8, 8), shuffle=False, verbose=False)
    print(loaded.class_names)  # sorted folder names: label i is class_names[i]
    #> ['bird', 'cat', 'dog']
    print([int(label) for _, labels in loaded for label in labels])  # bird, cat, dog
    #> [0, 1, 2]

scaled = loaded.map(lambda x, y: (x / 255, y)).prefetch(1)  # a new dataset: the attribute is gone
print(hasattr(scaled, "class_names"))
#> False

# The fix: keep class_names before map/prefetch, then decode predictions with it.
class_names = loaded.class_names
logits = np.array([[0.1, 2.0, -1.0], [3.0, 0.0, 0.5]])  # a model's outputs for two images
print([class_names[i] for i in logits.argmax(axis=1)])
#> ['cat', 'bird']
# --8<-- [end:class_names]


# --8<-- [start:batch_different_shapes]
def photo(height, width):
    """An RGB photo whose pixels hold their row number."""
    rows = tf.repeat(tf.cast(tf.range(height), tf.uint8)[:, None, None], width, axis=1)
    return tf.repeat(rows, 3, axis=2)


def decoded(sizes):
    """Photos of the given (height, width), decoded from PNG bytes as from files."""
    pngs = [tf.io.encode_png(photo(h, w)) for h, w in sizes]
    return tf.data.Dataset.from_tensor_slices(pngs).map(lambda png: tf.io.decode_png(png, 3))


photos = decoded([(4, 6), (5, 3), (3, 3), (2, 2)])
print(photos.element_spec.shape)  # height and width unknown: each photo has its own
#> (None, None, 3)
try:
    next(iter(photos.batch(2)))
except tf.errors.InvalidArgumentError as err:
    print(type(err).__name__, err.message.split(" Shapes are")[0].split("}} ")[-1])
    #> InvalidArgumentError Cannot add tensor to the batch: number of elements does not match.

# Fixes: resize every photo in map, pad each batch to its largest photo, or ragged batches.
resized = photos.map(lambda image: tf.image.resize(image, (4, 4))).batch(2)
print("resize:", [batch.shape.as_list() for batch in resized])
#> resize: [[2, 4, 4, 3], [2, 4, 4, 3]]
print("padded_batch:", [batch.shape.as_list() for batch in photos.padded_batch(2)])
#> padded_batch: [[2, 5, 6, 3], [2, 3, 3, 3]]
print("ragged_batch:", [batch.shape.as_list() for batch in photos.ragged_batch(2)])
#> ragged_batch: [[2, None, None, 3], [2, None, None, 3]]

# The same number of pixels in another shape: no error, one photo is read in the other's shape
# (which one varies from run to run).
originals = [photo(2, 3), photo(3, 2)]
batch = next(iter(decoded([(2, 3), (3, 2)]).batch(2)))
intact = sum(
    batch[i].shape == o.shape and bool(tf.reduce_all(batch[i] == o))
    for i, o in enumerate(originals)
)
print("no error; photos intact:", intact, "of 2")
#> no error; photos intact: 1 of 2
# --8<-- [end:batch_different_shapes]


# --8<-- [start:padded_batch_ragged]
rows = tf.ragged.constant([[1, 2, 3], [4]])
dataset = tf.data.Dataset.from_tensor_slices(rows)  # elements are RaggedTensors
try:
    dataset.padded_batch(2)
except TypeError as err:
    print(f"{type(err).__name__}: {str(err).split(' but ')[0]}")
    #> TypeError: `padded_batch` is only supported for datasets that produce tensor elements
print(next(iter(dataset.ragged_batch(2))))  # keep the rows ragged
#> <tf.RaggedTensor [[1, 2, 3], [4]]>
print(dataset.element_spec)  # each row: a RaggedTensor with no ragged dimension left
#> RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)
dense = dataset.map(lambda row: row)  # map hands such a row on as a plain tensor
print(dense.element_spec)
#> TensorSpec(shape=(None,), dtype=tf.int32, name=None)
print(next(iter(dense.padded_batch(2))).numpy().tolist())
#> [[1, 2, 3], [4, 0, 0]]

labels = tf.data.Dataset.from_tensor_slices([5, 6])
pairs = tf.data.Dataset.zip(dense, labels)  # (sequence, label) tuples
try:
    pairs.padded_batch(2, padded_shapes=[None])  # one shape for a two-part element
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: If shallow structure is a sequence, input must also be a sequence. Input has type: 'list'.
    """
for values in ((-1,), -1.0):  # a padding tuple too short, a float for int components
    try:
        pairs.padded_batch(2, padded_shapes=([None], []), padding_values=values)
    except (ValueError, TypeError) as err:
        print(f"{type(err).__name__}: {str(err).split('. ')[0]}")
        #> ValueError: The two structures don't have the same sequence length
        #> TypeError: Invalid `padding_values`
# The fix: shapes and padding values with the element's structure.
batch = pairs.padded_batch(2, padded_shapes=([None], []), padding_values=(-1, 0))
print([part.numpy().tolist() for part in next(iter(batch))])
#> [[[1, 2, 3], [4, -1, -1]], [5, 6]]
# One scalar, as the reader passed, pads every part in this TensorFlow.
scalar = pairs.padded_batch(2, padded_shapes=([None], []), padding_values=-1)
print([part.numpy().tolist() for part in next(iter(scalar))])
#> [[[1, 2, 3], [4, -1, -1]], [5, 6]]
# --8<-- [end:padded_batch_ragged]


# --8<-- [start:tfrecord_parse]
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "marks.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:  # written with the key "marks", as floats
        marks = tf.train.Feature(float_list=tf.train.FloatList(value=[0.25, 0.5]))
        example = tf.train.Example(features=tf.train.Features(feature={"marks": marks}))
        writer.write(example.SerializeToString())
    record = next(iter(tf.data.TFRecordDataset(path)))
for spec in ({"label/marks": tf.io.FixedLenFeature([], tf.string)},  # a key not written
             {"marks": tf.io.FixedLenFeature([], tf.string)}):  # the key, the wrong dtype
    try:
        tf.io.parse_single_example(record, spec)
    except tf.errors.InvalidArgumentError as err:
        print(f"{type(err).__name__}: {err.message.split('}} ')[-1]}")
        """
        InvalidArgumentError: Feature: label/marks (data type: string) is required but could not be found. [Op:ParseExampleV2]
        InvalidArgumentError: Key: marks.  Data types don't match. Data type: float but expected type: string [Op:ParseExampleV2]
        """
print(list(tf.train.Example.FromString(record.numpy()).features.feature))  # the keys written
#> ['marks']
# The fix: the key and dtype the writer used (float_list: tf.float32), and the length.
parsed = tf.io.parse_single_example(record, {"marks": tf.io.FixedLenFeature([2], tf.float32)})
print(parsed["marks"].numpy().tolist())
#> [0.25, 0.5]
# --8<-- [end:tfrecord_parse]

# --8<-- [start:convert_image_dtype]
with tempfile.TemporaryDirectory() as folder:
    os.makedirs(os.path.join(folder, "white"))
    white = tf.io.encode_png(tf.fill((8, 8, 3), tf.constant(255, tf.uint8)))
    tf.io.write_file(os.path.join(folder, "white", "0.png"), white)
    loaded = keras.utils.image_dataset_from_directory(folder, image_size=(8, 8), verbose=False)
    images, _ = next(iter(loaded))

print(images.dtype.name, float(tf.reduce_max(images)))  # float32 already, still 0 to 255
#> float32 255.0
converted = tf.image.convert_image_dtype(images, tf.float32)  # float to float: unchanged
print("convert_image_dtype:", float(tf.reduce_max(converted)))
#> convert_image_dtype: 255.0
pixels = tf.fill((8, 8, 3), tf.constant(255, tf.uint8))  # an integer image is scaled
print("uint8 input:", float(tf.reduce_max(tf.image.convert_image_dtype(pixels, tf.float32))))
#> uint8 input: 1.0

# The fix: divide by 255, in map or with a Rescaling layer in the model.
print("/ 255:", float(tf.reduce_max(images / 255.0)))
#> / 255: 1.0
print("Rescaling(1 / 255):", float(tf.reduce_max(keras.layers.Rescaling(1 / 255)(images))))
#> Rescaling(1 / 255): 1.0
# --8<-- [end:convert_image_dtype]

# --8<-- [start:resize_float]
import logging

from matplotlib.figure import Figure


class Caught(logging.Handler):
    """Keeps the messages matplotlib logs (it logs the clipping warning, not warnings.warn)."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


caught = Caught()
logging.getLogger("matplotlib.image").addHandler(caught)

grey = tf.io.encode_jpeg(tf.fill((8, 8, 3), tf.constant(200, tf.uint8)))  # a JPEG file's bytes
photo = tf.io.decode_jpeg(grey)
print(photo.dtype.name, int(tf.reduce_max(photo)))  # what imshow draws well
#> uint8 200
resized = tf.image.resize(photo, [4, 4])
print(resized.dtype.name, float(tf.reduce_max(resized)))  # float32, still 0 to 255
#> float32 200.0
Figure().add_subplot().imshow(resized.numpy())  # floats are drawn on [0, 1]: all white
print(caught.messages)
"""
['Clipping input data to the valid range for imshow with RGB data ([0..1] for floats or [0..255] for integers). Got range [200.0..200.0].']
"""
print("nearest:", tf.image.resize(photo, [4, 4], method="nearest").dtype.name)  # keeps uint8
#> nearest: uint8
antialiased = tf.image.resize(photo, [4, 4], antialias=True)
print("antialias:", antialiased.dtype.name, round(float(tf.reduce_max(antialiased)), 2))
#> antialias: float32 200.0
print("resize_with_pad:", tf.image.resize_with_pad(photo, 4, 4).dtype.name)
#> resize_with_pad: float32
print("keras Resizing layer:", keras.layers.Resizing(4, 4)(photo).dtype.name)
#> keras Resizing layer: uint8

# The fix: scale to [0, 1] for floats, or round back to uint8.
caught.messages.clear()
Figure().add_subplot().imshow((resized / 255).numpy())
as_uint8 = tf.cast(tf.round(tf.clip_by_value(resized, 0, 255)), tf.uint8)
Figure().add_subplot().imshow(as_uint8.numpy())
print(caught.messages, as_uint8.dtype.name, int(tf.reduce_max(as_uint8)))
#> [] uint8 200
logging.getLogger("matplotlib.image").removeHandler(caught)
# --8<-- [end:resize_float]

# --8<-- [start:validation_split_files]
import contextlib
import io


def class_folders(folder, files_per_class=4):
    """Two class folders, cat and dog, of small PNG files 0.png, 1.png, ..."""
    for name in ("cat", "dog"):
        os.makedirs(os.path.join(folder, name))
        for i in range(files_per_class):
            png = tf.io.encode_png(tf.zeros((8, 8, 3), tf.uint8))
            tf.io.write_file(os.path.join(folder, name, f"{i}.png"), png)


def split_files(folder, **options):
    """The files image_dataset_from_directory puts in a subset, relative to the folder."""
    with contextlib.redirect_stdout(io.StringIO()):  # it prints "Using 2 files for validation."
        subset = keras.utils.image_dataset_from_directory(
            folder, image_size=(8, 8), validation_split=0.25, verbose=False, **options
        )
    return sorted(os.path.relpath(path, folder) for path in subset.file_paths)


try:
    from keras.preprocessing.image import ImageDataGenerator  # Keras 2 only
except ImportError as err:
    print(type(err).__name__, str(err).split(" (")[0])
    #> ImportError cannot import name 'ImageDataGenerator' from 'keras.preprocessing.image'
from keras.src.legacy.preprocessing.image import (
    ImageDataGenerator,  # Keras 2's code, private in Keras 3
)

with tempfile.TemporaryDirectory() as folder:
    class_folders(folder)  # cat/0.png ... cat/3.png, dog/0.png ... dog/3.png
    with contextlib.redirect_stdout(io.StringIO()):  # "Found 2 images belonging to 2 classes."
        legacy = ImageDataGenerator(validation_split=0.25).flow_from_directory(
            folder, target_size=(8, 8), subset="validation"
        )
    print("ImageDataGenerator:", legacy.filenames)  # the first 25% of each class's sorted files
    #> ImageDataGenerator: ['cat/0.png', 'dog/0.png']
    print("shuffle=False:", split_files(folder, subset="validation", shuffle=False))  # the last 25% of all
    #> shuffle=False: ['dog/2.png', 'dog/3.png']
    try:
        split_files(folder, subset="validation")
    except ValueError as err:
        print(type(err).__name__, err)
        """
        ValueError If using `validation_split` and shuffling the data, you must provide a `seed` argument, to make sure that there is no overlap between the training and validation subset.
        """
    validation = split_files(folder, subset="validation", seed=1)
    print("seed=1:", validation)  # drawn from the whole shuffled list, not per class
    #> seed=1: ['cat/3.png', 'dog/1.png']
    print("same seed, overlap:", set(validation) & set(split_files(folder, subset="training", seed=1)))
    #> same seed, overlap: set()
    print("other seed, overlap:", set(validation) & set(split_files(folder, subset="training", seed=2)))
    #> other seed, overlap: {'cat/3.png'}
# --8<-- [end:validation_split_files]

# --8<-- [start:empty_image]
with tempfile.TemporaryDirectory() as folder:
    class_folders(folder)
    os.remove(os.path.join(folder, "dog", "1.png"))
    open(os.path.join(folder, "dog", "1.jpg"), "wb").close()  # an empty file, as an interrupted download leaves
    for subset in ("training", "validation"):
        with contextlib.redirect_stdout(io.StringIO()):
            loaded = keras.utils.image_dataset_from_directory(
                folder, image_size=(8, 8), validation_split=0.25, subset=subset, seed=1, verbose=False
            )
        try:
            print(subset, sum(len(labels) for _, labels in loaded), "images")
            #> training 6 images
        except tf.errors.InvalidArgumentError as err:
            lines = [line.split("}} ")[-1].strip() for line in str(err).splitlines()]
            print(subset, f"{type(err).__name__}: {lines[0]}", lines[1].removesuffix(" name:"))
            """
            validation InvalidArgumentError: Input is empty. [[{{node decode_image/DecodeImage}}]] [Op:IteratorGetNext]
            """
    print("validation files:", sorted(os.path.relpath(path, folder) for path in loaded.file_paths))
    #> validation files: ['cat/3.png', 'dog/1.jpg']

    # The fix: find the files TensorFlow cannot decode, and remove (or replace) them.
    broken = []
    for root, _, names in os.walk(folder):
        for name in sorted(names):
            path = os.path.join(root, name)
            try:
                tf.io.decode_image(tf.io.read_file(path))
            except tf.errors.InvalidArgumentError:
                broken.append(os.path.relpath(path, folder))
    print("cannot decode:", broken)
    #> cannot decode: ['dog/1.jpg']
    for name in broken:
        os.remove(os.path.join(folder, name))
    with contextlib.redirect_stdout(io.StringIO()):
        loaded = keras.utils.image_dataset_from_directory(
            folder, image_size=(8, 8), validation_split=0.25, subset="validation", seed=1, verbose=False
        )
    print("validation", sum(len(labels) for _, labels in loaded), "images")
    #> validation 1 images
# --8<-- [end:empty_image]


# --8<-- [start:repeat_batch]
def show(dataset):
    """The elements of a small dataset, as lists."""
    return [element.numpy().tolist() for element in dataset]


numbers = tf.data.Dataset.range(5)  # one epoch: 0 to 4
print(show(numbers.repeat(2).batch(2)))  # repeat first: a batch spans two epochs
#> [[0, 1], [2, 3], [4, 0], [1, 2], [3, 4]]
print(show(numbers.batch(2).repeat(2)))  # batch first: each epoch ends with a smaller batch
#> [[0, 1], [2, 3], [4], [0, 1], [2, 3], [4]]
print(show(numbers.batch(2, drop_remainder=True).repeat(2)))  # or drop that batch
#> [[0, 1], [2, 3], [0, 1], [2, 3]]
# --8<-- [end:repeat_batch]

# --8<-- [start:validation_steps]
import warnings

validation_reads = []


def read_batch(x, y):
    validation_reads.append(len(x))  # counts the validation batches read
    return x, y


def counted(x, y):
    x2, y2 = tf.numpy_function(read_batch, [x, y], [tf.float32, tf.float32])
    x2.set_shape(x.shape)
    y2.set_shape(y.shape)
    return x2, y2


samples = np.arange(8, dtype=np.float32).reshape(8, 1)
train = tf.data.Dataset.from_tensor_slices((samples, samples)).batch(4)
validation = tf.data.Dataset.from_tensor_slices((samples[:4], samples[:4])).batch(2).map(counted)  # no repeat()
model = keras.Sequential([keras.Input(shape=(1,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")
with tempfile.TemporaryDirectory() as folder:
    best = keras.callbacks.ModelCheckpoint(
        os.path.join(folder, "best.weights.h5"), save_best_only=True, save_weights_only=True
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = model.fit(train, validation_data=validation, validation_steps=2, epochs=2, verbose=0, callbacks=[best])
        print("val_loss values:", len(history.history["val_loss"]), "| validation batches read:", len(validation_reads))
        #> val_loss values: 2 | validation batches read: 4
        history = model.fit(train, validation_data=validation, validation_freq=2, epochs=2, verbose=0, callbacks=[best])
        print("validation_freq=2, val_loss values:", len(history.history["val_loss"]))
        #> validation_freq=2, val_loss values: 1
print([str(w.message) for w in caught if "val_loss" in str(w.message)])
#> ['Can save best model only with val_loss available.']
# --8<-- [end:validation_steps]

# --8<-- [start:ran_out_of_data]
import math
import warnings


class CountSteps(keras.callbacks.Callback):
    """Counts the training steps each epoch really ran."""

    def on_train_begin(self, logs=None):
        self.steps = []

    def on_epoch_begin(self, epoch, logs=None):
        self.steps.append(0)

    def on_train_batch_end(self, batch, logs=None):
        self.steps[-1] += 1


x, y = np.ones((10, 1), "float32"), np.zeros((10, 1), "float32")
data = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)  # 10 samples: 3 batches
model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
model.compile("sgd", "mse")
counter = CountSteps()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    model.fit(data, steps_per_epoch=5, epochs=2, verbose=0, callbacks=[counter])
print(*sorted({f"{w.category.__name__}: {w.message}" for w in caught if "ran out" in str(w.message)}))
"""
UserWarning: Your input ran out of data; interrupting training. Make sure that your dataset or generator can generate at least `steps_per_epoch * epochs` batches. You may need to use the `.repeat()` function when building your dataset.
"""
print("steps run:", counter.steps)  # 3 of the 5 asked for, in each epoch
#> steps run: [3, 3]

# The fix: as many steps as there are batches, ceil(10 / 4), or repeat() the dataset.
model.fit(data, steps_per_epoch=math.ceil(10 / 4), epochs=2, verbose=0, callbacks=[counter])
print("ceil(n / batch_size):", counter.steps)
#> ceil(n / batch_size): [3, 3]
model.fit(data, epochs=2, verbose=0, callbacks=[counter])  # no steps_per_epoch: every batch once
print("no steps_per_epoch:", counter.steps)
#> no steps_per_epoch: [3, 3]
model.fit(data.repeat(), steps_per_epoch=5, epochs=2, verbose=0, callbacks=[counter])
print("repeat():", counter.steps)
#> repeat(): [5, 5]
# --8<-- [end:ran_out_of_data]

# --8<-- [start:fit_empty]
x, y = np.ones((10, 1), "float32"), np.zeros((10, 1), "float32")
picked = np.array([], dtype=int)  # an index list that came out empty
model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
model.compile("sgd", "mse")
counter = CountSteps()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    history = model.fit(x[picked], y[picked], epochs=2, verbose=0, callbacks=[counter])
print(x[picked].shape, "steps run:", counter.steps, "history:", history.history)
#> (0, 1) steps run: [0, 0] history: {}
print(*sorted({f"{w.category.__name__}: {str(w.message).split('.')[0]}" for w in caught if "ran out" in str(w.message)}))
#> UserWarning: Your input ran out of data; interrupting training
try:
    model.predict(x[picked], verbose=0)
except UnboundLocalError as err:
    print(f"{type(err).__name__}: {err}")
    """
    UnboundLocalError: cannot access local variable 'batch_outputs' where it is not associated with a value
    """

# The fix: check the data before fit; with samples, every epoch runs its batches.
print("samples:", len(x[picked]))
#> samples: 0
picked = np.arange(10)
model.fit(x[picked], y[picked], batch_size=4, epochs=2, verbose=0, callbacks=[counter])
print("steps run:", counter.steps)
#> steps run: [3, 3]
# --8<-- [end:fit_empty]

# --8<-- [start:steps_across_epochs]
x10 = np.arange(10, dtype="float32").reshape(10, 1)
data = tf.data.Dataset.from_tensor_slices((x10, x10)).batch(4)  # 3 batches per pass
y8 = np.arange(8, dtype="float32").reshape(8, 1)
validation = tf.data.Dataset.from_tensor_slices((y8, y8)).batch(2)  # 4 batches
# A model that always predicts 0 and never learns (learning rate 0), so val_loss is
# the mean of y**2 over the validation batches read: batch [0, 1] gives 0.5.
fixed = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="zeros")])
fixed.compile(keras.optimizers.SGD(learning_rate=0.0), "mse")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    history = fixed.fit(data, steps_per_epoch=2, epochs=3, validation_data=validation, validation_steps=1, verbose=0, callbacks=[counter])
print("steps_per_epoch=2 of 3 batches:", counter.steps, "| warnings:", sum("ran out" in str(w.message) for w in caught))
#> steps_per_epoch=2 of 3 batches: [2, 1, 2] | warnings: 1
print("validation_steps=1, val_loss per epoch:", history.history["val_loss"])
#> validation_steps=1, val_loss per epoch: [0.5, 0.5, 0.5]

# The fix: repeat() the training data; validate on take(1), without validation_steps.
history = fixed.fit(data.repeat(), steps_per_epoch=2, epochs=3, validation_data=validation.take(1), verbose=0, callbacks=[counter])
print("repeat():", counter.steps, "| take(1), val_loss per epoch:", history.history["val_loss"])
#> repeat(): [2, 2, 2] | take(1), val_loss per epoch: [0.5, 0.5, 0.5]
print("whole validation set:", fixed.evaluate(validation, verbose=0))
#> whole validation set: 17.5
# --8<-- [end:steps_across_epochs]

# --8<-- [start:shuffle_batch]
numbers = tf.data.Dataset.range(8)
late = numbers.batch(2).shuffle(4, seed=0)  # shuffles whole batches
for epoch in range(2):
    print(f"epoch {epoch}, batch then shuffle:", show(late))
    #> epoch 0, batch then shuffle: [[0, 1], [4, 5], [2, 3], [6, 7]]
    #> epoch 1, batch then shuffle: [[6, 7], [0, 1], [4, 5], [2, 3]]
early = numbers.shuffle(8, seed=0).batch(2)  # shuffles the items, then groups them
for epoch in range(2):
    print(f"epoch {epoch}, shuffle then batch:", show(early))
    #> epoch 0, shuffle then batch: [[4, 0], [6, 5], [3, 1], [7, 2]]
    #> epoch 1, shuffle then batch: [[7, 6], [2, 1], [0, 3], [5, 4]]

# buffer_size: each item is drawn from the next buffer_size items waiting.
print(show(numbers.shuffle(2, seed=0)))  # a small buffer keeps most items in order
#> [0, 1, 2, 4, 5, 6, 7, 3]
print(show(numbers.shuffle(1, seed=0)))  # a buffer of 1 does not shuffle at all
#> [0, 1, 2, 3, 4, 5, 6, 7]
# --8<-- [end:shuffle_batch]

# --8<-- [start:fit_reshuffle]
import keras
import tensorflow as tf

seen = {"default": [], "no reshuffle": []}


def recorded(name, dataset):
    """The dataset, with a map step that records each item as fit reads it."""

    def record(i):
        seen[name].append(int(i))
        return i

    return dataset.map(lambda i: tf.py_function(record, [i], tf.int64))


items = tf.data.Dataset.range(6)
default = recorded("default", items.shuffle(6, seed=0))  # reshuffle_each_iteration=True
fixed = recorded("no reshuffle", items.shuffle(6, seed=0, reshuffle_each_iteration=False))
pairs = tf.data.Dataset.zip(default, fixed).map(lambda a, b: (tf.cast(tf.stack([a, b]), tf.float32), 0.0))
model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
model.compile("sgd", "mse", run_eagerly=True)
model.fit(pairs.batch(6), epochs=2, verbose=0)  # both datasets, read in the same fit
for name, order in seen.items():
    print(f"{name}: epoch 1 {order[:6]}, epoch 2 {order[6:]}")
    #> default: epoch 1 [0, 1, 2, 5, 3, 4], epoch 2 [1, 3, 2, 5, 4, 0]
    #> no reshuffle: epoch 1 [3, 4, 1, 5, 0, 2], epoch 2 [3, 4, 1, 5, 0, 2]
# --8<-- [end:fit_reshuffle]

# --8<-- [start:shuffle_memory]
decoded = 0


def decode(index):
    """Stands in for reading and decoding one image file: 512 KiB of float32 per element."""

    def count(i):
        global decoded
        decoded += 1
        return i

    i = tf.py_function(count, [index], tf.int64)
    return tf.fill((256, 512), tf.cast(i, tf.float32))


def decoded_before_first(dataset):
    """How many elements were decoded before the dataset handed out its first one."""
    global decoded
    decoded = 0
    first = next(iter(dataset))
    return decoded, first.numpy().nbytes / 2**10


n = 100  # a dataset of 100 decoded images
decoded_first = tf.data.Dataset.range(n).map(decode).shuffle(n, seed=0)
count, kib = decoded_before_first(decoded_first)
print(f"decode, then shuffle(n): {count} decoded before the first element, {kib:.0f} KiB each")
#> decode, then shuffle(n): 100 decoded before the first element, 512 KiB each
print(f"held in the buffer: {count * kib / 2**10:.0f} MiB")
#> held in the buffer: 50 MiB

indices_first = tf.data.Dataset.range(n).shuffle(n, seed=0).map(decode)  # the fix
count, kib = decoded_before_first(indices_first)
print("shuffle the indices, then decode: at most 2 decoded before the first element:", count <= 2)
#> shuffle the indices, then decode: at most 2 decoded before the first element: True
# --8<-- [end:shuffle_memory]

# --8<-- [start:shuffle_take_repeat]
one = tf.data.Dataset.from_tensor_slices([1, 2, 3]).shuffle(3, seed=1).take(1)
print("shuffle, take(1), repeat(5):", show(one.repeat(5)))  # each repeat shuffles again
#> shuffle, take(1), repeat(5): [2, 2, 1, 1, 1]
fixed = tf.data.Dataset.from_tensor_slices([1, 2, 3])
fixed = fixed.shuffle(3, seed=1, reshuffle_each_iteration=False).take(1)
print("reshuffle_each_iteration=False:", show(fixed.repeat(5)))  # the same order each pass
#> reshuffle_each_iteration=False: [1, 1, 1, 1, 1]
print("take(1).cache():", show(one.cache().repeat(5)))  # or keep the first pass's element
#> take(1).cache(): [2, 2, 2, 2, 2]
# --8<-- [end:shuffle_take_repeat]

# --8<-- [start:cache_after_shuffle]
frozen = numbers.shuffle(8, seed=0).batch(2).cache().repeat(2)  # cache keeps epoch 0's order
print("shuffle, batch, cache, repeat:", show(frozen))
#> shuffle, batch, cache, repeat: [[4, 0], [6, 5], [3, 1], [7, 2], [4, 0], [6, 5], [3, 1], [7, 2]]
fresh = numbers.cache().shuffle(8, seed=0).batch(2).repeat(2)  # cache first, then shuffle
print("cache, shuffle, batch, repeat:", show(fresh))
#> cache, shuffle, batch, repeat: [[4, 0], [6, 5], [3, 1], [7, 2], [7, 6], [2, 1], [0, 3], [5, 4]]
# --8<-- [end:cache_after_shuffle]

# --8<-- [start:cache_rebuilt]
inputs = np.random.default_rng(0).normal(size=(8, 2)).astype(np.float32)
targets = inputs.sum(axis=1)
loads = 0


def load(index):
    """Reads one sample (a stand-in for reading a file) and counts the reads."""

    def read(i):
        global loads
        loads += 1
        return inputs[i], targets[i]

    x, y = tf.py_function(read, [index], (tf.float32, tf.float32))
    return tf.ensure_shape(x, (2,)), tf.ensure_shape(y, ())


def pipeline(indices):
    return tf.data.Dataset.from_tensor_slices(indices).map(load).cache().batch(4).prefetch(2)


model = build()
for _epoch in range(2):  # a new Dataset for each chunk, in every epoch
    for chunk in np.split(np.arange(8), 2):
        model.fit(pipeline(chunk), verbose=0)
print("rebuilt for each chunk:", loads, "reads")
#> rebuilt for each chunk: 16 reads

loads = 0
model.fit(pipeline(np.arange(8)), epochs=2, verbose=0)  # the fix: one Dataset, one fit
print("built once:", loads, "reads")
#> built once: 8 reads

loads = 0
no_cache = tf.data.Dataset.from_tensor_slices(np.arange(8)).map(load).batch(4).prefetch(2)
model.fit(no_cache, epochs=2, verbose=0)
print("built once, no cache:", loads, "reads")
#> built once, no cache: 16 reads

with tempfile.TemporaryDirectory() as folder:  # data too large for memory: cache in a file
    loads = 0
    cache_file = os.path.join(folder, "samples")
    on_disk = tf.data.Dataset.from_tensor_slices(np.arange(8)).map(load).cache(cache_file)
    model.fit(on_disk.batch(4).prefetch(2), epochs=2, verbose=0)
    print("built once, cached in a file:", loads, "reads")
    #> built once, cached in a file: 8 reads
# --8<-- [end:cache_rebuilt]

# --8<-- [start:from_generator_slow]
rows = np.arange(300 * 8, dtype=np.float32).reshape(300, 8)
python_steps = []


def one_row_at_a_time():
    for row in rows:
        python_steps.append("row")  # one Python step, and one conversion, per element
        yield row


def one_batch_at_a_time():
    for start in range(0, len(rows), 50):
        python_steps.append("batch")
        yield rows[start : start + 50]


row_spec = tf.TensorSpec((8,), tf.float32)
per_row = tf.data.Dataset.from_generator(one_row_at_a_time, output_signature=row_spec).batch(50)
slices = tf.data.Dataset.from_tensor_slices(rows).batch(50)
batch_spec = tf.TensorSpec((None, 8), tf.float32)
per_batch = tf.data.Dataset.from_generator(one_batch_at_a_time, output_signature=batch_spec)
same = zip(per_row, slices, per_batch, strict=True)
print("same batches:", all(np.array_equal(a, b) and np.array_equal(a, c) for a, b, c in same))
#> same batches: True
print("Python steps for 6 batches:", python_steps.count("row"), "yielding rows,", python_steps.count("batch"), "yielding batches")
#> Python steps for 6 batches: 300 yielding rows, 6 yielding batches
# --8<-- [end:from_generator_slow]

# --8<-- [start:iterate_slow]
import tempfile
import time


def gen():  # the reader's generator: records of 10 short strings
    for _ in range(150):
        yield {str(k): "string value" for k in range(10)}


columns = {str(k): ["string value"] * 150 for k in range(10)}
dataset = tf.data.Dataset.from_tensor_slices(columns)  # the same 150 records, in memory


def per_record(iterable, size=1):
    """Seconds per record of a loop over the iterable, once its first element has come."""
    iterator = iter(iterable)
    next(iterator)  # start the pipeline before timing
    start, records = time.perf_counter(), 0
    for _element in iterator:
        records += size
    return (time.perf_counter() - start) / records


with tempfile.TemporaryDirectory() as folder:
    dataset.save(folder)
    loaded = tf.data.Dataset.load(folder)  # saved and loaded, as the reader's was
    ways = {
        "generator": lambda: per_record(gen()),
        "loaded": lambda: per_record(loaded),
        "in memory": lambda: per_record(dataset),
        "batches of 100": lambda: per_record(dataset.repeat(40).batch(100), size=100),
    }
    best = dict.fromkeys(ways, float("inf"))
    for _round in range(3):  # in turns, keeping each way's fastest round
        for name, run in ways.items():
            best[name] = min(best[name], run())
print("element by element, over 20x slower than the generator: loaded", best["loaded"] > 20 * best["generator"], "| in memory", best["in memory"] > 20 * best["generator"])
#> element by element, over 20x slower than the generator: loaded True | in memory True
element = next(iter(dataset))
print(len(element), type(element["0"]).__name__)  # each element: 10 new tensors for Python
#> 10 EagerTensor

# The fix: hand Python batches, 10 tensors of 100 strings per step.
print(next(iter(dataset.batch(100)))["0"].shape, "| over 3x faster per record:", best["in memory"] > 3 * best["batches of 100"])
#> (100,) | over 3x faster per record: True
# --8<-- [end:iterate_slow]

# --8<-- [start:from_generator_parallel]
import threading
import time

running = most = 0
lock = threading.Lock()


def work(i):
    """Prepares one sample in Python (a stand-in for decoding a file, 10 ms)."""
    global running, most
    with lock:
        running += 1
        most = max(most, running)  # how many samples were being prepared at once
    time.sleep(0.01)
    with lock:
        running -= 1
    return np.float32(i)


def samples(first, count):
    for i in range(first, first + count):
        yield work(i)


spec = tf.TensorSpec((), tf.float32)
one_generator = tf.data.Dataset.from_generator(lambda: samples(0, 16), output_signature=spec)
values = list(one_generator.prefetch(tf.data.AUTOTUNE).as_numpy_iterator())
print("from_generator + prefetch, at most at once:", most)
#> from_generator + prefetch, at most at once: 1

most = 0  # the fix, with Python kept: four generators, interleaved in parallel
shards = tf.data.Dataset.range(4).interleave(
    lambda k: tf.data.Dataset.from_generator(
        samples, args=(k * 4, 4), output_signature=spec
    ),
    cycle_length=4,
    num_parallel_calls=4,
)
print(sorted(shards.as_numpy_iterator()) == values)
#> True
print("interleave, more than one at once:", most > 1)
#> interleave, more than one at once: True

most = 0  # the work as a map step over indices, run in parallel
mapped = tf.data.Dataset.range(16).map(
    lambda i: tf.numpy_function(work, [i], tf.float32), num_parallel_calls=tf.data.AUTOTUNE
)
print(list(mapped.as_numpy_iterator()) == values)  # map keeps the order
#> True
print("map(num_parallel_calls), more than one at once:", most > 1)
#> map(num_parallel_calls), more than one at once: True
# --8<-- [end:from_generator_parallel]

# --8<-- [start:from_generator_shape]
print(tf.TensorSpec(shape=(None)).shape, "vs", tf.TensorSpec(shape=(None,)).shape)  # (None) is just None
#> <unknown> vs (None,)


def pairs():
    for i in range(5):
        yield np.full(3, i, "float32"), np.float32(i)


def dense():
    model = keras.Sequential([keras.layers.Dense(1)])  # no Input: the shape comes from the data
    model.compile("sgd", "mse")  # fit traces its steps into a graph, the default
    return model


unknown = (tf.TensorSpec(shape=(None), dtype=tf.float32), tf.TensorSpec(shape=(None), dtype=tf.float32))
bad = tf.data.Dataset.from_generator(pairs, output_signature=unknown).batch(2)
print(bad.element_spec[0])
#> TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)
try:
    dense().fit(bad, epochs=1, verbose=0)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: as_list() is not defined on an unknown TensorShape.
with_input = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
with_input.compile("sgd", "mse")
try:
    with_input.fit(bad, epochs=1, verbose=0)  # a model with Input((3,)) fails the same way
except ValueError as err:
    print(f"{type(err).__name__}:", re.sub(r"\x1b\[[0-9;]*m", "", str(err).splitlines()[2]))
    #> ValueError: Cannot take the length of shape with unknown rank.

# The fix: one sample's shape as a tuple; batch() adds a None batch dimension,
# which the last, partial batch (1 of 5 samples) fits.
signature = (tf.TensorSpec(shape=(3,), dtype=tf.float32), tf.TensorSpec(shape=(), dtype=tf.float32))
good = tf.data.Dataset.from_generator(pairs, output_signature=signature).batch(2)
print(good.element_spec[0])
#> TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)
model = dense()
print("batch sizes:", [len(xb) for xb, yb in good], "| epochs trained:", len(model.fit(good, verbose=0).epoch))
#> batch sizes: [2, 2, 1] | epochs trained: 1


def batches():  # a generator that yields whole batches: None as the first dimension
    for start in range(0, 5, 2):
        yield np.full((min(2, 5 - start), 3), start, "float32"), np.zeros(min(2, 5 - start), "float32")


batched = (tf.TensorSpec(shape=(None, 3), dtype=tf.float32), tf.TensorSpec(shape=(None,), dtype=tf.float32))
by_batch = tf.data.Dataset.from_generator(batches, output_signature=batched)
print("batch sizes:", [len(xb) for xb, yb in by_batch], "| epochs trained:", len(model.fit(by_batch, verbose=0).epoch))
#> batch sizes: [2, 2, 1] | epochs trained: 1
# --8<-- [end:from_generator_shape]

# --8<-- [start:parallel_reads]
class Reads:
    """Reads a file after a 10 ms wait (cloud storage) and counts the reads at once."""

    def __init__(self):
        self.running = self.most = 0
        self.lock = threading.Lock()

    def __call__(self, name):
        with self.lock:
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(0.01)
        with self.lock:
            self.running -= 1
        return np.fromfile(name.decode(), dtype=np.float32)


with tempfile.TemporaryDirectory() as folder:
    names = [os.path.join(folder, f"image_{i}.bin") for i in range(8)]
    for i, name in enumerate(names):
        np.full(4, i, np.float32).tofile(name)
    files = tf.data.Dataset.from_tensor_slices(names)

    def pipeline(read, **parallel):
        def load(name):
            image = tf.numpy_function(read, [name], tf.float32)
            image.set_shape((4,))
            return image

        return files.map(load, **parallel).batch(4).prefetch(tf.data.AUTOTUNE)

    serial = Reads()
    first = [batch[:, 0].tolist() for batch in pipeline(serial).as_numpy_iterator()]
    print("map + prefetch(AUTOTUNE), reads at once:", serial.most)
    #> map + prefetch(AUTOTUNE), reads at once: 1
    parallel = Reads()
    # Usually num_parallel_calls=tf.data.AUTOTUNE; AUTOTUNE's choice depends on the cores, 2 here.
    second = [batch[:, 0].tolist() for batch in pipeline(parallel, num_parallel_calls=2).as_numpy_iterator()]
    print("map(num_parallel_calls=2), reads at once:", parallel.most, "| same batches:", first == second)
    #> map(num_parallel_calls=2), reads at once: 2 | same batches: True
# --8<-- [end:parallel_reads]

# --8<-- [start:parallel_python_work]
calls, cpu_seconds = {"python_work": 0, "tf_work": 0}, []


def sleep_work(i):
    """Waits 10 ms, as reading a file does; time.sleep lets go of the GIL while it waits."""
    time.sleep(0.01)
    return i


def python_work(i):
    """A few milliseconds of arithmetic in a Python loop, which holds the GIL while it runs."""
    calls["python_work"] += 1
    cpu = time.thread_time()
    total = 0
    for k in range(80_000):
        total += k * k
    cpu_seconds.append(time.thread_time() - cpu)  # what this thread itself used of a core
    return i + total


def tf_work(i):
    """The same sum in TensorFlow ops."""
    calls["tf_work"] += 1  # Python runs this only while tf.data traces it into a graph
    k = tf.range(80_000, dtype=tf.int64)
    return i + tf.reduce_sum(k * k)


def parallel_pipeline(work, parallel):
    step = work if work is tf_work else lambda i: tf.numpy_function(work, [i], tf.int64)
    dataset = tf.data.Dataset.range(12).map(step, num_parallel_calls=12 if parallel else None)
    options = tf.data.Options()
    options.threading.private_threadpool_size = 12  # 12 threads even on a machine with fewer cores
    return dataset.with_options(options)


variants = [parallel_pipeline(work, parallel) for work in (sleep_work, python_work, tf_work) for parallel in (False, True)]
values = [list(dataset.as_numpy_iterator()) for dataset in variants[2:]]  # a first pass traces the steps
print("same values, Python loop and TF ops:", values[0] == values[1] == values[2] == values[3])
#> same values, Python loop and TF ops: True

calls = {"python_work": 0, "tf_work": 0}
fastest, cores = [float("inf")] * len(variants), []
for _round in range(4):  # each round times every pipeline once, in turn; the best round counts
    for n, dataset in enumerate(variants):
        cpu_seconds, start = [], time.perf_counter()
        for _element in dataset:
            pass
        fastest[n] = min(fastest[n], time.perf_counter() - start)
        if n == 3:  # the Python loop with parallel calls: its calls' CPU time over the wall time
            cores.append(sum(cpu_seconds) / (time.perf_counter() - start))
sleep_serial, sleep_parallel, python_serial, python_parallel, tf_serial, tf_parallel = fastest
print("time.sleep, num_parallel_calls=12 over 3x faster:", sleep_serial / sleep_parallel > 3)
#> time.sleep, num_parallel_calls=12 over 3x faster: True
print("Python loop, num_parallel_calls=12 over 3x faster:", python_serial / python_parallel > 3)
#> Python loop, num_parallel_calls=12 over 3x faster: False
# The 12 threads ran the loop in turns: together they never kept more than one core busy
print("Python loop's threads used over 1.3 cores at once:", max(cores) > 1.3)
#> Python loop's threads used over 1.3 cores at once: False

# The fix: the same work in TensorFlow ops, which run without Python and so without the GIL
print("Python calls in 4 rounds of 12 elements:", calls)
#> Python calls in 4 rounds of 12 elements: {'python_work': 96, 'tf_work': 0}
print("TF ops over 2x faster than the Python loop, both num_parallel_calls=12:", python_parallel / tf_parallel > 2)
#> TF ops over 2x faster than the Python loop, both num_parallel_calls=12: True
# --8<-- [end:parallel_python_work]

# --8<-- [start:label_mode]
print(hasattr(keras.preprocessing.image, "ImageDataGenerator"))  # Keras 3: flow_from_directory is gone
#> False


def image_folder(folder, names=("cats", "dogs")):
    """Four 4x4 PNG images per class: black cats, white dogs."""
    for name, value in zip(names, (0, 255), strict=True):
        os.makedirs(os.path.join(folder, name))
        for i in range(4):
            image = tf.fill((4, 4, 3), tf.constant(value, tf.uint8))
            tf.io.write_file(os.path.join(folder, name, f"{i}.png"), tf.io.encode_png(image))


def load(folder, **kwargs):
    return keras.utils.image_dataset_from_directory(folder, image_size=(4, 4), batch_size=8, shuffle=False, verbose=False, **kwargs)


def fit_one_sigmoid(dataset):
    keras.utils.set_random_seed(0)
    model = keras.Sequential(
        [keras.Input((4, 4, 3)), keras.layers.Rescaling(1 / 255), keras.layers.Flatten(), keras.layers.Dense(1, activation="sigmoid")]
    )
    model.compile(keras.optimizers.SGD(1.0), "binary_crossentropy", metrics=["accuracy"], run_eagerly=True)
    return [round(v, 4) for v in model.fit(dataset, epochs=3, shuffle=False, verbose=0).history["accuracy"]]


with tempfile.TemporaryDirectory() as folder:
    image_folder(folder)
    for mode in ("categorical", "binary"):  # the first and the last label: a cat, a dog
        _, labels = next(iter(load(folder, label_mode=mode)))
        print(mode, labels.shape, labels.numpy().tolist()[0], labels.numpy().tolist()[-1])
        #> categorical (8, 2) [1.0, 0.0] [0.0, 1.0]
        #> binary (8, 1) [0.0] [1.0]
    try:
        print(fit_one_sigmoid(load(folder, label_mode="categorical")))  # two label columns, one output unit
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        """
        ValueError: Arguments `target` and `output` must have the same shape. Received: target.shape=(8, 2), output.shape=(8, 1)
        """
    print(fit_one_sigmoid(load(folder, label_mode="binary")))  # the fix: one 0/1 label per image
    #> [1.0, 1.0, 1.0]
# --8<-- [end:label_mode]

# --8<-- [start:class_order]
with tempfile.TemporaryDirectory() as folder:
    image_folder(folder, names=("a", "b"))  # a: black images, b: white images
    for dataset in (load(folder), load(folder, class_names=["b", "a"])):  # default, then a given order
        pixel_to_label = {int(image[0, 0, 0]): int(label) for images, labels in dataset for image, label in zip(images, labels, strict=True)}
        print(dataset.class_names, "label of a (black):", pixel_to_label[0], "label of b (white):", pixel_to_label[255])
        #> ['a', 'b'] label of a (black): 0 label of b (white): 1
        #> ['b', 'a'] label of a (black): 1 label of b (white): 0
# --8<-- [end:class_order]

# --8<-- [start:class_weight]
x = np.random.default_rng(0).normal(size=(10, 3)).astype("float32")
y = (np.arange(10) < 3).astype("float32")  # imbalanced: 3 positives, 7 negatives
class_weight = {0: 1.0, 1: 10.0}


def first_loss(data, **kwargs):
    """The loss of one epoch of one batch: the same starting weights for every call."""
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile("sgd", "binary_crossentropy", run_eagerly=True)
    if isinstance(data, tuple):
        kwargs["batch_size"] = 10
    else:
        data = (data,)
    return round(model.fit(*data, epochs=1, shuffle=False, verbose=0, **kwargs).history["loss"][0], 4)


batched = tf.data.Dataset.from_tensor_slices((x, y)).batch(10)
print("arrays:", first_loss((x, y)), "with class_weight:", first_loss((x, y), class_weight=class_weight))
#> arrays: 0.685 with class_weight: 2.6545
print("dataset:", first_loss(batched), "with class_weight:", first_loss(batched, class_weight=class_weight))
#> dataset: 0.685 with class_weight: 2.6545

# Per-sample weights as a third element of each batch: (x, y, w).
weights = tf.constant([class_weight[0], class_weight[1]])
weighted = batched.map(lambda xb, yb: (xb, yb, tf.gather(weights, tf.cast(yb, tf.int32))))
print("dataset of (x, y, w):", first_loss(weighted))
#> dataset of (x, y, w): 2.6545
print("w times 1000:", first_loss(batched.map(lambda xb, yb: (xb, yb, 1000 * tf.gather(weights, tf.cast(yb, tf.int32))))))
#> w times 1000: 2654.5278
# --8<-- [end:class_weight]

# --8<-- [start:cache_before_augmentation]
tf.random.set_seed(0)
images = tf.reshape(tf.range(6 * 2), (6, 1, 2, 1))  # 6 tiny images of 1x2 pixels


def augment(image):
    return tf.image.random_flip_left_right(image)


def flips(dataset, epoch_size=6):
    """F for an image that came out flipped, - for one that did not; a space between epochs."""
    marks = "".join("F" if image[0, 0, 0] > image[0, 1, 0] else "-" for image in dataset)
    return " ".join(marks[i : i + epoch_size] for i in range(0, len(marks), epoch_size))


raw = tf.data.Dataset.from_tensor_slices(images)
print("map(augment), cache:", flips(raw.map(augment).cache().repeat(2)))
#> map(augment), cache: F--FFF F--FFF
print("cache, map(augment):", flips(raw.cache().map(augment).repeat(2)))
#> cache, map(augment): F--FFF F----F
# --8<-- [end:cache_before_augmentation]

# --8<-- [start:keras_ragged_input]
import re

import keras
import tensorflow as tf

rows = tf.ragged.constant([[1.0, 2.0, 3.0], [4.0]])  # two rows of different lengths
inputs = keras.Input(shape=(None,), ragged=True)
print(keras.Model(inputs, inputs)(rows).to_list())  # passed straight through: no error now
#> [[1.0, 2.0, 3.0], [4.0]]
extra = keras.Input(shape=(2,))
unused = keras.Model([inputs, extra], keras.layers.Dense(1)(extra))  # the ragged input not used
print(unused([rows, tf.ones((2, 2))]).shape)
#> (2, 1)

indexed = keras.Model(inputs, inputs[:, 0])  # the first value of each row: along the ragged axis
try:
    indexed(rows)
except ValueError as err:
    bold = re.search(r"\x1b\[1m(.*?)\x1b\[0m", str(err)).group(1)  # the line Keras prints in bold
    print(f"{type(err).__name__}: {bold}")
    #> ValueError: Cannot index into an inner ragged dimension.

points = tf.ragged.constant([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9]]], ragged_rank=1)  # (2, None, 3)
point_inputs = keras.Input(shape=(None, 3), ragged=True, dtype="int32")
print(keras.Model(point_inputs, point_inputs[:, :, 0])(points).to_list())  # a uniform axis: works
#> [[1, 4], [7]]

# The fix: pad to a dense tensor inside a layer (or use an op that takes ragged input)
print(rows.to_tensor().numpy().tolist())  # to_tensor pads the short rows with zeros
#> [[1.0, 2.0, 3.0], [4.0, 0.0, 0.0]]
first = keras.layers.Lambda(lambda t: t.to_tensor()[:, 0], output_shape=())(inputs)
print(keras.Model(inputs, first)(rows).numpy())
#> [1. 4.]
# --8<-- [end:keras_ragged_input]
