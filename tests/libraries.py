"""The libraries the examples use, imported the way the examples stage needs them."""

import os

import pytest_socket

from verified.plugin import LIBRARIES


def import_libraries() -> dict:
    """Import torch, TensorFlow, NumPy and torchvision, once per process, in an order that
    works: module name -> module, None when not installed (TensorFlow on a GPU machine; an
    example that imports it then fails with ImportError)."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # TF start-up chatter, not output
    # urllib3 (imported by TensorFlow) probes IPv6 support by creating an unconnected
    # socket at import; it sends nothing. Examples themselves still run with sockets off.
    pytest_socket.enable_socket()
    modules = {}
    try:
        # torch's compiler stack (torch._dynamo, which loads triton) must be loaded before
        # TensorFlow: loaded after it, it crashes the process (a segmentation fault with torch
        # 2.14.1, an LLVM abort with 2.15.0, TF 2.21), and torch.optim loads it on first use.
        # Readers meet it too: docs/en/tensorflow/torch-and-tensorflow.md#import-order.
        try:
            __import__("torch._dynamo")
        except ImportError:
            pass
        for name in LIBRARIES:
            try:
                modules[name] = __import__(name)
            except ImportError:
                modules[name] = None
    finally:
        pytest_socket.disable_socket(allow_unix_socket=True)
    return modules
