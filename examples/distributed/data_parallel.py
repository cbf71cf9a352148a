"""How nn.DataParallel works, read from the installed torch: runs on any machine.

Run with `python examples/distributed/data_parallel.py`. DataParallel needs several
GPUs to do anything, so this script reads its source code and its documentation
instead: what it prints is what the installed version of torch does and says. The
`#>` lines under each print are the output printed when the site was built; the
test suite runs this script again and compares.
"""

# --8<-- [start:steps]
import inspect
import re

from torch import nn
from torch.nn.parallel import parallel_apply

# The steps of every DataParallel forward call, in the order the source code runs them:
forward = inspect.getsource(nn.DataParallel.forward)
print(re.findall(r"self\.(scatter|replicate|parallel_apply|gather)\(", forward))
#> ['scatter', 'replicate', 'parallel_apply', 'gather']
print("a thread per replica:", "threading.Thread" in inspect.getsource(parallel_apply))
#> a thread per replica: True
# --8<-- [end:steps]

# --8<-- [start:docs]
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
