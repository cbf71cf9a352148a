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
image, label = fake[0]  # without a transform: a PIL image and an int
print(len(fake), type(image), image.size, image.mode, label)
#> 4 <class 'PIL.Image.Image'> (32, 32) RGB 7

to_tensor = v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True)])
fake = datasets.FakeData(size=4, image_size=(3, 32, 32), num_classes=10, transform=to_tensor)
image, label = fake[0]
print(type(image).__name__, isinstance(image, torch.Tensor), image.shape, image.dtype)
#> Image True torch.Size([3, 32, 32]) torch.float32
print(torch.equal(fake[0][0], fake[0][0]))  # item i is the same image every time
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
colours = {"cat": (200, 120, 40), "dog": (40, 80, 200)}
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

# --8<-- [start:loader]
from torch.utils.data import DataLoader

loader = DataLoader(folder, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
images, labels = next(iter(loader))
print(images.shape, images.dtype, labels)
#> torch.Size([4, 3, 40, 48]) torch.float32 tensor([1, 0, 0, 1])

from torch.utils.data import random_split

train, val = random_split(folder, [4, 2], generator=torch.Generator().manual_seed(0))
print(len(train), len(val), sorted(val.indices))  # Subsets that index into `folder`
#> 4 2 [1, 4]
# --8<-- [end:loader]

# --8<-- [start:download]
try:
    datasets.CIFAR10(root=workdir.name, train=False, download=False)  # nothing there
except RuntimeError as err:
    print(err)
    #> Dataset not found or corrupted. You can use download=True to download it
workdir.cleanup()
# --8<-- [end:download]
