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

# --8<-- [start:visible_devices]
import subprocess
import sys


def run_python(code: str, **env: str) -> str:
    """Run code in a fresh Python process and return what it printed."""
    run = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True
    )
    return run.stdout.strip()


count = "import torch; print(torch.cuda.device_count())"
print("no variable:", run_python(count))
# an empty CUDA_VISIBLE_DEVICES hides every GPU, so the counts differ even on a one-GPU machine
print("CUDA_VISIBLE_DEVICES='' on the command line:", run_python(count, CUDA_VISIBLE_DEVICES=""))  # 0
hide = "import os; os.environ['CUDA_VISIBLE_DEVICES'] = ''; "  # no GPU visible
print("set before the first CUDA call:", run_python(hide + count))  # 0
first = "import torch; torch.zeros(1, device='cuda'); "
device_after = "print(torch.cuda.device_count(), torch.zeros(1, device='cuda').device)"
print("set after it:", run_python(first + hide + device_after))  # 1 cuda:0: the GPU is still used

visible = torch.cuda.device_count()
try:
    torch.zeros(1, device=f"cuda:{visible}")  # one past the last visible GPU
except RuntimeError as err:
    print(str(err).splitlines()[0])
print(torch.zeros(1, device=f"cuda:{visible - 1}").device)  # indices 0 to visible - 1
# --8<-- [end:visible_devices]
