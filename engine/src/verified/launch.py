"""Start a multi-process example as real processes, with torchrun or mpiexec.

Each process runs the script under `verified.capture`, which writes what that
process printed to `rank-<n>.json`. The suite then checks rank 0's prints like any
example's (`verified.runner`) and fails if another rank printed, raised or died.

Processes never collide with those of another test worker: torchrun runs with
`--standalone` (its rendezvous takes a free port), examples that open their own
port bind port 0, and every process is limited to one thread so that two workers
running two ranks each do not oversubscribe the cores.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from verified.markers import Launch

#: Seconds a launched example may take, start-up of every process included
#: (`EXAMPLES_LAUNCH_TIMEOUT`, read at each launch, overrides it: the engine's tests make a
#: run hang on purpose).
TIMEOUT = 180.0
#: Threads per process: keeps 2 workers x 2 ranks within the reference machine's cores.
THREADS_PER_PROCESS = "1"


class LaunchError(RuntimeError):
    """The launcher is missing, or the run did not finish; the message says what to do."""


@dataclass
class LaunchResult:
    """What a launched run left behind: the launcher's exit status, its and the processes' stdout
    and stderr interleaved, and rank -> the record `verified.capture` wrote."""

    returncode: int
    output: str
    records: dict[int, dict] = field(default_factory=dict)


def launcher_command(launch: Launch) -> list[str]:
    """The command that starts `launch.processes` copies of `python -m verified.capture` (this
    interpreter), up to the capture module's own arguments; LaunchError when `mpiexec` is not
    installed next to it."""
    python = sys.executable
    capture = ["-m", "verified.capture"]
    processes = str(launch.processes)
    if launch.launcher == "torchrun":
        # torch.distributed.run is torchrun; --standalone gives each run its own free port.
        run = [python, "-m", "torch.distributed.run", "--standalone", "--nnodes", "1"]
        return [*run, "--nproc-per-node", processes, *capture]
    mpiexec = Path(python).parent / "mpiexec"
    if not mpiexec.is_file():
        raise LaunchError(
            f"mpiexec not found next to {python}; the project installs MPICH from PyPI: run "
            "`make test-env` (or `pip install -r requirements/test.txt`)"
        )
    # -launcher fork: start the processes on this machine, never over ssh.
    return [str(mpiexec), "-launcher", "fork", "-n", processes, python, *capture]


def launch_example(
    script: Path, source: str, launch: Launch, workdir: Path, protect: list[Path]
) -> LaunchResult:
    """Run `script` as `launch.processes` processes and collect one record per rank that finished.

    `script` is a copy in the temporary `workdir`, every process's working directory; `source` is
    its path in the repository; no process may write into `protect` (the repository); after
    `EXAMPLES_LAUNCH_TIMEOUT`, else `TIMEOUT`, seconds the whole process group is killed. Raises
    LaunchError when the launcher is missing or the run timed out (the message holds the last
    output lines)."""
    timeout = float(os.environ.get("EXAMPLES_LAUNCH_TIMEOUT", TIMEOUT))
    out_dir = workdir / "ranks"
    command = [*launcher_command(launch), str(script), "--source", source]
    command += ["--out-dir", str(out_dir), *(f"--protect={folder}" for folder in protect)]
    process = subprocess.Popen(
        command,
        cwd=workdir,
        env=_environment(timeout),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        output = _stop(process)
        result = LaunchResult(process.returncode, output, _records(out_dir))
        raised = describe_failure(result, source, launch, errors_only=True)
        raise LaunchError(
            f"{source}: {launch.launcher} with {launch.processes} processes did not finish in "
            f"{timeout:.0f} s and was killed. "
            + (
                f"Before that:\n{raised}"
                if raised
                else "Is there a collective (a barrier, an all-reduce) that not every rank "
                "reaches? "
                f"Where each process was, and the last output:\n{_excerpt(output)}"
            )
        ) from None
    except KeyboardInterrupt:
        _stop(process)
        raise
    return LaunchResult(process.returncode, output, _records(out_dir))


def _records(out_dir: Path) -> dict[int, dict]:
    records = {}
    for path in sorted(out_dir.glob("rank-*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        records[record["rank"]] = record
    return records


def _stop(process: subprocess.Popen) -> str:
    """End a launch: SIGTERM to the launcher (torchrun then stops its workers, which run
    in sessions of their own), SIGKILL to its process group after a grace period.
    Ranks also die with their parent (verified.capture). Returns the output so far."""
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            return process.communicate(timeout=grace)[0] or ""
        except subprocess.TimeoutExpired:
            continue
    return ""  # the pipe is still held open by a process we cannot reach


def _environment(timeout: float) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[name] = THREADS_PER_PROCESS
    if sys.platform.startswith("linux"):
        env.setdefault("GLOO_SOCKET_IFNAME", "lo")  # gloo on the loopback interface only
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONUNBUFFERED"] = "1"
    env["EXAMPLES_LAUNCH_TIMEOUT"] = str(timeout)  # capture.py dumps stacks just before it
    return env


def _excerpt(output: str, lines: int = 12) -> str:
    """The first and the last lines of a long output: the cause is often at the start."""
    all_lines = output.splitlines()
    if len(all_lines) <= 2 * lines:
        return _tail(output, 2 * lines)
    return _tail("\n".join(all_lines[:lines]), lines) + "\n    ...\n" + _tail(output, lines)


def _tail(output: str, lines: int = 30) -> str:
    return "\n".join("    " + line for line in output.splitlines()[-lines:]) or "    (none)"


def describe_failure(
    result: LaunchResult, source: str, launch: Launch, errors_only: bool = False
) -> str | None:
    """A message naming the file, line and rank of what went wrong in a launched run (`result` from
    `launch_example`, or gathered after a timeout), or None. With `errors_only` (after a timeout)
    only ranks that raised are reported."""
    raised = sorted(
        ((rank, record["error"]) for rank, record in result.records.items() if record["error"]),
        key=lambda item: item[1].get("time", 0),
    )
    if raised:
        # The first rank to fail is the cause; the others usually fail because it left.
        rank, error = raised[0]
        others = "".join(
            f"\n  then rank {r} at line {e['line']}: {e['message'].splitlines()[0][:200]}"
            for r, e in raised[1:]
        )
        return (
            f"{source}:{error['line'] or 1}: rank {rank} raised {error['message']}\n"
            f"{_tail(error['traceback'], 15)}{others}\n"
            "An uncaught exception in any process is a failure of the example."
        )
    if errors_only:
        return None
    missing = [rank for rank in range(launch.processes) if rank not in result.records]
    if missing:
        return (
            f"{source}: {launch.launcher} exited with status {result.returncode}; ranks that "
            f"did not finish the script: {missing}. Output:\n{_excerpt(result.output)}"
        )
    if result.returncode != 0:
        return (
            f"{source}: every rank ran the script to its end, but {launch.launcher} exited with "
            f"status {result.returncode}: a process failed while exiting (an abort during "
            f"teardown?). Output:\n{_excerpt(result.output)}"
        )
    for rank, record in sorted(result.records.items()):
        if rank != 0 and record["statements"]:
            line = record["statements"][0]["line"]
            return (
                f"{source}:{line}: rank {rank} printed; only rank 0 may print, so that the "
                "output is the same on every run (guard the print with `if rank == 0:`)"
            )
    return None
