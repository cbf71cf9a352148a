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

# --8<-- [start:cublas_warn_only]
import os
import warnings


def cublas_part(message: str) -> str:
    """The part of the message that names cuBLAS, without the long explanation around it."""
    return message[message.find("because") :].split(". To")[0]


layer = torch.nn.Linear(4, 2).to("cuda")
x = torch.ones(3, 4, device="cuda")
torch.use_deterministic_algorithms(True, warn_only=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        layer(x)  # nn.Linear runs a cuBLAS matrix product
        print("no error")
    except RuntimeError as err:
        print(f"{type(err).__name__}: {cublas_part(str(err))}")
print([f"{w.category.__name__}: {cublas_part(str(w.message))}" for w in caught])

# Set inside the running program, the fix comes too late: PyTorch read the variable at the
# process's first cuBLAS check, and the same call still warns.
os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    layer(x)
print("set late:", [w.category.__name__ for w in caught])
torch.use_deterministic_algorithms(False)  # back to the defaults
del os.environ["CUBLAS_WORKSPACE_CONFIG"]
# --8<-- [end:cublas_warn_only]
