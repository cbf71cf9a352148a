"""Random numbers and seeds on the GPU: the same seed, the CPU's numbers and the GPU's. Needs a
CUDA device.

Run with `python examples/pitfalls/random_cuda.py` on a machine with a GPU.
"""
# requires: cuda

# --8<-- [start:cpu_gpu_cuda]
import torch

torch.manual_seed(0)
low, high = torch.tensor(0.0), torch.tensor(1.0)
on_cpu = torch.distributions.Uniform(low, high).rsample((5,))
torch.manual_seed(0)  # the same seed: it seeds the GPU's generator too
low_gpu, high_gpu = low.cuda(), high.cuda()
on_gpu = torch.distributions.Uniform(low_gpu, high_gpu).rsample((5,))
print(torch.equal(on_cpu, on_gpu.cpu()))  # drawn by two different generators


def uniform_sample(low: torch.Tensor, high: torch.Tensor, n: int, seed: int) -> torch.Tensor:
    """Uniform samples on low's device, from uniform numbers always drawn on the CPU."""
    u = torch.rand(n, generator=torch.Generator().manual_seed(seed))  # the CPU's generator
    return low + (high - low) * u.to(low.device)


cpu_sample = uniform_sample(low, high, 5, seed=0)
gpu_sample = uniform_sample(low_gpu, high_gpu, 5, seed=0)
print(gpu_sample.device, torch.equal(cpu_sample, gpu_sample.cpu()))  # the same numbers on the GPU
# --8<-- [end:cpu_gpu_cuda]
