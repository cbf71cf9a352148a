"""FakeData and the GPU's random number generator. Needs a CUDA device.

Run with `python examples/api/torchvision_datasets_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:cuda]
import torch
from torchvision import datasets

fake = datasets.FakeData(size=4, image_size=(3, 8, 8))
torch.manual_seed(5)
expected = torch.rand(3, device="cuda")
torch.manual_seed(5)
fake[1]  # seeds torch with 1, then restores the CPU generator's state only
print(torch.equal(expected, torch.rand(3, device="cuda")))  # did the GPU's sequence go on?

torch.manual_seed(1)
after_seed_1 = torch.rand(3, device="cuda")
torch.manual_seed(5)
fake[1]
print(torch.equal(after_seed_1, torch.rand(3, device="cuda")))  # or start again from seed 1?
# --8<-- [end:cuda]
