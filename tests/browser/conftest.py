"""Browser stage: the built site in headless Chromium, driven by Playwright.

pytest-playwright provides the `browser`, `context` and `page` fixtures; this file
points it at Debian's Chromium (tooling/browser.py) and serves `site/` on 127.0.0.1
the way the static host will (tooling/static_server.py). Every context blocks and
records requests to any other host, and every page records its console errors, so
each test can assert that a page is self-contained and clean.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tooling.browser import CHROMIUM_ARGS, chromium_path
from tooling.paths import REPO_ROOT
from tooling.static_server import serve, site_path

SITE = REPO_ROOT / "site"
#: Screenshots for review (not committed: build/ is ignored).
SCREENSHOTS = REPO_ROOT / "build" / "screenshots"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Let browser tests use sockets: the site is served on 127.0.0.1 from this process.

    pytest-socket (`--disable-socket` in pyproject.toml) stays on for every other test;
    no request reaches another host here either (see `guarded_context`).
    """
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.enable_socket)


@pytest.fixture(scope="session")
def site_root() -> str:
    """URL of the served site, e.g. `http://127.0.0.1:41234/tensors-verified/`."""
    if not (SITE / "index.html").is_file():
        pytest.fail(
            "site/index.html is missing: the site build (stage 2 of `make test`) failed or did "
            "not run; fix the build error reported above, or run `make build`"
        )
    with serve(SITE, site_path(REPO_ROOT / "mkdocs.yml")) as url:
        yield url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options, with Debian's Chromium and offline flags."""
    return {**browser_type_launch_args, "executable_path": chromium_path(), "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def base_url(site_root: str) -> str:
    """pytest-playwright's base URL: `page.goto("en/")` opens the served site's `en/`."""
    return site_root


@dataclass
class Traffic:
    """What pages did besides rendering: requests to other hosts, console errors."""

    external: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        """Both lists as messages (empty when the page was self-contained and clean)."""
        return [f"request to another host: {url}" for url in self.external] + [
            f"console error: {text}" for text in self.console_errors
        ]


@pytest.fixture
def traffic(context, page) -> Traffic:
    """Block and record requests that leave 127.0.0.1; record console errors.

    Blocking keeps a test offline even if a page regresses; recording makes it fail.
    """
    seen = Traffic()

    def route(route):
        host = urlsplit(route.request.url).hostname
        if route.request.url.startswith(("data:", "blob:")) or host == "127.0.0.1":
            route.continue_()
        else:
            seen.external.append(route.request.url)
            route.abort()

    context.route("**/*", route)

    def console(message):
        # The 404 test loads a missing page on purpose; the browser logs its status.
        if message.type == "error" and "status of 404" not in message.text:
            seen.console_errors.append(f"{message.text} ({message.location.get('url')})")

    page.on("console", console)
    page.on("pageerror", lambda error: seen.console_errors.append(str(error)))
    return seen


def site_pages(locale: str) -> list[str]:
    """Paths (below the site root) of every page of one language, from the sitemap.

    Args:
        locale (str): `"zh"` (site root) or `"en"` (under `en/`).

    Returns:
        list[str]: e.g. `["", "numpy-torch/dtypes/", ...]`; empty if the site is not built.
    """
    sitemap = SITE / "sitemap.xml"
    if not sitemap.is_file():
        return []
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    base = site_path(REPO_ROOT / "mkdocs.yml")
    paths = [
        urlsplit(loc.text).path.removeprefix(base)
        for loc in ElementTree.parse(sitemap).getroot().findall("s:url/s:loc", namespace)
    ]
    english = [p for p in paths if p.startswith("en/")]
    return english if locale == "en" else [p for p in paths if p not in english]


def source_of(path: str) -> Path:
    """The Markdown file a site path was built from.

    Args:
        path (str): page path below the site root, e.g. `en/numpy-torch/dtypes/`.

    Returns:
        Path: e.g. `docs/numpy-torch/dtypes.en.md` (relative to the repository root).
    """
    suffix = ".en.md" if path.startswith("en/") else ".md"
    slug = Path("docs", path.removeprefix("en/").strip("/") or "index")
    candidates = [slug.with_name(slug.name + suffix), slug / f"index{suffix}"]
    return next((c for c in candidates if (REPO_ROOT / c).is_file()), candidates[0])


def other_language(path: str) -> str:
    """The same page in the other language: `numpy-torch/x/` <-> `en/numpy-torch/x/`."""
    return path.removeprefix("en/") if path.startswith("en/") else "en/" + path
