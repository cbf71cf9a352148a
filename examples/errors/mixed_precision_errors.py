"""Mixed precision errors in PyTorch: GradScaler with float16 parameters, deprecated names.

Each section triggers one error or warning as readers meet it, prints the message as a
traceback's last line shows it, then shows the fix working. On the CPU, as here, autocast
and GradScaler take the device "cpu".

Run with `python examples/errors/mixed_precision_errors.py`.
"""

import torch

# --8<-- [start:unscale_fp16]
torch.manual_seed(0)
inputs, targets = torch.randn(8, 4) / 10, torch.randn(8, 1) / 10


def scaled_step(model):
    """One training step with autocast to float16 and a GradScaler; returns the new weights."""
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")
    with torch.autocast("cpu", dtype=torch.float16):
        loss = torch.nn.functional.mse_loss(model(inputs).float(), targets)
    scaler.scale(loss).backward()
    scaler.step(optimizer)  # unscales the gradients first, then updates
    scaler.update()
    return model.weight


torch.manual_seed(0)
half_model = torch.nn.Linear(4, 1).half()  # the parameters themselves in float16
try:
    scaled_step(half_model)
except ValueError as err:
    print(f"{type(err).__name__}: {err}")
    #> ValueError: Attempting to unscale FP16 gradients.

# The fix: float32 parameters; autocast still runs the layer in float16.
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
before = model.weight.detach().clone()
after = scaled_step(model)
print(after.dtype, torch.equal(after, before))  # float32 weights, updated
#> torch.float32 False
# --8<-- [end:unscale_fp16]

# --8<-- [start:cuda_amp_deprecated]
import warnings


def future_warning(make):
    """The FutureWarning that calling `make` gives, as a traceback would print it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make()
    future = [f"{w.category.__name__}: {w.message}" for w in caught if w.category is FutureWarning]
    return future[0] if future else "no FutureWarning"


print(future_warning(torch.cuda.amp.GradScaler))  # the old spellings
"""
FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` instead.
"""
print(future_warning(torch.cuda.amp.autocast))
"""
FutureWarning: `torch.cuda.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cuda', args...)` instead.
"""
print(future_warning(lambda: torch.amp.GradScaler("cuda")))  # as the warnings say
#> no FutureWarning
print(future_warning(lambda: torch.amp.autocast("cuda")))
#> no FutureWarning
# --8<-- [end:cuda_amp_deprecated]
