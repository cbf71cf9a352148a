"""The device mismatch of the error atlas on a GPU: a model on CUDA, a batch on the CPU, and the
fix. Needs a CUDA device.

Run with `python examples/errors/device_errors_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:model_on_cuda]
import torch

torch.manual_seed(0)
model = torch.nn.Linear(2, 3).to("cuda")
batch = torch.ones(4, 2)  # on the CPU
try:
    model(batch)
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")

# The fix: put the inputs where the parameters are.
device = next(model.parameters()).device
out = model(batch.to(device))
print(device, out.shape, out.device)
# --8<-- [end:model_on_cuda]
