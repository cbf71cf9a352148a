"""torch.load and tensors saved from a GPU: where they load back. Needs a CUDA device.

Run with `python examples/api/save_load_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:cuda]
import tempfile
from pathlib import Path

import torch

workdir = tempfile.TemporaryDirectory()
path = Path(workdir.name) / "on_gpu.pt"
torch.save({"weight": torch.ones(3, device="cuda")}, path)

saved_on = set()


def note_location(storage, location):
    """torch.load calls this for each stored tensor, with the device it was saved from."""
    saved_on.add(location)
    return storage  # returned as it is: the copy torch.load read into CPU memory


torch.load(path, map_location=note_location)
print(saved_on)  # the file records the GPU each tensor was saved from
print(torch.load(path)["weight"].device)  # by default: back onto that GPU
print(torch.load(path, map_location="cpu")["weight"].device)
workdir.cleanup()
# --8<-- [end:cuda]

# --8<-- [start:ddp_rank]
# What each DDP process does when it loads a checkpoint saved from GPU 0
workdir = tempfile.TemporaryDirectory()
path = Path(workdir.name) / "pretrained.pt"
torch.save({"weight": torch.ones(256, 1024, 1024, device="cuda:0")}, path)  # 1 GiB
torch.cuda.empty_cache()

before = torch.cuda.memory_allocated(0)
to_cpu = torch.load(path, map_location="cpu")
print("map_location='cpu' allocates on GPU 0:", torch.cuda.memory_allocated(0) > before)
by_default = torch.load(path)
print("no map_location allocates on GPU 0:", torch.cuda.memory_allocated(0) > before)
print(by_default["weight"].device)
del by_default
workdir.cleanup()
# --8<-- [end:ddp_rank]

# --8<-- [start:map_location_model]
# map_location="cuda:0" puts the loaded tensors on the GPU; the model built on the CPU stays there
workdir = tempfile.TemporaryDirectory()
path = Path(workdir.name) / "weights.pt"
torch.save(torch.nn.Linear(2, 1).state_dict(), path)
model = torch.nn.Linear(2, 1)  # built on the CPU
state = torch.load(path, map_location="cuda:0")
print(state["weight"].device)
model.load_state_dict(state)  # copies the values into the CPU parameters
print(model.weight.device)
model.to("cuda:0")  # still needed to move the model
print(model.weight.device)

# Or move the model first: the values are then copied from GPU to GPU
model = torch.nn.Linear(2, 1).to("cuda:0")
model.load_state_dict(torch.load(path, map_location="cuda:0"))
print(model.weight.device)
workdir.cleanup()
# --8<-- [end:map_location_model]
