"""CUDA examples on a machine without CUDA: `make test-gpu` (the engine's own run, with
`-m cuda --environment gpu`) records a run on a GPU machine; the suite checks the examples
against it, writes their output in update mode, and never counts an example whose code
changed since that run.

No GPU is needed: the run is made here with `--allow-no-cuda` and its device is then
set by hand to a CUDA name, which is exactly what the suite may not take on trust
from a real CPU run (tested too).
"""

from __future__ import annotations

import json

from tests.tooling.stage import run_examples_stage

SCRIPT = """\
# requires: cuda
value = 2 + 2
print("sum", value)
print("product", value * value)
"""


def _gpu_run(content, *args: str):
    """`make test-gpu`, here on the CPU: the CUDA examples only, in environment `gpu`."""
    return run_examples_stage(content, "-m", "cuda", "--environment", "gpu", *args)


def _content_with_run(content, device: str = "cuda (Test GPU)"):
    demo = content / "examples" / "demo"
    demo.mkdir()
    (demo / "gpu.py").write_text(SCRIPT)
    out = content / "verification" / "gpu-run.json"
    out.parent.mkdir(exist_ok=True)
    result = _gpu_run(content, "--allow-no-cuda", "--record", str(out))
    # No `#>` lines yet: the output differs from the file, and the run records what printed.
    assert result.returncode == 1, result.stdout
    record = json.loads(out.read_text())
    record["environments"]["gpu"]["environment"]["device"] = device
    out.write_text(json.dumps(record))
    return demo / "gpu.py", out


def test_without_cuda_the_gpu_run_refuses_to_run(content):
    (content / "examples" / "gpu.py").write_text(SCRIPT)
    (content / "examples" / "cpu.py").write_text('print("cpu")\n#> cpu\n')
    out = content / "run.json"
    result = _gpu_run(content, "--record", str(out))
    assert result.returncode == 1
    assert "the GPU run (--environment gpu) needs a CUDA device" in result.stdout, result.stdout
    (entry,) = json.loads(out.read_text())["environments"]["gpu"]["examples"]  # CUDA only
    assert (entry["status"], entry["reason"]) == ("failed", "failed-in-setup")


def test_gpu_run_writes_outputs_then_verifies_them(content):
    script, _ = _content_with_run(content)

    result = run_examples_stage(content, "--update-examples")
    assert result.returncode == 0, result.stdout
    # Two prints: writing the first one's output moves the second; it is matched by order.
    assert (
        script.read_text()
        == SCRIPT.replace('print("sum", value)\n', 'print("sum", value)\n#> sum 4\n')
        + "#> product 16\n"
    )

    record_path = content / "record.json"
    result = run_examples_stage(content, "--record", str(record_path))
    assert result.returncode == 0, result.stdout
    (entry,) = json.loads(record_path.read_text())["environments"]["default"]["examples"]
    assert entry["status"] == "passed", entry
    assert entry["device"] == "cuda (Test GPU)"
    assert entry["gpu_run"][:4].isdigit()


def test_code_changed_since_the_gpu_run_is_not_verified(content):
    script, _ = _content_with_run(content)
    script.write_text(SCRIPT.replace("2 + 2", "2 + 3") + "#> sum 4\n")

    result = run_examples_stage(content, "-rs")
    assert result.returncode == 0, result.stdout
    assert "needs CUDA; its code changed since the GPU run of" in result.stdout, result.stdout


def test_a_cpu_run_is_not_taken_as_verification(content):
    _content_with_run(content, device="cpu")
    result = run_examples_stage(content, "-rs")
    assert "needs CUDA; this run had no CUDA device and no GPU run verified it" in result.stdout


def test_an_error_in_the_gpu_run_fails_with_file_and_line(content):
    demo = content / "examples" / "demo"
    demo.mkdir()
    (demo / "gpu.py").write_text(SCRIPT + "raise RuntimeError('CUDA error: out of memory')\n")
    out = content / "verification" / "gpu-run.json"
    out.parent.mkdir(exist_ok=True)
    _gpu_run(content, "--allow-no-cuda", "--record", str(out))
    record = json.loads(out.read_text())
    record["environments"]["gpu"]["environment"]["device"] = "cuda (Test GPU)"
    out.write_text(json.dumps(record))

    result = run_examples_stage(content)
    assert result.returncode == 1, result.stdout
    assert (
        "examples/demo/gpu.py:5: raised RuntimeError: CUDA error: out of memory in the GPU run"
        in result.stdout
    ), result.stdout


def test_a_broken_gpu_run_file_is_named_and_spares_cpu_examples(content):
    (content / "examples" / "gpu.py").write_text(SCRIPT)
    (content / "examples" / "cpu.py").write_text('print("cpu")\n#> cpu\n')
    (content / "verification").mkdir()
    run_file = content / "verification" / "gpu-run.json"
    run_file.write_text(
        '{"schema": 3, "environments": {"gpu": {"created": "x", "environment": {}, '
        '"sources": {}, "summary": {}, "examples": [{"id": "examples/gpu.py"}]}}}'
    )
    result = run_examples_stage(content)
    assert result.returncode == 1
    assert "1 failed, 1 passed" in result.stdout, result.stdout  # the CPU example still runs
    assert (
        "gpu-run.json: not a verification record of schema 3 (environments.gpu.examples[0]: "
        "the field 'source' is missing)"
    ) in result.stdout, result.stdout
    run_file.write_text('{"schema": 3, "created"')
    result = run_examples_stage(content)
    assert "gpu-run.json: not valid JSON (" in result.stdout, result.stdout
    assert "write it again with `make test-gpu`" in result.stdout, result.stdout
