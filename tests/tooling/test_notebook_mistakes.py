"""Notebooks (verified_site.notebooks): read with jupytext, filled from the example scripts,
run in a kernel, written for the site; a broken run is refused with a message naming its file
and cell (a broken source: test_mistakes.py). In-process, on the sample site; only the runs
start a kernel."""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path

import nbformat
import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from tests.tooling.sample import NOTEBOOK, SCRIPT, make_sample
from tooling.checks import broken_notebooks
from verified.paths import REPO_ROOT
from verified_site import notebooks
from verified_site.notebooks import NotebookError, read_source
from verified_site.pages import notebook_site_path, site_addresses

pytest_plugins = ["pytester"]

SITE = site_addresses(REPO_ROOT)[0]  # the sample's mkdocs.base.yml is the real one


@pytest.fixture(scope="module")
def ran(tmp_path_factory) -> tuple[Path, nbformat.NotebookNode]:
    """The sample site, and its Chinese notebook run once in a kernel. Its section ends with a
    bare `total`, which IPython would display and the script (and so the notebook) does not;
    the notebook's links have anchors, one to a heading of its own with an id."""
    root = make_sample(tmp_path_factory.mktemp("sample"))
    script, notebook = root / SCRIPT, root / NOTEBOOK
    script.write_text(script.read_text().replace("#> 2\n", "#> 2\ntotal\n"))
    links = "page.md#an-example)与[下文](#x)。\n\n## 一节 {#x}"
    notebook.write_text(notebook.read_text().replace("page.md)。", links))
    return root, notebooks.execute(read_source(notebook, root), root, root / ".work")


@pytest.fixture
def tree(ran, tmp_path) -> Path:
    """A copy of the sample with the suite's run of its notebook."""
    root, executed = ran
    shutil.copytree(root, tmp_path, dirs_exist_ok=True)
    versions = {"python": "3.11.7", "numpy": "2.4.6+x"}
    notebooks.write_executed(
        executed, notebooks.executed_path(tmp_path, tmp_path / NOTEBOOK), versions
    )
    return tmp_path


def test_site_notebooks_show_the_run_links_and_how_to_run_them(tree):
    assert broken_notebooks(tree) == []
    written = notebooks.write_site_notebooks(tree)
    assert [path.parent.parent.name for path in written] == ["en", "zh"]
    site = nbformat.read(written[1], as_version=4)
    cells = {cell.id: cell for cell in site.cells}
    assert list(cells) == ["cell-0", "stamp", "about", "intro", "cell-1", "cell-2"]
    # The page's stamp, as the record gives it (the sample has none): HTML, styled on the page.
    assert 'class="admonition note verification-stamp"' in cells["stamp"].source
    # The code cell: the section without its outputs, printing only what it prints (the run's).
    code = cells["cell-1"]
    assert code.source == "total = 1 + 1\nprint(total)\ntotal"
    assert code.metadata["tensors_verified"] == {"from": f"{SCRIPT}:part", "line": 15}
    assert [(o.output_type, o.text) for o in code.outputs] == [("stream", "2\n")]
    # `## 一节 {#x}`: an HTML heading keeps the id (Jupyter would show `{#x}` as text).
    assert cells["intro"].source.endswith('\n\n<h2 id="x">一节</h2>')
    about = cells["about"].source
    assert f"[{SCRIPT}](" in about and f"/blob/main/{SCRIPT})" in about  # in the repository
    assert "（Python 3.11.7，" in about and '<a href="demo.ipynb" download>' in about
    assert "pip install jupyterlab" in about  # the code imports no library
    assert f"]({SITE}numpy-torch/page/#an-example)" in cells["intro"].source
    assert f"]({SITE}notebooks/demo/#x)" in cells["intro"].source
    english = {c.id: c for c in nbformat.read(written[0], as_version=4).cells}["intro"].source
    assert f"]({SITE}en/numpy-torch/page/)" in english


def test_changed_code_has_no_outputs_and_says_so(tree):
    (tree / SCRIPT).write_text((tree / SCRIPT).read_text().replace("1 + 1", "2 + 0"))
    notebooks.write_site_notebooks(tree)
    site = nbformat.read(notebook_site_path(tree, tree / NOTEBOOK), as_version=4)
    assert all(not cell.outputs for cell in site.cells if cell.cell_type == "code")
    assert "本次构建没有运行这个笔记本" in {c.id: c for c in site.cells}["about"].source


def test_executed_notebook_edited_after_the_run_or_unreadable_is_refused(tree):
    path = notebooks.executed_path(tree, tree / NOTEBOOK)
    path.write_text(path.read_text().replace('"2\\n"', '"3\\n"'), encoding="utf-8")
    with pytest.raises(NotebookError, match="its outputs are not what the scripts say"):
        notebooks.write_site_notebooks(tree)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(NotebookError, match="not a notebook run by the suite"):
        notebooks.write_site_notebooks(tree)


_DEFINE = "# --8<-- [start:define]\nvalue = 3\n# --8<-- [end:define]\n"
_USE = "# --8<-- [start:use]\nprint(value)\n#> 3\n# --8<-- [end:use]\n"
_WRITE = "# --8<-- [start:use]\nopen({!r}, 'w').write('x')\n# --8<-- [end:use]\n"


@pytest.mark.parametrize(
    ("script", "order", "expected"),
    [
        (_DEFINE + _USE, ["use", "define"], rf"(?s){NOTEBOOK}:5: cell 2 \({SCRIPT}:use\).*NameE"),
        (
            _USE.replace("#> 3", "#> 5").replace("value", "3"),
            ["use"],
            rf"(?s){NOTEBOOK}:5: code cell 1 \({SCRIPT}:use\) printed.*    5\n--- the notebook "
            r"printed\n    3",
        ),
        (_WRITE, ["use"], "(?s)cell 2.*may write only inside a temporary"),
    ],
    ids=["wrong-order", "wrong-output", "write-into-the-repository"],
)
def test_run_that_goes_wrong_is_refused_with_the_cell_named(tmp_path, script, order, expected):
    target = tmp_path / "docs" / "written.txt"
    cells = "\n".join(f'```python\n--8<-- "{SCRIPT}:{name}"\n```\n' for name in order)
    root = make_sample(tmp_path)
    (root / SCRIPT).write_text(script.format(str(target)), encoding="utf-8")
    (root / NOTEBOOK).write_text(f"# 笔记本\n\n开头。\n\n{cells}", encoding="utf-8")
    with pytest.raises(NotebookError, match=expected):
        notebooks.execute(read_source(root / NOTEBOOK, root), root, tmp_path / "w")
    assert not target.exists()


def test_site_build_without_the_notebooks_written_stops_and_says_what_to_run(tmp_path, caplog):
    root = make_sample(tmp_path)
    with contextlib.chdir(root), pytest.raises(Abort):
        build(load_config(str(root / "mkdocs.yml"), site_dir=str(root / "out")))
    assert "docs/zh/notebooks/demo.md: no notebook written for it" in caplog.text
    assert "run `make notebooks`" in caplog.text


def test_examples_stage_fails_a_broken_notebook_and_writes_a_passing_one(pytester, monkeypatch):
    """The stage's own test file (tests/examples/test_notebooks.py), run by pytest here."""
    test_file = Path(__file__).parents[1] / "examples" / "test_notebooks.py"
    files = {
        "docs/zh/notebooks/broken.md": '# T\n\n```python\n--8<-- "examples/fails.py:x"\n```\n',
        "examples/fails.py": "# --8<-- [start:x]\nprint(1 / 0)\n# --8<-- [end:x]\n",
        # Its own module name: tests/examples/test_notebooks.py may be imported in this process.
        "tests/test_stage_notebooks.py": test_file.read_text(encoding="utf-8"),
    }
    make_sample(pytester.path)
    for name, text in files.items():
        (pytester.path / name).parent.mkdir(exist_ok=True)
        (pytester.path / name).write_text(text, encoding="utf-8")
    monkeypatch.setenv("CONTENT_ROOT", str(pytester.path))
    args = ["-p", "no:xdist", "-p", "no:playwright", "-p", "no:cacheprovider"]
    result = pytester.runpytest("tests", *args, "--environment", "default")
    result.assert_outcomes(passed=1, failed=1)
    assert (
        "docs/zh/notebooks/broken.md:3: cell 2 (examples/fails.py:x) failed" in result.stdout.str()
    )
    assert "ZeroDivisionError: division by zero" in result.stdout.str()
    executed = pytester.path / "build/notebooks/executed"
    assert sorted(path.name for path in executed.iterdir()) == ["demo.ipynb"]
    written = nbformat.read(executed / "demo.ipynb", as_version=4)
    assert nbformat.validate(written) is None
    assert written.metadata["tensors_verified"]["executed"]["versions"]["python"]
