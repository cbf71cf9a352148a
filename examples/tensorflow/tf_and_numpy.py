"""TensorFlow and NumPy: what converting copies, what it shares, and dtypes.

Run with `python examples/tensorflow/tf_and_numpy.py`. The `#>` lines under each print
are the output the libraries printed when the site was built; the test suite runs this
script again and compares.
"""

# --8<-- [start:from_numpy_copies]
import numpy as np
import tensorflow as tf

array = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
constant = tf.constant(array)
converted = tf.convert_to_tensor(array)
array[0, 0] = 99.0  # change the array after converting it
print(constant.numpy()[0, 0], converted.numpy()[0, 0])
#> 1.0 1.0
# --8<-- [end:from_numpy_copies]

# --8<-- [start:tnp_copy]
tnp = tf.experimental.numpy
changed = {"tnp.copy": 0, "tf.constant": 0, "tf.convert_to_tensor": 0, "tf.identity": 0}
for _ in range(100):  # the reader's loop: it changed the copy in some runs only
    with tf.device("CPU"):
        x = np.arange(10)
        copies = [tnp.copy(x), tf.constant(x), tf.convert_to_tensor(x), tf.identity(x)]
        x[3] = 42  # write the array after copying it
        for name, copy in zip(changed, copies, strict=True):
            changed[name] += int(copy[3]) != 3
print(changed)  # runs, out of 100, in which writing the array changed the tensor
#> {'tnp.copy': 0, 'tf.constant': 0, 'tf.convert_to_tensor': 0, 'tf.identity': 0}

# Independent of the TensorFlow version: copy the array in NumPy first.
x = np.arange(10)
safe = tf.constant(np.copy(x))
x[3] = 42
print(safe.numpy())
#> [0 1 2 3 4 5 6 7 8 9]
# --8<-- [end:tnp_copy]

# --8<-- [start:dataset_from_numpy]
images = np.zeros((3, 2), dtype=np.float32)
sliced = tf.data.Dataset.from_tensor_slices(images)  # copies the whole array
images[0, 0] = 99.0
print(next(iter(sliced)).numpy())
#> [0. 0.]

big = np.zeros(2**31, dtype=np.uint8)  # 2 GiB; np.zeros does not fill it yet
try:
    with tf.Graph().as_default():  # in a graph, the array becomes a constant of the graph
        tf.data.Dataset.from_tensor_slices(big)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Cannot create a tensor proto whose content is larger than 2GB.


def rows():  # the fix: a generator hands out one row at a time from the array
    yield from images


streamed = tf.data.Dataset.from_generator(rows, output_signature=tf.TensorSpec((2,), tf.float32))
images[0, 0] = 7.0
print(next(iter(streamed)).numpy())  # read from the array now: no copy was made
#> [7. 0.]
# --8<-- [end:dataset_from_numpy]

# --8<-- [start:list_of_arrays]
images = [np.full((2, 3), 7, dtype=np.uint8) for _ in range(4)]  # a list of four uint8 images
print(tf.convert_to_tensor(images).dtype)  # the list's numbers, read as Python integers
#> <dtype: 'int32'>
print(tf.convert_to_tensor(np.stack(images)).dtype)  # one (4, 2, 3) array: its dtype is kept
#> <dtype: 'uint8'>


class CountingArray(np.ndarray):
    """An ndarray that counts how often it is indexed."""

    reads = 0

    def __getitem__(self, key):
        CountingArray.reads += 1
        return super().__getitem__(key)


image = np.zeros((2, 3), dtype=np.uint8).view(CountingArray)  # 6 numbers
tf.convert_to_tensor(image)
print(CountingArray.reads)  # an array on its own: never indexed
#> 0
tf.convert_to_tensor([image])
print(CountingArray.reads)  # the same array in a list: indexed row by row, number by number
#> 13
# --8<-- [end:list_of_arrays]

# --8<-- [start:numpy_method]
tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
result = tensor.numpy()
print(type(result).__name__, result.dtype, result.flags.writeable, result.flags.owndata)
#> ndarray float32 True True

result[0, 0] = 99.0  # allowed: the array is a copy
print(tensor.numpy()[0, 0])
#> 1.0
print(np.shares_memory(tensor.numpy(), tensor.numpy()))  # a new copy on each call
#> False

# tf.make_ndarray reads a TensorProto (a serialised tensor), not a tensor.
try:
    tf.make_ndarray(tensor)
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    AttributeError: 'tensorflow.python.framework.ops.EagerTensor' object has no attribute 'tensor_shape'
    """
print(tf.make_ndarray(tf.make_tensor_proto(tensor)).tolist())
#> [[1.0, 2.0], [3.0, 4.0]]
# --8<-- [end:numpy_method]

# --8<-- [start:iterating]
values = tf.constant([0.5, 1.5, 2.5])
print([type(v).__name__ for v in values])  # iterating a tensor: a new tensor per element
#> ['EagerTensor', 'EagerTensor', 'EagerTensor']
print([type(v).__name__ for v in values.numpy()])  # iterating its array: NumPy floats
#> ['float32', 'float32', 'float32']
print(tf.train.FloatList(value=values).value)  # accepted, as a sequence of tensors
#> [0.5, 1.5, 2.5]
print(tf.train.FloatList(value=values.numpy()).value)  # the same values from the array
#> [0.5, 1.5, 2.5]
# --8<-- [end:iterating]

# --8<-- [start:list_of_tensors]
import timeit


def best_times(*fns, number=20, rounds=5):
    """The best timing of each fn, in seconds per call, taken in turns: a pause of the
    machine then slows every fn in one round, never one fn in all of its rounds."""
    times = [[timeit.timeit(fn, number=number) / number for fn in fns] for _ in range(rounds)]
    return [min(column) for column in zip(*times, strict=True)]


rows = [tf.fill([100], float(i)) for i in range(10)]  # a Python list of tensors
print(np.array(rows).shape, np.array(rows).dtype)
#> (10, 100) float32
print(np.array_equal(np.array(rows), tf.stack(rows).numpy()))  # the same as stacking first
#> True
whole, each = best_times(lambda: np.array(rows), lambda: np.array([r.numpy() for r in rows]))
ratio = whole / each
print("np.array(rows) within 4x of .numpy() on each:", ratio < 4)
#> np.array(rows) within 4x of .numpy() on each: True

one = tf.zeros([300])
scalars = list(one)  # iterating a tensor: 300 scalar tensors
from_scalars, at_once = best_times(lambda: np.array(scalars), lambda: one.numpy(), number=5)
ratio = from_scalars / at_once
print("np.array(scalars) more than 20x slower than one.numpy():", ratio > 20)
#> np.array(scalars) more than 20x slower than one.numpy(): True
print(np.array_equal(np.array(scalars), one.numpy()))
#> True
# --8<-- [end:list_of_tensors]

# --8<-- [start:asarray]
view = np.asarray(tensor)
print(view.flags.writeable, np.shares_memory(view, np.asarray(tensor)))
#> False True
tensor_address = np.from_dlpack(tensor).__array_interface__["data"][0]  # DLPack: no copy
view_address = view.__array_interface__["data"][0]
copy_address = tensor.numpy().__array_interface__["data"][0]
print(view_address == tensor_address, copy_address == tensor_address)
#> True False
try:
    view[0, 0] = 99.0
except ValueError as err:
    print(type(err).__name__, err)
    #> ValueError assignment destination is read-only
# --8<-- [end:asarray]

# --8<-- [start:immutable]
try:
    tensor[0, 0] = 99.0  # a tf.Tensor has no item assignment
except TypeError as err:
    print(type(err).__name__, err)
    """
    TypeError 'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment
    """
# --8<-- [end:immutable]

# --8<-- [start:device]
print(tensor.device)
#> /job:localhost/replica:0/task:0/device:CPU:0
# --8<-- [end:device]

# --8<-- [start:dtypes_kept]
doubles = np.ones(3)  # NumPy's default: float64
print(tf.constant(doubles).dtype, tf.convert_to_tensor(doubles).dtype)
#> <dtype: 'float64'> <dtype: 'float64'>
print(tf.constant([1.0, 2.0, 3.0]).dtype)  # from Python floats: float32
#> <dtype: 'float32'>
print(tf.constant([1, 2, 3]).dtype)  # from Python integers: int32
#> <dtype: 'int32'>
# --8<-- [end:dtypes_kept]

# --8<-- [start:keras_dtype]
import keras

rnn = keras.layers.SimpleRNN(2)
tokens = np.arange(6).reshape(1, 3, 2)  # integers, int64
print(rnn.compute_dtype, rnn(tokens).dtype)  # integers are not cast, but the float32 weights make the result float32
#> float32 <dtype: 'float32'>
print(rnn(np.ones((1, 3, 2))).dtype)  # float64 input is cast to float32, silently
#> <dtype: 'float32'>
# --8<-- [end:keras_dtype]

# --8<-- [start:input_spec_dtype]
class Float64Only(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.input_spec = keras.layers.InputSpec(dtype="float64")

    def call(self, x):
        return x * 2


data = np.ones((1, 3))  # float64
try:
    Float64Only()(data)  # the layer casts to its float32 compute dtype, then checks
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Input 0 with name 'None' of layer 'float64_only' is incompatible with the layer: expected dtype=float64, found dtype=float32
    """
keras.backend.set_floatx("float64")  # after layers were made: Input follows, layers do not
print(keras.Input((3,)).dtype, Float64Only().compute_dtype, keras.config.dtype_policy().name)
#> float64 float32 float32
try:
    Float64Only()(keras.Input((3,)))
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Input 0 with name 'None' of layer 'float64_only_2' is incompatible with the layer: expected dtype=float64, found dtype=float32
    """
print(Float64Only(dtype="float64")(data).dtype)  # fix: a float64 layer keeps float64
#> <dtype: 'float64'>
keras.config.set_dtype_policy("float64")  # or: every new layer computes in float64
print(Float64Only()(keras.Input((3,))).dtype)
#> float64
keras.backend.clear_session(free_memory=False)  # or: forget the policy; it follows floatx again
print(keras.config.dtype_policy().name, Float64Only()(data).dtype)
#> float64 <dtype: 'float64'>
# --8<-- [end:input_spec_dtype]

# --8<-- [start:set_floatx]
inputs = keras.Input((3,))  # floatx and the dtype policy are both float64 here
model = keras.Model(inputs, Float64Only()(keras.layers.Dense(1, activation="sigmoid")(inputs)))
auc = keras.metrics.AUC()  # a metric's dtype follows floatx
print(model.layers[1].kernel.dtype, auc.dtype)
#> float64 float64
metrics = [auc, keras.metrics.Precision(dtype="float32")]
model.compile("sgd", "binary_crossentropy", metrics=metrics, run_eagerly=True)  # eager: no tracing, fast
labels = np.array([[0.0], [1.0], [1.0], [0.0]])
history = model.fit(np.eye(4, 3), labels, epochs=1, verbose=0)  # float64 data, no error
print(sorted(history.history), model(np.eye(4, 3)).dtype)
#> ['auc', 'loss', 'precision'] <dtype: 'float64'>
keras.backend.set_floatx("float32")  # the defaults again, for the sections below
keras.config.set_dtype_policy("float32")
# --8<-- [end:set_floatx]

# --8<-- [start:strings]
words = tf.constant(["Hello World", "B", "日本"])
array = words.numpy()
print(array, array.dtype)  # bytes objects in an object array
#> [b'Hello World' b'B' b'\xe6\x97\xa5\xe6\x9c\xac'] object
print(words[0].numpy())  # one element: bytes too
#> b'Hello World'
print(tf.strings.length(words).numpy())  # bytes: the text was encoded as UTF-8
#> [11  1  6]
print(tf.strings.length(words, unit="UTF8_CHAR").numpy())  # characters
#> [11  1  2]
print(array[:2].astype(str))  # decodes as ASCII: English text passes
#> ['Hello World' 'B']
try:
    array.astype(str)  # but not other text
except UnicodeDecodeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    UnicodeDecodeError: 'ascii' codec can't decode byte 0xe6 in position 0: ordinal not in range(128)
    """

# The fix: decode as UTF-8, the whole array or each element.
print(np.char.decode(array.astype(bytes), "utf-8"))
#> ['Hello World' 'B' '日本']
print([word.decode("utf-8") for word in array])
#> ['Hello World', 'B', '日本']
# --8<-- [end:strings]

# --8<-- [start:cast]
integers = tf.constant([1, 2, 3])  # int32
try:
    tf.convert_to_tensor(integers, dtype=tf.float32)
except ValueError as err:
    print(type(err).__name__, str(err).split(":")[0])
    #> ValueError Tensor conversion requested dtype float32 for Tensor with dtype int32

print(tf.cast(integers, tf.float32))
#> tf.Tensor([1. 2. 3.], shape=(3,), dtype=float32)
print(tf.convert_to_tensor([1, 2, 3], dtype=tf.float32))  # a list is not a tensor yet
#> tf.Tensor([1. 2. 3.], shape=(3,), dtype=float32)
print(tf.range(tf.constant(3), dtype=tf.float32))  # tf.range casts an int32 limit itself
#> tf.Tensor([0. 1. 2.], shape=(3,), dtype=float32)
# --8<-- [end:cast]

# --8<-- [start:requested_dtype_list]
for floats in ([1.5, 2.7], [2.0]):  # Python floats for an integer dtype
    try:
        tf.convert_to_tensor(floats, dtype=tf.int32)
    except TypeError as err:
        print(type(err).__name__, err)
        #> TypeError Cannot convert [1.5, 2.7] to EagerTensor of dtype int32
        #> TypeError Cannot convert [2.0] to EagerTensor of dtype int32
print(tf.convert_to_tensor([300], dtype=tf.uint8))  # an integer out of range wraps: 300 - 256
#> tf.Tensor([44], shape=(1,), dtype=uint8)
print(tf.convert_to_tensor([2147483648], dtype=tf.int32))  # 2**31 wraps to -2**31
#> tf.Tensor([-2147483648], shape=(1,), dtype=int32)
print(tf.constant([2147483647]) + 1)  # int32 arithmetic wraps too, without an error
#> tf.Tensor([-2147483648], shape=(1,), dtype=int32)
print(tf.convert_to_tensor([1e40], dtype=tf.float32))  # too large for float32
#> tf.Tensor([inf], shape=(1,), dtype=float32)
# --8<-- [end:requested_dtype_list]

# --8<-- [start:requested_dtype_array]
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    cut = tf.convert_to_tensor(np.array([1.5, 2.7]), dtype=tf.int32)
    wrapped = tf.convert_to_tensor(np.array([300]), dtype=tf.uint8)
    narrowed = tf.convert_to_tensor(np.array([0.1]), dtype=tf.float32)
    infinite = tf.convert_to_tensor(np.array([1e40]), dtype=tf.float32)
print(cut)  # the fractions are dropped
#> tf.Tensor([1 2], shape=(2,), dtype=int32)
print(wrapped)  # 300 wraps around, as in the list
#> tf.Tensor([44], shape=(1,), dtype=uint8)
print(narrowed.dtype, narrowed.numpy().item())  # float64 to float32: the float32 nearest 0.1
#> <dtype: 'float32'> 0.10000000149011612
print(infinite)
#> tf.Tensor([inf], shape=(1,), dtype=float32)
print([f"{w.category.__name__}: {w.message}" for w in caught])  # NumPy warns about 1e40 only
#> ['RuntimeWarning: overflow encountered in cast']
# --8<-- [end:requested_dtype_array]

# --8<-- [start:python_float_first]
print(tf.cast(0.2, tf.float64).numpy())  # 0.2 became a float32 constant first
#> 0.20000000298023224
print(tf.constant(0.2, dtype=tf.float64).numpy())  # float64 from the start
#> 0.2
print(tf.cast(np.float64(0.2), tf.float64).numpy())  # a NumPy float64 keeps its dtype
#> 0.2
# --8<-- [end:python_float_first]

# --8<-- [start:float32_product]
product = tf.cast(165, tf.float32) * 2.1  # 2.1 becomes float32 too
print(product.numpy())
#> 346.49997
print(f"{tf.constant(2.1).numpy():.10f}")  # the float32 nearest to 2.1
#> 2.0999999046
print(np.float32(165) * np.float32(2.1))  # NumPy, in float32: the same
#> 346.49997
print(165 * np.float64(np.float32(2.1)))  # the exact product, before rounding to float32
#> 346.4999842643738
print(np.spacing(np.float32(346.5)))  # the gap between neighbouring float32 values here
#> 3.0517578e-05
print((tf.cast(165, tf.float64) * 2.1).numpy())  # in float64
#> 346.5

# Compare float results with a tolerance, not ==; round them for printing.
print(product.numpy() == 346.5, np.isclose(product.numpy(), 346.5))
#> False True
print(f"{product.numpy():.2f}")
#> 346.50
# --8<-- [end:float32_product]

# --8<-- [start:large_integers]
print(tf.cast(48584629, tf.float32).numpy().item())  # the nearest float32
#> 48584628.0
print(tf.cast(2**24, tf.float32).numpy().item(), tf.cast(2**24 + 1, tf.float32).numpy().item())
#> 16777216.0 16777216.0
ids = tf.constant([48584629, 48584630, 48584631])  # int32
print(tf.cast(ids, tf.float32).numpy().tolist())  # two different IDs become equal
#> [48584628.0, 48584632.0, 48584632.0]
print(tf.cast(ids, tf.float64).numpy().tolist())  # float64 holds them exactly
#> [48584629.0, 48584630.0, 48584631.0]
big = 2.0**24  # a Python float becomes a float32 tensor; NumPy would keep float64
print((tf.constant(big) + 1.0).numpy().item(), (tf.constant(big, tf.float64) + 1.0).numpy().item())
#> 16777216.0 16777217.0
# --8<-- [end:large_integers]
