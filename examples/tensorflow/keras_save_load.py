"""Saving and loading Keras models: Keras 3's file formats, weights loaded in a new process,
ModelCheckpoint, custom layers and tf.train.Checkpoint.

Run with `python examples/tensorflow/keras_save_load.py`. The `#>` lines under each print are
the output the libraries printed when the site was built; the test suite runs this script again
and compares. It writes its files into a temporary directory and removes them.
"""

# --8<-- [start:formats]
import os
import tempfile

import keras
import numpy as np

workdir = tempfile.TemporaryDirectory()
folder = workdir.name


def build_model():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)])


keras.utils.set_random_seed(0)
model = build_model()
model.compile(optimizer="adam", loss="mse")
x = np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3)
y = np.ones((4, 1), dtype="float32")
model.fit(x, y, epochs=2, verbose=0)

model.save(os.path.join(folder, "model.keras"))  # the whole model
model.save_weights(os.path.join(folder, "model.weights.h5"))  # its weights only
print(sorted(os.listdir(folder)))
#> ['model.keras', 'model.weights.h5']
restored = keras.models.load_model(os.path.join(folder, "model.keras"))
print(np.array_equal(restored.predict(x, verbose=0), model.predict(x, verbose=0)))
#> True
print(restored.loss, int(restored.optimizer.iterations))  # compile settings, optimizer state
#> mse 2

for name in ["model.h5", "model.ckpt"]:  # names Keras 2 accepted for weights
    try:
        model.save_weights(name)
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        #> ValueError: The filename must end in `.weights.h5`. Received: filepath=model.h5
        #> ValueError: The filename must end in `.weights.h5`. Received: filepath=model.ckpt
try:
    model.save("saved_model_dir")  # a folder: Keras 2 wrote a SavedModel there
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Invalid filepath extension for saving. Please add either a `.keras` extension for the native Keras format (recommended) or a `.h5` extension. Use `model.export(filepath)` if you want to export a SavedModel for use with TFLite/TFServing/etc. Received: filepath=saved_model_dir.
    """
# --8<-- [end:formats]

# --8<-- [start:save_weights]
fresh = build_model()  # what a new process does: the same code, new random weights
print(np.array_equal(fresh.predict(x, verbose=0), model.predict(x, verbose=0)))
#> False
fresh.load_weights(os.path.join(folder, "model.weights.h5"))
print(np.array_equal(fresh.predict(x, verbose=0), model.predict(x, verbose=0)))
#> True

wider = keras.Sequential(
    [keras.Input((3,)), keras.layers.Dense(8, activation="relu", name="hidden"), keras.layers.Dense(1)]
)
try:
    wider.load_weights(os.path.join(folder, "model.weights.h5"))
except ValueError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
    """
    ValueError: A total of 2 objects could not be loaded. Example error message for object <Dense name=hidden, built=True>:
    """
# --8<-- [end:save_weights]

# --8<-- [start:model_checkpoint]
keras.utils.set_random_seed(0)
model = build_model()
model.compile(optimizer="adam", loss="mse")
checkpoints = os.path.join(folder, "checkpoints")
callbacks = [
    keras.callbacks.ModelCheckpoint(os.path.join(checkpoints, "best.keras"), save_best_only=True),
    keras.callbacks.ModelCheckpoint(os.path.join(checkpoints, "epoch{epoch}.weights.h5"), save_weights_only=True),
]
history = model.fit(x, y, validation_data=(x, y), epochs=3, verbose=0, callbacks=callbacks)
print(sorted(os.listdir(checkpoints)))
#> ['best.keras', 'epoch1.weights.h5', 'epoch2.weights.h5', 'epoch3.weights.h5']
best = keras.models.load_model(os.path.join(checkpoints, "best.keras"))
print(np.isclose(best.evaluate(x, y, verbose=0), min(history.history["val_loss"])))
#> True
# --8<-- [end:model_checkpoint]

# --8<-- [start:custom_objects]
@keras.saving.register_keras_serializable(package="demo")
class TrigPosEmbedding(keras.layers.Layer):
    """Adds scale * sin(position) to each step of a sequence."""

    def __init__(self, scale=1.0, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def call(self, x):
        positions = keras.ops.arange(keras.ops.shape(x)[1], dtype="float32")
        return x + self.scale * keras.ops.sin(positions)[:, None]


print(keras.saving.get_registered_name(TrigPosEmbedding))
#> demo>TrigPosEmbedding
embed = keras.Sequential([keras.Input((3, 2)), TrigPosEmbedding(scale=2.0)])
print(embed.layers[0].get_config()["scale"])  # Keras records plain arguments itself
#> 2.0
embed.save(os.path.join(folder, "embed.keras"))
loaded = keras.models.load_model(os.path.join(folder, "embed.keras"))  # no custom_objects
print(type(loaded.layers[0]).__name__, loaded.layers[0].scale)
#> TrigPosEmbedding 2.0


class Lookup(keras.layers.Layer):
    def __init__(self, table, **kwargs):
        super().__init__(**kwargs)
        self.table = table  # an array: not a value Keras can write into the config


try:
    Lookup(np.arange(3)).get_config()
except NotImplementedError as err:
    print(f"{type(err).__name__}: {' '.join(str(err).split()[:23])}")
    """
    NotImplementedError: Object Lookup was created by passing non-serializable argument values in `__init__()`, and therefore the object must override `get_config()` in order to be serializable.
    """
# --8<-- [end:custom_objects]

# --8<-- [start:get_config]
class Time2Vec(keras.layers.Layer):  # no get_config
    def __init__(self, kernel_size, periodic_activation=keras.ops.sin, **kwargs):
        super().__init__(**kwargs)
        self.kernel_size = kernel_size
        self.periodic_activation = periodic_activation  # a function: not a plain value

    def call(self, x):
        return self.periodic_activation(x)


t2v = keras.Sequential([keras.Input((3, 1)), Time2Vec(4)])
for attempt in [t2v.get_config, lambda: t2v.save(os.path.join(folder, "t2v.keras"))]:
    try:
        attempt()
    except NotImplementedError as err:
        print(f"{type(err).__name__}: {' '.join(str(err).split()[:23])}")
        """
        NotImplementedError: Object Time2Vec was created by passing non-serializable argument values in `__init__()`, and therefore the object must override `get_config()` in order to be serializable.
        NotImplementedError: Object Time2Vec was created by passing non-serializable argument values in `__init__()`, and therefore the object must override `get_config()` in order to be serializable.
        """


@keras.saving.register_keras_serializable(package="demo")
class Time2VecFixed(keras.layers.Layer):
    def __init__(self, kernel_size, periodic_activation="sin", **kwargs):  # a name, not a function
        super().__init__(**kwargs)
        self.kernel_size = kernel_size
        self.periodic_activation = periodic_activation

    def call(self, x):
        return getattr(keras.ops, self.periodic_activation)(x)

    def get_config(self):  # every constructor argument, as plain values
        config = super().get_config()
        config.update({"kernel_size": self.kernel_size, "periodic_activation": self.periodic_activation})
        return config


t2v = keras.Sequential([keras.Input((3, 1)), Time2VecFixed(4, periodic_activation="cos")])
t2v.save(os.path.join(folder, "t2v.keras"))
loaded = keras.models.load_model(os.path.join(folder, "t2v.keras"))
print(loaded.layers[0].kernel_size, loaded.layers[0].periodic_activation)
#> 4 cos
print(np.array_equal(loaded.predict(x[:, :, None], verbose=0), t2v.predict(x[:, :, None], verbose=0)))
#> True
# --8<-- [end:get_config]

# --8<-- [start:tensor_argument]
import json
import re
import zipfile

import tensorflow as tf

mask_value = tf.convert_to_tensor(np.array([0.0, 0.0, 0.0, 0.0]))  # a float64 tensor, as in the report
sequences = np.array([[[1, 2, 3, 4], [0, 0, 0, 0], [1, 1, 1, 1]]], dtype="float32")  # step 2 is padding
masking = keras.Sequential([keras.Input((3, 4)), keras.layers.Masking(mask_value=mask_value)])  # the RNN left out
masking.save(os.path.join(folder, "masking.keras"))
with zipfile.ZipFile(os.path.join(folder, "masking.keras")) as archive:
    saved = json.loads(archive.read("config.json"))["config"]["layers"][1]["config"]
print(saved["mask_value"])  # how the file keeps a tensor
#> {'class_name': '__tensor__', 'config': {'value': [0.0, 0.0, 0.0, 0.0], 'dtype': 'float64'}}
loaded = keras.models.load_model(os.path.join(folder, "masking.keras"))
print(type(loaded.layers[0].mask_value).__name__, np.array_equal(loaded(sequences), masking(sequences)))
#> EagerTensor True


@keras.saving.register_keras_serializable(package="demo")
class PadMask(keras.layers.Layer):  # masks padded steps, and keeps its argument as given
    def __init__(self, pad_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.pad_value = pad_value
        self.supports_masking = True

    def compute_mask(self, x, mask=None):
        return keras.ops.any(keras.ops.not_equal(x, self.pad_value), axis=-1)

    def call(self, x):
        return x

    def get_config(self):
        return {**super().get_config(), "pad_value": self.pad_value}


padded = keras.Sequential([keras.Input((3, 4)), PadMask(pad_value=mask_value)])
padded.save(os.path.join(folder, "padded.keras"))
loaded = keras.models.load_model(os.path.join(folder, "padded.keras"))
print(type(loaded.layers[0].pad_value).__name__)  # the file's dict, not a tensor
#> TrackedDict
try:
    loaded.predict(sequences, verbose=0)
except TypeError as err:
    lines = [re.sub(r"\x1b\[\d+m", "", line) for line in str(err).splitlines() if line.strip()]
    print(f"{type(err).__name__}: {lines[0]}")
    #> TypeError: Exception encountered when calling Sequential.call().
    print(lines[1])
    """
    Failed to convert elements of {'class_name': '__tensor__', 'config': {'value': [0.0, 0.0, 0.0, 0.0], 'dtype': 'float64'}} to Tensor. Consider casting elements to a supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF dtypes.
    """

# The fix: a plain Python value (a float, or tensor.numpy().tolist()), which the config keeps as it is.
padded = keras.Sequential([keras.Input((3, 4)), PadMask(pad_value=mask_value.numpy().tolist())])
padded.save(os.path.join(folder, "padded.keras"))
loaded = keras.models.load_model(os.path.join(folder, "padded.keras"))
print(loaded.layers[0].pad_value, np.array_equal(loaded(sequences), padded(sequences)))
#> [0.0, 0.0, 0.0, 0.0] True
# --8<-- [end:tensor_argument]

# --8<-- [start:layer_argument]
class PositionalEmbedding(keras.layers.Layer):  # the translation example's layer, no get_config
    def __init__(self, sequence_length, vocab_size, embed_dim, **kwargs):
        super().__init__(**kwargs)
        self.sequence_length, self.vocab_size, self.embed_dim = sequence_length, vocab_size, embed_dim
        self.token_embeddings = keras.layers.Embedding(vocab_size, embed_dim)

    def call(self, tokens):
        return self.token_embeddings(tokens)


config = PositionalEmbedding(5, 100, 8).get_config()  # Keras 3 records plain arguments
print({key: config[key] for key in ["sequence_length", "vocab_size", "embed_dim"]})
#> {'sequence_length': 5, 'vocab_size': 100, 'embed_dim': 8}


class SpatialTransformer(keras.layers.Layer):
    def __init__(self, localization_net, output_size, **kwargs):
        super().__init__(**kwargs)
        self.localization_net, self.output_size = localization_net, output_size

    def call(self, x):
        return self.localization_net(x)[:, : self.output_size]

    def get_config(self):  # what Keras 2 gave by default: no constructor arguments
        return super().get_config()


def net():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(3)])


st = keras.Sequential([keras.Input((3,)), SpatialTransformer(net(), 2)])
st.save(os.path.join(folder, "st.keras"))
try:
    keras.models.load_model(os.path.join(folder, "st.keras"), custom_objects={"SpatialTransformer": SpatialTransformer})
except TypeError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0][:46]}...")
    #> TypeError: <class 'keras.src.models.sequential.Sequential...
    print([line for line in str(err).splitlines() if "missing" in line][0])  # the cause, further down
    """
    Exception encountered: SpatialTransformer.__init__() missing 2 required positional arguments: 'localization_net' and 'output_size'
    """


class SpatialTransformerFixed(SpatialTransformer):
    def get_config(self):  # the arguments; the layer argument as its own config
        config = super().get_config()
        config.update(
            output_size=self.output_size,
            localization_net=keras.saving.serialize_keras_object(self.localization_net),
        )
        return config

    @classmethod
    def from_config(cls, config):  # turn the layer argument back into a layer
        config["localization_net"] = keras.saving.deserialize_keras_object(config["localization_net"])
        return cls(**config)


st = keras.Sequential([keras.Input((3,)), SpatialTransformerFixed(net(), 2)])
st.save(os.path.join(folder, "st.keras"))
custom = {"SpatialTransformerFixed": SpatialTransformerFixed}
loaded = keras.models.load_model(os.path.join(folder, "st.keras"), custom_objects=custom)
print(loaded.layers[0].output_size, np.array_equal(loaded.predict(x, verbose=0), st.predict(x, verbose=0)))
#> 2 True
# --8<-- [end:layer_argument]

# --8<-- [start:tf_checkpoint]
import tensorflow as tf


class Net(keras.Model):  # a subclassed model: its layer makes its weights at the first call
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)


keras.utils.set_random_seed(0)
trained = Net()
print(np.round(trained(x).numpy().ravel(), 4))
#> [-0.184   0.0346  0.2533  0.4719]
path = tf.train.Checkpoint(model=trained).save(os.path.join(folder, "ckpt"))

new = Net()  # newly initialised, as in a new process
status = tf.train.Checkpoint(model=new).restore(path)  # no error
print(len(new.weights))  # no weights yet to restore into
#> 0
print(np.round(new(x).numpy().ravel(), 4))  # the first call makes them: random ones
#> [ 1.3852  0.449  -0.4871 -1.4233]
try:
    status.assert_consumed()
except AssertionError as err:
    print(f"{type(err).__name__}: {' '.join(str(err).split())}")
    """
    AssertionError: Object attributes { name: "VARIABLE_VALUE" full_name: "net/kernel" checkpoint_key: "model/dense/_kernel/.ATTRIBUTES/VARIABLE_VALUE" } has_checkpoint_values { value: true } not assigned a value from checkpoint.
    """

built = Net()
built(x)  # the fix: call the model once, so that its weights exist
status = tf.train.Checkpoint(model=built).restore(path)
status.assert_consumed()  # raises if a value of the file found no weight
print(np.round(built(x).numpy().ravel(), 4))
#> [-0.184   0.0346  0.2533  0.4719]
workdir.cleanup()
# --8<-- [end:tf_checkpoint]
