"""The offline edition, as a reader gets it: the archive `make offline` wrote, unpacked and
opened from disk. Every link and asset of every page leads to a file of the archive, and both
home pages link the archive where the deployed site publishes it; in Chromium, from `file://`
addresses, search finds pages in both languages, the language menu leads to the same page in
the other language, and no request leaves the machine (`file:`, `data:`, `blob:` only).
"""

from __future__ import annotations

import html
import re
import zipfile
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import HOME, record_errors, wait_for_search
from verified.paths import REPO_ROOT
from verified_site.pages import site_addresses

#: What `make offline` writes (the Makefile's OFFLINE_DIR and OFFLINE_NAME); it unpacks into a
#: folder of the same name, whose index.html is the Chinese home page.
ARCHIVE = REPO_ROOT / "build" / "offline" / "tensors-verified-offline.zip"
#: Where the deployed site publishes it (.github/workflows/ci.yml), below the site's address.
PUBLISHED = f"downloads/{ARCHIVE.name}"
#: The page searched and switched on, below each language's folder, and a query per language
#: that must find it.
PAGE = "fundamentals/broadcasting.html"
QUERIES = {"zh": "广播", "en": "broadcasting"}
#: What a page of the archive may request.
LOCAL = ("file:", "data:", "blob:")
#: A link or an asset of a page: an `href` or `src` attribute (in a code block, its quotes are
#: escaped, `&quot;`, so code that mentions one never matches). Not lychee (`make links`): its
#: `--offline --index-files ''` checks the same for links, but it reads no `<script src>`, and
#: the edition's search depends on the scripts it serves from its own files.
_LINK = re.compile(r'\s(?:href|src)="([^"]*)"')


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory) -> Path:
    """The archive's folder, unpacked once for this module's tests; fails with what to run
    when the archive is missing or older than the site's build."""
    if not ARCHIVE.is_file():
        pytest.fail(
            f"{ARCHIVE.relative_to(REPO_ROOT)} is missing: the offline build (stage 2 of "
            "`make test`) failed or did not run; fix the error reported there, or run "
            "`make offline`",
            pytrace=False,
        )
    site = REPO_ROOT / "site" / "index.html"
    if site.is_file() and ARCHIVE.stat().st_mtime < site.stat().st_mtime:
        pytest.fail(
            f"{ARCHIVE.relative_to(REPO_ROOT)} is older than site/: it was built from other "
            "sources than the site; run `make offline`",
            pytrace=False,
        )
    folder = tmp_path_factory.mktemp("offline")
    with zipfile.ZipFile(ARCHIVE) as archive:
        archive.extractall(folder)
    return folder / ARCHIVE.stem


def test_every_link_leads_to_a_file(unpacked):
    # Each notebook page's .ipynb download too (that every notebook page has one is
    # test_pages.py's).
    pages = sorted(unpacked.rglob("*.html"))
    assert len(pages) > 2, f"{ARCHIVE.name}: no pages in {ARCHIVE.stem}/"
    problems = []
    for page in pages:
        where, base = page.relative_to(unpacked).as_posix(), page.as_uri()
        for link in dict.fromkeys(_LINK.findall(page.read_text(encoding="utf-8"))):
            url = urlsplit(urljoin(base, html.unescape(link)))
            # A folder opens as a list of files from disk, not as its index.html.
            if url.scheme == "file" and not Path(unquote(url.path)).is_file():
                problems.append(f"{where}: {link} leads to no file")
    assert not problems, f"{len(problems)} broken links:\n" + "\n".join(problems[:20])


def test_home_pages_link_the_published_archive():
    expected = site_addresses(REPO_ROOT)[0] + PUBLISHED
    for locale in HOME:
        home = f"docs/{locale}/index.md"
        assert f"]({expected})" in (REPO_ROOT / home).read_text(encoding="utf-8"), (
            f"{home}: no link to the offline edition where the site publishes it, {expected}"
        )


def test_search_and_language_menu_from_disk(context, page, unpacked):
    requests, errors = [], []
    context.on("request", lambda request: requests.append(request.url))
    record_errors(page, errors)

    def local_only():  # after each page load, and at the end
        leaving = [url for url in requests if not url.startswith(LOCAL)]
        assert not leaving, f"requests from {page.url} that leave the machine:\n" + "\n".join(
            dict.fromkeys(leaving)
        )

    page.goto((unpacked / HOME["zh"] / PAGE).as_uri())
    for locale, to in (("zh", "en"), ("en", "zh")):
        where = f"{locale} {PAGE} opened from disk"
        local_only()
        box = page.locator("input.md-search__input")
        box.click(force=True)  # at desktop width the header label covers the input
        try:
            wait_for_search(page)
        except AssertionError as exc:
            raise AssertionError(f"{where}: search did not load its index\n{exc}") from None
        box.fill(QUERIES[locale])
        box.press("End")  # Material searches on key events
        links = page.locator(".md-search-result__item > .md-search-result__link")
        expect(links.first).to_be_visible(timeout=5000)
        found = [
            unquote(urlsplit(href).path)
            for href in links.evaluate_all("links => links.map(a => a.href)")
        ]
        assert str(unpacked / HOME[locale] / PAGE) in found, (
            f"{where}: search for {QUERIES[locale]!r} lists {found[:5]}, not the page itself"
        )
        assert all(Path(path).is_file() for path in found), f"{where}: a result leads to no file"
        page.keyboard.press("Escape")
        menu = page.locator(".md-header__option .md-select")
        menu.hover()  # as a reader opens it
        with page.expect_navigation():
            page.locator(f".md-select__link[hreflang={to}]").click()
        expected = (unpacked / HOME[to] / PAGE).as_uri()
        assert page.url == expected, f"{where}: the {to} menu entry led to {page.url}"
    local_only()
    assert not errors, "\n".join(errors)
