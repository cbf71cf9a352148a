"""Mistakes in the cross-library reference's data fail with the data file's line and what to
write, and a difference between the libraries that the data does not declare (or a declared one
that no longer holds) fails naming the row, the input, the libraries and their results."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from tooling.agreement import as_result, raised
from tooling.data import DataError
from tooling.reference import INPUTS, load_families, load_inputs
from tooling.reference_run import judge
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


def _load(tmp_path, family: str, other: str | None = None):
    (tmp_path / "data/reference").mkdir(parents=True)
    shutil.copy(REPO_ROOT / INPUTS, tmp_path / INPUTS)
    shutil.copytree(REPO_ROOT / "data/schemas", tmp_path / "data/schemas")
    (tmp_path / "data/reference/sample.yml").write_text(family, encoding="utf-8")
    if other:
        (tmp_path / "data/reference/second.yml").write_text(other, encoding="utf-8")
    return load_families(tmp_path, load_inputs(tmp_path))


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            ("    tensorflow: tf.negative(x)\n", "    tensorflow: null\n"),
            "sample.yml:6: row 'negate': no call for TensorFlow; give one, or say under `missing`",
        ),
        (
            ("inputs: [ints]", "inputs: [ints, halves]"),
            "sample.yml:6: row 'negate': unknown input halves",
        ),
        (
            ("    torch: torch.neg(x)\n", "    torch: [x.neg(0, 1)]\n"),
            "sample.yml:6: row 'negate': `torch` must be text (quote it) or null",
        ),
        (("    zh: 取负\n", ""), "sample.yml:6: row 'negate': `zh` is missing"),
        (
            (
                "    tensorflow: tf.negative(x)\n",
                "    tensorflow: tf.negative(x)\n    differences:\n      - aspect: dtype\n"
                "        libraries: [torch]\n        en: a reason in one language\n",
            ),
            "sample.yml:13: row 'negate': `differences[0].zh` is missing: why it differs, in "
            "Chinese",
        ),
        (
            (
                "    tensorflow: tf.negative(x)\n",
                "    tensorflow: tf.negative(x)\n    differences:\n      - aspect: type\n"
                "        libraries: [torch]\n        zh: 原因\n        en: why\n",
            ),
            "sample.yml:13: row 'negate': `differences[0].aspect` cannot be 'type'; write one of "
            "raises, "
            "shape, dtype, values, shares memory",
        ),
        (
            ("    numpy: np.negative(x)\n", "    numpy: np.negative(x\n"),
            "sample.yml:6: row 'negate': `np.negative(x` is not Python",
        ),
    ],
    ids=[
        "no-call",
        "unknown-input",
        "not-text",
        "no-chinese-name",
        "one-language-reason",
        "unknown-aspect",
        "not-python",
    ],
)
def test_a_malformed_row_names_its_line(tmp_path, edit, expected):
    with pytest.raises(DataError) as caught:
        _load(tmp_path, FAMILY.replace(*edit))
    assert expected in str(caught.value).replace("data/reference/", "")


def test_an_id_used_by_two_families_is_refused(tmp_path):
    other = FAMILY.replace("id: sample", "id: second")
    with pytest.raises(
        DataError,
        match=r"second.yml:6: row 'negate': the id is used at "
        r"data/reference/sample.yml:6 too",
    ):
        _load(tmp_path, FAMILY, other)


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
        "data/reference/sample.yml:6: row 'negate' in environment default, input 'ints': "
        "PyTorch differs from the others in dtype:\n    NumPy: int64 (2, 3) [[-3, 1, -2], "
    )
    assert "PyTorch: float64 (2, 3)" in problem and "(aspect: dtype, libraries: [torch]" in problem


def test_a_declared_difference_that_no_longer_holds_fails(tmp_path):
    declared = FAMILY + (
        "    differences:\n      - aspect: raises\n        libraries: [torch]\n"
        "        zh: PyTorch 不支持。\n        en: PyTorch refuses it.\n"
    )
    (row,) = _load(tmp_path, declared)[0].rows
    x = np.array([[3, -1, 2], [0, 5, -4]])
    assert judge(row, _results(as_result(-x, x)), "default")["problems"] == [
        "data/reference/sample.yml:13: row 'negate' declares that PyTorch differ in raises, which "
        "no longer holds in environment default; correct or delete the declaration"
    ]
    judged = judge(row, _results(raised(TypeError("no"))), "default")
    assert (judged["status"], judged["problems"]) == ("differs", [])
