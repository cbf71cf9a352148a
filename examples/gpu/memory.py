"""GPU memory on any machine: what keeps a tensor alive after del, what PyTorch's docs say
memory_allocated, nvidia-smi and empty_cache count, how to read a CUDA out-of-memory message, and
what fills the memory when TensorFlow raises ResourceExhaustedError (OOM) on large images.

Run with `python examples/gpu/memory.py`; it needs no GPU. The `#>` lines under each print are
the output the libraries printed when the site was built; the test suite runs this script again
and compares. The same measurements on a GPU are in examples/gpu/memory_cuda.py.
"""

# --8<-- [start:docs]
import inspect
import re

import torch


def note_of(function) -> str:
    """The first sentence of the note in a function's docstring, on one line, without markup."""
    note = inspect.getdoc(function).split(".. note::")[1]
    note = re.sub(r":\w+:`~?([\w.]+)`", r"\1", note)  # :func:`~torch.x` -> torch.x
    return " ".join(note.split()).split(". ")[0] + "."


print("memory_allocated:", note_of(torch.cuda.memory_allocated))
"""
memory_allocated: This is likely less than the amount shown in `nvidia-smi` since some unused memory can be held by the caching allocator and some context needs to be created on GPU.
"""
print("empty_cache:", note_of(torch.cuda.empty_cache))
"""
empty_cache: torch.cuda.empty_cache doesn't increase the amount of GPU memory available for PyTorch.
"""
# --8<-- [end:docs]

# --8<-- [start:alloc_retries]
# When the driver has no memory for a request, the caching allocator frees its cache and
# tries again by itself (torch.cuda.memory_stats' docstring); empty_cache's note goes on.
doc = " ".join(inspect.getdoc(torch.cuda.memory_stats).split())
print(re.search(r'"num_alloc_retries"``: [^.]*\.', doc)[0].replace("``", ""))
#> "num_alloc_retries": number of failed cudaMalloc calls that result in a cache flush and retry.
note = " ".join(inspect.getdoc(torch.cuda.empty_cache).split(".. note::")[1].split())
print(note.split(". ")[1] + ".")
#> However, it may help reduce fragmentation of GPU memory in certain cases.
# --8<-- [end:alloc_retries]

# --8<-- [start:references]
import weakref

from torch import nn


def freed(ref: weakref.ref) -> bool:
    """Whether the tensor the weak reference points to has been freed."""
    return ref() is None


t = torch.zeros(1000)
ref = weakref.ref(t)
del t  # the only reference: the tensor is freed at once
print("del, nothing else refers to it:", freed(ref))
#> del, nothing else refers to it: True

t = torch.zeros(1000)
history = [t]  # a list, a dict, an attribute: another reference
ref = weakref.ref(t)
del t
print("del, still in a list:", freed(ref))
#> del, still in a list: False
history.clear()
print("after history.clear():", freed(ref))
#> after history.clear(): True


def forward_that_fails():
    activation = torch.zeros(1000)  # a local variable of the frame that raises
    forward_that_fails.ref = weakref.ref(activation)
    raise RuntimeError("CUDA out of memory (raised here by hand)")


try:
    forward_that_fails()
except RuntimeError:
    inside = freed(forward_that_fails.ref)  # the traceback still holds the frame
print("inside the except block:", inside, "| after it:", freed(forward_that_fails.ref))
#> inside the except block: False | after it: True

x = torch.ones(1000, requires_grad=True)
hidden = x * 2
ref = weakref.ref(hidden)
loss = (hidden**2).sum()  # the graph saves hidden to compute the gradient of **2
del hidden
print("del, saved by the autograd graph:", freed(ref))
#> del, saved by the autograd graph: False
loss.backward()  # backward frees the graph's saved tensors
print("after loss.backward():", freed(ref))
#> after loss.backward(): True

model = nn.Linear(100, 100)
optimizer = torch.optim.Adam(model.parameters())
model(torch.ones(1, 100)).sum().backward()
optimizer.step()
ref = weakref.ref(model.weight)
del model
print("del model, optimizer still holds the weight:", not freed(ref))
#> del model, optimizer still holds the weight: True
state_bytes = sum(v.nbytes for s in optimizer.state.values() for v in s.values() if v.dim())
parameter_bytes = sum(p.nbytes for group in optimizer.param_groups for p in group["params"])
print(f"Adam's state: {state_bytes} bytes for {parameter_bytes} bytes of parameters")
#> Adam's state: 80800 bytes for 40400 bytes of parameters
del optimizer
print("after del optimizer:", freed(ref))
#> after del optimizer: True
# --8<-- [end:references]

# --8<-- [start:jupyter_oom]
import contextlib
import io
import tempfile

from IPython.core.interactiveshell import InteractiveShell  # the shell in Jupyter's kernel

profile = tempfile.TemporaryDirectory()  # its profile and history, instead of ~/.ipython
shell = InteractiveShell.instance(ipython_dir=profile.name)
shell.user_ns.update(torch=torch, weakref=weakref)


def run_cell(code: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        shell.run_cell(code)  # the traceback it prints is left out here


run_cell("""
def predict(image):
    activation = image * 2
    predict.ref = weakref.ref(activation)
    raise RuntimeError("CUDA out of memory (raised here by hand)")
predict(torch.ones(1000, requires_grad=True))
""")
cell_ref = shell.user_ns["predict"].ref
run_cell("x = 1")
print("next cell, the failed cell's tensor freed:", freed(cell_ref))
#> next cell, the failed cell's tensor freed: False
run_cell("""
import gc, sys
sys.last_value = sys.last_traceback = sys.last_exc = None  # set by IPython when a cell fails
get_ipython().InteractiveTB.tb = None  # IPython keeps the traceback here too
gc.collect()
""")
print("after clearing them:", freed(cell_ref))
#> after clearing them: True
with torch.no_grad():  # for inference: no graph, no activation saved for backward
    output = (torch.ones(1000, requires_grad=True) * 2).sum()
print("output under no_grad has a graph:", output.grad_fn is not None)
#> output under no_grad has a graph: False
# --8<-- [end:jupyter_oom]

# --8<-- [start:free_storage]
import signal
import subprocess
import sys

t = torch.zeros(1000)
alias = t.view(10, 100)  # another reference to the same memory
t.untyped_storage().resize_(0)  # frees the memory, whatever else refers to it
print("bytes left:", t.untyped_storage().nbytes(), alias.untyped_storage().nbytes())
#> bytes left: 0 0
use_after = (  # read a view after the memory is freed
    "import torch; t = torch.zeros(1000); alias = t.view(10, 100);"
    "t.untyped_storage().resize_(0); alias.sum()"
)
code = subprocess.run([sys.executable, "-c", use_after]).returncode
print("using it afterwards: Python killed by", signal.Signals(-code).name)
#> using it afterwards: Python killed by SIGSEGV
# --8<-- [end:free_storage]

# --8<-- [start:oom_message]
UNITS = {"bytes": 1 / 2**20, "KiB": 1 / 1024, "MiB": 1, "GiB": 1024}


def mib(text: str, pattern: str) -> float:
    """The size that pattern's group captures in text ("1.39 GiB"), in MiB."""
    value, unit = re.search(pattern, text).group(1).split()
    return float(value) * UNITS[unit]


def read_oom(message: str) -> str:
    """Split an out-of-memory message's figures into what holds the GPU's memory."""
    size = r"([\d.]+ (?:bytes|KiB|MiB|GiB))"
    request = mib(message, rf"Tried to allocate {size}")
    if "total capacity;" in message:  # the wording with "total capacity;"
        total = mib(message, rf"{size} total capacity")
        free = mib(message, rf"{size} free")
        allocated = mib(message, rf"{size} already allocated")
        reserved = mib(message, rf"{size} reserved in total")
    else:  # the wording with "is free"
        total = mib(message, rf"total capacity of {size}")
        free = mib(message, rf"of which {size} is free")
        allocated = mib(message, rf"{size} is allocated by PyTorch")
        reserved = allocated + mib(message, rf"{size} is reserved by PyTorch but unallocated")
    return (f"request {request:.0f} | free {free:.0f} | cached but unused {reserved - allocated:.0f}"
            f" | in tensors {allocated:.0f} | outside PyTorch's cache {total - free - reserved:.0f}"
            " (MiB)")


shared_server = ("Tried to allocate 1.02 GiB (GPU 0; 23.70 GiB total capacity; 5.20 GiB already "
                 "allocated; 573.56 MiB free; 5.23 GiB reserved in total by PyTorch)")
six_gib_gpu = ("Tried to allocate 1.39 GiB (GPU 0; 6.00 GiB total capacity; 4.04 GiB already "
               "allocated; 478.00 MiB free; 4.15 GiB reserved in total by PyTorch)")
four_gib_gpu = ("Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 4.00 GiB of which "
                "2.35 GiB is free. Of the allocated memory 825.15 MiB is allocated by PyTorch, "
                "and 24.85 MiB is reserved by PyTorch but unallocated.")
print(read_oom(shared_server))
"""
request 1044 | free 574 | cached but unused 31 | in tensors 5325 | outside PyTorch's cache 18340 (MiB)
"""
print(read_oom(six_gib_gpu))
"""
request 1423 | free 478 | cached but unused 113 | in tensors 4137 | outside PyTorch's cache 1416 (MiB)
"""
print(read_oom(four_gib_gpu))
"""
request 20 | free 2406 | cached but unused 25 | in tensors 825 | outside PyTorch's cache 840 (MiB)
"""
# --8<-- [end:oom_message]

# --8<-- [start:cap_docs]
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf


def sentence(function, start: str) -> str:
    """The sentence of a docstring that begins with `start`, on one line."""
    text = " ".join(inspect.getdoc(function).split())
    return start + text.split(start)[1].split(".")[0] + "."


print(sentence(torch.cuda.set_per_process_memory_fraction, "If trying"))
"""
If trying to allocate more than the allowed value in a process, will raise an out of memory error in allocator.
"""
print(sentence(tf.config.experimental.set_memory_growth, "If memory growth"))
"""
If memory growth is enabled for a `PhysicalDevice`, the runtime initialization will not allocate all memory on the device.
"""
# Before TensorFlow first uses a GPU: let it take memory as it needs it (no GPU here: no-op).
for gpu in tf.config.list_physical_devices("GPU"):
    tf.config.experimental.set_memory_growth(gpu, True)
# --8<-- [end:cap_docs]

# --8<-- [start:tf_oom]
import math

import keras
import numpy as np


def size(shape, dtype=tf.float32) -> str:
    """How much memory a tensor of this shape and dtype takes."""
    n = math.prod(shape) * tf.as_dtype(dtype).size
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.1f} {unit}"
        n /= 1024


print(sentence(tf.errors.ResourceExhaustedError, "If running into"))
"""
If running into `ResourceExhaustedError` due to out of memory (OOM), try to use smaller batch size or reduce dimension size of model weights.
"""

# The tensors that OOM messages name: the reader's shape[4096], and two other reports'
for shape in ([4096], [1, 5095, 3729, 3], [16, 112, 112, 147]):
    print(f"shape{shape}: {size(shape)}")
    #> shape[4096]: 16.0 KiB
    #> shape[1, 5095, 3729, 3]: 217.4 MiB
    #> shape[16, 112, 112, 147]: 112.5 MiB

# What fills the memory: each layer's output, for the whole batch. A first Conv2D layer of
# 64 filters, on a whole slide and on batches of tiles:
conv = keras.layers.Conv2D(64, 3, padding="same")
for batch, side in ((1, 100_000), (32, 512), (8, 512), (8, 256)):
    output = conv.compute_output_shape((batch, side, side, 3))
    print(f"{batch} x {side} x {side} pixels: output {output}, {size(output)}")
    #> 1 x 100000 x 100000 pixels: output (1, 100000, 100000, 64), 2.3 TiB
    #> 32 x 512 x 512 pixels: output (32, 512, 512, 64), 2.0 GiB
    #> 8 x 512 x 512 pixels: output (8, 512, 512, 64), 512.0 MiB
    #> 8 x 256 x 256 pixels: output (8, 256, 256, 64), 128.0 MiB

# Cut an image into tiles (a small stand-in for a slide: 256 x 256 into 64 x 64)
rng = np.random.default_rng(0)
image = tf.constant(rng.random((1, 256, 256, 3), dtype=np.float32))
tiles = tf.image.extract_patches(image, sizes=[1, 64, 64, 1], strides=[1, 64, 64, 1],
                                 rates=[1, 1, 1, 1], padding="VALID")
tiles = tf.reshape(tiles, [-1, 64, 64, 3])
same = bool(tf.reduce_all(tiles[1] == image[0, :64, 64:128]))
print("tiles:", tiles.shape, "| tile 1 is rows 0-63, columns 64-127:", same)
#> tiles: (16, 64, 64, 3) | tile 1 is rows 0-63, columns 64-127: True

# Mixed precision: the layer computes in float16, its output takes half the memory
conv16 = keras.layers.Conv2D(64, 3, padding="same", dtype="mixed_float16")
out32, out16 = conv(tiles[:4]), conv16(tiles[:4])
for layer, out in ((conv, out32), (conv16, out16)):
    print(f"output {out.dtype.name}: {size(out.shape, out.dtype)} | weights: {layer.kernel.dtype}")
    #> output float32: 4.0 MiB | weights: float32
    #> output float16: 2.0 MiB | weights: float32

# Several GPUs: each gets a part of the batch (here both parts run on the CPU)
parts = tf.split(tiles[:4], 2)  # on two GPUs: conv(parts[i]) under tf.device(f"/GPU:{i}")
same = np.allclose(tf.concat([conv(part) for part in parts], 0), out32, atol=1e-5)
print("parts:", [tuple(part.shape) for part in parts], "| same output as the whole batch:", same)
#> parts: [(2, 64, 64, 3), (2, 64, 64, 3)] | same output as the whole batch: True
print(sentence(tf.distribute.MirroredStrategy, "If no devices"))
"""
If no devices are specified in the constructor argument of the strategy then it will use all the available GPUs.
"""
print(sentence(tf.distribute.Strategy.experimental_distribute_dataset, "`dataset` is batched"))
"""
`dataset` is batched by `global_batch_size`, and calling `experimental_distribute_dataset` on it rebatches `dataset` to a new batch size that is equal to the global batch size divided by the number of replicas in sync.
"""
# --8<-- [end:tf_oom]
