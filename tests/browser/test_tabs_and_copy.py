"""Content tabs that follow each other across a page, and code copy buttons that copy."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

#: A page with two or more PyTorch / TensorFlow / NumPy tab sets.
TABBED_PAGE = {"zh": "numpy-torch/dtypes/", "en": "en/numpy-torch/dtypes/"}
FRAMEWORKS = ["PyTorch", "TensorFlow", "NumPy"]


def selected_tabs(page) -> list[str]:
    """The label of the selected tab in each tab set of the page, in page order."""
    return page.locator(".tabbed-set").evaluate_all(
        """sets => sets.map(set => {
            const input = set.querySelector(':scope > input:checked');
            return set.querySelector(`:scope > .tabbed-labels > label[for="${input.id}"]`)
                .innerText.trim();
        })"""
    )


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_framework_tabs_are_linked_across_the_page(page, traffic, locale):
    path = TABBED_PAGE[locale]
    page.goto(path)
    sets = page.locator(".tabbed-set")
    assert sets.count() >= 2, f"/{path}: expected two or more tab sets, found {sets.count()}"
    for index in range(sets.count()):
        labels = sets.nth(index).locator(".tabbed-labels > label").all_inner_texts()
        assert [label.strip() for label in labels] == FRAMEWORKS, f"/{path}: tab set {index + 1}"
    assert selected_tabs(page) == ["PyTorch"] * sets.count()
    for index, framework in ((0, "TensorFlow"), (sets.count() - 1, "NumPy")):
        sets.nth(index).locator(".tabbed-labels > label", has_text=framework).click()
        assert selected_tabs(page) == [framework] * sets.count(), (
            f"/{path}: choosing {framework} in tab set {index + 1} did not switch the others"
        )
    assert not traffic, traffic


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_copy_button_copies_the_code(page, context, traffic, locale):
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    path = TABBED_PAGE[locale]
    page.goto(path)
    block = page.locator(".md-typeset pre").first
    block.hover()
    button = block.locator("button[data-md-type=copy]")
    expect(button).to_be_visible()
    button.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    code = block.locator("code").text_content()
    assert copied.strip() == code.strip(), f"/{path}: the copy button copied:\n{copied}"
    assert "#>" in copied, "the copied example should include its `#>` output lines"
    assert not traffic, traffic
