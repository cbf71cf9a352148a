"""The examples stage fails cleanly and precisely; its pytest-examples adaptations hold.

Each test writes examples into a temporary content tree and runs the real
examples stage on it in a subprocess, so nothing in the repository is touched.
"""

from __future__ import annotations

import json
import textwrap

import pytest_examples
from pytest_examples import run_code

from tests.tooling.stage import run_examples_stage
from verified import runner

TENSOR_PAGE = '''\
# Demo

```python
import torch

print(torch.tensor([[1.0, 100.0, 1.0], [1.0, 1.0, 1.0]]))
"""
tensor([[  1., 100.,   1.],
        [  1.,   1.,   1.]])
"""
```

```python
values = [1, 2]
raise ValueError(f"boom {values}")
```
'''

WRONG_SCRIPT = """\
import numpy as np

print(np.arange(3).sum())
#> 4
"""


def test_wrong_output_and_raising_example_fail_alone_with_their_location(content):
    (content / "docs" / "demo.md").write_text(TENSOR_PAGE)
    (content / "examples" / "demo").mkdir()
    (content / "examples" / "demo" / "wrong.py").write_text(WRONG_SCRIPT)
    record_path = content / "record.json"

    result = run_examples_stage(content, "--record", str(record_path))
    out = result.stdout

    assert result.returncode == 1, out
    assert "INTERNALERROR" not in out, out
    # The real multi-line tensor print matched: torch's spacing, not black's re-formatting.
    assert "2 failed, 1 passed" in out, out
    # Wrong `#>` output: script path and line, expected and actual.
    assert "examples/demo/wrong.py:4: printed output differs" in out, out
    assert "    #> 4" in out and "    #> 3" in out, out
    # Raising example: page path and the line that raised, type and message.
    assert "docs/demo.md:15: example raised ValueError: boom [1, 2]" in out, out

    record = json.loads(record_path.read_text())
    examples = record["environments"]["default"]["examples"]
    statuses = {entry["id"]: entry["status"] for entry in examples}
    assert statuses == {
        "docs/demo.md:4": "passed",
        "docs/demo.md:14": "failed",
        "examples/demo/wrong.py": "failed",
    }


def test_update_mode_rewrites_the_output_that_really_printed(content):
    script = content / "examples" / "fix_me.py"
    script.write_text(WRONG_SCRIPT)
    result = run_examples_stage(content, "--update-examples")
    assert result.returncode == 0, result.stdout
    assert script.read_text() == WRONG_SCRIPT.replace("#> 4", "#> 3")


def test_cuda_example_is_reported_not_verified_without_a_gpu(content):
    (content / "examples" / "gpu.py").write_text(
        textwrap.dedent(
            """\
            # requires: cuda
            import torch

            print(torch.ones(1, device="cuda"))
            """
        )
    )
    record_path = content / "record.json"
    result = run_examples_stage(content, "--record", str(record_path))
    assert result.returncode == 0, result.stdout
    assert "not verified: examples/gpu.py: needs CUDA" in result.stdout
    (entry,) = json.loads(record_path.read_text())["environments"]["default"]["examples"]
    assert (entry["status"], entry["reason"]) == ("not-verified", "needs-cuda")


def test_adaptations_target_the_pinned_pytest_examples():
    # The adaptations replace pytest-examples internals; an upgrade must re-check them.
    assert pytest_examples.__version__ == runner.PINNED_PYTEST_EXAMPLES
    upstream = runner.ExactPrintStatements.__bases__[0]
    for name in ("_insert_print_args", "check_print_statements", "updated_print_statements"):
        assert name in vars(upstream), f"pytest-examples no longer defines {name}"
    assert "create_example_traceback" in vars(run_code)
    assert "comment_prefix_re" in vars(run_code)
    runner.install()
    assert run_code.Arg is runner.ExactArg
    assert run_code.InsertPrintStatements is runner.ExactPrintStatements
    assert run_code.create_example_traceback is runner._no_fake_traceback
    assert run_code.comment_prefix_re is runner.OUTPUT_LINE


SURPRISES = {
    "exits.py": (
        "import sys\n\nsys.exit(3)\n",
        "examples/exits.py:3: example raised SystemExit: 3",
    ),
    "syntax.py": (
        "x = 1\ny = 2\nprint(x +)\n",
        "examples/syntax.py:3: example raised SyntaxError: invalid syntax",
    ),
    "nested.py": (
        "def inner():\n    raise RuntimeError('deep')\n\n\ninner()\n",
        "examples/nested.py:2: example raised RuntimeError: deep",
    ),
    "quotes.py": (
        'print(\'a\\n"""\\nb\')\n',
        'examples/quotes.py:1: this print\'s output contains """ or a backslash',
    ),
}


def test_exit_syntax_error_nested_raise_and_unwritable_output_fail_at_their_line(content):
    for name, (source, _) in SURPRISES.items():
        (content / "examples" / name).write_text(source)
    result = run_examples_stage(content)
    assert result.returncode == 1, result.stdout
    assert f"{len(SURPRISES)} failed" in result.stdout, result.stdout
    for _, expected in SURPRISES.values():
        assert expected in result.stdout, result.stdout


def test_empty_print_is_checked_and_updated_once(content):
    script = content / "examples" / "blank.py"
    script.write_text("print()\nprint('x')\n")
    for _ in range(2):  # a second update must not add another output line
        assert run_examples_stage(content, "--update-examples").returncode == 0
    assert script.read_text() == "print()\n#>\nprint('x')\n#> x\n"
    assert run_examples_stage(content).returncode == 0


def test_output_under_something_other_than_a_ran_print_fails(content):
    (content / "examples" / "repl.py").write_text(
        "x = 41 + 1\nx\n#> 43\nprint(x)\n#> 42\n"  # a REPL habit: bare expression
    )
    (content / "examples" / "branch.py").write_text(
        'if False:\n    print("never")\n    #> never\n'  # a print that never ran
    )
    (content / "examples" / "block.py").write_text(
        '"""Docstring."""\n\nx = [3, 4]\nx\n"""\n[3, 4]\n"""\n'  # a block under a bare x
    )
    result = run_examples_stage(content)
    assert result.returncode == 1, result.stdout
    for where in ("examples/repl.py:3", "examples/branch.py:3", "examples/block.py:5"):
        assert f"{where}: this output is not under a print() call" in result.stdout, where


def test_malformed_markers_are_all_reported_before_anything_runs(content):
    (content / "docs" / "p.md").write_text('# P\n\n```python not-run=""\nprint(1)\n```\n')
    (content / "examples" / "gpu.py").write_text("# Requires: cuda\nprint(1)\n")
    (content / "examples" / "tpu.py").write_text("# requires: tpu\nprint(1)\n")
    result = run_examples_stage(content)
    assert result.returncode != 0, result.stdout
    assert "cannot collect the examples" in result.stdout
    assert "docs/p.md:3: `not-run` needs a reason" in result.stdout
    assert "examples/gpu.py:1: malformed marker '# Requires: cuda'" in result.stdout
    assert "examples/tpu.py:1: unknown requirement tpu" in result.stdout
    assert "Traceback" not in result.stdout


def test_output_forms_that_must_pass(content):
    (content / "examples" / "forms.py").write_text(
        "print('a', 'b', sep=None)\n#> a b\n"  # sep=None means a space
        "print('x')\n#> x   \n"  # trailing spaces in the written output are not compared
        'print("line one\\n#> not a comment")\n"""\nline one\n#> not a comment\n"""\n'
    )
    result = run_examples_stage(content)
    assert result.returncode == 0, result.stdout


def test_keyboard_interrupt_stops_the_session_and_leaves_examples_unverified(content):
    (content / "examples" / "a_interrupt.py").write_text("raise KeyboardInterrupt\n")
    (content / "examples" / "b_later.py").write_text("print(1)\n#> 1\n")
    record_path = content / "record.json"
    result = run_examples_stage(content, "--record", str(record_path))
    assert result.returncode == 2, result.stdout
    assert "interrupted (KeyboardInterrupt) while an example ran" in result.stdout
    run = json.loads(record_path.read_text())["environments"]["default"]
    statuses = {e["id"]: e["status"] for e in run["examples"]}
    assert statuses == {
        "examples/a_interrupt.py": "not-verified",
        "examples/b_later.py": "not-verified",
    }


def test_missing_final_newline_is_named(content):
    (content / "examples" / "eol.py").write_text("print(1)\n#> 1")
    result = run_examples_stage(content)
    assert result.returncode == 1, result.stdout
    assert "examples/eol.py: the output matches, but line endings differ" in result.stdout


def test_network_and_writes_outside_a_temporary_directory_fail_at_their_line(content):
    (content / "examples" / "network.py").write_text(
        'import socket\n\nsocket.create_connection(("127.0.0.1", 9))\n'
    )
    outside = content / "examples" / "written.txt"
    (content / "examples" / "writes.py").write_text(
        "from pathlib import Path\n\n"
        'Path("inside.txt").write_text("ok")\n'  # the current directory is a temporary one
        f'open({str(outside)!r}, "w")\n'
    )
    result = run_examples_stage(content)
    assert result.returncode == 1, result.stdout
    assert "examples/network.py:3: example raised pytest_socket.SocketBlockedError" in result.stdout
    assert "Examples must not reach the network" in result.stdout
    assert "examples/writes.py:4: example raised PermissionError: examples may write only" in (
        result.stdout
    )
    assert not outside.exists()
