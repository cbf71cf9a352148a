"""`make test-gpu`: run the examples that need CUDA on a GPU machine, with the Python found there.

A GPU machine often cannot build the project's environment (another Python, another
torch, no package registry). This module therefore needs only the standard library
and the torch of the interpreter that runs it. Each CUDA example runs in a process
of its own under `verified.capture`; what it printed, the versions and the device
go into one JSON file, the GPU run:

    {"schema": 1, "created": "2026-11-30T12:00:00+00:00",
     "environment": {"python": "3.12.3", "torch": "2.11.0+cu130", "numpy": "2.3.1",
                     "torchvision": null, "cuda": "13.0", "device": "cuda (NVIDIA H200)"},
     "examples": [{"source": "examples/x/y.py", "fingerprint": "<sha256>",
                   "seconds": 1.9, "statements": [...], "error": null}, ...]}

Back on a machine with the project's environment, copy it to `verification/gpu-run.json`
and commit it. The suite then checks every CUDA example's `#>` output against it
(`make update-examples` writes them), counts the example as verified on that GPU,
and reports an example whose code changed since the run as not verified.

Command line::

    python -m verified.gpu_run [--root DIR] [--out FILE] [--allow-no-cuda]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from verified.capture import code_fingerprint, print_call_lines
from verified.markers import MarkerError, script_markers
from verified.paths import REPO_ROOT, read_checked_json

SCHEMA = 1
#: Seconds one example may run.
TIMEOUT = 600


class GpuRunError(ValueError):
    """A GPU run file cannot be used; the message names the file and what to do."""


def load_gpu_run(path: Path) -> dict | None:
    """Read a GPU run file.

    Args:
        path (Path): the file (usually `verification/gpu-run.json`).

    Returns:
        dict | None: the run, with `examples` keyed by source path in `by_source`; None
        when the file does not exist.

    Raises:
        GpuRunError: the file is not a GPU run of this schema.
    """
    if not path.is_file():
        return None
    run = read_checked_json(
        path,
        f"a GPU run of schema {SCHEMA}",
        "write it again with `make test-gpu` on a GPU machine",
        _gpu_run_problem,
        GpuRunError,
    )
    run["by_source"] = {example["source"]: example for example in run["examples"]}
    return run


def _gpu_run_problem(run: object) -> str | None:
    """What is missing or malformed in a GPU run, naming the field, or None."""
    if not isinstance(run, dict) or run.get("schema") != SCHEMA:
        return f"`schema` is not {SCHEMA}"
    if not isinstance(run.get("created"), str):
        return "`created` is missing"
    if not isinstance(run.get("environment"), dict) or "device" not in run["environment"]:
        return "`environment.device` is missing"
    if not isinstance(run.get("examples"), list):
        return "`examples` is not a list"
    for index, entry in enumerate(run["examples"]):
        at = f"examples[{index}]"
        if not isinstance(entry, dict):
            return f"{at} is not an object"
        for key, kind in (("source", str), ("fingerprint", str), ("statements", list)):
            if not isinstance(entry.get(key), kind):
                return f"{at}.{key} is missing or not a {kind.__name__}"
        for number, statement in enumerate(entry["statements"]):
            ok = (
                isinstance(statement, dict)
                and isinstance(statement.get("line"), int)
                and isinstance(statement.get("sep"), str)
                and isinstance(statement.get("args"), list)
            )
            if not ok:
                return f"{at}.statements[{number}] needs `line`, `sep` and `args`"
        error = entry.get("error")
        if error is not None and not (
            isinstance(error, dict) and {"message", "line", "traceback"} <= error.keys()
        ):
            return f"{at}.error needs `message`, `line` and `traceback`"
    return None


def cuda_examples(root: Path) -> list[Path]:
    """Return the scripts under `root/examples` marked `# requires: cuda` (and not `not-run`).

    Args:
        root (Path): content root.

    Returns:
        list[Path]: sorted script paths.

    Raises:
        MarkerError: a script's markers are malformed (the message names file and line).
    """
    found = []
    for path in sorted((root / "examples").rglob("*.py")):
        markers = script_markers(
            path.read_text(encoding="utf-8"), path.relative_to(root).as_posix()
        )
        if "cuda" in markers.requires and markers.not_run is None:
            found.append(path)
    return found


def environment() -> dict:
    """Describe this interpreter's libraries and device.

    Returns:
        dict: Python, torch, NumPy and torchvision versions (None where not installed),
        torch's CUDA version and `device` (`"cuda (<name>)"`, or `"cpu"`).

    Raises:
        ImportError: torch is not installed in this interpreter.
    """
    import torch

    found = {"python": platform.python_version(), "torch": str(torch.__version__)}
    for name in ("numpy", "torchvision"):
        try:
            found[name] = str(__import__(name).__version__)
        except ImportError:
            found[name] = None
    found["cuda"] = torch.version.cuda
    available = torch.cuda.is_available()
    found["device"] = f"cuda ({torch.cuda.get_device_name(0)})" if available else "cpu"
    return found


def run_one(script: Path, root: Path) -> dict:
    """Run one script under `verified.capture` in a fresh process and temporary folder.

    Args:
        script (Path): the example.
        root (Path): content root (for its repository path, and protected from writes).

    Returns:
        dict: the capture record plus `fingerprint` and `seconds`; `error` says why when
        the script raised, died or timed out.
    """
    source = script.relative_to(root).as_posix()
    text = script.read_text(encoding="utf-8")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as workdir:
        command = [
            sys.executable,
            "-m",
            "verified.capture",
            str(script),
            "--out-dir",
            workdir,
            "--source",
            source,
            "--protect",
            str(root),
        ]
        try:
            done = subprocess.run(
                command,
                cwd=workdir,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                env=dict(os.environ),
                check=False,
            )
            out = Path(workdir) / "rank-0.json"
            if out.is_file():
                record = json.loads(out.read_text(encoding="utf-8"))
            else:
                record = _died(source, f"exited with status {done.returncode}", done.stderr)
        except subprocess.TimeoutExpired:
            record = _died(source, f"did not finish in {TIMEOUT} s", "")
    record["fingerprint"] = code_fingerprint(text)
    # Position of each print among the script's print calls: the suite maps it to the
    # line where that print is once `#>` output has been written under the earlier ones.
    prints = print_call_lines(text)
    for statement in record["statements"]:
        statement["print"] = (
            prints.index(statement["line"]) if statement["line"] in prints else None
        )
    record["seconds"] = round(time.perf_counter() - started, 3)
    return record


def _died(source: str, what: str, stderr: str) -> dict:
    message = f"the process {what}"
    return {
        "source": source,
        "rank": 0,
        "statements": [],
        "error": {
            "type": "ProcessError",
            "message": message,
            "line": None,
            "traceback": stderr[-4000:],
        },
    }


def main(argv: list[str] | None = None) -> int:
    """Run every CUDA example and write the GPU run file.

    Args:
        argv (list[str] | None): arguments; None means `sys.argv[1:]`.

    Returns:
        int: 0 when every example ran to its end on a CUDA device; 1 otherwise.
    """
    parser = argparse.ArgumentParser(
        prog="python -m verified.gpu_run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--root", type=Path, default=REPO_ROOT, help="content root")
    parser.add_argument(
        "--out",
        type=Path,
        default=REPO_ROOT / "build" / "gpu-run.json",
        help="where to write the GPU run (default: build/gpu-run.json)",
    )
    parser.add_argument(
        "--allow-no-cuda",
        action="store_true",
        help="run even without a CUDA device (to test this tool; the suite "
        "never counts such a run as verification)",
    )
    options = parser.parse_args(argv)
    try:
        env = environment()
    except ImportError as exc:
        print(
            f"torch cannot be imported by {sys.executable}: {exc}. Point GPU_PYTHON at an "
            "interpreter that has torch with CUDA.",
            file=sys.stderr,
        )
        return 1
    if env["device"] == "cpu" and not options.allow_no_cuda:
        print(
            f"{sys.executable} (torch {env['torch']}) sees no CUDA device: nothing to verify.",
            file=sys.stderr,
        )
        return 1
    try:
        scripts = cuda_examples(options.root.resolve())
    except MarkerError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(
        f"GPU run: {len(scripts)} examples, Python {env['python']}, torch {env['torch']}, "
        f"{env['device']}"
    )
    records = []
    for script in scripts:
        record = run_one(script, options.root.resolve())
        records.append(record)
        error = record["error"]
        where = (
            f"{record['source']}:{error['line']}" if error and error["line"] else record["source"]
        )
        print(
            f"  {'FAILED' if error else 'ran   '} {where} ({record['seconds']:.1f} s)"
            + (f": {error['message']}" if error else "")
        )
    run = {
        "schema": SCHEMA,
        # timezone.utc, not datetime.UTC: a GPU machine may have Python 3.10.
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),  # noqa: UP017
        "environment": env,
        "examples": records,
    }
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    failed = sum(1 for record in records if record["error"])
    print(
        f"wrote {options.out}: {len(records) - failed} ran, {failed} failed. Copy it to "
        "verification/gpu-run.json in the repository, then run `make update-examples` and "
        "`make test` there."
    )
    return 1 if failed or env["device"] == "cpu" else 0


if __name__ == "__main__":
    sys.exit(main())
