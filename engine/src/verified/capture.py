"""Launched examples: start one with torchrun or mpiexec (or `python`), each process running the
script under this module (standard library only), and collect what each process printed. Each
process writes its record to `rank-<n>.json`, whole or not at all::

    {"source": "examples/distributed/ddp.py", "rank": 0, "printed": [[12, "tensor([1., 2.])"]],
     "error": null | {"message": "RuntimeError: ...", "line": 7, "traceback": "...",
                      "time": <seconds since the epoch>}}

The runner checks rank 0's prints like any example's, and fails if another rank printed, raised
or died. Processes never collide with those of another test worker: torchrun runs with
`--standalone` (a free port), and every process gets one thread, so that two workers running two
ranks each do not oversubscribe the cores.

Here too is the write guard of every example (`check_write`).
"""

from __future__ import annotations

import builtins
import contextlib
import faulthandler
import json
import os
import re
import runpy
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from verified.markers import Launch

#: Seconds a launched example may take, start-up included (`EXAMPLES_LAUNCH_TIMEOUT` overrides it).
TIMEOUT = 180.0

#: Audit events that change the file system, and which of their arguments are the paths
#: written to (a link only writes its destination; a rename also removes its source).
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


def check_write(event: str, args: tuple, writable: list[Path], protected: list[Path]) -> None:
    """Raise PermissionError when the audit event writes a path in no `writable` folder, or inside a
    `protected` one (the repository) but in no writable folder within it: for a clone of the
    repository under /tmp, /tmp is no licence to write into it. Native code's writes are not
    audited: the work-tree guard of the run catches those."""
    for path in written_paths(event, args):
        within = [root for root in protected if path.is_relative_to(root)]
        if not any(
            path.is_relative_to(folder) and all(folder.is_relative_to(root) for root in within)
            for folder in writable
        ):
            raise PermissionError(
                f"examples may write only inside a temporary directory, not {path}; write "
                "relative to the current directory (a temporary one) or use "
                "tempfile.TemporaryDirectory()"
            )


_LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def install_guard(protected: list[str | Path]) -> None:
    """Install an audit hook in this process (a launched example's, a notebook's kernel): no writes
    into `protected` except below the current directory, no connections beyond this machine
    (native code, gloo or MPI, is kept on the loopback interface by the launcher instead)."""
    roots = [Path(p).resolve() for p in protected]
    writable = [Path.cwd().resolve(), Path("/")]  # "/": anywhere outside `protected`

    def hook(event: str, args: tuple) -> None:
        check_write(event, args, writable, roots)
        if event == "socket.connect":
            address = args[1]
            host = address[0] if isinstance(address, tuple) else None
            if host is not None and host not in _LOOPBACK:
                raise PermissionError(f"examples may not reach the network (connect to {host})")

    sys.addaudithook(hook)


def recorder(path: str, printed: list[tuple[int, str]]) -> Callable[..., None]:
    """A `print` for the code of the file `path`, given to it as its global `print`: a call made
    from that code appends to `printed` its 1-based line and the text `print` would write, without
    the final newline and the spaces ending its lines; any other call prints."""

    def recording_print(*args: object, sep: str | None = " ", **kwargs: object) -> None:
        caller = sys._getframe(1)
        if caller.f_code.co_filename != path:  # passed to a library, which called it
            return builtins.print(*args, sep=sep, **kwargs)
        text = (" " if sep is None else sep).join(map(str, args))
        printed.append((caller.f_lineno, re.sub(r"[ \t]+$", "", text, flags=re.MULTILINE)))

    return recording_print


def capture(script: Path, source: str) -> dict:
    """Run `script` as `__main__` and return its record (module docstring); `source` is its path in
    the repository."""
    path = str(script.resolve())
    # The rank: torchrun sets RANK, MPICH PMI_RANK, Open MPI OMPI_COMM_WORLD_RANK.
    ranks = (os.environ.get(name, "") for name in ("RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK"))
    rank = next((int(value) for value in ranks if value.isdigit()), 0)
    record: dict = {"source": source, "rank": rank, "printed": [], "error": None}
    sys.path.insert(0, str(script.parent))
    try:
        runpy.run_path(path, {"print": recorder(path, record["printed"])}, run_name="__main__")
    except (Exception, SystemExit) as exc:  # the example's failure, reported by the suite
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
        record["error"] = {
            "message": "".join(traceback.format_exception_only(type(exc), exc)).strip(),
            "line": frames[-1].lineno if frames else None,
            "traceback": "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
            "time": time.time(),  # which rank failed first: the others often fail because of it
        }
    return record


def main() -> NoReturn:
    """What the launchers start once per process: `python -m verified.capture SCRIPT SOURCE OUT_DIR
    [PROTECTED ...]`. Runs SCRIPT with no writes into PROTECTED, writes `OUT_DIR/rank-<rank>.json`
    and exits with status 0, or 1 when the script raised."""
    script, source, out_dir, *protected = sys.argv[1:]
    _die_with_parent()
    timeout = float(os.environ.get("EXAMPLES_LAUNCH_TIMEOUT", "0") or 0)
    if timeout > 5:  # show where each process is stuck before the launcher kills it
        faulthandler.dump_traceback_later(timeout - 3, exit=False)
    install_guard(protected)
    record = capture(Path(script), source)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    out = Path(out_dir) / f"rank-{record['rank']}.json"
    # Whole or not at all: when another rank fails, MPI or torchrun kills this process,
    # possibly mid-write, and the launcher must not read half a record.
    partial = out.with_suffix(".partial")
    partial.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, out)
    mpi = sys.modules.get("mpi4py.MPI")
    mpi = mpi if mpi and mpi.Is_initialized() and not mpi.Is_finalized() else None
    if record["error"]:
        sys.stderr.write(record["error"]["traceback"])
        sys.stderr.flush()
        if mpi:  # the job must end: the other ranks would wait in their next collective
            mpi.COMM_WORLD.Abort(1)
    _exit_now(1 if record["error"] else 0, mpi)


def _exit_now(code: int, mpi) -> NoReturn:
    """End the process right after its record is written, skipping interpreter teardown: with
    torch 2.14, gloo sometimes aborts in its C++ destructors after a DDP script has finished
    ("terminate called without an active exception"), about once in ten runs on a loaded machine,
    which would fail a correct example at random. MPI (`mpi`, mpi4py's module when the script
    left it initialised) is finalised first, as mpiexec expects of a process that exits normally."""
    if mpi:
        mpi.Finalize()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _die_with_parent() -> None:
    """Linux: end this process when its launcher dies (killed on a timeout, say)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class LaunchError(RuntimeError):
    """A launched example failed or could not be started; the message names the file, and the line
    and rank where there are some, and says what to do."""


def launch_example(
    script: Path, source: str, launch: Launch, workdir: Path, protect: list[Path]
) -> list[tuple[int, str]]:
    """Run `script`, a copy in the temporary `workdir`, as `launch.processes` processes and return
    what rank 0 printed; `source` is its path in the repository; no process may write into
    `protect`. Raises LaunchError when the launcher is missing (`mpiexec` is looked for next to
    this Python), the run timed out, a process raised, died or printed though not rank 0, or the
    launcher failed."""
    timeout = float(os.environ.get("EXAMPLES_LAUNCH_TIMEOUT", TIMEOUT))
    out_dir = workdir / "ranks"
    python, processes = sys.executable, str(launch.processes)
    mpiexec = Path(python).parent / "mpiexec"
    env = dict(os.environ, PYTHONUNBUFFERED="1", EXAMPLES_LAUNCH_TIMEOUT=str(timeout))
    if launch.launcher == "python":  # one process of its own: no launcher between
        command = [python]
        for name in ("RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK"):  # rank 0, whatever ran us
            env.pop(name, None)
    elif launch.launcher == "torchrun":
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
    command += ["-m", "verified.capture", str(script), source, str(out_dir), *map(str, protect)]
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[name] = "1"  # 2 workers x 2 ranks within the reference machine's cores
    if sys.platform.startswith("linux"):
        env.setdefault("GLOO_SOCKET_IFNAME", "lo")  # gloo on the loopback interface only
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    process = subprocess.Popen(
        command,
        cwd=workdir,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        output = _stop(process)
        raised = _raised(_records(out_dir), source)
        raise LaunchError(
            f"{source}: {launch.launcher} with {launch.processes} processes did not finish in "
            f"{timeout:.0f} s and was killed. "
            + (
                f"Before that:\n{raised}"
                if raised
                else (
                    f"Run it with `python {source}` to see where it waits. "
                    if launch.launcher == "python"
                    else "Is there a collective (a barrier, an all-reduce) that not every rank "
                    "reaches? "
                )
                + f"Where each process was, and the last output:\n{_excerpt(output)}"
            )
        ) from None
    except KeyboardInterrupt:
        _stop(process)
        raise
    records = _records(out_dir)
    if raised := _raised(records, source):
        raise LaunchError(raised)
    if missing := [rank for rank in range(launch.processes) if rank not in records]:
        raise LaunchError(
            f"{source}: {launch.launcher} exited with status {process.returncode}; ranks that "
            f"did not finish the script: {missing}. Output:\n{_excerpt(output)}"
        )
    if process.returncode != 0:
        raise LaunchError(
            f"{source}: every rank ran the script to its end, but {launch.launcher} exited with "
            f"status {process.returncode}: a process failed while exiting (an abort during "
            f"teardown?). Output:\n{_excerpt(output)}"
        )
    for rank, record in sorted(records.items()):
        if rank != 0 and record["printed"]:
            raise LaunchError(
                f"{source}:{record['printed'][0][0]}: rank {rank} printed; only rank 0 "
                "may print, so that the output is the same on every run (guard the print with "
                "`if rank == 0:`)"
            )
    return [(line, text) for line, text in records[0]["printed"]]


def _records(out_dir: Path) -> dict[int, dict]:
    """Rank -> the record its process wrote, for the ranks that finished."""
    records = (json.loads(path.read_text(encoding="utf-8")) for path in out_dir.glob("rank-*.json"))
    return {record["rank"]: record for record in records}


def _raised(records: dict[int, dict], source: str) -> str | None:
    """The message for the first rank that raised, naming the file, line and rank, or None."""
    raised = sorted(
        ((rank, record["error"]) for rank, record in records.items() if record["error"]),
        key=lambda item: item[1].get("time", 0),
    )
    if not raised:
        return None
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


def _stop(process: subprocess.Popen) -> str:
    """End a launch: SIGTERM to the launcher (torchrun then stops its workers, which run in
    sessions of their own, even those still starting), SIGKILL to its process group after a grace
    period. Returns the output so far."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            return process.communicate(timeout=10)[0] or ""
    return ""  # the pipe is still held open by a process we cannot reach


def _excerpt(output: str, lines: int = 12) -> str:
    """The first and the last lines of a long output: the cause is often at the start."""
    all_lines = output.splitlines()
    if len(all_lines) <= 2 * lines:
        return _tail(output, 2 * lines)
    return _tail("\n".join(all_lines[:lines]), lines) + "\n    ...\n" + _tail(output, lines)


def _tail(output: str, lines: int) -> str:
    return "\n".join("    " + line for line in output.splitlines()[-lines:]) or "    (none)"


if __name__ == "__main__":
    main()
