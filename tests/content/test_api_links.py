"""The API names of the reference's code and their links: `api_spans` reads what a row's code
uses, and the committed table (data/api-links.json) is what the installed libraries give."""

from __future__ import annotations

import pytest

from tests.libraries import import_libraries
from tooling.api_links import EXCEPTIONS, TABLE, api_spans, load_exceptions, load_table, table
from tooling.data import DataError
from tooling.reference import LIBRARIES
from verified.paths import REPO_ROOT


@pytest.mark.parametrize(
    ("code", "library", "names"),
    [
        ("np.linalg.norm(np.abs(x))", "numpy", ["numpy.linalg.norm", "numpy.abs"]),
        (
            "tf.experimental.numpy.take_along_axis(x, i, 1)",
            "tensorflow",
            ["tensorflow.experimental.numpy.take_along_axis"],
        ),
        ("x[None].permute(2, 0, 1)", "torch", ["torch.Tensor.permute"]),
        ("x.T", "numpy", ["numpy.ndarray.T"]),
        ("x.shape", "tensorflow", ["tensorflow.Tensor.shape"]),
        # dtypes and constants are values, not operations
        ("x.astype(np.float32)", "numpy", ["numpy.ndarray.astype"]),
        ("tf.cast(x, tf.int64)", "tensorflow", ["tensorflow.cast"]),
        # a named tuple's field is not a method of the array
        ("torch.sort(x).values", "torch", ["torch.sort"]),
        (
            "np.random.default_rng(0).random((2, 3))",
            "numpy",
            ["numpy.random.default_rng", "numpy.random.Generator.random"],
        ),
        (
            "torch.Generator().manual_seed(0)",
            "torch",
            ["torch.Generator", "torch.Generator.manual_seed"],
        ),
        (
            "torch.empty(2, 3).uniform_(-2.0, 3.0)",
            "torch",
            ["torch.empty", "torch.Tensor.uniform_"],
        ),
    ],
)
def test_api_names(code, library, names):
    assert [name for name, _, _ in api_spans(code, library)] == names


def test_the_committed_table_is_what_the_installed_libraries_give():
    modules = import_libraries()
    assert all(modules.get(library) for library in LIBRARIES), "needs the test environment"
    fresh, committed = table(REPO_ROOT, modules), load_table(REPO_ROOT)
    differ = [
        f"  {name}: committed {committed.get(name, '(absent)')}, "
        f"the libraries give {fresh.get(name, '(absent)')}"
        for name in sorted(fresh.keys() | committed.keys())
        if fresh.get(name, "(absent)") != committed.get(name, "(absent)")
    ]
    assert not differ, (
        f"{TABLE} differs from what the installed libraries give; run "
        "`.venv/bin/python -m tooling.api_links` and commit it:\n" + "\n".join(differ)
    )


def test_a_malformed_exception_names_its_line(tmp_path):
    (tmp_path / "data").mkdir()
    text = (REPO_ROOT / EXCEPTIONS).read_text("utf-8")
    (tmp_path / EXCEPTIONS).write_text(text + "torch.cummin: ftp://example.org\n", "utf-8")
    line = text.count("\n") + 1
    with pytest.raises(DataError, match=rf"{EXCEPTIONS}:{line}: `torch.cummin` cannot be"):
        load_exceptions(tmp_path)
