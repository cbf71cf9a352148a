"""Launched examples: started by torchrun or mpiexec (or alone: `launch: python 1`), checked
like any example, and failing with the file, line and rank when a process raises, prints out of
turn or hangs. The launched processes are real (torchrun's import torch, mpiexec's mpi4py).
"""

from __future__ import annotations

import os
import subprocess
import sys
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

# In a process of its own: what it changes for its process no later example inherits.
OWN_PROCESS = """\
# launch: python 1
import os
import sys

sys.own_process_mark = True
print("own process", os.getpid() != int(os.environ["TEST_WORKER_PID"]))
#> own process True
"""

#: Mistakes of launched examples: file -> (source, the start of its message). Rank 1 exits while
#: rank 0 waits for it in rank_exits.py: MPI must end the job at once, not time out.
MISTAKES = {
    "rank_raises.py": (
        "from mpi4py import MPI\n\nif MPI.COMM_WORLD.Get_rank() == 1:\n"
        '    raise ValueError("rank one broke")\n',
        "rank_raises.py:5: rank 1 raised ValueError: rank one broke",
    ),
    "every_rank_prints.py": (
        'from mpi4py import MPI\n\nprint("hello from", MPI.COMM_WORLD.Get_rank())\n',
        "every_rank_prints.py:4: rank 1 printed; only rank 0 may print",
    ),
    "rank_exits.py": (
        "import sys\n\nfrom mpi4py import MPI\n\nif MPI.COMM_WORLD.Get_rank() == 1:\n"
        "    sys.exit(3)\nMPI.COMM_WORLD.Barrier()\n",
        "rank_exits.py:7: rank 1 raised SystemExit: 3",
    ),
}


def test_launched_examples_pass_fail_at_their_line_and_rank_and_update(project, monkeypatch):
    monkeypatch.setenv("EXAMPLES_LAUNCH_TIMEOUT", "90")  # a regression fails, not hangs
    project.write(
        {
            "examples/gloo_sum.py": GLOO_SUM,
            "examples/mpi_sum.py": MPI_SUM + "    #> sum 4\n",
            "examples/own_process.py": OWN_PROCESS,
        }
    )
    monkeypatch.setenv("TEST_WORKER_PID", str(os.getpid()))
    project.write(
        {
            f"examples/{name}": f"# launch: mpiexec 2\n{source}"
            for name, (source, _) in MISTAKES.items()
        }
    )
    result = project.run()
    # gloo_sum.py passes: 2 processes, real gloo; own_process.py too, in a process of its own;
    # mpi_sum.py's output is wrong: the sum is 3.
    result.assert_outcomes(failed=1 + len(MISTAKES), passed=2)
    assert "examples/mpi_sum.py:8: printed output differs" in result.out
    assert "    #> sum 3" in result.out
    for _, message in MISTAKES.values():
        assert f"examples/{message}" in result.out
    assert "did not finish" not in result.out  # MPI_Abort ended the job; no timeout
    assert not hasattr(sys, "own_process_mark")  # not set in this process

    # Update mode writes what rank 0 printed, under the print.
    project.write({"examples/mpi_sum.py": MPI_SUM})
    assert project.run("--update-examples", "-k", "mpi_sum").ret == 0
    assert project.read("examples/mpi_sum.py") == MPI_SUM + "    #> sum 3\n"


@pytest.mark.parametrize(
    ("launcher", "script"),
    [
        ("mpiexec", "# launch: mpiexec 2\nimport time\n\ntime.sleep(600)\n"),
        (
            "torchrun",
            "# launch: torchrun 2\nimport os\nimport time\n\n"
            'if os.environ["RANK"] == "1":\n    time.sleep(600)\n',
        ),
    ],
    ids=["mpiexec", "torchrun"],
)
def test_a_hanging_run_is_killed_named_and_leaves_no_process(
    project, monkeypatch, launcher, script
):
    # Short: the processes are killed at the limit whether or not they have started.
    monkeypatch.setenv("EXAMPLES_LAUNCH_TIMEOUT", "3")
    project.write({"examples/hangs.py": script})
    result = project.run()
    result.assert_outcomes(failed=1)
    assert (
        f"examples/hangs.py: {launcher} with 2 processes did not finish in 3 s and was killed"
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
