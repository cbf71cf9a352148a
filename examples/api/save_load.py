"""Saving and loading models: state_dict, checkpoints, torch.save(model) and weights_only.

Run with `python examples/api/save_load.py`. It writes its files into a temporary
directory and removes them. The `#>` lines under each print are the output the
libraries printed when the site was built; the test suite runs this script again
and compares.
"""

# --8<-- [start:model]
import torch
import torch.nn.functional as F
from torch import nn


class SmallCNN(nn.Module):
    """LeNet-style classifier for 3 x 32 x 32 images (the CIFAR-10 size)."""

    def __init__(self) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, kernel_size=5)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(6, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, start_dim=1)
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


torch.manual_seed(0)
model = SmallCNN()
optimizer = torch.optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
# --8<-- [end:model]

# --8<-- [start:model_state_dict]
for name, tensor in model.state_dict().items():
    print(f"{name:<12} {tuple(tensor.shape)}")
    #> conv1.weight (6, 3, 5, 5)
    #> conv1.bias   (6,)
    #> conv2.weight (16, 6, 5, 5)
    #> conv2.bias   (16,)
    #> fc1.weight   (120, 400)
    #> fc1.bias     (120,)
    #> fc2.weight   (84, 120)
    #> fc2.bias     (84,)
    #> fc3.weight   (10, 84)
    #> fc3.bias     (10,)
# --8<-- [end:model_state_dict]

# --8<-- [start:optimizer_state_dict]
print(optimizer.state_dict())  # before the first step: no state yet
"""
{'state': {}, 'param_groups': [{'lr': 0.001, 'momentum': 0.9, 'dampening': 0, 'weight_decay': 0, 'nesterov': False, 'maximize': False, 'foreach': None, 'differentiable': False, 'fused': None, 'params': [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]}]}
"""
images, labels = torch.randn(4, 3, 32, 32), torch.tensor([0, 1, 2, 3])
F.cross_entropy(model(images), labels).backward()
optimizer.step()
state = optimizer.state_dict()["state"]
print(len(state), list(state[0]))  # one momentum buffer per parameter, keyed by index
#> 10 ['momentum_buffer']
# --8<-- [end:optimizer_state_dict]

# --8<-- [start:save_state_dict]
import tempfile
from pathlib import Path

workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)

torch.save(model.state_dict(), folder / "weights.pt")
fresh = SmallCNN()  # rebuild the architecture in code, then fill in the weights
print(fresh.load_state_dict(torch.load(folder / "weights.pt")))
#> <All keys matched successfully>
print(torch.equal(fresh.fc3.weight, model.fc3.weight))
#> True
import zipfile

print(zipfile.is_zipfile(folder / "weights.pt"))  # the format, whatever the file is called
#> True
# --8<-- [end:save_state_dict]

# --8<-- [start:mismatch]
try:
    fresh.load_state_dict({"fc3.weight": torch.zeros(10, 84)})
except RuntimeError as err:
    print(str(err).expandtabs(4))  # the message indents its lines with a tab
    """
    Error(s) in loading state_dict for SmallCNN:
        Missing key(s) in state_dict: "conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias", "fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", "fc3.bias".
    """
result = fresh.load_state_dict({"fc3.weight": torch.zeros(10, 84)}, strict=False)
print(len(result.missing_keys), result.unexpected_keys)
#> 9 []
try:
    fresh.load_state_dict({**model.state_dict(), "fc3.weight": torch.zeros(5, 84)})
except RuntimeError as err:
    print(str(err).expandtabs(4))  # the message indents its lines with a tab
    """
    Error(s) in loading state_dict for SmallCNN:
        size mismatch for fc3.weight: copying a param with shape torch.Size([5, 84]) from checkpoint, the shape in current model is torch.Size([10, 84]).
    """
# --8<-- [end:mismatch]

# --8<-- [start:prefixes]
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present

wrapped = nn.DataParallel(model)  # DistributedDataParallel adds the same prefix
print(list(wrapped.state_dict())[:2])
#> ['module.conv1.weight', 'module.conv1.bias']
compiled = torch.compile(model)  # compiles lazily, on the first call: nothing runs here
print(list(compiled.state_dict())[:2])
#> ['_orig_mod.conv1.weight', '_orig_mod.conv1.bias']
weights = compiled.state_dict()
consume_prefix_in_state_dict_if_present(weights, "_orig_mod.")  # strips it, in place
print(list(weights)[:2], SmallCNN().load_state_dict(weights))
#> ['conv1.weight', 'conv1.bias'] <All keys matched successfully>
# --8<-- [end:prefixes]

# --8<-- [start:checkpoint]
checkpoint = {
    "epoch": 10,
    "loss": 0.5e-5,
    "model_state_dict": model.state_dict(),
    "optimizer_state_dict": optimizer.state_dict(),
}
torch.save(checkpoint, folder / "checkpoint.pt")

resumed_model = SmallCNN()
resumed_optimizer = torch.optim.SGD(resumed_model.parameters(), lr=0.001, momentum=0.9)
loaded = torch.load(folder / "checkpoint.pt")  # weights_only=True: plain data is allowed
resumed_model.load_state_dict(loaded["model_state_dict"])
resumed_optimizer.load_state_dict(loaded["optimizer_state_dict"])
print(loaded["epoch"], loaded["loss"])
#> 10 5e-06
momentum = resumed_optimizer.state_dict()["state"][0]["momentum_buffer"]
print(torch.equal(momentum, optimizer.state_dict()["state"][0]["momentum_buffer"]))
#> True
resumed_model.train()  # back to training mode before training goes on
# --8<-- [end:checkpoint]

# --8<-- [start:whole_model]
torch.save(model, folder / "whole_model.pt")  # pickles the object, class by name
try:
    torch.load(folder / "whole_model.pt")
except Exception as err:
    lines = [line.strip() for line in str(err).splitlines()]
    print(type(err).__name__)
    #> UnpicklingError
    print(next(line for line in lines if "PyTorch 2.6" in line))  # since when, and why
    """
    (1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.
    """
    print(next(line for line in lines if "Unsupported global" in line))  # what to allow
    """
    WeightsUnpickler error: Unsupported global: GLOBAL __main__.SmallCNN was not an allowed global by default. Please use `torch.serialization.add_safe_globals([__main__.SmallCNN])` or the `torch.serialization.safe_globals([__main__.SmallCNN])` context manager to allowlist this global if you trust this class/function.
    """
# --8<-- [end:whole_model]

# --8<-- [start:safe_globals]
print(sorted(torch.serialization.get_unsafe_globals_in_checkpoint(folder / "whole_model.pt")))
"""
['__main__.SmallCNN', 'torch.nn.modules.conv.Conv2d', 'torch.nn.modules.linear.Linear', 'torch.nn.modules.pooling.MaxPool2d']
"""
allowed = [SmallCNN, nn.Conv2d, nn.MaxPool2d, nn.Linear]
with torch.serialization.safe_globals(allowed):
    restored = torch.load(folder / "whole_model.pt")
print(type(restored).__name__, torch.equal(restored.fc3.bias, model.fc3.bias))
#> SmallCNN True
# weights_only=False also works, but runs whatever code the file names: trusted files only
# --8<-- [end:safe_globals]

# --8<-- [start:map_location]
on_cpu = torch.load(folder / "weights.pt", map_location="cpu")  # e.g. saved on a GPU
print(on_cpu["fc3.bias"].device)
#> cpu
shapes_only = torch.load(folder / "weights.pt", map_location="meta")  # no data read
print(shapes_only["fc1.weight"])
#> tensor(..., device='meta', size=(120, 400))
# --8<-- [end:map_location]

# --8<-- [start:eval_train]
dropout_net = nn.Sequential(nn.Linear(4, 4), nn.Dropout(p=0.5))
print(dropout_net.training)  # a new module is in training mode
#> True
x = torch.ones(1, 4)
torch.manual_seed(1)
print(torch.equal(dropout_net(x), dropout_net(x)))  # training: a new dropout mask each call
#> False
dropout_net.eval()  # sets .training = False on every submodule
print(dropout_net[1].training, torch.equal(dropout_net(x), dropout_net(x)))
#> False True
dropout_net.train()
print(dropout_net[1].training)
#> True
# --8<-- [end:eval_train]

workdir.cleanup()
