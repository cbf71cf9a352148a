"""Pinned (page-locked) host memory: what runs on any machine.

Run with `python examples/gpu/pinned_memory.py`. The `#>` lines under each print are
the output the libraries printed when the site was built; the test suite runs this
script again and compares. The CUDA part is in pinned_memory_cuda.py.
"""

# --8<-- [start:pageable]
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

x = torch.zeros(1024, 1024)  # ordinary allocations are pageable memory
print(x.is_pinned(), torch.from_numpy(np.zeros(3)).is_pinned())
#> False False

dataset = TensorDataset(torch.arange(8.0).view(4, 2), torch.arange(4))
loader = DataLoader(dataset, batch_size=2, pin_memory=False)  # the default
features, labels = next(iter(loader))
print(features.is_pinned(), features.device)
#> False cpu
# --8<-- [end:pageable]
