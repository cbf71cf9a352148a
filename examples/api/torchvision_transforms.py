"""torchvision.transforms.v2: composing, normalising and random augmentation, on a generated image.

Run with `python examples/api/torchvision_transforms.py`. The `#>` lines under each
print are the output the libraries printed when the site was built; the test suite
runs this script again and compares.
"""

# --8<-- [start:pipeline]
import torch
from torchvision import tv_tensors
from torchvision.transforms import v2

pixels = torch.randint(
    0, 256, (3, 40, 48), dtype=torch.uint8, generator=torch.Generator().manual_seed(0)
)
image = tv_tensors.Image(pixels)  # channels x height x width, like a decoded RGB file

preprocess = v2.Compose(
    [
        v2.Resize(96),  # an int resizes the *shorter* side to 96 and keeps the aspect ratio
        v2.CenterCrop(96),
        v2.ToDtype(torch.float32, scale=True),  # uint8 0..255 -> float32 0..1
        v2.Normalize(mean=[0.5, 0.5, 0.5], std=[0.5, 0.5, 0.5]),  # (x - 0.5) / 0.5: -1..1
    ]
)
out = preprocess(image)
print(v2.Resize(96)(image).shape, out.shape, out.dtype)
#> torch.Size([3, 96, 115]) torch.Size([3, 96, 96]) torch.float32
print(round(out.min().item(), 4), round(out.max().item(), 4))
#> -0.9843 0.9843
print(v2.Resize((96, 96))(image).shape)  # a (height, width) pair gives exactly that size
#> torch.Size([3, 96, 96])

# Shrinking a tensor gives PIL's pixels to within 1: tensors antialias by default (antialias=True).
from PIL import Image

from_pil = v2.PILToTensor()(v2.Resize(17)(v2.ToPILImage()(pixels))).int()
print((v2.Resize(17)(pixels).int() - from_pil).abs().max().item())
#> 1
print((v2.Resize(17, antialias=False)(pixels).int() - from_pil).abs().max().item())
#> 115

# Nearest: interpolate's "nearest" picks other pixels than PIL's NEAREST; "nearest-exact" the same.
import torch.nn.functional as F

labels = torch.arange(6, dtype=torch.uint8).reshape(1, 1, 1, 6)  # class ids 0..5 in one row
print(F.interpolate(labels, size=(1, 4), mode="nearest").flatten().tolist())
#> [0, 1, 3, 4]
print(F.interpolate(labels, size=(1, 4), mode="nearest-exact").flatten().tolist())
#> [0, 2, 3, 5]
print(v2.PILToTensor()(v2.ToPILImage()(labels[0]).resize((4, 1), Image.NEAREST)).flatten().tolist())
#> [0, 2, 3, 5]
from torchvision.transforms import InterpolationMode

mask = tv_tensors.Mask(labels[0])
print(v2.Resize((1, 4))(mask).flatten().tolist())  # masks resize with NEAREST
#> [0, 1, 3, 4]
print(v2.Resize((1, 4), interpolation=InterpolationMode.NEAREST_EXACT)(mask).flatten().tolist())
#> [0, 2, 3, 5]
# --8<-- [end:pipeline]

# --8<-- [start:to_tensor]
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    v2.ToTensor()
print(f"{caught[0].category.__name__}: {caught[0].message}")
"""
UserWarning: The transform `ToTensor()` is deprecated and will be removed in a future release. Instead, please use `v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])`.Output is equivalent up to float precision.
"""
pil_image = v2.ToPILImage()(image)  # a PIL image, as PIL.Image.open gives
hwc_array = pixels.permute(1, 2, 0).numpy()  # a NumPy array: height x width x channels
for source in (pil_image, hwc_array):
    converted = v2.ToImage()(source)
    print(type(converted).__name__, converted.shape, converted.dtype)
    #> Image torch.Size([3, 40, 48]) torch.uint8
    #> Image torch.Size([3, 40, 48]) torch.uint8
try:
    v2.Normalize(mean=[0.5] * 3, std=[0.5] * 3)(image)  # still uint8
except TypeError as err:
    print(err)
    #> Input tensor should be a float tensor. Got torch.uint8.
# --8<-- [end:to_tensor]

# --8<-- [start:image_layouts]
import numpy as np
from PIL import Image

photo = Image.fromarray(np.zeros((500, 889, 4), dtype=np.uint8))  # an RGBA PNG, 889 wide
print(photo.size, np.array(photo).shape, v2.ToImage()(photo).shape)  # (W, H); (H, W, C); (C, H, W)
#> (889, 500) (500, 889, 4) torch.Size([4, 500, 889])
digit = Image.fromarray(np.zeros((28, 28), dtype=np.uint8))  # greyscale (mode L), like MNIST
print(digit.mode, np.array(digit).shape, v2.ToImage()(digit).shape, v2.ToImage()(digit)[0].shape)
#> L (28, 28) torch.Size([1, 28, 28]) torch.Size([28, 28])
chw = v2.ToImage()(photo)
print(chw.permute(1, 2, 0).shape, chw.unsqueeze(0).shape)  # back to (H, W, C); a batch of one
#> torch.Size([500, 889, 4]) torch.Size([1, 4, 500, 889])
# --8<-- [end:image_layouts]

# --8<-- [start:chw_array]
import numpy as np
from torchvision import transforms

chw = np.zeros((5, 600, 900), dtype=np.uint8)  # an array already channels first
print(transforms.ToTensor()(chw).shape, v2.ToImage()(chw).shape)  # the last axis moves to the front
#> torch.Size([900, 5, 600]) torch.Size([900, 5, 600])
print(transforms.ToTensor()(chw.transpose(1, 2, 0)).shape)  # the fix: give it (H, W, C)
#> torch.Size([5, 600, 900])
hwc = np.arange(12).reshape(2, 2, 3)  # 2 x 2 pixels, 3 channels
print(hwc.transpose(2, 0, 1)[0].tolist(), hwc.reshape(3, 2, 2)[0].tolist())  # channel 0; not it
#> [[0, 3], [6, 9]] [[0, 1], [2, 3]]
# --8<-- [end:chw_array]

# --8<-- [start:mask_labels]
import os
import tempfile

import numpy as np
from PIL import Image as PILImage
from torchvision import transforms  # the old API, as most tutorials use it

labels = np.array([[0, 1, 2], [2, 1, 0]], dtype=np.uint8)  # class indices 0, 1, 2
with tempfile.TemporaryDirectory() as tmp:
    PILImage.fromarray(labels).save(os.path.join(tmp, "mask.png"))  # a segmentation mask file
    mask_png = PILImage.open(os.path.join(tmp, "mask.png"))
    mask_png.load()  # read the pixels before the folder is removed
print(mask_png.mode)  # 8-bit greyscale: to ToTensor, an image like any other
#> L
print(transforms.ToTensor()(mask_png))  # the labels, divided by 255
"""
tensor([[[0.0000, 0.0039, 0.0078],
         [0.0078, 0.0039, 0.0000]]])
"""
to_float = v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])
print(to_float(mask_png))  # its replacement does the same: a PIL image is an image
"""
Image([[[0.0000, 0.0039, 0.0078],
        [0.0078, 0.0039, 0.0000]]], )
"""

photo = PILImage.fromarray(np.full((2, 3, 3), 255, dtype=np.uint8))  # its RGB image, all white
mask = tv_tensors.Mask(np.array(mask_png))  # say it is a mask: its labels stay as they are
image_out, mask_out = to_float(photo, mask)
print(image_out.dtype, image_out.max().item(), mask_out.dtype, mask_out.tolist())
#> torch.float32 1.0 torch.uint8 [[0, 1, 2], [2, 1, 0]]
to_train = v2.ToDtype({tv_tensors.Image: torch.float32, tv_tensors.Mask: torch.int64}, scale=True)
image_out, mask_out = to_train(v2.ToImage()(photo), mask)  # a dtype for each kind of input
print(image_out.dtype, image_out.max().item(), mask_out.dtype, mask_out.tolist())  # scale=True: the image only
#> torch.float32 1.0 torch.int64 [[0, 1, 2], [2, 1, 0]]
# --8<-- [end:mask_labels]

# --8<-- [start:mode_1_image]
binary = PILImage.fromarray(np.array([[0, 255], [255, 0]], dtype=np.uint8)).convert("1")
array = np.array(binary)  # a black-and-white (mode 1) image: a bool array
print(binary.mode, array.dtype, array.tolist())
#> 1 bool [[False, True], [True, False]]
print(array.view(np.uint8).tolist())  # the bytes behind True are 255, not 1
#> [[0, 255], [255, 0]]
bits = torch.from_numpy(array)  # shares those bytes
print(bits.view(torch.uint8).unique(), bits.float().unique())  # the bytes; the conversion
#> tensor([  0, 255], dtype=torch.uint8) tensor([0., 1.])

# The safe routes: bytes 0 and 1 before torch sees them, or a comparison
print(torch.from_numpy(np.array(binary, dtype=np.uint8)).unique())
#> tensor([0, 1], dtype=torch.uint8)
grey = np.array(binary.convert("L"))  # mode L: one byte per pixel
mask = torch.from_numpy(grey > 0)  # compared with 0: a new bool array
print(np.unique(grey).tolist(), mask.view(torch.uint8).unique(), mask.float().unique())
#> [0, 255] tensor([0, 1], dtype=torch.uint8) tensor([0., 1.])
# --8<-- [end:mode_1_image]

# --8<-- [start:to_tensor_float]
import numpy as np
from PIL import Image as PILImage
from torchvision import transforms

pixels_uint8 = np.array([[[0, 128, 255]]], dtype=np.uint8)  # one RGB pixel: height x width x channels
pixels_float = pixels_uint8.astype(np.float32)  # the same pixel as float32, still 0..255
print(transforms.ToTensor()(pixels_uint8).flatten())  # uint8: divided by 255
#> tensor([0.0000, 0.5020, 1.0000])
print(transforms.ToTensor()(pixels_float).flatten())  # float32: left as it is
#> tensor([  0., 128., 255.])
grey_float = PILImage.fromarray(pixels_float.reshape(1, 3))  # the three values as a 1 x 3 grey image
print(grey_float.mode, transforms.ToTensor()(grey_float).flatten())  # mode F, 32-bit float: the same
#> F tensor([  0., 128., 255.])
print(v2.ToDtype(torch.float32, scale=True)(v2.ToImage()(pixels_float)).flatten())  # v2: the same
#> tensor([  0., 128., 255.])
print(transforms.ToTensor()(pixels_float / 255).flatten())  # the fix: divide by 255 yourself
#> tensor([0.0000, 0.5020, 1.0000])
print(transforms.ToTensor()(pixels_float.astype(np.uint8)).flatten())  # or pass uint8 pixels
#> tensor([0.0000, 0.5020, 1.0000])
# --8<-- [end:to_tensor_float]

# --8<-- [start:to_uint8]
binary = torch.tensor([[0.0, 1.0, 1.0], [0.0, 1.0, 0.0]])  # a 0/1 mask, float32
print(transforms.ConvertImageDtype(torch.uint8)(binary))  # 1.0 is full intensity: 255
"""
tensor([[  0, 255, 255],
        [  0, 255,   0]], dtype=torch.uint8)
"""
print(v2.ToDtype(torch.uint8, scale=True)(binary))  # the same in v2
"""
tensor([[  0, 255, 255],
        [  0, 255,   0]], dtype=torch.uint8)
"""
print(binary.to(torch.uint8))  # the fix: change the dtype, keep the values
"""
tensor([[0, 1, 1],
        [0, 1, 0]], dtype=torch.uint8)
"""
print(v2.ToDtype(torch.uint8)(binary))  # scale=False (the default) does the same
"""
tensor([[0, 1, 1],
        [0, 1, 0]], dtype=torch.uint8)
"""
probabilities = torch.tensor([[0.1, 0.7, 0.9], [0.4, 0.6, 0.2]])  # a model's output
print((probabilities > 0.5).to(torch.uint8))  # binarise first, then convert
"""
tensor([[0, 1, 1],
        [0, 1, 0]], dtype=torch.uint8)
"""
print(transforms.ConvertImageDtype(torch.uint8)(torch.tensor([0.3, 0.7])))  # its own rounding
#> tensor([ 76, 179], dtype=torch.uint8)
# --8<-- [end:to_uint8]

# --8<-- [start:to_pil_float_255]
from torchvision.transforms.v2.functional import to_pil_image

pixels = torch.tensor([0, 100, 200, 255], dtype=torch.uint8).expand(3, 1, 4)  # as read_image gives
as_float = pixels.float()  # 0.0 .. 255.0
print(np.asarray(to_pil_image(as_float))[0, :, 0])  # taken as 0..1: times 255, wrapped to a byte
#> [  0 156  56   1]
# The fix: divide by 255, or hand over the uint8 tensor itself
print(np.asarray(to_pil_image(as_float / 255))[0, :, 0], np.asarray(to_pil_image(pixels))[0, :, 0])
#> [  0 100 200 255] [  0 100 200 255]
print(np.asarray(v2.ToPILImage()(as_float))[0, :, 0])  # the transform class alike
#> [  0 156  56   1]
# Or convert with scaling in the first place: ToDtype(..., scale=True) maps 0..255 to 0..1
scaled = v2.ToDtype(torch.float32, scale=True)(pixels)
print(scaled[0, 0], np.asarray(to_pil_image(scaled))[0, :, 0])
#> tensor([0.0000, 0.3922, 0.7843, 1.0000]) [  0 100 200 255]
# --8<-- [end:to_pil_float_255]

# --8<-- [start:to_pil_clamp]
import tempfile
from pathlib import Path

from PIL import Image
from torchvision.utils import save_image

output = torch.tensor([-0.02, 0.5, 1.0, 1.02]).expand(3, 1, 4)  # a model's output, just past 0..1
print(np.asarray(to_pil_image(output))[0, :, 0])  # -0.02 wraps to 251, 1.02 to 4: pink patches
#> [251 127 255   4]
print(v2.ToDtype(torch.uint8, scale=True)(output)[0, 0])  # no clamp here either
#> tensor([251, 127, 255,   5], dtype=torch.uint8)
with tempfile.TemporaryDirectory() as folder:
    save_image(output, Path(folder) / "out.png")  # clamps to 0..255 before saving
    print(np.asarray(Image.open(Path(folder) / "out.png"))[0, :, 0])
    #> [  0 128 255 255]
# The fix: clamp to 0..1 (after undoing Normalize, if the tensor was normalised), then convert.
print(np.asarray(to_pil_image(output.clamp(0, 1)))[0, :, 0])
#> [  0 127 255 255]
# --8<-- [end:to_pil_clamp]

# --8<-- [start:normalize_stats]
def per_channel(x: torch.Tensor) -> tuple[list[float], list[float]]:
    """Mean and standard deviation of each channel over all images and pixels, to 3 decimals."""
    mean, std = x.mean(dim=(0, 2, 3)), x.std(dim=(0, 2, 3))
    return [round(m, 3) + 0.0 for m in mean.tolist()], [round(s, 3) for s in std.tolist()]  # + 0.0: 0.0, not -0.0


generator = torch.Generator().manual_seed(0)
images = 0.2 + 0.5 * torch.rand(8, 3, 40, 48, generator=generator)  # 8 images scaled to 0..1
print(per_channel(images))
#> ([0.451, 0.45, 0.45], [0.144, 0.143, 0.144])
same = v2.Normalize(mean=[0.0, 0.0, 0.0], std=[1.0, 1.0, 1.0])(images)  # (x - 0) / 1
print(torch.equal(same, images))  # Normalize uses the numbers it is given: nothing changes
#> True
mean, std = images.mean(dim=(0, 2, 3)), images.std(dim=(0, 2, 3))  # the data's own
standardised = v2.Normalize(mean=mean.tolist(), std=std.tolist())(images)
print(per_channel(standardised))
#> ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0])
# --8<-- [end:normalize_stats]

# --8<-- [start:imagenet_stats]
from torchvision.models import ResNet18_Weights

preset = ResNet18_Weights.IMAGENET1K_V1.transforms()  # what these pretrained weights expect
print(preset.mean, preset.std)
#> [0.485, 0.456, 0.406] [0.229, 0.224, 0.225]
print(preset(image).shape, preset(image).dtype)  # our uint8 image, ready for that model
#> torch.Size([3, 224, 224]) torch.float32
# --8<-- [end:imagenet_stats]

# --8<-- [start:random]
augment = v2.Compose(
    [
        v2.RandomResizedCrop(size=32, scale=(0.5, 1.0), antialias=True),
        v2.RandomHorizontalFlip(p=0.5),
        v2.RandomRotation(degrees=15, interpolation=v2.InterpolationMode.BILINEAR, fill=0),
        v2.ColorJitter(brightness=0.2, contrast=0.2),
    ]
)
torch.manual_seed(0)  # v2's random transforms draw from torch's global generator
first = augment(image)
print(torch.equal(first, augment(image)))  # each call draws new parameters
#> False
torch.manual_seed(0)
print(first.shape, torch.equal(first, augment(image)))  # the same seed: the same result
#> torch.Size([3, 32, 32]) True
others = (v2.ColorJitter(brightness=0.5), v2.GaussianBlur(5, sigma=(0.1, 2.0)), v2.AutoAugment())
print([torch.equal(t(image), t(image)) for t in others])  # random too, without the name
#> [False, False, False]

flipped = v2.RandomHorizontalFlip(p=1.0)(image)  # p=1: always
print(torch.equal(flipped, image.flip(-1)))
#> True
rotate = v2.RandomRotation(degrees=(30, 30), expand=True)  # exactly 30°, on a larger canvas
print(rotate(image).shape, torch.equal(rotate(image), rotate(image)))
#> torch.Size([3, 60, 62]) True
print(torch.equal(rotate(image), v2.functional.rotate(image, 30, expand=True)))  # a fixed 30°
#> True
# --8<-- [end:random]

# --8<-- [start:renamed]
import inspect

from torchvision import transforms  # the old API, still importable


def type_error(make) -> str:
    """The TypeError message of calling `make`, or "no error"."""
    try:
        make()
    except TypeError as err:
        return str(err)
    return "no error"


print(type_error(lambda: v2.RandomRotation(30, resample=False)))
#> RandomRotation.__init__() got an unexpected keyword argument 'resample'
print(type_error(lambda: v2.RandomAffine(10, fillcolor=0)))
#> RandomAffine.__init__() got an unexpected keyword argument 'fillcolor'
print(type_error(lambda: v2.CenterCrop(16, padding=2)))
#> CenterCrop.__init__() got an unexpected keyword argument 'padding'
print(list(inspect.signature(v2.CenterCrop).parameters), list(inspect.signature(v2.RandomCrop).parameters))
#> ['size'] ['size', 'padding', 'pad_if_needed', 'fill', 'padding_mode']
print(type_error(lambda: v2.LinearTransformation(torch.eye(3))))
#> LinearTransformation.__init__() missing 1 required positional argument: 'mean_vector'
resize_int = v2.Resize(24, interpolation=2)(image)  # an old integer code still works
resize_enum = v2.Resize(24, interpolation=v2.InterpolationMode.BILINEAR)(image)
print(torch.equal(resize_int, resize_enum))
#> True
print(v2.RandomRotation(30).interpolation)  # the default, in place of resample=False
#> nearest
old_default = inspect.signature(transforms.ColorJitter).parameters["brightness"].default
print(inspect.signature(v2.ColorJitter).parameters["brightness"].default, old_default)
#> None 0
old_jitter = transforms.ColorJitter()(image)  # the old API's defaults: 0
print(torch.equal(v2.ColorJitter()(image), image), torch.equal(old_jitter, image))  # no change
#> True True
old_flip = transforms.RandomHorizontalFlip(p=1.0)(image)  # an old transform, still working
print(torch.equal(old_flip, image.flip(-1)))
#> True
# --8<-- [end:renamed]

# --8<-- [start:boxes]
boxes = tv_tensors.BoundingBoxes([[0, 0, 10, 20]], format="XYXY", canvas_size=(40, 48))
mask = tv_tensors.Mask(torch.zeros(40, 48, dtype=torch.uint8))  # one class index per pixel
mask[:, :10] = 1  # class 1 in the ten leftmost columns
flipped_image, flipped_boxes, flipped_mask = v2.RandomHorizontalFlip(p=1.0)(image, boxes, mask)
print(flipped_boxes.tolist())  # x: 0..10 -> 38..48, mirrored with the image
#> [[38, 0, 48, 20]]
print(torch.equal(flipped_image, image.flip(-1)), torch.equal(flipped_mask, mask.flip(-1)))  # the mask too
#> True True
sample = {"image": image, "boxes": boxes, "mask": mask, "label": 3}  # any structure of inputs
resized = v2.Resize(24)(sample)
print(resized["image"].shape, resized["boxes"].tolist(), resized["mask"].shape)
#> torch.Size([3, 24, 28]) [[0, 0, 5, 12]] torch.Size([24, 28])
print(resized["label"])  # plain data: returned as it is
#> 3
torch.manual_seed(0)
pixel_mask = tv_tensors.Mask(image[0].clone())  # a mask that copies the image's channel 0
augment = v2.Compose([v2.RandomCrop(16), v2.RandomHorizontalFlip()])
crop_image, crop_mask = augment(image, pixel_mask)  # one call: the same crop and flip for both
print(crop_mask.shape, torch.equal(crop_mask, crop_image[0]))
#> torch.Size([16, 16]) True
alone = augment(pixel_mask)  # a call of its own draws a new crop
print(torch.equal(alone, crop_image[0]))
#> False
# --8<-- [end:boxes]

# --8<-- [start:crops_and_more]
print([tuple(crop.shape) for crop in v2.FiveCrop(16)(image)])  # 4 corners + centre
#> [(3, 16, 16), (3, 16, 16), (3, 16, 16), (3, 16, 16), (3, 16, 16)]
print(len(v2.TenCrop(16)(image)))  # the five crops, and the five of the flipped image
#> 10
mirrored = v2.FiveCrop(16)(image.flip(-1))[0]  # the corner crop of the horizontally flipped image
upside_down = v2.FiveCrop(16)(image.flip(-2))[0]  # ... of the vertically flipped image
print(torch.equal(v2.TenCrop(16)(image)[5], mirrored), torch.equal(v2.TenCrop(16, vertical_flip=True)(image)[5], upside_down))
#> True True
print(v2.Pad(2)(image).shape, v2.Grayscale()(image).shape, v2.Grayscale(3)(image).shape)
#> torch.Size([3, 44, 52]) torch.Size([1, 40, 48]) torch.Size([3, 40, 48])
print(v2.RandomGrayscale(p=0.1), v2.ColorJitter())  # ColorJitter(): changes nothing
#> RandomGrayscale(p=0.1) ColorJitter()
print(type(v2.ToPILImage()(image)))
#> <class 'PIL.Image.Image'>
torch.manual_seed(0)
choose = v2.RandomChoice([v2.Pad(1), v2.Pad(2)], p=[0.5, 0.5])  # one of them per call
maybe = v2.RandomApply([v2.Pad(1), v2.Pad(2)], p=0.5)  # all of them, or none, per call
shuffled = v2.RandomOrder([v2.RandomHorizontalFlip(), v2.Pad(1)])  # all, random order
widths = [sorted({t(image).shape[-1] for _ in range(20)}) for t in (choose, maybe, shuffled)]
print(widths)  # the widths seen in 20 calls of each: 48 + 2 x the padding applied
#> [[50, 52], [48, 54], [50]]
batch = torch.stack([pixels] * 4)  # four copies of one image, as a batch
cropped = v2.RandomResizedCrop(32)(batch)
print(cropped.shape, all(torch.equal(cropped[0], crop) for crop in cropped))  # one box for all
#> torch.Size([4, 3, 32, 32]) True
# --8<-- [end:crops_and_more]
