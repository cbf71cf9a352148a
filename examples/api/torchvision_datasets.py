"""torchvision.datasets without a download: FakeData, ImageFolder, and what download=True does.

Run with `python examples/api/torchvision_datasets.py`. It writes its images into a
temporary directory and removes them. The `#>` lines under each print are the output
the libraries printed when the site was built; the test suite runs this script again
and compares.
"""

# --8<-- [start:fake_data]
import torch
from torchvision import datasets
from torchvision.transforms import v2

fake = datasets.FakeData(size=4, image_size=(3, 32, 32), num_classes=10)
print(isinstance(fake, torch.utils.data.Dataset), len(fake))
#> True 4
image, label = fake[0]  # without a transform: a PIL image and an int
print(type(image), image.size, image.mode, label)
#> <class 'PIL.Image.Image'> (32, 32) RGB 7

to_tensor = v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])
fake = datasets.FakeData(size=4, image_size=(3, 32, 32), num_classes=10, transform=to_tensor)
image, label = fake[0]
print(type(image).__name__, isinstance(image, torch.Tensor), image.shape, image.dtype)
#> Image True torch.Size([3, 32, 32]) torch.float32
print(image.min().item() >= 0, image.max().item() <= 1)
#> True True
print(torch.equal(fake[0][0], fake[0][0]))  # item i is the same image every time
#> True
shifted = datasets.FakeData(
    size=4, image_size=(3, 32, 32), num_classes=10, transform=to_tensor, random_offset=1
)  # the seed is the index plus random_offset
print(torch.equal(shifted[0][0], fake[1][0]))
#> True
torch.manual_seed(5)
expected = torch.rand(1)
torch.manual_seed(5)
fake[1]  # seeds torch with the index, then restores the CPU generator's state
print(torch.equal(expected, torch.rand(1)))
#> True
# --8<-- [end:fake_data]

# --8<-- [start:image_folder]
import tempfile
from pathlib import Path

from PIL import Image

workdir = tempfile.TemporaryDirectory()
root = Path(workdir.name) / "train"
colours = {"dog": (40, 80, 200), "cat": (200, 120, 40)}
for name, colour in colours.items():  # root/<class>/<file>: one folder per class
    (root / name).mkdir(parents=True)
    for i in range(3):
        Image.new("RGB", (48, 40), colour).save(root / name / f"{i}.png")

folder = datasets.ImageFolder(root, transform=to_tensor)
print(folder.classes, folder.class_to_idx)  # classes: folder names in sorted order
#> ['cat', 'dog'] {'cat': 0, 'dog': 1}
print(len(folder), [Path(path).relative_to(root).as_posix() for path, _ in folder.samples[:2]])
#> 6 ['cat/0.png', 'cat/1.png']
image, label = folder[4]
print(image.shape, label, folder.classes[label])  # C x H x W: 3 x 40 x 48
#> torch.Size([3, 40, 48]) 1 dog
# --8<-- [end:image_folder]

# --8<-- [start:class_to_idx]
animals = Path(workdir.name) / "animals"
for split, names in {"train": ["cat", "dog", "fox"], "val": ["cat", "fox"]}.items():  # no dogs in val
    for name in names:
        (animals / split / name).mkdir(parents=True)
        Image.new("RGB", (48, 40)).save(animals / split / name / "0.png")

received = []


def target_transform(label):
    received.append(label)  # what ImageFolder passes: the index, not the folder's name
    return label


val = datasets.ImageFolder(animals / "val", target_transform=target_transform)
print(datasets.ImageFolder(animals / "train").class_to_idx, val.class_to_idx)  # fox is 2 in one, 1 in the other
#> {'cat': 0, 'dog': 1, 'fox': 2} {'cat': 0, 'fox': 1}
print([val[i][1] for i in range(len(val))], received)
#> [0, 1] [0, 1]

# The fix: one fixed mapping for every dataset, returned by find_classes.
CLASSES = {"cat": 0, "dog": 1, "fox": 2}


class FixedClasses(datasets.ImageFolder):
    def find_classes(self, directory):
        return list(CLASSES), CLASSES


train = FixedClasses(animals / "train")
val = FixedClasses(animals / "val", allow_empty=True)  # allow a class without a folder
print(train.class_to_idx == val.class_to_idx, [(Path(p).parent.name, label) for p, label in val.samples])
#> True [('cat', 0), ('fox', 2)]
# --8<-- [end:class_to_idx]

# --8<-- [start:loader]
from torch.utils.data import DataLoader

loader = DataLoader(folder, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
images, labels = next(iter(loader))
print(images.shape, images.dtype, labels)
#> torch.Size([4, 3, 40, 48]) torch.float32 tensor([1, 0, 0, 1])
again = DataLoader(folder, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
print(torch.equal(labels, next(iter(again))[1]))  # the same seed: the same order
#> True

two_sizes = [torch.zeros(3, 40, 48), torch.zeros(3, 40, 50)]  # a list is a dataset too
try:
    next(iter(DataLoader(two_sizes, batch_size=2)))
except RuntimeError as err:
    print(err)
    """
    stack expects each tensor to be equal size, but got [3, 40, 48] at entry 0 and [3, 40, 50] at entry 1
    """

from torch.utils.data import random_split

train, val = random_split(folder, [4, 2], generator=torch.Generator().manual_seed(0))
print(len(train), len(val), sorted(val.indices))  # Subsets that index into `folder`
#> 4 2 [1, 4]
# --8<-- [end:loader]

# --8<-- [start:download]
print(datasets.CIFAR10.url)  # where download=True fetches the archive from
#> https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz
print(datasets.CIFAR10.test_list)  # each file it extracts, with its MD5 sum
#> [['test_batch', '40351d587109b95175f43aff81a1287e']]
try:
    datasets.CIFAR10(root=workdir.name, train=False)  # download=False: nothing there
except RuntimeError as err:
    print(err)
    #> Dataset not found or corrupted. You can use download=True to download it
cifar_dir = Path(workdir.name) / datasets.CIFAR10.base_folder  # CIFAR10's layout under root
cifar_dir.mkdir()
print(cifar_dir.relative_to(workdir.name).as_posix())
#> cifar-10-batches-py
for filename, _ in datasets.CIFAR10.train_list + datasets.CIFAR10.test_list:
    (cifar_dir / filename).write_bytes(b"not the data")  # the right names, the wrong content
try:
    datasets.CIFAR10(root=workdir.name, train=False)
except RuntimeError as err:
    print(err)  # CIFAR10 checks the MD5 sum of every file
    #> Dataset not found or corrupted. You can use download=True to download it

import struct


def write_idx(path: Path, values: torch.Tensor) -> None:
    """Write a uint8 tensor in the IDX format of MNIST's files."""
    header = struct.pack(f">HBB{values.dim()}I", 0, 8, values.dim(), *values.shape)  # 8: uint8
    path.write_bytes(header + bytes(values.flatten().tolist()))


raw = Path(workdir.name) / "MNIST" / "raw"  # MNIST's layout under root
raw.mkdir(parents=True)
for split in ("train", "t10k"):  # tiny stand-ins with the right names
    write_idx(raw / f"{split}-images-idx3-ubyte", torch.zeros(2, 28, 28, dtype=torch.uint8))
    write_idx(raw / f"{split}-labels-idx1-ubyte", torch.tensor([3, 5], dtype=torch.uint8))
mnist = datasets.MNIST(
    root=workdir.name, train=False, download=True
)  # the files exist: no download
print(len(mnist), mnist[1][1], Path(mnist.raw_folder).relative_to(workdir.name).as_posix())
#> 2 5 MNIST/raw

import inspect

print("download" in inspect.signature(datasets.ImageNet).parameters)
#> False
print(list(inspect.signature(datasets.CocoCaptions).parameters))
#> ['root', 'annFile', 'transform', 'target_transform', 'transforms']
workdir.cleanup()
# --8<-- [end:download]

# --8<-- [start:download_mirrors]
print(datasets.MNIST.mirrors)  # the addresses download=True tries, in this order
#> ['https://ossci-datasets.s3.amazonaws.com/mnist/', 'http://yann.lecun.com/exdb/mnist/']
print([filename for filename, _ in datasets.MNIST.resources])  # the archive it fetches from each
"""
['train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz', 't10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz']
"""
# --8<-- [end:download_mirrors]
