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
