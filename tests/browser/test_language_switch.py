"""The language menu on every page leads to the same page in the other language, read from the
built HTML (both directions), and that page exists. Each link must be relative, so that the site
works wherever it is served (a mirror, a local copy). Clicking the menu, there and back, is
test_offline.py's."""

from __future__ import annotations

from tests.browser.conftest import HOME, SITE, built_page, site_link, site_pages


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
        elif not (SITE / target / "index.html").is_file():
            problems.append(f"/{path}: no {to} version (site/{target}index.html)")
    assert not problems, "\n".join(problems)
