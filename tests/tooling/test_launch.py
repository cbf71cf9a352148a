"""Multi-process examples: started by torchrun or mpiexec, checked like any example, and
failing with the file, line and rank when a process raises, prints out of turn or hangs.

Each stage run starts real processes in a temporary content tree; nothing in the
repository is touched.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.tooling.stage import run_examples_stage
from verified.markers import Launch, MarkerError, script_markers

# Rank 0 prints the sum of the ranks' numbers, reduced through MPI.
MPI_SUM = """\
# launch: mpiexec 2
from mpi4py import MPI

comm = MPI.COMM_WORLD
total = comm.allreduce(comm.Get_rank() + 1)
if comm.Get_rank() == 0:
    print("sum", total)
"""

GLOO_SUM = """\
# launch: torchrun 2
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
value = torch.tensor([dist.get_rank() + 1.0])
dist.all_reduce(value)
if dist.get_rank() == 0:
    print(value)
    #> tensor([3.])
dist.destroy_process_group()
"""

RANK_RAISES = """\
# launch: mpiexec 2
from mpi4py import MPI

if MPI.COMM_WORLD.Get_rank() == 1:
    raise ValueError("rank one broke")
"""

EVERY_RANK_PRINTS = """\
# launch: mpiexec 2
from mpi4py import MPI

print("hello from", MPI.COMM_WORLD.Get_rank())
"""

HANGS = """\
# launch: mpiexec 2
import time

time.sleep(600)
"""

# Rank 1 exits while rank 0 waits for it: MPI must end the job at once, not time out.
MPI_RANK_EXITS = """\
# launch: mpiexec 2
import sys

from mpi4py import MPI

if MPI.COMM_WORLD.Get_rank() == 1:
    sys.exit(3)
MPI.COMM_WORLD.Barrier()
"""

TORCHRUN_HANGS = """\
# launch: torchrun 2
import os
import time

if os.environ["RANK"] == "1":
    time.sleep(600)
"""

MULTILINE_PRINT = """\
print("a",
      1)
"""


def test_launched_examples_pass_fail_and_update(content, monkeypatch):
    monkeypatch.setenv("EXAMPLES_LAUNCH_TIMEOUT", "90")  # a regression fails, not hangs
    demo = content / "examples" / "demo"
    demo.mkdir()
    (demo / "gloo_sum.py").write_text(GLOO_SUM)
    (demo / "mpi_sum.py").write_text(MPI_SUM + "    #> sum 4\n")  # wrong: the sum is 3
    (demo / "rank_raises.py").write_text(RANK_RAISES)
    (demo / "every_rank_prints.py").write_text(EVERY_RANK_PRINTS)
    (demo / "multiline.py").write_text(MULTILINE_PRINT)
    (demo / "rank_exits.py").write_text(MPI_RANK_EXITS)

    result = run_examples_stage(content, "--durations=0")
    out = result.stdout

    assert result.returncode == 1, out
    assert "5 failed, 1 passed" in out, out  # gloo_sum.py passes: 2 processes, real gloo
    assert "examples/demo/mpi_sum.py:8: printed output differs" in out, out
    assert "    #> sum 3" in out, out
    assert "examples/demo/rank_raises.py:5: rank 1 raised ValueError: rank one broke" in out, out
    assert "examples/demo/every_rank_prints.py:4: rank 1 printed; only rank 0 may print" in out
    assert "examples/demo/multiline.py:1: this print() call spans several lines" in out, out
    assert "examples/demo/rank_exits.py:7: rank 1 raised SystemExit: 3" in out, out
    assert "did not finish" not in out, out  # MPI_Abort ended the job; no timeout

    # Update mode writes what rank 0 printed, under the print.
    (demo / "mpi_sum.py").write_text(MPI_SUM)
    result = run_examples_stage(content, "--update-examples", "-k", "mpi_sum")
    assert result.returncode == 0, result.stdout
    assert (demo / "mpi_sum.py").read_text() == MPI_SUM + "    #> sum 3\n"


def test_hanging_runs_are_killed_named_and_leave_no_process(content, monkeypatch):
    demo = content / "examples" / "demo"
    demo.mkdir()
    (demo / "hangs.py").write_text(HANGS)
    (demo / "torchrun_hangs.py").write_text(TORCHRUN_HANGS)
    monkeypatch.setenv("EXAMPLES_LAUNCH_TIMEOUT", "8")

    result = run_examples_stage(content)

    out = result.stdout
    assert result.returncode == 1, out
    assert "2 failed" in out, out
    for name, launcher in (("hangs", "mpiexec"), ("torchrun_hangs", "torchrun")):
        assert (
            f"examples/demo/{name}.py: {launcher} with 2 processes did not finish in 8 s and "
            "was killed" in out
        ), out
    assert "Is there a collective" in out, out
    left = subprocess.run(
        ["pgrep", "-f", f"verified.capture.*{content.name}"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    assert not left, f"processes left running: {left}"


@pytest.mark.parametrize(
    ("marker", "message"),
    [
        ("# launch: slurm 2", "x.py:1: unknown launcher 'slurm'; known: torchrun, mpiexec"),
        ("# launch: torchrun 1", "x.py:1: 1 processes; a launched example runs 2 to 4"),
        ("# launch: torchrun 16", "x.py:1: 16 processes; a launched example runs 2 to 4"),
        ("# launch: torchrun", "x.py:1: malformed marker '# launch: torchrun'"),
        ("# launch: torchrun 2\n# launch: mpiexec 2", "x.py:2: a second `launch` marker"),
    ],
)
def test_malformed_launch_markers_are_refused(marker, message):
    with pytest.raises(MarkerError) as caught:
        script_markers(marker + "\nprint(1)\n", "x.py")
    assert str(caught.value).startswith(message)


def test_launch_marker():
    markers = script_markers("# launch: mpiexec 3  # three ranks\n", "x.py")
    assert markers.launch == Launch("mpiexec", 3)
