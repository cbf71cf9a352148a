"""Shape, view, broadcasting and indexing errors in PyTorch, NumPy and TensorFlow.

Each section triggers one error the way readers meet it, prints the message as the
library raised it, then shows the fix working. Run with
`python examples/errors/shape_errors.py`.
"""

# --8<-- [start:size_mismatch_non_singleton]
import torch

scores = torch.ones(3, 2)  # 3 rows, 2 columns
row_weights = torch.tensor([1.0, 2.0, 3.0])  # one weight per row
try:
    scores * row_weights
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1
    """

# The fix: give the vector an axis of its own, (3, 1), so that it lines up with the rows.
print(scores * row_weights[:, None])
"""
tensor([[1., 1.],
        [2., 2.],
        [3., 3.]])
"""
# --8<-- [end:size_mismatch_non_singleton]

# --8<-- [start:size_mismatch_downsampling]
import torch
import torch.nn.functional as F

image = torch.randn(1, 1, 245, 245)  # 245 is odd: pooling by 2 drops a row and a column
up = F.interpolate(F.max_pool2d(image, 2), scale_factor=2)  # an encoder-decoder's way down and up
try:
    image + up  # a skip connection
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: The size of tensor a (245) must match the size of tensor b (244) at non-singleton dimension 3
    """
small = torch.randn(1, 1, 150, 150)
down = F.max_pool2d(F.max_pool2d(F.max_pool2d(small, 2, ceil_mode=True), 2, ceil_mode=True), 2, ceil_mode=True)
print(down.shape[-1], F.interpolate(down, scale_factor=8).shape[-1])  # rounding up: 150 comes back 152
#> 19 152

# The fix: pad the input to a multiple of the total downsampling (2 here), crop the output back.
padded = F.pad(image, (0, 1, 0, 1))  # 246 x 246
out = padded + F.interpolate(F.max_pool2d(padded, 2), scale_factor=2)
print(out[..., :245, :245].shape)
#> torch.Size([1, 1, 245, 245])
# --8<-- [end:size_mismatch_downsampling]

# --8<-- [start:loss_output_smaller]
import warnings

import torch
import torch.nn.functional as F

prediction = torch.ones(2, 1, 4, 4)  # the model's output map: a quarter of the image's height and width
target = torch.ones(2, 1, 16, 16)  # the label map, at the image's size
loss_fn = torch.nn.MSELoss()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        loss_fn(prediction, target)
    except RuntimeError as err:
        error = err
for w in caught:
    print(f"{w.category.__name__}: {w.message}")
    """
    UserWarning: Using a target size (torch.Size([2, 1, 16, 16])) that is different to the input size (torch.Size([2, 1, 4, 4])). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.
    """
print(f"{type(error).__name__}: {error}")
"""
RuntimeError: The size of tensor a (4) must match the size of tensor b (16) at non-singleton dimension 3
"""

# The fix: bring the target to the output's size (or make the model output the target's size).
small_target = F.interpolate(target, size=prediction.shape[-2:], mode="area")
print(small_target.shape, loss_fn(prediction, small_target))
#> torch.Size([2, 1, 4, 4]) tensor(0.)
# A density map's sum is a count: "area" averages, so multiply by the ratio of areas (16).
print(target.sum().item(), small_target.sum().item(), (small_target * 16).sum().item())
#> 512.0 32.0 512.0
# --8<-- [end:loss_output_smaller]

# --8<-- [start:mat1_mat2_shapes]
import torch

layer = torch.nn.Linear(in_features=3, out_features=5)
batch = torch.ones(2, 4)  # 2 samples of 4 features, but the layer expects 3
try:
    layer(batch)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (2x4 and 3x5)
try:
    torch.ones(4, 3) @ torch.ones(4, 3)  # @ and torch.mm: the same check, named mm
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: mm: mat1 and mat2 shapes cannot be multiplied (4x3 and 4x3)

# The fix: the input's last size must equal in_features (the weight is (5, 3)).
print(layer.weight.shape)
#> torch.Size([5, 3])
print(layer(torch.ones(2, 3)).shape)
#> torch.Size([2, 5])

# Pooled features keep two axes of size 1: (N, 512, 1, 1). Linear reads the last one.
pooled = torch.ones(2, 512, 1, 1)
head = torch.nn.Linear(512, 10)
try:
    head(pooled)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (1024x1 and 512x10)
print(head(pooled.flatten(1)).shape)  # flatten(1) (or squeeze) gives (N, 512)
#> torch.Size([2, 10])
# --8<-- [end:mat1_mat2_shapes]

# --8<-- [start:view_not_contiguous]
import torch

x = torch.arange(6).reshape(2, 3).t()  # a transposed view: not contiguous
print(x.is_contiguous())
#> False
try:
    x.view(6)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.
    """

# The fix: reshape copies when it must (or .contiguous().view(...)).
print(x.reshape(6))
#> tensor([0, 3, 1, 4, 2, 5])
print(x.contiguous().view(6))
#> tensor([0, 3, 1, 4, 2, 5])
# --8<-- [end:view_not_contiguous]

# --8<-- [start:shape_invalid_for_input_size]
import torch

x = torch.arange(6)
for shape in [(4, 2), (-1, 4)]:
    try:
        x.view(shape)
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        #> RuntimeError: shape '[4, 2]' is invalid for input of size 6
        #> RuntimeError: shape '[-1, 4]' is invalid for input of size 6

# The fix: the sizes must multiply to the number of elements; -1 takes the rest.
print(x.numel(), x.view(2, 3).shape, x.view(-1, 3).shape)
#> 6 torch.Size([2, 3]) torch.Size([2, 3])
# --8<-- [end:shape_invalid_for_input_size]

# --8<-- [start:flatten_size]
import torch

conv = torch.nn.Conv2d(in_channels=1, out_channels=4, kernel_size=3)
print(conv(torch.ones(2, 1, 6, 6)).shape)  # 6x6 images: 4 maps of 4x4, 64 values per image
#> torch.Size([2, 4, 4, 4])
features = conv(torch.ones(2, 1, 5, 5))  # 5x5 images: 4 maps of 3x3, 36 values per image
try:
    features.view(-1, 4 * 4 * 4)  # the flatten size worked out for 6x6 images
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: shape '[-1, 64]' is invalid for input of size 72
# Where the count happens to divide, -1 hides the mistake: 16 images become 9 rows.
print(conv(torch.ones(16, 1, 5, 5)).view(-1, 4 * 4 * 4).shape)
#> torch.Size([9, 64])

# The fix: flatten(1) keeps the batch axis; size the Linear layer from a real output.
flat = features.flatten(1)
print(flat.shape)
#> torch.Size([2, 36])
print(torch.nn.Flatten()(features).shape)  # nn.Flatten() flattens from axis 1 too
#> torch.Size([2, 36])
fc = torch.nn.Linear(flat.shape[1], 10)
print(fc(flat).shape)
#> torch.Size([2, 10])
# --8<-- [end:flatten_size]

# --8<-- [start:torch_index_out_of_bounds]
import torch

x = torch.arange(6).reshape(2, 3)
for index in [(2, 0), (0, 3)]:
    try:
        x[index]
    except IndexError as err:
        print(f"{type(err).__name__}: {err}")
        #> IndexError: index 2 is out of bounds for dimension 0 with size 2
        #> IndexError: index 3 is out of bounds for dimension 1 with size 3

# The fix: valid indices run from 0 to size - 1 (or from -size to -1).
print(x.shape, x[1, 2], x[-1, -1])
#> torch.Size([2, 3]) tensor(5) tensor(5)
# --8<-- [end:torch_index_out_of_bounds]

# --8<-- [start:label_out_of_bounds]
import torch
import torch.nn.functional as F

scores = torch.zeros(2, 3)  # a model's output: 3 classes
labels = torch.tensor([0, 3])  # a new dataset with a 4th class
try:
    scores.gather(1, labels[:, None])  # each sample's score for its class
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: index 3 is out of bounds for dimension 1 with size 3
try:
    F.cross_entropy(scores, labels)
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: Target 3 is out of bounds.

# Check the labels against the model's outputs: every label must be below their number.
print(labels.max().item(), scores.shape[1])
#> 3 3

# The fix: as many outputs as classes (the largest label + 1).
scores = torch.zeros(2, int(labels.max()) + 1)
print(scores.gather(1, labels[:, None]).shape, round(F.cross_entropy(scores, labels).item(), 4))
#> torch.Size([2, 1]) 1.3863

# gather takes no negative index: -1 is not the last column, as it is in indexing
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
index = torch.tensor([[-1], [-3]])
try:
    x.gather(1, index)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: index -1 is out of bounds for dimension 1 with size 3
print(x.gather(1, torch.where(index < 0, index + x.shape[1], index)).flatten(), x[[0, 1], [-1, -3]])  # count from the end
#> tensor([3., 4.]) tensor([3., 4.])
# --8<-- [end:label_out_of_bounds]

# --8<-- [start:keras_label_out_of_range]
import keras
import numpy as np
import tensorflow as tf

x = np.ones((4, 3), dtype="float32")
labels = np.array([0, 5, 32, 1])  # 32 is not a class of an 11-unit output


def classifier(units):
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(units, activation="softmax", name="head")])


def message(err):
    """The message without the device prefix and op suffix, which vary by machine."""
    return err.message.split("}} ")[-1].split(" [Op:")[0]


try:  # the loss fit computes on this batch
    keras.losses.sparse_categorical_crossentropy(labels, classifier(11)(x))
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    """
    InvalidArgumentError: Received a label value of 32 which is outside the valid range of [0, 11).  Label values: 0 5 32 1
    """
try:  # -1 for "no label" is out of range too
    keras.losses.sparse_categorical_crossentropy(np.array([0, -1]), np.full((2, 11), 1 / 11, "float32"))
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    """
    InvalidArgumentError: Received a label value of -1 which is outside the valid range of [0, 11).  Label values: 0 -1
    """

# Fix 1: one output per class index up to the largest label; the loss is then defined for every label.
model = classifier(int(labels.max()) + 1)
print(model.output_shape, keras.losses.sparse_categorical_crossentropy(labels, model(x)).shape)
#> (None, 33) (4,)
# Fix 2: map the labels that occur to 0 ... n-1 and keep the mapping to read predictions back.
classes, index = np.unique(labels, return_inverse=True)
model = classifier(len(classes))
print(classes, index, model.output_shape, keras.losses.sparse_categorical_crossentropy(index, model(x)).shape)
#> [ 0  1  5 32] [0 2 3 1] (None, 4) (4,)
# --8<-- [end:keras_label_out_of_range]

# --8<-- [start:label_minus_one]
import torch
import torch.nn.functional as F

scores = torch.zeros(3, 4)  # 3 samples, 4 classes
labels = torch.tensor([2, -1, 0])  # -1 marks the unlabeled sample
try:
    F.cross_entropy(scores, labels)
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: Target -1 is out of bounds.

# The fix: tell the loss to skip -1; the mean is over the labeled samples only.
print(round(torch.nn.CrossEntropyLoss(ignore_index=-1)(scores, labels).item(), 4))
#> 1.3863
# The default ignore_index is -100: labels of -100 are skipped with no argument.
print(round(F.cross_entropy(scores, torch.tensor([2, -100, 0])).item(), 4))
#> 1.3863
# --8<-- [end:label_minus_one]

# --8<-- [start:mask_grey_values]
import io

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

logits = torch.zeros(1, 2, 4, 4)  # a U-Net's output for 2 classes: N, C, H, W
mask = torch.zeros(1, 4, 4, dtype=torch.long)  # a binary mask read from a PNG: N, H, W
mask[:, 1:3, 1:3] = 255  # the object is white
try:
    F.cross_entropy(logits, mask)
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: Target 255 is out of bounds.
print(torch.unique(mask))  # grey levels, not class indices 0 and 1
#> tensor([  0, 255])

# Resizing a mask with (bi)linear interpolation invents grey levels between 0 and 255.
grey = mask[:, None].float()
print(torch.unique(F.interpolate(grey, size=(8, 8), mode="bilinear")))
#> tensor([  0.0000,  15.9375,  47.8125,  63.7500, 143.4375, 191.2500, 255.0000])
print(torch.unique(F.interpolate(grey, size=(8, 8), mode="nearest")))  # nearest keeps 0 and 255
#> tensor([  0., 255.])
# So does saving the mask as JPEG, whose compression is lossy.
jpeg = io.BytesIO()
Image.fromarray(mask[0].numpy().astype(np.uint8)).save(jpeg, format="JPEG")
print("only 0 and 255 after JPEG:", bool(np.isin(np.asarray(Image.open(jpeg)), [0, 255]).all()))
#> only 0 and 255 after JPEG: False

# The fix: turn grey levels into class indices; for a binary mask, 255 becomes 1.
classes = mask // 255
print(torch.unique(classes), round(F.cross_entropy(logits, classes).item(), 4))
#> tensor([0, 1]) 0.6931
# More classes: np.unique numbers the grey levels that occur 0, 1, 2, ...
levels, index = np.unique(np.array([[0, 128], [255, 128]]), return_inverse=True)
print(levels, index.reshape(2, 2).tolist())
#> [  0 128 255] [[0, 1], [2, 1]]
# --8<-- [end:mask_grey_values]

# --8<-- [start:voc_ignore_255]
import io

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

# A Pascal VOC label PNG: a palette image of class indices 0-20, and 255 on object borders.
label = np.zeros((6, 6), dtype=np.uint8)  # 0: background
label[1:5, 1:5] = 255  # the border, "void" in VOC
label[2:4, 2:4] = 15  # class 15: person
image = Image.frombytes("P", (6, 6), label.tobytes())
palette = [0] * 768
palette[15 * 3 : 16 * 3] = [192, 128, 128]  # VOC's colours for class 15 and for 255
palette[255 * 3 :] = [224, 224, 192]
image.putpalette(palette)
png = io.BytesIO()
image.save(png, format="PNG")
mask_image = Image.open(png)
print(mask_image.mode, np.unique(np.array(mask_image)))  # palette indices: the classes, and 255
#> P [  0  15 255]
print(np.unique(np.array(mask_image.convert("L"))))  # converted to grey: colours, not classes
#> [  0 147 220]

torch.manual_seed(0)
logits = torch.randn(1, 21, 6, 6)  # 21 classes: background and 20 objects
mask = torch.from_numpy(np.array(mask_image)).long()[None]  # (N, H, W)
try:
    F.cross_entropy(logits, mask)
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: Target 255 is out of bounds.

# The fix: ignore_index=255 leaves the border out of the loss, as VOC training code does.
loss = F.cross_entropy(logits, mask, ignore_index=255)  # or nn.CrossEntropyLoss(ignore_index=255)
valid = mask != 255
by_hand = F.cross_entropy(logits.permute(0, 2, 3, 1)[valid], mask[valid])  # the other pixels only
print(int(valid.sum()), torch.allclose(loss, by_hand))
#> 24 True
# Mapping 255 to background instead trains the borders as background: another loss.
print(torch.allclose(loss, F.cross_entropy(logits, torch.where(valid, mask, 0))))
#> False
# --8<-- [end:voc_ignore_255]

# --8<-- [start:find_bad_index]
import torch

x = torch.arange(3.0)
index = torch.tensor([0, 5, -4, 2])
try:
    x[index]
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: index 5 is out of bounds for dimension 0 with size 3

# Find every bad index, and where it sits, before a GPU asserts on one of them.
n = x.shape[0]
bad = (index < -n) | (index >= n)
print(bad.nonzero().flatten().tolist(), index[bad].tolist())
#> [1, 2] [5, -4]
print(x[index[~bad]])
#> tensor([0., 2.])
# --8<-- [end:find_bad_index]

# --8<-- [start:index_out_of_range_in_self]
import torch

embedding = torch.nn.Embedding(num_embeddings=10, embedding_dim=4)
token_ids = torch.tensor([3, 7, 10])  # 10 is one past the last row
try:
    embedding(token_ids)
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: index out of range in self

# The fix: every id must be below num_embeddings; size the table from the data.
print(token_ids.max().item(), embedding.num_embeddings)
#> 10 10
embedding = torch.nn.Embedding(num_embeddings=int(token_ids.max()) + 1, embedding_dim=4)
print(embedding(token_ids).shape)
#> torch.Size([3, 4])
# --8<-- [end:index_out_of_range_in_self]

# --8<-- [start:lm_head_vocab]
import torch
from torch import nn

torch.manual_seed(0)
vocab_size, n_embd = 65, 128
embedding = nn.Embedding(vocab_size, n_embd)  # was nn.Embedding(vocab_size, vocab_size)
idx = torch.zeros(1, 1, dtype=torch.long)
logits = embedding(idx)  # the bigram model uses the embedding as its logits
print(tuple(logits.shape))  # 128 scores per token, for a vocabulary of 65
#> (1, 1, 128)
probs = logits[:, -1, :].softmax(dim=-1)
next_ids = torch.multinomial(probs, num_samples=20, replacement=True)  # as generate() samples
print((next_ids >= vocab_size).any().item())
#> True
try:
    embedding(next_ids)  # the next step of generate() looks them up
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: index out of range in self

# The fix: a head from the embedding width back to the vocabulary.
lm_head = nn.Linear(n_embd, vocab_size)
logits = lm_head(embedding(idx))
print(tuple(logits.shape))
#> (1, 1, 65)
next_ids = torch.multinomial(logits[:, -1, :].softmax(dim=-1), num_samples=20, replacement=True)
print((next_ids < vocab_size).all().item(), tuple(embedding(next_ids).shape))
#> True (1, 20, 128)
# --8<-- [end:lm_head_vocab]

# --8<-- [start:torch_mask_shape]
import numpy as np
import torch

a = torch.zeros(2, 3, 4)
mask = torch.tensor([[True, False, True], [False, True, False]])  # for a's first two axes, (2, 3)
try:
    a[:, 2][mask] = 1  # a[:, 2] is (2, 4): the mask no longer fits
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    """
    IndexError: The shape of the mask [2, 3] at index 1 does not match the shape of the indexed tensor [2, 4] at index 1
    """

# The fix: a mask covers as many axes as it has, from where it stands; an integer after it
# indexes the next axis. PyTorch accepts the mask and the integer together, as NumPy does.
a[mask, 2] = 1
print(a[:, :, 2])
"""
tensor([[1., 0., 1.],
        [0., 1., 0.]])
"""
a_np = np.zeros((2, 3, 4))
a_np[mask.numpy(), 2] = 1
print(np.array_equal(a.numpy(), a_np))
#> True
# --8<-- [end:torch_mask_shape]

# --8<-- [start:torch_mask_and_integer]
import numpy as np
import torch

x = torch.arange(50).reshape(5, 5, 2)
m = x[..., 0] % 3 == 0  # a (5, 5) mask over the first two axes
print(x[m, 0])  # mask and integer in one bracket: accepted
#> tensor([ 0,  6, 12, 18, 24, 30, 36, 42, 48])
print(torch.equal(x[m, 0], x[m][:, 0]), np.array_equal(x.numpy()[m.numpy(), 0], x[m, 0].numpy()))
#> True True
# --8<-- [end:torch_mask_and_integer]

# --8<-- [start:cat_sizes_must_match]
import torch

features = torch.ones(2, 3)
extra = torch.ones(2, 4)
try:
    torch.cat([features, extra])  # dim=0 by default: the other sizes must match
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the list.
    """

# The fix: join along the axis whose sizes differ.
print(torch.cat([features, extra], dim=1).shape)
#> torch.Size([2, 7])
# --8<-- [end:cat_sizes_must_match]

# --8<-- [start:stack_equal_size]
import torch

sequences = [torch.ones(3), torch.ones(4)]
try:
    torch.stack(sequences)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: stack expects each tensor to be equal size, but got [3] at entry 0 and [4] at entry 1
    """

# The fix: stack needs equal shapes; pad the shorter ones (or use torch.cat).
padded = torch.nn.utils.rnn.pad_sequence(sequences, batch_first=True)
print(padded)
"""
tensor([[1., 1., 1., 0.],
        [1., 1., 1., 1.]])
"""
# --8<-- [end:stack_equal_size]

# --8<-- [start:dimension_out_of_range]
import torch

x = torch.ones(2, 3)
for call in [lambda: x.sum(dim=2), lambda: x.squeeze(2), lambda: x.unsqueeze(3)]:
    try:
        call()
    except IndexError as err:
        print(f"{type(err).__name__}: {err}")
        #> IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)
        #> IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)
        #> IndexError: Dimension out of range (expected to be in range of [-3, 2], but got 3)

# The fix: dims of a 2-d tensor are 0 and 1 (or -2 and -1); unsqueeze can also use 2.
print(x.sum(dim=-1).shape, x.unsqueeze(2).shape, x.unsqueeze(-1).shape)
#> torch.Size([2]) torch.Size([2, 3, 1]) torch.Size([2, 3, 1])
# --8<-- [end:dimension_out_of_range]

# --8<-- [start:torch_tile_int]
import numpy as np
import torch

print(np.tile(np.arange(3), 2))  # NumPy takes one int
#> [0 1 2 0 1 2]
x = torch.arange(3)
try:
    torch.tile(x, 2)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: tile(): argument 'dims' (position 2) must be tuple of ints, not int
try:
    torch.repeat(x, 2)
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: module 'torch' has no attribute 'repeat'

# The fix: a tuple of repetitions, or the tensor methods tile and repeat.
print(torch.tile(x, (2,)), x.tile(2), x.repeat(2))
#> tensor([0, 1, 2, 0, 1, 2]) tensor([0, 1, 2, 0, 1, 2]) tensor([0, 1, 2, 0, 1, 2])
# --8<-- [end:torch_tile_int]

# --8<-- [start:expand_non_singleton]
import torch

x = torch.ones(2, 3)
try:
    x.expand(4, 3)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [4, 3].  Tensor sizes: [2, 3]
    """
try:
    x[0, :2] = torch.ones(3)  # a slice assignment expands the value the same way
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 0.  Target sizes: [2].  Tensor sizes: [3]
    """

# The fix: expand stretches only axes of size 1; repeat copies to make any size.
print(x[:1].expand(4, 3).shape, x.repeat(2, 1).shape)
#> torch.Size([4, 3]) torch.Size([4, 3])

# Normalising rows: norm(dim=1) drops the axis, so (2,) lines up with the 3 columns.
rows = torch.tensor([[3.0, 4.0, 0.0], [0.0, 6.0, 8.0]])
try:
    rows / rows.norm(dim=1).expand_as(rows)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: The expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 1.  Target sizes: [2, 3].  Tensor sizes: [2]
    """
print(rows / rows.norm(dim=1, keepdim=True))  # keepdim=True: (2, 1), one norm per row
"""
tensor([[0.6000, 0.8000, 0.0000],
        [0.0000, 0.6000, 0.8000]])
"""
# --8<-- [end:expand_non_singleton]

# --8<-- [start:conv_input_channels]
import torch

conv = torch.nn.Conv2d(in_channels=3, out_channels=8, kernel_size=3)
grey = torch.ones(1, 1, 5, 5)  # a batch of one 1-channel image, (N, C, H, W)
try:
    conv(grey)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Given groups=1, weight of size [8, 3, 3, 3], expected input[1, 1, 5, 5] to have 3 channels, but got 1 channels instead
    """

# The fix: the input's axis 1 must hold in_channels channels.
print(conv(grey.expand(1, 3, 5, 5)).shape)
#> torch.Size([1, 8, 3, 3])
# --8<-- [end:conv_input_channels]

# --8<-- [start:conv2d_input_ndim]
import torch

conv = torch.nn.Conv2d(in_channels=1, out_channels=1, kernel_size=2)
x = torch.arange(9.0).view(3, 3)  # a bare 3 x 3 matrix: no batch axis, no channel axis
try:
    conv(x)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [3, 3]
    """

# The fix: add a batch and a channel axis, (N, C, H, W) = (1, 1, 3, 3).
print(x[None, None].shape, conv(x[None, None]).shape)
#> torch.Size([1, 1, 3, 3]) torch.Size([1, 1, 2, 2])
print(conv(x.view(1, 1, 3, 3)).shape, conv(x.unsqueeze(0).unsqueeze(0)).shape)
#> torch.Size([1, 1, 2, 2]) torch.Size([1, 1, 2, 2])
# A channel axis alone, (C, H, W), is one unbatched image: the output has no batch axis.
print(conv(x[None]).shape)
#> torch.Size([1, 2, 2])
# --8<-- [end:conv2d_input_ndim]

# --8<-- [start:conv2d_flattened_batch]
import torch

torch.manual_seed(0)
conv1 = torch.nn.Conv2d(1, 10, 3, padding=1)  # weight [10, 1, 3, 3]
images = torch.rand(100, 1, 28, 28)  # an MNIST batch as the DataLoader gives it: (N, C, H, W)
flat = images.view(-1, 28 * 28)  # flattened, as for a fully connected network
try:
    conv1(flat)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [100, 784]
    """

# Adding two axes, as for one bare image, raises nothing: one image of 100 x 784 pixels.
print(conv1(flat[None, None]).shape)
#> torch.Size([1, 10, 100, 784])

# The fix: give the convolution the batch as it is; flatten after the convolutions, before Linear.
features = conv1(images)
print(features.shape, features.flatten(1).shape)
#> torch.Size([100, 10, 28, 28]) torch.Size([100, 7840])
# Data that arrives flat: view(-1, 1, 28, 28) gives back the batch of images, unchanged.
print(torch.equal(flat.view(-1, 1, 28, 28), images))
#> True
# --8<-- [end:conv2d_flattened_batch]

# --8<-- [start:channels_last_rank]
import torch

table = torch.zeros(3, 4)  # 2-D: no channel axis for the memory format to move
try:
    table.to(memory_format=torch.channels_last)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: required rank 4 tensor to use channels_last format

# The fix: channels_last is for 4-D image batches (N, C, H, W); 5-D ones take channels_last_3d.
images = torch.zeros(2, 3, 4, 5).to(memory_format=torch.channels_last)
print(images.shape, images.stride())
#> torch.Size([2, 3, 4, 5]) (60, 1, 15, 3)
print(images.is_contiguous(memory_format=torch.channels_last))
#> True
volumes = torch.zeros(2, 3, 4, 5, 6).to(memory_format=torch.channels_last_3d)
print(volumes.stride())
#> (360, 1, 90, 18, 3)
# --8<-- [end:channels_last_rank]

# --8<-- [start:keepdims_without_dim]
import warnings

import numpy as np
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
print(np.sum(x.numpy(), keepdims=True), torch.all(x > 0, keepdims=True))  # these accept it
#> [[21.]] tensor([[True]])
try:
    torch.sum(x, keepdims=True)  # no dim: sum() has no keepdim variant without one
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: sum() received an invalid combination of arguments - got (Tensor, keepdims=bool), but expected one of:
     * (Tensor input, *, torch.dtype dtype = None)
     * (Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)

    """
for reduce in (torch.mean, torch.max, torch.prod):  # the same for these
    try:
        reduce(x, keepdims=True)
    except TypeError as err:
        print(f"{type(err).__name__}: {str(err).split(' - ')[0]}")
        #> TypeError: mean() received an invalid combination of arguments
        #> TypeError: max() received an invalid combination of arguments
        #> TypeError: prod() received an invalid combination of arguments
print(torch.sum(x, dim=1, keepdims=True))  # with a dim, keepdims is accepted as keepdim
"""
tensor([[ 6.],
        [15.]])
"""


def row_totals(t: torch.Tensor) -> torch.Tensor:
    return torch.sum(t, dim=1, keepdims=True)


with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # torch.jit.script warns that it is deprecated
    try:
        torch.jit.script(row_totals)  # TorchScript knows only the spelling keepdim
    except RuntimeError as err:
        print([line.strip() for line in str(err).splitlines() if "keepdims unknown" in line])
        #> ['Keyword argument keepdims unknown.']

# The fix: name every dim, and spell it keepdim, as PyTorch's signatures do.
print(torch.sum(x, dim=tuple(range(x.ndim)), keepdim=True), torch.mean(x, dim=(0, 1), keepdim=True))
#> tensor([[21.]]) tensor([[3.5000]])


def row_totals_fixed(t: torch.Tensor) -> torch.Tensor:
    return torch.sum(t, dim=1, keepdim=True)


with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print(torch.jit.script(row_totals_fixed)(x))
    """
    tensor([[ 6.],
            [15.]])
    """
# --8<-- [end:keepdims_without_dim]

# --8<-- [start:max_return_types]
def max_like_numpy(a, dim):  # meant to behave as np.max(a, axis=dim)
    return torch.max(a, dim=dim)


a = torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
result = max_like_numpy(a, 1)
try:
    result.shape
except AttributeError as err:
    print(f"{type(err).__name__}: {err}")
    #> AttributeError: 'torch.return_types.max' object has no attribute 'shape'
print(type(result).__name__, len(result))  # a named tuple: (values, indices)
#> max 2
try:
    a.min(1) + 1  # tuple arithmetic
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: can only concatenate tuple (not "int") to tuple
print([type(f(a, 1)).__name__ for f in (torch.min, torch.median, torch.mode, torch.sort)])
#> ['min', 'median', 'mode', 'sort']

# The fix: amax (values only, as np.max), or take .values from the tuple.
print(torch.amax(a, dim=1), torch.max(a, dim=1).values, np.max(a.numpy(), axis=1))
#> tensor([5., 7.]) tensor([5., 7.]) [5. 7.]
values, indices = torch.max(a, dim=1)  # or unpack both
print(values.shape, indices)
#> torch.Size([2]) tensor([1, 0])
# --8<-- [end:max_return_types]

# --8<-- [start:max_dim_tuple]
a = torch.arange(24.0).reshape(2, 3, 4)
try:
    torch.max(a, dim=(0, 1))  # max with dim returns (values, indices): one dim only
except TypeError as err:
    print(f"{type(err).__name__}: {str(err).splitlines()[0]}")
    """
    TypeError: max() received an invalid combination of arguments - got (Tensor, dim=tuple), but expected one of:
    """
try:
    a.argmax(dim=(0, 1))
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: argmax(): argument 'dim' must be int, not tuple

# The fix: amax/amin reduce over several dims (values only), as np.max(axis=(0, 1)) does.
print(torch.amax(a, dim=(0, 1)), a.amin(dim=(0, 1)), np.max(a.numpy(), axis=(0, 1)))
#> tensor([20., 21., 22., 23.]) tensor([0., 1., 2., 3.]) [20. 21. 22. 23.]
# The indices too: flatten the dims first; the index then counts over 2 * 3 positions.
values, flat = a.flatten(0, 1).max(dim=0)
print(values, flat, flat // 3, flat % 3)
#> tensor([20., 21., 22., 23.]) tensor([5, 5, 5, 5]) tensor([1, 1, 1, 1]) tensor([2, 2, 2, 2])
# --8<-- [end:max_dim_tuple]

# --8<-- [start:softmax_implicit_dim]
import torch.nn.functional as F

scores = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])  # (N, C) logits: 2 samples, 3 classes
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    implicit = F.softmax(scores)  # no dim
    F.log_softmax(scores)
    torch.nn.Softmax()(scores)
for w in caught:
    print(f"{w.category.__name__}: {w.message}")
    """
    UserWarning: Implicit dimension choice for softmax has been deprecated. Change the call to include dim=X as an argument.
    UserWarning: Implicit dimension choice for log_softmax has been deprecated. Change the call to include dim=X as an argument.
    UserWarning: Implicit dimension choice for softmax has been deprecated. Change the call to include dim=X as an argument.
    """

# Which dim it picked, by the number of dims of the input.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for shape in [(3,), (2, 3), (2, 3, 4), (2, 3, 4, 5)]:
        x = torch.randn(shape, generator=torch.Generator().manual_seed(0))
        picked = [d for d in range(x.ndim) if torch.equal(F.softmax(x), F.softmax(x, dim=d))]
        print(shape, "dim", picked)
        #> (3,) dim [0]
        #> (2, 3) dim [1]
        #> (2, 3, 4) dim [0]
        #> (2, 3, 4, 5) dim [1]

# The fix: name the class axis, dim=1 for (N, C) (dim=-1 is the last axis whatever comes first).
print(torch.equal(implicit, F.softmax(scores, dim=1)), F.softmax(scores, dim=1).sum(dim=1))
#> True tensor([1., 1.])
# --8<-- [end:softmax_implicit_dim]

# --8<-- [start:einsum_subscript_size]
import torch

first = torch.ones(12, 8192, 2)  # read as b, i, x: i is 8192
weights1 = torch.ones(12, 8192, 2)  # read as i, o, x: i is 12
try:
    torch.einsum("bix,iox->box", first, weights1)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: einsum(): subscript i has size 12 for operand 1 which does not broadcast with previously seen size 8192
    """

print(torch.einsum("bix,iox->box", first, torch.ones(1, 8192, 2)).shape)  # a size of 1 broadcasts
#> torch.Size([12, 8192, 2])

# The fix: letters that name the axes as they are laid out, here weights1 as o, i, x,
# or the axes moved to the order the letters say.
by_letters = torch.einsum("bix,oix->box", first, weights1)
by_axes = torch.einsum("bix,iox->box", first, weights1.permute(1, 0, 2))
print(by_letters.shape, torch.equal(by_letters, by_axes))
#> torch.Size([12, 12, 2]) True
# --8<-- [end:einsum_subscript_size]

# --8<-- [start:bmm_batch_size]
import torch

source = torch.ones(1, 5, 768)  # a batch of 1: 5 vectors of 768 values
reference = torch.ones(2, 7, 768)  # a batch of 2: 7 vectors each
try:
    torch.bmm(source, reference.transpose(1, 2))  # (1, 5, 768) @ (2, 768, 7)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Expected size for first two dimensions of batch2 tensor to be: [1, 768] but got: [2, 768].
    """

# The fix: matmul broadcasts the batch of 1, or give both the same batch size.
print(torch.matmul(source, reference.transpose(1, 2)).shape)
#> torch.Size([2, 5, 7])
print(torch.bmm(source.expand(2, -1, -1), reference.transpose(1, 2)).shape)
#> torch.Size([2, 5, 7])
# --8<-- [end:bmm_batch_size]

# --8<-- [start:dot_1d]
import torch

weights = torch.ones(512, 256, 3, 3)  # two convolution weights
other = torch.full((512, 256, 3, 3), 2.0)
try:
    torch.dot(weights, other)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: 1D tensors expected, but got 4D and 4D tensors

# The fix: flatten both, or multiply element by element and sum.
print(torch.dot(weights.flatten(), other.flatten()), (weights * other).sum())
#> tensor(2359296.) tensor(2359296.)
# --8<-- [end:dot_1d]

# --8<-- [start:quantile_q_range]
import numpy as np
import torch

values = torch.arange(2**24 + 1.0)  # 16777217 values, 0 to 2**24: more than 2**24
try:
    torch.quantile(values, 50)  # np.percentile's q, from 0 to 100
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: quantile() q must be in the range [0, 1] but got 50

# The fix: q from 0 to 1, as np.quantile takes it (divide a percentile by 100).
array = values.numpy()
print(float(np.percentile(array, 50)), float(np.quantile(array, 0.5)))
#> 8388608.0 8388608.0
try:
    print(torch.quantile(values, 50 / 100))
    #> tensor(8388608.)
except RuntimeError as err:  # torch 2.13 refuses more than 2**24 values
    print(f"{type(err).__name__}: {err}")
k = (values.numel() + 1) // 2  # the median of an odd count, in any release: kthvalue
print(values.kthvalue(k).values)
#> tensor(8388608.)
# --8<-- [end:quantile_q_range]

# --8<-- [start:numpy_matmul_0d]
import numpy as np
import torch

identity = np.identity(2)
scale = np.array(2)  # a 0-d array
print(np.dot(identity, scale))  # dot multiplies by a 0-d operand
"""
[[2. 0.]
 [0. 2.]]
"""
try:
    identity @ scale
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: matmul: Input operand 1 does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)
    """
try:
    torch.eye(2) @ torch.tensor(2.0)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: both arguments to matmul need to be at least 1D, but they are 2D and 0D

# The fix: * scales by a number.
print(identity * scale)
"""
[[2. 0.]
 [0. 2.]]
"""
# --8<-- [end:numpy_matmul_0d]

# --8<-- [start:numpy_broadcast]
import numpy as np

scores = np.ones((3, 2))
row_weights = np.array([1.0, 2.0, 3.0])
try:
    scores * row_weights
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: operands could not be broadcast together with shapes (3,2) (3,)

# The fix: a (3, 1) column lines up with the rows.
print(scores * row_weights[:, np.newaxis])
"""
[[1. 1.]
 [2. 2.]
 [3. 3.]]
"""
# --8<-- [end:numpy_broadcast]

# --8<-- [start:star_not_matmul]
import numpy as np
import torch

X = np.ones((97, 2))  # 97 samples, 2 features
theta = np.array([[0.5], [2.0]])  # (2, 1) parameters
try:
    X * theta  # element-wise, not a matrix product
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: operands could not be broadcast together with shapes (97,2) (2,1)
try:
    torch.from_numpy(X) * torch.from_numpy(theta)  # PyTorch's form of the same mistake
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: The size of tensor a (97) must match the size of tensor b (2) at non-singleton dimension 0
    """

# The fix: @ (np.matmul) or np.dot is the matrix product.
print((X @ theta).shape, np.dot(X, theta).shape, (torch.from_numpy(X) @ torch.from_numpy(theta)).shape)
#> (97, 1) (97, 1) torch.Size([97, 1])

# The silent neighbour: a (97, 1) column times a (97,) vector broadcasts to (97, 97).
predictions = X @ theta  # (97, 1)
targets = np.ones(97)  # (97,)
print((predictions - targets).shape, (predictions.ravel() - targets).shape)
#> (97, 97) (97,)
# --8<-- [end:star_not_matmul]

# --8<-- [start:numpy_cannot_reshape]
import numpy as np

a = np.arange(6)
for shape in [(4, 2), (-1, 4)]:
    try:
        a.reshape(shape)
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        #> ValueError: cannot reshape array of size 6 into shape (4,2)
        #> ValueError: cannot reshape array of size 6 into shape (4)

# The fix: the sizes must multiply to a.size; -1 takes the rest.
print(a.size, a.reshape(2, 3).shape, a.reshape(-1, 3).shape)
#> 6 (2, 3) (2, 3)
# --8<-- [end:numpy_cannot_reshape]

# --8<-- [start:numpy_index_out_of_bounds]
import numpy as np

a = np.arange(3)
try:
    a[3]
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: index 3 is out of bounds for axis 0 with size 3

# The fix: the last element is a[len(a) - 1], or a[-1]. Slices are clipped instead.
print(a[len(a) - 1], a[-1], a[1:10])
#> 2 2 [1 2]
# --8<-- [end:numpy_index_out_of_bounds]

# --8<-- [start:numpy_boolean_index]
import numpy as np

a = np.arange(3)
mask = np.array([True, False])  # one value too few
try:
    a[mask]
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    """
    IndexError: boolean index did not match indexed array along axis 0; size of axis is 3 but size of corresponding boolean axis is 2
    """

# The fix: the mask needs the shape of the axes it selects from.
print(a[a > 0], a[np.array([True, False, True])])
#> [1 2] [0 2]
# --8<-- [end:numpy_boolean_index]

# --8<-- [start:numpy_keepdims_mask]
import numpy as np
import torch

x = np.array([[0, 1], [1, 1], [2, 2]])  # the NumPy manual's example, (3, 2)
rowsum = x.sum(-1, keepdims=True)  # (3, 1): keepdims keeps a length-1 last axis
try:
    x[rowsum <= 2]
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    """
    IndexError: boolean index did not match indexed array along axis 1; size of axis is 2 but size of corresponding boolean axis is 1
    """

# The fix: a 1-d mask of one value per row, without keepdims or with its last axis dropped.
print(x[x.sum(-1) <= 2].tolist(), x[rowsum[:, 0] <= 2].tolist())
#> [[0, 1], [1, 1]] [[0, 1], [1, 1]]
# PyTorch refuses the (3, 1) mask as well.
try:
    torch.from_numpy(x)[torch.from_numpy(rowsum) <= 2]
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    """
    IndexError: The shape of the mask [3, 1] at index 1 does not match the shape of the indexed tensor [3, 2] at index 1
    """
# --8<-- [end:numpy_keepdims_mask]

# --8<-- [start:numpy_axis_error]
import numpy as np

a = np.ones((2, 3))
try:
    a.sum(axis=2)
except np.exceptions.AxisError as err:
    print(f"{type(err).__name__}: {err}")
    #> AxisError: axis 2 is out of bounds for array of dimension 2

# AxisError is both a ValueError and an IndexError.
print(issubclass(np.exceptions.AxisError, ValueError), issubclass(np.exceptions.AxisError, IndexError))
#> True True

# The fix: axes of a 2-d array are 0 and 1 (or -2 and -1).
print(a.sum(axis=1), a.sum(axis=-1))
#> [3. 3.] [3. 3.]
# --8<-- [end:numpy_axis_error]

# --8<-- [start:tf_incompatible_shapes]
import tensorflow as tf


def message(err):
    """The message without the device prefix and op suffix, which vary by machine."""
    return err.message.split("}} ")[-1].split(" [Op:")[0]


scores = tf.ones((3, 2))
row_weights = tf.constant([1.0, 2.0, 3.0])
try:
    scores * row_weights
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    #> InvalidArgumentError: Incompatible shapes: [3,2] vs. [3]

# The fix: a (3, 1) column lines up with the rows.
print(scores * row_weights[:, tf.newaxis])
"""
tf.Tensor(
[[1. 1.]
 [2. 2.]
 [3. 3.]], shape=(3, 2), dtype=float32)
"""
# --8<-- [end:tf_incompatible_shapes]

# --8<-- [start:tf_dimensions_must_be_equal]
import numpy as np
import tensorflow as tf

# message(err): the helper defined in the first TensorFlow section.
W = tf.constant([[0.2, 0.3, -0.1, -0.2], [0.2, -0.1, 0.7, -0.1], [0.1, 0.4, -0.4, -0.3]])  # (3, 4)
x = tf.constant([[0.0], [1.0], [2.0], [3.0]])  # (4, 1)


@tf.function  # a graph, as TensorFlow 1 built: shapes are checked when it is traced
def layer(W, x):
    return W * x  # element-wise, not a matrix product


try:
    layer(W, x)
except ValueError as err:  # the traceback's last line, without the user-code lines before it
    print(str(err).strip().splitlines()[-1].strip())
    """
    ValueError: Dimensions must be equal, but are 3 and 4 for '{{node mul}} = Mul[T=DT_FLOAT](W, x)' with input shapes: [3,4], [4,1].
    """
try:
    W * x  # run eagerly, the same product words it as broadcasting does
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    #> InvalidArgumentError: Incompatible shapes: [3,4] vs. [4,1]

# The fix: tf.matmul(W, x), or W @ x, is the (3, 4) x (4, 1) matrix product: (3, 1).
print(tf.matmul(W, x).shape, np.round((W @ x).numpy().ravel(), 4))
#> (3, 1) [-0.5  1.  -1.3]
# --8<-- [end:tf_dimensions_must_be_equal]

# --8<-- [start:tf_matmul_swapped]
import tensorflow as tf

# message(err), W and x: the first TensorFlow section and the section above.


@tf.function
def swapped(W, x):
    return tf.matmul(x, W)  # the operands in the wrong order: (4, 1) x (3, 4)


try:
    swapped(W, x)
except ValueError as err:  # the start of the traceback's last line: the rest lists the op's attributes
    print(str(err).strip().splitlines()[-1].strip().split(" for ")[0])
    #> ValueError: Dimensions must be equal, but are 1 and 3
try:
    tf.matmul(x, W)  # run eagerly
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    #> InvalidArgumentError: Matrix size-incompatible: In[0]: [4,1], In[1]: [3,4]

# The fix: the weight matrix first, (3, 4) x (4, 1), or transpose to keep x first: (1, 4) x (4, 3).
print(swapped(tf.transpose(W), tf.transpose(x)).shape, tf.matmul(W, x).shape)
#> (1, 3) (3, 1)
# --8<-- [end:tf_matmul_swapped]

# --8<-- [start:tf_loss_shapes]
import tensorflow as tf

# message(err): the helper defined in the first TensorFlow section.
labels = tf.ones((1, 16, 16, 1))  # the label map, at the image's size
predictions = tf.ones((1, 4, 4, 1))  # the model's output: a quarter of the height and width
mse = tf.keras.losses.MeanSquaredError()
try:
    mse(labels, predictions)
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    #> InvalidArgumentError: Incompatible shapes: [1,16,16,1] vs. [1,4,4,1]

# The fix: resize the labels to the output's size (or make the model keep the image's size).
small_labels = tf.image.resize(labels, predictions.shape[1:3], method="area")
print(small_labels.shape, mse(small_labels, predictions).numpy())
#> (1, 4, 4, 1) 0.0
# A density map's sum is a count: "area" averages, so multiply by the ratio of areas (16).
print(tf.reduce_sum(labels).numpy(), tf.reduce_sum(small_labels * 16).numpy())
#> 256.0 256.0
# --8<-- [end:tf_loss_shapes]

# --8<-- [start:keras_categorical_incompatible_shapes]
import keras
import tensorflow as tf

# message(err): the helper defined in the first TensorFlow section.
labels = tf.constant([1, 3])  # integer labels, one per sample
probs = tf.nn.softmax(tf.zeros((2, 5)))  # a softmax output over 5 classes
try:
    -tf.reduce_sum(tf.cast(labels, tf.float32) * tf.math.log(probs), axis=-1)  # categorical cross-entropy's formula
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    #> InvalidArgumentError: Incompatible shapes: [2] vs. [2,5]

# The fix: one-hot labels for categorical_crossentropy, or the integers for the sparse loss.
onehot = tf.one_hot(labels, 5)
print(keras.losses.categorical_crossentropy(onehot, probs), keras.losses.sparse_categorical_crossentropy(labels, probs))
"""
tf.Tensor([1.609438 1.609438], shape=(2,), dtype=float32) tf.Tensor([1.609438 1.609438], shape=(2,), dtype=float32)
"""
# --8<-- [end:keras_categorical_incompatible_shapes]

# --8<-- [start:keras_categorical_integer_labels]
import os
import tempfile

import keras
import numpy as np


def build():
    keras.utils.set_random_seed(0)
    layers = [keras.layers.GlobalAveragePooling2D(name="pool"), keras.layers.Dense(5, activation="softmax", name="head")]
    return keras.Sequential([keras.Input((8, 8, 3), name="images"), *layers], name="classifier")


with tempfile.TemporaryDirectory() as root:  # 5 class folders, one tiny image each
    for i, name in enumerate(["a", "b", "c", "d", "e"]):
        os.makedirs(os.path.join(root, name))
        keras.utils.save_img(os.path.join(root, name, "0.png"), np.full((8, 8, 3), 40 * i, "uint8"), scale=False)
    load = dict(image_size=(8, 8), batch_size=5, shuffle=False, verbose=False)
    ds = keras.utils.image_dataset_from_directory(root, **load)  # label_mode="int" by default
    print(ds.element_spec[1])
    #> TensorSpec(shape=(None,), dtype=tf.int32, name=None)
    model = build()
    model.compile("adam", "categorical_crossentropy")  # expects one-hot labels, (None, 5)
    try:
        model.fit(ds, verbose=0)
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        """
        ValueError: Arguments `target` and `output` must have the same rank (ndim). Received: target.shape=(None,), output.shape=(None, 5)
        """

    # Fix 1: keep the integer labels and use the sparse loss.
    model = build()
    model.compile("adam", "sparse_categorical_crossentropy", run_eagerly=True)  # eager: no graph to trace for one batch
    print(round(model.fit(ds, verbose=0).history["loss"][0], 4))
    #> 138.6676
    # Fix 2: ask the loader for one-hot labels and keep categorical_crossentropy.
    onehot = keras.utils.image_dataset_from_directory(root, label_mode="categorical", **load)
    print(onehot.element_spec[1])
    #> TensorSpec(shape=(None, 5), dtype=tf.float32, name=None)
    model = build()
    model.compile("adam", "categorical_crossentropy", run_eagerly=True)
    print(round(model.fit(onehot, verbose=0).history["loss"][0], 4))
    #> 138.6676

    # Variants, the loss called directly: labels of shape (N, 1), and one-hot labels given to the sparse loss.
    images, labels = next(iter(ds))
    probs = model(images)
    try:
        keras.losses.categorical_crossentropy(labels[:, None], probs)
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        """
        ValueError: Arguments `target` and `output` must have the same shape. Received: target.shape=(5, 1), output.shape=(5, 5)
        """
    try:
        keras.losses.sparse_categorical_crossentropy(next(iter(onehot))[1], probs)
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        """
        ValueError: Argument `output` must have rank (ndim) `target.ndim - 1`. Received: target.shape=(5, 5), output.shape=(5, 5)
        """
# --8<-- [end:keras_categorical_integer_labels]

# --8<-- [start:keras_onehot_units]
import keras
import numpy as np

features = np.ones((4, 8), dtype="float32")
y = keras.utils.to_categorical([0, 1, 2, 3])  # 4 emotions in this dataset: 4 columns
print(y.shape)
#> (4, 4)


def classifier(units):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(units, activation="softmax", name="head")])
    model.compile("adam", "categorical_crossentropy")
    return model


try:
    classifier(10).fit(features, y, verbose=0)  # an output layer written for 10 classes
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Arguments `target` and `output` must have the same shape. Received: target.shape=(None, 4), output.shape=(None, 10)
    """

# The fix: as many output units as label columns.
model = classifier(y.shape[1])
print(model.output_shape, keras.losses.categorical_crossentropy(y, model(features)).shape)  # one loss per sample
#> (None, 4) (4,)
# Or, where the model really has 10 classes, ask to_categorical for 10 columns.
print(keras.utils.to_categorical([0, 1, 2, 3], num_classes=10).shape)
#> (4, 10)
# --8<-- [end:keras_onehot_units]

# --8<-- [start:keras_extra_axis]
import keras
import numpy as np

y = keras.utils.to_categorical([0, 3, 6, 2], num_classes=7)  # one-hot labels of 7 classes
features = np.ones((4, 1, 8), dtype="float32")  # each sample stored with an extra axis, (1, 8)
print(y.shape, features.shape)
#> (4, 7) (4, 1, 8)


def classifier(sample_shape):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input(sample_shape), keras.layers.Dense(7, activation="softmax", name="head")])
    model.compile("adam", "categorical_crossentropy")
    return model


model = classifier((1, 8))
print(model.output_shape)  # Dense works on the last axis and keeps the (1,)
#> (None, 1, 7)
try:
    model.fit(features, y, verbose=0)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Arguments `target` and `output` must have the same rank (ndim). Received: target.shape=(None, 7), output.shape=(None, 1, 7)
    """
# The other way round: labels with the extra axis, (4, 1, 7), against an output of (4, 7).
try:
    classifier((8,)).fit(features[:, 0], y[:, None], verbose=0)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Arguments `target` and `output` must have the same rank (ndim). Received: target.shape=(None, 1, 7), output.shape=(None, 7)
    """

# The fix: one shape for both. Drop the samples' extra axis (or Flatten in the model)...
flat = features.reshape(len(features), -1)
history = classifier((8,)).fit(flat, y, verbose=0)
print(flat.shape, sorted(history.history))
#> (4, 8) ['loss']
print(keras.Sequential([keras.Input((1, 8)), keras.layers.Flatten(name="flat"), keras.layers.Dense(7, name="head")]).output_shape)
#> (None, 7)
# ...and squeeze the labels' extra axis.
print(np.squeeze(y[:, None], axis=1).shape, y[:, None].reshape(-1, 7).shape)
#> (4, 7) (4, 7)
# --8<-- [end:keras_extra_axis]

# --8<-- [start:keras_to_categorical_labels]
import keras
import numpy as np
import torch
import torch.nn.functional as F

labels = np.array([8, 4, 6, 3, 5, 9, 7, 2])  # 8 distinct classes, numbered 2 to 9
try:
    keras.utils.to_categorical(labels, num_classes=8)
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: index 8 is out of bounds for axis 1 with size 8
try:
    np.eye(8)[labels]  # the NumPy way to one-hot: the same cause, axis 0
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: index 8 is out of bounds for axis 0 with size 8
try:
    F.one_hot(torch.from_numpy(labels), num_classes=8)  # PyTorch checks the labels
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Class values must be smaller than num_classes.

# The fix: number the classes 0 to 7 (np.unique sorts them and gives each label its rank).
classes, index = np.unique(labels, return_inverse=True)
print(classes, index)
#> [2 3 4 5 6 7 8 9] [6 2 4 1 3 7 5 0]
print(labels - labels.min())  # the same here, as the labels are consecutive
#> [6 2 4 1 3 7 5 0]
print(keras.utils.to_categorical(index, num_classes=len(classes)).shape)
#> (8, 8)
# Or keep the labels as indices and ask for one column per index up to the largest.
print(keras.utils.to_categorical(labels, num_classes=labels.max() + 1).shape)
#> (8, 10)
# --8<-- [end:keras_to_categorical_labels]

# --8<-- [start:keras_sparse_segmentation_labels]
import keras
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
logits = rng.normal(size=(2, 4, 4, 3)).astype("float32")  # a segmentation output: 2 images, 4 x 4 pixels, 3 classes
sparse = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
masks = rng.integers(0, 3, (2, 4, 4))  # one class index per pixel
onehot_masks = np.eye(3, dtype="float32")[masks]  # the same masks one-hot: (2, 4, 4, 3)
try:
    sparse(onehot_masks, logits)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Argument `output` must have rank (ndim) `target.ndim - 1`. Received: target.shape=(2, 4, 4, 3), output.shape=(2, 4, 4, 3)
    """
small_masks = masks[:, ::2, ::2]  # masks of another size than the output
try:
    sparse(small_masks, logits)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Arguments `target` and `output` must have the same shape up until the last dimension: target.shape=(2, 2, 2), output.shape=(2, 4, 4, 3)
    """
try:
    tf.nn.sparse_softmax_cross_entropy_with_logits(small_masks, logits)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: `labels.shape` must equal `logits.shape` except for the last dimension. Received: labels.shape=(2, 2, 2) and logits.shape=(2, 4, 4, 3)
    """

# The fix: one class index per pixel, at the output's size; (N, H, W, 1) is accepted too.
print(round(float(sparse(onehot_masks.argmax(-1), logits)), 4), round(float(sparse(masks[..., None], logits)), 4))
#> 1.2071 1.2071
# Or keep the one-hot masks with the categorical loss: the same value.
print(round(float(keras.losses.CategoricalCrossentropy(from_logits=True)(onehot_masks, logits)), 4))
#> 1.2071
# Masks of another size: resize them with "nearest", which keeps class indices whole.
resized = tf.image.resize(small_masks[..., None], (4, 4), method="nearest")
print(resized.shape, round(float(sparse(resized, logits)), 4))  # a loss, no error
#> (2, 4, 4, 1) 1.3425
blended = tf.image.resize(small_masks[..., None].astype("float32"), (4, 4))  # the default, bilinear
print(np.unique(resized).tolist(), bool((blended.numpy() % 1 != 0).any()))  # nearest: class indices only; bilinear: fractions, no class
#> [0, 1, 2] True
# --8<-- [end:keras_sparse_segmentation_labels]

# --8<-- [start:tf_matrix_size_incompatible]
import tensorflow as tf

# message(err): the helper defined in the first TensorFlow section.
a = tf.ones((4, 3))
b = tf.ones((4, 3))
try:
    tf.matmul(a, b)
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    #> InvalidArgumentError: Matrix size-incompatible: In[0]: [4,3], In[1]: [4,3]

# The fix: the inner sizes must agree; here, transpose the second operand.
print(tf.matmul(a, b, transpose_b=True).shape)
#> (4, 4)
# --8<-- [end:tf_matrix_size_incompatible]

# --8<-- [start:tf_reshape_values]
import tensorflow as tf

# message(err): the helper defined in the first TensorFlow section.
x = tf.range(6)
try:
    tf.reshape(x, (4, 2))
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    """
    InvalidArgumentError: Input to reshape is a tensor with 6 values, but the requested shape has 8
    """
try:
    tf.reshape(x, (-1, 4))
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    """
    InvalidArgumentError: Input to reshape is a tensor with 6 values, but the requested shape requires a multiple of 4
    """

# The fix: the sizes must multiply to tf.size(x); -1 takes the rest.
print(tf.size(x).numpy(), tf.reshape(x, (-1, 3)).shape)
#> 6 (2, 3)
# --8<-- [end:tf_reshape_values]

# --8<-- [start:tf_keras_flatten]
import re

import tensorflow as tf

tf.keras.utils.set_random_seed(0)
# Built for sequences of length 6: Flatten gives 4 * 2 = 8 values to Dense.
model = tf.keras.Sequential(
    [
        tf.keras.Input((6, 4)),
        tf.keras.layers.Conv1D(2, 3),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(1),
    ]
)
try:
    model(tf.ones((2, 9, 4)))  # length 9: Flatten now gives 7 * 2 = 14
except ValueError as err:
    line = next(part for part in str(err).splitlines() if "incompatible" in part)
    line = re.sub(r"\x1b\[[0-9;]*m", "", line)  # drop the bold markers
    print(f"{type(err).__name__}: {line}")
    """
    ValueError: Input 0 with name 'None' of layer 'dense' is incompatible with the layer: expected axis -1 of input shape to have value 8, but received input with shape (2, 14)
    """

# The fix: global pooling instead of Flatten accepts any length (or rebuild for the new one).
pooled = tf.keras.Sequential(
    [
        tf.keras.Input((None, 4)),
        tf.keras.layers.Conv1D(2, 3),
        tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(1),
    ]
)
print(pooled(tf.ones((2, 6, 4))).shape, pooled(tf.ones((2, 9, 4))).shape)
#> (2, 1) (2, 1)
# --8<-- [end:tf_keras_flatten]

# --8<-- [start:tf_reshape_float_shape]
import tensorflow as tf

inputs = tf.zeros((2, 12))
n_channels, input_depth = 3, 12
try:
    tf.reshape(inputs, [-1, n_channels, input_depth / n_channels])  # 12 / 3 is 4.0
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {err.message.splitlines()[0]}")  # without the op's signature
    """
    InvalidArgumentError: Value for attr 'Tshape' of float is not in the list of allowed values: int32, int64
    """

# The fix: // (or int()) keeps the size an integer.
print(input_depth / n_channels, input_depth // n_channels)
#> 4.0 4
print(tf.reshape(inputs, [-1, n_channels, input_depth // n_channels]).shape)
#> (2, 3, 4)
# --8<-- [end:tf_reshape_float_shape]


# --8<-- [start:tf_graph_reshape_float_shape]
@tf.function  # runs as a graph, as TensorFlow 1 code does
def split_channels(x):
    return tf.reshape(x, [-1, n_channels, input_depth / n_channels])


try:
    split_channels(inputs)
except TypeError as err:
    print(str(err).strip().splitlines()[-1].strip())  # the last line, without the file
    """
    TypeError: Value passed to parameter 'shape' has DataType float32 not in list of allowed values: int32, int64
    """
# --8<-- [end:tf_graph_reshape_float_shape]

# --8<-- [start:tf_index_out_of_bounds]
import tensorflow as tf

# message(err): the helper defined in the first TensorFlow section.
x = tf.range(3)
try:
    x[3]
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    #> InvalidArgumentError: slice index 3 of dimension 0 out of bounds.

print(issubclass(tf.errors.InvalidArgumentError, IndexError))  # except IndexError misses it
#> False

# The fix: valid indices run from 0 to size - 1 (or from -size to -1).
print(x[2].numpy(), x[-1].numpy())
#> 2 2
# --8<-- [end:tf_index_out_of_bounds]

# --8<-- [start:tf_gather_nd_invalid_index]
import tensorflow as tf

# message(err): the helper defined in the first TensorFlow section.
rnn_out = tf.reshape(tf.range(24.0), (3, 4, 2))  # (batch, time, features)
seq_len = tf.constant([4, 0, 2])  # the second sequence is empty
last = tf.stack([tf.range(3), seq_len - 1], axis=1)  # [1, -1] for the empty one
try:
    tf.gather_nd(rnn_out, last)
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    """
    InvalidArgumentError: indices[1] = [1, -1] does not index into param shape [3,4,2], node name: GatherNd
    """

# The fix: never index -1; give empty sequences zeros explicitly.
safe = tf.stack([tf.range(3), tf.maximum(seq_len - 1, 0)], axis=1)
picked = tf.gather_nd(rnn_out, safe)
print(tf.where((seq_len > 0)[:, None], picked, 0.0).numpy().tolist())
#> [[6.0, 7.0], [0.0, 0.0], [18.0, 19.0]]
# --8<-- [end:tf_gather_nd_invalid_index]

# --8<-- [start:tf_gather_not_in_range]
import tensorflow as tf

# message(err): the helper defined in the first TensorFlow section.
embeddings = tf.reshape(tf.range(6.0), (3, 2))  # a vocabulary of 3
ids = tf.constant([0, 5])  # 5 is out of range
for lookup in (tf.nn.embedding_lookup, tf.gather):
    try:
        lookup(embeddings, ids)
    except tf.errors.InvalidArgumentError as err:
        print(f"{type(err).__name__}: {message(err)}")
        #> InvalidArgumentError: indices[1] = 5 is not in [0, 3)
        #> InvalidArgumentError: indices[1] = 5 is not in [0, 3)

# The fix: check the ids where they are made (raises on every device), or clip them.
try:
    tf.debugging.assert_less(ids, tf.shape(embeddings, out_type=ids.dtype)[0])
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err).splitlines()[0]}")
    #> InvalidArgumentError: Condition x < y did not hold.
print(tf.gather(embeddings, tf.clip_by_value(ids, 0, 2)).numpy().tolist())
#> [[0.0, 1.0], [4.0, 5.0]]

# Keras: Embedding(input_dim=...) is the number of ids, the largest id + 1.
import re

import keras

word_ids = tf.constant([[3], [10000]])  # ids 0 to 10000: the largest is 10000
try:
    keras.layers.Embedding(input_dim=10000, output_dim=2)(word_ids)  # rows 0 to 9999
except tf.errors.InvalidArgumentError as err:
    found = re.search(r"indices\S* = \d+ is not in \[0, \d+\)", str(err))
    print(f"{type(err).__name__}: {found.group()}")
    #> InvalidArgumentError: indices[1,0] = 10000 is not in [0, 10000)
print(keras.layers.Embedding(input_dim=10000 + 1, output_dim=2)(word_ids).shape)  # largest id + 1
#> (2, 1, 2)
# --8<-- [end:tf_gather_not_in_range]

# --8<-- [start:tf_scatter_update_shape]
import tensorflow as tf

# message(err): the helper defined in the first TensorFlow section.
x = tf.zeros((4, 6))
y = tf.ones((4, 3))  # new values for columns 0 to 2: x[:, :3] = y in NumPy
rows = [[0], [1], [2], [3]]  # each index of depth 1 addresses a whole row of 6
try:
    tf.tensor_scatter_nd_update(x, rows, y)
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    """
    InvalidArgumentError: The inner 1 dimensions of output.shape=[4,6] must match the inner 1 dimensions of updates.shape=[4,3]
    """

# The fix: join the new columns to the old ones...
joined = tf.concat([y, x[:, 3:]], axis=1)
print(joined.numpy())
"""
[[1. 1. 1. 0. 0. 0.]
 [1. 1. 1. 0. 0. 0.]
 [1. 1. 1. 0. 0. 0.]
 [1. 1. 1. 0. 0. 0.]]
"""
# ...or scatter into the transposed tensor, where each column is a row of 4.
columns = [[0], [1], [2]]
scattered = tf.transpose(tf.tensor_scatter_nd_update(tf.transpose(x), columns, tf.transpose(y)))
print(bool(tf.reduce_all(scattered == joined)))
#> True
# ...or give each element its (row, column) pair: indices of depth 2 take y as it is.
pairs = tf.stack(tf.meshgrid(tf.range(4), tf.range(3), indexing="ij"), axis=-1)
print(pairs.shape, bool(tf.reduce_all(tf.tensor_scatter_nd_update(x, pairs, y) == joined)))
#> (4, 3, 2) True
# --8<-- [end:tf_scatter_update_shape]

# --8<-- [start:tf_tensor_as_index]
import numpy as np
import tensorflow as tf
import torch

# message(err): the helper defined in the first TensorFlow section.
A = tf.constant([10.0, 20.0, 30.0, 40.0])  # the values
B = tf.constant([[3, 0], [1, 1]])  # an index for each element of the result
try:
    A[B.numpy().tolist()]  # a list of indices, as NumPy and PyTorch take it
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 tensors are valid indices, got [3, 0]
    """
try:
    A[B]  # the index tensor itself: read as begin/end of a slice
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    """
    InvalidArgumentError: Expected begin, end, and strides to be 1D equal size tensors, but got shapes [1,2,2], [1,2,2], and [1] instead.
    """

# The fix: tf.gather; the result has B's shape, C[i, j] = A[B[i, j]].
print(tf.gather(A, B).numpy())
"""
[[40. 10.]
 [20. 20.]]
"""
a, b = A.numpy(), B.numpy()
print(a[b].tolist(), torch.from_numpy(a)[torch.from_numpy(b)].tolist())  # NumPy, PyTorch: x[index]
#> [[40.0, 10.0], [20.0, 20.0]] [[40.0, 10.0], [20.0, 20.0]]
# --8<-- [end:tf_tensor_as_index]

# --8<-- [start:tf_bool_index_axis]
import tensorflow as tf

maps = tf.reshape(tf.range(24), (2, 3, 4))
rows = tf.constant([True, False])
labels = tf.constant([True, False, True, False])
print(maps[rows].shape)  # a mask as the whole index selects along axis 0
#> (1, 3, 4)
try:
    maps[:, :, labels]  # a mask after slices
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar tf.int32/tf.int64 tensors are valid indices, got <tf.Tensor: shape=(4,), dtype=bool, numpy=array([ True, False,  True, False])>
    """

# The fix: tf.boolean_mask with axis=, or tf.gather at the mask's positions.
picked = tf.boolean_mask(maps, labels, axis=2)
print(picked[0].numpy())  # columns 0 and 2
"""
[[ 0  2]
 [ 4  6]
 [ 8 10]]
"""
print(bool(tf.reduce_all(tf.gather(maps, tf.where(labels)[:, 0], axis=2) == picked)))
#> True
# --8<-- [end:tf_bool_index_axis]

# --8<-- [start:keras_input_ndim]
import keras
import numpy as np


def build():
    return keras.Sequential([keras.layers.Conv2D(4, 3, name="stem_conv"), keras.layers.GlobalAveragePooling2D()])


image = np.zeros((32, 40, 3), dtype="float32")  # one image, height x width x channels
try:
    build().predict(image, verbose=0)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Input 0 with name 'None' of layer 'stem_conv' is incompatible with the layer: expected min_ndim=4, found ndim=3. Full shape received: (32, 40, 3)
    """
print(build().predict(image[None], verbose=0).shape)  # the fix: a batch of one, (1, H, W, C)
#> (1, 4)

inputs = keras.Input(shape=(None, None, 3), name="image")  # Keras: channels last
channels_last = keras.Model(inputs, keras.layers.Conv2D(4, 3)(inputs), name="model")
batch = np.zeros((1, 3, 224, 224), dtype="float32")  # laid out for PyTorch: N, C, H, W
try:
    channels_last(batch)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Input 0 with name 'image' of layer 'model' is incompatible with the layer: expected shape=(None, None, None, 3), found shape=(1, 3, 224, 224)
    """
print(channels_last(np.transpose(batch, (0, 2, 3, 1))).shape)  # the fix: N, H, W, C
#> (1, 222, 222, 4)
# --8<-- [end:keras_input_ndim]

# --8<-- [start:keras_grayscale_channel]
import keras
import numpy as np


def cnn(*inputs):
    """The convolutional network of a CIFAR-10 tutorial, written without an input shape."""
    keras.utils.set_random_seed(0)
    model = keras.Sequential(
        [
            *inputs,
            keras.layers.Conv2D(4, 3, activation="relu", name="conv2d"),
            keras.layers.GlobalAveragePooling2D(name="pool"),
            keras.layers.Dense(10, activation="softmax", name="head"),
        ]
    )
    model.compile("adam", "sparse_categorical_crossentropy")
    return model


images = np.zeros((8, 28, 28), dtype="float32")  # Fashion-MNIST: greyscale, (N, 28, 28)
labels = np.arange(8)
try:
    cnn().fit(images, labels, verbose=0)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Input 0 with name 'None' of layer 'conv2d' is incompatible with the layer: expected min_ndim=4, found ndim=3. Full shape received: (None, 28, 28)
    """

# The fix: give the images a channel axis of 1, and the model that input shape.
print(images[..., None].shape, images.reshape(-1, 28, 28, 1).shape)
#> (8, 28, 28, 1) (8, 28, 28, 1)
model = cnn(keras.Input((28, 28, 1)))
model.fit(images[..., None], labels, verbose=0)
print(model.output_shape)
#> (None, 10)
# --8<-- [end:keras_grayscale_channel]

# --8<-- [start:keras_one_sample]
import re

import keras
import numpy as np

model = keras.Sequential([keras.Input((2,), name="features"), keras.layers.Dense(1)])
model.set_weights([np.array([[1.0], [10.0]], dtype="float32"), np.zeros(1, dtype="float32")])  # a + 10 b
sample = np.array([3.0, 4.0])  # one sample of two numbers: shape (2,)
try:
    model.predict(sample, verbose=0)
except ValueError as err:
    line = next(part for part in str(err).splitlines() if "Invalid input shape" in part)
    line = re.sub(r"\x1b\[[0-9;]*m", "", line)  # drop the bold markers
    print(f"{type(err).__name__}: {line}")
    """
    ValueError: Invalid input shape for input Tensor("data:0", shape=(2,), dtype=float32) with name 'features' and path ''. Expected shape (None, 2), but input has incompatible shape (2,)
    """
print(model.predict(sample[None], verbose=0))  # the fix: a batch of one sample, shape (1, 2)
#> [[43.]]
print(model.predict(sample.reshape(1, -1), verbose=0))
#> [[43.]]
# --8<-- [end:keras_one_sample]

# --8<-- [start:keras_lstm_ndim]
import re

import keras
import numpy as np

table = np.zeros((6, 57), dtype="float32")  # 6 rows of 57 features: (samples, features)
try:
    keras.Sequential([keras.Input((57,), name="rows"), keras.layers.LSTM(4, name="lstm")], name="rnn")
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Input 0 with name 'None' of layer 'lstm' is incompatible with the layer: expected ndim=3, found ndim=2. Full shape received: (None, 57)
    """

# input_shape=table.shape, as the reader wrote it: the 6 rows become 6 time steps of one sample.
model = keras.Sequential([keras.Input(table.shape, name="rows"), keras.layers.LSTM(4, name="lstm")], name="rnn")
try:
    model.predict(table, verbose=0)
except ValueError as err:
    line = next(part for part in str(err).splitlines() if "Invalid input shape" in part)
    line = re.sub(r"\x1b\[[0-9;]*m", "", line)  # drop the bold markers
    print(f"{type(err).__name__}: {line}")
    """
    ValueError: Invalid input shape for input Tensor("data:0", shape=(6, 57), dtype=float32) with name 'rows' and path ''. Expected shape (None, 6, 57), but input has incompatible shape (6, 57)
    """

# The fix: make the data 3-D, (samples, timesteps, features), and give the model one sample's shape.
steps = table.reshape(6, 1, 57)  # each row one sample of a single time step
model = keras.Sequential([keras.Input((1, 57), name="rows"), keras.layers.LSTM(4, name="lstm")], name="rnn")
print(steps.shape, model.predict(steps, verbose=0).shape)
#> (6, 1, 57) (6, 4)
windows = table.reshape(2, 3, 57)  # or consecutive rows as sequences: 2 samples of 3 steps
model = keras.Sequential([keras.Input((3, 57), name="rows"), keras.layers.LSTM(4, name="lstm")], name="rnn")
print(windows.shape, model.predict(windows, verbose=0).shape)
#> (2, 3, 57) (2, 4)
# --8<-- [end:keras_lstm_ndim]

# --8<-- [start:keras_lstm_series]
import keras
import numpy as np

series = np.arange(10, dtype="float32")  # 0, 1, ..., 9: predict the next number
windows = np.lib.stride_tricks.sliding_window_view(series[:-1], 5)  # the reader's (5, 5) matrix, no loop
targets = series[5:]  # the number after each window
print(windows.shape, windows[0], targets[0], "|", windows[-1], targets[-1])
#> (5, 5) [0. 1. 2. 3. 4.] 5.0 | [4. 5. 6. 7. 8.] 9.0

# Rows are samples, columns are time steps; each step holds one value: a feature axis of 1.
x = windows[..., np.newaxis]  # (samples, timesteps, features)
model = keras.Sequential([keras.Input((5, 1)), keras.layers.LSTM(8), keras.layers.Dense(1)])
print(x.shape, model(x).shape, targets.shape)  # one prediction per window, one target each
#> (5, 5, 1) (5, 1) (5,)

# np.expand_dims(windows, axis=0) instead: one sample of 5 steps with 5 features each.
one_sample = np.expand_dims(windows, axis=0)
model_5 = keras.Sequential([keras.Input((5, 5)), keras.layers.LSTM(8), keras.layers.Dense(1)])
print(one_sample.shape, model_5(one_sample).shape)  # one prediction for 5 targets
#> (1, 5, 5) (1, 1)
model_5.compile(optimizer="adam", loss="mse")
try:
    model_5.fit(one_sample, targets, verbose=0)
except ValueError as err:
    print(f"{type(err).__name__}: {' '.join(str(err).split())}")
    """
    ValueError: Data cardinality is ambiguous. Make sure all arrays contain the same number of samples.'x' sizes: 1 'y' sizes: 5
    """
# --8<-- [end:keras_lstm_series]

# --8<-- [start:keras_lstm_4d]
import keras
import numpy as np
import torch

maps = np.zeros((2, 6, 4, 5), dtype="float32")  # (batch, 6 time steps, 4, 5): a conv layer's output
try:
    keras.Sequential([keras.Input((6, 4, 5)), keras.layers.LSTM(3, name="encoder")])
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Input 0 with name 'None' of layer 'encoder' is incompatible with the layer: expected ndim=3, found ndim=4. Full shape received: (None, 6, 4, 5)
    """
try:  # PyTorch's LSTM refuses a 4-D input as well
    torch.nn.LSTM(20, 3, batch_first=True)(torch.from_numpy(maps))
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: LSTM: Expected input to be 2D or 3D, got 4D instead

# The fix: inside the model, merge the axes after the time axis into features, (batch, 6, 4 * 5).
model = keras.Sequential([keras.Input((6, 4, 5)), keras.layers.Reshape((6, 4 * 5), name="merge"), keras.layers.LSTM(3, name="encoder")])
print(model.layers[0].output.shape, model(maps).shape)
#> (None, 6, 20) (2, 3)
# Time on another axis (the last, here): move it to axis 1 first with Permute, then merge the rest.
model = keras.Sequential(
    [keras.Input((6, 4, 5)), keras.layers.Permute((3, 1, 2), name="time_first"), keras.layers.Reshape((5, 6 * 4), name="merge"), keras.layers.LSTM(3, name="encoder")]
)
print([layer.output.shape for layer in model.layers[:2]], model(maps).shape)
#> [(None, 5, 6, 4), (None, 5, 24)] (2, 3)
print(torch.nn.LSTM(20, 3, batch_first=True)(torch.from_numpy(maps).flatten(2))[0].shape)  # PyTorch: flatten(2)
#> torch.Size([2, 6, 3])
# --8<-- [end:keras_lstm_4d]

# --8<-- [start:keras_input_shape_batch]
import warnings

import keras
import numpy as np

X = np.zeros((60000, 28, 28, 1), dtype="float32")  # 60000 images of 28 x 28 pixels, 1 channel
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        keras.Sequential([keras.layers.Conv2D(8, 3, input_shape=np.shape(X))])  # the whole array's shape
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        """
        ValueError: Kernel shape must have the same length as input, but received kernel of shape (3, 3, 1, 8) and input of shape (None, 60000, 28, 28, 1).
        """
print([f"{w.category.__name__}: {w.message}" for w in caught])
"""
['UserWarning: Do not pass an `input_shape`/`input_dim` argument to a layer. When using Sequential models, prefer using an `Input(shape)` object as the first layer in the model instead.']
"""

model = keras.Sequential([keras.Input(X.shape[1:]), keras.layers.Conv2D(8, 3)])  # the fix: one image's shape
print(X.shape[1:], model.predict(X[:2], verbose=0).shape)
#> (28, 28, 1) (2, 26, 26, 8)
# --8<-- [end:keras_input_shape_batch]

# --8<-- [start:keras_flatten_dense]
import re

import keras
import numpy as np

model = keras.Sequential(
    [
        keras.Input((128, 128, 3)),
        keras.layers.Conv2D(1, 3, padding="same"),
        keras.layers.Flatten(),  # 128 * 128 * 1 = 16384 features
        keras.layers.Dense(2, name="dense"),
    ]
)
images = np.zeros((1, 256, 256, 3), dtype="float32")  # larger images than the model was built for
try:
    model.predict(images, verbose=0)
except ValueError as err:
    line = next(part for part in str(err).splitlines() if "incompatible" in part)
    line = re.sub(r"\x1b\[[0-9;]*m", "", line)  # drop the bold markers
    print(f"{type(err).__name__}: {line}")
    """
    ValueError: Input 0 with name 'None' of layer 'dense' is incompatible with the layer: expected axis -1 of input shape to have value 16384, but received input with shape (1, 65536)
    """

print(model.predict(keras.layers.Resizing(128, 128)(images), verbose=0).shape)  # fix 1: resize
#> (1, 2)
pooled = keras.Sequential(  # fix 2: global pooling gives one value per channel, whatever the size
    [
        keras.Input((None, None, 3)),
        keras.layers.Conv2D(1, 3, padding="same"),
        keras.layers.GlobalAveragePooling2D(),
        keras.layers.Dense(2),
    ]
)
print(pooled.predict(images, verbose=0).shape, pooled.predict(images[:, :128, :128], verbose=0).shape)
#> (1, 2) (1, 2)
# --8<-- [end:keras_flatten_dense]

# --8<-- [start:mat1_mat2_adapter]
import torch

# The second shape in the message is the layer's weight, transposed: in_features x out_features.
adapter = torch.nn.Linear(768, 16)  # built for 768-wide embeddings
embedding = torch.zeros(1, 1024)  # what another image encoder produces
try:
    adapter(embedding)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (1x1024 and 768x16)
print(tuple(adapter.weight.shape), tuple(adapter.weight.t().shape))
#> (16, 768) (768, 16)
# --8<-- [end:mat1_mat2_adapter]

# --8<-- [start:mat1_mat2_cat]
import torch

torch.manual_seed(0)
# Six inputs, a batch of N = 4 each, through one CNN branch that gives F = 2 features.
branch = torch.nn.Sequential(torch.nn.Conv2d(1, 2, 3), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten())
head = torch.nn.Linear(6 * 2, 3)  # built for the six branches' features side by side: 6F = 12
features = [branch(torch.zeros(4, 1, 5, 5)) for _ in range(6)]
joined = torch.cat(features, 0)  # dim 0 is the batch axis: 24 rows of 2 features
print(features[0].shape, joined.shape, torch.cat(features).shape)
#> torch.Size([4, 2]) torch.Size([24, 2]) torch.Size([24, 2])
try:
    head(joined)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: addmm: mat1 and mat2 shapes cannot be multiplied (24x2 and 12x3)

# The fix: join the features along dim=1, one row of 6F features per sample.
joined = torch.cat(features, dim=1)
print(joined.shape, head(joined).shape)
#> torch.Size([4, 12]) torch.Size([4, 3])
# --8<-- [end:mat1_mat2_cat]

# --8<-- [start:size_mismatch_mse]
import warnings

import torch
import torch.nn.functional as F

outputs = torch.zeros(4, 10)  # 10 class scores per sample
labels = torch.tensor([3, 0, 9, 1])  # class indices: what cross_entropy takes
print(round(F.cross_entropy(outputs, labels).item(), 4))
#> 2.3026
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        F.mse_loss(outputs, labels.float())  # MSE compares element by element
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        """
        RuntimeError: The size of tensor a (10) must match the size of tensor b (4) at non-singleton dimension 1
        """
print(f"{caught[0].category.__name__}: {caught[0].message}")
"""
UserWarning: Using a target size (torch.Size([4])) that is different to the input size (torch.Size([4, 10])). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.
"""

# The fix for MSE: a target of the output's shape, here one-hot rows of floats.
target = F.one_hot(labels, num_classes=10).float()
print(tuple(target.shape), round(F.mse_loss(outputs, target).item(), 4))
#> (4, 10) 0.1
# --8<-- [end:size_mismatch_mse]

# --8<-- [start:one_hot_eye]
import tensorflow as tf
import torch
import torch.nn.functional as F

true = torch.tensor([[2], [0], [1]])  # labels as a column, (N, 1), as a mask's loader gives them
num_classes = 3
by_eye = torch.eye(num_classes + 1)[true.squeeze(1)]
by_one_hot = F.one_hot(true.squeeze(1), num_classes + 1)
print(by_eye.dtype, by_one_hot.dtype)  # the same 0s and 1s, not the same dtype
#> torch.float32 torch.int64
print(torch.equal(by_eye, by_one_hot.float()), tuple(by_one_hot.shape))
#> True (3, 4)
# Without squeeze(1), both keep the extra axis: (N, 1, C).
print(tuple(torch.eye(num_classes + 1)[true].shape), tuple(F.one_hot(true, num_classes + 1).shape))
#> (3, 1, 4) (3, 1, 4)
# Without num_classes, one_hot counts the classes as labels.max() + 1: here 3, not 4.
print(tuple(F.one_hot(true.squeeze(1)).shape))
#> (3, 3)
try:
    F.one_hot(true.squeeze(1).float(), num_classes + 1)  # labels must be int64
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: one_hot is only applicable to index tensor of type LongTensor.
# TensorFlow's tf.one_hot gives float32, like torch.eye.
print(tf.one_hot([2, 0, 1], num_classes + 1).dtype)
#> <dtype: 'float32'>
# --8<-- [end:one_hot_eye]

# --8<-- [start:inplace_broadcast]
import torch

features = torch.zeros(4, 1, 28)
maps = torch.ones(4, 4, 28, 28)
try:
    features += maps  # in place: the result must fit features' own shape
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: output with shape [4, 1, 28] doesn't match the broadcast shape [4, 4, 28, 28]
try:
    features.mul_(torch.ones(4, 28, 28))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: output with shape [4, 1, 28] doesn't match the broadcast shape [4, 28, 28]

# Out of place, the result is a new tensor of the broadcast shape.
print(tuple((features + maps).shape))
#> (4, 4, 28, 28)
# In place works when the left operand already has the broadcast shape.
print(tuple(maps.add_(features).shape))
#> (4, 4, 28, 28)
# --8<-- [end:inplace_broadcast]

# --8<-- [start:scatter_src_dims]
import torch

rows = torch.zeros(3, 4)
index = torch.tensor([[0, 1], [1, 2], [2, 3]])  # two positions per row
values = torch.tensor([1.0, 2.0])  # 1-D: meant for every row
try:
    rows.scatter(1, index, values)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Index tensor must have the same number of dimensions as src tensor
try:
    rows.scatter(1, torch.tensor([0, 1, 2]), 1.0)  # a 1-D index into a 2-D tensor
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Index tensor must have the same number of dimensions as self tensor

# The fix: give src (and index) as many dimensions as the tensor, one row per index row.
print(rows.scatter(1, index, values.expand(3, 2)))
"""
tensor([[1., 2., 0., 0.],
        [0., 1., 2., 0.],
        [0., 0., 1., 2.]])
"""
# An empty index is accepted and changes nothing.
print(rows.scatter(1, torch.empty(3, 0, dtype=torch.long), 1.0).sum())
#> tensor(0.)
# --8<-- [end:scatter_src_dims]

# --8<-- [start:gather_index_dims]
import numpy as np
import torch

values = torch.tensor([10.0, 20.0, 30.0])  # a 1-D input
index = torch.tensor([[0, 2], [1, 1]])  # a 2-D index: two picks per row
try:
    torch.gather(values, 0, index)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Index tensor must have the same number of dimensions as input tensor
try:
    torch.take_along_dim(values, index, dim=0)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: torch.take_along_dim(): input and indices should have the same number of dimensions, but got 1 dimensions for input, and 2 dimensions for indices
    """
try:
    np.take_along_axis(values.numpy(), index.numpy(), axis=0)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: `indices` and `arr` must have the same number of dimensions
# A 0-d index, or a 0-d input, is accepted:
print(torch.gather(values, 0, torch.tensor(2)), torch.gather(torch.tensor(5.0), 0, torch.tensor([0, 0])))
#> tensor(30.) tensor([5., 5.])

# The fix: give the input the index's number of dimensions (expand copies nothing),
# or index the 1-D input with the 2-D index directly.
print(torch.gather(values.expand(2, -1), 1, index))
"""
tensor([[10., 30.],
        [20., 20.]])
"""
print(values[index])
"""
tensor([[10., 30.],
        [20., 20.]])
"""
# --8<-- [end:gather_index_dims]

# --8<-- [start:gather_index_larger]
import torch

scores = torch.arange(20.0).reshape(4, 5)  # 4 samples, 5 classes
labels = torch.tensor([[1], [0], [4], [2], [3]])  # one label too many
try:
    scores.gather(1, labels)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Size does not match at dimension 0 expected index [5, 1] to be no larger than self [4, 5] apart from dimension 1
    """

# A smaller index raises nothing: it reads the first rows only.
print(scores.gather(1, labels[:2]))
"""
tensor([[1.],
        [5.]])
"""
# The fix: one index row per row of scores.
print(scores.gather(1, labels[:4]))
"""
tensor([[ 1.],
        [ 5.],
        [14.],
        [17.]])
"""
# --8<-- [end:gather_index_larger]

# --8<-- [start:loss_batch_size]
import torch
import torch.nn.functional as F

features = torch.zeros(2, 3, 4)  # a batch of 2 samples, each 3 x 4
targets = torch.tensor([0, 2])  # one class per sample
head = torch.nn.Linear(4, 3)
logits = head(features.view(-1, 4))  # 6 rows: the batch axis was folded in
try:
    F.cross_entropy(logits, targets)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Expected input batch_size (6) to match target batch_size (2).

# The fix: keep axis 0, the batch, and flatten the rest.
head = torch.nn.Linear(12, 3)
logits = head(features.flatten(1))
print(tuple(logits.shape), F.cross_entropy(logits, targets).shape)
#> (2, 3) torch.Size([])
# --8<-- [end:loss_batch_size]

# --8<-- [start:keras_data_cardinality]
import keras
import numpy as np
import torch

x_train, y_train = np.zeros((6, 4), dtype="float32"), np.zeros(6, dtype="int64")  # 6 samples
x_test, y_test = np.zeros((2, 4), dtype="float32"), np.zeros(2, dtype="int64")  # 2 samples
keras.utils.set_random_seed(0)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="softmax", name="head")])
model.compile("adam", "sparse_categorical_crossentropy", run_eagerly=True)
try:
    model.fit(x_train, y_test, verbose=0)  # the training images with the test labels
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Data cardinality is ambiguous. Make sure all arrays contain the same number of samples.'x' sizes: 6
    'y' sizes: 2

    """
first, second = keras.Input((4,)), keras.Input((4,))  # a model with two inputs
two_inputs = keras.Model([first, second], keras.layers.Concatenate(name="join")([first, second]))
try:  # the same check across the inputs of one model
    two_inputs.predict([x_train, x_test], verbose=0)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Data cardinality is ambiguous. Make sure all arrays contain the same number of samples.'x' sizes: 6, 2

    """
try:  # PyTorch's form: a dataset of features and labels
    torch.utils.data.TensorDataset(torch.from_numpy(x_train), torch.from_numpy(y_test))
except AssertionError as err:
    print(f"{type(err).__name__}: {err}")
    #> AssertionError: Size mismatch between tensors

# The fix: pass the arrays that belong together, and check that their first axes agree.
print(len(x_train) == len(y_train), round(float(model.train_on_batch(x_train, y_train)), 4))  # a training step: ln 3
#> True 1.0986
# --8<-- [end:keras_data_cardinality]

# --8<-- [start:multi_target]
import torch
import torch.nn.functional as F

logits = torch.zeros(4, 6)  # 4 samples, 6 classes
targets = torch.tensor([[2], [0], [5], [1]])  # shape (4, 1): a column of class indices
try:
    F.cross_entropy(logits, targets)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: 0D or 1D target tensor expected, multi-target not supported

# The fix: one class index per sample, shape (4,).
print(round(F.cross_entropy(logits, targets.squeeze(1)).item(), 4))
#> 1.7918
# Several labels per sample (multi-hot rows): a binary loss for each class.
multi_hot = torch.zeros(4, 6)
multi_hot[0, [1, 3]] = 1.0
print(round(F.binary_cross_entropy_with_logits(logits, multi_hot).item(), 4))
#> 0.6931
# --8<-- [end:multi_target]

# --8<-- [start:rnn_input_size]
import torch

lstm = torch.nn.LSTM(input_size=1024, hidden_size=8, batch_first=True)
tokens = torch.zeros(2, 5, 768)  # 768 features per token, as BERT-base gives
try:
    lstm(tokens)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: input.size(-1) must be equal to input_size. Expected 1024, got 768

# The fix: input_size is the size of the input's last axis.
lstm = torch.nn.LSTM(input_size=tokens.size(-1), hidden_size=8, batch_first=True)
output, _ = lstm(tokens)
print(tuple(output.shape))
#> (2, 5, 8)
# --8<-- [end:rnn_input_size]

# --8<-- [start:lstm_hidden_batch_size]
import torch

lstm = torch.nn.LSTM(input_size=4, hidden_size=16, batch_first=True)
gru = torch.nn.GRU(input_size=4, hidden_size=16, batch_first=True)
batch_size = 32  # fixed when the model was written
last_batch = torch.zeros(8, 5, 4)  # the last batch holds only 8 samples
h0 = torch.zeros(1, batch_size, 16)
c0 = torch.zeros(1, batch_size, 16)
try:
    lstm(last_batch, (h0, c0))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Expected hidden[0] size (1, 8, 16), got [1, 32, 16]
try:
    gru(last_batch, h0)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Expected hidden size (1, 8, 16), got [1, 32, 16]
# The other way round: a loop that passes each batch's final state to the next batch
# hands the state of the batch of 8 to a full batch of 32.
output, state = lstm(last_batch)
full_batch = torch.zeros(32, 5, 4)
try:
    lstm(full_batch, state)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Expected hidden[0] size (1, 32, 16), got [1, 8, 16]

# The fix: size the initial state from the batch itself, x.size(0) with batch_first=True...
h0 = torch.zeros(1, last_batch.size(0), 16)
c0 = torch.zeros(1, last_batch.size(0), 16)
output, (h_n, c_n) = lstm(last_batch, (h0, c0))
print(tuple(output.shape), tuple(h_n.shape))
#> (8, 5, 16) (1, 8, 16)
# ...or pass no state at all: the LSTM starts from zeros of the right size.
output, (h_n, c_n) = lstm(last_batch)
print(tuple(h_n.shape))
#> (1, 8, 16)
# ...and start a fresh state (None) when a carried state does not fit the batch.
if state[0].size(1) != full_batch.size(0):
    state = None
output, state = lstm(full_batch, state)
print(tuple(state[0].shape))
#> (1, 32, 16)
# --8<-- [end:lstm_hidden_batch_size]

# --8<-- [start:cross_entropy_target_size]
import keras
import torch
import torch.nn.functional as F

torch.manual_seed(0)
logits = torch.randn(2, 5, 7)  # an RNN's output: (batch, seq_len, vocab)
targets = torch.randint(0, 7, (2, 5))  # one token id per position: (batch, seq_len)
try:
    F.cross_entropy(logits, targets)  # nn.CrossEntropyLoss()(logits, targets) raises the same
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Expected target size [2, 7], got [2, 5]

# The fix: the classes go on axis 1, (batch, vocab, seq_len), or flatten the positions.
print(F.cross_entropy(logits.transpose(1, 2), targets).round(decimals=4))
#> tensor(2.7786)
print(F.cross_entropy(logits.reshape(-1, 7), targets.reshape(-1)).round(decimals=4))
#> tensor(2.7786)
# Keras reads the classes from the last axis: (batch, seq_len, vocab) goes in as it is.
loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
print(round(float(loss(targets.numpy(), logits.numpy())), 4))
#> 2.7786
# --8<-- [end:cross_entropy_target_size]

# --8<-- [start:scatter_add_backward]
import torch

values = torch.ones(4, 3, requires_grad=True)
index = torch.zeros(2, 1, dtype=torch.long)  # smaller than values: only values[:2, :1] is used
totals = torch.zeros(4, 5).scatter_add(1, index, values)  # accepted going forwards
print(totals.sum())
#> tensor(2., grad_fn=<SumBackward0>)
try:
    totals.sum().backward()
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Function ScatterAddBackward0 returned an invalid gradient at index 1 - got [2, 1] but expected shape compatible with [4, 3]
    """

# The fix: give src the index's shape, by selecting the values that are really scattered.
used = values[:2, :1]
totals = torch.zeros(4, 5).scatter_add(1, index, used)
totals.sum().backward()
print(values.grad)
"""
tensor([[1., 0., 0.],
        [1., 0., 0.],
        [0., 0., 0.],
        [0., 0., 0.]])
"""
# --8<-- [end:scatter_add_backward]

# --8<-- [start:cat_unet_odd_size]
import torch
import torch.nn.functional as F

skip = torch.zeros(1, 2, 765, 765)  # an encoder's feature map, kept for the skip connection
down = F.avg_pool2d(skip, 2, ceil_mode=True)  # 765 / 2, rounded up: 383
up = F.interpolate(down, scale_factor=2)  # the decoder's way back up: 766
try:
    torch.cat((up, skip), dim=1)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Sizes of tensors must match except in dimension 1. Expected size 766 but got size 765 for tensor number 1 in the list.
    """

# The fix, in the model: pad (or, with negative padding, crop) the upsampled map to the skip's size.
diff_y, diff_x = skip.size(2) - up.size(2), skip.size(3) - up.size(3)
up_fitted = F.pad(up, (diff_x // 2, diff_x - diff_x // 2, diff_y // 2, diff_y - diff_y // 2))
print(diff_y, diff_x, torch.cat((up_fitted, skip), dim=1).shape)
#> -1 -1 torch.Size([1, 4, 765, 765])
# Or, for the input: pad it to a multiple of the total downsampling (2 here), crop the output back.
padded = F.pad(skip, (0, 1, 0, 1))  # 766 x 766
joined = torch.cat((F.interpolate(F.avg_pool2d(padded, 2, ceil_mode=True), scale_factor=2), padded), dim=1)
print(joined.shape, joined[..., :765, :765].shape)
#> torch.Size([1, 4, 766, 766]) torch.Size([1, 4, 765, 765])
# --8<-- [end:cat_unet_odd_size]

# --8<-- [start:max_labels_1d]
import torch
import torch.nn.functional as F

scores = torch.tensor([[2.0, 0.5, 0.1], [0.2, 3.0, 0.4]])  # a model's output, (N, C)
one_hot = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])  # labels of shape (N, C)
print(torch.max(one_hot, 1)[1])  # what torch.max(y, 1)[1] was written for: the class indices
#> tensor([0, 1])
labels = torch.tensor([0, 1])  # the labels as loaded: already class indices, shape (N,)
for call in (lambda: torch.max(labels, 1)[1], lambda: labels.argmax(dim=1)):
    try:
        call()
    except IndexError as err:
        print(f"{type(err).__name__}: {err}")
        #> IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)
        #> IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)

# The fix: use class indices as they are; take argmax only of one-hot (2-D) labels.
targets = labels if labels.ndim == 1 else labels.argmax(dim=1)
print(targets, round(F.cross_entropy(scores, targets).item(), 4))
#> tensor([0, 1]) 0.2217
# --8<-- [end:max_labels_1d]

# --8<-- [start:cross_entropy_1d_output]
import torch
import torch.nn.functional as F

outputs = torch.tensor([0.0174, 0.1866])  # one score per sample, 2 samples: shape (2,)
labels = torch.tensor([0, 1])  # one class per sample: shape (2,)
try:
    torch.nn.CrossEntropyLoss()(outputs, labels)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Expected floating point type for target with class probabilities, got Long
# With float labels it runs: a (C,) input is read as ONE sample of 2 classes, and
# float labels of the same shape as class probabilities. A number, but the wrong loss.
print(round(F.cross_entropy(outputs, labels.float()).item(), 4))
#> 0.6121

# The fix for two classes: (N, C) logits, two scores per sample, and class indices.
logits = torch.tensor([[0.5, -0.5], [0.2, 0.9]])  # e.g. from nn.Linear(hidden, 2)
print(round(F.cross_entropy(logits, labels).item(), 4))
#> 0.3582
# One sample alone: add the batch axis, (C,) -> (1, C), with a target of shape (1,).
print(round(F.cross_entropy(logits[1].unsqueeze(0), labels[1:]).item(), 4))
#> 0.4032
# Or keep one score per sample and use the binary loss, with float labels.
print(round(F.binary_cross_entropy_with_logits(outputs, labels.float()).item(), 4))
#> 0.653
# --8<-- [end:cross_entropy_1d_output]

# --8<-- [start:squeeze_last_batch]
import torch

torch.manual_seed(0)
fc = torch.nn.Linear(4, 1)


def model(hidden):  # hidden: the RNN's last hidden state, (batch, hidden_dim)
    return fc(hidden.squeeze(0))  # a squeeze(0) left over for a (1, batch, hidden_dim) state


print(model(torch.zeros(3, 4)).squeeze(1).shape)  # a full batch: (3, 1), then (3,)
#> torch.Size([3])
last = torch.zeros(1, 4)  # the last batch holds one example
print(model(last).shape)  # squeeze(0) dropped its batch axis: (1,), not (1, 1)
#> torch.Size([1])
try:
    model(last).squeeze(1)
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)

# The fix: squeeze only an axis that is always of size 1, here the last one.
print(fc(last).squeeze(-1).shape, fc(torch.zeros(3, 4)).squeeze(-1).shape)
#> torch.Size([1]) torch.Size([3])
# Or drop the short last batch: 7 examples in batches of 3.
loader = torch.utils.data.DataLoader(torch.zeros(7, 4), batch_size=3, drop_last=True)
print([len(batch) for batch in loader])
#> [3, 3]
# --8<-- [end:squeeze_last_batch]

# --8<-- [start:batchnorm_one_value]
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
data = torch.randn(9, 3)  # 9 samples in batches of 4: the last batch holds one
loader = torch.utils.data.DataLoader(data, batch_size=4)
try:
    for batch in loader:
        model(batch)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Expected more than 1 value per channel when training, got input size torch.Size([1, 4])
    """
# BatchNorm2d counts every pixel of a channel: one image of 2x2 trains, but not
# one of 1x1, as after global pooling.
bn2d = torch.nn.BatchNorm2d(4)
print(bn2d(torch.randn(1, 4, 2, 2)).shape)
#> torch.Size([1, 4, 2, 2])
try:
    bn2d(torch.randn(1, 4, 1, 1))
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: Expected more than 1 value per channel when training, got input size torch.Size([1, 4, 1, 1])
    """

# The fix: drop the short last batch while training...
loader = torch.utils.data.DataLoader(data, batch_size=4, drop_last=True)
print([tuple(model(batch).shape) for batch in loader])
#> [(4, 4), (4, 4)]
# ...and evaluate in eval mode, which uses the running statistics: one sample is fine.
model.eval()
print(model(data[:1]).shape)
#> torch.Size([1, 4])
# --8<-- [end:batchnorm_one_value]

# --8<-- [start:too_many_indices]
import numpy as np
import torch

series = torch.arange(5.0)  # one feature per time step, stored as (T,) rather than (T, 1)
batch = torch.zeros(1, 3, 1)  # (batch, time, features)
try:
    batch[0, :3, :] = series[:3, :]
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: too many indices for tensor of dimension 1
try:
    series.numpy()[:3, :]  # NumPy's message for the same index
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: too many indices for array: array is 1-dimensional, but 2 were indexed

# The fix: give the series its feature axis, (T, 1), before indexing it as 2-D.
if series.ndim == 1:
    series = series.unsqueeze(-1)
batch[0, :3, :] = series[:3, :]
print(series.shape, batch[0, :, 0])
#> torch.Size([5, 1]) tensor([0., 1., 2.])
# --8<-- [end:too_many_indices]

# --8<-- [start:x_t_deprecated]
import warnings

import torch

batch = torch.arange(24.0).reshape(2, 3, 4)  # two 3 x 4 matrices
row = torch.arange(4.0)  # 1-D
torch.set_warn_always(True)  # warn at every use: by default PyTorch gives this warning once per process
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(batch.T.shape, row.T.shape)  # NumPy's meaning: reverse every axis; a 1-D tensor is unchanged
    #> torch.Size([4, 3, 2]) torch.Size([4])
torch.set_warn_always(False)
print(len(caught))
#> 2
# The message ends with the location in PyTorch's C++ sources, which depends on the build.
print(f"{caught[0].category.__name__}: {str(caught[0].message).split(' (Triggered internally')[0]}")
"""
UserWarning: The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.
"""

# The fix: say which axes. mT transposes each matrix of a batch; permute reverses them all.
print(batch.mT.shape, batch.permute(*reversed(range(batch.ndim))).shape, batch.movedim(0, -1).shape)
#> torch.Size([2, 4, 3]) torch.Size([4, 3, 2]) torch.Size([3, 4, 2])
print(torch.equal(batch.permute(2, 1, 0), torch.from_numpy(batch.numpy().T)), row.shape)
#> True torch.Size([4])
# --8<-- [end:x_t_deprecated]

# --8<-- [start:transpose_no_args]
import numpy as np
import torch

features = torch.arange(6.0).reshape(3, 2)  # was a NumPy array, now a tensor
print(features.numpy().transpose().shape)  # NumPy: no arguments reverses the axes
#> (2, 3)
try:
    features.transpose()
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: transpose() missing 2 required positional argument: "dim0", "dim1"

# The fix: .T or .t() for a matrix, mT for a batch of matrices, or name the two dims.
print(features.T.shape, features.t().shape, features.transpose(0, 1).shape, (features @ features.T).shape)
#> torch.Size([2, 3]) torch.Size([2, 3]) torch.Size([2, 3]) torch.Size([3, 3])
# --8<-- [end:transpose_no_args]

# --8<-- [start:transpose_grey_image]
import numpy as np
import torch

grey = np.zeros((4, 5), dtype=np.uint8)  # a greyscale image as read: (H, W), no channel axis
rgb = np.zeros((4, 5, 3), dtype=np.uint8)  # (H, W, C)
print(rgb.transpose(2, 0, 1).shape)  # to (C, H, W): fine for colour images
#> (3, 4, 5)
try:
    grey.transpose(2, 0, 1)  # or np.transpose(grey, (2, 0, 1))
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: axes don't match array
try:
    torch.from_numpy(grey).permute(2, 0, 1)  # PyTorch's wording
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 3
    """

# The fix: give the image a channel axis first: one channel, or three copies (as RGB).
print(grey.ndim, grey[:, :, None].transpose(2, 0, 1).shape)
#> 2 (1, 4, 5)
print(np.stack([grey] * 3, axis=-1).transpose(2, 0, 1).shape)
#> (3, 4, 5)
# --8<-- [end:transpose_grey_image]

# --8<-- [start:numpy_squeeze_axis]
import numpy as np

volume = np.zeros((1, 200, 200, 200), dtype=np.uint8)  # one channel of 200 x 200 x 200
sizes = np.array(volume.shape)  # an array of the four sizes, not the volume
print(sizes, sizes.shape)
#> [  1 200 200 200] (4,)
try:
    sizes.squeeze(axis=0)  # axis 0 of sizes has 4 elements
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: cannot select an axis to squeeze out which has size not equal to one

# The fix: squeeze the array itself, or drop the first size from its shape.
print(volume.squeeze(axis=0).shape, volume.shape[1:])
#> (200, 200, 200) (200, 200, 200)
# --8<-- [end:numpy_squeeze_axis]

# --8<-- [start:numpy_too_many_indices]
import numpy as np
import torch

for values in ([1, 2], [1], [[1]]):
    print(values, "->", np.squeeze(values).shape)  # every axis of length 1 goes
    #> [1, 2] -> (2,)
    #> [1] -> ()
    #> [[1]] -> ()
try:
    np.squeeze([1])[0]
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    #> IndexError: too many indices for array: array is 0-dimensional, but 1 were indexed
try:
    torch.tensor([[1.0]]).squeeze()[0]  # torch.squeeze does the same
except IndexError as err:
    print(f"{type(err).__name__}: {err}")
    """
    IndexError: invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a 0-dim tensor to a number
    """

# The fix: name the axis to remove; .item() reads a single value; reshape(-1) is always 1-D.
print(np.squeeze([[1]], axis=0).shape, np.squeeze([1]).item(), np.squeeze([1]).reshape(-1)[0])
#> (1,) 1 1
# --8<-- [end:numpy_too_many_indices]

# --8<-- [start:tf_squeeze_dim]
import tensorflow as tf

# message(err): the helper defined in the first TensorFlow section.


@tf.function(input_signature=[tf.TensorSpec([None, 98, 5, 512])])
def encode(features):
    return tf.squeeze(features, axis=2)  # built for a height of 1


try:
    encode.get_concrete_function()  # graph mode: the shape is checked when the graph is built
except ValueError as err:
    print(str(err).strip().splitlines()[-1].strip())  # the last line of TensorFlow's message
    """
    ValueError: Can not squeeze dim[2], expected a dimension of 1, got 5 for '{{node Squeeze}} = Squeeze[T=DT_FLOAT, squeeze_dims=[2]](features)' with input shapes: [?,98,5,512].
    """
features = tf.zeros((2, 98, 5, 512))
try:
    tf.squeeze(features, axis=2)  # eager mode: the same check, another class
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {message(err)}")
    #> InvalidArgumentError: Can not squeeze dim[2], expected a dimension of 1, got 5

# The fix: make that axis 1 first, by pooling over it or folding it into the channels.
print(tf.squeeze(tf.reduce_max(features, axis=2, keepdims=True), axis=2).shape)
#> (2, 98, 512)
print(tf.reshape(features, (-1, 98, 5 * 512)).shape)
#> (2, 98, 2560)
# Or feed the height the network reduces to 1: four poolings by 2 divide it by 16.
for height in (80, 16):
    x = tf.zeros((1, height, 32, 1))
    for _ in range(4):
        x = tf.nn.max_pool2d(x, 2, 2, "VALID")
    print(height, "->", x.shape[1])
    #> 80 -> 5
    #> 16 -> 1
# --8<-- [end:tf_squeeze_dim]

# --8<-- [start:tf_keep_dims]
import numpy as np
import tensorflow as tf
import torch

x = tf.constant([[1.0, 2.0], [3.0, 5.0]])
for call in (
    lambda: tf.nn.moments(x, axes=[0], keep_dims=True),  # TensorFlow 1's spelling
    lambda: tf.reduce_sum(x, axis=0, keep_dims=True),
):
    try:
        call()
    except TypeError as err:
        print(f"{type(err).__name__}: {err}")
        #> TypeError: Got an unexpected keyword argument 'keep_dims'
        #> TypeError: Got an unexpected keyword argument 'keep_dims'

# The fix: keepdims in TensorFlow 2 and NumPy, keepdim in PyTorch.
mean, variance = tf.nn.moments(x, axes=[0], keepdims=True)
print(mean.numpy(), variance.numpy())
#> [[2.  3.5]] [[1.   2.25]]
print(np.var(x.numpy(), axis=0, keepdims=True), torch.var(torch.tensor(x.numpy()), dim=0, keepdim=True, correction=0))
#> [[1.   2.25]] tensor([[1.0000, 2.2500]])
# TensorFlow 1's functions, kept in tf.compat.v1, still take keep_dims:
print(tf.compat.v1.reduce_sum(x, axis=0, keep_dims=True).numpy())
#> [[4. 7.]]
# --8<-- [end:tf_keep_dims]

# --8<-- [start:tf_concat_axis_first]
import tensorflow as tf

boxes, scores = tf.ones((4, 2)), tf.ones((4,))  # a list of predictions, ranks 2 and 1
with tf.Graph().as_default():  # TensorFlow 1's graphs, as in the report
    try:
        tf.concat(1, [tf.ones((4, 2)), tf.ones((4,))])  # TensorFlow 0.x's order: axis first
    except ValueError as err:
        print(f"{type(err).__name__}:", " ".join(str(err).split()))  # its two lines on one
        """
        ValueError: Shapes must be equal rank, but are 2 and 1 From merging shape 0 with other shapes. for '{{node concat/concat_dim}} = Pack[N=2, T=DT_INT32, axis=0](concat/Cast, concat/Cast_1)' with input shapes: [4,2], [4].
        """
try:
    tf.concat(1, [boxes, scores])  # eager, as in TensorFlow 2
except tf.errors.InvalidArgumentError as err:
    print(f"{type(err).__name__}: {str(err).split('}} ')[-1]}")  # without the device name
    """
    InvalidArgumentError: Shapes of all inputs must match: values[0].shape = [4,2] != values[1].shape = [4] [Op:Pack] name: concat_dim
    """
try:
    tf.concat(1, [boxes, boxes])  # tensors of one shape
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Shape (2, 4, 2) must have rank 0

# The fix: values first, then the axis (by name, to be safe).
print(tf.concat([boxes, boxes], axis=1).shape, tf.concat([boxes, scores[:, None]], axis=1).shape)
#> (4, 4) (4, 3)
# --8<-- [end:tf_concat_axis_first]

# --8<-- [start:linalg_singular]
import numpy as np
import torch

# A 3 x 3 covariance matrix stored as 9 numbers, read back with an off-by-one loop.
stored = np.array([4.0, 1.0, 0.5, 1.0, 3.0, 0.2, 0.5, 0.2, 2.0])
n = 3
cov = np.zeros((n, n))
for i in range(0, n - 1):  # misses the last row...
    for j in range(0, n - 1):  # ...and the last column: they stay 0
        cov[i, j] = stored[i * n + j]
try:
    np.linalg.inv(cov)
except np.linalg.LinAlgError as err:
    print(f"{type(err).__name__}: {err}")
    #> LinAlgError: Singular matrix
# Look before inverting: rows of zeros, the rank, the condition number.
print(np.where(~cov.any(axis=1))[0], np.linalg.matrix_rank(cov), np.linalg.cond(cov))
#> [2] 2 inf
cov = stored.reshape(n, n)  # the fix: read all of it at once
print(np.linalg.matrix_rank(cov), np.allclose(cov @ np.linalg.inv(cov), np.eye(n)))
#> 3 True

# A design matrix whose columns repeat each other: an intercept and two dummies that sum to it.
X = np.column_stack([np.ones(4), [0, 1, 0, 1], [1, 0, 1, 0]])
y = np.array([1.0, 2.0, 1.0, 2.0])
try:
    np.linalg.inv(X.T @ X)
except np.linalg.LinAlgError as err:
    print(f"{type(err).__name__}: {err}")
    #> LinAlgError: Singular matrix
print(np.linalg.matrix_rank(X), X.shape[1])  # rank below the number of columns
#> 2 3
# The fixes: drop a redundant column, or a least-squares solve that allows it.
print(np.linalg.inv(X[:, :2].T @ X[:, :2]) @ X[:, :2].T @ y)
#> [1. 1.]
print(np.round(np.linalg.pinv(X) @ y, 6) + 0.0, np.round(np.linalg.lstsq(X, y, rcond=None)[0], 6) + 0.0)
#> [1. 1. 0.] [1. 1. 0.]

# PyTorch says it in other words.
try:
    torch.linalg.inv(torch.from_numpy(X.T @ X))
except RuntimeError as err:  # torch.linalg.LinAlgError, a subclass
    print(f"{type(err).__name__}: {err}")
    """
    _LinAlgError: linalg.inv: The diagonal element 3 is zero, the inversion could not be completed because the input matrix is singular.
    """
# --8<-- [end:linalg_singular]
