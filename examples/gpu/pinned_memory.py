"""Pinned (page-locked) host memory: what runs on any machine.

Run with `python examples/gpu/pinned_memory.py`. The `#>` lines under each print are
the output the libraries printed when the site was built; the test suite runs this
script again and compares. The CUDA part is in pinned_memory_cuda.py.
"""

# --8<-- [start:pageable]
import inspect

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

x = torch.zeros(1024, 1024)  # ordinary allocations are pageable memory
print(x.is_pinned(), torch.from_numpy(np.zeros(3)).is_pinned())
#> False False

dataset = TensorDataset(torch.arange(8.0).view(4, 2), torch.arange(4))
print("DataLoader's default pin_memory:", inspect.signature(DataLoader).parameters["pin_memory"].default)
#> DataLoader's default pin_memory: False
loader = DataLoader(dataset, batch_size=2)  # pin_memory left at its default
features, labels = next(iter(loader))
print(features.is_pinned(), features.device)
#> False cpu
# --8<-- [end:pageable]

# --8<-- [start:loader_threads]
import re

from torch.utils.data import dataloader

# Who pins each batch: DataLoader's source code, as installed.
workers = inspect.getsource(dataloader._MultiProcessingDataLoaderIter.__init__)
no_workers = inspect.getsource(dataloader._SingleProcessDataLoaderIter._next_data)
pin_thread = re.search(
    r"threading\.Thread\(\s*target=_utils\.pin_memory\._pin_memory_loop", workers
)
print("num_workers > 0: a thread of the main process pins:", pin_thread is not None)
#> num_workers > 0: a thread of the main process pins: True
print("num_workers = 0: the main thread pins each batch:", "pin_memory.pin_memory(" in no_workers)
#> num_workers = 0: the main thread pins each batch: True
# --8<-- [end:loader_threads]

# --8<-- [start:pin_queue]
# The pinning thread takes each batch from the workers' queue, so next() takes it pinned, ready.
queues = re.search(r"_pin_memory_loop,\s*args=\(\s*self\.(\w+),\s*self\.(\w+)", workers)
print("pinning thread reads", queues[1], "and fills", queues[2])
#> pinning thread reads _worker_result_queue and fills _data_queue
# --8<-- [end:pin_queue]

# --8<-- [start:prepinned]
from torch.utils.data import TensorDataset

data = torch.arange(12.0).reshape(6, 2)  # the whole dataset in one tensor (pinned, in the report)
sample = TensorDataset(data)[0][0]
print(sample.untyped_storage().data_ptr() == data.untyped_storage().data_ptr())  # a view of it
#> True
(batch,) = next(iter(DataLoader(TensorDataset(data), batch_size=3)))  # collate stacks the samples
print(batch.untyped_storage().data_ptr() == data.untyped_storage().data_ptr(), batch.is_pinned())
#> False False
# --8<-- [end:prepinned]

# --8<-- [start:no_gpu]
import warnings

print("CUDA available:", torch.cuda.is_available())
#> CUDA available: False
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    features, labels = next(iter(DataLoader(dataset, batch_size=2, pin_memory=True)))
print(features.is_pinned(), [str(warning.message) for warning in caught])
"""
False ["'pin_memory' argument is set as true but no accelerator is found, then device pinned memory won't be used."]
"""
# --8<-- [end:no_gpu]

# --8<-- [start:custom_batch]
import torch
from torch.utils.data._utils.pin_memory import pin_memory as pin_batch  # what the loader calls


class PlainBatch:
    """A batch type returned by a custom collate_fn, with no pin_memory method."""

    def __init__(self, inputs, targets):
        self.inputs, self.targets = inputs, targets


class PinnableBatch(PlainBatch):
    """The same batch type with the method the DataLoader looks for."""

    def pin_memory(self):
        self.pin_memory_called = True
        if torch.cuda.is_available():  # pinning needs a GPU
            self.inputs, self.targets = self.inputs.pin_memory(), self.targets.pin_memory()
        return self


plain = PlainBatch(torch.zeros(2, 3), torch.zeros(2))
print("custom type without pin_memory: returned as it is:", pin_batch(plain) is plain)
#> custom type without pin_memory: returned as it is: True
pinned = pin_batch({"batch": PinnableBatch(torch.zeros(2, 3), torch.zeros(2))})
print(type(pinned).__name__, type(pinned["batch"]).__name__)  # dicts, lists, tuples: walked
#> dict PinnableBatch
print("its pin_memory() was called:", pinned["batch"].pin_memory_called)
#> its pin_memory() was called: True
# --8<-- [end:custom_batch]

# --8<-- [start:num_workers]
import os

from torch.utils.data import Dataset, get_worker_info


class WhoLoads(Dataset):
    """Each sample is the id of the worker process that loaded it (-1: the main process)."""

    def __len__(self):
        return 8

    def __getitem__(self, index):
        info = get_worker_info()
        return -1 if info is None else info.id


in_main = DataLoader(WhoLoads(), batch_size=2, num_workers=0)
print("num_workers=0:", [batch.tolist() for batch in in_main])
#> num_workers=0: [[-1, -1], [-1, -1], [-1, -1], [-1, -1]]
in_workers = DataLoader(WhoLoads(), batch_size=2, num_workers=2)
print("num_workers=2:", [batch.tolist() for batch in in_workers])
#> num_workers=2: [[0, 0], [1, 1], [0, 0], [1, 1]]
print("batches each worker loads ahead:", in_main.prefetch_factor, in_workers.prefetch_factor)
#> batches each worker loads ahead: None 2

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    DataLoader(WhoLoads(), num_workers=4096)  # more workers than CPU cores
# The CPUs this process may use (os.cpu_count() where sched_getaffinity does not exist)
cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
print(str(caught[0].message).split(". ")[1].split(",")[0].replace(str(cpus), "<CPUs>"))
#> Our suggested max number of worker in current system is <CPUs>
# --8<-- [end:num_workers]

# --8<-- [start:worker_copies]
class Cached(Dataset):
    """Keeps every sample it has loaded, as a cache in a Dataset would; collate runs too."""

    def __init__(self):
        self.cache = {}

    def __len__(self):
        return 8

    def __getitem__(self, index):
        self.cache[index] = torch.zeros(1000)
        return len(self.cache)


def collate_where(batch):
    return (get_worker_info() is not None, batch)


cached = Cached()
loader = DataLoader(cached, batch_size=2, num_workers=2, collate_fn=collate_where)
print("(collate_fn in a worker, cache sizes):", list(loader), "| main:", len(cached.cache))
"""
(collate_fn in a worker, cache sizes): [(True, [1, 2]), (True, [1, 2]), (True, [3, 4]), (True, [3, 4])] | main: 0
"""
# --8<-- [end:worker_copies]

# --8<-- [start:worker_memory_growth]
import psutil

VALUES = 2_000_000  # 2 million float values: 16 MB as one float64 array


def worker_uss_mb():
    """Memory private to this process (USS): pages it no longer shares with the main process."""
    return psutil.Process().memory_full_info().uss / 2**20


class Slices(Dataset):
    """Each sample reads a slice of 500,000 values of the data it holds."""

    def __init__(self, values):
        self.values = values

    def __len__(self):
        return len(self.values) // 500_000

    def __getitem__(self, index):
        np.asarray(self.values[index * 500_000 : (index + 1) * 500_000])  # reads each value
        return worker_uss_mb() - get_worker_info().dataset.uss_at_start  # growth so far


def record_start(worker_id):
    get_worker_info().dataset.uss_at_start = worker_uss_mb()


def worker_growth_mb(values):
    """Largest growth of the worker's private memory while it reads every value once."""
    loader = DataLoader(Slices(values), batch_size=None, num_workers=1, worker_init_fn=record_start)
    return max(loader)


as_list = [float(i) for i in range(VALUES)]  # 2 million Python float objects
print("Python list: worker grows by more than 25 MB:", worker_growth_mb(as_list) > 25)
#> Python list: worker grows by more than 25 MB: True
as_array = np.arange(VALUES, dtype=np.float64)  # the same values in one NumPy array
print("NumPy array: worker stays within 5 MB:", worker_growth_mb(as_array) < 5)
#> NumPy array: worker stays within 5 MB: True
print("tensor: worker stays within 5 MB:", worker_growth_mb(torch.from_numpy(as_array)) < 5)
#> tensor: worker stays within 5 MB: True
del as_list, as_array
# --8<-- [end:worker_memory_growth]

# --8<-- [start:memmap]
import os
import tempfile

with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "images.npy")
    np.save(path, np.arange(24, dtype=np.float32).reshape(6, 4))  # decoded once, ahead
    images = np.load(path, mmap_mode="c")  # a memmap: no decoding; a slice reads its rows from disk
    batch = next(iter(DataLoader(images, batch_size=2, num_workers=1)))
    print(type(images).__name__, batch.tolist())
    #> memmap [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]
    del images, batch
# --8<-- [end:memmap]

# --8<-- [start:worker_shm]
data = TensorDataset(torch.zeros(4, 3))
print("main process:", next(iter(DataLoader(data, batch_size=2)))[0].is_shared())
#> main process: False
print("from a worker:", next(iter(DataLoader(data, batch_size=2, num_workers=1)))[0].is_shared())
#> from a worker: True

import re
import signal
import time


def bus_error(worker_id: int) -> None:
    """Stand-in for a write to a full /dev/shm: the kernel answers it with SIGBUS."""
    signal.raise_signal(signal.SIGBUS)


try:
    batches = iter(DataLoader(data, batch_size=2, num_workers=1, worker_init_fn=bus_error))
    for _ in range(200):  # the SIGCHLD handler raises here as soon as the worker dies
        time.sleep(0.05)
    else:
        print("no error within 10 s")
except RuntimeError as err:
    print(type(err).__name__, re.sub(r"pid \d+", "pid ...", str(err)))
    """
    RuntimeError DataLoader worker (pid ...) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.
    """
print(torch.multiprocessing.get_sharing_strategy())  # Linux's default; 'file_system' is the other
#> file_descriptor
# --8<-- [end:worker_shm]
