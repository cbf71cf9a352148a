"""Errors and warnings met when converting between NumPy, PyTorch and TensorFlow.

Each section triggers one error as readers meet it, prints the message as a traceback's
last line shows it, then shows the fix working.

Run with `python examples/errors/conversion_errors.py`.
"""

# --8<-- [start:list_of_tensors]
import torch

rows = [torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])]
for make in (torch.tensor, torch.Tensor):  # a list of tensors of more than one element each
    try:
        make(rows)
    except ValueError as err:
        print(f"{make.__name__}: {type(err).__name__}: {err}")
        #> tensor: ValueError: only one element tensors can be converted to Python scalars
        #> Tensor: ValueError: only one element tensors can be converted to Python scalars

# float() of a tensor with several elements raises the same error.
try:
    float(rows[0])
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: only one element tensors can be converted to Python scalars

# The fix: stack the tensors along a new first dimension.
print(torch.stack(rows))
"""
tensor([[1., 2.],
        [3., 4.]])
"""
# --8<-- [end:list_of_tensors]

# --8<-- [start:where_several_matches]
import torch

IMAGE_TOKEN = 32000
input_ids = torch.tensor([[1, 32000, 32000, 32000, 319, 1967]])  # the image token, 3 times
rows, columns = torch.where(input_ids == IMAGE_TOKEN)
print(columns)
#> tensor([1, 2, 3])
try:
    int(columns)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: only one element tensors can be converted to Python scalars
try:
    columns.item()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: a Tensor with 3 elements cannot be converted to Scalar
# No match at all fails the same way: int() needs exactly one element.
try:
    int(torch.where(input_ids == 32001)[1])
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: only one element tensors can be converted to Python scalars

# The fix: count the matches, then take the one you mean, or keep them all.
print(columns.numel(), int(columns[0]), int(columns[-1]), columns.tolist())
#> 3 1 3 [1, 2, 3]
# --8<-- [end:where_several_matches]

# --8<-- [start:numpy_element_sequence]
import numpy as np

a = np.zeros(3)  # one number per element
try:
    a[0] = [1, 2]
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: setting an array element with a sequence.
counts = np.zeros(3, dtype=int)  # the same in an integer array
try:
    counts[0] = [1, 2]
except (TypeError, ValueError) as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: int() argument must be a string, a bytes-like object or a real number, not 'list'

# The fix: one number per element...
counts[0] = 1
print(counts)
#> [1 0 0]
# ...or an axis for the pairs: row 0 holds two numbers.
pairs = np.zeros((3, 2), dtype=int)
pairs[0] = [1, 2]
print(pairs.tolist())
#> [[1, 2], [0, 0], [0, 0]]
# ...or, if one slot really must hold a list, an object array (which PyTorch cannot convert).
slots = np.empty(3, dtype=object)
slots[0] = [1, 2]
print(slots)
#> [list([1, 2]) None None]
# --8<-- [end:numpy_element_sequence]

# --8<-- [start:list_of_tensors_sizes]
import numpy as np
from torch.nn.utils.rnn import pad_sequence

labels = [torch.tensor([1, 0, 2]), torch.tensor([2, 1]), torch.tensor([0])]  # different lengths
try:
    torch.tensor(labels, dtype=torch.long)  # the reader's call
except (TypeError, ValueError) as err:  # integer tensors: a TypeError, same cause
    print(f"{type(err).__name__}: {err}")
    #> TypeError: only integer tensors of a single element can be converted to an index
try:
    torch.stack(labels)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: stack expects each tensor to be equal size, but got [3] at entry 0 and [2] at entry 1
    """
try:
    np.array(labels)  # through NumPy: refused too
except ValueError as err:
    print(f"{type(err).__name__}: {str(err).split('. ')[0]}.")
    #> ValueError: setting an array element with a sequence.

print(torch.cat(labels))  # one flat tensor, when the positions do not matter
#> tensor([1, 0, 2, 2, 1, 0])
print(pad_sequence(labels, batch_first=True, padding_value=-100))  # rows padded to one length
"""
tensor([[   1,    0,    2],
        [   2,    1, -100],
        [   0, -100, -100]])
"""
print([t.long() for t in labels])  # or keep a list, one tensor each
#> [tensor([1, 0, 2]), tensor([2, 1]), tensor([0])]
print(torch.tensor([t.item() for t in [torch.tensor(3), torch.tensor(5)]]))  # one value each
#> tensor([3, 5])
# --8<-- [end:list_of_tensors_sizes]

# --8<-- [start:ragged_list_torch]
ragged = [[1, 2, 3], [4, 5]]  # rows of different lengths
try:
    torch.tensor(ragged)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: expected sequence of length 3 at dim 1 (got 2)

# The fix: pad the rows to one length (or keep them as separate tensors).
padded = torch.nn.utils.rnn.pad_sequence(
    [torch.tensor(row) for row in ragged], batch_first=True, padding_value=0
)
print(padded)
"""
tensor([[1, 2, 3],
        [4, 5, 0]])
"""
# --8<-- [end:ragged_list_torch]

# --8<-- [start:not_a_sequence]
points = [(72.4, 72.12), 73.36]  # a pair, then a bare number
try:
    torch.tensor(points)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: not a sequence
try:
    torch.tensor([73.36, (72.4, 72.12)])  # the bare number first: another message
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: must be real number, not tuple

# The fix: every element with the same nesting and length, padded where a value is missing.
print(torch.tensor([(72.4, 72.12), (73.36, 0.0)]))
"""
tensor([[72.4000, 72.1200],
        [73.3600,  0.0000]])
"""
# Or, if the numbers are one series, a flat list.
print(torch.tensor([72.4, 72.12, 73.36]))
#> tensor([72.4000, 72.1200, 73.3600])
# --8<-- [end:not_a_sequence]

# --8<-- [start:inhomogeneous_numpy]
import numpy as np

ragged = [[1, 2, 3], [4, 5]]
try:
    np.array(ragged)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 dimensions. The detected shape was (2,) + inhomogeneous part.
    """

# The fix: pad the rows yourself, into an array of the full shape.
lengths = [len(row) for row in ragged]
filled = np.zeros((len(ragged), max(lengths)), dtype=np.int64)
for i, row in enumerate(ragged):
    filled[i, : len(row)] = row
print(filled)
"""
[[1 2 3]
 [4 5 0]]
"""
# --8<-- [end:inhomogeneous_numpy]

# --8<-- [start:object_array]
# dtype=object silences NumPy, but the array holds Python objects, not numbers.
objects = np.array([np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0])], dtype=object)
print(objects.dtype, objects.shape)
#> object (2,)
try:
    torch.from_numpy(objects)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: can't convert np.ndarray of type numpy.object_. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.
    """

# The fix: one tensor per row, or a padded numeric array (as above).
print([torch.from_numpy(row) for row in objects])
#> [tensor([1., 2., 3.], dtype=torch.float64), tensor([4., 5.], dtype=torch.float64)]

# The list is what from_numpy accepts; tensors have more dtypes, which NumPy itself lacks.
print(torch.ones(2, dtype=torch.bfloat16).dtype, torch.ones(2, dtype=torch.float8_e4m3fn).dtype)
#> torch.bfloat16 torch.float8_e4m3fn

# np.array of a dict's values() view makes a 0-d object array holding the view itself.
class_weights = {0: 1.0, 1: 2.5}
view_array = np.array(class_weights.values())
print(view_array.dtype, view_array.shape)
#> object ()
try:
    torch.tensor(view_array)
except TypeError as err:
    print(f"{type(err).__name__}: {str(err)[:47]}")
    #> TypeError: can't convert np.ndarray of type numpy.object_.
# The fix: a list of the values gives the numbers (np.array of the list would make them float64).
print(torch.tensor(np.array(list(class_weights.values()))).dtype)
#> torch.float64
print(torch.tensor(list(class_weights.values())))
#> tensor([1.0000, 2.5000])
# --8<-- [end:object_array]

# --8<-- [start:mixed_columns]
import numpy as np
import torch

# What a DataFrame's .values gives for a float column beside bool dummy columns (pandas is
# not installed here): one object array, each cell a Python float or bool.
values = np.array([[22.0, True, False], [38.0, False, True]], dtype=object)
try:
    torch.tensor(values, dtype=torch.float)  # dtype= does not convert the objects
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: can't convert np.ndarray of type numpy.object_. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool.
    """

# The fix: make the array numeric first (pandas: df.astype(float) or df.to_numpy(dtype=float)).
print(torch.tensor(values.astype(float), dtype=torch.float))
"""
tensor([[22.,  1.,  0.],
        [38.,  0.,  1.]])
"""
print(torch.from_numpy(values.astype(np.float32)).dtype)
#> torch.float32

# A text column not yet encoded cannot become a float:
raw = np.array([[22.0, "male"], [38.0, "female"]], dtype=object)
try:
    raw.astype(float)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: could not convert string to float: 'male'
# --8<-- [end:mixed_columns]

# --8<-- [start:object_array_broadcast]
import numpy as np

same_rows = [np.zeros((10, 5)), np.zeros((10, 8))]  # first dimensions equal, second differ
try:
    np.array(same_rows, dtype=object)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: could not broadcast input array from shape (10,5) into shape (10,)
other_rows = [np.zeros((10, 5)), np.zeros((12, 5))]  # first dimensions differ
print(np.array(other_rows, dtype=object).shape)  # works: a (2,) object array
#> (2,)
try:
    np.array(same_rows)  # without dtype=object: the inhomogeneous-shape error
except ValueError as err:
    print(f"{type(err).__name__}: {str(err).split('. ')[1]}")
    #> ValueError: The requested array has an inhomogeneous shape after 2 dimensions

# The fix: make the (2,) object array first, then store each array in one element.
holder = np.empty(len(same_rows), dtype=object)
for i, arr in enumerate(same_rows):
    holder[i] = arr
print(holder.shape, holder[0].shape, holder[1].shape, holder[1] is same_rows[1])
#> (2,) (10, 5) (10, 8) True
# --8<-- [end:object_array_broadcast]

# --8<-- [start:image_list_greyscale]
import io

import numpy as np
from PIL import Image

# Three 224 x 224 image files, as a folder holds them: two RGB and one greyscale (mode "L").
files = []
for mode in ["RGB", "RGB", "L"]:
    buffer = io.BytesIO()
    Image.new(mode, (224, 224)).save(buffer, format="PNG")
    files.append(buffer)
images = [np.asarray(Image.open(file)) for file in files]
print([image.shape for image in images])
#> [(224, 224, 3), (224, 224, 3), (224, 224)]
try:
    np.array(images)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: setting an array element with a sequence. The requested array has an inhomogeneous shape after 3 dimensions. The detected shape was (3, 224, 224) + inhomogeneous part.
    """
try:
    np.array(images, dtype=object)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: could not broadcast input array from shape (224,224,3) into shape (224,224)
try:
    np.stack(images)
except ValueError as err:
    print(f"np.stack: {err}")
    #> np.stack: all input arrays must have the same shape

# Which images are the odd ones: their positions in the list.
print([i for i, image in enumerate(images) if image.shape != (224, 224, 3)])
#> [2]

# The fix: give every image three channels when it is loaded (RGBA and palette images too).
images = [np.asarray(Image.open(file).convert("RGB")) for file in files]
print(np.array(images).shape, np.stack(images).dtype)
#> (3, 224, 224, 3) uint8
# convert("RGB") gives RGBA (4 channels) and palette ("P") images three channels too.
print([np.asarray(Image.new(mode, (2, 2)).convert("RGB")).shape for mode in ["RGBA", "P"]])
#> [(2, 2, 3), (2, 2, 3)]
# An array already loaded as greyscale: repeat its channel three times.
grey = np.zeros((224, 224), dtype=np.uint8)
print(np.stack([grey] * 3, axis=-1).shape)
#> (224, 224, 3)
# --8<-- [end:image_list_greyscale]

# --8<-- [start:tf_non_rectangular]
import tensorflow as tf

try:
    tf.constant([[1, 2, 3], [4, 5]])
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Can't convert non-rectangular Python sequence to Tensor.

# The fix: a RaggedTensor holds rows of different lengths.
print(tf.ragged.constant([[1, 2, 3], [4, 5]]))
#> <tf.RaggedTensor [[1, 2, 3], [4, 5]]>
# --8<-- [end:tf_non_rectangular]

# --8<-- [start:tf_ragged_arrays]
import numpy as np

# Three point clouds of 2, 4 and 1 points, each point x, y, z: arrays of shape (k, 3).
points = [np.zeros((2, 3), np.float32), np.ones((4, 3), np.float32), np.full((1, 3), 2, np.float32)]
try:
    tf.constant(points)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Can't convert non-rectangular Python sequence to Tensor.
ragged = tf.ragged.constant(points)
print(ragged.shape, ragged.ragged_rank)  # the axis of 3 coordinates is ragged too
#> (3, None, None) 2

# The fix: only the points axis is ragged, ragged_rank=1,
print(tf.ragged.constant(points, ragged_rank=1).shape)
#> (3, None, 3)
# or build it from all the points end to end and the number of points in each cloud.
clouds = tf.RaggedTensor.from_row_lengths(np.concatenate(points), [len(p) for p in points])
print(clouds.shape, clouds.row_lengths().numpy())
#> (3, None, 3) [2 4 1]
# --8<-- [end:tf_ragged_arrays]

# --8<-- [start:bfloat16_numpy]
half = torch.tensor([1.5, 2.5], dtype=torch.bfloat16)  # NumPy has no bfloat16
try:
    half.numpy()
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Got unsupported ScalarType BFloat16

# The fix: convert to a dtype NumPy has first (this copies).
print(half.float().numpy())
#> [1.5 2.5]
# --8<-- [end:bfloat16_numpy]
# --8<-- [start:bgr_to_rgb]
image = np.arange(12, dtype=np.uint8).reshape(2, 2, 3)  # (H, W, C), channels in BGR order
rgb = image[..., ::-1]  # BGR to RGB: a view whose channel axis runs backwards
print(rgb.strides)
#> (6, 3, -1)
try:
    torch.from_numpy(rgb)
except ValueError as err:
    print(f"{type(err).__name__}: {str(err).split(', and')[0]}")
    #> ValueError: At least one stride in the given numpy array is negative

# The fix: copy the flipped view, or flip on the torch side.
print(torch.from_numpy(rgb.copy())[0, 0], torch.from_numpy(image).flip(-1)[0, 0])
#> tensor([2, 1, 0], dtype=torch.uint8) tensor([2, 1, 0], dtype=torch.uint8)
# --8<-- [end:bgr_to_rgb]

# --8<-- [start:ascontiguousarray_flipped]
image = np.zeros((1, 10, 20))[::-1]  # one channel, flipped on that size-1 axis
fixed = np.ascontiguousarray(image)
print(fixed.strides, fixed.flags.c_contiguous, fixed is image)  # returned unchanged
#> (-1600, 160, 8) True True
try:
    torch.from_numpy(fixed)
except ValueError as err:
    print(f"{type(err).__name__}: {str(err).split(', and')[0]}")
    #> ValueError: At least one stride in the given numpy array is negative
print(np.require(image, requirements="C").strides)  # np.require trusts the flag too
#> (-1600, 160, 8)

# The fix: a real copy has positive strides; or flip on the torch side.
print(image.copy().strides, torch.from_numpy(image.copy()).shape)
#> (1600, 160, 8) torch.Size([1, 10, 20])
print(torch.from_numpy(np.zeros((1, 10, 20))).flip(0).stride())
#> (200, 20, 1)
# --8<-- [end:ascontiguousarray_flipped]

# --8<-- [start:item_many_elements]
losses = torch.tensor([0.5, 0.25])
try:
    losses.item()  # item() is for a tensor with exactly one element
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: a Tensor with 2 elements cannot be converted to Scalar

# The fix: reduce to one element first, or take all values as a list.
print(losses.mean().item(), losses.tolist())
#> 0.375 [0.5, 0.25]
# --8<-- [end:item_many_elements]

# --8<-- [start:tensor_bool_ambiguous]
attention = torch.tensor([[0.7, 0.3], [0.4, 0.6]])  # what the model returned
try:
    if attention:  # meant: "was an attention matrix returned?"
        print("penalise attention")
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Boolean value of Tensor with more than one value is ambiguous
# `not t`, `t and ...`, and `if a == b:` (an elementwise comparison) ask the same question.
for check in (lambda: not attention, lambda: attention and 1, lambda: bool(attention == attention.clone())):
    try:
        check()
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        #> RuntimeError: Boolean value of Tensor with more than one value is ambiguous
        #> RuntimeError: Boolean value of Tensor with more than one value is ambiguous
        #> RuntimeError: Boolean value of Tensor with more than one value is ambiguous
try:
    bool(attention.numpy())  # NumPy's form of the same question
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()
    """
try:
    bool(tf.constant([0.7, 0.3]))  # and TensorFlow's
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()
    """

# The fix: ask the question meant. "Is there a tensor?"
if attention is not None:
    print("penalise attention")
    #> penalise attention
# "Is any (or every) value true?", asked explicitly:
print((attention > 0.5).any().item(), (attention > 0.5).all().item())
#> True False
print(torch.equal(attention, attention.clone()))  # "are the two tensors equal?"
#> True
# --8<-- [end:tensor_bool_ambiguous]

# --8<-- [start:from_numpy_tf_tensor]
tf_values = tf.constant([1.0, 2.0])
try:
    torch.from_numpy(tf_values)  # from_numpy takes only a NumPy array
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: expected np.ndarray (got tensorflow.python.framework.ops.EagerTensor)

# The fix: go through NumPy (.numpy() copies on TF's side), or through DLPack.
print(torch.from_numpy(tf_values.numpy()))
#> tensor([1., 2.])
print(torch.from_dlpack(tf_values))
#> tensor([1., 2.])
# --8<-- [end:from_numpy_tf_tensor]

# --8<-- [start:tf_item_assignment]
scores = tf.constant([1, 2, 3])
try:
    scores[0] = 10  # a tf.Tensor cannot be changed
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: 'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment
    """

# The fix: build a new tensor with the change, or keep the values in a tf.Variable.
print(tf.tensor_scatter_nd_update(scores, indices=[[0]], updates=[10]))
#> tf.Tensor([10  2  3], shape=(3,), dtype=int32)
state = tf.Variable([1, 2, 3])
state[0].assign(10)
print(state.numpy())
#> [10  2  3]

# Assigning to a slice fails the same way; a tf.Variable's slice has assign() too.
matrix = tf.zeros((2, 3))
try:
    matrix[:, 0] = 1.0
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: 'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment
    """
columns = tf.Variable(matrix)
columns[:, 0].assign([1.0, 1.0])
print(columns.numpy())
"""
[[1. 0. 0.]
 [1. 0. 0.]]
"""
# --8<-- [end:tf_item_assignment]

# --8<-- [start:tf_model_output]
import keras
import numpy as np
import tensorflow as tf

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, kernel_initializer="ones")])
images = np.ones((1, 3), dtype=np.float32)
netout = model(images)  # calling the model: an EagerTensor
print(type(netout).__name__)
#> EagerTensor
try:
    netout[..., :2] = tf.sigmoid(netout[..., :2])  # NumPy-style post-processing
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: 'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment
    """

# The fix: a NumPy array, from .numpy() or from model.predict, which can be written.
netout = model(images).numpy()
netout[..., :2] = 1 / (1 + np.exp(-netout[..., :2]))
print(type(netout).__name__, netout.round(3))
#> ndarray [[0.953 0.953 3.    3.   ]]
print(type(model.predict(images, verbose=0)).__name__)
#> ndarray
# --8<-- [end:tf_model_output]

# --8<-- [start:tf_assign_shape]
count = tf.Variable(2, name="count")  # its shape, (), is fixed here
try:
    count.assign([1, 2])
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Cannot assign value to variable ' count:0': Shape mismatch.The variable shape (), and the assigned value shape (2,) are incompatible.
    """
try:
    count.assign([1, 2], validate_shape=False)  # assign has no such argument
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: BaseResourceVariable.assign() got an unexpected keyword argument 'validate_shape'

# The fix: a variable whose shape may change is created with an unknown shape.
count = tf.Variable(2, shape=tf.TensorShape(None))
count.assign([1, 2])
print(count.shape, count.numpy())
#> <unknown> [1 2]
# --8<-- [end:tf_assign_shape]


# --8<-- [start:tf_function_numpy]
@tf.function
def to_numpy(x):
    return x.numpy()  # inside tf.function, x is a symbolic tensor with no value yet


try:
    to_numpy(tf.constant([1.0, 2.0]))
except AttributeError as err:
    # TensorFlow prefixes the file and line of the call; the last line is the error.
    print(str(err).strip().splitlines()[-1].strip())
    #> AttributeError: 'SymbolicTensor' object has no attribute 'numpy'


# The fix: compute with TensorFlow ops inside the function, call .numpy() outside.
@tf.function
def doubled(x):
    return x * 2


print(doubled(tf.constant([1.0, 2.0])).numpy())
#> [2. 4.]
# --8<-- [end:tf_function_numpy]

# --8<-- [start:numpy_copy_false]
import warnings

weights = torch.ones(3)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        print(np.array(weights, copy=False))  # NumPy 1.x: "copy if needed"
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        """
        ValueError: Unable to avoid copy while creating an array as requested.
        If using `np.array(obj, copy=False)` replace it with `np.asarray(obj)` to allow a copy when needed (no behavior change in NumPy 1.x).
        For more details, see https://numpy.org/devdocs/numpy_2_0_migration_guide.html#adapting-to-changes-in-the-copy-keyword.
        """
for w in caught:  # NumPy 2 warns first, then raises
    print(f"{w.category.__name__}: {w.message}")
    """
    DeprecationWarning: __array__ implementation doesn't accept a copy keyword, so passing copy=False failed. __array__ must implement 'dtype' and 'copy' keyword arguments. To learn more, see the migration guide https://numpy.org/devdocs/numpy_2_0_migration_guide.html#adapting-to-changes-in-the-copy-keyword
    """
print(len(caught))
#> 1

# The fix: np.asarray copies only if it must; Tensor.numpy() shares memory.
print(np.asarray(weights))
#> [1. 1. 1.]
shared = weights.numpy()
shared[0] = 5
print(weights)
#> tensor([5., 1., 1.])
# --8<-- [end:numpy_copy_false]

# --8<-- [start:object_array_to_tf]
labels = np.array([None, 1.0, 2.0], dtype=object)  # a column with a missing value
try:
    tf.convert_to_tensor(labels)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Failed to convert a NumPy array to a Tensor (Unsupported object type NoneType).

# An object array of plain floats is refused too: TensorFlow reads the dtype, not the values.
try:
    tf.convert_to_tensor(np.array([1.0, 2.0], dtype=object))
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Failed to convert a NumPy array to a Tensor (Unsupported object type float).

# The fix: replace the missing values, then give the array a numeric dtype.
filled = np.array([np.nan if value is None else value for value in labels], dtype=np.float32)
print(tf.convert_to_tensor(filled))
#> tf.Tensor([nan  1.  2.], shape=(3,), dtype=float32)

# A batch of samples of different lengths, as an object array of arrays.
batch = np.empty(2, dtype=object)
batch[:] = [np.ones(3, dtype=np.float32), np.ones(2, dtype=np.float32)]
try:
    tf.convert_to_tensor(batch)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Failed to convert a NumPy array to a Tensor (Unsupported object type numpy.ndarray).
    """
try:
    batch.astype(np.float32)  # no cast fixes it: the rows have no common length
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: setting an array element with a sequence.
# Pad to one length (zeros after each row), or keep the rows ragged.
padded = tf.keras.utils.pad_sequences(list(batch), dtype="float32", padding="post")
print(padded[1], tf.ragged.constant(list(batch)).shape)
#> [1. 1. 0.] (2, None)
# --8<-- [end:object_array_to_tf]

# --8<-- [start:mixed_types_tf]
record = ["Framingham", 0.05, 7]  # a city name, a score and a count in one list
try:
    tf.constant(record)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Can't convert Python sequence with mixed types to Tensor.

# A NumPy array first does not help: strings and numbers alone give an array of strings.
print(tf.constant(np.array(record)))
#> tf.Tensor([b'Framingham' b'0.05' b'7'], shape=(3,), dtype=string)

# The fix: one tensor per field, each of one dtype (a dict of features for tf.data).
features = tf.data.Dataset.from_tensor_slices({"city": ["Framingham", "Boston"], "count": [7, 3]})
print(next(iter(features)))
"""
{'city': <tf.Tensor: shape=(), dtype=string, numpy=b'Framingham'>, 'count': <tf.Tensor: shape=(), dtype=int32, numpy=7>}
"""
# --8<-- [end:mixed_types_tf]

# --8<-- [start:none_to_tensor]
def scale(x):
    x * 2  # the return statement is missing: the function returns None


try:
    tf.convert_to_tensor(scale(3.0))
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.
    """


# The fix: find where the None comes from; here, return the result.
def scale_fixed(x):
    return x * 2


print(tf.convert_to_tensor(scale_fixed(3.0)))
#> tf.Tensor(6.0, shape=(), dtype=float32)
# --8<-- [end:none_to_tensor]

# --8<-- [start:dlpack_strides_tf]
matrix = torch.arange(6.0).reshape(2, 3)
transposed = matrix.t()  # a view whose elements are not in row-major order
print(transposed.stride(), transposed.is_contiguous())
#> (1, 3) False
try:
    tf.experimental.dlpack.from_dlpack(transposed.__dlpack__())
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {err}")
    #> InvalidArgumentError: Invalid strides array from DLPack

flipped = np.flip(np.arange(4.0))  # a negative stride, as a[::-1] or cupy.flip gives
print(flipped.strides)
#> (-8,)
try:
    tf.experimental.dlpack.from_dlpack(flipped.__dlpack__())
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {err}")
    #> InvalidArgumentError: Invalid strides array from DLPack

# The fix: a compact, row-major copy first, which TensorFlow accepts.
print(tf.experimental.dlpack.from_dlpack(transposed.contiguous().__dlpack__()))
"""
tf.Tensor(
[[0. 3.]
 [1. 4.]
 [2. 5.]], shape=(3, 2), dtype=float32)
"""
print(tf.experimental.dlpack.from_dlpack(np.ascontiguousarray(flipped).__dlpack__()))
#> tf.Tensor([3. 2. 1. 0.], shape=(4,), dtype=float64)
# --8<-- [end:dlpack_strides_tf]

# --8<-- [start:tensor_astype]
predictions = torch.tensor([0.2, 1.7, 2.4])
try:
    predictions.astype(int)  # NumPy's method name, on a torch tensor
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: 'Tensor' object has no attribute 'astype'

# The fix: Tensor.to with a torch dtype; or, for NumPy code, a NumPy array first.
print(predictions.to(torch.int64))
#> tensor([0, 1, 2])
print(predictions.numpy().astype(int))
#> [0 1 2]

# A TensorFlow tensor has no astype either (its message names NumPy behaviour).
detections = tf.constant([1.0, 3.0])  # a model's output, as in a detection tutorial
try:
    detections.astype(np.int64)
except AttributeError as err:
    print(f"{type(err).__name__}: {' '.join(str(err).split())}")
    """
    AttributeError: EagerTensor object has no attribute 'astype'. If you are looking for numpy-related methods, please run the following: tf.experimental.numpy.experimental_enable_numpy_behavior()
    """
print(tf.cast(detections, tf.int64), detections.numpy().astype(np.int64))
#> tf.Tensor([1 3], shape=(2,), dtype=int64) [1 3]
# --8<-- [end:tensor_astype]

# --8<-- [start:from_numpy_list]
frames = [np.zeros((2, 3), dtype=np.uint8), np.ones((2, 3), dtype=np.uint8)]  # a list of images
try:
    torch.from_numpy(frames)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: expected np.ndarray (got list)

# The fix: stack the arrays into one array first, or convert one array at a time.
print(torch.from_numpy(np.stack(frames)).shape, torch.from_numpy(frames[0]).shape)
#> torch.Size([2, 2, 3]) torch.Size([2, 3])
# --8<-- [end:from_numpy_list]

# --8<-- [start:from_numpy_tensor]
textures = torch.arange(6.0).reshape(2, 3)  # loaded as a tensor already
try:
    torch.from_numpy(textures[0])
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: expected np.ndarray (got Tensor)

# The fix: it is a tensor; use it as it is, or copy it with .detach().clone().
print(textures[0], textures[0].detach().clone().data_ptr() != textures.data_ptr())
#> tensor([0., 1., 2.]) True
# torch.as_tensor accepts arrays and tensors alike; a tensor comes back as itself.
print(torch.as_tensor(textures) is textures, torch.as_tensor(textures.numpy()).shape)
#> True torch.Size([2, 3])
# --8<-- [end:from_numpy_tensor]

# --8<-- [start:numpy_into_layer]
conv = torch.nn.Conv2d(3, 8, kernel_size=3)
image = np.zeros((1, 3, 8, 8), dtype=np.uint8)  # a batch of one image, as NumPy holds it
try:
    conv(image)
except TypeError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
    """
    TypeError: conv2d() received an invalid combination of arguments - got (numpy.ndarray, Parameter, Parameter, tuple, tuple, tuple, int), but expected one of:
    """
try:
    torch.nn.Linear(4, 2)(np.zeros((1, 4), dtype=np.float32))  # a linear layer words it otherwise
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: linear(): argument 'input' (position 1) must be Tensor, not numpy.ndarray

# The fix: a float tensor, in the layer's dtype (uint8 pixels scaled to 0..1).
batch = torch.from_numpy(image).float() / 255
print(conv(batch).shape)
#> torch.Size([1, 8, 6, 6])
# --8<-- [end:numpy_into_layer]

# --8<-- [start:cat_separate_tensors]
a, b = torch.ones(2), torch.zeros(2)
out = torch.empty(4)
try:
    torch.cat(a, b, out=out)  # two tensors as two arguments
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor
try:
    torch.stack(a, b)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: stack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor
try:
    torch.cat(a, b, 0)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: cat() takes from 1 to 2 positional arguments but 3 were given

# The fix: one sequence (a tuple or a list) of tensors, then dim.
print(torch.cat((a, b), out=out), torch.cat([a, b], dim=0).shape, torch.stack([a, b]).shape)
#> tensor([1., 1., 0., 0.]) torch.Size([4]) torch.Size([2, 2])
# --8<-- [end:cat_separate_tensors]

# --8<-- [start:cat_list_of_tuples]
pairs = [(torch.ones(2),), (torch.zeros(2),)]  # one-element tuples, as zip(*...) or a loader gives
try:
    torch.cat(pairs)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: expected Tensor as element 0 in argument 0, but got tuple
try:
    torch.stack(pairs)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: expected Tensor as element 0 in argument 0, but got tuple
try:
    torch.cat([[t] for (t,) in pairs])  # a list of lists
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: expected Tensor as element 0 in argument 0, but got list

# The fix: unpack each tuple, so that the list holds tensors.
print(torch.cat([t for (t,) in pairs]), torch.stack([t for (t,) in pairs]).shape)
#> tensor([1., 1., 0., 0.]) torch.Size([2, 2])
# --8<-- [end:cat_list_of_tuples]

# --8<-- [start:variable_numpy_graph]
counter = tf.Variable([1.0, 2.0])


@tf.function
def read_counter():
    return counter.numpy()  # inside tf.function there is no eager value to copy


try:
    read_counter()
except NotImplementedError as err:
    # TensorFlow prefixes the file and line of the call; the last line is the error.
    print(str(err).strip().splitlines()[-1].strip())
    #> NotImplementedError: numpy() is only available when eager execution is enabled.


# The fix: return a tensor from the function, and call .numpy() outside it.
@tf.function
def read_value():
    return counter.read_value()


print(read_value().numpy())
#> [1. 2.]
# --8<-- [end:variable_numpy_graph]

# --8<-- [start:keras_metric_numpy]
import keras

keras.utils.set_random_seed(0)
x_train = np.arange(8, dtype=np.float32).reshape(8, 1)
y_train = 2 * x_train


def error_count(y_true, y_pred):  # a custom metric written with NumPy
    return np.sum(np.abs(y_true.numpy() - y_pred.numpy()) > 1.0)


model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse", metrics=[error_count])
try:
    model.fit(x_train, y_train, epochs=1, verbose=0)  # fit traces the metric into a tf.function
except AttributeError as err:
    print(f"{type(err).__name__}: {str(err).strip().splitlines()[-1].strip()}")
    #> AttributeError: 'SymbolicTensor' object has no attribute 'numpy'


# The fix: the same metric with TensorFlow operations, which work while tracing.
def error_count_tf(y_true, y_pred):
    return tf.reduce_sum(tf.cast(tf.abs(y_true - y_pred) > 1.0, tf.float32))


model.compile(optimizer="sgd", loss="mse", metrics=[error_count_tf])
print(sorted(model.fit(x_train, y_train, epochs=1, verbose=0).history))
#> ['error_count_tf', 'loss']

# Or run the metric eagerly, with no tracing: .numpy() works again.
model.compile(optimizer="sgd", loss="mse", metrics=[error_count], run_eagerly=True)
print(sorted(model.fit(x_train, y_train, epochs=1, verbose=0).history))
#> ['error_count', 'loss']
# --8<-- [end:keras_metric_numpy]

# --8<-- [start:keras_layer_output]
model = keras.Sequential(
    [keras.Input((3,)), keras.layers.Dense(2, name="hidden"), keras.layers.Dense(1, name="out")]
)
model.compile(loss="mse", run_eagerly=True)
print(tf.executing_eagerly(), model.run_eagerly, type(model.layers[0].output).__name__)
#> True True KerasTensor
try:
    model.layers[0].output.numpy()  # a placeholder of the model's graph, with no values
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: 'KerasTensor' object has no attribute 'numpy'

# The fix: a model that returns every layer's output, called on real data.
probe = keras.Model(model.inputs[0], [layer.output for layer in model.layers])
outputs = probe(np.ones((1, 3), dtype=np.float32))
print([(type(out).__name__, out.numpy().shape) for out in outputs])
#> [('EagerTensor', (1, 2)), ('EagerTensor', (1, 1))]
# --8<-- [end:keras_layer_output]


# --8<-- [start:keras_input_value]
inp = keras.Input((16, 3))  # (time steps, features): the shape is known now
inp_time = keras.Input((1,))  # one value per sample: known only when the model runs
print(tf.executing_eagerly(), type(inp_time).__name__)
#> True KerasTensor
try:
    inp_time.numpy()  # to get an int for a layer's constructor
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: 'KerasTensor' object has no attribute 'numpy'
try:
    int(inp_time[0, 0])
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't have any actual numerical value. You cannot convert it to an int.
    """

# Fix 1: a constructor takes Python numbers; the static shape gives them.
print(inp.shape, inp.shape[1], type(inp.shape[1]).__name__)
#> (None, 16, 3) 16 int
conv = keras.layers.Conv1D(filters=4, kernel_size=inp.shape[1] // 4)


# Fix 2: a per-sample value is an input of a layer, used with tensor ops in call().
class ScaleByTime(keras.layers.Layer):
    def call(self, x, t):
        return x * keras.ops.reshape(t, (-1, 1, 1))  # each sample scaled by its own t


model = keras.Model([inp, inp_time], ScaleByTime()(conv(inp), inp_time))
x = np.ones((2, 16, 3), dtype="float32")
t = np.array([[0.0], [2.0]], dtype="float32")  # a different value for each sample
out = model.predict([x, t], verbose=0)
print(out.shape, np.abs(out[0]).max(), np.allclose(out[1], 2 * conv(x[1:]).numpy()[0]))
#> (2, 13, 4) 0.0 True
# --8<-- [end:keras_input_value]

# --8<-- [start:pad_sequences_symbolic]
sequences = [[1, 2, 3], [4, 5], [6]]


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)])
def pad_in_graph(x):
    return keras.utils.pad_sequences(x, maxlen=4)  # a NumPy utility on a symbolic tensor


try:
    pad_in_graph(tf.constant([[1, 2]]))
except TypeError as err:
    print(str(err).strip().splitlines()[-1].strip())  # the message's last line names the class
    """
    TypeError: len is not well defined for a symbolic Tensor (x:0). Please call `x.shape` rather than `len(x)` for shape information.
    """
try:
    keras.utils.pad_sequences(keras.Input(shape=(None,), dtype="int32"), maxlen=4)  # inside a model
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: `sequences` must be iterable.

# Fix 1: pad the data before it reaches the model (a NumPy array out).
padded = keras.utils.pad_sequences(sequences, maxlen=4)
print(padded.tolist())
#> [[0, 1, 2, 3], [0, 0, 4, 5], [0, 0, 0, 6]]


# Fix 2: inside the model, tensor ops: keep the last maxlen steps, pad in front (the same default).
@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)])
def pad_with_ops(x, maxlen=4):
    x = x[:, -maxlen:]
    return tf.pad(x, [[0, 0], [maxlen - tf.shape(x)[1], 0]])


print(pad_with_ops(tf.constant([[1, 2, 3, 4, 5], [0, 0, 0, 6, 7]])).numpy().tolist())
#> [[2, 3, 4, 5], [0, 0, 6, 7]]
# --8<-- [end:pad_sequences_symbolic]

# --8<-- [start:keras_intermediate_layer]
model = keras.Sequential(
    [keras.Input((4,)), keras.layers.Dense(8, name="dense_8"), keras.layers.Dense(2, name="out")],
    name="classifier",
)
for kwargs in (
    {"inputs": [model.layers[0]], "outputs": [model.layers[1]]},  # layers, not tensors
    {"input": [model.layers[0]], "output": [model.layers[1]]},  # the Keras 1 spelling
):
    try:
        keras.Model(**kwargs)
    except ValueError as err:
        print(f"{type(err).__name__}: {str(err)[:62]}")
        #> ValueError: All `inputs` values must be KerasTensors. Received: inputs=[<D
        #> ValueError: Unrecognized keyword arguments passed to Model: {'input': [<De
try:
    model.input  # a Sequential model that was never called on data has no `input` yet
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: The layer classifier has never been called and thus has no defined input.

# The fix: the model's input tensor and the layer's output tensor.
dense_8 = keras.Model(inputs=model.inputs[0], outputs=model.get_layer("dense_8").output)
print(dense_8.predict(np.ones((3, 4), dtype=np.float32), verbose=0).shape)
#> (3, 8)
print(dense_8.get_layer("dense_8") is model.get_layer("dense_8"))  # the same layer, same weights
#> True
# --8<-- [end:keras_intermediate_layer]


# --8<-- [start:keras_from_middle_layer]
keras.utils.set_random_seed(0)
model = keras.Sequential(
    [
        keras.Input((4,)),
        keras.layers.Dense(8, activation="relu", name="first"),
        keras.layers.Dense(6, activation="relu", name="middle"),
        keras.layers.Dense(2, name="out"),
    ]
)
i = 1  # feed data in at model.layers[1], the "middle" layer
print(model.layers[i].name, model.layers[i].input.shape)
#> middle (None, 8)

# A new model: an Input of that layer's input shape through the remaining layers.
x = tail_input = keras.Input(model.layers[i].input.shape[1:])
for layer in model.layers[i:]:
    x = layer(x)
tail = keras.Model(tail_input, x)
print([layer.name for layer in tail.layers[1:]])  # after its InputLayer
#> ['middle', 'out']

data = np.random.default_rng(0).normal(size=(3, 4)).astype("float32")
hidden = model.layers[0](data)  # activations of the layer before the middle one
print(np.allclose(tail.predict(hidden, verbose=0), model.predict(data, verbose=0), atol=1e-6))
#> True
print(tail.get_layer("middle") is model.get_layer("middle"))  # the same layer: trained weights
#> True
# --8<-- [end:keras_from_middle_layer]

# --8<-- [start:keras_shared_layer_output]
keras.utils.set_random_seed(0)
base = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)], name="base")
left, right = keras.Input((3,)), keras.Input((3,))
siamese = keras.Model([left, right], keras.layers.Subtract()([base(left), base(right)]))
shared = siamese.get_layer("base")  # called twice: two inbound nodes
print(hasattr(shared, "get_output_at"))
#> False
a, b = np.ones((1, 3), dtype=np.float32), np.zeros((1, 3), dtype=np.float32)
first = keras.Model(siamese.inputs, shared.output)  # Keras 3: the output of the first call
print(np.allclose(first([a, b]), base(a)), np.allclose(first([a, b]), base(b)))
#> True False

# The fix: the base network is a model already; or call it on a new Input.
x = keras.Input((3,))
embed = keras.Model(x, shared(x))
print(embed.predict(b, verbose=0).shape, np.allclose(embed(a), base(a)))
#> (1, 2) True
# --8<-- [end:keras_shared_layer_output]

# --8<-- [start:keras_input_in_loss]
keras.utils.set_random_seed(0)
features, delta = keras.Input((2,)), keras.Input((1,))  # delta: an extra per-sample weight
pred = keras.layers.Dense(1)(features)
model = keras.Model([features, delta], pred)


def weighted_mse(y_true, y_pred):
    return keras.ops.mean(keras.ops.square(y_true - y_pred) * delta)  # delta is symbolic


x, d, y = np.ones((4, 2), "float32"), np.full((4, 1), 2.0, "float32"), np.zeros((4, 1), "float32")
model.compile("sgd", loss=weighted_mse)
try:
    model.fit([x, d], y, epochs=1, verbose=0)
except ValueError as err:
    first, _, only = str(err).split(". ")[:3]  # the first sentence, and the one naming keras.ops
    print(f"{type(err).__name__}: {first}. {only}.")
    """
    ValueError: A KerasTensor cannot be used as input to a TensorFlow function. You can only use it as input to a Keras layer or a Keras operation (from the namespaces `keras.layers` and `keras.ops`).
    """


class WeightedMSE(keras.layers.Layer):  # fix 1: the loss inside the model, with add_loss
    def call(self, y_true, y_pred, delta):
        self.add_loss(keras.ops.mean(keras.ops.square(y_true - y_pred) * delta))
        return y_pred


target = keras.Input((1,))
model = keras.Model([features, delta, target], WeightedMSE()(target, pred, delta))
model.compile("sgd")  # no loss argument: the model adds its own
print(list(model.fit([x, d, y], epochs=1, verbose=0).history))
#> ['loss']


def weighted_mse(y_true, y_pred):  # fix 2: delta travels in y_true's last column
    return keras.ops.mean(keras.ops.square(y_true[:, :1] - y_pred) * y_true[:, 1:])


model = keras.Model(features, pred)
model.compile("sgd", loss=weighted_mse)
print(list(model.fit(x, np.concatenate([y, d], axis=1), epochs=1, verbose=0).history))
#> ['loss']
# --8<-- [end:keras_input_in_loss]

# --8<-- [start:keras_stop_gradient]
import keras
import numpy as np
import tensorflow as tf

a = keras.Input((2,))
b = keras.layers.Dense(4)(a)  # a KerasTensor: the Dense layer's symbolic output
try:
    tf.stop_gradient(b)  # what keras.ops.stop_gradient called in the reader's release
except ValueError as err:
    first, _, only = str(err).split(". ")[:3]  # the first sentence, and the one naming keras.ops
    print(f"{type(err).__name__}: {first}. {only}.")
    """
    ValueError: A KerasTensor cannot be used as input to a TensorFlow function. You can only use it as input to a Keras layer or a Keras operation (from the namespaces `keras.layers` and `keras.ops`).
    """


class StopGradient(keras.layers.Layer):  # a TensorFlow function wrapped in a layer
    def call(self, x):
        return tf.stop_gradient(x)


stopped = [keras.ops.stop_gradient(b), keras.layers.Lambda(tf.stop_gradient)(b), StopGradient()(b)]
print([type(t).__name__ for t in stopped])  # Keras 3.15.1: all three build
#> ['KerasTensor', 'KerasTensor', 'KerasTensor']
first, second = keras.layers.Dense(4), keras.layers.Dense(1)
model = keras.Model(a, second(keras.ops.stop_gradient(first(a))))
with tf.GradientTape() as tape:
    loss = keras.ops.sum(model(np.ones((2, 2), dtype="float32")))
grads = tape.gradient(loss, first.trainable_weights + second.trainable_weights)
print([g is None for g in grads])  # no gradient reaches the first layer
#> [True, True, False, False]
# --8<-- [end:keras_stop_gradient]

# --8<-- [start:tf_symbolic_numpy_call]
import keras
import numpy as np
import tensorflow as tf


@tf.function(autograph=False)  # autograph would prefix the file and line of the call
def weighted(x):
    return np.multiply(x, 0.5)  # NumPy asks the symbolic tensor for values it does not have


try:
    weighted(tf.constant([2.0, 4.0]))
except NotImplementedError as err:
    print(f"{type(err).__name__}: {err}")
    """
    NotImplementedError: Cannot convert a symbolic tf.Tensor (x:0) to a numpy array. This error may indicate that you're trying to pass a Tensor to a NumPy call, which is not supported.
    """

inputs = keras.Input((2,))  # Keras 3: a NumPy function on a model's symbolic input
try:
    np.abs(inputs)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't have any actual numerical value. You cannot convert it to a NumPy array.
    """


# The fix: the TensorFlow operation (or the operator), which works on symbolic tensors.
@tf.function
def weighted(x):
    return tf.multiply(x, 0.5)  # or x * 0.5


print(weighted(tf.constant([2.0, 4.0])).numpy())
#> [1. 2.]
model = keras.Model(inputs, keras.ops.abs(inputs) * 0.5)  # Keras: keras.ops, or tf ops
print(model(np.array([[-2.0, 4.0]], dtype=np.float32)).numpy())
#> [[1. 2.]]
# --8<-- [end:tf_symbolic_numpy_call]

# --8<-- [start:ndarray_not_c_contiguous]
import numpy as np

x = np.array([0.0, 1.0, 2.0])
y = np.array([0.0, 1.0, 4.0])
stacked = np.stack((x, y))  # (2, 3): all of x, then all of y
coords = np.transpose(stacked)  # (3, 2): a view of the stack, in F order
print(coords.shape, coords.flags["C_CONTIGUOUS"], coords.flags["F_CONTIGUOUS"])
#> (3, 2) False True
print(np.shares_memory(coords, stacked), coords.ravel(order="K"))  # its memory, in order
#> True [0. 1. 2. 0. 1. 4.]
try:
    np.frombuffer(coords)  # reads the memory as one block, as compiled code does
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: ndarray is not C-contiguous

# The fix: a C-ordered copy, or build the (3, 2) array in C order from the start.
fixed = np.ascontiguousarray(coords)
print(fixed.flags["C_CONTIGUOUS"], np.frombuffer(fixed))  # memory order: x0, y0, x1, y1, ...
#> True [0. 0. 1. 1. 2. 4.]
print(np.stack((x, y), axis=1).flags["C_CONTIGUOUS"], np.array_equal(np.stack((x, y), axis=1), coords))
#> True True
# --8<-- [end:ndarray_not_c_contiguous]
