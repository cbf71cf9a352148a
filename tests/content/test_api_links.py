"""API names and their links: the rules by which `api_spans` reads what a reference row's code
uses and `api_name` what a page's inline code span names; a stale table is reported by name and
page. The table itself, with every name of the real pages and reference, is checked against the
libraries in tests/examples/test_api_link_table.py."""

from __future__ import annotations

import pytest

from tooling.api_links import (
    EXCEPTIONS,
    api_spans,
    differences,
    load_exceptions,
)
from tooling.data import DataError
from verified.paths import REPO_ROOT
from verified_site.api_names import api_name


@pytest.mark.parametrize(
    ("code", "library", "names"),
    [
        ("np.linalg.norm(np.abs(x))", "numpy", ["numpy.linalg.norm", "numpy.abs"]),
        ("x[None].permute(2, 0, 1)", "torch", ["torch.Tensor.permute"]),
        ("x.T", "numpy", ["numpy.ndarray.T"]),
        # dtypes and constants are values, not operations
        ("x.astype(np.float32)", "numpy", ["numpy.ndarray.astype"]),
        # a named tuple's field is not a method of the array
        ("torch.sort(x).values", "torch", ["torch.sort"]),
        (
            "np.random.default_rng(0).random((2, 3))",
            "numpy",
            ["numpy.random.default_rng", "numpy.random.Generator.random"],
        ),
    ],
)
def test_api_names(code, library, names):
    assert [name for name, _, _ in api_spans(code, library)] == names


@pytest.mark.parametrize(
    ("span", "name"),
    [
        ("np.float16", "numpy.float16"),
        ("@tf.function", "tensorflow.function"),  # a decorator: its callee
        ("torchvision.transforms.v2", "torchvision.transforms.v2"),
        ("Tensor.view()", "torch.Tensor.view"),
        ("ndarray.astype", "numpy.ndarray.astype"),
        ("torch.zeros(2, 3)", "torch.zeros"),  # a call: its callee
        # no name: the type of x is not written; a chain of calls; a library alone; not code
        ("x.view()", None),
        ("torch.zeros(2).view(3)", None),
        ("torch", None),
        ("torch.float16 is not tf.float16", None),
        ("make test", None),
    ],
)
def test_which_api_name_an_inline_code_span_names(span, name):
    assert api_name(span) == name


def test_a_stale_table_names_the_page_and_the_name():
    committed = {"links": {"torch.zeros": "https://z"}, "no_page": {}, "not_api": []}
    fresh = {**committed, "links": {**committed["links"], "torch.ones": "https://o"}}
    pages = {"torch.ones": {"docs/zh/new.md", "docs/en/new.md"}}
    assert differences(fresh, committed, pages) == [
        "  torch.ones (docs/en/new.md, docs/zh/new.md): committed (absent), the libraries give "
        "https://o"
    ]


def test_a_malformed_exception_names_its_line(tmp_path):
    (tmp_path / "data").mkdir()
    text = (REPO_ROOT / EXCEPTIONS).read_text("utf-8")
    (tmp_path / EXCEPTIONS).write_text(text + "torch.cummin: ftp://example.org\n", "utf-8")
    line = text.count("\n") + 1
    with pytest.raises(
        DataError, match=rf"{EXCEPTIONS}:{line}: `torch.cummin`: 'ftp://example.org' does not"
    ):
        load_exceptions(tmp_path)
