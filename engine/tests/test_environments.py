"""Verification environments: the definitions are checked, and each environment's run is checked
against its own expected outputs, updated apart from the others', and not applicable where it
lacks a library."""

from __future__ import annotations

import pytest

from verified.environments import Environment, UnknownEnvironment, environments, resolve
from verified.expected import load_expected, write_expected
from verified.outputs import PrintKey, rewrite_outputs

SCRIPT = """\
import math

print(math.prod([2, 2]))
#> 5
for n in range(0):
    print(n)
    #> 0
print("same")
#> same
"""
PRINT, LOOP = PrintKey("", "print(math.prod([2, 2]))", 0), PrintKey("", "print(n)", 0)
EXPECTED = "verification/expected/previous.json"
PREVIOUS = ("--environment", "previous")


def test_the_environments_follow_the_naming_rule_and_a_bad_definition_names_the_table(project):
    default, other = environments()
    assert default == Environment("default", ".venv", "requirements/test.txt")
    assert other == Environment("previous", ".venv-previous", "requirements/previous.txt")
    assert resolve(None) == default  # recognised by the installed versions
    with pytest.raises(UnknownEnvironment, match="called 'nope'; there are: default, previous"):
        resolve("nope")
    project.write({"requirements/previous.txt": "numpy==1.26.3\ntorch==2.13.0\n"})
    with pytest.raises(UnknownEnvironment, match=r"run it with \.venv-previous/bin/python"):
        resolve("previous")  # it pins other versions than this Python has
    assert other.not_applicable(["torchvision", "numpy", "torch", "json"]) == ["torchvision"]
    project.write({"bad/pyproject.toml": '[tool.verification]\nenvironments = ["x"]\n'})
    with pytest.raises(UnknownEnvironment, match=r"\[tool.verification\].*'default' first"):
        environments(project.path / "bad")


def test_another_environment_is_updated_apart_and_checked_against_its_own_outputs(project):
    # The file's output is wrong for `previous` too: an update there collects the right one.
    project.write({"examples/demo.py": SCRIPT})
    write_expected(project.path / EXPECTED, "previous", {"examples/gone.py": {PRINT: "2"}})
    assert project.run(*PREVIOUS, "--update-examples").ret == 0
    # The loop printed nothing here; "same" printed what the file says; gone.py is gone.
    assert load_expected(project.path / EXPECTED) == {"examples/demo.py": {PRINT: "4", LOOP: ""}}
    assert project.read("examples/demo.py") == SCRIPT  # the file is untouched
    project.run(*PREVIOUS).assert_outcomes(passed=1)
    project.run().assert_outcomes(failed=1)  # the default checks the file
    # A wrong entry fails that environment's run, naming where the expectation came from.
    write_expected(
        project.path / EXPECTED, "previous", {"examples/demo.py": {PRINT: "6", LOOP: "7"}}
    )
    result = project.run(*PREVIOUS)
    result.assert_outcomes(failed=1)
    assert "examples/demo.py:3: in environment previous (NumPy 1.26.4), " in result.out
    assert "(2 prints differ)" in result.out
    assert "expected (from verification/expected/previous.json)" in result.out
    assert "make update-examples ENV=previous EXAMPLE=examples/demo.py" in result.out


def test_an_entry_that_says_what_the_file_says_fails_until_an_update_drops_it(project):
    # Recorded before the `#>` lines were written, an entry can equal them: it checks nothing, and
    # an update, which records what differs from the file, drops it; the run says so first.
    project.write({"examples/demo.py": SCRIPT})
    same, right = PrintKey("", 'print("same")', 0), {PRINT: "4", LOOP: ""}
    write_expected(
        project.path / EXPECTED, "previous", {"examples/demo.py": {**right, same: "same"}}
    )
    result = project.run(*PREVIOUS)
    result.assert_outcomes(failed=1)
    assert (
        "examples/demo.py:8: in environment previous (NumPy 1.26.4), verification/expected/"
        'previous.json holds for print("same") the output its #> lines already say'
    ) in result.out
    assert "make update-examples ENV=previous EXAMPLE=examples/demo.py" in result.out
    update = (*PREVIOUS, "--update-examples", "--example", "examples/demo.py")
    assert project.run(*update).ret == 0
    assert load_expected(project.path / EXPECTED) == {"examples/demo.py": right}
    project.run(*PREVIOUS).assert_outcomes(passed=1)  # and an update changes nothing now
    assert project.run(*update).ret == 0
    assert load_expected(project.path / EXPECTED) == {"examples/demo.py": right}


# In sections, as the site's scripts are: `previous` prints 4 where the file says 5.
SECTIONS = """\
import math

# --8<-- [start:first]
x = 1
print(x)
#> 1
# --8<-- [end:first]
# --8<-- [start:second]
x = math.prod([2, 2])
print(x)
#> 5
# --8<-- [end:second]
"""
#: Before the entry's print: a new section and a print in each section, one of them the same.
ADDED = {
    "import math\n": "# --8<-- [start:zeroth]\nx = 0\nprint(x)\n#> 0\n# --8<-- [end:zeroth]\n",
    "x = 1\n": "print(x)\n#> 1\n",
    "x = math.prod([2, 2])\n": "print(x + 1)\n#> 5\n",
}
STALE_CHECK = ("-k", "test_expected_outputs_belong_to_examples_that_exist")


def test_adding_prints_keeps_other_entries_and_a_stale_entry_is_reported(project):
    project.write({"examples/demo.py": SECTIONS, "examples/other.py": SCRIPT})
    assert project.run(*PREVIOUS, "--update-examples").ret == 0
    entry, other = PrintKey("second", "print(x)", 0), {PRINT: "4", LOOP: ""}
    assert load_expected(project.path / EXPECTED) == {
        "examples/demo.py": {entry: "4"},
        "examples/other.py": other,
    }
    added = SECTIONS
    for line, inserted in ADDED.items():
        added = added.replace(line, line + inserted)
    project.write({"examples/demo.py": added})
    project.run(*PREVIOUS).assert_outcomes(passed=2)  # the entry still holds its print
    project.run(*STALE_CHECK).assert_outcomes(passed=1)
    # The entry's print changed: the entry is stale, named with the command that re-records it.
    project.write({"examples/demo.py": added.replace("print(x)\n#> 5", "print(x + 0)\n#> 4")})
    result = project.run(*STALE_CHECK)
    result.assert_outcomes(failed=1)
    assert (
        "verification/expected/previous.json: examples/demo.py: print(x) (section second, "
        "occurrence 0); re-record it: make update-examples ENV=previous EXAMPLE=examples/demo.py"
    ) in result.out
    assert project.run(*PREVIOUS, "--update-examples", "--example", "examples/demo.py").ret == 0
    assert load_expected(project.path / EXPECTED) == {"examples/other.py": other}
    project.run(*STALE_CHECK).assert_outcomes(passed=1)


@pytest.mark.parametrize("text", ["{", '{"schema": 2, "examples": {"a.py": [{"print": 1}]}}'])
def test_a_broken_expected_output_file_names_itself_and_the_command(project, text):
    project.write({"examples/demo.py": SCRIPT, EXPECTED: text})
    result = project.run(*PREVIOUS)
    result.assert_outcomes(errors=1)
    assert "verification/expected/previous.json: " in result.out
    assert "delete it and run `make update-examples ENV=previous`" in result.out
    assert "Traceback" not in result.out  # the message alone, no chained exception


MISTAKES = {  # in another environment; file -> (source, message)
    "docs/page.md": (
        "# P\n\n```python\nprint(1)\n#> 2\n```\n",
        "docs/page.md:4: in environment previous (NumPy 1.26.4), this block prints something other",
    ),
    "examples/quotes.py": (
        'print(\'C:\\\\tmp\\n"""\')\n',
        "examples/quotes.py:1: in environment previous (NumPy 1.26.4), this print's output",
    ),
    "examples/alias.py": (
        'show = print\nshow("hidden")\n',
        "examples/alias.py:2: in environment previous (NumPy 1.26.4), something printed",
    ),
    "examples/raises.py": (
        "raise ValueError('old')\n",
        "examples/raises.py:1: in environment previous (NumPy 1.26.4), example raised ValueError",
    ),
}


def test_each_mistake_in_another_environment_fails_at_its_line(project):
    project.write({name: source for name, (source, _) in MISTAKES.items()})
    project.write({"examples/sep.py": 'print(1, 2, sep="")\n#> 12\n'})  # an empty sep is kept
    for args in (PREVIOUS, (*PREVIOUS, "--update-examples")):
        result = project.run(*args)
        result.assert_outcomes(failed=len(MISTAKES), passed=1)
        assert all(message in result.out for _, message in MISTAKES.values())
    assert load_expected(project.path / EXPECTED) == {}  # nothing of theirs is recorded


def test_missing_libraries_and_cuda_are_not_applicable_outside_the_default(project):
    project.write({"examples/vision.py": "import torchvision\n"})
    project.write({"examples/gpu.py": "# requires: cuda\nprint(1)\n"})
    result = project.run(*PREVIOUS, "--record", "build/record.json")
    assert "not applicable: examples/vision.py: needs torchvision, which environment previous" in (
        result.out
    )
    record = project.record(environment="previous")
    vision, gpu = record["examples/vision.py"], record["examples/gpu.py"]
    assert (vision["status"], vision["reason"]) == ("not-applicable", "needs-library")
    assert vision["details"] == {"libraries": ["torchvision"], "environment": "previous"}
    assert (gpu["status"], gpu["reason"]) == ("not-applicable", "cuda-verified-once")


def test_an_environments_outputs_rewrite_the_script():
    # Writing and reading them back: the update tests above.
    rewritten = rewrite_outputs(SCRIPT, {PRINT: "3.0\n4.0", LOOP: ""})
    assert '"""\n3.0\n4.0\n"""' in rewritten
    assert "#> 0" not in rewritten and "#> same" in rewritten


def test_the_canary_is_held_to_the_file_and_rewrites_it_in_update_mode(project):
    """`make canary`'s environment: nothing pinned, held to the `#>` lines (an outputs file of its
    own is ignored), which it rewrites in update mode (in a clone, whose diff is the report)."""
    canary = resolve("canary")
    assert canary.pinned_versions() == resolve(None).pinned_versions()
    assert (canary.baseline, canary.checks_file) == ("default", True)
    demo = "import math\n\nprint(math.prod([2, 2]))\n#> 5\n"
    project.write({"examples/demo.py": demo, "examples/same.py": 'print("same")\n#> same\n'})
    expected = {"examples/demo.py": {PRINT: "4"}}  # would make demo.py pass
    write_expected(project.path / "verification/expected/canary.json", "canary", expected)
    result = project.run("--environment", "canary", "--record", "build/record.json")
    result.assert_outcomes(failed=1, passed=1)
    entry = project.record(environment="canary")["examples/demo.py"]
    assert (entry["status"], entry["reason"]) == ("failed", "wrong-output")
    assert project.run("--environment", "canary", "--update-examples").ret == 0
    assert project.read("examples/demo.py") == demo.replace("#> 5", "#> 4")
