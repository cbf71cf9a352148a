"""The marker lines an example script may carry (standard library only):

* `# requires: cuda`: the example needs a CUDA device.
* `# not-run: <reason>`: shown on the page, never executed.
* `# launch: torchrun 2` or `# launch: mpiexec 2`: the example is a multi-process
  program; the suite starts it with that launcher and that many processes.
* `# launch: python 1`: the example runs in a process of its own, not in the test worker (it
  changes a library for the whole process, which no later example may inherit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Marker lines of scripts, each a whole line; a trailing comment may follow.
REQUIRES_LINE = re.compile(r"#[ \t]*requires:[ \t]*(?P<what>\w[\w, ]*?)[ \t]*(#.*)?")
NOT_RUN_LINE = re.compile(r"#[ \t]*not-run:[ \t]*(?P<reason>\S.*?)[ \t]*")
LAUNCH_LINE = re.compile(
    r"#[ \t]*launch:[ \t]*(?P<launcher>[\w-]+)[ \t]+(?P<processes>\d+)[ \t]*(#.*)?"
)
# Anything that looks like a marker, to reject misspelt ones instead of ignoring them.
MARKER_LIKE = re.compile(r"[ \t]*#[ \t]*(requires|not[-_ ]?run|launch)[ \t]*:", re.IGNORECASE)
KNOWN_REQUIREMENTS = frozenset({"cuda"})
#: Launchers the suite knows how to start, and the most processes it will start (`python`: one).
LAUNCHERS = ("torchrun", "mpiexec", "python")
MAX_PROCESSES = 4


class MarkerError(ValueError):
    """A marker line is malformed; the message names the file and line."""


@dataclass(frozen=True)
class Launch:
    launcher: str
    processes: int


@dataclass(frozen=True)
class ScriptMarkers:
    requires: frozenset[str] = frozenset()
    not_run: str | None = None
    launch: Launch | None = None


def parse_requires(value: str, where: str) -> frozenset[str]:
    """The requirements a `requires` value names, comma-separated; MarkerError, naming `where`
    (`path:line`), for an unknown one."""
    wanted = frozenset(part.strip() for part in value.split(",") if part.strip())
    unknown = wanted - KNOWN_REQUIREMENTS
    if unknown:
        raise MarkerError(
            f"{where}: unknown requirement {', '.join(sorted(unknown))}; "
            f"known: {', '.join(sorted(KNOWN_REQUIREMENTS))}"
        )
    return wanted


def script_markers(text: str, source: str) -> ScriptMarkers:
    """The markers of a script; `source` is its path, for messages. MarkerError, naming the file
    and line, for a malformed, unknown, indented or repeated marker, and for `launch` with
    `requires: cuda`."""
    requires: frozenset[str] = frozenset()
    not_run = None
    launch = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not MARKER_LIKE.match(line):
            continue
        where = f"{source}:{number}"
        if match := REQUIRES_LINE.fullmatch(line):
            requires |= parse_requires(match["what"], where)
        elif match := NOT_RUN_LINE.fullmatch(line):
            not_run = match["reason"]
        elif match := LAUNCH_LINE.fullmatch(line):
            if launch is not None:
                raise MarkerError(f"{where}: a second `launch` marker; keep one")
            launch = _launch(match["launcher"], int(match["processes"]), where)
        elif line[:1] in (" ", "\t"):
            raise MarkerError(
                f"{where}: the marker {line.strip()!r} is indented; markers apply to the whole "
                "script, so write it at the start of a line"
            )
        else:
            raise MarkerError(
                f"{where}: malformed marker {line.strip()!r}; write it at the start of a line "
                "as `# requires: cuda`, `# not-run: <reason>` (a reason is required) or "
                "`# launch: torchrun 2`"
            )
    if launch is not None and "cuda" in requires:
        raise MarkerError(
            f"{source}: `launch` with `requires: cuda` is not supported yet: `make test-gpu` "
            "runs each CUDA example as one process; keep multi-GPU code in a not-run block"
        )
    return ScriptMarkers(requires, not_run, launch)


def _launch(launcher: str, processes: int, where: str) -> Launch:
    if launcher not in LAUNCHERS:
        raise MarkerError(f"{where}: unknown launcher {launcher!r}; known: {', '.join(LAUNCHERS)}")
    if launcher == "python" and processes != 1:
        raise MarkerError(f"{where}: `launch: python` starts one process: write `python 1`")
    if launcher != "python" and not 2 <= processes <= MAX_PROCESSES:
        raise MarkerError(
            f"{where}: {processes} processes; a launched example runs 2 to {MAX_PROCESSES} "
            "(the reference machine has 2 cores)"
        )
    return Launch(launcher, processes)
