"""The framework-tab check fails, naming the page and the tab, when a tab computes
something else, when a group is undeclared, and when a documented difference stops
holding. Each case runs the check of tests/examples/test_tab_agreement.py
(`tooling.tabs.group_problems`) on a copy of the pages with tabs, in this process."""

from __future__ import annotations

import shutil

import pytest

from tests.libraries import import_libraries
from tooling.tabs import (
    Declaration,
    Tab,
    TabAgreementError,
    TabGroup,
    compare,
    group_problems,
    load_declarations,
    tab_groups,
)
from verified.paths import REPO_ROOT

PAGES = ("docs/numpy-torch/dtypes.md", "docs/numpy-torch/dtypes.en.md")
SCRIPT = "examples/numpy_torch/default_dtypes.py"
DECLARATIONS = "examples/tab_agreement.yml"
# Every page with framework tabs, and what they embed: the declarations name them all.
OTHERS = (
    "examples/numpy_torch/conversion_dtypes.py",
    "docs/tensorflow/torch-and-tensorflow.md",
    "docs/tensorflow/torch-and-tensorflow.en.md",
    "examples/tensorflow/torch_and_tensorflow.py",
)


@pytest.fixture
def content(tmp_path, monkeypatch):
    """The pages with framework tabs, the scripts they embed and the declarations, copied;
    the sections run in an empty folder of their own, with the libraries imported as the
    examples stage imports them."""
    import_libraries()
    for name in (*PAGES, SCRIPT, DECLARATIONS, *OTHERS):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO_ROOT / name, tmp_path / name)
    (tmp_path / "cwd").mkdir()
    monkeypatch.chdir(tmp_path / "cwd")
    return tmp_path


def _group_line(page, group: int) -> int:
    """The line of the first tab of the page's `group`-th tab group (1-based, both)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    starts = [number for number, line in enumerate(lines, 1) if line == '=== "PyTorch"']
    return starts[group - 1]


def _problems(content) -> str:
    """What the tab check reports for every group of the copied pages, one line each."""
    declarations = load_declarations(content)
    groups = tab_groups(content)
    assert len(groups) == 5, groups  # the copied pages' groups, as the site has them
    return "\n".join(p for group in groups for p in group_problems(group, declarations, content))


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is no longer in {path.name}: update this test"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_the_copied_tabs_agree(content):
    assert _problems(content) == ""


def test_a_tab_that_computes_something_else_fails_naming_page_and_tab(content):
    # The TensorFlow tab now computes other values (its output line is left alone: the
    # agreement check fails on its own, whatever the printed dtype says).
    _edit(content / SCRIPT, "values = tf.constant([1.0, 2.0])", "values = tf.constant([1.0, 3.0])")
    out = _problems(content)
    zh, en = (_group_line(content / page, 1) for page in PAGES)
    where = f"docs/numpy-torch/dtypes.md:{zh} (and docs/numpy-torch/dtypes.en.md:{en})"
    assert f'{where}: tab "TensorFlow"' in out, out
    assert "float32 (2,) [1., 3.]" in out and 'tab "PyTorch" computes float32 (2,) [1., 2.]' in out


def test_a_changed_dtype_fails_unless_documented(content):
    _edit(content / SCRIPT, "values = torch.tensor([1, 2])", "values = torch.tensor([1, 2]).int()")
    out = _problems(content)
    zh, en = (_group_line(content / page, 2) for page in PAGES)
    assert f'dtypes.md:{zh} (and docs/numpy-torch/dtypes.en.md:{en}): tab "NumPy"' in out, out
    assert "has dtype int64" in out and 'tab "PyTorch" computes int32' in out, out


def test_a_documented_difference_that_no_longer_holds_fails(content):
    _edit(content / SCRIPT, "values = np.array([1.0, 2.0])", "values = np.array([1.0, 2.0], 'f4')")
    out = _problems(content)
    assert 'tab "NumPy"' in out and "documents float64" in out, out
    assert "The documented difference no longer holds" in out, out


def test_an_undeclared_group_fails_and_says_what_to_add(content):
    (content / DECLARATIONS).write_text("[]\n", encoding="utf-8")
    out = _problems(content)
    line = _group_line(content / PAGES[0], 1)
    assert f"docs/numpy-torch/dtypes.md:{line}" in out and "have no declaration in" in out, out
    assert '"examples/numpy_torch/default_dtypes.py:floats_tf"' in out, out


def test_a_translation_that_labels_tabs_differently_fails(content):
    page = content / PAGES[1]
    zh, en = _group_line(content / PAGES[0], 1), _group_line(page, 1)
    text = page.read_text(encoding="utf-8")
    text = text.replace('=== "TensorFlow"', '=== "PyTorch"', 1)  # two PyTorch tabs in English
    page.write_text(text, encoding="utf-8")
    out = _problems(content)
    assert f'docs/numpy-torch/dtypes.en.md:{en}: two tabs are labelled "PyTorch"' in out, out
    assert f"labels or orders these tabs differently from docs/numpy-torch/dtypes.md:{zh}" in out


def test_a_section_that_does_not_assign_the_value_is_named(content):
    _edit(
        content / SCRIPT,
        "values = torch.tensor([1.0, 2.0])\n",
        "floats = torch.tensor([1.0, 2.0])\n",
    )
    _edit(
        content / SCRIPT,
        "print(values.dtype)\n#> torch.float32",
        "print(floats.dtype)\n#> torch.float32",
    )
    out = _problems(content)
    assert "default_dtypes.py:6: section 'floats_torch' does not assign `values`" in out, out


GROUP = "- tabs: [a.py:x, a.py:y]\n  value: v\n"
MALFORMED = {
    "not-a-list": ("tabs: []\n", ":1: it must be a list, e.g. [a, b]: a list of tab groups"),
    "tabs-text": (
        "- tabs: a.py:x\n  value: v\n",
        ":1: tab group 1: `tabs` must be a list, e.g. [a, b]: the sections its tabs embed",
    ),
    "no-value": ("- tabs: [a.py:x, a.py:y]\n", ":1: tab group 1: `value` is missing: the variable"),
    "rtol-text": (GROUP + "  rtol: 1e-3\n", ":3: tab group 1: `rtol` must be a number, e.g. 0.001"),
    "label": (
        GROUP + "  documented:\n    Tensorflow: {values: differ, because: b}\n",
        ":4: tab group 1: unknown field `documented.Tensorflow`: the fields here are PyTorch, "
        "TensorFlow, NumPy",
    ),
    "values": (
        GROUP + "  documented:\n    NumPy: {values: same, because: b}\n",
        ":4: tab group 1: `documented.NumPy.values` cannot be 'same'",
    ),
    "twice": (GROUP * 2, ":3: declares the same tabs as the group at line 1; keep one"),
}


@pytest.mark.parametrize(("declaration", "expected"), MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_declaration_names_the_entry_and_the_fix(tmp_path, declaration, expected):
    (tmp_path / "examples").mkdir()
    (tmp_path / DECLARATIONS).write_text(declaration, encoding="utf-8")
    with pytest.raises(TabAgreementError) as caught:
        load_declarations(tmp_path)
    assert str(caught.value).startswith(DECLARATIONS + expected), caught.value


def test_documenting_a_difference_for_every_tab_is_refused():
    group = TabGroup([("docs/p.md", 3)], [Tab("PyTorch", ("a.py:x",)), Tab("NumPy", ("a.py:y",))])
    notes = {"because": "b", "values": "differ"}
    declaration = Declaration("v", documented={"PyTorch": notes, "NumPy": notes})
    (problem,) = compare(group, declaration, {})
    assert problem.startswith(
        "docs/p.md:3: examples/tab_agreement.yml documents a difference for every tab"
    )
