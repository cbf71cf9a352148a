"""Multi-process examples: start one with torchrun or mpiexec, each process running the script
under this module, and collect what each process printed.

The child side (`python -m verified.capture`, once per process) uses the standard library only,
on purpose: it runs where the suite's own tools may be missing. Each process writes its record
to `rank-<n>.json`, whole or not at all::

    {"source": "examples/distributed/ddp.py", "rank": 0,
     "statements": [{"line": 12, "sep": " ", "args": ["tensor([1., 2.])"]}],
     "error": null | {"type": "RuntimeError", "message": "...", "line": 7,
                      "traceback": "...", "time": <seconds since the epoch>}}

`line` is the 1-based line, in the script, of the `print` call (of the innermost frame that
belongs to the script, as pytest-examples counts it). The suite (`verified.runner`) then checks
rank 0's prints like any example's, and fails if another rank printed, raised or died.

Processes never collide with those of another test worker: torchrun runs with `--standalone`
(its rendezvous takes a free port), examples that open their own port bind port 0, and every
process is limited to one thread so that two workers running two ranks each do not
oversubscribe the cores.
"""

from __future__ import annotations

import argparse
import builtins
import faulthandler
import json
import os
import runpy
import signal
import subprocess
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from verified.markers import Launch

#: Seconds a launched example may take, start-up of every process included
#: (`EXAMPLES_LAUNCH_TIMEOUT`, read at each launch, overrides it: the engine's tests make a
#: run hang on purpose).
TIMEOUT = 180.0

#: Audit events that change the file system, and which of their arguments are the paths
#: written to (a link only writes its destination; a rename also removes its source).
#: Shared by this runner's guard and the in-process guard of the plugin (`verified.plugin`).
WRITE_EVENTS = {
    "os.mkdir": (0,),
    "os.remove": (0,),
    "os.rmdir": (0,),
    "os.rename": (0, 1),
    "os.replace": (0, 1),
    "shutil.rmtree": (0,),
    "os.truncate": (0,),
    "os.symlink": (1,),
    "os.link": (1,),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.utime": (0,),
}


def written_paths(event: str, args: tuple) -> list[Path]:
    """The resolved paths an audit event writes to: none for an event that does not write, for a
    read-only `open` or for a file descriptor."""
    if event == "open":
        path, mode, flags = args
        write_flags = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
        writes = any(c in mode for c in "wax+") if mode else bool((flags or 0) & write_flags)
        targets = [path] if writes else []
    elif event in WRITE_EVENTS:
        targets = [args[i] for i in WRITE_EVENTS[event]]
    else:
        return []
    return [
        Path(os.fsdecode(target)).resolve()
        for target in targets
        if isinstance(target, str | bytes | os.PathLike)  # not a file descriptor
    ]


_LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def process_rank() -> int:
    """This process's rank from `RANK` (torchrun), `PMI_RANK` (MPICH) or `OMPI_COMM_WORLD_RANK`
    (Open MPI); 0 when not launched."""
    for name in ("RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK"):
        if os.environ.get(name, "").isdigit():
            return int(os.environ[name])
    return 0


class PrintRecorder:
    """Replaces `print` while `script` runs and records the calls made from it; a call from another
    file (a library printing) goes to the real `print`."""

    def __init__(self, script: Path) -> None:
        self.script = str(script.resolve())
        self.statements: list[dict] = []
        self._print = builtins.print

    def __enter__(self) -> PrintRecorder:
        builtins.print = self
        return self

    def __exit__(self, *exc_info: object) -> None:
        builtins.print = self._print

    def __call__(self, *args: object, sep: str | None = " ", **kwargs: object) -> None:
        line = self._script_line(sys._getframe(1))
        if line is None:
            self._print(*args, sep=sep, **kwargs)
            return
        self.statements.append(
            {"line": line, "sep": " " if sep is None else sep, "args": [str(a) for a in args]}
        )

    def _script_line(self, frame) -> int | None:
        while frame is not None:
            if frame.f_code.co_filename == self.script:
                return frame.f_lineno
            frame = frame.f_back
        return None


def _error(exc: BaseException, script: Path) -> dict:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(script)]
    return {
        "type": type(exc).__name__,
        "message": "".join(traceback.format_exception_only(type(exc), exc)).strip(),
        "line": frames[-1].lineno if frames else None,
        "traceback": "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
        "time": time.time(),  # which rank failed first: the others often fail because of it
    }


def install_guard(protected: list[str | Path]) -> None:
    """Install an audit hook in this process (a launched example's, a notebook's kernel): no writes
    into `protected` except below the current directory, no connections beyond this machine.

    It covers Python-level calls; native code (gloo, MPI) is kept on the loopback interface by the
    launcher's environment instead."""
    roots = [Path(p).resolve() for p in protected]
    workdir = Path.cwd().resolve()

    def hook(event: str, args: tuple) -> None:
        for path in written_paths(event, args):
            inside = any(path.is_relative_to(root) for root in roots)
            if inside and not path.is_relative_to(workdir):
                raise PermissionError(
                    f"examples may write only inside a temporary directory, not {path}"
                )
        if event == "socket.connect":
            address = args[1]
            host = address[0] if isinstance(address, tuple) else None
            if host is not None and host not in _LOOPBACK:
                raise PermissionError(f"examples may not reach the network (connect to {host})")

    sys.addaudithook(hook)


def capture(script: Path, source: str) -> dict:
    """Run `script` as `__main__` and return its record (see the module docstring); `source`, its
    path in the repository, is stored in it; `error` is None unless it raised."""
    record: dict = {"source": source, "rank": process_rank(), "statements": [], "error": None}
    recorder = PrintRecorder(script)
    sys.path.insert(0, str(script.parent))
    try:
        with recorder:
            runpy.run_path(str(script.resolve()), run_name="__main__")
    except (Exception, SystemExit) as exc:  # the example's failure, reported by the suite
        record["error"] = _error(exc, script.resolve())
    record["statements"] = recorder.statements
    return record


def main(argv: list[str] | None = None) -> NoReturn:
    """Command line: run one script, write `DIR/rank-<rank>.json` and end the process, with status 0
    when the script ran to the end, 1 when it raised."""
    parser = argparse.ArgumentParser(prog="python -m verified.capture", description=__doc__)
    parser.add_argument("script", type=Path, help="the example script to run")
    parser.add_argument("--out-dir", type=Path, required=True, help="where rank-<n>.json goes")
    parser.add_argument("--source", required=True, help="the script's path in the repository")
    parser.add_argument(
        "--protect",
        type=Path,
        action="append",
        default=[],
        help="a folder the script may not write into (repeatable)",
    )
    options = parser.parse_args(argv)
    _die_with_parent()
    timeout = float(os.environ.get("EXAMPLES_LAUNCH_TIMEOUT", "0") or 0)
    if timeout > 5:  # show where each process is stuck before the launcher kills it
        faulthandler.dump_traceback_later(timeout - 3, exit=False)
    install_guard(options.protect)
    record = capture(options.script, options.source)
    options.out_dir.mkdir(parents=True, exist_ok=True)
    out = options.out_dir / f"rank-{record['rank']}.json"
    # Whole or not at all: when another rank fails, MPI or torchrun kills this process,
    # possibly mid-write, and the launcher must not read half a record.
    partial = out.with_suffix(".partial")
    partial.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, out)
    if record["error"]:
        sys.stderr.write(record["error"]["traceback"])
        _abort_mpi_job()
    _exit_now(1 if record["error"] else 0)


def _exit_now(code: int) -> NoReturn:
    """End the process right after its record is written.

    What the example printed and raised is in the record; interpreter teardown is not
    part of it. With torch 2.14, gloo sometimes aborts in its C++ destructors after a
    DDP script has finished ("terminate called without an active exception"), about
    once in ten runs on a loaded machine even with the clean-up the DDP page shows,
    which would fail a correct example at random. MPI is finalised first, as mpiexec
    expects of a process that exits normally.
    """
    if mpi := _running_mpi():
        mpi.Finalize()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _die_with_parent() -> None:
    """Linux: end this process when its launcher dies (killed on a timeout, say), so
    that no rank outlives the run. Elsewhere, nothing."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _abort_mpi_job() -> None:
    """Under MPI, a rank that raised must end the job: the others would otherwise wait
    in their next collective until the launch times out."""
    if mpi := _running_mpi():
        sys.stderr.flush()
        mpi.COMM_WORLD.Abort(1)


def _running_mpi():
    """mpi4py's MPI module when the script initialised MPI and has not finalised it, else None."""
    mpi = sys.modules.get("mpi4py.MPI")
    return mpi if mpi and mpi.Is_initialized() and not mpi.Is_finalized() else None


class LaunchError(RuntimeError):
    """The launcher is missing, or the run did not finish; the message says what to do."""


@dataclass
class LaunchResult:
    """What a launched run left behind: the launcher's exit status, its and the processes' stdout
    and stderr interleaved, and rank -> the record `verified.capture` wrote."""

    returncode: int
    output: str
    records: dict[int, dict] = field(default_factory=dict)


def launch_example(
    script: Path, source: str, launch: Launch, workdir: Path, protect: list[Path]
) -> LaunchResult:
    """Run `script` as `launch.processes` processes and collect one record per rank that finished.

    `script` is a copy in the temporary `workdir`, every process's working directory; `source` is
    its path in the repository; no process may write into `protect` (the repository); after
    `EXAMPLES_LAUNCH_TIMEOUT`, else `TIMEOUT`, seconds the whole process group is killed. Raises
    LaunchError when the launcher is missing (`mpiexec` is looked for next to this Python) or the
    run timed out (the message holds the last output lines)."""
    timeout = float(os.environ.get("EXAMPLES_LAUNCH_TIMEOUT", TIMEOUT))
    out_dir = workdir / "ranks"
    python, processes = sys.executable, str(launch.processes)
    mpiexec = Path(python).parent / "mpiexec"
    if launch.launcher == "torchrun":
        # torch.distributed.run is torchrun; --standalone gives each run its own free port.
        command = [python, "-m", "torch.distributed.run", "--standalone", "--nnodes", "1"]
        command += ["--nproc-per-node", processes]
    elif mpiexec.is_file():
        # -launcher fork: start the processes on this machine, never over ssh.
        command = [str(mpiexec), "-launcher", "fork", "-n", processes, python]
    else:
        raise LaunchError(
            f"mpiexec not found next to {python}; the project installs MPICH from PyPI: run "
            "`make test-env` (or `pip install -r requirements/test.txt`)"
        )
    command += ["-m", "verified.capture", str(script), "--source", source]
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
    Ranks also die with their parent (`_die_with_parent`). Returns the output so far."""
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
        env[name] = "1"  # 2 workers x 2 ranks within the reference machine's cores
    if sys.platform.startswith("linux"):
        env.setdefault("GLOO_SOCKET_IFNAME", "lo")  # gloo on the loopback interface only
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env["PYTHONUNBUFFERED"] = "1"
    env["EXAMPLES_LAUNCH_TIMEOUT"] = str(timeout)  # main() dumps stacks just before it
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


if __name__ == "__main__":
    main()
