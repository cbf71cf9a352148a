"""Multi-process examples: started by torchrun or mpiexec, checked like any example, and
failing with the file, line and rank when a process raises, prints out of turn or hangs.

The tiny project's pytest runs in this process, as in the other engine tests; only the
launched processes are real (torchrun's import torch, mpiexec's import mpi4py).
"""

from __future__ import annotations

import subprocess
import time

import pytest

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

# Rank 1 exits while rank 0 waits for it: MPI must end the job at once, not time out.
MPI_RANK_EXITS = """\
# launch: mpiexec 2
import sys

from mpi4py import MPI

if MPI.COMM_WORLD.Get_rank() == 1:
    sys.exit(3)
MPI.COMM_WORLD.Barrier()
"""

HANGS = """\
# launch: mpiexec 2
import time

time.sleep(600)
"""

TORCHRUN_HANGS = """\
# launch: torchrun 2
import os
import time

if os.environ["RANK"] == "1":
    time.sleep(600)
"""


def test_launched_examples_pass_fail_at_their_line_and_rank_and_update(project, monkeypatch):
    monkeypatch.setenv("EXAMPLES_LAUNCH_TIMEOUT", "90")  # a regression fails, not hangs
    project.write(
        {
            "examples/gloo_sum.py": GLOO_SUM,
            "examples/mpi_sum.py": MPI_SUM + "    #> sum 4\n",  # wrong: the sum is 3
            "examples/rank_raises.py": RANK_RAISES,
            "examples/every_rank_prints.py": EVERY_RANK_PRINTS,
            "examples/rank_exits.py": MPI_RANK_EXITS,
        }
    )
    result = project.run()
    result.assert_outcomes(failed=4, passed=1)  # gloo_sum.py passes: 2 processes, real gloo
    assert "examples/mpi_sum.py:8: printed output differs" in result.out
    assert "    #> sum 3" in result.out
    assert "examples/rank_raises.py:5: rank 1 raised ValueError: rank one broke" in result.out
    assert "examples/every_rank_prints.py:4: rank 1 printed; only rank 0 may print" in result.out
    assert "examples/rank_exits.py:7: rank 1 raised SystemExit: 3" in result.out
    assert "did not finish" not in result.out  # MPI_Abort ended the job; no timeout

    # Update mode writes what rank 0 printed, under the print.
    project.write({"examples/mpi_sum.py": MPI_SUM})
    assert project.run("--update-examples", "-k", "mpi_sum").ret == 0
    assert project.read("examples/mpi_sum.py") == MPI_SUM + "    #> sum 3\n"


@pytest.mark.parametrize(
    ("launcher", "script"),
    [("mpiexec", HANGS), ("torchrun", TORCHRUN_HANGS)],
    ids=["mpiexec", "torchrun"],
)
def test_a_hanging_run_is_killed_named_and_leaves_no_process(
    project, monkeypatch, launcher, script
):
    monkeypatch.setenv("EXAMPLES_LAUNCH_TIMEOUT", "6")
    project.write({"examples/hangs.py": script})
    result = project.run()
    result.assert_outcomes(failed=1)
    assert (
        f"examples/hangs.py: {launcher} with 2 processes did not finish in 6 s and was killed"
        in result.out
    )
    assert "Is there a collective" in result.out
    # Killed processes take a moment to go, the more so on a loaded machine: a process still
    # there after 15 s was left running.
    deadline = time.monotonic() + 15
    while (left := _processes_of(project)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, f"processes left running: {left}"


def _processes_of(project) -> str:
    """The ids of the running processes that capture an example of `project`, one per line."""
    pattern = f"verified.capture.*{project.path.name}"
    return subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout
