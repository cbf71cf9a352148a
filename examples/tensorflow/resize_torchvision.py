"""One image downscaled by PyTorch, torchvision, PIL and TensorFlow: which resizers agree.

Run with `python examples/tensorflow/resize_torchvision.py`. The `#>` lines under each print
are the output the libraries printed when the site was built; the test suite runs this
script again and compares.
"""

# --8<-- [start:resize_libraries]
import numpy as np
import tensorflow as tf
import torch
import torch._dynamo  # before TensorFlow: see "TensorFlow and PyTorch in one program"
import torch.nn.functional as F
from PIL import Image
from torchvision.transforms import v2

rng = np.random.default_rng(0)
image = rng.integers(0, 256, size=(48, 64), dtype=np.uint8)  # a grey uint8 image, H x W
size = (42, 56)  # downscaled to 7/8; the reader's went from 976 x 549 to 910 x 512
pil = np.asarray(Image.fromarray(image).resize(size[::-1], Image.BILINEAR), dtype=np.float32)
nchw = torch.from_numpy(image).float()[None, None]
nhwc = image[None, :, :, None]
resized = {
    "F.interpolate": F.interpolate(nchw, size=size, mode="bilinear")[0, 0],
    "F.interpolate antialias": F.interpolate(nchw, size, mode="bilinear", antialias=True)[0, 0],
    "v2.Resize (uint8 tensor)": v2.Resize(size)(torch.from_numpy(image)[None])[0],
    "v2.Resize (PIL image)": v2.Resize(size)(Image.fromarray(image)),
    "tf.image.resize": tf.image.resize(nhwc, size)[0, :, :, 0],
    "tf.image.resize antialias": tf.image.resize(nhwc, size, antialias=True)[0, :, :, 0],
}
for name, result in resized.items():  # largest difference from PIL's BILINEAR, in grey levels
    print(f"{name:26}", np.abs(np.asarray(result, dtype=np.float32) - pil).max().round(1))
    #> F.interpolate              44.4
    #> F.interpolate antialias    1.0
    #> v2.Resize (uint8 tensor)   1.0
    #> v2.Resize (PIL image)      0.0
    #> tf.image.resize            44.4
    #> tf.image.resize antialias  1.0

# The two antialiased float resizers agree with each other to float32 rounding.
pt_aa = resized["F.interpolate antialias"].numpy()
print(np.allclose(pt_aa, resized["tf.image.resize antialias"].numpy(), atol=1e-3))
#> True
# --8<-- [end:resize_libraries]
