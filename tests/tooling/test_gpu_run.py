"""CUDA examples on a machine without CUDA: `make test-gpu` (verified.gpu_run) records a
run on a GPU machine; the suite checks the examples against it, writes their output
in update mode, and never counts an example whose code changed since that run.

No GPU is needed: the run is made here with `--allow-no-cuda` and its device is then
set by hand to a CUDA name, which is exactly what the suite may not take on trust
from a real CPU run (tested too).
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.tooling.stage import run_examples_stage
from verified.paths import REPO_ROOT

SCRIPT = """\
# requires: cuda
value = 2 + 2
print("sum", value)
print("product", value * value)
"""


def _gpu_run(content, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "verified.gpu_run", "--root", str(content), *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"PATH": "/usr/bin:/bin", "CUDA_VISIBLE_DEVICES": ""},
    )


def _content_with_run(content, device: str = "cuda (Test GPU)"):
    demo = content / "examples" / "demo"
    demo.mkdir()
    (demo / "gpu.py").write_text(SCRIPT)
    out = content / "verification" / "gpu-run.json"
    result = _gpu_run(content, "--allow-no-cuda", "--out", str(out))
    assert result.returncode == 1, result.stdout + result.stderr  # a CPU run is never a pass
    assert "GPU run: 1 examples" in result.stdout, result.stdout
    run = json.loads(out.read_text())
    run["environment"]["device"] = device
    out.write_text(json.dumps(run))
    return demo / "gpu.py", out


def test_without_cuda_the_tool_refuses_to_run(content):
    (content / "examples" / "gpu.py").write_text(SCRIPT)
    result = _gpu_run(content, "--out", str(content / "run.json"))
    assert result.returncode == 1
    assert "sees no CUDA device: nothing to verify" in result.stderr, result.stderr
    assert not (content / "run.json").exists()


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
    _gpu_run(content, "--allow-no-cuda", "--out", str(out))
    run = json.loads(out.read_text())
    run["environment"]["device"] = "cuda (Test GPU)"
    out.write_text(json.dumps(run))

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
        '{"schema": 1, "created": "x", "environment": {"device": "cuda (G)"}, '
        '"examples": [{"source": "examples/gpu.py", "fingerprint": "f"}]}'
    )
    result = run_examples_stage(content)
    assert result.returncode == 1
    assert "1 failed, 1 passed" in result.stdout, result.stdout  # the CPU example still runs
    assert "gpu-run.json: not a GPU run of schema 1: examples[0].statements is missing" in (
        result.stdout
    ), result.stdout
    run_file.write_text('{"schema": 1, "created"')
    result = run_examples_stage(content)
    assert "(invalid JSON at line 1, column 24)" in result.stdout, result.stdout
