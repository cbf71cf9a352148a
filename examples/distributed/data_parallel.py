"""How nn.DataParallel works, read from the installed torch: runs on any machine.

Run with `python examples/distributed/data_parallel.py`. DataParallel only
parallelises with two or more GPUs; with none, its forward just calls the module. So
this script reads its source code and its documentation, and calls it once on the CPU.
The `#>` lines under each print are the output printed when the site was built, on a
machine without a GPU; the test suite runs this script again and compares.
"""

# --8<-- [start:steps]
import inspect

from torch import nn
from torch.nn.parallel import parallel_apply

# The lines of DataParallel.forward that decide what runs, in the order of the source:
forward = inspect.getsource(nn.DataParallel.forward)
keys = ["self.device_ids:", "len(self.device_ids)", "return self.module(", "self.scatter(",
        "self.replicate(", "self.parallel_apply(", "self.gather("]
print("\n".join(line.strip() for line in forward.splitlines() if any(k in line for k in keys)))
"""
if not self.device_ids:
return self.module(*inputs, **kwargs)
inputs, module_kwargs = self.scatter(inputs, kwargs, self.device_ids)
if len(self.device_ids) == 1:
return self.module(*inputs[0], **module_kwargs[0])
replicas = self.replicate(self.module, self.device_ids[: len(inputs)])
outputs = self.parallel_apply(replicas, inputs, module_kwargs)
return self.gather(outputs, self.output_device)
"""
print("a thread per replica:", "threading.Thread" in inspect.getsource(parallel_apply))
#> a thread per replica: True
# --8<-- [end:steps]

# --8<-- [start:no_gpu]
import torch

dp = nn.DataParallel(nn.Linear(4, 2))  # on a machine without a GPU: no devices to use
print("GPUs:", torch.cuda.device_count(), "| device_ids:", dp.device_ids)
#> GPUs: 0 | device_ids: []
print("output shape:", tuple(dp(torch.ones(3, 4)).shape), "| parameters on:", next(dp.parameters()).device)
#> output shape: (3, 2) | parameters on: cpu
# --8<-- [end:no_gpu]

# --8<-- [start:docs]
import re

doc = " ".join(nn.DataParallel.__doc__.split())  # the docstring, on one line
print(re.search(r"splitting the input.*?batch dimension", doc).group())
#> splitting the input across the specified devices by chunking in the batch dimension
print(re.search(r"During the backwards pass.*?\.", doc).group())
#> During the backwards pass, gradients from each replica are summed into the original module.
print(re.search(r"output_device \(.*?device_ids\[0\]\)", doc).group())
#> output_device (int or torch.device): device location of output (default: device_ids[0])
print(re.search(r"It is recommended.*?single node\.", doc).group())
"""
It is recommended to use :class:`~torch.nn.parallel.DistributedDataParallel`, instead of this class, to do multi-GPU training, even if there is only a single node.
"""
# --8<-- [end:docs]
