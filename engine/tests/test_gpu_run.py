"""CUDA examples on a machine without CUDA: the GPU run records them on a GPU machine; the suite
checks them against it, writes their output in update mode, and never counts an example whose
code changed since that run. The tiny project's GPU run says, through its own `run_device`
fixture, that it ran on a CUDA device.
"""

from __future__ import annotations

import json

from verified.record import SCHEMA

SCRIPT = """\
# requires: cuda
value = 2 + 2
print("sum", value)
print("product", value * value)
"""
#: SCRIPT with its outputs written.
WRITTEN = (
    SCRIPT.replace('print("sum", value)\n', 'print("sum", value)\n#> sum 4\n') + "#> product 16\n"
)
#: Where the GPU run is committed, and read from.
RUN = "verification/gpu-run.json"


#: The GPU machine of these tests: the engine's `run_device` fixture, overridden.
ON_A_GPU = """

@pytest.fixture(scope="session")
def run_device():
    return {"device": "cuda", "gpu": "Test GPU"}
"""


def _gpu_run(project, script: str = SCRIPT) -> None:
    """Write the GPU run of `script`, on "Test GPU", to `RUN`."""
    project.write({"examples/demo/gpu.py": script, "examples/cpu.py": 'print("cpu")\n#> cpu\n'})
    conftest = project.read("tests/conftest.py")
    project.write({"tests/conftest.py": conftest + ON_A_GPU})
    result = project.run("-m", "cuda", "--environment", "gpu", "--record", RUN)
    project.write({"tests/conftest.py": conftest})  # this machine again: no CUDA
    # Without `#>` lines the output differs from the file; the run records what printed.
    assert result.ret == (0 if script == WRITTEN else 1), result.out


def test_without_cuda_the_gpu_run_refuses_to_run(project):
    project.write({"examples/gpu.py": SCRIPT, "examples/cpu.py": 'print("cpu")\n#> cpu\n'})
    result = project.run("-m", "cuda", "--environment", "gpu", "--record", RUN)
    assert result.ret == 1
    assert "the GPU run (--environment gpu) needs a CUDA device" in result.out
    (entry,) = json.loads(project.read(RUN))["environments"]["gpu"]["examples"]  # CUDA only
    assert (entry["status"], entry["reason"]) == ("failed", "failed-in-setup")


def test_gpu_run_writes_outputs_then_verifies_them_until_the_code_changes(project):
    _gpu_run(project)
    assert project.run("--update-examples").ret == 0
    # Two prints: writing the first one's output moves the second; it is matched by order.
    assert project.read("examples/demo/gpu.py") == WRITTEN
    result = project.run("--record", "build/record.json")
    result.assert_outcomes(passed=2)
    entry = project.record()["examples/demo/gpu.py"]
    assert (entry["status"], entry["device"], entry["gpu"]) == ("passed", "cuda", "Test GPU")
    assert entry["gpu_run"][:4].isdigit()
    assert project.record()["run"]["environment"]["device"] == "cpu"  # this machine's own

    project.write({"examples/demo/gpu.py": WRITTEN.replace("2 + 2", "2 + 3")})
    result = project.run("--record", "build/record.json")
    assert result.ret == 0, result.out
    assert "needs CUDA; its code changed since the GPU run of" in result.out
    entry = project.record()["examples/demo/gpu.py"]
    assert (entry["status"], entry["reason"]) == ("not-verified", "changed-since-gpu-run")
    # The same code, but the run's record says it ran on the CPU (made by hand, or elsewhere).
    project.write({"examples/demo/gpu.py": WRITTEN})
    record = json.loads(project.read(RUN))
    for place in (record["environments"]["gpu"], *record["environments"]["gpu"]["examples"]):
        fields = place.get("environment", place)
        fields["device"] = "cpu"
        fields.pop("gpu", None)
    project.write({RUN: json.dumps(record)})
    result = project.run("-rs")
    assert "needs CUDA; this run had no CUDA device and no GPU run verified it" in result.out


def test_an_error_in_the_gpu_run_fails_with_file_and_line(project):
    _gpu_run(project, SCRIPT + "raise RuntimeError('CUDA error: out of memory')\n")
    result = project.run()
    result.assert_outcomes(failed=1, passed=1)
    assert (
        "examples/demo/gpu.py:5: raised RuntimeError: CUDA error: out of memory in the GPU run"
        in result.out
    )


#: A run with nothing in it, and an example entry that lacks every field but its id.
EMPTY_RUN = {"created": "x", "environment": {}, "sources": {}, "summary": {}}
ENTRY = {"id": "examples/gpu.py"}


def test_a_broken_gpu_run_file_is_named_and_spares_cpu_examples(project):
    project.write(
        {
            "examples/gpu.py": SCRIPT,
            "examples/cpu.py": 'print("cpu")\n#> cpu\n',
            RUN: json.dumps(
                {"schema": SCHEMA, "environments": {"gpu": {**EMPTY_RUN, "examples": [ENTRY]}}}
            ),
        }
    )
    result = project.run()
    result.assert_outcomes(failed=1, passed=1)  # the CPU example still runs
    assert (
        "gpu-run.json: not a verification record of schema 4 (record.environments.gpu.examples[0] "
        "must contain ['details', 'line', 'reason', 'requires', 'seconds', 'source', 'status']"
    ) in result.out
    project.write({RUN: '{"schema": 3, "created"'})
    result = project.run()
    assert "gpu-run.json: not valid JSON (" in result.out
    assert "write it again with `make test-gpu`" in result.out
