"""TensorFlow graph mode: eager execution and tf.function, tracing and retracing, why
Tensor.numpy() fails inside a tf.function and what to use instead, and tf.experimental.numpy.

Run with `python examples/tensorflow/graph_mode.py`. The `#>` lines under each print are the
output the libraries printed when the site was built; the test suite runs this script again
and compares. NumPy behaviour on tf.Tensor (experimental_enable_numpy_behavior) is in
examples/tensorflow/numpy_behavior.py: it changes TensorFlow for the whole process.
"""

# --8<-- [start:eager]
import numpy as np
import tensorflow as tf

print(tf.executing_eagerly())
#> True
x = tf.constant([1.0, 2.0, 3.0])
y = x * 2  # computed now, on this line
print(y.numpy())
#> [2. 4. 6.]


@tf.function(autograph=False)  # on this page only so that the site's output check sees print(); tracing is the same
def double(t):
    print("inside, eagerly?", tf.executing_eagerly())
    #> inside, eagerly? False
    return t * 2


print(double(x))
#> tf.Tensor([2. 4. 6.], shape=(3,), dtype=float32)
# --8<-- [end:eager]

# --8<-- [start:why]
python_runs = 0  # how often the Python body of `step` has run


@tf.function
def step(t):
    global python_runs
    python_runs += 1  # Python code: it runs only while TensorFlow traces
    return tf.reduce_sum(t * t)


for value in range(100):
    step(tf.constant([float(value), 1.0]))  # 100 calls
print(python_runs, step.experimental_get_tracing_count())
#> 1 1
print(step(tf.constant([3.0, 4.0])))  # yet every call computes its own result
#> tf.Tensor(25.0, shape=(), dtype=float32)

# What those calls ran: the graph's TensorFlow operations, not the Python body.
step_graph = step.get_concrete_function(tf.constant([3.0, 4.0])).graph
print([op.type for op in step_graph.get_operations()])
#> ['Placeholder', 'Mul', 'Const', 'Sum', 'Identity']

# The price: a new shape (or dtype, or Python value) traces again.
step(tf.constant([1.0, 2.0, 3.0]))
print(python_runs, step.experimental_get_tracing_count())
#> 2 2
# --8<-- [end:why]

# --8<-- [start:tracing]
import pathlib
import tempfile

# tf.print writes to stderr by default; here into a file, to print what it wrote.
folder = tempfile.TemporaryDirectory()
log = pathlib.Path(folder.name) / "tf_print.txt"


@tf.function(autograph=False)
def scale(t):
    print("Python print: tracing scale")  # runs while TensorFlow traces the function
    #> Python print: tracing scale
    tf.print("tf.print: scale ran with", t, output_stream=f"file://{log}")  # an op of the graph
    return t * 10


for value in [1.0, 2.0, 3.0]:
    scale(tf.constant(value))
print(log.read_text().rstrip())
"""
tf.print: scale ran with 1
tf.print: scale ran with 2
tf.print: scale ran with 3
"""
print(scale.experimental_get_tracing_count())
#> 1


@tf.function  # with AutoGraph, the default: traced once too
def scale_autograph(t):
    return t * 10


for value in [1.0, 2.0, 3.0]:
    scale_autograph(tf.constant(value))
print(scale_autograph.experimental_get_tracing_count())
#> 1
# --8<-- [end:tracing]

# --8<-- [start:keras_print_intermediate]
import keras
import numpy as np

values_log = pathlib.Path(folder.name) / "keras_print.txt"
inputs = keras.Input((2,))
hidden = keras.layers.Dense(2, kernel_initializer="ones")(inputs)
tf.print("build time:", hidden, output_stream=f"file://{values_log}")  # once, with no values
print(values_log.read_text().split(" name=")[0])  # a symbolic KerasTensor
#> build time: <KerasTensor shape=(None, 2), dtype=float32, sparse=False, ragged=False,


def show(t):
    tf.print("hidden:", t, output_stream=f"file://{values_log}")  # an op: runs at every call
    return t  # the layer passes its input on unchanged


shown = keras.layers.Lambda(show)(hidden)
model = keras.Model(inputs, keras.layers.Dense(1)(shown))
values_log.unlink()
x = np.array([[1.0, 2.0]], dtype="float32")
model(x)
model.predict(2 * x, verbose=0)  # traced into a graph: tf.print still runs
print(values_log.read_text().rstrip())
"""
hidden: [[3 3]]
hidden: [[6 6]]
"""
# --8<-- [end:keras_print_intermediate]

# --8<-- [start:print_order]
v = tf.Variable(5)
log_unordered = pathlib.Path(folder.name) / "find_next_odd.txt"


@tf.function
def find_next_odd():  # the reader's function
    tf.print("1:", v, output_stream=f"file://{log_unordered}")
    v.assign(v + 1)
    tf.print("2:", v, output_stream=f"file://{log_unordered}")
    if v % 2 == 0:  # AutoGraph turns this into a tf.cond, the op named "cond"
        v.assign(v + 1)
        tf.print("3:", v, output_stream=f"file://{log_unordered}")


def waits_for(fn, name):  # the control dependencies tf.function added to an op
    ops = {op.name: op for op in fn.get_concrete_function().graph.get_operations()}
    return sorted(c.name for c in ops[name].control_inputs)


# PrintV2 is the first tf.print, PrintV2_1 the second; "cond" holds the third
print(waits_for(find_next_odd, "PrintV2_1"))
#> ['PrintV2']
print(waits_for(find_next_odd, "AssignVariableOp"))  # the assign waits for earlier reads
#> ['ReadVariableOp', 'StringFormat/ReadVariableOp']
print(waits_for(find_next_odd, "cond"))  # no PrintV2_1, no PrintV2: the third print may come first
#> ['AssignVariableOp', 'ReadVariableOp_1', 'StringFormat_1/ReadVariableOp']

log_ordered = pathlib.Path(folder.name) / "find_next_odd_ordered.txt"


@tf.function
def find_next_odd_ordered():
    tf.print("1:", v, output_stream=f"file://{log_ordered}")
    v.assign(v + 1)
    printed = tf.print("2:", v, output_stream=f"file://{log_ordered}")
    with tf.control_dependencies([printed]):
        is_even = v % 2 == 0  # reads v only after the second print
    if is_even:
        v.assign(v + 1)
        tf.print("3:", v, output_stream=f"file://{log_ordered}")


find_next_odd_ordered()
print(log_ordered.read_text().rstrip())
"""
1: 5
2: 6
3: 7
"""
print(waits_for(find_next_odd_ordered, "ReadVariableOp_1"))  # the read that "cond" takes
#> ['AssignVariableOp', 'PrintV2_1']

with tf.Graph().as_default():  # a TF1-style graph, outside tf.function
    w = tf.Variable(5)
    w.assign(6)
    printed = tf.print("2:", w)
    print(printed.control_inputs)  # nothing orders the print after the assign
    #> []
# --8<-- [end:print_order]

# --8<-- [start:retracing]
@tf.function(autograph=False)
def square(t):
    print("tracing for", t)
    #> tracing for Tensor("t:0", shape=(), dtype=float32)
    #> tracing for Tensor("t:0", shape=(2,), dtype=float32)
    #> tracing for Tensor("t:0", shape=(), dtype=int32)
    return t * t


# 2.0, then 3.0: one graph; [2.0, 3.0]: a new shape; 2: a new dtype (int32)
for value in [2.0, 3.0, [2.0, 3.0], 2]:
    square(tf.constant(value))
print(square.experimental_get_tracing_count())
#> 3


@tf.function(autograph=False)
def power(t, n):
    print("tracing for n =", n)
    #> tracing for n = 2
    #> tracing for n = 3
    return t**n


base = tf.constant(2.0)
power(base, 2)
power(base + 1, 2)  # another tensor value: the same graph
power(base, 3)  # a new Python value: a new graph
print(power.experimental_get_tracing_count())
#> 2
# --8<-- [end:retracing]

# --8<-- [start:retracing_warning]
import logging.handlers
import re

logged = logging.handlers.BufferingHandler(capacity=20)  # keeps what TensorFlow logs
tf.get_logger().addHandler(logged)


@tf.function
def halve(t):
    return t / 2


for n in range(1, 7):
    halve(tf.ones([n]))  # six shapes: six traces
print(halve.experimental_get_tracing_count(), len(logged.buffer))
#> 6 2
warning = logged.buffer[0].getMessage()
print(re.sub(r"0x[0-9a-f]+", "0x...", warning))  # the function's address varies from run to run
"""
5 out of the last 5 calls to <function halve at 0x...> triggered tf.function retracing. Tracing is expensive and the excessive number of tracings could be due to (1) creating @tf.function repeatedly in a loop, (2) passing tensors with different shapes, (3) passing Python objects instead of tensors. For (1), please define your @tf.function outside of the loop. For (2), @tf.function has reduce_retracing=True option that can avoid unnecessary retracing. For (3), please refer to https://www.tensorflow.org/guide/function#controlling_retracing and https://www.tensorflow.org/api_docs/python/tf/function for  more details.
"""
logged.buffer.clear()


@tf.function(reduce_retracing=True)  # the fix for (2): after a second shape, any length
def halve_any(t):
    return t / 2


for n in range(1, 7):
    halve_any(tf.ones([n]))
print(halve_any.experimental_get_tracing_count(), len(logged.buffer))
#> 2 0
tf.get_logger().removeHandler(logged)
# --8<-- [end:retracing_warning]

# --8<-- [start:signature]
@tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)], autograph=False)
def total(t):
    print("tracing for", t.shape)
    #> tracing for (None,)
    return tf.reduce_sum(t)


print(total(tf.ones([2])), total(tf.ones([3])))
#> tf.Tensor(2.0, shape=(), dtype=float32) tf.Tensor(3.0, shape=(), dtype=float32)
print(total.experimental_get_tracing_count())
#> 1
try:
    total(tf.ones([2], tf.int32))
except TypeError as err:
    print(str(err).split(". Received")[0])
    """
    Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(2,), dtype=tf.int32, name=None) to TensorSpec(shape=(None,), dtype=tf.float32, name=None)`
    """
# --8<-- [end:signature]

# --8<-- [start:signature_variable]
@tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
def double(x):
    return x * 2


a = tf.Variable([1.0, 2.0])
print(double(a), double(a.read_value()).numpy())  # TensorFlow 2.21 accepts both
#> tf.Tensor([2. 4.], shape=(2,), dtype=float32) [2. 4.]
try:
    double(tf.Variable([1.0], dtype=tf.float64))  # the dtype must still match
except TypeError as err:
    print(f"{type(err).__name__}: {str(err).split('. (Variable')[0]}")
    """
    TypeError: Binding inputs to tf.function failed due to `Incompatible type conversion requested to type float32 for `tf.Variable of type float64
    """
# --8<-- [end:signature_variable]

# --8<-- [start:signature_train_step]
import keras

keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((2, 4, 4, 1)), keras.layers.Flatten(), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.1)
loss_fn = keras.losses.MeanSquaredError()
try:  # a model is no tensor: the signature cannot describe it
    tf.function(lambda model, images: images, input_signature=[model, tf.TensorSpec(None)])
except TypeError as err:
    print(f"{type(err).__name__}: {str(err)[:70]}")
    #> TypeError: input_signature must be a possibly nested sequence of TensorSpec objec

# The fix: only the tensors in the signature; model, optimizer and loss are captured.
spec = [
    tf.TensorSpec([None, 2, 4, 4, 1], tf.float32),  # images, 5-D
    tf.TensorSpec([None, 2, 4, 4, 1], tf.uint8),  # masks, 5-D
]


@tf.function(input_signature=spec)
def train_step(images, masks):
    target = tf.reduce_mean(tf.cast(masks, tf.float32), axis=[1, 2, 3])
    with tf.GradientTape() as tape:
        loss = loss_fn(target, model(images, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables, strict=True))
    return loss


images, masks = np.ones((3, 2, 4, 4, 1), np.float32), np.ones((3, 2, 4, 4, 1), np.uint8)
train_step(images, masks)
train_step(images[:2], masks[:2])  # another batch size: the same graph
print(train_step.experimental_get_tracing_count())
#> 1
# --8<-- [end:signature_train_step]

# --8<-- [start:numpy_inside]
@tf.function(autograph=False)
def to_numpy(t):
    print(type(t).__name__, tf.executing_eagerly())
    #> SymbolicTensor False
    try:
        return t.numpy()
    except AttributeError as err:
        print(f"{type(err).__name__}: {err}")
        #> AttributeError: 'SymbolicTensor' object has no attribute 'numpy'
        return t


to_numpy(tf.constant([1.0, 2.0]))
# --8<-- [end:numpy_inside]

# --8<-- [start:lstm_build]
import keras

model = keras.Sequential([keras.Input((5, 3)), keras.layers.Bidirectional(keras.layers.LSTM(4))])
print(model.output_shape)  # builds symbolically
#> (None, 8)

# The call that failed: the LSTM's zero state has the shape [batch, units], where batch
# is the symbolic tf.shape(inputs)[0] (strided_slice), and TensorFlow's tf.zeros asks NumPy
# whether the shape is small, with np.prod. NumPy 1.20 and later turn the list into an
# array, which asks the tensor for its values.
@tf.function(autograph=False)  # traced as plain Python, as the layer's own code was
def zero_state(inputs):
    shape = [tf.shape(inputs)[0], 4]
    try:
        np.prod(shape)
    except NotImplementedError as err:
        print(f"{type(err).__name__}: {str(err).split('. This')[0]}.")
        """
        NotImplementedError: Cannot convert a symbolic tf.Tensor (strided_slice:0) to a numpy array.
        """
    return tf.zeros(shape)  # TensorFlow 2.21 catches that error


print(zero_state(tf.ones((2, 5, 3))).shape)  # tf.zeros builds the zero state all the same
#> (2, 4)
# --8<-- [end:lstm_build]

# --8<-- [start:convert_outside]
@tf.function
def normalise(t):
    tf.print("mean inside:", tf.reduce_mean(t), output_stream=f"file://{log}")
    return t / tf.reduce_max(t)


log.unlink()  # the tf.print file of the tracing example, emptied
result = normalise(tf.constant([1.0, 2.0, 4.0]))  # an eager tf.Tensor again
print(log.read_text().rstrip())
#> mean inside: 2.33333325
print(type(result).__name__, result.numpy())
#> EagerTensor [0.25 0.5  1.  ]
folder.cleanup()
# --8<-- [end:convert_outside]

# --8<-- [start:numpy_function]
seen = []  # what the Python function received, call by call


def numpy_median(a):
    seen.append(f"{type(a).__name__} {a}")
    return np.median(a).astype(np.float32)


@tf.function(autograph=False)
def median(t):
    m = tf.numpy_function(numpy_median, [t], tf.float32)
    print("static shape:", m.shape)  # TensorFlow cannot know what the Python function returns
    #> static shape: <unknown>
    return m


values = tf.constant([3.0, 1.0, 2.0])
print(median(values))
#> tf.Tensor(2.0, shape=(), dtype=float32)
print(median(values * 2))  # no new trace: the graph calls Python again
#> tf.Tensor(4.0, shape=(), dtype=float32)
print(seen, median.experimental_get_tracing_count())
#> ['ndarray [3. 1. 2.]', 'ndarray [6. 2. 4.]'] 1
graph = median.get_concrete_function(values).graph  # the graph traced for that call
print([op.type for op in graph.get_operations()])
#> ['Placeholder', 'PyFunc', 'Identity', 'NoOp']


@tf.function
def eager_inside(t):
    return tf.py_function(lambda e: e.numpy().sum() * 2, [t], tf.float32)


print(eager_inside(values))
#> tf.Tensor(12.0, shape=(), dtype=float32)
# --8<-- [end:numpy_function]

# --8<-- [start:dataset_map]
import warnings

dataset = tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0])


def double_with_numpy(t):
    return t.numpy() * 2


try:
    dataset.map(double_with_numpy)  # map traces the function, as tf.function does
except AttributeError as err:
    print(str(err).splitlines()[-1].strip())  # the message's last line; the lines above quote this file
    #> AttributeError: 'SymbolicTensor' object has no attribute 'numpy'

tf.config.run_functions_eagerly(True)  # makes tf.function eager, but not Dataset.map
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        dataset.map(double_with_numpy)
    except AttributeError as err:
        print(str(err).splitlines()[-1].strip())
        #> AttributeError: 'SymbolicTensor' object has no attribute 'numpy'
tf.config.run_functions_eagerly(False)
print([f"{w.category.__name__}: {w.message}" for w in caught])
"""
['UserWarning: Even though the `tf.config.experimental_run_functions_eagerly` option is set, this option does not apply to tf.data functions. To force eager execution of tf.data functions, please use `tf.data.experimental.enable_debug_mode()`.']
"""

# The fix: tf.py_function gives the function eager tensors, on which numpy() works.
doubled = dataset.map(lambda t: tf.py_function(double_with_numpy, [t], tf.float32))
print(np.array(list(doubled.as_numpy_iterator())))
#> [2. 4. 6.]
print(doubled.element_spec)  # the shape is unknown, as with tf.numpy_function
#> TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)
print(doubled.batch(2).element_spec)  # batching keeps the shape unknown
#> TensorSpec(shape=<unknown>, dtype=tf.float32, name=None)


def double_with_shape(t):
    result = tf.py_function(double_with_numpy, [t], tf.float32)
    result.set_shape(t.shape)  # tell the graph the shape py_function cannot know
    return result


print(dataset.map(double_with_shape).element_spec)
#> TensorSpec(shape=(), dtype=tf.float32, name=None)
# --8<-- [end:dataset_map]

# --8<-- [start:padded_batch_unknown]
print("tf.py_func:", hasattr(tf, "py_func"))  # TensorFlow 1 only
#> tf.py_func: False
sentences = tf.data.Dataset.from_tensor_slices(["the cat sat", "a dog"])


def word_lengths(sentence):
    """A tokenizer in Python: one number per word, as many as the sentence has words."""
    return np.array([len(word) for word in sentence.numpy().decode().split()], np.int32)


def tokenize(sentence):
    return tf.py_function(word_lengths, [sentence], tf.int32)


tokens = sentences.map(tokenize)
print(tokens.element_spec)  # py_function cannot say its result's rank
#> TensorSpec(shape=<unknown>, dtype=tf.int32, name=None)
try:
    tokens.padded_batch(2)
except ValueError as err:
    print(type(err).__name__, err)
    #> ValueError You must provide `padded_shapes` argument because component 0 has unknown rank.
legacy = sentences.map(lambda s: tf.compat.v1.py_func(word_lengths, [s], tf.int32))  # TF1's tf.py_func
print(legacy.element_spec)
#> TensorSpec(shape=<unknown>, dtype=tf.int32, name=None)


# The fix: give the result its rank, one axis of any length, before padded_batch.
def tokenize_with_shape(sentence):
    ids = tf.py_function(word_lengths, [sentence], tf.int32)
    ids.set_shape([None])
    return ids


print(list(sentences.map(tokenize_with_shape).padded_batch(2).as_numpy_iterator()))
"""
[array([[3, 3, 3],
       [1, 3, 0]], dtype=int32)]
"""
print(list(tokens.padded_batch(2, padded_shapes=[None]).as_numpy_iterator()))  # or say it here
"""
[array([[3, 3, 3],
       [1, 3, 0]], dtype=int32)]
"""
# --8<-- [end:padded_batch_unknown]

# --8<-- [start:static_shape]
batches = tf.data.Dataset.from_tensor_slices(np.zeros((5, 2, 3), np.float32)).batch(2)
print(batches.element_spec)  # the last batch may be shorter: the batch size is None
#> TensorSpec(shape=(None, 2, 3), dtype=tf.float32, name=None)


def flatten_static(x):
    return tf.reshape(x, [1, x.shape[0], 6])  # x.shape[0] is None while map traces


try:
    batches.map(flatten_static)
except TypeError as err:
    print(str(err).splitlines()[-1].strip())  # the lines above quote this file
    """
    TypeError: Failed to convert elements of [1, None, 6] to Tensor. Consider casting elements to a supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF dtypes.
    """


def flatten_dynamic(x):
    return tf.reshape(x, [1, tf.shape(x)[0], 6])  # tf.shape: the size on each call


print([b.shape for b in batches.map(flatten_dynamic)])
#> [TensorShape([1, 2, 6]), TensorShape([1, 2, 6]), TensorShape([1, 1, 6])]
print([b.shape for b in batches.map(lambda x: tf.reshape(x, [1, -1, 6]))])  # or -1
#> [TensorShape([1, 2, 6]), TensorShape([1, 2, 6]), TensorShape([1, 1, 6])]
# --8<-- [end:static_shape]

# --8<-- [start:dict_lookup]
label_ids = {"cat": 0, "dog": 1, "bird": 2}
labels = tf.data.Dataset.from_tensor_slices(["dog", "bird", "cat"])
try:
    labels.map(lambda label: label_ids[label])  # a Python dict, looked up with a tensor
except TypeError as err:
    print(str(err).splitlines()[-1].strip())  # the lines above quote this file
    #> TypeError: Tensor is unhashable. Instead, use tensor.ref() as the key.
try:
    label_ids[tf.constant("dog")]  # eagerly too
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Tensor is unhashable. Instead, use tensor.ref() as the key.
print(tf.constant([1, 2]) == tf.constant([1, 3]))  # == compares element by element
#> tf.Tensor([ True False], shape=(2,), dtype=bool)
print(tf.constant("dog").ref() in {tf.constant("dog").ref(): 1})  # ref() keys the object, not the value
#> False

# The fix: a lookup table, which TensorFlow looks up inside the graph.
table = tf.lookup.StaticHashTable(
    tf.lookup.KeyValueTensorInitializer(list(label_ids), list(label_ids.values())), default_value=-1
)
print(labels.map(table.lookup).batch(3).get_single_element())
#> tf.Tensor([1 2 0], shape=(3,), dtype=int32)
print(table.lookup(tf.constant(["cat", "fish"])))  # a key not in the table: default_value
#> tf.Tensor([ 0 -1], shape=(2,), dtype=int32)
# --8<-- [end:dict_lookup]

# --8<-- [start:variables]
@tf.function
def scale(x):
    w = tf.Variable(2.0)  # a new variable on every trace
    return w * x


try:
    scale(tf.constant(1.0))
except ValueError as err:
    print(str(err).splitlines()[-1].strip())
    """
    ValueError: tf.function only supports singleton tf.Variables created on the first call. Make sure the tf.Variable is only created once or created outside tf.function. See https://www.tensorflow.org/guide/function#creating_tfvariables for more information.
    """


@tf.function
def step(x, first):
    if not first:
        tf.Variable(0.0)  # created only by a later trace
    return x


step(tf.constant(1.0), True)
try:
    step(tf.constant(1.0), False)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Creating variables on a non-first call to a function decorated with tf.function.

w = tf.Variable(2.0)  # the fix: create it once, outside, and assign inside


@tf.function
def scale_and_grow(x):
    w.assign_add(1.0)
    return w * x


print(scale_and_grow(tf.constant(1.0)), scale_and_grow(tf.constant(1.0)))
#> tf.Tensor(3.0, shape=(), dtype=float32) tf.Tensor(4.0, shape=(), dtype=float32)

tf.config.run_functions_eagerly(True)  # also hides the error: no graph at all
print(scale(tf.constant(1.0)))  # no error now, but a new variable on every call
#> tf.Tensor(2.0, shape=(), dtype=float32)


@tf.function
def is_eager():
    return tf.executing_eagerly()


print(is_eager())
#> True
tf.config.run_functions_eagerly(False)
print(is_eager())
#> tf.Tensor(False, shape=(), dtype=bool)
# --8<-- [end:variables]

# --8<-- [start:variable_factory]
@tf.function
def new_weight(shape):  # meant to give a new weight matrix on each call
    return tf.Variable(tf.random.normal(shape))


try:
    new_weight((2, 3))
except ValueError as err:
    print(str(err).splitlines()[-1].strip()[:84])
    #> ValueError: tf.function only supports singleton tf.Variables created on the first ca


def new_weight(shape):  # the fix: no tf.function on the helper that creates variables
    return tf.Variable(tf.random.normal(shape))


class Net(tf.Module):  # a module keeps the variables alive and lists them
    def __init__(self, sizes):
        self.weights = [new_weight((m, n)) for m, n in zip(sizes[:-1], sizes[1:], strict=True)]

    @tf.function  # the computation that uses them can be a tf.function
    def __call__(self, x):
        for w in self.weights:
            x = tf.matmul(x, w)
        return x


net = Net([4, 3, 3, 2])
print(len(net.trainable_variables), net(tf.ones((1, 4))).shape)
#> 3 (1, 2)
# --8<-- [end:variable_factory]

# --8<-- [start:optimizer_variables]
import keras

v = tf.Variable([1.0, 2.0])
fast = keras.optimizers.Adam(1e-3)
slow = keras.optimizers.Adam(1e-12)


@tf.function
def apply_once(optimizer, grads, variables):
    optimizer.apply_gradients(zip(grads, variables, strict=True))  # creates Adam's variables on first use


apply_once(fast, [tf.ones(2)], [v])  # first trace: fast's variables are created
try:
    apply_once(slow, [tf.ones(2)], [v])  # second trace: slow's variables would be created
except ValueError as err:
    print(str(err).splitlines()[-1].strip().split(". ")[0])
    #> ValueError: tf.function only supports singleton tf.Variables created on the first call


@tf.function
def build_and_run(x):  # a model created inside the function
    return keras.Sequential([keras.layers.Dense(1)])(x)


try:
    build_and_run(tf.ones((4, 3)))
except ValueError as err:
    print(str(err).splitlines()[-1].strip().split(". ")[0])
    #> ValueError: tf.function only supports singleton tf.Variables created on the first call
# The fix: create models and optimizers outside, and build each optimizer before the first call.
fast, slow = keras.optimizers.Adam(1e-3), keras.optimizers.Adam(1e-12)
fast.build([v])
slow.build([v])
apply_once(fast, [tf.ones(2)], [v])
apply_once(slow, [tf.ones(2)], [v])
print([int(opt.iterations) for opt in (fast, slow)])
#> [1, 1]
# --8<-- [end:optimizer_variables]

# --8<-- [start:variables_trace_twice]
traces = []


class LazyScale(tf.Module):
    def __init__(self):
        self.w = None

    @tf.function
    def __call__(self, x):
        traces.append("tracing")  # Python code, like print: runs only while tracing
        if self.w is None:
            self.w = tf.Variable(2.0)  # created on the first call
        return self.w * x


lazy = LazyScale()
lazy(tf.constant(1.0))
print("variable created on the first call, traces:", len(traces))
#> variable created on the first call, traces: 2
lazy(tf.constant(2.0))
print("after a second call:", len(traces))
#> after a second call: 2

traces.clear()


class Scale(tf.Module):
    def __init__(self):
        self.w = tf.Variable(2.0)  # created once, before any trace

    @tf.function
    def __call__(self, x):
        traces.append("tracing")
        return self.w * x


scale_module = Scale()
scale_module(tf.constant(1.0))
scale_module(tf.constant(2.0))
print("variable created in __init__, traces:", len(traces))
#> variable created in __init__, traces: 1
# --8<-- [end:variables_trace_twice]

# --8<-- [start:tensor_bool]
@tf.function(autograph=False)
def relu(t):
    if t > 0:  # Python asks the symbolic tensor for True or False
        return t
    return tf.zeros_like(t)


try:
    relu(tf.constant(2.0))
except tf.errors.OperatorNotAllowedInGraphError as err:
    print(f"{type(err).__name__}: {err}")
    """
    OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the following resolutions to the problem: If you are running in Graph mode, use Eager execution mode or decorate this function with @tf.function. If you are using AutoGraph, you can try decorating this function with @tf.function. If that does not work, then you may be using an unsupported feature or your source code may not be visible to AutoGraph. See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md#access-to-source-code for more information.
    """


@tf.function  # AutoGraph, the default, turns the if into a graph operation
def relu_autograph(t):
    if t > 0:
        return t
    return tf.zeros_like(t)


print(relu_autograph(tf.constant(2.0)), relu_autograph(tf.constant(-2.0)))
#> tf.Tensor(2.0, shape=(), dtype=float32) tf.Tensor(0.0, shape=(), dtype=float32)
branches = relu_autograph.get_concrete_function(tf.constant(2.0)).graph
print([op.type for op in branches.get_operations() if "If" in op.type])
#> ['StatelessIf']


@tf.function(autograph=False)
def relu_explicit(t):  # without AutoGraph: tf.cond for a scalar, tf.where element by element
    return tf.cond(t > 0, lambda: t, lambda: tf.zeros_like(t)), tf.where(t > 0, t, 0.0)


print(relu_explicit(tf.constant(-2.0)))
"""
(<tf.Tensor: shape=(), dtype=float32, numpy=0.0>, <tf.Tensor: shape=(), dtype=float32, numpy=0.0>)
"""
# --8<-- [end:tensor_bool]

# --8<-- [start:autograph_not_converted]
def dict_arg(arg):  # the reader's function, which takes a dict
    img = arg["image"]
    if tf.random.uniform(()) > 0.5:
        img = img * 2
    return img


images = {"image": tf.range(8)}
print(tf.function(dict_arg)(images).shape)  # AutoGraph converts it
#> (8,)
try:  # unconverted, as when AutoGraph fails (the reader's gast): the if runs as Python
    tf.function(dict_arg, autograph=False)(images)
except tf.errors.OperatorNotAllowedInGraphError as err:
    print(f"{type(err).__name__}: {str(err).split('. You')[0]}.")
    """
    OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool` is not allowed.
    """


@tf.function(autograph=False)
def dict_cond(arg):  # tf.cond: a branch in the graph, without AutoGraph
    img = arg["image"]
    return tf.cond(tf.random.uniform(()) > 0.5, lambda: img * 2, lambda: img)


print(dict_cond(images).shape)
#> (8,)
# --8<-- [end:autograph_not_converted]

# --8<-- [start:nested_get_layer]
import keras

inner = keras.Sequential(
    [keras.Input((4,)), keras.layers.Dense(4), keras.layers.BatchNormalization(name="bn"), keras.layers.GaussianNoise(0.1)],
    name="inner",
)
outer = keras.Sequential([keras.Input((4,)), inner, keras.layers.Dense(1)])
try:  # the outer model's input, a layer output from inside the nested model
    keras.Model(outer.inputs, outer.get_layer("inner").get_layer("bn").output)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Output with path `` is not connected to `inputs`
features = keras.Model(inner.inputs, inner.get_layer("bn").output)  # fix 1: the nested model's own input
print(features(np.ones((2, 4))).shape)
#> (2, 4)
new_input = keras.Input((4,))  # fix 2: call the layers again on a new Input
hidden = inner.layers[1](inner.layers[0](new_input), training=False)  # training given, not symbolic
print(keras.Model(new_input, hidden)(np.ones((2, 4))).shape)
#> (2, 4)
# --8<-- [end:nested_get_layer]

# --8<-- [start:assign_in_call]
class CausalBuffer(keras.layers.Layer):  # the reader's pattern: copy inputs into a Variable
    def build(self, input_shape):
        self.z = tf.Variable(tf.zeros((1, 8, 1)), trainable=False)

    def call(self, inputs):
        for i in range(4):
            self.z[0, 4 + i, 0].assign(inputs[0, i, 0])
        return self.z * 1.0


class CausalPad(keras.layers.Layer):  # the fix: build the result from the inputs
    def call(self, inputs):
        return tf.pad(inputs, [[0, 0], [4, 0], [0, 0]])


signal = tf.constant(np.arange(1.0, 9.0, dtype="float32").reshape(2, 4, 1))  # two samples
for layer in [CausalBuffer(), CausalPad()]:
    inputs = keras.Input((4, 1))
    model = keras.Model(inputs, layer(inputs))  # both build without an error
    with tf.GradientTape() as tape:
        tape.watch(signal)
        out = model(signal)
        total = tf.reduce_sum(out)
    grad = tape.gradient(total, signal)
    print(type(layer).__name__, out.shape, None if grad is None else grad.numpy().ravel().tolist())
    #> CausalBuffer (1, 8, 1) None
    #> CausalPad (2, 8, 1) [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
# --8<-- [end:assign_in_call]

# --8<-- [start:list_append]
import re


@tf.function
def tf_function_with_loop(num_iter):
    digit_list = []
    for i in tf.range(num_iter):  # AutoGraph turns this loop into a graph's while loop
        digit_list.append(i)
    return tf.add_n(digit_list)


try:
    tf_function_with_loop(5)
except ValueError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
    """
    InaccessibleTensorError: <tf.Tensor 'while/Placeholder:0' shape=() dtype=int32> is out of scope and cannot be used here. Use return values, explicit Python locals or TensorFlow collections to access it.
    """
    print(re.sub(r"(_\d+)?, id=\d+", "", str(err).strip().splitlines()[-1]))  # without the graphs' ids
    """
    The tensor <tf.Tensor 'while/Placeholder:0' shape=() dtype=int32> cannot be accessed from FuncGraph(name=tf_function_with_loop), because it was defined in FuncGraph(name=while_body), which is out of scope.
    """
print(tf_function_with_loop.python_function(5))  # the same code, eagerly: it works
#> tf.Tensor(10, shape=(), dtype=int32)


@tf.function
def with_tensor_array(num_iter):
    digits = tf.TensorArray(tf.int32, size=num_iter)
    for i in tf.range(num_iter):
        digits = digits.write(i, i)  # write returns the array to keep
    return tf.reduce_sum(digits.stack())


print(with_tensor_array(5))
#> tf.Tensor(10, shape=(), dtype=int32)


@tf.function
def with_python_range(num_iter):
    digit_list = []
    for i in range(num_iter):  # a Python int: the loop runs while tracing, once per step
        digit_list.append(tf.constant(i))
    return tf.add_n(digit_list)


print(with_python_range(5))
#> tf.Tensor(10, shape=(), dtype=int32)
# --8<-- [end:list_append]

# --8<-- [start:tnp]
import tensorflow.experimental.numpy as tnp

a = tnp.asarray([1, 2, 3], dtype=tnp.int32)
b = tnp.asarray([0.5, 1.0, 1.5], dtype=tnp.float32)
c = tnp.add(a, b)
print(type(c).__name__, c.dtype)
#> EagerTensor <dtype: 'float64'>
print(tnp.mean(c))
#> tf.Tensor(3.0, shape=(), dtype=float64)
print(tnp.asarray(1.5).dtype, tf.constant(1.5).dtype)  # a Python float: NumPy's default, TF's
#> <dtype: 'float64'> <dtype: 'float32'>
print(np.add(np.asarray([1, 2, 3], np.int32), np.asarray([0.5, 1.0, 1.5], np.float32)).dtype)
#> float64
try:
    a + b  # the operator is still TensorFlow's
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {err}")
    """
    InvalidArgumentError: cannot compute AddV2 as input #1(zero-based) was expected to be a int32 tensor but is a float tensor [Op:AddV2] name:
    """
print(hasattr(a, "reshape"), hasattr(a, "T"))
#> False False
# --8<-- [end:tnp]

# --8<-- [start:tnp_graph]
@tf.function
def centred(t):
    return t - tnp.mean(t, axis=0)


print(centred(tnp.asarray([[1.0, 2.0], [3.0, 6.0]])))
"""
tf.Tensor(
[[-1. -2.]
 [ 1.  2.]], shape=(2, 2), dtype=float64)
"""
# --8<-- [end:tnp_graph]

# --8<-- [start:port_numpy]
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
q_values = rng.normal(0, 0.03, (32, 6)).astype(np.float32)  # 32 rows (a batch), 6 actions
next_q = rng.normal(0, 0.03, (32, 6)).astype(np.float32)
actions = rng.integers(0, 6, 32)  # the action taken in each row
rewards = rng.normal(0, 1, 32).astype(np.float32)
dones = rng.random(32) < 0.25
gamma = 0.99


def targets_numpy(q_values, next_q, actions, rewards, dones):
    new_values = rewards + gamma * next_q.max(axis=1)
    new_values[dones] = rewards[dones]  # a boolean mask: no next state after the last step
    target_values = q_values.copy()
    target_values[np.arange(len(actions)), actions] = new_values  # one element in each row
    return target_values


@tf.function
def targets_as_written(q_values, next_q, actions, rewards, dones):
    new_values = rewards + gamma * tf.reduce_max(next_q, axis=1)
    target_values = tf.identity(q_values)
    target_values[tf.range(32), actions] = new_values  # NumPy's item assignment
    return target_values


try:
    targets_as_written(q_values, next_q, actions, rewards, dones)
except TypeError as err:
    print(str(err).strip().splitlines()[-1].strip())  # the message's last line; the others name this file
    #> TypeError: 'SymbolicTensor' object does not support item assignment


# The port: tf.where for the mask, tf.tensor_scatter_nd_update for the assignment.
@tf.function
def targets_tf(q_values, next_q, actions, rewards, dones):
    new_values = tf.where(dones, rewards, rewards + gamma * tf.reduce_max(next_q, axis=1))
    rows = tf.range(tf.shape(actions)[0], dtype=actions.dtype)
    indices = tf.stack([rows, actions], axis=1)  # (32, 2): the (row, column) of each new value
    return tf.tensor_scatter_nd_update(q_values, indices, new_values)  # a new tensor


expected = targets_numpy(q_values, next_q, actions, rewards, dones)
result = targets_tf(q_values, next_q, actions, rewards, dones)
print(result.shape, result.dtype.name, "same as NumPy:", np.allclose(result, expected))
#> (32, 6) float32 same as NumPy: True

# A tf.Variable is written in place, with the same indices.
variable = tf.Variable(q_values)
indices = np.stack([np.arange(32), actions], axis=1)
variable.scatter_nd_update(indices, np.where(dones, rewards, rewards + gamma * next_q.max(axis=1)))
print("same as NumPy:", np.allclose(variable.numpy(), expected))
#> same as NumPy: True
# --8<-- [end:port_numpy]

# --8<-- [start:tf_set_seed_tensor]
@tf.function
def replica_noise(seed: tf.Tensor) -> tf.Tensor:
    tf.random.set_seed(seed)  # a tensor: the seed of each replica
    return tf.random.normal([2])


try:
    replica_noise(tf.constant(3))
except Exception as err:
    message = str(err).strip().splitlines()[-1].strip()
    print(message[: message.index("allowed.") + len("allowed.")])
    """
    OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool` is not allowed.
    """


@tf.function
def stateless_replica_noise(seed: tf.Tensor) -> tf.Tensor:
    return tf.random.stateless_normal([2], seed=tf.stack([seed, 0]))  # a seed tensor is fine


three, four = stateless_replica_noise(tf.constant(3)), stateless_replica_noise(tf.constant(4))
print("seeds 3 and 4 differ:", not np.array_equal(three, four))
#> seeds 3 and 4 differ: True
print("seed 3 again, same numbers:", np.array_equal(three, stateless_replica_noise(tf.constant(3))))
#> seed 3 again, same numbers: True
# --8<-- [end:tf_set_seed_tensor]
