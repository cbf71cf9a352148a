"""Browser stage: the built site in headless Chromium, driven by pytest-playwright (its
`browser`, `context` and `page` fixtures), served on 127.0.0.1 as the static host will.

Each test guards its own context (`traffic`, `guard`): requests to any other host are
blocked, and they and console errors are recorded, so that the test can assert that its
pages are self-contained and clean.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import expect

from tooling.browser import CHROMIUM_ARGS, chromium_path
from tooling.static_server import serve, site_path
from verified.paths import REPO_ROOT
from verified_site.pages import LOCALES, language_root

SCREENSHOTS = REPO_ROOT / "build" / "screenshots"
#: Where the site is served, e.g. `/tensors-verified/` (the path of mkdocs.yml's site_url).
MOUNT = site_path(REPO_ROOT)
#: Each site's home page, below the site root.
HOME = {locale: language_root(locale) for locale in LOCALES}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Let browser tests use sockets: the site is served on 127.0.0.1 from this process.
    pytest-socket (`--disable-socket`) stays on for every other test; see also `guard`."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.enable_socket)


@pytest.fixture(scope="session")
def base_url(site: Path) -> str:
    """The served site, e.g. `http://127.0.0.1:41234/x/`: `page.goto("en/")` opens the
    English home page."""
    with serve(site, MOUNT) as url:
        yield url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options, with Debian's Chromium and offline flags."""
    return {**browser_type_launch_args, "executable_path": chromium_path(), "args": CHROMIUM_ARGS}


def guard(context, page) -> list[str]:
    """Block requests that leave 127.0.0.1 (on the context, so workers are covered too).

    The list returned fills in as pages load: one message naming the page per blocked
    request, console error or page error.
    """
    seen = []

    def route(route):
        url = route.request.url
        if url.startswith(("data:", "blob:")) or urlsplit(url).hostname == "127.0.0.1":
            route.continue_()
        else:
            seen.append(f"request to another host: {url} (loading {page.url})")
            route.abort()

    def console(message):
        if message.type == "error":
            where = f"{message.location.get('url')}:{message.location.get('lineNumber')}"
            seen.append(f"console error: {message.text} ({where}, on {page.url})")

    context.route("**/*", route)
    page.on("console", console)
    page.on(
        "pageerror",
        lambda error: seen.append(
            f"console error: {(error.stack or str(error)).splitlines()[0]} (on {page.url})"
        ),
    )
    return seen


@pytest.fixture
def traffic(context, page) -> list[str]:
    return guard(context, page)


def wait_for_search(page) -> dict[str, str]:
    """Wait until the loaded page's search worker has its index and has answered the
    empty query: the last thing a page does after loading. Returns the page's translations
    (from Material's `#__config`); AssertionError if the results line shows no placeholder
    within 5 s.
    """
    translations = json.loads(page.locator("#__config").text_content())["translations"]
    placeholder = translations["search.result.placeholder"]
    expect(page.locator(".md-search-result__meta")).to_have_text(placeholder, timeout=5000)
    return translations


def site_pages(locale: str) -> list[str]:
    """Every page of one language (`zh` or `en`) in the built sitemap, as paths below the
    site root (`""`, `en/api/clamp/`)."""
    sitemap = REPO_ROOT / "site" / "sitemap.xml"
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    paths = [
        urlsplit(loc.text).path.removeprefix(MOUNT)
        for loc in ElementTree.parse(sitemap).getroot().findall("s:url/s:loc", namespace)
    ]
    return [path for path in paths if path.startswith(HOME["en"]) == (locale == "en")]


def built_page(path: str, end: str = "") -> BeautifulSoup:
    """The built HTML of the page at `path` (below the site root), up to the first `end` if
    given (the header alone parses in a fraction of the time); FileNotFoundError if site/ has
    no such page."""
    html = (REPO_ROOT / "site" / path / "index.html").read_text(encoding="utf-8")
    return BeautifulSoup(html.split(end, 1)[0] if end else html, "html.parser")


def site_link(path: str, href: str) -> str | None:
    """Where a link (relative, root-relative or absolute) on the page at `path` leads on
    the served site: a path below the site root (with any `?query` or `#fragment`), or
    None when it leaves the site."""
    origin = "http://127.0.0.1" + MOUNT
    target = urljoin(origin + path, href)
    return target.removeprefix(origin) if target.startswith(origin) else None
