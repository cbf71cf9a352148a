"""Layout in both colour schemes and on a phone: the colour scheme follows the system setting,
and nothing is wider than the screen. (Each locale is seen light on a desktop and dark on a
phone: the scheme does not change the layout.)"""

from __future__ import annotations

import pytest

from tests.browser.conftest import record_traffic

PAGES = ["", "numpy-torch/dtypes/", "notebooks/save-load/"]
LOOKS = {
    "light-desktop": ("default", {"width": 1280, "height": 800}),
    "dark-phone": ("slate", {"width": 390, "height": 844}),
}


@pytest.mark.parametrize("look", LOOKS)
@pytest.mark.parametrize("locale", ["zh", "en"])
def test_scheme_follows_the_system_and_nothing_overflows(new_context, locale, look):
    scheme, viewport = LOOKS[look]
    # pytest-playwright's new_context: the served site's base URL, closed after the test.
    context = new_context(color_scheme="dark" if scheme == "slate" else "light", viewport=viewport)
    page = context.new_page()
    traffic = record_traffic(context, page)
    for path in PAGES:
        path = path if locale == "zh" else "en/" + path
        page.goto(path)
        used = page.get_attribute("body", "data-md-color-scheme")
        assert used == scheme, f"/{path}: the {look} system setting gave {used}"
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"/{path}: {overflow}px wider than the {look} screen"
    assert not traffic, traffic
