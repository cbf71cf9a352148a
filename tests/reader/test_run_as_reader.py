"""Every example script, run the way its docstring tells a reader to run it:
`python examples/<section>/<topic>.py` from the repository root, in a fresh process, must exit
0, leave no file in the checkout and print what its `#>` lines and `\"\"\"` blocks say. It
sees what the in-process examples stage cannot (a file name that shadows a module, state that
another example left behind, a warning printed once per process). Launched and CUDA scripts
are skipped, with why. Run by `make run-examples`, a CI job of its own, not by `make test`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from verified.markers import script_markers
from verified.outputs import expected_stdout, same_output
from verified.paths import REPO_ROOT as ROOT
from verified.paths import example_scripts

SCRIPTS = example_scripts(ROOT)
#: A script that takes longer than this, in seconds, fails instead of stalling the run.
TIMEOUT = 240


def checkout_status() -> set[str]:
    """git's status lines of the checkout's changed and untracked files (empty outside git)."""
    command = ["git", "status", "--porcelain", "--untracked-files=all"]
    return set(subprocess.run(command, cwd=ROOT, capture_output=True, text=True).stdout.split("\n"))


@pytest.mark.parametrize(
    "script", SCRIPTS, ids=[path.relative_to(ROOT).as_posix() for path in SCRIPTS]
)
def test_script_runs_as_a_reader_runs_it(script: Path):
    where = script.relative_to(ROOT).as_posix()
    source = script.read_text(encoding="utf-8")
    markers = script_markers(source, where)
    if markers.launch and markers.launch.launcher != "python":  # python: as a reader does
        pytest.skip(f"{where}: launched with {markers.launch.launcher}; `make test` runs it so")
    if "cuda" in markers.requires:
        pytest.skip(f"{where}: needs CUDA; `make test-gpu` runs it on a GPU machine")
    if markers.not_run:
        pytest.skip(f"{where}: not run: {markers.not_run}")
    before = checkout_status()
    try:
        done = subprocess.run(
            [sys.executable, where],
            cwd=ROOT,
            # A reader's shell: nothing of this suite's own set-up.
            env={k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "PYTHONPATH"))},
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{where}: `python {where}` did not finish in {TIMEOUT} s", pytrace=False)
    if done.returncode != 0:
        pytest.fail(
            f"{where}: `python {where}` from the repository root exited with "
            f"{done.returncode}; what it wrote to stderr ends with:\n{done.stderr[-3000:]}",
            pytrace=False,
        )
    # Other scripts may run at the same time (xdist): a file one of them leaves may be
    # named here as well as under its own script.
    left = sorted(line[3:] for line in checkout_status() ^ before if line)
    if left:
        pytest.fail(
            f"{where}: `python {where}` left files in the checkout: {', '.join(left)}. Write "
            "into tempfile.TemporaryDirectory(): a reader runs the script from the repository "
            "root, where a relative path lands in their checkout.",
            pytrace=False,
        )
    expected, ordered = expected_stdout(source)
    if not same_output(expected, done.stdout, ordered):
        pytest.fail(
            f"{where}: `python {where}` printed other output than its `#>` lines and "
            f"blocks say.\n--- expected\n{expected}\n--- printed\n{done.stdout.rstrip()}\n"
            "Fix the script so that a fresh run prints what the page shows (the examples "
            "stage runs it in-process and may not see the difference).",
            pytrace=False,
        )
