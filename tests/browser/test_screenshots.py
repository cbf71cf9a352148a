"""Screenshots for review, light and dark, desktop and phone, in build/screenshots/
(not committed). Each also checks what a reviewer would look for first: the colour
scheme follows the system setting, and nothing is wider than a phone's screen."""

from __future__ import annotations

import pytest

from tests.browser.conftest import guard
from verified.paths import REPO_ROOT

SCREENSHOTS = REPO_ROOT / "build" / "screenshots"
PAGES = {"home": "", "dtypes": "numpy-torch/dtypes/"}
SCHEMES = {"light": "default", "dark": "slate"}
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("locale", ["zh", "en"])
def test_screenshots(new_context, locale, scheme, viewport):
    # pytest-playwright's new_context: the served site's base URL, closed after the test.
    context = new_context(color_scheme=scheme, viewport=VIEWPORTS[viewport])
    page = context.new_page()
    traffic = guard(context, page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, path in PAGES.items():
        path = path if locale == "zh" else "en/" + path
        page.goto(path)
        used = page.get_attribute("body", "data-md-color-scheme")
        assert used == SCHEMES[scheme], f"/{path}: {scheme} system setting gave {used}"
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"/{path}: {overflow}px wider than the {viewport} screen"
        # JPEG: encoding a whole page as PNG took about three times as long.
        shot = SCREENSHOTS / f"{locale}-{name}-{scheme}-{viewport}.jpg"
        page.screenshot(path=shot, full_page=True, quality=90)
    assert not traffic, traffic
