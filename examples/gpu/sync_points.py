"""Hidden synchronisation points: the parts that need no GPU.

Run with `python examples/gpu/sync_points.py`. It shows what the calls that bring a
value to the host return, which calls read one value with the same operation, why calls
whose output size depends on the data cannot run before the values exist (on the meta
device, which has shapes but no values), their alternatives with a fixed output shape,
and that recording losses on the device and reading them once gives the same numbers as
reading them every step. examples/gpu/sync_points_cuda.py shows the waiting on a GPU.
"""

# --8<-- [start:host_values]
import numpy as np
import torch

x = torch.tensor([0.0, 3.0, 0.0, 5.0])
loss = x.mean()
print(type(loss.item()).__name__, loss.item())  # one Python number
#> float 2.0
print(x.tolist())  # a Python list of Python numbers
#> [0.0, 3.0, 0.0, 5.0]
print(type(x.cpu().numpy()).__name__, x.cpu() is x)  # already on the CPU: no copy
#> ndarray True
print(type(bool(x.any())).__name__, "positive" if x.any() else "all zero")
#> bool positive
print(x)  # printing shows the values, so it needs them
#> tensor([0., 3., 0., 5.])
# --8<-- [end:host_values]

# --8<-- [start:one_value]
from torch.utils._python_dispatch import TorchDispatchMode


class OpLog(TorchDispatchMode):  # records each ATen operation run inside `with OpLog()`
    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(func.overloadpacket.__name__)
        return func(*args, **(kwargs or {}))


for name, call in [
    ("Tensor.item", lambda: loss.item()),
    ("float(t)", lambda: float(loss)),
    ("bool(t)", lambda: bool(x.any())),
    ("if t.any():", lambda: 1 if x.any() else 0),
]:
    with OpLog() as log:
        call()
    print(f"{name:12} runs {log.ops}")
    #> Tensor.item  runs ['_local_scalar_dense']
    #> float(t)     runs ['_local_scalar_dense']
    #> bool(t)      runs ['any', '_local_scalar_dense']
    #> if t.any():  runs ['any', '_local_scalar_dense']
# --8<-- [end:one_value]

# --8<-- [start:data_dependent]
a = torch.tensor([0.0, 3.0, 0.0, 5.0])
b = torch.tensor([1.0, 2.0, 3.0, 4.0])
for t in (a, b):  # same shape, different values
    results = [torch.nonzero(t), t[t > 0], torch.masked_select(t, t > 0), torch.unique(t)]
    print([tuple(r.shape) for r in results])
    #> [(2, 1), (2,), (2,), (3,)]
    #> [(4, 1), (4,), (4,), (4,)]
print(len(torch.nonzero(a, as_tuple=True)), torch.nonzero(a, as_tuple=True)[0].shape)
#> 1 torch.Size([2])
# --8<-- [end:data_dependent]

# --8<-- [start:docstrings]
import re

doc = " ".join(torch.nonzero.__doc__.split())  # the docstring: reading it needs no GPU
print(re.search(r"When :attr:`input` is on CUDA.*?synchronization\.", doc).group())
"""
When :attr:`input` is on CUDA, :func:`torch.nonzero() <torch.nonzero>` causes host-device synchronization.
"""
doc = " ".join(torch.repeat_interleave.__doc__.split())
print(re.search(r"If given, it will avoid stream synchronization.*?\.", doc).group())
#> If given, it will avoid stream synchronization needed to calculate output shape of the tensor.
repeats = torch.tensor([1, 2, 0, 1])
print(torch.repeat_interleave(a, repeats), torch.repeat_interleave(a, repeats, output_size=4))
#> tensor([0., 3., 3., 5.]) tensor([0., 3., 3., 5.])
# --8<-- [end:docstrings]

# --8<-- [start:meta]
m = torch.empty(4, device="meta")  # a shape and a dtype, no values
calls = [
    ("torch.nonzero", lambda: torch.nonzero(m)),
    ("torch.argwhere", lambda: torch.argwhere(m)),
    ("x[mask]", lambda: m[m > 0]),
    ("torch.masked_select", lambda: torch.masked_select(m, m > 0)),
    ("torch.unique", lambda: torch.unique(m)),
    ("torch.where", lambda: torch.where(m > 0, m, 0.0)),
    ("Tensor.masked_fill", lambda: m.masked_fill(m <= 0, 0.0)),
    ("torch.nonzero_static", lambda: torch.nonzero_static(m, size=2)),
]


def outcome(call) -> str:  # the result's shape, or "raises" when the call raises
    try:
        return str(tuple(call().shape))
    except NotImplementedError:
        return "raises"


for name, call in calls:
    print(f"{name:20} {outcome(call)}")
    #> torch.nonzero        raises
    #> torch.argwhere       raises
    #> x[mask]              raises
    #> torch.masked_select  raises
    #> torch.unique         raises
    #> torch.where          (4,)
    #> Tensor.masked_fill   (4,)
    #> torch.nonzero_static (2, 1)

try:
    m[m > 0]
except NotImplementedError as err:
    print(str(err).split(",")[0])  # a boolean mask is turned into indices by nonzero
    #> The register_meta function for torch.nonzero() raises unimplemented by default
# --8<-- [end:meta]

# --8<-- [start:meta_misses]
import re

square = torch.empty(3, 3, device="meta")
print(tuple(torch.linalg.cholesky(square).shape), tuple(torch.linalg.inv(square).shape))
#> (3, 3) (3, 3)
found = r"inputs are on a CUDA device, this function synchronizes (.*?CPU|only when :attr:`\w+`)"
for func in (torch.linalg.cholesky, torch.linalg.inv, torch.linalg.cholesky_ex, torch.linalg.inv_ex):
    doc = " ".join(func.__doc__.split())
    print(f"{func.__name__:18} synchronizes", re.search(found, doc).group(1).replace(":attr:", ""))
    #> linalg_cholesky    synchronizes that device with the CPU
    #> linalg_inv         synchronizes that device with the CPU
    #> linalg_cholesky_ex synchronizes only when `check_errors`
    #> linalg_inv_ex      synchronizes only when `check_errors`

not_positive_definite = torch.tensor([[1.0, 2.0], [2.0, 1.0]])
factor, info = torch.linalg.cholesky_ex(not_positive_definite)  # no error raised: info says it
print(info)
#> tensor(2, dtype=torch.int32)
try:
    torch.linalg.cholesky(not_positive_definite)
except RuntimeError as err:  # torch.linalg.LinAlgError
    print(f"{type(err).__name__}: {err}")
    """
    _LinAlgError: linalg.cholesky: The factorization could not be completed because the input is not positive-definite (the leading minor of order 2 is not positive-definite).
    """
# --8<-- [end:meta_misses]

# --8<-- [start:alternatives]
values = torch.tensor([-2.0, 3.0, -1.0, 5.0])
positive = values > 0
print(values[positive].sum(), torch.where(positive, values, 0.0).sum())
#> tensor(8.) tensor(8.)
print(values.masked_fill(~positive, 0.0))  # the shape of the input, zeros elsewhere
#> tensor([0., 3., 0., 5.])
print(values[positive].mean(), torch.where(positive, values, 0.0).sum() / positive.sum())
#> tensor(4.) tensor(4.)
print(torch.nonzero_static(values, size=6, fill_value=-1).flatten())  # padded to size
#> tensor([ 0,  1,  2,  3, -1, -1])
print(torch.nonzero_static(positive, size=1).flatten())  # cut to size
#> tensor([1])
# --8<-- [end:alternatives]

# --8<-- [start:losses]
torch.manual_seed(0)
inputs, targets = torch.randn(64, 8), torch.randn(64, 1)
weight = torch.zeros(8, 1, requires_grad=True)  # a one-layer model
optimizer = torch.optim.SGD([weight], lr=0.1)
per_step, per_window = [], []
running = torch.zeros((), dtype=torch.float64)  # on the weights' device
for step in range(1, 21):
    loss = torch.nn.functional.mse_loss(inputs @ weight, targets)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    per_step.append(loss.item())  # way 1: one read (on a GPU: one wait) per step
    running += loss.detach()  # way 2: stays on the device, no read
    if step % 5 == 0:
        per_window.append(running.item() / 5)  # one read per 5 steps
        running.zero_()
windows = [sum(per_step[i : i + 5]) / 5 for i in range(0, 20, 5)]
print(windows == per_window, [round(v, 4) for v in per_window])
#> True [1.0256, 0.9141, 0.8841, 0.8752]
# --8<-- [end:losses]

# --8<-- [start:accumulator]
losses = [torch.tensor(v, dtype=torch.float32) for v in np.linspace(0.1, 1.0, 1000)]
python_sum = sum(v.item() for v in losses)  # Python floats are float64
total64 = torch.zeros((), dtype=torch.float64)
total32 = torch.zeros(())  # float32, the losses' dtype
for v in losses:
    total64 += v
    total32 += v
print(total64.item() == python_sum, total32.item() == python_sum)
#> True False
print(abs(total32.item() - python_sum) / python_sum < 1e-5)
#> True
step_loss = torch.ones((), requires_grad=True) * 2  # a loss, with its autograd graph
print((total64 + step_loss).grad_fn is not None, (total64 + step_loss.detach()).grad_fn)
#> True None
# --8<-- [end:accumulator]

# --8<-- [start:debug_mode]
doc = " ".join(torch.cuda.set_sync_debug_mode.__doc__.split())
print(re.search(r"debug_mode\(str or int\): (.*?)\. Warning", doc).group(1))
"""
if "default" or 0, don't error or warn on synchronizing operations, if "warn" or 1, warn on synchronizing operations, if "error" or 2, error out synchronizing operations
"""
print(re.search(r"Warning: (.*)", doc).group(1))
"""
This is an experimental feature, and not all synchronizing operations will trigger warning or error. In particular, operations in torch.distributed and torch.sparse namespaces are not covered yet.
"""
# --8<-- [end:debug_mode]
