"""Browser stage: the built site in headless Chromium, driven by pytest-playwright (its
`browser`, `context` and `page` fixtures), served on 127.0.0.1 as the static host will.

Each test guards its own context (`traffic`, `guard`): requests to any other host are
blocked, and they and console errors are recorded, so that the test can assert that its
pages are self-contained and clean.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import xml.etree.ElementTree as ElementTree
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup
from playwright.sync_api import expect

from verified.paths import REPO_ROOT
from verified_site.pages import LOCALES, language_root, site_addresses

SCREENSHOTS = REPO_ROOT / "build" / "screenshots"
#: Where the site is served, e.g. `/tensors-verified/` (the path of mkdocs.yml's site_url), so
#: that the 404 page's absolute links resolve as they do when deployed.
MOUNT = urlsplit(site_addresses(REPO_ROOT)[0]).path
#: Each site's home page, below the site root.
HOME = {locale: language_root(locale) for locale in LOCALES}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Let browser tests use sockets: the site is served on 127.0.0.1 from this process.
    pytest-socket (`--disable-socket`) stays on for every other test; see also `guard`."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.enable_socket)


class _StaticHost(SimpleHTTPRequestHandler):
    """The standard library's file server, as a static host (GitHub Pages) serves: the site
    below MOUNT only, no folder listings, and the site's 404.html for anything missing (set as
    `error_message_format`, with status 404)."""

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        """Quiet: the tests report what matters."""

    def translate_path(self, path: str) -> str:
        route = urlsplit(path).path
        if not route.startswith(MOUNT):
            return str(Path(self.directory) / "missing")  # outside the site: not found
        return super().translate_path("/" + route.removeprefix(MOUNT))

    def list_directory(self, path):
        self.send_error(HTTPStatus.NOT_FOUND)

    def end_headers(self):
        self.send_header("Cache-Control", "max-age=600")  # as a static host: pages load once
        super().end_headers()


class _Server(ThreadingHTTPServer):
    """No traceback when the browser hangs up on a response."""

    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@pytest.fixture(scope="session")
def base_url(site: Path) -> str:
    """The served site, e.g. `http://127.0.0.1:41234/x/`: `page.goto("en/")` opens the
    English home page."""
    # send_error fills the page in with `%`: the page's own `%` are escaped.
    _StaticHost.error_message_format = (site / "404.html").read_text("utf-8").replace("%", "%%")
    server = _Server(("127.0.0.1", 0), partial(_StaticHost, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}{MOUNT}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options with Debian's Chromium (never a download; `CHROMIUM`
    names another, e.g. Chrome on GitHub's runners) and the flags lighthouserc.json gives it
    for a closed network, less the headless and sandbox ones, which Playwright sets itself."""
    path = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not Path(path).is_file():
        pytest.fail(
            f"{path} not found: run `make browser` (installs Debian's chromium package), "
            "or set CHROMIUM to a Chromium or Chrome executable",
            pytrace=False,
        )
    lighthouse = json.loads((REPO_ROOT / "lighthouserc.json").read_text(encoding="utf-8"))
    flags = lighthouse["ci"]["collect"]["settings"]["chromeFlags"].split()
    args = [flag for flag in flags if flag not in ("--headless=new", "--no-sandbox")]
    return {**browser_type_launch_args, "executable_path": path, "args": args}


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
