"""torch.manual_seed and the CUDA generators. Needs a CUDA device.

Run with `python examples/api/random_seeds_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:cuda]
import torch

torch.manual_seed(0)  # seeds the CPU generator and the generator of every GPU
on_gpu = torch.rand(3, device="cuda")
torch.manual_seed(0)
print(torch.equal(on_gpu, torch.rand(3, device="cuda")))
#> True

torch.manual_seed(0)
on_cpu = torch.rand(3)
print(on_cpu, on_gpu.cpu())  # one seed, two generators, two different sequences
#> tensor([0.4963, 0.7682, 0.0885]) tensor([0.3990, 0.5167, 0.0249])

torch.manual_seed(0)
torch.rand(1)  # advances the CPU generator only
print(torch.equal(on_gpu, torch.rand(3, device="cuda")))
#> True

torch.cuda.manual_seed(0)  # the current GPU only; the CPU generator is left alone
print(torch.equal(on_gpu, torch.rand(3, device="cuda")))
#> True
# --8<-- [end:cuda]
