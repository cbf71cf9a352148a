"""TensorFlow and PyTorch's compiler stack in one process: the import order that crashes it,
and the order that works. Each program runs in a child process of its own, so that the crash
ends that process only.

Run with `python examples/tensorflow/import_order.py`.
"""

# --8<-- [start:crash]
import os
import subprocess
import sys

MAKE_OPTIMIZER = """
import sys
import torch
weights = torch.nn.Parameter(torch.ones(2))
torch.optim.SGD([weights], lr=0.1)  # loads torch's compiler stack, and with it Triton
print("optimizer created; Triton loaded:", "triton" in sys.modules)
"""


def run(program: str) -> str:
    """Run `program` in a new Python process: its exit status, then the last line of its
    output, or the last two of its error output when it failed."""
    quiet = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"}  # TensorFlow's start-up messages
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=quiet)
    lines = (done.stderr if done.returncode else done.stdout).strip().splitlines()
    return "\n".join([f"exit status {done.returncode}:", *lines[-2 if done.returncode else -1 :]])


print(run("import tensorflow" + MAKE_OPTIMIZER))  # TensorFlow first
"""
exit status -6:
: CommandLine Error: Option 'bitcode-mdindex-threshold' registered more than once!
LLVM ERROR: inconsistency in registered CommandLine options
"""
print(run("import tensorflow\nimport triton"))  # Triton alone, after TensorFlow
"""
exit status -6:
: CommandLine Error: Option 'bitcode-mdindex-threshold' registered more than once!
LLVM ERROR: inconsistency in registered CommandLine options
"""
# --8<-- [end:crash]

# --8<-- [start:fix]
print(run("import torch._dynamo\nimport tensorflow" + MAKE_OPTIMIZER))  # torch's compiler first
"""
exit status 0:
optimizer created; Triton loaded: True
"""
# --8<-- [end:fix]
