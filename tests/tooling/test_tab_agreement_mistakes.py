"""The framework-tab check fails, naming the page and the tab, when a tab computes
something else, when a group is undeclared, and when a documented difference stops
holding. Each case runs the check of tests/examples/test_tab_agreement.py
(`tooling.tabs.group_problems`) on a copy of the pages with tabs, in this process."""

from __future__ import annotations

import shutil

import pytest

from tests.libraries import import_libraries
from tooling.data import DataError
from tooling.tabs import group_problems, load_declarations, tab_groups
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


def _group_lines(content) -> dict[str, int]:
    """`zh1`, `en1`, `zh2`, `en2`: the line of the first tab of each page's first and second
    tab group."""
    lines = {}
    for locale, page in zip(("zh", "en"), PAGES, strict=True):
        text = (content / page).read_text(encoding="utf-8").splitlines()
        starts = [number for number, line in enumerate(text, 1) if line == '=== "PyTorch"']
        lines |= {f"{locale}1": starts[0], f"{locale}2": starts[1]}
    return lines


def _problems(content) -> str:
    """What the tab check reports for every group of the copied pages, one line each."""
    declarations = load_declarations(content)
    groups = tab_groups(content)
    assert len(groups) == 5, groups  # the copied pages' groups, as the site has them
    return "\n".join(p for group in groups for p in group_problems(group, declarations, content))


def test_the_copied_tabs_agree(content):
    assert _problems(content) == ""


DIFFER = "{values: differ, because: b}\n"
GROUP_1 = "docs/numpy-torch/dtypes.md:{zh1} (and docs/numpy-torch/dtypes.en.md:{en1})"
#: A planted mistake: (file, text, its replacement), then what the report must say; {zh1},
#: {en1} are the lines of the pages' first tab group, {zh2}, {en2} of their second.
MISTAKES = {
    # The TensorFlow tab's output line is left alone: the check fails whatever it prints.
    "other-values": (
        (SCRIPT, "values = tf.constant([1.0, 2.0])", "values = tf.constant([1.0, 3.0])"),
        GROUP_1 + ': tab "TensorFlow"',
        "float32 (2,) [1., 3.]",
        'tab "PyTorch" computes float32 (2,) [1., 2.]',
    ),
    "undocumented-dtype": (
        (SCRIPT, "values = torch.tensor([1, 2])", "values = torch.tensor([1, 2]).int()"),
        'dtypes.md:{zh2} (and docs/numpy-torch/dtypes.en.md:{en2}): tab "NumPy"',
        "has dtype int64",
        'tab "PyTorch" computes int32',
    ),
    "documented-difference-gone": (
        (SCRIPT, "values = np.array([1.0, 2.0])", "values = np.array([1.0, 2.0], 'f4')"),
        'tab "NumPy"',
        "documents float64",
        "The documented difference no longer holds",
    ),
    "undeclared-group": (
        (DECLARATIONS, "default_dtypes.py:floats_tf", "default_dtypes.py:floats_tensorflow"),
        GROUP_1 + ": these framework tabs have no declaration in",
        '"examples/numpy_torch/default_dtypes.py:floats_tf"',
    ),
    "translation-labels-differently": (
        (PAGES[1], '=== "TensorFlow"', '=== "PyTorch"'),  # two PyTorch tabs in English
        'docs/numpy-torch/dtypes.en.md:{en1}: two tabs are labelled "PyTorch"',
        "labels or orders these tabs differently from docs/numpy-torch/dtypes.md:{zh1}",
    ),
    "section-without-value": (
        (SCRIPT, "values = torch.tensor([1.0, 2.0])", "floats = torch.tensor([1.0, 2.0])"),
        "default_dtypes.py:6: section 'floats_torch' does not assign `values`",
    ),
    "every-tab-documented": (
        (
            DECLARATIONS,
            "documented:\n",
            "documented:\n    PyTorch: " + DIFFER + "    TensorFlow: " + DIFFER,
        ),
        GROUP_1 + ": examples/tab_agreement.yml documents a difference for every tab",
    ),
}


@pytest.mark.parametrize("case", MISTAKES.values(), ids=MISTAKES)
def test_a_planted_mistake_fails_naming_page_and_tab(content, case):
    lines, ((name, old, new), *expected) = _group_lines(content), case
    text = (content / name).read_text(encoding="utf-8")
    assert old in text, f"{old!r} is no longer in {name}: update this test"
    (content / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    out = _problems(content)
    for part in expected:
        assert part.format(**lines) in out, out


GROUP = "- tabs: [a.py:x, a.py:y]\n  value: v\n"
MALFORMED = {
    "not-a-list": ("tabs: []\n", ":1: {'tabs': []} is not of type 'array': a list of tab groups"),
    "tabs-text": (
        "- tabs: a.py:x\n  value: v\n",
        ":1: tab group 1: `tabs`: 'a.py:x' is not of type 'array': the sections its tabs embed",
    ),
    "no-value": (
        "- tabs: [a.py:x, a.py:y]\n",
        ":1: tab group 1: 'value' is a required property: the variable",
    ),
    "rtol-text": (
        GROUP + "  rtol: 1e-3\n",
        ":3: tab group 1: `rtol`: '1e-3' is not of type 'number'",
    ),
    "label": (
        GROUP + "  documented:\n    Tensorflow: {values: differ, because: b}\n",
        ":4: tab group 1: `documented`: Additional properties are not allowed ('Tensorflow' was "
        "unexpected): the fields here are PyTorch, TensorFlow, NumPy",
    ),
    "values": (
        GROUP + "  documented:\n    NumPy: {values: same, because: b}\n",
        ":4: tab group 1: `documented.NumPy.values`: 'differ' was expected",
    ),
    "twice": (GROUP * 2, ":3: declares the same tabs as the group at line 1; keep one"),
}


@pytest.mark.parametrize(("declaration", "expected"), MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_declaration_names_the_entry_and_the_fix(tmp_path, declaration, expected):
    (tmp_path / "examples").mkdir()
    (tmp_path / DECLARATIONS).write_text(declaration, encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_declarations(tmp_path)
    assert str(caught.value).startswith(DECLARATIONS + expected), caught.value
