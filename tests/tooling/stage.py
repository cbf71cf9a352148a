"""Run the real examples stage of the suite on another content tree, in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from verified.paths import REPO_ROOT


def run_examples_stage(content: Path, *args: str) -> subprocess.CompletedProcess:
    """Run the real examples stage of the suite against another content tree.

    Args:
        content (Path): a folder with `docs/` and/or `examples/`.
        *args (str): extra pytest arguments (e.g. `--update-examples`).

    Returns:
        subprocess.CompletedProcess: `stdout` holds pytest's output (stderr merged).
    """
    # No GPU even on a CUDA machine: the tests expect CPU behaviour (CUDA -> not verified).
    # A temporary directory of its own, so that the content tree itself is "outside".
    scratch = content / ".tmp"
    scratch.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "TMPDIR": str(scratch),
        "CONTENT_ROOT": str(content),
        "TF_CPP_MIN_LOG_LEVEL": "2",
        "CUDA_VISIBLE_DEVICES": "",
    }
    return subprocess.run(
        [sys.executable, "-m", "pytest", "tests/examples", "-p", "no:xdist", "-q", *args],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        check=False,
    )
