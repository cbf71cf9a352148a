"""Data loading with torchvision: ImageFolder's class numbers for folders named with numbers.

Run with `python examples/pitfalls/data_loading_pitfalls_torchvision.py`. It writes its
images into a temporary directory and removes them.
"""

# --8<-- [start:image_folder_numbers]
import pathlib
import tempfile

from PIL import Image
from torchvision import datasets

with tempfile.TemporaryDirectory() as root:
    for name in ["1", "2", "3", "10", "11", "100"]:  # classes named by numbers
        pathlib.Path(root, name).mkdir()
        Image.new("RGB", (4, 4)).save(pathlib.Path(root, name, "image.png"))

    data = datasets.ImageFolder(root)
    print(data.class_to_idx)  # folder names sorted as strings
    #> {'1': 0, '10': 1, '100': 2, '11': 3, '2': 4, '3': 5}

    class NumberedFolder(datasets.ImageFolder):
        """Classes in numerical order of their folder names."""

        def find_classes(self, directory):
            classes = sorted((p.name for p in pathlib.Path(directory).iterdir() if p.is_dir()), key=int)
            return classes, {name: i for i, name in enumerate(classes)}

    data = NumberedFolder(root)
    print(data.class_to_idx)
    #> {'1': 0, '2': 1, '3': 2, '10': 3, '11': 4, '100': 5}
    print([(pathlib.Path(path).parent.name, label) for path, label in data.samples])
    #> [('1', 0), ('10', 3), ('100', 5), ('11', 4), ('2', 1), ('3', 2)]
# --8<-- [end:image_folder_numbers]

# --8<-- [start:image_folder_hidden]
with tempfile.TemporaryDirectory() as root:
    for name in [".ipynb_checkpoints", "cat", "dog"]:  # Jupyter left a hidden folder
        pathlib.Path(root, name).mkdir()
        Image.new("RGB", (4, 4)).save(pathlib.Path(root, name, "image.png"))

    data = datasets.ImageFolder(root)
    print(data.class_to_idx)  # an extra class, and cat and dog one label higher
    #> {'.ipynb_checkpoints': 0, 'cat': 1, 'dog': 2}

    class VisibleFolder(datasets.ImageFolder):
        """Classes from the folders whose names do not start with a dot."""

        def find_classes(self, directory):
            classes = sorted(p.name for p in pathlib.Path(directory).iterdir() if p.is_dir() and not p.name.startswith("."))
            return classes, {name: i for i, name in enumerate(classes)}

    data = VisibleFolder(root)
    print(data.class_to_idx, len(data))
    #> {'cat': 0, 'dog': 1} 2
# --8<-- [end:image_folder_hidden]

# --8<-- [start:opencv_bgr]
import numpy as np
import torch
from torchvision.transforms import v2

rgb = np.array(Image.new("RGB", (2, 2), (255, 0, 0)))  # a red image, channels R, G, B as PIL opens it
bgr = rgb[..., ::-1].copy()  # the same pixels in the B, G, R order of cv2.imread
preprocess = v2.Compose(
    [v2.ToImage(), v2.ToDtype(torch.float32, scale=True), v2.Normalize([0.485, 0.456, 0.406], [0.229, 0.224, 0.225])]
)
print(preprocess(rgb)[:, 0, 0], preprocess(bgr)[:, 0, 0])  # no error: red arrives as blue
#> tensor([ 2.2489, -2.0357, -1.8044]) tensor([-2.1179, -2.0357,  2.6400])
print(torch.equal(preprocess(bgr[..., ::-1].copy()), preprocess(rgb)))  # the fix: back to RGB first
#> True
# --8<-- [end:opencv_bgr]

# --8<-- [start:sixteen_bit_png]
from torchvision.io import read_image

depth = np.arange(16, dtype=np.uint16).reshape(4, 4) * 4369  # a 16-bit PNG's values, up to 65535
with tempfile.TemporaryDirectory() as root:
    path = str(pathlib.Path(root, "depth.png"))
    Image.fromarray(depth).save(path)  # PIL writes a 16-bit greyscale PNG (mode I;16)
    image = read_image(path)
    print(image.dtype, np.asarray(Image.open(path)).dtype)  # torchvision and PIL both keep 16 bits
    #> torch.uint16 uint16
    print((image / 255).max())  # the 8-bit habit: values up to 257, no error
    #> tensor(257.)

    # The fix: scale by the dtype's range, 65535 for uint16, or let ToDtype do it.
    print((image / torch.iinfo(image.dtype).max).max(), v2.ToDtype(torch.float32, scale=True)(image).max())
    #> tensor(1.) tensor(1.)
    # Converted to int32 first, ToDtype and iinfo scale by int32's range: values near 0.
    wide = image.to(torch.int32)
    print((wide / torch.iinfo(wide.dtype).max).max(), v2.ToDtype(torch.float32, scale=True)(wide).max())
    #> tensor(3.0517e-05) tensor(3.0517e-05)
# --8<-- [end:sixteen_bit_png]

# --8<-- [start:read_image_channels]
from torchvision.io import ImageReadMode

with tempfile.TemporaryDirectory() as root:
    files = {
        "grey.png": np.full((4, 6), 100, np.uint8),  # greyscale (mode L)
        "rgb.png": np.full((4, 6, 3), 100, np.uint8),
        "rgba.png": np.full((4, 6, 4), 100, np.uint8),  # with transparency
    }
    for name, pixels in files.items():
        Image.fromarray(pixels).save(pathlib.Path(root, name))
    paths = [str(pathlib.Path(root, name)) for name in files]
    print([tuple(read_image(path).shape) for path in paths])  # the file's own channels
    #> [(1, 4, 6), (3, 4, 6), (4, 4, 6)]
    # The fix: ask for RGB, and every image has 3 channels (alpha dropped, grey copied).
    print([tuple(read_image(path, mode=ImageReadMode.RGB).shape) for path in paths])
    #> [(3, 4, 6), (3, 4, 6), (3, 4, 6)]
    print(read_image(paths[0], mode=ImageReadMode.RGB)[:, 0, 0].tolist())  # grey 100 in R, G and B
    #> [100, 100, 100]
    print(torch.stack([read_image(path, mode=ImageReadMode.RGB) for path in paths]).shape)
    #> torch.Size([3, 3, 4, 6])
# --8<-- [end:read_image_channels]

# --8<-- [start:palette_png]
with tempfile.TemporaryDirectory() as root:
    labels = np.array([[0, 1], [15, 255]], np.uint8)  # a VOC-style mask: class indices, 255 = border
    mask = Image.fromarray(labels, mode="P")
    mask.putpalette([0, 0, 0, 128, 0, 0] + [0, 128, 128] * 254)  # colours for display
    path = str(pathlib.Path(root, "mask.png"))
    mask.save(path)
    with Image.open(path) as opened:
        print(opened.mode, read_image(path).shape)  # paletted: one channel of indices
        #> P torch.Size([1, 2, 2])
        from_pil = torch.from_numpy(np.array(opened))  # PIL: the indices too
    print(read_image(path)[0].tolist())  # the labels themselves
    #> [[0, 1], [15, 255]]
    print(read_image(path, mode=ImageReadMode.GRAY)[0].tolist())  # converted: labels lost
    #> [[0, 38], [89, 89]]
    print(read_image(path, mode=ImageReadMode.RGB)[:, 0, 1].tolist())  # label 1's colour
    #> [128, 0, 0]
    print(from_pil.tolist())
    #> [[0, 1], [15, 255]]
# --8<-- [end:palette_png]
