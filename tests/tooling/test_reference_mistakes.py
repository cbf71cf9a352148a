"""Mistakes in the cross-library reference's data fail with the data file's line and what to
write, and a difference between the libraries that the data does not declare (or a declared one
that no longer holds) fails naming the row, the input, the libraries and their results."""

from __future__ import annotations

import re
import shutil

import numpy as np
import pytest

from tooling.agreement import as_result, raised
from tooling.data import DataError
from tooling.reference import INPUTS, load_families, load_inputs
from tooling.reference_run import judge, run_row
from verified.paths import REPO_ROOT

FAMILY = """\
id: sample
zh: 示例
en: Sample
inputs: [ints]
rows:
  - id: negate
    zh: 取负
    en: negate
    numpy: np.negative(x)
    torch: torch.neg(x)
    tensorflow: tf.negative(x)
"""


def _load(tmp_path, family: str):
    (tmp_path / "data/reference").mkdir(parents=True)
    shutil.copy(REPO_ROOT / INPUTS, tmp_path / INPUTS)
    (tmp_path / "data/reference/01-sample.yml").write_text(family, encoding="utf-8")
    return load_families(tmp_path, load_inputs(tmp_path))


#: The row's TensorFlow call, then a declared difference of PyTorch: its aspect, then its kind.
DECLARED = (
    "tf.negative(x)\n    differences:\n      - aspect: {}\n        kind: {}\n"
    "        libraries: [torch]\n"
)


def _row(old: str, new: str, line: int, expected: str) -> tuple[str, str, str]:
    """A mistake in FAMILY's row: its file with `old` replaced by `new`, and the error."""
    return (
        "01-sample.yml",
        FAMILY.replace(old, new),
        f"01-sample.yml:{line}: row 'negate': {expected}",
    )


SECOND = FAMILY.replace("id: sample", "id: second").replace("negate", "minus")
#: A data file (name, text) written beside FAMILY's 01-sample.yml or over it -> its error.
MALFORMED = {
    "no-call": _row("tf.negative(x)", "null", 6, "no call for TensorFlow; give one, or say under"),
    "unknown-input": _row("[ints]", "[ints, halves]", 6, "unknown input halves"),
    "one-language-reason": _row(
        "tf.negative(x)\n",
        DECLARED.format("dtype", "dtype rules") + "        en: a reason in one language\n",
        13,
        "`differences[0]`: 'zh' is a required property: why it differs, in Chinese",
    ),
    "unknown-aspect": _row(
        "tf.negative(x)\n",
        DECLARED.format("type", "dtype rules") + "        zh: 原因\n        en: why\n",
        13,
        "`differences[0].aspect`: 'type' is not one of ['raises', 'shape', 'dtype', 'values', "
        "'shares memory']",
    ),
    "unknown-kind": _row(
        "tf.negative(x)\n",
        DECLARED.format("dtype", "promotion") + "        zh: 原因\n        en: why\n",
        14,
        "`differences[0].kind`: 'promotion' is not one of ['defaults', 'dtype rules', ",
    ),
    "not-python": _row("np.negative(x)", "np.negative(x", 6, "`np.negative(x` is not Python"),
    "also-without-call": _row(
        "tf.negative(x)\n",
        "null\n    missing: {zh: 没有, en: none}\n    also: {tensorflow: [-x]}\n",
        6,
        "`also` gives spellings for TensorFlow, which has no call in this row",
    ),
    "cuda-without-torch": _row(
        "torch.neg(x)\n",
        "null\n    missing: {zh: 没有, en: none}\n    cuda: {cause: ties, zh: 原因, en: why}\n",
        6,
        "`cuda` is given, but PyTorch has no call to run on CUDA",
    ),
    "misnamed-file": ("03-other.yaml", "", "03-other.yaml:1: a family's file is named NN-<family>"),
    "family-id-twice": (
        "02-sample.yml",
        SECOND.replace("second", "sample"),
        "02-sample.yml:1: family id 'sample'",
    ),
    "id-not-file-name": ("02-other.yml", SECOND, "02-other.yml:1: the family's id is"),
    "not-utf-8": (
        "02-second.yml",
        "id: second\nzh: 取负\n".encode("gbk"),
        "02-second.yml:2: not UTF",
    ),
    "row-id-twice": (
        "02-second.yml",
        SECOND.replace("minus", "negate"),
        "02-second.yml:6: row 'negate': the id is used at data/reference/01-sample.yml:6 too",
    ),
    "unknown-environment": (
        "02-second.yml",
        SECOND + "    differences:\n      - {aspect: dtype, kind: dtype rules, libraries: [torch],"
        " environments: [nightly], zh: 原因, en: why}\n",
        "02-second.yml:13: row 'minus': unknown environment nightly; the environments are ",
    ),
    "family-declaration-input": (
        "02-second.yml",
        SECOND + "differences:\n  - {aspect: dtype, kind: dtype rules, libraries: [torch],"
        " inputs: [halves], zh: 原因, en: why}\n",
        "02-second.yml:13: the family declares a difference on input halves, which is not run",
    ),
}


@pytest.mark.parametrize(("name", "text", "expected"), MALFORMED.values(), ids=MALFORMED)
def test_a_malformed_file_or_row_names_its_line(tmp_path, name, text, expected):
    _load(tmp_path, FAMILY)
    target = tmp_path / "data/reference" / name
    target.write_bytes(text) if isinstance(text, bytes) else target.write_text(text, "utf-8")
    with pytest.raises(DataError, match=re.escape(expected)):
        load_families(tmp_path, load_inputs(tmp_path))


def _results(torch_value) -> dict:
    x = np.array([[3, -1, 2], [0, 5, -4]])
    return {
        "ints": {"numpy": as_result(-x, x), "torch": torch_value, "tensorflow": as_result(-x, x)}
    }


def test_an_undeclared_difference_fails_with_both_results(tmp_path):
    (row,) = _load(tmp_path, FAMILY)[0].rows
    judged = judge(row, _results(as_result(np.array([[-3.0, 1, -2], [0, -5, 4]]))), "default")
    assert judged["status"] == "failed"
    (problem,) = judged["problems"]
    assert problem.startswith(
        "data/reference/01-sample.yml:6: row 'negate' in environment default, input 'ints': "
        "PyTorch differs from the others in dtype:\n    NumPy: int64 (2, 3) [[-3, 1, -2], "
    )
    assert "PyTorch: float64 (2, 3)" in problem and "(aspect: dtype, libraries: [torch]" in problem


def test_a_declared_difference_that_no_longer_holds_fails(tmp_path):
    declared = FAMILY + (
        "    differences:\n      - aspect: raises\n        kind: dtype rules\n"
        "        libraries: [torch]\n"
        "        zh: PyTorch 不支持。\n        en: PyTorch refuses it.\n"
    )
    (row,) = _load(tmp_path, declared)[0].rows
    x = np.array([[3, -1, 2], [0, 5, -4]])
    assert judge(row, _results(as_result(-x, x)), "default")["problems"] == [
        "data/reference/01-sample.yml:13: row 'negate' declares that PyTorch differs in raises, "
        "which no longer holds in environment default; correct or delete the declaration"
    ]
    judged = judge(row, _results(raised(TypeError("no"))), "default")
    assert (judged["status"], judged["problems"]) == ("differs", [])


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("np.negatve(x)", "`np.negatve(x)` fails: AttributeError: module 'numpy' has no"),
        ("np.copyto(x, 0)", "`np.copyto(x, 0)` returns NoneType None"),
    ],
    ids=["misspelled", "returns-none"],
)
def test_a_call_that_gives_no_result_fails_the_row(tmp_path, call, expected):
    (row,) = _load(tmp_path, FAMILY.replace("np.negative(x)", call))[0].rows
    modules = {"np": np, "torch": None, "tf": None}
    row.calls = {"numpy": call, "torch": None, "tensorflow": None}
    judged = run_row(row, load_inputs(tmp_path), modules, "default")
    assert judged["status"] == "failed"
    assert judged["problems"][0].startswith(
        f"data/reference/01-sample.yml:6: row 'negate', input 'ints', NumPy: {expected}"
    )


def test_a_raises_declaration_naming_another_error_fails(tmp_path):
    reason = "        zh: PyTorch 报 ValueError。\n        en: PyTorch raises ValueError.\n"
    declared = FAMILY.replace("tf.negative(x)\n", DECLARED.format("raises", "dtype rules") + reason)
    (row,) = _load(tmp_path, declared)[0].rows
    judged = judge(row, _results(raised(TypeError("no"))), "default")
    assert (judged["status"], judged["problems"]) == (
        "failed",
        [
            "data/reference/01-sample.yml:13: row 'negate' declares a difference in raises whose "
            "text names ValueError, but the calls it covers also raised TypeError in environment "
            "default; name what they raise"
        ],
    )
    # An error named in a link's text belongs to the case the link shows.
    linked = "[`ValueError`: size [2, 3]](../errors/shapes.md#x)"
    row.differences[0]["en"] = row.differences[0]["zh"] = f"PyTorch raises, as {linked} does."
    judged = judge(row, _results(raised(TypeError("no"))), "default")
    assert (judged["status"], judged["problems"]) == ("differs", [])
