"""Browser stage: the built site in headless Chromium, driven by pytest-playwright (its
`browser`, `context` and `page` fixtures). `site/` is served as GitHub Pages serves it, by the
standard library's HTTP server (`base_url`); Chromium resolves no other host name, and requests
to other hosts are recorded with console errors for each test to assert on (`traffic`).
"""

from __future__ import annotations

import json
import os
import threading
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urljoin, urlsplit

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


class _StaticHost(SimpleHTTPRequestHandler):
    """`site/` below MOUNT as a static host serves it: a folder by its index.html (a folder
    without its final slash redirected to it), anything else by the site's 404.html with status
    404. A real server, not Playwright's request routing, so that the browser caches what pages
    share (routing turns the cache off and passes every file through the test process)."""

    def translate_path(self, path: str) -> str:
        path = urlsplit(path).path
        if not path.startswith(MOUNT):
            return str(SITE / "no such file")
        return super().translate_path("/" + path.removeprefix(MOUNT))

    def send_error(self, code: int, message: str | None = None, explain: str | None = None):
        if code != HTTPStatus.NOT_FOUND:
            return super().send_error(code, message, explain)
        body = (SITE / "404.html").read_bytes()
        self.send_response(code)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:
        """Quiet: a failing test names what it saw."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Let this folder's tests reach the site's server on 127.0.0.1 and nothing else
    (pytest-socket's `allow_hosts`; the other tests reach no host at all)."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.allow_hosts(["127.0.0.1"]))


@pytest.fixture(scope="session")
def base_url(site: Path) -> Iterator[str]:
    """The site's address in the browser, e.g. `http://127.0.0.1:41234/x/`: `page.goto("en/")`
    opens the English home page. Served for the session by a thread of this test worker."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_StaticHost, directory=site))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}{MOUNT}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options with Debian's Chromium (never a download; `CHROMIUM`
    names another, e.g. Chrome on GitHub's runners). Playwright's own switches turn off its
    background requests (updates, sync); Chromium's host resolver rules leave it no host but
    127.0.0.1, so a page that asks another host fails its request (`record_traffic` names it)."""
    path = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not Path(path).is_file():
        pytest.fail(
            f"{path} not found: run `make browser` (installs Debian's chromium package), "
            "or set CHROMIUM to a Chromium or Chrome executable",
            pytrace=False,
        )
    only_this_host = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
    args = [*browser_type_launch_args.get("args", []), only_this_host]
    return {**browser_type_launch_args, "executable_path": path, "args": args}


def record_traffic(context, page) -> list[str]:
    """The list of what goes wrong on `page` (of `context`), filled in as pages load: one
    message naming the page per request to another host (which Chromium cannot resolve:
    `browser_type_launch_args`), console error or page error."""
    seen = []

    def failed(request):
        if urlsplit(request.url).hostname not in ("127.0.0.1", None):
            seen.append(f"request to another host: {request.url} (loading {page.url})")

    context.on("requestfailed", failed)
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
    return record_traffic(context, page)


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
