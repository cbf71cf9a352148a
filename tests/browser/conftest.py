"""Browser stage: the built site in headless Chromium, driven by Playwright.

pytest-playwright provides the `browser`, `context` and `page` fixtures; this file
points it at Debian's Chromium (tooling/browser.py) and serves `site/` on 127.0.0.1
the way the static host will (tooling/static_server.py). Every browser context is
guarded (`guard`): requests to any other host are blocked and recorded, and so are
console errors, so that each test can assert that its pages are self-contained and
clean.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
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


@dataclass
class Traffic:
    """What pages did besides rendering: requests to other hosts, console errors.

    Attributes:
        external (list[str]): URLs of blocked requests to hosts other than 127.0.0.1.
        console_errors (list[str]): console errors and uncaught page errors.
        expected_missing (set[str]): URLs a test loads knowing they answer 404; the
            browser's "status of 404" message for them is not an error.
    """

    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    expected_missing: set[str] = field(default_factory=set)

    def problems(self) -> list[str]:
        """Both lists as messages (empty when the pages were self-contained and clean)."""
        return [f"request to another host: {url}" for url in self.external] + [
            f"console error: {text}" for text in self.console_errors
        ]

    def clear(self) -> None:
        """Forget what was recorded (between pages of one test)."""
        self.external.clear()
        self.console_errors.clear()


def guard(context, page) -> Traffic:
    """Block and record requests that leave 127.0.0.1; record console and page errors.

    Blocking keeps a test offline even if a page regresses; recording makes it fail.

    Args:
        context (playwright.sync_api.BrowserContext): routes are set on it, so that
            workers (Material's search) are covered too.
        page (playwright.sync_api.Page): its console is watched.

    Returns:
        Traffic: filled in as pages load.
    """
    seen = Traffic()

    def route(route):
        url = route.request.url
        if url.startswith(("data:", "blob:")) or urlsplit(url).hostname == "127.0.0.1":
            route.continue_()
        else:
            seen.external.append(f"{url} (loading {page.url})")
            route.abort()

    def console(message):
        expected = message.location.get("url") in seen.expected_missing
        if message.type == "error" and not (expected and "status of 404" in message.text):
            where = f"{message.location.get('url')}:{message.location.get('lineNumber')}"
            seen.console_errors.append(f"{message.text} ({where}, on {page.url})")

    context.route("**/*", route)
    page.on("console", console)
    page.on(
        "pageerror",
        lambda error: seen.console_errors.append(
            f"{(error.stack or str(error)).splitlines()[0]} (on {page.url})"
        ),
    )
    return seen


@pytest.fixture
def traffic(context, page) -> Traffic:
    """`guard` on pytest-playwright's context and page."""
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
