"""mpi4py and torch.distributed in the same job: both all-reduce, MPI starts torch.

Run with `mpiexec -n 2 python examples/distributed/mpi4py_and_torch.py`. Every
process runs this whole file; only rank 0 prints. The `#>` lines under each print
are what rank 0 printed when the site was built; the test suite starts the 2
processes again with mpiexec and compares.
"""
# launch: mpiexec 2

# --8<-- [start:mpi]
import mpi4py
import numpy as np
from mpi4py import MPI  # importing mpi4py.MPI initialises MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
if rank == 0:
    print(" ".join(MPI.Get_library_version().split()[:3]), "| mpi4py", mpi4py.__version__)
    #> MPICH Version: 5.0.2 | mpi4py 4.1.2
    print("initialised:", MPI.Is_initialized(), "| thread level asked for:", mpi4py.rc.thread_level)
    #> initialised: True | thread level asked for: multiple
total = comm.allreduce(rank + 1, op=MPI.SUM)  # Python objects: pickled
vector = np.full(3, float(rank + 1))
summed = np.empty_like(vector)
comm.Allreduce(vector, summed, op=MPI.SUM)  # buffers: NumPy arrays, no pickling
if rank == 0:
    print(f"MPI: {size} processes, allreduce -> {total}, Allreduce -> {summed}")
    #> MPI: 2 processes, allreduce -> 3, Allreduce -> [3. 3. 3.]
# --8<-- [end:mpi]

# --8<-- [start:bootstrap]
import os
import socket

import torch
import torch.distributed as dist

if rank == 0:  # mpiexec sets variables of its own (MPICH: PMI_RANK, PMI_SIZE), not torch's
    print("PMI_RANK set:", "PMI_RANK" in os.environ, "| RANK set:", "RANK" in os.environ)
    #> PMI_RANK set: True | RANK set: False
try:
    dist.init_process_group(backend="gloo")  # by default: RANK, WORLD_SIZE, ... from env://
except ValueError as err:
    if rank == 0:
        print(type(err).__name__, err)
        """
        ValueError Error initializing torch.distributed using env:// rendezvous: environment variable RANK expected, but not set
        """

if rank == 0:
    with socket.socket() as probe:  # a free port on this machine, chosen by the OS
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
else:
    port = None
port = comm.bcast(port, root=0)  # MPI tells every process where rank 0 listens
dist.init_process_group(
    backend="gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=size
)
if rank == 0:
    print(dist.get_backend(), dist.get_rank() == comm.Get_rank(), dist.get_world_size())
    #> gloo True 2
# --8<-- [end:bootstrap]

# --8<-- [start:local_rank]
local = comm.Split_type(MPI.COMM_TYPE_SHARED)  # the processes on this machine
local_ranks = comm.gather(local.Get_rank(), root=0)
if rank == 0:
    print("rank on this machine, per process:", local_ranks)
    #> rank on this machine, per process: [0, 1]
# --8<-- [end:local_rank]

# --8<-- [start:both]
tensor = torch.full((3,), float(rank + 1))
dist.all_reduce(tensor, op=dist.ReduceOp.SUM)  # the same reduction through torch (gloo)
same = bool(np.array_equal(tensor.numpy(), summed))
if rank == 0:
    print(f"torch.distributed: {tensor}, equal to the MPI result: {same}")
    #> torch.distributed: tensor([3., 3., 3.]), equal to the MPI result: True
    print("torch's own MPI backend in this build:", dist.is_mpi_available())
    #> torch's own MPI backend in this build: False

dist.destroy_process_group()  # torch first; mpi4py finalises MPI when Python exits
# --8<-- [end:both]
