"""Keras image pipelines: channels, label modes, rescaling and augmentation.

Run with `python examples/tensorflow/images.py`. The `#>` lines under each print are the output the
libraries printed when the site was built; the test suite runs this script again
and compares.
"""

# --8<-- [start:decode_channels]
import os
import re
import tempfile

import keras
import numpy as np
import tensorflow as tf
from PIL import Image


def incompatible(err):
    """The line of a Keras error that names the shapes, without its bold markers."""
    line = next(part for part in str(err).splitlines() if "incompatible" in part)
    return f"{type(err).__name__}: " + re.sub(r"\x1b\[[0-9;]*m", "", line).strip()


folder = tempfile.TemporaryDirectory()  # the files of every section; removed at the end
Image.new("RGBA", (8, 8), (255, 0, 0, 128)).save(os.path.join(folder.name, "rgba.png"))
Image.new("L", (8, 8), 200).save(os.path.join(folder.name, "grey.jpg"))

inputs = keras.Input(shape=(8, 8, 3), name="image")  # a model for RGB images
rgb_model = keras.Model(inputs, keras.layers.Conv2D(2, 3)(inputs))

rgba = tf.io.read_file(os.path.join(folder.name, "rgba.png"))
grey = tf.io.read_file(os.path.join(folder.name, "grey.jpg"))
print(tf.io.decode_png(rgba).shape, tf.io.decode_jpeg(grey).shape)  # channels=0: as stored
#> (8, 8, 4) (8, 8, 1)
try:
    rgb_model(tf.cast(tf.io.decode_png(rgba)[None], tf.float32))
except ValueError as err:
    print(incompatible(err))
    """
    ValueError: Input 0 with name 'image' of layer 'functional' is incompatible with the layer: expected shape=(None, 8, 8, 3), found shape=(1, 8, 8, 4)
    """

# The fix: ask for 3 channels; alpha is dropped, a grey value is copied to R, G and B
print(tf.io.decode_png(rgba, channels=3)[0, 0].numpy(), tf.io.decode_jpeg(grey, channels=3)[0, 0].numpy())
#> [255   0   0] [200 200 200]
print(tf.io.decode_image(rgba).shape, tf.io.decode_image(rgba, channels=3, expand_animations=False).shape)
#> (8, 8, 4) (8, 8, 3)
try:
    tf.io.decode_jpeg(grey, channels=4)
except tf.errors.InvalidArgumentError as err:
    print(type(err).__name__, err.message.split("}} ")[-1])
    #> InvalidArgumentError JPEG does not support 4 channels [Op:DecodeJpeg]
# --8<-- [end:decode_channels]


# --8<-- [start:decode_image_map]
Image.new("RGB", (8, 8)).save(os.path.join(folder.name, "still.gif"))  # a GIF of one frame
print(tf.io.decode_image(tf.io.read_file(os.path.join(folder.name, "still.gif"))).shape)  # frames first
#> (1, 8, 8, 3)
paths = tf.data.Dataset.from_tensor_slices([os.path.join(folder.name, "rgba.png")])
print(paths.map(lambda p: tf.io.decode_image(tf.io.read_file(p))).element_spec.shape)
#> <unknown>
try:
    paths.map(lambda p: tf.image.resize(tf.io.decode_image(tf.io.read_file(p)), (4, 4)))
except ValueError as err:
    print(type(err).__name__, str(err).strip().splitlines()[-1].split("ValueError: ")[-1])  # its last line
    #> ValueError 'images' contains no shape.
decoded = paths.map(lambda p: tf.io.decode_image(tf.io.read_file(p), channels=3, expand_animations=False))
print(decoded.element_spec.shape, decoded.map(lambda x: tf.image.resize(x, (4, 4))).element_spec.shape)
#> (None, None, 3) (4, 4, 3)
# --8<-- [end:decode_image_map]


# --8<-- [start:color_mode]
grey_folder = os.path.join(folder.name, "grey")
for name in ("cat", "dog"):  # two classes of greyscale PNG files
    os.makedirs(os.path.join(grey_folder, name))
    Image.new("L", (8, 8), 200).save(os.path.join(grey_folder, name, "0.png"))
for mode in ("rgb", "grayscale", "rgba"):
    loaded = keras.utils.image_dataset_from_directory(grey_folder, image_size=(8, 8), color_mode=mode, verbose=False)
    print(mode, loaded.element_spec[0].shape)
    #> rgb (None, 8, 8, 3)
    #> grayscale (None, 8, 8, 1)
    #> rgba (None, 8, 8, 4)
inputs = keras.Input(shape=(8, 8, 1), name="image")  # a model for greyscale images
grey_model = keras.Model(inputs, keras.layers.Conv2D(2, 3)(inputs))
images, _ = next(iter(keras.utils.image_dataset_from_directory(grey_folder, image_size=(8, 8), verbose=False)))
try:
    grey_model(images)
except ValueError as err:
    print(incompatible(err))
    """
    ValueError: Input 0 with name 'None' of layer 'conv2d_1' is incompatible with the layer: expected axis -1 of input shape to have value 1, but received input with shape (2, 8, 8, 3)
    """
# --8<-- [end:color_mode]


# --8<-- [start:label_mode]
three = os.path.join(folder.name, "three")
for name in ("bird", "cat", "dog"):  # three classes, two images each
    os.makedirs(os.path.join(three, name))
    for i in range(2):
        Image.new("RGB", (8, 8)).save(os.path.join(three, name, f"{i}.png"))
for mode in ("int", "categorical", "binary"):
    try:
        loaded = keras.utils.image_dataset_from_directory(three, image_size=(8, 8), label_mode=mode, verbose=False)
        print(mode, loaded.element_spec[1].shape, loaded.element_spec[1].dtype.name)
        #> int (None,) int32
        #> categorical (None, 3) float32
    except ValueError as err:
        print(mode, type(err).__name__, err)
        """
        binary ValueError When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: class_names=['bird', 'cat', 'dog']
        """

binary = keras.utils.image_dataset_from_directory(grey_folder, image_size=(8, 8), label_mode="binary", verbose=False)
print("binary, 2 folders", binary.element_spec[1].shape, binary.element_spec[1].dtype.name)
#> binary, 2 folders (None, 1) float32

one_hot = keras.utils.image_dataset_from_directory(three, image_size=(8, 8), label_mode="categorical", verbose=False)
_, labels = next(iter(one_hot))
predictions = tf.fill((labels.shape[0], 3), 1 / 3)  # what a softmax over 3 classes gives
try:
    keras.losses.SparseCategoricalCrossentropy()(labels, predictions)
except ValueError as err:
    print(type(err).__name__, err)
    """
    ValueError Argument `output` must have rank (ndim) `target.ndim - 1`. Received: target.shape=(6, 3), output.shape=(6, 3)
    """
print(round(float(keras.losses.CategoricalCrossentropy()(labels, predictions)), 4))  # the loss one-hot labels need
#> 1.0986
# --8<-- [end:label_mode]


# --8<-- [start:aspect_ratio]
wide = np.zeros((4, 8), np.uint8)  # 4 rows, 8 columns: a white 4 x 4 square in the middle
wide[:, 2:6] = 255
os.makedirs(os.path.join(folder.name, "wide", "shapes"))
Image.fromarray(wide).save(os.path.join(folder.name, "wide", "shapes", "0.png"))


def white(**options):
    """The 4 x 4 image the loader gives, as rows of 1 (white) and 0."""
    loaded = keras.utils.image_dataset_from_directory(
        os.path.join(folder.name, "wide"), image_size=(4, 4), color_mode="grayscale",
        interpolation="nearest", verbose=False, **options,
    )
    image = next(iter(loaded))[0][0, :, :, 0].numpy()
    return ["".join(str(int(v > 127)) for v in row) for row in image]


print(white())  # the 8-wide image squeezed into 4 columns: the square is 2 wide, 4 high
#> ['0110', '0110', '0110', '0110']
print(white(crop_to_aspect_ratio=True))  # the middle 4 x 4 is kept: still a square
#> ['1111', '1111', '1111', '1111']
print(white(pad_to_aspect_ratio=True))  # padded to 8 x 8 first: the whole image, as a square
#> ['0000', '0110', '0110', '0000']
# --8<-- [end:aspect_ratio]


# --8<-- [start:rescaling_twice]
white_folder = os.path.join(folder.name, "white")
os.makedirs(os.path.join(white_folder, "all"))
Image.new("RGB", (8, 8), (255, 255, 255)).save(os.path.join(white_folder, "all", "0.png"))
loaded = keras.utils.image_dataset_from_directory(white_folder, image_size=(8, 8), verbose=False)

inputs = keras.Input(shape=(8, 8, 3))
scaled = keras.Model(inputs, keras.layers.Rescaling(1 / 255)(inputs))  # what the next layer receives

once = loaded.map(lambda x, y: (x / 255, y))  # the pipeline scales ...
image, _ = next(iter(once))
print(round(float(tf.reduce_max(image)), 4), round(float(tf.reduce_max(scaled(image))), 4))  # ... and the model again
#> 1.0 0.0039
image, _ = next(iter(loaded))  # the fix: one of the two; here the model's layer
print(round(float(tf.reduce_max(image)), 4), round(float(tf.reduce_max(scaled(image))), 4))
#> 255.0 1.0
# --8<-- [end:rescaling_twice]


# --8<-- [start:augmentation]
flip = keras.Sequential([keras.Input(shape=(1, 2, 1)), keras.layers.RandomFlip("horizontal", seed=1)])
pixels = tf.constant(np.tile([[[[1.0], [2.0]]]], (20, 1, 1, 1)))  # 20 copies of the row 1, 2


def flipped(batch):
    """Whether any of the 20 rows comes out as 2, 1."""
    return bool(tf.reduce_any(batch[:, 0, 0, 0] == 2.0))


print("model(x):", flipped(flip(pixels)), "training=True:", flipped(flip(pixels, training=True)))
#> model(x): True training=True: True
print("training=False:", flipped(flip(pixels, training=False)), "predict:", flipped(flip.predict(pixels, verbose=0)))
#> training=False: False predict: False

validation = tf.data.Dataset.from_tensors(pixels)
print("in map:", flipped(next(iter(validation.map(lambda x: flip(x))))))  # augmented validation data
#> in map: True
print("in map, training=False:", flipped(next(iter(validation.map(lambda x: flip(x, training=False))))))
#> in map, training=False: False
folder.cleanup()
# --8<-- [end:augmentation]
