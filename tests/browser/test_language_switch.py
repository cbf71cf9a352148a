"""The language menu on every page leads to the same page in the other language, and back."""

from __future__ import annotations

import pytest

from tests.browser.conftest import CONFIG, other_language, site_pages
from tooling.static_server import site_path

LANG = {"zh": "en", "en": "zh"}


def switch_language(page, to: str) -> None:
    """Open the header's language menu and choose a language, as a reader does.

    Args:
        page (playwright.sync_api.Page): a loaded page of the site.
        to (str): `"zh"` or `"en"`.

    Raises:
        playwright.sync_api.TimeoutError: the menu or its link is missing, or the click
            did not navigate.
    """
    menu = page.locator(".md-header__option .md-select")
    assert menu.count() == 1, f"{page.url}: no language menu in the header"
    menu.hover()
    with page.expect_navigation():
        page.locator(f".md-select__link[hreflang={to}]").click()


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_language_switch_keeps_the_page(page, traffic, locale):
    mount = site_path(CONFIG)
    problems = []
    for path in site_pages(locale):
        target = other_language(path)
        page.goto(path)
        switch_language(page, LANG[locale])
        if not page.url.endswith(mount + target):
            problems.append(
                f"/{path}: switching to {LANG[locale]} led to {page.url}, not /{target}"
            )
            continue
        lang = page.get_attribute("html", "lang")
        if lang != LANG[locale]:
            problems.append(f"/{target}: <html lang> is {lang!r}, not {LANG[locale]}")
        switch_language(page, locale)
        if not page.url.endswith(mount + path):
            problems.append(f"/{target}: switching back led to {page.url}, not /{path}")
    assert site_pages(locale), "site/sitemap.xml lists no pages"
    assert not problems, "\n".join(problems)
    assert not traffic, traffic
