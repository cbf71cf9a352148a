"""Errors met with torchvision's transforms, models and datasets, each raised for real.

Run with `python examples/errors/torchvision_errors.py`. Images are generated on the
spot and models are built with weights=None, so nothing is downloaded.
"""

# --8<-- [start:to_tensor_on_tensor]
import torch
from torchvision import transforms

image = torch.rand(3, 40, 48)  # already a tensor, as decode_image or a Dataset may give
try:
    transforms.ToTensor()(image)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: pic should be PIL Image or ndarray. Got <class 'torch.Tensor'>

# The fix: a tensor needs no ToTensor; for a uint8 image, ToDtype converts and scales.
from torchvision.transforms import v2

pixels = torch.randint(0, 256, (3, 40, 48), dtype=torch.uint8)
converted = v2.ToDtype(torch.float32, scale=True)(pixels)
print(converted.dtype, converted.max().item() <= 1.0)
#> torch.float32 True
# --8<-- [end:to_tensor_on_tensor]

# --8<-- [start:normalize_uint8]
normalize = v2.Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
try:
    normalize(pixels)  # uint8, as read from an image file
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Input tensor should be a float tensor. Got torch.uint8.

# The fix: convert to float (scaled to 0..1) before Normalize.
preprocess = v2.Compose([v2.ToDtype(torch.float32, scale=True), normalize])
print(preprocess(pixels).dtype)
#> torch.float32
# --8<-- [end:normalize_uint8]

# --8<-- [start:normalize_pil]
pil_image = v2.ToPILImage()(pixels)
try:
    transforms.Normalize(mean=[0.5] * 3, std=[0.5] * 3)(pil_image)  # the old API
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: img should be Tensor Image. Got <class 'PIL.Image.Image'>
try:
    v2.Normalize(mean=[0.5] * 3, std=[0.5] * 3)(pil_image)  # v2 says it in other words
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Normalize() does not support PIL images.

# The fix: make a float tensor of the PIL image first, then normalise.
to_input = v2.Compose(
    [v2.ToImage(), v2.ToDtype(torch.float32, scale=True), v2.Normalize([0.5] * 3, [0.5] * 3)]
)
print(to_input(pil_image).shape)
#> torch.Size([3, 40, 48])
# A batch of float tensors normalises in one call, N x C x H x W.
print(transforms.Normalize(mean=0.5, std=0.5)(torch.rand(2, 3, 40, 48)).shape)
#> torch.Size([2, 3, 40, 48])

# A PNG with an alpha channel is RGBA: 4 channels against 3 means.
rgba_image = pil_image.convert("RGBA")
try:
    to_input(rgba_image)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0
    """
# The fix: drop the alpha channel when opening the image.
print(to_input(rgba_image.convert("RGB")).shape)
#> torch.Size([3, 40, 48])
# --8<-- [end:normalize_pil]

# --8<-- [start:normalize_grey]
digit = torch.rand(1, 28, 28)  # an MNIST image after ToTensor: one channel
try:
    transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))(digit)  # three means: RGB
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: output with shape [1, 28, 28] doesn't match the broadcast shape [3, 28, 28]
# The fix: one mean and one std per channel of the image.
print(transforms.Normalize((0.5,), (0.5,))(digit).shape)
#> torch.Size([1, 28, 28])
# --8<-- [end:normalize_grey]

# --8<-- [start:normalize_hwc]
import numpy as np

array = np.random.default_rng(0).random((64, 48, 3), dtype=np.float32)  # H x W x C, as read
image = torch.from_numpy(array)  # torch.FloatTensor(array) alike: still H x W x C
for normalize in (transforms.Normalize([0.5] * 3, [0.5] * 3), v2.Normalize([0.5] * 3, [0.5] * 3)):
    try:
        normalize(image)
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        """
        RuntimeError: The size of tensor a (64) must match the size of tensor b (3) at non-singleton dimension 0
        RuntimeError: The size of tensor a (64) must match the size of tensor b (3) at non-singleton dimension 0
        """
# The fix: channels first, C x H x W, before Normalize.
print(v2.Normalize([0.5] * 3, [0.5] * 3)(image.permute(2, 0, 1)).shape)
#> torch.Size([3, 64, 48])
# Or let ToImage move the axis: it takes an array as H x W x C.
print(v2.ToImage()(array).shape)
#> torch.Size([3, 64, 48])
# --8<-- [end:normalize_hwc]

# --8<-- [start:conv_channels]
from torchvision import models

model = models.resnet18(weights=None).eval()  # its first layer expects 3 channels
grey = torch.rand(1, 1, 64, 64)  # a batch of one greyscale image
try:
    model(grey)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Given groups=1, weight of size [64, 3, 7, 7], expected input[1, 1, 64, 64] to have 3 channels, but got 1 channels instead
    """
channels_last = torch.rand(1, 64, 64, 3)  # height x width x channels, as NumPy and PIL order it
try:
    model(channels_last)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: Given groups=1, weight of size [64, 3, 7, 7], expected input[1, 64, 64, 3] to have 3 channels, but got 64 channels instead
    """

# The fix: 3 channels first; show the grey channel three times, and permute HWC to CHW.
with torch.no_grad():
    print(model(grey.expand(-1, 3, -1, -1)).shape, model(channels_last.permute(0, 3, 1, 2)).shape)
    #> torch.Size([1, 1000]) torch.Size([1, 1000])
print(v2.Grayscale(num_output_channels=3)(grey[0]).shape)  # or per image, in the transform
#> torch.Size([3, 64, 64])
# --8<-- [end:conv_channels]

# --8<-- [start:one_channel_conv1]
from torch import nn

torch.manual_seed(0)
grey_model = models.resnet18(weights=None).eval()  # with ImageNet weights, the same steps apply
grey = torch.rand(1, 1, 64, 64)
with torch.no_grad():
    three_channels = grey_model(grey.expand(-1, 3, -1, -1))  # the grey channel shown three times
print(grey_model.conv1)
#> Conv2d(3, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False)

# Replace the first convolution with a 1-channel one, and give it the sum of the old
# weights over their 3 input channels: on a grey image it computes what the old one did.
old = grey_model.conv1
grey_model.conv1 = nn.Conv2d(1, 64, kernel_size=7, stride=2, padding=3, bias=False)
with torch.no_grad():
    grey_model.conv1.weight.copy_(old.weight.sum(dim=1, keepdim=True))
    one_channel = grey_model(grey)
print(grey_model.conv1.weight.shape, one_channel.shape)
#> torch.Size([64, 1, 7, 7]) torch.Size([1, 1000])
print(torch.allclose(one_channel, three_channels, atol=1e-5))
#> True
# --8<-- [end:one_channel_conv1]

# --8<-- [start:unbatched]
single = torch.rand(3, 64, 64)  # one image, without the batch axis
try:
    model(single)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: expected 4D input (got 3D input)

# The first layer, a convolution, takes one image; the BatchNorm2d after it raises.
print(type(model.bn1).__name__, model.conv1(single).shape)
#> BatchNorm2d torch.Size([64, 32, 32])

# The fix: add a batch axis of size 1 (and take [0] of the output).
with torch.no_grad():
    print(model(single.unsqueeze(0)).shape)
    #> torch.Size([1, 1000])
# --8<-- [end:unbatched]

# --8<-- [start:interpolate_dims]
import torch.nn.functional as F

depth = torch.rand(48, 64)  # a 2-D map: H x W, no batch or channel axis
for x in (depth.unsqueeze(1), depth.unsqueeze(0), depth):  # (48, 1, 64), (1, 48, 64), (48, 64)
    try:
        F.interpolate(x, size=(96, 128), mode="bicubic")
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        """
        ValueError: Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of [64] and output size of (96, 128). Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.
        ValueError: Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of [64] and output size of (96, 128). Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.
        ValueError: Input and output must have the same number of spatial dimensions, but got input with spatial dimensions of [] and output size of (96, 128). Please provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.
        """
# The fix: N x C x H x W, a batch of one with one channel; [0, 0] takes the map back out.
print(F.interpolate(depth.unsqueeze(0).unsqueeze(1), size=(96, 128), mode="bicubic").shape)
#> torch.Size([1, 1, 96, 128])
print(F.interpolate(depth[None, None], size=(96, 128), mode="bicubic")[0, 0].shape)
#> torch.Size([96, 128])
# --8<-- [end:interpolate_dims]

# --8<-- [start:align_corners_nearest]
import torch.nn.functional as F

x = torch.arange(4.0).reshape(1, 1, 2, 2)
for mode in ("nearest", "area", "nearest-exact"):
    try:
        F.interpolate(x, scale_factor=2, mode=mode, align_corners=True)
    except ValueError as err:
        print(mode, f"{type(err).__name__}: {err}")
        """
        nearest ValueError: align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear
        area ValueError: align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear
        nearest-exact ValueError: align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear
        """
try:
    torch.nn.Upsample(scale_factor=2, mode="nearest", align_corners=True)(x)  # the module alike
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    """
    ValueError: align_corners option can only be set with the interpolating modes: linear | bilinear | bicubic | trilinear
    """


# The fix: pass align_corners only with linear, bilinear, bicubic or trilinear.
def resize(x, mode, scale_factor=2):
    corners = {"align_corners": False} if mode in ("linear", "bilinear", "bicubic", "trilinear") else {}
    return F.interpolate(x, scale_factor=scale_factor, mode=mode, **corners)


print(resize(x, "nearest")[0, 0, 0], resize(x, "bilinear")[0, 0, 0])
#> tensor([0., 0., 1., 1.]) tensor([0.0000, 0.2500, 0.7500, 1.0000])
# --8<-- [end:align_corners_nearest]

# --8<-- [start:input_dtype]
try:
    model(torch.randint(0, 256, (1, 3, 64, 64), dtype=torch.uint8))  # pixels as read
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: expected scalar type Byte but found Float

# The fix: the model's dtype, float32, with values scaled as in training.
batch = v2.ToDtype(torch.float32, scale=True)(torch.randint(0, 256, (1, 3, 64, 64), dtype=torch.uint8))
with torch.no_grad():
    print(batch.dtype, model(batch).shape)
    #> torch.float32 torch.Size([1, 1000])
# --8<-- [end:input_dtype]

# --8<-- [start:detection_uint8]
from torchvision import models

detector = models.detection.fasterrcnn_mobilenet_v3_large_320_fpn(
    weights=None, weights_backbone=None, num_classes=3
).eval()
pixels = torch.randint(0, 256, (3, 64, 80), dtype=torch.uint8)  # one image as read
try:
    detector([pixels])
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: Expected input images to be of floating type (in range [0, 1]), but found type torch.uint8 instead
    """

# The fix: a list of float images in [0, 1]; the model normalises them itself.
with torch.no_grad():
    print(sorted(detector([v2.ToDtype(torch.float32, scale=True)(pixels)])[0]))
    #> ['boxes', 'labels', 'scores']
print(detector.transform.image_mean, detector.transform.image_std)
#> [0.485, 0.456, 0.406] [0.229, 0.224, 0.225]
# --8<-- [end:detection_uint8]

# --8<-- [start:detection_boxes]
torch.manual_seed(0)
detector = models.detection.fasterrcnn_mobilenet_v3_large_320_fpn(
    weights=None, weights_backbone=None, num_classes=3, min_size=64, max_size=80  # no resizing
).train()
images = [torch.rand(3, 64, 80)]
random_boxes = torch.rand(1, 4) * 64  # four random numbers: x2 < x1 or y2 < y1 is likely
print(random_boxes.round())
#> tensor([[48., 42., 39., 14.]])
try:
    detector(images, [{"boxes": random_boxes, "labels": torch.tensor([1])}])
except AssertionError as err:  # ValueError in older releases, same message
    print(f"{type(err).__name__}: {err}")
    """
    AssertionError: All bounding boxes should have positive height and width. Found invalid box [48.153472900390625, 41.68083953857422, 38.736717224121094, 14.36495590209961] for target at index 0.
    """
# The fix: boxes as [x1, y1, x2, y2] with x2 > x1 and y2 > y1, e.g. a corner plus a size.
corner, size = torch.rand(2, 2) * 40, 4 + torch.rand(2, 2) * 20
boxes = torch.cat([corner, corner + size], dim=1)
losses = detector(images, [{"boxes": boxes, "labels": torch.tensor([1, 2])}])
print(sorted(losses))
#> ['loss_box_reg', 'loss_classifier', 'loss_objectness', 'loss_rpn_box_reg']
# Boxes as [x, y, width, height] (COCO): convert them first.
from torchvision.ops import box_convert

print(box_convert(torch.tensor([[10.0, 20.0, 5.0, 8.0]]), in_fmt="xywh", out_fmt="xyxy"))
#> tensor([[10., 20., 15., 28.]])
# --8<-- [end:detection_boxes]

# --8<-- [start:collate_pil]
from torch.utils.data import DataLoader
from torchvision import datasets

dataset = datasets.FakeData(size=4, image_size=(3, 32, 32))  # no transform: PIL images
try:
    next(iter(DataLoader(dataset, batch_size=2)))
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found <class 'PIL.Image.Image'>
    """

# The fix: a transform that makes tensors, so that a batch can be stacked.
dataset = datasets.FakeData(
    size=4, image_size=(3, 32, 32), transform=v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])
)
images, labels = next(iter(DataLoader(dataset, batch_size=2)))
print(images.shape, labels.shape)
#> torch.Size([2, 3, 32, 32]) torch.Size([2])
# --8<-- [end:collate_pil]

# --8<-- [start:collate_sizes]
samples = [(torch.rand(3, 40, 48), 0), (torch.rand(3, 32, 32), 1)]  # photos of other sizes
try:
    next(iter(DataLoader(samples, batch_size=2)))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: stack expects each tensor to be equal size, but got [3, 40, 48] at entry 0 and [3, 32, 32] at entry 1
    """

# The fix: resize (and crop) every image to one size in the dataset's transform.
same_size = v2.Compose([v2.Resize(32), v2.CenterCrop(32)])
resized = [(same_size(image), label) for image, label in samples]
images, labels = next(iter(DataLoader(resized, batch_size=2)))
print(images.shape)
#> torch.Size([2, 3, 32, 32])

# Or keep each size: a collate_fn that returns lists; the model then takes one image at a time.
def as_lists(batch):  # a named function, not a lambda: worker processes can pickle it
    return tuple(zip(*batch, strict=True))


model = models.resnet18(weights=None).eval()  # it takes any image size
loader = DataLoader(samples, batch_size=2, collate_fn=as_lists)
images, labels = next(iter(loader))
with torch.no_grad():
    print([model(image.unsqueeze(0)).shape for image in images], labels)
    #> [torch.Size([1, 1000]), torch.Size([1, 1000])] (0, 1)
# --8<-- [end:collate_sizes]

# --8<-- [start:collate_grey_rgb]
import tempfile
from pathlib import Path

from PIL import Image
from torch.utils.data import DataLoader, Dataset
from torchvision import transforms
from torchvision.io import ImageReadMode, decode_image


class Patches(Dataset):
    """A folder of 22 x 22 images, the first greyscale (mode L), the second colour (RGB)."""

    def __init__(self, mode=None):
        self.images = [Image.new("L", (22, 22)), Image.new("RGB", (22, 22))]  # Image.open(path)
        self.mode = mode

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        image = self.images[i] if self.mode is None else self.images[i].convert(self.mode)
        return transforms.ToTensor()(image)


try:
    next(iter(DataLoader(Patches(), batch_size=2)))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: stack expects each tensor to be equal size, but got [1, 22, 22] at entry 0 and [3, 22, 22] at entry 1
    """
print([image.mode for image in Patches().images], [tuple(t.shape) for t in Patches()])
#> ['L', 'RGB'] [(1, 22, 22), (3, 22, 22)]

# The fix: convert every image to RGB when it is read; a grey pixel becomes 3 equal channels.
print(next(iter(DataLoader(Patches(mode="RGB"), batch_size=2))).shape)
#> torch.Size([2, 3, 22, 22])
print(Image.new("L", (22, 22), 100).convert("RGB").getpixel((0, 0)))
#> (100, 100, 100)
# Reading files with torchvision.io: ask for RGB there.
with tempfile.TemporaryDirectory() as tmp:
    Image.new("L", (22, 22)).save(Path(tmp) / "grey.png")
    print(decode_image(str(Path(tmp) / "grey.png"), mode=ImageReadMode.RGB).shape)
    #> torch.Size([3, 22, 22])
# --8<-- [end:collate_grey_rgb]

# --8<-- [start:collate_label_lengths]
from torch.nn.utils.rnn import pad_sequence

captchas = [(torch.rand(1, 20, 60), "3f8kx2p"), (torch.rand(1, 20, 60), "9ab4mq")]
alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"
encoded = [(image, torch.tensor([alphabet.index(c) + 1 for c in text])) for image, text in captchas]
try:
    next(iter(DataLoader(encoded, batch_size=2)))  # labels of 7 and 6 characters
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    RuntimeError: stack expects each tensor to be equal size, but got [7] at entry 0 and [6] at entry 1
    """


# The fix: a collate_fn that stacks the images and pads the labels (0 is CTC's blank).
def pad_labels(batch):
    images, labels = zip(*batch, strict=True)
    lengths = torch.tensor([len(label) for label in labels])
    return torch.stack(images), pad_sequence(labels, batch_first=True), lengths


images, targets, target_lengths = next(iter(DataLoader(encoded, batch_size=2, collate_fn=pad_labels)))
print(images.shape, targets, target_lengths)
"""
torch.Size([2, 1, 20, 60]) tensor([[ 4, 16,  9, 21, 34,  3, 26],
        [10, 11, 12,  5, 23, 27,  0]]) tensor([7, 6])
"""
torch.manual_seed(0)
log_probs = torch.randn(15, 2, len(alphabet) + 1).log_softmax(2)  # (time, batch, classes)
ctc = nn.CTCLoss(blank=0)
loss = ctc(log_probs, targets, torch.full((2,), 15), target_lengths)
other_padding = targets.clone()
other_padding[1, 6] = 5  # past the second label's length
print(f"{loss.item():.2f}", torch.equal(loss, ctc(log_probs, other_padding, torch.full((2,), 15), target_lengths)))
#> 6.75 True
# --8<-- [end:collate_label_lengths]

# --8<-- [start:collate_dynamic_padding]
from torch.nn.utils.rnn import pad_sequence

PAD_ID, MAX_SEQ_LENGTH = 0, 16
tokenized = [[101, 7, 8, 102], [101, 9, 102], [101, 5, 6, 7, 8, 9, 102], [101, 4, 102]]


def pad_to_max(ids):  # what the dataset did: every input padded to max_seq_length
    return torch.tensor(ids + [PAD_ID] * (MAX_SEQ_LENGTH - len(ids)))


print([tuple(batch.shape) for batch in DataLoader([pad_to_max(ids) for ids in tokenized], batch_size=2)])
#> [(2, 16), (2, 16)]


# The fix: keep the sequences unpadded and pad each batch to its longest in collate_fn.
def pad_batch(batch):
    lengths = torch.tensor([len(ids) for ids in batch])
    input_ids = pad_sequence(batch, batch_first=True, padding_value=PAD_ID)
    attention_mask = (torch.arange(input_ids.size(1)) < lengths[:, None]).long()
    return input_ids, attention_mask


loader = DataLoader([torch.tensor(ids) for ids in tokenized], batch_size=2, collate_fn=pad_batch)
for input_ids, attention_mask in loader:
    print(tuple(input_ids.shape), attention_mask.tolist())
    #> (2, 4) [[1, 1, 1, 1], [1, 1, 1, 0]]
    #> (2, 7) [[1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0, 0]]
# --8<-- [end:collate_dynamic_padding]

# --8<-- [start:collate_none]
from torch.utils.data import Dataset, default_collate


class Photos(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        image = None if self.paths[i] == "missing.png" else torch.rand(3, 32, 32)  # a failed read
        return image, i


dataset = Photos(["missing.png", "a.png", "b.png"])
try:
    next(iter(DataLoader(dataset, batch_size=3)))
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found <class 'NoneType'>
    """

# Find the samples that come back as None, then skip them in a collate_fn.
print([i for i in range(len(dataset)) if dataset[i][0] is None])
#> [0]
loader = DataLoader(dataset, batch_size=3, collate_fn=lambda b: default_collate([s for s in b if s[0] is not None]))
images, labels = next(iter(loader))
print(images.shape, labels)
#> torch.Size([2, 3, 32, 32]) tensor([1, 2])
# --8<-- [end:collate_none]

# --8<-- [start:dataset_not_found]
import struct
import tempfile
from pathlib import Path

with tempfile.TemporaryDirectory() as root:  # an empty data directory
    try:
        datasets.MNIST(root, train=True)  # download=False is the default
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        #> RuntimeError: Dataset not found. You can use download=True to download it
    try:
        datasets.CIFAR10(root)  # CIFAR10 also checks each file's MD5 sum
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        #> RuntimeError: Dataset not found or corrupted. You can use download=True to download it

    # The fix: download=True once (it needs the network), or point root at the data.
    # MNIST looks for root/MNIST/raw/; here, stand-ins for its four files (blank images).
    raw = Path(root, "MNIST", "raw")
    raw.mkdir(parents=True)
    for split, count in [("train", 2), ("t10k", 1)]:
        images = struct.pack(">4i", 0x803, count, 28, 28) + bytes(count * 28 * 28)
        (raw / f"{split}-images-idx3-ubyte").write_bytes(images)
        (raw / f"{split}-labels-idx1-ubyte").write_bytes(struct.pack(">2i", 0x801, count) + bytes(count))
    try:
        datasets.MNIST(Path(root, "MNIST"))  # one level too deep: still not found
    except RuntimeError as err:
        print(f"{type(err).__name__}: {err}")
        #> RuntimeError: Dataset not found. You can use download=True to download it
    print(len(datasets.MNIST(root, train=True)))  # root: the folder that holds MNIST/
    #> 2
# --8<-- [end:dataset_not_found]

# --8<-- [start:no_class_folder]
import os
from pathlib import Path

from PIL import Image

with tempfile.TemporaryDirectory() as tmp:
    start = os.getcwd()
    os.chdir(tmp)  # a relative root, so that the message is the same on every machine
    try:
        Path("photos").mkdir()
        Image.new("RGB", (8, 8)).save("photos/cat1.png")  # images right under root
        try:
            datasets.ImageFolder("photos")
        except FileNotFoundError as err:
            print(f"{type(err).__name__}: {err}")
            #> FileNotFoundError: Couldn't find any class folder in photos.

        # The fix: one subfolder per class, named after the class.
        Path("photos/cat").mkdir()
        Path("photos/cat1.png").rename("photos/cat/cat1.png")
        folder = datasets.ImageFolder("photos")
        print(folder.classes, len(folder))
        #> ['cat'] 1
    finally:
        os.chdir(start)
# --8<-- [end:no_class_folder]

# --8<-- [start:no_valid_file]
with tempfile.TemporaryDirectory() as tmp:
    start = os.getcwd()
    os.chdir(tmp)  # a relative root, so that the message is the same on every machine
    try:
        Path("data/train/cat").mkdir(parents=True)
        Image.new("RGB", (8, 8)).save("data/train/cat/cat1.png")
        Path("data/val").mkdir()
        Path("data/val/val_images.tar").touch()  # not yet unpacked into class folders
        try:
            datasets.ImageFolder("data")  # train and val are taken as the classes
        except FileNotFoundError as err:
            print(f"{type(err).__name__}: {err}")
            """
            FileNotFoundError: Found no valid file for the classes val. Supported extensions are: .jpg, .jpeg, .png, .ppm, .bmp, .pgm, .tif, .tiff, .webp
            """
        found = datasets.ImageFolder("data", allow_empty=True)  # the same layout, empty classes allowed
        print(found.classes, found.samples)
        #> ['train', 'val'] [('data/train/cat/cat1.png', 0)]

        # The fix: root is the folder that holds the class folders, one root per split.
        Path("data/val/cat").mkdir()
        Image.new("RGB", (8, 8)).save("data/val/cat/cat2.png")
        for split in ["train", "val"]:
            folder = datasets.ImageFolder(f"data/{split}")
            print(split, folder.classes, len(folder))
            #> train ['cat'] 1
            #> val ['cat'] 1
    finally:
        os.chdir(start)
# --8<-- [end:no_valid_file]

# --8<-- [start:unknown_model]
try:
    models.get_model("resnet_18", weights=None)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Unknown model resnet_18

# The fix: the exact name, as list_models() spells it.
print([name for name in models.list_models() if name.startswith("resnet")])
#> ['resnet101', 'resnet152', 'resnet18', 'resnet34', 'resnet50']
print(type(models.get_model("resnet18", weights=None)).__name__)
#> ResNet
# --8<-- [end:unknown_model]

# --8<-- [start:weights_wrong_model]
try:
    models.resnet18(weights=models.ResNet50_Weights.DEFAULT)  # checked before any download
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    """
    TypeError: Invalid Weight class provided; expected ResNet18_Weights but received ResNet50_Weights.
    """

# The fix: each model takes its own weights enum; get_model_weights finds it by name.
print(models.get_model_weights("resnet18").__name__, list(models.ResNet18_Weights.__members__))
#> ResNet18_Weights ['IMAGENET1K_V1', 'DEFAULT']
# --8<-- [end:weights_wrong_model]

# --8<-- [start:to_pil_image_type]
import numpy as np
from torchvision.transforms import InterpolationMode
from torchvision.transforms import functional as F

grey_values = [[0.0, 0.5], [0.5, 1.0]]  # a greyscale image kept as nested lists
try:
    F.to_pil_image(grey_values)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: pic should be Tensor or ndarray. Got <class 'list'>.

# The fix: a tensor (or an array). A 2-D float tensor is one greyscale image, 0..1 scaled to 0..255.
grey_image = F.to_pil_image(torch.tensor(grey_values))
print(grey_image.mode, grey_image.size, np.asarray(grey_image).tolist())
#> L (2, 2) [[0, 127], [127, 255]]
# --8<-- [end:to_pil_image_type]

# --8<-- [start:to_pil_image_4d]
batch_of_one = torch.rand(1, 3, 4, 6)  # a batch, as a model takes and returns it
try:
    F.to_pil_image(batch_of_one)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: pic should be 2/3 dimensional. Got 4 dimensions.

# The fix: one image at a time, channels x height x width.
print(F.to_pil_image(batch_of_one[0]).mode, F.to_pil_image(batch_of_one[0]).size)
#> RGB (6, 4)
# --8<-- [end:to_pil_image_4d]

# --8<-- [start:to_pil_image_channels]
hwc = torch.rand(8, 6, 3)  # height x width x channels, the order of NumPy and OpenCV
try:
    F.to_pil_image(hwc)  # a tensor's first axis is read as its channels
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: pic should not have > 4 channels. Got 8 channels.

# The fix: move the channels first (a NumPy array, by contrast, is read as H x W x C).
print(F.to_pil_image(hwc.permute(2, 0, 1)).size, F.to_pil_image(hwc.numpy()).size)
#> (6, 8) (6, 8)
# --8<-- [end:to_pil_image_channels]

# --8<-- [start:functional_numpy]
label = np.zeros((6, 8), dtype=np.uint8)  # a segmentation label, read with OpenCV
try:
    F.hflip(label)  # the functional transforms take PIL images and tensors only
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: img should be PIL Image. Got <class 'numpy.ndarray'>

# The fix: a tensor. F.resize takes one too; NEAREST keeps the class ids of a label intact.
label_tensor = torch.from_numpy(label).unsqueeze(0)  # 1 x H x W
print(F.hflip(label_tensor).shape)
#> torch.Size([1, 6, 8])
print(F.resize(label_tensor, [3, 4], interpolation=InterpolationMode.NEAREST).shape)
#> torch.Size([1, 3, 4])
# --8<-- [end:functional_numpy]

# --8<-- [start:resize_numpy]
array_image = np.ones((10, 6), dtype=np.float32)
try:
    transforms.Resize((4, 4))(array_image)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Unexpected type <class 'numpy.ndarray'>

# v2.Resize raises nothing, but leaves a NumPy array as it is: not resized.
print(v2.Resize((4, 4))(array_image).shape)
#> (10, 6)

# The fix: convert first; v2.ToImage makes a tensor image (C x H x W) that both resize.
print(v2.Compose([v2.ToImage(), v2.Resize((4, 4))])(array_image).shape)
#> torch.Size([1, 4, 4])
# --8<-- [end:resize_numpy]

# --8<-- [start:sixteen_bit_image]
depth = np.arange(16, dtype=np.uint16).reshape(4, 4) * 4000  # 16-bit values, up to 60000
try:
    F.to_pil_image(depth)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Input type uint16 is not supported
image16 = Image.fromarray(depth)  # PIL itself makes the I;16 image
old_tensor = transforms.ToTensor()(image16)
print(image16.mode, old_tensor.dtype, depth[3, 3], old_tensor[0, 3, 3].item())
#> I;16 torch.int16 60000 -5536

conv1 = nn.Conv2d(1, 4, kernel_size=3)
try:
    conv1(old_tensor.unsqueeze(0))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: Input type (short int) and bias type (float) should be the same

# The fix: v2.ToImage keeps uint16; ToDtype scales it to 0..1 as float32.
as_float = v2.ToDtype(torch.float32, scale=True)(v2.ToImage()(image16))
print(as_float.dtype, round(as_float.max().item(), 4), conv1(as_float.unsqueeze(0)).shape)
#> torch.float32 0.9155 torch.Size([1, 4, 2, 2])
# --8<-- [end:sixteen_bit_image]

# --8<-- [start:nms_missing]
import subprocess
import sys

# At import, torchvision registers Python code for operators that its compiled library
# defines. In a process where that library is not loaded, the registration fails:
registration = "import torch\ntorch.library.register_fake('torchvision::nms')(lambda *args: None)"
result = subprocess.run([sys.executable, "-c", registration], capture_output=True, text=True)
print(result.stderr.strip().splitlines()[-1])
#> RuntimeError: operator torchvision::nms does not exist

# The check: the two versions, and an operator of torchvision's compiled library running.
import torchvision

print(torch.__version__.split("+")[0], torchvision.__version__.split("+")[0])  # without the build tag
#> 2.15.0 0.29.2
boxes = torch.tensor([[0.0, 0.0, 10.0, 10.0], [1.0, 1.0, 11.0, 11.0], [20.0, 20.0, 30.0, 30.0]])
print(torchvision.ops.nms(boxes, torch.tensor([0.9, 0.8, 0.7]), iou_threshold=0.5))
#> tensor([0, 2])
# --8<-- [end:nms_missing]

# --8<-- [start:solarize_threshold]
import torch
import torchvision.transforms.functional as F

image = torch.tensor([[[10, 200, 255]]], dtype=torch.uint8)  # a 1x1x3 uint8 image
threshold = torch.linspace(256.0, 0.0, 10)[0]  # the reader's call: AutoAugment's old range
try:
    F.solarize(image, threshold)
except TypeError as err:
    print(f"{type(err).__name__}: {err}")
    #> TypeError: Threshold should be less than bound of img.

# The comparison solarize makes: 256 does not fit uint8. A Python int or an integer
# 0-d tensor is converted to uint8 and wraps to 0, silently; so every pixel is >= it.
print(image >= 256, image >= torch.tensor(256), image >= 256.0)
#> tensor([[[True, True, True]]]) tensor([[[True, True, True]]]) tensor([[[False, False, False]]])
print(torch.result_type(image, 256), torch.tensor(256).to(torch.uint8).item())
#> torch.uint8 0
print(torch.result_type(image, 256.0), image >= threshold)  # a float threshold: compared in float
#> torch.float32 tensor([[[False, False, False]]])
try:
    image.masked_fill(image >= 255, 256)  # writing 256 into the uint8 image is refused
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
    #> RuntimeError: value cannot be converted to type uint8_t without overflow

# The fix: keep the threshold within the image's range (255 for uint8, 1.0 for float),
# or compare in a wider dtype.
print(F.solarize(image, min(256.0, 255.0)), image.to(torch.int16) >= 256)
#> tensor([[[ 10, 200,   0]]], dtype=torch.uint8) tensor([[[False, False, False]]])
# --8<-- [end:solarize_threshold]

# --8<-- [start:to_pil_mode_f]
spectrogram = torch.tensor([[[0.1234567, -3.5, 10000.0]]], dtype=torch.float64)  # 1 x H x W
for wrong in (spectrogram, spectrogram.to(torch.uint8)):
    try:
        F.to_pil_image(wrong, mode="F")
    except ValueError as err:
        print(f"{type(err).__name__}: {err}")
        """
        ValueError: Incorrect mode (F) supplied for input type <class 'numpy.dtype'>. Should be None
        ValueError: Incorrect mode (F) supplied for input type <class 'numpy.dtype'>. Should be L
        """
print(np.asarray(F.to_pil_image(spectrogram.float())))  # no mode: taken as 0..1, scaled to 8 bits
#> [[ 31 132 240]]

# The fix: float32 with mode="F", or PIL's own Image.fromarray on the 2-D float32 array.
exact = F.to_pil_image(spectrogram.float(), mode="F")
print(exact.mode, torch.equal(torch.from_numpy(np.array(exact)), spectrogram[0].float()))
#> F True
array_image = Image.fromarray(spectrogram[0].float().numpy())
print(array_image.mode, np.asarray(array_image).dtype)
#> F float32
# --8<-- [end:to_pil_mode_f]

# --8<-- [start:other_resnet_depth]
import warnings

# The meta device gives shapes only (nothing allocated or initialised): the same checks, fast.
with torch.device("meta"):
    saved = models.resnet18().state_dict()  # the checkpoint came from a ResNet-18
    model = models.resnet50()
    same = models.resnet18()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the meta device's "copying ... is a no-op" warnings
    try:
        model.load_state_dict(saved)
    except RuntimeError as err:
        lines = str(err).expandtabs(4).splitlines()
        print(f"{type(err).__name__}: {lines[0]}")
        #> RuntimeError: Error(s) in loading state_dict for ResNet:
        print(lines[1][:100], "...")  # dozens of keys
        """
            Missing key(s) in state_dict: "layer1.0.conv3.weight", "layer1.0.bn3.weight", "layer1.0.bn3.bias ...
        """
        print(lines[2])
        """
            size mismatch for layer1.0.conv1.weight: copying a param with shape torch.Size([64, 64, 3, 3]) from checkpoint, the shape in current model is torch.Size([64, 64, 1, 1]).
        """
        print(sum("size mismatch" in line for line in lines), "size mismatch lines in all")
        #> 24 size mismatch lines in all
    try:
        model.load_state_dict(saved, strict=False)  # skips missing keys, not other shapes
    except RuntimeError as err:
        print(f"strict=False: {type(err).__name__}:", str(err).count("size mismatch"), "size mismatches")
        #> strict=False: RuntimeError: 24 size mismatches
for resnet in (model, same):  # ResNet-50's blocks have a third convolution
    block = resnet.layer1[0]
    print(type(block).__name__, [name for name, _ in block.named_children()])
    #> Bottleneck ['conv1', 'bn1', 'conv2', 'bn2', 'conv3', 'bn3', 'relu', 'downsample']
    #> BasicBlock ['conv1', 'bn1', 'relu', 'conv2', 'bn2']

# The fix: build the architecture the checkpoint was saved from.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    print(same.load_state_dict(saved))
    #> <All keys matched successfully>
# --8<-- [end:other_resnet_depth]
