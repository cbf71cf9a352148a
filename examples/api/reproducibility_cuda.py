"""Random state on the GPU and deterministic cuBLAS. Needs a CUDA device.

Run with `python examples/api/reproducibility_cuda.py` on a machine with a GPU, without
the environment variable CUBLAS_WORKSPACE_CONFIG set.
"""
# requires: cuda

# --8<-- [start:gpu_state]
import torch

states = torch.cuda.get_rng_state_all()  # one state per GPU, separate from the CPU's
print(len(states) == torch.cuda.device_count(), states[0].dtype)
draw = torch.rand(2, device="cuda")
torch.cuda.set_rng_state_all(states)  # rewind every GPU's generator
print(torch.equal(draw, torch.rand(2, device="cuda")))
# --8<-- [end:gpu_state]

# --8<-- [start:cublas]
import os

print(os.environ.get("CUBLAS_WORKSPACE_CONFIG"))  # not set
matrix = torch.ones(64, 64, device="cuda")
torch.use_deterministic_algorithms(True)
try:
    matrix @ matrix  # a matrix product runs in cuBLAS
    outcome = "no error"
except RuntimeError as err:
    message = str(err)
    outcome = type(err).__name__ + ": " + message[message.find("you must") :].split(". For")[0]
finally:
    torch.use_deterministic_algorithms(False)  # back to the default
print(outcome)
# --8<-- [end:cublas]
