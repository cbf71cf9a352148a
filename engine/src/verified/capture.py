"""Run one example script and record what its `print` calls wrote, and from which line.

Standard library only, on purpose. It runs where the suite's own tools may be
missing: inside each process of a multi-process example (started by torchrun or
mpiexec, see `verified.launch`). The suite then compares the record with
the `#>` output written in the script, exactly as for an example run in-process
(`verified.runner`), and `--update-examples` writes it.

Record, one JSON file per process::

    {"source": "examples/distributed/ddp.py", "rank": 0,
     "statements": [{"line": 12, "sep": " ", "args": ["tensor([1., 2.])"]}],
     "error": null | {"type": "RuntimeError", "message": "...", "line": 7,
                      "traceback": "..."}}

`line` is the 1-based line, in the script, of the `print` call (of the innermost
frame that belongs to the script, as pytest-examples counts it).

Command line (what the launchers start, once per process)::

    python -m verified.capture SCRIPT --source examples/x.py --out-dir DIR [--protect DIR ...]
"""

from __future__ import annotations

import argparse
import builtins
import faulthandler
import json
import os
import runpy
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import NoReturn

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


#: Environment variables that carry the process's rank, by launcher.
RANK_VARIABLES = ("RANK", "PMI_RANK", "OMPI_COMM_WORLD_RANK")
_LOOPBACK = {"127.0.0.1", "::1", "localhost"}


def process_rank() -> int:
    """This process's rank from `RANK` (torchrun), `PMI_RANK` (MPICH) or `OMPI_COMM_WORLD_RANK`
    (Open MPI); 0 when not launched."""
    for name in RANK_VARIABLES:
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
    mpi = sys.modules.get("mpi4py.MPI")
    if mpi is not None and mpi.Is_initialized() and not mpi.Is_finalized():
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
    mpi = sys.modules.get("mpi4py.MPI")
    if mpi is not None and mpi.Is_initialized() and not mpi.Is_finalized():
        sys.stderr.flush()
        mpi.COMM_WORLD.Abort(1)


if __name__ == "__main__":
    main()
