"""Browser stage: the built site in headless Chromium, driven by Playwright.

pytest-playwright provides the `browser` (one per worker), `context` and `page` (new
for each test) fixtures; this file points it at Debian's Chromium (tooling/browser.py)
and serves `site/` on 127.0.0.1 the way the static host will
(tooling/static_server.py). Each test guards its own context (`traffic`, `guard`):
requests to any other host are blocked, and they and console errors are recorded, so
that the test can assert that its pages are self-contained and clean.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tooling.browser import CHROMIUM_ARGS, chromium_path
from tooling.static_server import serve, site_path
from verified.paths import REPO_ROOT

#: Screenshots for review (not committed: build/ is ignored).
SCREENSHOTS = REPO_ROOT / "build" / "screenshots"
CONFIG = REPO_ROOT / "mkdocs.yml"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Let browser tests use sockets: the site is served on 127.0.0.1 from this process.

    pytest-socket (`--disable-socket` in pyproject.toml) stays on for every other test;
    no request reaches another host here either (see `guard`).
    """
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.enable_socket)


@pytest.fixture(scope="session")
def base_url(site: Path) -> str:
    """pytest-playwright's base URL: the served site, e.g. `http://127.0.0.1:41234/x/`.

    `page.goto("en/")` then opens the English home page.
    """
    with serve(site, site_path(CONFIG)) as url:
        yield url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options, with Debian's Chromium and offline flags."""
    return {**browser_type_launch_args, "executable_path": chromium_path(), "args": CHROMIUM_ARGS}


def guard(context, page, missing: str = "") -> list[str]:
    """Block requests that leave 127.0.0.1 (on the context, so workers are covered too).

    Returns:
        list[str]: filled in as pages load, one message naming the page per blocked
        request, console error or page error; the browser's "status of 404" error for
        the URL `missing`, which the test loads on purpose, is not one.
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
        url = message.location.get("url")
        if message.type == "error" and not (url == missing and "status of 404" in message.text):
            where = f"{url}:{message.location.get('lineNumber')}"
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
    """`guard` on this test's own context and page."""
    return guard(context, page)


def site_pages(locale: str) -> list[str]:
    """Paths (below the site root) of every page of one language, from the built sitemap.

    Args:
        locale (str): `"zh"` (site root) or `"en"` (under `en/`).

    Returns:
        list[str]: e.g. `["", "numpy-torch/dtypes/", ...]`; empty if the site is not built.
    """
    sitemap = REPO_ROOT / "site" / "sitemap.xml"
    if not sitemap.is_file():
        return []
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    mount = site_path(CONFIG)
    paths = [
        urlsplit(loc.text).path.removeprefix(mount)
        for loc in ElementTree.parse(sitemap).getroot().findall("s:url/s:loc", namespace)
    ]
    english = [path for path in paths if path.startswith("en/")]
    return english if locale == "en" else [path for path in paths if path not in english]


def other_language(path: str) -> str:
    """The same page in the other language.

    Args:
        path (str): a page path below the site root, e.g. `numpy-torch/x/`.

    Returns:
        str: `en/numpy-torch/x/` for `numpy-torch/x/`, and the reverse.
    """
    return path.removeprefix("en/") if path.startswith("en/") else "en/" + path
