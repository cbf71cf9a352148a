"""The runner fails each mistake of an example at its file and line, and its pytest-examples
adaptations (runner.py's docstring) hold."""

from __future__ import annotations

import pytest

# A printed object whose str() spans lines and is valid Python: pytest-examples re-formatted
# it with black; its own spacing must be kept, as for a torch tensor. The second block raises:
# pytest-examples' frames crashed pytest (adaptation 1 of runner.py's docstring).
PAGE = '''\
# Demo

```python
class Grid:
    def __str__(self):
        return "grid([[  1., 100.,   1.],\\n      [  1.,   1.,   1.]])"


print(Grid())
"""
grid([[  1., 100.,   1.],
      [  1.,   1.,   1.]])
"""
```

```python
values = [1, 2]
raise ValueError(f"boom {values}")
```
'''
WRONG = "import math\n\nprint(math.prod([1, 3]))\n#> 4\n"
LONG = "print('x' * 60, 'y' * 60)\n" + '"""\n' + "x" * 60 + " " + "y" * 60 + '\n"""\n'


def test_each_example_is_recorded_and_fails_alone_with_its_location(project):
    project.write({"docs/demo.md": PAGE, "examples/demo/wrong.py": WRONG, "examples/long.py": LONG})
    project.write({"examples/gpu.py": '# requires: cuda\nprint("on the GPU")\n'})
    project.write({"examples/get.py": "# not-run: downloads a dataset\nraise SystemExit\n"})
    result = project.run("--record", "build/record.json")
    assert result.ret == 1 and "INTERNALERROR" not in result.out
    result.assert_outcomes(failed=2, passed=2, skipped=2)  # the grid and the long print matched
    assert "examples/demo/wrong.py:4: printed output differs" in result.out
    assert "\n  -#> 4\n  +#> 3\n" in result.out  # the diff, at the file's lines
    assert "run `make update-examples EXAMPLE=examples/demo/wrong.py`" in result.out
    assert "docs/demo.md:18: example raised ValueError: boom [1, 2]" in result.out
    assert "not verified: examples/gpu.py: needs CUDA" in result.out
    assert "not verified: examples/get.py: not run: downloads a dataset" in result.out
    record = project.record()
    assert {key: entry["status"] for key, entry in record.items() if key != "run"} == {
        "docs/demo.md:4": "passed",
        "docs/demo.md:17": "failed",
        "examples/demo/wrong.py": "failed",
        "examples/long.py": "passed",
        "examples/gpu.py": "not-verified",
        "examples/get.py": "not-verified",
    }
    wrong, raised = record["examples/demo/wrong.py"], record["docs/demo.md:17"]
    assert (wrong["reason"], wrong["printed"]) == (
        "wrong-output",
        [{"print": 0, "line": 3, "text": "3"}],
    )
    assert raised["details"] == {"error": "ValueError: boom [1, 2]", "line": 18}
    gpu, get = record["examples/gpu.py"], record["examples/get.py"]
    assert (gpu["reason"], get["reason"], get["details"]) == (
        "needs-cuda",
        "not-run",
        {"note": "downloads a dataset"},
    )


MISTAKES = {  # file -> (source, the start of its message)
    "exits.py": ("import sys\n\nsys.exit(3)\n", "exits.py:3: example raised SystemExit: 3"),
    "syntax.py": ("x = 1\nprint(x +)\n", "syntax.py:2: example raised SyntaxError: invalid syntax"),
    "nested.py": (
        "def inner():\n    raise RuntimeError('deep')\n\n\ninner()\n",
        "nested.py:2: example raised RuntimeError: deep",
    ),
    "quotes.py": ('print(\'a\\n"""\\nb\')\n', 'quotes.py:1: this print\'s output contains """'),
    "multiline.py": ('print("a",\n      1)\n', "multiline.py:1: this print() call spans several"),
    "eol.py": ("print(1)\n#> 1", "eol.py: the output matches, but line endings differ"),
    # Output under something other than a print that ran: a bare expression, a print that
    # never ran, a block under a bare x.
    "repl.py": ("x = 41 + 1\nx\n#> 43\nprint(x)\n#> 42\n", "repl.py:3: this output is not under"),
    "branch.py": ('if False:\n    print("a")\n    #> a\n', "branch.py:3: this output is not under"),
    "block.py": (
        '"""Doc."""\n\nx = [3]\nx\n"""\n[3]\n"""\n',
        "block.py:5: this output is not under",
    ),
    "network.py": (
        'import socket\n\nsocket.create_connection(("127.0.0.1", 9))\n',
        "network.py:3: example raised pytest_socket.SocketBlockedError",
    ),
}
#: Output forms that must pass.
FORMS = (
    "print('a', 'b', sep=None)\n#> a b\n"  # sep=None means a space
    "print('x')\n#> x   \n"  # trailing spaces in the written output are not compared
    'print("line one\\n#> not a comment")\n"""\nline one\n#> not a comment\n"""\n'
    "print({8, 1})\n#> {8, 1}\n"  # str() exactly: no sorted sets, no masked addresses
    "class At:\n    def __str__(self):\n        return '<at 0x7f00000000ab>'\n\n\n"
    "print(At())\n#> <at 0x7f00000000ab>\n"
)


def test_each_mistake_fails_at_its_line_and_right_output_passes(project):
    outside = project.path / "examples" / "written.txt"
    # The current directory is a temporary one: writing there is allowed.
    writes = f'open("inside.txt", "w").close()\nopen({str(outside)!r}, "w")\n'
    written = "writes.py:2: example raised PermissionError: examples may write only"
    mistakes = {**MISTAKES, "writes.py": (writes, written)}
    project.write({f"examples/{name}": source for name, (source, _) in mistakes.items()})
    project.write({"examples/forms.py": FORMS})
    result = project.run()
    result.assert_outcomes(failed=len(mistakes), passed=1)
    for _, message in mistakes.values():
        assert f"examples/{message}" in result.out
    assert "Examples must not reach the network" in result.out
    assert not outside.exists()


def test_update_mode_writes_what_printed_once(project):
    loop = "for n in range(2):\n    print(n)\n"  # a line per run, indented to the print
    # Runs that do not all fit on `#>` lines: one block under the print, read back as one.
    wide = "for n in (1, 120):\n    print('x' * n)\n"
    page = "# P\n\n- A list item:\n\n    ```python\n    print(1 + 1)\n    #> 3\n    ```\n"
    project.write({"examples/fix_me.py": WRONG, "examples/blank.py": "print()\n" + loop})
    project.write({"examples/wide.py": wide})
    project.write({"docs/page.md": page})  # pytest-examples writes the block back, indented
    for _ in range(2):  # a second update must not add another output line
        assert project.run("--update-examples").ret == 0
    assert project.read("examples/fix_me.py") == WRONG.replace("#> 4", "#> 3")
    assert project.read("docs/page.md") == page.replace("#> 3", "#> 2")
    assert project.read("examples/blank.py") == "print()\n#>\n" + loop + "    #> 0\n    #> 1\n"
    assert project.read("examples/wide.py") == wide + f'    """\n    x\n    {"x" * 120}\n    """\n'
    assert project.run().ret == 0


def test_update_mode_names_an_output_no_print_writes_any_more(project):
    # A library that stops raising: the print under `except` no longer runs, and its output
    # stays in the file; the update fails at its line instead of leaving it to the next run.
    stale = "try:\n    pass\nexcept ValueError as err:\n    print(err)\n    #> boom\n"
    stale += "print(2)\n#> 1\n"
    project.write({"examples/stale.py": stale})
    result = project.run("--update-examples")
    assert result.ret == 1 and "stale.py:5: this output is not under a print() call" in result.out
    assert project.read("examples/stale.py") == stale.replace("#> 1", "#> 2")


def test_one_example_is_selected_by_its_script_section_page_or_block(project):
    in_section = "# --8<-- [start:product]\n" + WRONG + "# --8<-- [end:product]\n"
    project.write({"docs/demo.md": PAGE, "examples/a.py": in_section, "examples/b.py": WRONG})
    assert project.run("--update-examples", "--example", "examples/a.py:product").ret == 0
    assert project.read("examples/a.py") == in_section.replace("#> 4", "#> 3")
    assert project.read("examples/b.py") == WRONG  # not selected: not rewritten
    project.run("--example", "examples/a.py").assert_outcomes(passed=1)
    project.run("--example", "docs/demo.md").assert_outcomes(passed=1, failed=1)
    project.run("--example", "docs/demo.md:4").assert_outcomes(passed=1)
    for wanted, message in (
        ("examples/c.py", "no example is examples/c.py; name a script"),
        ("examples/a.py:sum", "examples/a.py has no section or block 'sum' (it has: product)"),
        ("docs/demo.md:3", "docs/demo.md has no section or block '3' (it has: 17, 4)"),
    ):
        result = project.run("--example", wanted)
        assert result.ret == pytest.ExitCode.USAGE_ERROR
        assert f"--example {wanted}: {message}" in result.stderr.str()


def test_malformed_markers_are_all_reported_before_anything_runs(project):
    project.write({"docs/p.md": '# P\n\n```python not-run=""\nprint(1)\n```\n'})
    project.write({"examples/gpu.py": "# Requires: cuda\n", "examples/tpu.py": "# requires: tpu\n"})
    launches = {  # file -> (its launch markers, the message); a trailing comment is allowed
        "slurm": ("# launch: slurm 2  # a cluster", ":1: unknown launcher 'slurm'; known: torch"),
        "one": ("# launch: torchrun 1", ":1: 1 processes; a launched example runs 2 to 4"),
        "many": ("# launch: torchrun 16", ":1: 16 processes; a launched example runs 2 to 4"),
        "bare": ("# launch: torchrun", ":1: malformed marker '# launch: torchrun'"),
        "twice": ("# launch: torchrun 2\n# launch: mpiexec 2", ":2: a second `launch` marker"),
        "gpus": ("# launch: mpiexec 2\n# requires: cuda", ": `launch` with `requires: cuda`"),
        "python": ("# launch: python 2", ":1: `launch: python` starts one process"),
    }
    project.write({f"examples/{name}.py": marker + "\n" for name, (marker, _) in launches.items()})
    messages = (
        "docs/p.md:3: `not-run` needs a reason",
        "examples/gpu.py:1: malformed marker '# Requires: cuda'",
        "examples/tpu.py:1: unknown requirement tpu",
        *(f"examples/{name}.py{message}" for name, (_, message) in launches.items()),
    )
    result = project.run()
    assert result.ret != 0 and "cannot collect the examples" in result.out
    assert all(message in result.out for message in messages) and "Traceback" not in result.out
    result = project.run("--record", "build/record.json")  # refused as the session starts
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert all(message in result.stderr.str() for message in messages)
    assert not (project.path / "build").exists()


def test_keyboard_interrupt_stops_the_session_and_leaves_examples_unverified(project):
    project.write(
        {"examples/a.py": "raise KeyboardInterrupt\n", "examples/b.py": "print(1)\n#> 1\n"}
    )
    result = project.run("--record", "build/record.json")
    assert result.ret == 2, result.out
    assert "interrupted (KeyboardInterrupt) while an example ran" in result.out
    for entry in (project.record()["examples/a.py"], project.record()["examples/b.py"]):
        assert (entry["status"], entry["reason"]) == ("not-verified", "unfinished")
