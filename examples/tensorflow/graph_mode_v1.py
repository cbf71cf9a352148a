"""TensorFlow 1.x graph mode in TensorFlow 2: after tf.compat.v1.disable_eager_execution(),
tensors and variables hold no values until a Session runs them.

Run with `python examples/tensorflow/graph_mode_v1.py`. disable_eager_execution changes
TensorFlow for the whole process, so the test suite runs it in a process of its own (the launch
line below).
"""
# launch: python 1

# --8<-- [start:disable_eager]
import tensorflow as tf

tf.compat.v1.disable_eager_execution()  # before any graph, operation or tensor is created
print(tf.executing_eagerly())
#> False

total = tf.constant([1.0, 2.0]) * 3  # a node of the graph, with no value yet
weights = tf.Variable([0.5, 0.5])
try:
    total.numpy()
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: 'SymbolicTensor' object has no attribute 'numpy'
try:
    weights.numpy()
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    #> NotImplementedError: numpy() is only available when eager execution is enabled.

# In graph mode, a Session computes values: run returns NumPy arrays.
with tf.compat.v1.Session() as session:
    session.run(tf.compat.v1.global_variables_initializer())  # variables start uninitialised
    total_value, weights_value = session.run([total, weights])
    print(type(total_value).__name__, total_value, weights_value)
    #> ndarray [3. 6.] [0.5 0.5]
    print(total.eval(session=session))  # eval: the same, one tensor at a time
    #> [3. 6.]
# --8<-- [end:disable_eager]

# --8<-- [start:tape_graph]
x = tf.constant(2.0)
print(tf.executing_eagerly())  # the first thing to check: False for the whole program
#> False
with tf.GradientTape() as tape:  # plain code, no tf.function: still a graph in this mode
    tape.watch(x)
    y = x * x * x
gradient = tape.gradient(y, x)
try:
    gradient.numpy()
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: 'SymbolicTensor' object has no attribute 'numpy'
with tf.compat.v1.Session() as session:
    print(session.run(gradient))  # 3 * x**2 at x = 2
    #> 12.0

try:
    tf.compat.v1.enable_eager_execution()  # too late: graph mode has been used
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: tf.enable_eager_execution must be called at program startup.
# --8<-- [end:tape_graph]
