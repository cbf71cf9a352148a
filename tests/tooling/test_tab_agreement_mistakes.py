"""A framework tab that stops agreeing with the others, or a difference the page explains that
stops holding, fails the examples stage at the line of the assertion in the script's tail
(README, "Framework tabs must agree"), whatever the tab prints. Each case plants the mistake
in a copy of a real script and runs it as the examples stage does (`verify_example`)."""

from __future__ import annotations

import pytest

from tests.libraries import import_libraries
from verified.examples import collect
from verified.paths import REPO_ROOT

SCRIPT = "examples/numpy_torch/default_dtypes.py"
#: A planted mistake: the text, its replacement, the assertion that fails, what it says.
MISTAKES = {
    # The tab still prints float32: only the comparison of the tabs sees the other value.
    "other-values": (
        "values = tf.constant([1.0, 2.0])",
        "values = tf.constant([1.0, 3.0])",
        "np.testing.assert_allclose(",
        "floats: the TensorFlow tab's values differ from the NumPy tab's",
    ),
    "explained-difference-gone": (
        "values = np.array([1.0, 2.0])",
        "values = np.array([1.0, 2.0], 'f4')",
        "assert tab.dtype == dtype",
        "floats: the NumPy tab gives float32; the page says float64",
    ),
}


@pytest.fixture(scope="session")
def libraries() -> dict:
    """The libraries imported as the examples stage imports them (tests/examples/conftest.py)."""
    return import_libraries()


@pytest.mark.parametrize(("old", "new", "statement", "says"), MISTAKES.values(), ids=MISTAKES)
def test_tabs_that_disagree_fail_at_the_assertion(
    tmp_path, verify_example, old, new, statement, says
):
    text = (REPO_ROOT / SCRIPT).read_text(encoding="utf-8")
    assert old in text, f"{old!r} is no longer in {SCRIPT}: update this test"
    (tmp_path / SCRIPT).parent.mkdir(parents=True)
    (tmp_path / SCRIPT).write_text(text.replace(old, new, 1), encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if statement in row)
    (example,) = collect(tmp_path)
    with pytest.raises(pytest.fail.Exception) as failed:
        verify_example(example)
    message = str(failed.value)
    assert message.startswith(f"{SCRIPT}:{line}: example raised AssertionError"), message
    assert says in message, message
