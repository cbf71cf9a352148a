"""The language menu on every page leads to the same page in the other language.

Every page's link, read from the built HTML (both directions), must be relative, so that the
site works wherever it is served (a mirror, a local copy); one test clicks through the menu
in the browser, there and back, as a reader does."""

from __future__ import annotations

import pytest

from tests.browser.conftest import HOME, built_page, site_link, site_pages


def test_every_page_links_to_its_translation(site):  # `site`: fails if it is not built
    paths = site_pages("zh") + site_pages("en")
    assert paths, "site/sitemap.xml lists no pages"
    problems = []
    for path in paths:  # the target's <html lang> is checked by test_pages.py's test_every_page
        to = "zh" if path.startswith(HOME["en"]) else "en"
        target = HOME[to] + path.removeprefix(HOME["en"])
        header = built_page(path, end="</header>")
        menu = header.select(".md-header__option .md-select a[hreflang]")
        hrefs = [a.get("href") for a in menu if a["hreflang"] == to]
        if len(hrefs) != 1:
            problems.append(f"/{path}: {len(hrefs)} links to {to} in the header's language menu")
        elif hrefs[0].startswith("/") or "//" in hrefs[0]:
            problems.append(f"/{path}: the {to} link {hrefs[0]} is absolute, not relative")
        elif (found := site_link(path, hrefs[0])) != target:
            problems.append(f"/{path}: the {to} link {hrefs[0]} leads to /{found}, not /{target}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", ["", "numpy-torch/dtypes/"])
def test_language_menu_switches_there_and_back(page, traffic, base_url, path):
    page.goto(path)
    for to, target in (("en", HOME["en"] + path), ("zh", HOME["zh"] + path)):
        where = f"{page.url}: switching to {to}"
        menu = page.locator(".md-header__option .md-select")
        assert menu.count() == 1, f"{page.url}: no language menu in the header"
        menu.hover()  # as a reader opens it
        with page.expect_navigation():
            page.locator(f".md-select__link[hreflang={to}]").click()
        assert page.url == base_url + target, f"{where} led to {page.url}, not /{target}"
        assert page.get_attribute("html", "lang") == to, f"{where}: <html lang> is not {to} there"
    assert not traffic, traffic
