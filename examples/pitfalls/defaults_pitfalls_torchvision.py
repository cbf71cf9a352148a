"""Defaults of torchvision's v2 transforms: which plain tensors count as the image.

Run with `python examples/pitfalls/defaults_pitfalls_torchvision.py`.
"""

# --8<-- [start:v2_plain_tensors]
import torch
from torchvision import tv_tensors
from torchvision.transforms import v2

normalize = v2.Normalize(mean=[0.5], std=[0.5])
first, second = torch.zeros(1, 1, 2), torch.zeros(1, 1, 2)
out_first, out_second = normalize(first, second)
print(out_first.flatten().tolist(), out_second.flatten().tolist())  # the second is unchanged
#> [-1.0, -1.0] [0.0, 0.0]

# Wrap each image in tv_tensors.Image, or call the transform once per tensor.
out_first, out_second = normalize(tv_tensors.Image(first), tv_tensors.Image(second))
print(out_first.flatten().tolist(), out_second.flatten().tolist())
#> [-1.0, -1.0] [-1.0, -1.0]
print(normalize(second).flatten().tolist())  # one plain tensor alone is the image
#> [-1.0, -1.0]
# --8<-- [end:v2_plain_tensors]
