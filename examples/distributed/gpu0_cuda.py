"""Why every DDP process can end up with memory on GPU 0: the current device before
torch.cuda.set_device, and where torch.load puts tensors saved from cuda:0.

Needs a CUDA device. Run with `python examples/distributed/gpu0_cuda.py` on a machine with a GPU,
in a process of its own (the current device is the process's, and set_device changes it). The
checkpoint is written into a temporary directory.
"""
# requires: cuda

# --8<-- [start:gpu0]
import os
import tempfile

import torch

print("current device before set_device:", torch.cuda.current_device())
last = torch.cuda.device_count() - 1  # the rank's GPU, say; 0 on a machine with one GPU
with tempfile.TemporaryDirectory() as directory:
    path = os.path.join(directory, "checkpoint.pt")
    torch.save({"weight": torch.ones(2, device="cuda:0")}, path)  # saved from GPU 0
    torch.cuda.set_device(last)
    print("current device after set_device:", torch.cuda.current_device())
    print("torch.load, no map_location:", torch.load(path)["weight"].device)
    print("map_location='cpu':", torch.load(path, map_location="cpu")["weight"].device)
    print(f"map_location='cuda:{last}':", torch.load(path, map_location=f"cuda:{last}")["weight"].device)
# --8<-- [end:gpu0]
