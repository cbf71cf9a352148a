"""Browser stage: the built site in headless Chromium, driven by pytest-playwright (its
`browser`, `context` and `page` fixtures). Each test's context is served `site/` as the static
host serves it, without a server (`guard`); requests to any other host are blocked and, with
console errors, recorded for the test to assert on (`traffic`).
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from playwright.sync_api import expect

from verified.paths import REPO_ROOT
from verified_site.pages import LOCALES, language_root, site_addresses

SITE = REPO_ROOT / "site"
#: Where the site is served, e.g. `/tensors-verified/` (the path of mkdocs.yml's site_url), so
#: that the 404 page's absolute links resolve as they do when deployed.
MOUNT = urlsplit(site_addresses(REPO_ROOT)[0]).path
#: Each site's home page, below the site root.
HOME = {locale: language_root(locale) for locale in LOCALES}


@pytest.fixture(scope="session")
def base_url(site: Path) -> str:
    """The site's address in the browser, e.g. `http://127.0.0.1/x/`: `page.goto("en/")` opens
    the English home page. No server listens there: `guard` answers from `site/`."""
    return "http://127.0.0.1" + MOUNT


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options with Debian's Chromium (never a download; `CHROMIUM`
    names another, e.g. Chrome on GitHub's runners). Playwright's own switches turn off its
    background requests (updates, sync); `guard` blocks every other host."""
    path = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not Path(path).is_file():
        pytest.fail(
            f"{path} not found: run `make browser` (installs Debian's chromium package), "
            "or set CHROMIUM to a Chromium or Chrome executable",
            pytrace=False,
        )
    return {**browser_type_launch_args, "executable_path": path}


def guard(context, page) -> list[str]:
    """Serve `site/` to the context's pages and workers as a static host (GitHub Pages) does:
    below MOUNT only, a folder by its index.html, anything else by the site's 404.html with
    status 404; block requests to any other host. The list returned fills in as pages load: one
    message naming the page per blocked request, console error or page error."""
    seen = []

    def route(route):
        url = urlsplit(route.request.url)
        if url.hostname != "127.0.0.1":
            seen.append(f"request to another host: {route.request.url} (loading {page.url})")
            return route.abort()
        file = SITE / unquote(url.path.removeprefix(MOUNT))
        file = file / "index.html" if file.is_dir() else file
        if url.path.startswith(MOUNT) and file.is_file():
            return route.fulfill(path=file)
        route.fulfill(status=404, path=SITE / "404.html")

    context.route("**/*", route)
    record_errors(page, seen)
    return seen


def record_errors(page, seen: list[str]) -> None:
    """Append to `seen` one message naming the page per console error or page error of `page`,
    as they happen."""

    def console(message):
        if message.type == "error":
            where = f"{message.location.get('url')}:{message.location.get('lineNumber')}"
            seen.append(f"console error: {message.text} ({where}, on {page.url})")

    page.on("console", console)
    page.on(
        "pageerror",
        lambda error: seen.append(
            f"console error: {(error.stack or str(error)).splitlines()[0]} (on {page.url})"
        ),
    )


@pytest.fixture
def traffic(context, page) -> list[str]:
    return guard(context, page)


def wait_for_search(page) -> dict[str, str]:
    """Wait until the loaded page's search worker has answered the empty query (the last thing
    a page does after loading), 5 s at most; the page's translations (Material's `#__config`)."""
    translations = json.loads(page.locator("#__config").text_content())["translations"]
    placeholder = translations["search.result.placeholder"]
    expect(page.locator(".md-search-result__meta")).to_have_text(placeholder, timeout=5000)
    return translations


def site_pages(locale: str) -> list[str]:
    """Every page of one language (`zh` or `en`) in the site's sitemap (the root one lists both
    languages: overrides/sitemap.xml), as paths below the site root (`""`, `en/api/clamp/`)."""
    sitemap = SITE / "sitemap.xml"
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    paths = [
        urlsplit(loc.text).path.removeprefix(MOUNT)
        for loc in ElementTree.parse(sitemap).getroot().findall("s:url/s:loc", namespace)
    ]
    return [path for path in paths if path.startswith(HOME["en"]) == (locale == "en")]


def site_link(path: str, href: str) -> str | None:
    """Where a link (relative, root-relative or absolute) on the page at `path` leads on
    the served site: a path below the site root (with any `?query` or `#fragment`), or
    None when it leaves the site."""
    origin = "http://127.0.0.1" + MOUNT
    target = urljoin(origin + path, href)
    return target.removeprefix(origin) if target.startswith(origin) else None
