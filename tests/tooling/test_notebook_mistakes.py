"""Notebooks: built from the example scripts, run in a kernel, refused with a message that
names the file and line or cell when a source or a run is wrong (verified_site.notebooks)."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from tests.tooling.sample import NOTEBOOK, SCRIPT, make_sample
from tests.tooling.stage import run_examples_stage
from tooling.checks import SOURCE_CHECKS
from verified_site import notebooks
from verified_site.notebooks import NotebookError, read_source

_URL = "https://example.invalid/blob/main/"


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """The sample site, with its notebook `notebooks/demo.md` showing `SCRIPT:part`."""
    return make_sample(tmp_path)


def _write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _notebook(root: Path, *blocks: str) -> Path:
    """A notebook source (Chinese) whose code cells embed the given targets, in order."""
    cells = "\n\n".join(f'```python\n--8<-- "{target}"\n```' for target in blocks)
    return _write(root, NOTEBOOK, f"# 笔记本\n\n开头。\n\n{cells}\n")


def _script(root: Path, name: str, body: str) -> str:
    _write(root, f"examples/numpy_torch/{name}.py", f'"""Test."""\n\n{body}')
    return f"examples/numpy_torch/{name}.py"


def _problems(root: Path) -> list[str]:
    return [problem for check in SOURCE_CHECKS for problem in check(root)]


def test_code_cells_are_the_sections_without_their_written_outputs(sample):
    source = read_source(sample / NOTEBOOK, sample)
    notebook = notebooks.build_notebook(source, sample)
    (code,) = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code.source == "total = 1 + 1\nprint(total)"
    fence = (sample / NOTEBOOK).read_text().splitlines().index("```python") + 1
    assert code.metadata["tensors_verified"] == {"from": f"{SCRIPT}:part", "line": fence}
    assert notebook.metadata["tensors_verified"]["scripts"] == [SCRIPT]


def test_sample_notebook_passes_every_source_check(sample):
    assert _problems(sample) == []


def test_run_fills_outputs_and_the_site_notebook_takes_them(sample, tmp_path):
    source = read_source(sample / NOTEBOOK, sample)
    executed = notebooks.execute(source, sample, tmp_path / "work")
    path = notebooks.executed_path(sample, source.slug)
    notebooks.write_executed(executed, path, {"python": "3.11.7", "numpy": "2.4.6"})
    site, run = notebooks.site_notebook(source, sample, path, _URL, "https://site.invalid/")
    assert run is not None
    code = [cell for cell in site.cells if cell.cell_type == "code"]
    assert code[0].outputs[0]["text"] == "2\n"
    about = site.cells[1].source  # below the title
    assert "Python 3.11.7" in about and '<a href="demo.ipynb" download>' in about
    assert f"[{SCRIPT}]({_URL}{SCRIPT})" in about
    # A link to a page's file becomes the page's address on the site.
    assert "](https://site.invalid/numpy-torch/page/)" in site.cells[2].source


def test_site_notebook_of_changed_code_has_no_outputs_and_says_so(sample, tmp_path):
    source = read_source(sample / NOTEBOOK, sample)
    path = notebooks.executed_path(sample, source.slug)
    notebooks.write_executed(notebooks.execute(source, sample, tmp_path / "w"), path, {})
    script = sample / SCRIPT
    script.write_text(script.read_text().replace("1 + 1", "2 + 0"), encoding="utf-8")
    site, run = notebooks.site_notebook(read_source(sample / NOTEBOOK, sample), sample, path, _URL)
    assert run is None
    assert all(not cell.outputs for cell in site.cells if cell.cell_type == "code")
    assert "本次构建没有运行这个笔记本" in site.cells[1].source


def test_cell_that_raises_names_the_source_line_the_cell_and_the_error(sample, tmp_path):
    broken = _script(sample, "broken", "# --8<-- [start:x]\nprint(1 / 0)\n# --8<-- [end:x]\n")
    _notebook(sample, f"{SCRIPT}:part", f"{broken}:x")
    with pytest.raises(NotebookError) as error:
        notebooks.execute(read_source(sample / NOTEBOOK, sample), sample, tmp_path / "w")
    message = str(error.value)
    assert f"{NOTEBOOK}:9: cell 3 ({broken}:x) failed" in message
    assert "ZeroDivisionError" in message


def test_sections_in_the_wrong_order_fail_with_the_cell_named(sample, tmp_path):
    uses = _script(
        sample,
        "two",
        "# --8<-- [start:define]\nvalue = 3\n# --8<-- [end:define]\n"
        "# --8<-- [start:use]\nprint(value)\n#> 3\n# --8<-- [end:use]\n",
    )
    _notebook(sample, f"{uses}:use", f"{uses}:define")
    with pytest.raises(NotebookError, match=rf"(?s){NOTEBOOK}:5: cell 2 \({uses}:use\).*NameError"):
        notebooks.execute(read_source(sample / NOTEBOOK, sample), sample, tmp_path / "w")


def test_output_other_than_the_script_says_is_refused(sample, tmp_path):
    wrong = _script(sample, "wrong", "# --8<-- [start:x]\nprint(2 + 2)\n#> 5\n# --8<-- [end:x]\n")
    _notebook(sample, f"{wrong}:x")
    with pytest.raises(NotebookError) as error:
        notebooks.execute(read_source(sample / NOTEBOOK, sample), sample, tmp_path / "w")
    assert f"{NOTEBOOK}:5: code cell 1 ({wrong}:x) printed" in str(error.value)
    assert "    5\n--- the notebook printed\n    4" in str(error.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('```python\nx = 1\n--8<-- "{script}:part"\n```\n', "{nb}:3: a code cell is a ```python"),
        ('```python\n--8<-- "{script}:nope"\n```\n', "{nb}:4: section 'nope' not found"),
        ('```python\n--8<-- "examples/gone.py:x"\n```\n', "{nb}:4: snippet file examples/gone.py"),
        (
            "See [a page](../docs/gone.md).\n",
            "{nb}:3: the link to ../docs/gone.md leads to no page",
        ),
        ('```python\n--8<-- "{script}:5:6"\n```\n', "{nb}:4: embed a named section"),
        ('```text\n--8<-- "{script}:part"\n```\n', "{nb}:3: this block embeds script sect"),
        ("## A part {{#a-part}}\n", "{nb}:3: remove `{{#a-part}}`"),
        ("[English](../docs/numpy-torch/page.en.md)\n", "leads to the en page, not the zh"),
        ("[x](../docs/numpy-torch/page.md#nope)\n", "names the anchor #nope, which docs/"),
        ("[x](../docs/numpy-torch/page/)\n", "is not a page's Markdown file"),
    ],
    ids=[
        "mixed-code-block",
        "missing-section",
        "missing-script",
        "dead-link",
        "line-range",
        "text-fence",
        "explicit-anchor",
        "other-language-page",
        "missing-anchor",
        "link-to-an-address",
    ],
)
def test_broken_source_fails_the_checks_and_the_build_naming_file_and_line(sample, text, expected):
    _write(sample, NOTEBOOK, "# 笔记本\n\n" + text.format(script=SCRIPT))
    wanted = expected.format(nb=NOTEBOOK)
    assert any(wanted in problem for problem in _problems(sample)), _problems(sample)


def test_script_that_needs_cuda_cannot_be_part_of_a_notebook(sample):
    cuda = _script(
        sample, "on_gpu", "# requires: cuda\n# --8<-- [start:x]\nx = 1\n# --8<-- [end:x]\n"
    )
    _notebook(sample, f"{cuda}:x")
    with pytest.raises(NotebookError, match=rf"{NOTEBOOK}:6: {cuda} cannot be part of a notebook"):
        read_source(sample / NOTEBOOK, sample)


def test_notebook_in_one_language_only_is_reported(sample):
    (sample / "notebooks/demo.en.md").unlink()
    assert any("notebooks/demo.md has no counterpart" in p for p in _problems(sample))


def test_failing_notebook_fails_the_examples_stage(sample):
    broken = _script(sample, "broken", "# --8<-- [start:x]\nprint(1 / 0)\n# --8<-- [end:x]\n")
    _notebook(sample, f"{broken}:x")
    run = run_examples_stage(sample, "-k", "notebook")
    assert run.returncode == 1, run.stdout
    assert f"{NOTEBOOK}:5: cell 2 ({broken}:x) failed" in run.stdout
    assert not (sample / "build/notebooks/executed/demo.ipynb").exists()


def test_passing_notebook_is_written_for_the_site(sample):
    run = run_examples_stage(sample, "-k", "notebook")
    assert run.returncode == 0, run.stdout
    written = json.loads((sample / "build/notebooks/executed/demo.ipynb").read_text())
    assert written["metadata"]["tensors_verified"]["executed"]["versions"]["python"]
    assert nbformat.validate(nbformat.reads(json.dumps(written), as_version=4)) is None


def test_only_prints_give_output_as_in_the_script(sample, tmp_path):
    # IPython would display the value of a cell's last expression; the script does not.
    body = "# --8<-- [start:x]\nitems = [1]\nprint(len(items))\n#> 1\nitems\n# --8<-- [end:x]\n"
    last = _script(sample, "last", body)
    _notebook(sample, f"{last}:x")
    executed = notebooks.execute(read_source(sample / NOTEBOOK, sample), sample, tmp_path / "w")
    (code,) = [cell for cell in executed.cells if cell.cell_type == "code"]
    assert [output.output_type for output in code.outputs] == ["stream"]


def test_notebook_without_a_title_is_refused(sample):
    _write(sample, NOTEBOOK, f'Some text.\n\n```python\n--8<-- "{SCRIPT}:part"\n```\n')
    with pytest.raises(NotebookError, match=rf"{NOTEBOOK}:1: a notebook starts with its title"):
        read_source(sample / NOTEBOOK, sample)


@pytest.mark.parametrize("name", ["notebooks/My Notes.md", "notebooks/v2.0.md", "notebooks/a/b.md"])
def test_notebook_names_that_make_bad_addresses_are_refused(sample, name):
    path = _write(sample, name, f'# T\n\n```python\n--8<-- "{SCRIPT}:part"\n```\n')
    with pytest.raises(NotebookError, match="lower-case letters, digits and hyphens"):
        read_source(path, sample)


def test_kernel_cannot_write_into_the_repository(sample, tmp_path):
    target = sample / "notebooks" / "written.txt"
    body = f"# --8<-- [start:x]\nopen({str(target)!r}, 'w').write('x')\n# --8<-- [end:x]\n"
    writer = _script(sample, "writer", body)
    _notebook(sample, f"{writer}:x")
    with pytest.raises(NotebookError, match="(?s)cell 2.*may write only inside a temporary"):
        notebooks.execute(read_source(sample / NOTEBOOK, sample), sample, tmp_path / "w")
    assert not target.exists()


def test_executed_notebook_edited_after_the_run_fails_the_build(sample, tmp_path):
    source = read_source(sample / NOTEBOOK, sample)
    path = notebooks.executed_path(sample, source.slug)
    notebooks.write_executed(notebooks.execute(source, sample, tmp_path / "w"), path, {})
    path.write_text(path.read_text().replace('"2\\n"', '"3\\n"'), encoding="utf-8")
    with pytest.raises(NotebookError, match="its outputs are not what the scripts say"):
        notebooks.site_notebook(source, sample, path, _URL)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(NotebookError, match="not a notebook run by the suite"):
        notebooks.site_notebook(source, sample, path, _URL)
