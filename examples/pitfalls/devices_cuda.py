"""Devices and GPU numerics on a GPU: the CUDA side of examples/pitfalls/devices_pitfalls.py.

Needs a CUDA device. Run with `python examples/pitfalls/devices_cuda.py` on a machine with
a GPU. Each section runs the code of the matching section of the CPU script on the GPU and
prints what the GPU gives next to what the CPU gives.
"""
# requires: cuda

# --8<-- [start:matmul_tf32]
import torch

a = torch.tensor([[0.83899, 0.54414, 3.3142e5], [-0.54414, 0.83899, 4.6909e6], [0.0, 0.0, 1.0]])
b = torch.tensor([[0.83899, -0.54414, 2.2745e6], [0.54414, 0.83899, -4.1160e6], [0.0, 0.0, 1.0]])
print(torch.cuda.get_device_name(), torch.cuda.get_device_capability())  # 8.0 and up: Ampere

torch.set_float32_matmul_precision("highest")  # the default: full float32
print(round((a.cuda() @ b.cuda())[0, 2].item(), 1))
torch.set_float32_matmul_precision("high")  # allows TF32 for float32 matrix products
print((a.cuda() @ b.cuda()).cpu())
torch.set_float32_matmul_precision("highest")
print(round((a.cuda() @ b.cuda())[0, 2].item(), 1))
# --8<-- [end:matmul_tf32]

# --8<-- [start:conv_tf32]
import torch
import torch.nn.functional as F

# The reporter's conv3d: its weights copy each of the 1152 channels.
weight = torch.zeros(1152, 1152, 2, 1, 1)
weight[range(1152), range(1152), 0] = 1
x = torch.randn(2, 1152, 48, 16, 16, generator=torch.Generator().manual_seed(0))
on_cpu = F.conv3d(x, weight, stride=(2, 1, 1))
print((on_cpu[0, :, 0, 0, 0] - x[0, :, 0, 0, 0]).abs().max().item())

torch.backends.cudnn.allow_tf32 = True  # the default
on_gpu = F.conv3d(x.cuda(), weight.cuda(), stride=(2, 1, 1)).cpu()
print(f"{(on_gpu[0, :, 0, 0, 0] - x[0, :, 0, 0, 0]).abs().max().item():.1e}")
torch.backends.cudnn.allow_tf32 = False
on_gpu = F.conv3d(x.cuda(), weight.cuda(), stride=(2, 1, 1)).cpu()
print(f"{(on_gpu[0, :, 0, 0, 0] - x[0, :, 0, 0, 0]).abs().max().item():.1e}")
torch.backends.cudnn.allow_tf32 = True
# --8<-- [end:conv_tf32]

# --8<-- [start:argmax_first]
import torch

t = torch.tensor([[0, 1, 1, 1], [1, 1, 0, 1], [0, 0, 0, 0]])
print(t.argmax(dim=1), t.cuda().argmax(dim=1).cpu())
ties = torch.ones(4, 100_000)  # long rows of equal maxima
print(ties.argmax(dim=1), ties.cuda().argmax(dim=1).cpu())

columns = torch.arange(t.shape[1], device="cuda").expand_as(t)
print(torch.where(t.cuda() == 1, columns, t.shape[1]).amin(dim=1).cpu())
# --8<-- [end:argmax_first]

# --8<-- [start:round_half]
import torch

x = torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5])
print(torch.round(x), torch.round(x.cuda()).cpu())
# --8<-- [end:round_half]

# --8<-- [start:randn_on_cpu]
import torch

print(torch.cuda.get_device_name(), torch.cuda.get_device_properties(0).multi_processor_count)
generator = torch.Generator(device="cuda").manual_seed(42)
on_gpu = torch.randn(1, 64, 2048, device="cuda", generator=generator)
print(on_gpu[0, 0, :3].cpu(), on_gpu[0, -1, -3:].cpu())  # compare with another GPU model

noise = torch.randn(1, 64, 2048, generator=torch.Generator().manual_seed(42)).to("cuda")
print(noise[0, 0, :3].cpu())  # the CPU section's numbers, now on the GPU
# --8<-- [end:randn_on_cpu]

# --8<-- [start:cuda_device_context]
import torch

with torch.cuda.device(0):  # selects GPU 0 for calls that ask for "a GPU"
    print(torch.zeros(2).device, torch.zeros(2).cuda().device, torch.zeros(2, device="cuda").device)
with torch.device("cuda:0"):  # sets the device of new tensors
    print(torch.zeros(2).device)
print(torch.zeros(2).device)  # outside both: the CPU again
# --8<-- [end:cuda_device_context]
