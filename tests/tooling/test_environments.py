"""Verification environments and their expected outputs: the definitions are read and
checked, each environment's outputs are compared and recorded apart from the others', and
the pages show a note where they differ."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from verified.environments import UnknownEnvironment, by_name, environments, resolve
from verified.examples import collect
from verified.expected import (
    ExpectedOutputError,
    differences,
    load_expected,
    printed_by_print,
    rewrite_outputs,
    write_expected,
)
from verified.runner import Target, check_environment
from verified_site.version_notes import VersionNotes

SCRIPT = """\
import numpy as np

# --8<-- [start:part]
print(np.float32(1) + np.float64(1.0))
#> 2.0
for n in range(2):
    print(n)
    #> 0
    #> 1
# --8<-- [end:part]
print("same")
#> same
"""
PRINT = ("print(np.float32(1) + np.float64(1.0))", 0)


def test_the_default_environment_comes_first_and_others_follow_the_naming_rule():
    found = environments()
    assert found[0].name == "default" and found[0].venv == ".venv"
    others = found[1:]
    assert others, "pyproject.toml names no second verification environment"
    assert all(
        e.venv == f".venv-{e.name}" and e.lock == f"requirements/{e.name}.txt" for e in others
    )


def test_a_bad_definition_names_the_table(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.verification]\nenvironments = ["x"]\n')
    with pytest.raises(UnknownEnvironment, match=r"\[tool.verification\].*'default' first"):
        environments(tmp_path)


def test_an_unknown_name_lists_the_known_ones():
    with pytest.raises(UnknownEnvironment, match="there are: default, "):
        by_name("nope")


def test_naming_an_environment_this_python_is_not_says_which_python_to_use():
    other = environments()[1]
    with pytest.raises(UnknownEnvironment, match=rf"run it with \.venv-{other.name}/bin/python"):
        resolve(other.name)


def test_lock_files_pin_the_libraries_that_tell_environments_apart():
    default, other = environments()[:2]
    assert default.pinned_versions()["torch"] != other.pinned_versions()["torch"]
    assert other.missing(["torchvision", "numpy", "json"]) == ["torchvision"]


def _example(tmp_path, text=SCRIPT):
    (tmp_path / "examples").mkdir(exist_ok=True)
    (tmp_path / "examples" / "demo.py").write_text(text)
    (example,) = collect(tmp_path)
    return example


def _statements(*printed):
    """pytest-examples' print statements: (line, text) -> objects with line_no, sep, args."""
    return [SimpleNamespace(line_no=line, sep=None, args=[text]) for line, text in printed]


def test_another_environment_is_checked_against_its_own_outputs(tmp_path):
    example = _example(tmp_path)
    run = _statements((4, "2.0"), (7, "0"), (7, "1"), (11, "same"))
    target = Target("previous", "NumPy 1.26.4", {example.id: {PRINT: "2.0"}})
    assert check_environment(SimpleNamespace(update_examples=False), example, run, target) is None

    wrong = _statements((4, "2.0"), (11, "other"))
    message = check_environment(SimpleNamespace(update_examples=False), example, wrong, target)
    assert message.startswith("examples/demo.py:7: in environment previous (NumPy 1.26.4)")
    assert "2 prints differ" in message and "make update-examples ENV=previous" in message


def test_an_update_outside_the_default_environment_collects_only_differences(tmp_path):
    example = _example(tmp_path)
    run = _statements((4, "2.0 (float64)"), (11, "same"))  # the loop printed nothing
    target = Target("previous", "NumPy 1.26.4")
    check_environment(SimpleNamespace(update_examples=True), example, run, target)
    loop = ("print(n)", 0)
    assert target.updates == {example.id: {PRINT: "2.0 (float64)", loop: ""}}
    assert (tmp_path / "examples" / "demo.py").read_text() == SCRIPT  # the file is untouched


def test_outputs_are_written_and_read_back_and_rewrite_the_script(tmp_path):
    path = tmp_path / "verification" / "expected" / "previous.json"
    write_expected(path, "previous", {"examples/demo.py": {PRINT: "2.0"}, "gone.py": {}})
    assert load_expected(path) == {"examples/demo.py": {PRINT: "2.0"}}
    assert json.loads(path.read_text())["environment"] == "previous"
    rewritten = rewrite_outputs(SCRIPT, {PRINT: "3.0\n4.0", ("print(n)", 0): ""})
    assert '    """' not in rewritten and '"""\n3.0\n4.0\n"""' in rewritten
    assert "#> 0" not in rewritten and "#> same" in rewritten


def test_differences_compare_with_the_file():
    printed, elsewhere = printed_by_print(SCRIPT, [(4, "2.0"), (7, "0"), (7, "1"), (11, "changed")])
    assert elsewhere == []
    assert differences(SCRIPT, printed) == {('print("same")', 0): "changed"}


@pytest.mark.parametrize("text", ["{", '{"schema": 1, "examples": {"a.py": [{"print": 1}]}}'])
def test_a_broken_expected_output_file_names_itself_and_the_command(tmp_path, text):
    path = tmp_path / "previous.json"
    path.write_text(text)
    with pytest.raises(
        ExpectedOutputError, match=r"previous.json.*make update-examples ENV=previous"
    ):
        load_expected(path)


def test_a_note_shows_each_environment_where_a_block_prints_differently(tmp_path):
    _example(tmp_path)
    other = environments()[1].name
    expected = tmp_path / "verification" / "expected" / f"{other}.json"
    write_expected(expected, other, {"examples/demo.py": {PRINT: "2.0 (float64)"}})
    notes = VersionNotes(tmp_path)
    page = (
        '# T\n\n=== "NumPy"\n\n    ```python\n    --8<-- "examples/demo.py:part"\n    ```\n\nEnd.\n'
    )
    zh, en = notes.insert(page, "zh"), notes.insert(page, "en")
    assert '    !!! info version-change "输出因版本而异"' in zh
    assert '    !!! info version-change "Changed between versions"' in en
    labels = list(notes.labels.values())
    assert f'```text title="{labels[0]}" hl_lines="1"' in en
    assert f'```text title="{labels[1]}" hl_lines="1"' in en and "2.0 (float64)" in en
    # Where every environment prints the same, nothing is added.
    whole = '# T\n\n```python\n--8<-- "examples/demo.py"\n```\n'
    write_expected(expected, other, {})
    assert VersionNotes(tmp_path).insert(whole, "en") == whole


def test_output_that_a_block_cannot_hold_is_refused_in_another_environment(tmp_path):
    example = _example(tmp_path)
    run = _statements((4, 'C:\\tmp\n"""'), (7, "0"), (7, "1"), (11, "same"))
    target = Target("previous", "NumPy 1.26.4")
    message = check_environment(SimpleNamespace(update_examples=True), example, run, target)
    assert message.startswith("examples/demo.py:4: in environment previous, this print's output")
    assert target.updates == {}


def test_an_empty_separator_is_kept_outside_the_default_environment(tmp_path):
    example = _example(tmp_path, 'print(1, 2, sep="")\n#> 12\n')
    run = [SimpleNamespace(line_no=1, sep="", args=["1", "2"])]
    target = Target("previous", "NumPy 1.26.4")
    assert check_environment(SimpleNamespace(update_examples=False), example, run, target) is None


def test_printing_from_a_line_that_is_no_print_call_fails(tmp_path):
    example = _example(tmp_path, "import numpy as np\nnp.info(np.add)\n")
    run = [SimpleNamespace(line_no=2, sep=None, args=["add(x1, x2, ...)"])]
    message = check_environment(
        SimpleNamespace(update_examples=True), example, run, Target("previous", "NumPy 1.26.4")
    )
    assert message.startswith("examples/demo.py:2: in environment previous, something printed")


def test_a_page_block_must_print_the_same_everywhere(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# P\n\n```python\nprint(1)\n#> 1\n```\n")
    (example,) = collect(tmp_path)
    run = [SimpleNamespace(line_no=1, sep=None, args=["2"])]
    message = check_environment(
        SimpleNamespace(update_examples=True), example, run, Target("previous", "NumPy 1.26.4")
    )
    assert "docs/page.md:4: in environment previous, this block prints something other" in message


def test_a_note_labels_an_environment_this_build_did_not_verify(tmp_path):
    _example(tmp_path)
    other = environments()[1].name
    expected = tmp_path / "verification" / "expected" / f"{other}.json"
    write_expected(expected, other, {"examples/demo.py": {PRINT: "2.0 (float64)"}})
    page = '# T\n\n```python\n--8<-- "examples/demo.py:part"\n```\n'
    notes = VersionNotes(tmp_path)
    en = notes.insert(page, "en", verified={"default"})
    assert f'title="{notes.labels[other]} (not verified in this build)"' in en
    assert f'title="{notes.labels["default"]}"' in en
