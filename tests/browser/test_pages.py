"""Every page of both languages, loaded in the browser: status, offline, clean console,
stamp, edit link, last-updated date (none on notebook pages), the head tags search engines
read, the language menu's relative link to the same page in the other language (clicking it,
there and back, is test_offline.py's), and on the notebook pages a download link that serves
the notebook written for the page's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.browser.conftest import HOME, SITE, site_link, site_pages, wait_for_search
from verified.paths import REPO_ROOT, docs_dir, relative
from verified_site.notebooks import META
from verified_site.pages import front_matter, notebook_sources, page_at, site_addresses

#: The address of the site's root, which canonical links start with.
SITE_URL = site_addresses(REPO_ROOT)[0]
#: The head tags, edit link, date, language menu and stamps the checks read, in one call into the
#: browser (each call is a round trip).
_READ = """() => {
    const get = (css, name) => document.querySelector(css)?.getAttribute(name) ?? ""
    const menu = document.querySelectorAll(".md-header__option .md-select a[hreflang]")
    return [get("html", "lang"), get("meta[name=description]", "content"),
        get("link[rel=canonical]", "href"), get("a[rel=edit]", "href"),
        document.querySelector(".md-source-file__fact")?.innerText ?? "",
        [...menu].map(link => [link.hreflang, link.getAttribute("href")]),
        // Whether each verification stamp is shown (not display: none, nor visibility: hidden).
        [...document.querySelectorAll(".admonition.verification-stamp")]
            .map(stamp => stamp.checkVisibility({visibilityProperty: true}))]
}"""
NOTEBOOKS = notebook_sources(REPO_ROOT)


def _download_problems(page, source: Path) -> list[str]:
    """What is wrong with the loaded notebook page's download link (`make notebooks`)."""
    link = page.locator("article a[download]")
    if link.count() != 1:
        return ["no download link below the title"]
    # Fetched by the page from the served site (`base_url`).
    status, body = page.evaluate(
        "async href => { const r = await fetch(href); return [r.status, await r.text()] }",
        link.get_attribute("href"),
    )
    if status != 200:
        return [f"download link status {status}"]
    try:
        written_for = json.loads(body)["metadata"][META]["source"]  # by `make notebooks`
    except (ValueError, KeyError, TypeError):
        return ["the download is not a notebook written by `make notebooks`"]
    if written_for != relative(source, REPO_ROOT):
        return [f"the download is the notebook of {written_for}"]
    return []


def _problems_of(page, path: str) -> list[str]:
    """What is wrong with the loaded page at `path` (empty when nothing is)."""
    source = page_at(path, docs_dir(REPO_ROOT))
    lang, description, canonical, edit, updated, menu, stamps = page.evaluate(_READ)
    problems = []
    locale = "en" if path.startswith(HOME["en"]) else "zh"  # from the address, not the file
    if lang != locale:
        problems.append(f"<html lang> is {lang!r}, not {locale}")
    # A page without `description:` is refused by tooling.checks.missing_descriptions.
    meta = front_matter(source, source.read_text("utf-8"))
    if description != meta.get("description"):
        problems.append("meta description is not the page's `description:`")
    if canonical != SITE_URL + path:
        problems.append(f"canonical link {canonical!r}, expected {SITE_URL + path}")
    # A generated page is edited in its data file.
    if not edit.endswith(f"/edit/main/{meta.get('data') or relative(source, REPO_ROOT)}"):
        problems.append(f"'edit this page' is {edit or 'missing'}, not a link to its source file")
    # A notebook page's notebook is written at build time: git knows only its source, and the
    # page shows no date (mkdocs.base.yml, git-revision-date-localized's `exclude`).
    if not re.search(r"\d{4}", updated) and source not in NOTEBOOKS:
        problems.append("no last-updated date")
    elif updated and source in NOTEBOOKS:
        problems.append(f"a last-updated date, {updated!r}, which would be the build's")
    # Relative, so that the site works wherever it is served (a mirror, a local copy).
    other = "zh" if locale == "en" else "en"
    target = HOME[other] + path.removeprefix(HOME["en"])
    links = [href for hreflang, href in menu if hreflang == other]
    if len(links) != 1 or links[0].startswith("/") or "//" in links[0]:
        problems.append(f"the language menu's {other} links are {links}, not one relative link")
    elif (found := site_link(path, links[0])) != target:
        problems.append(f"the language menu's {other} link leads to /{found}, not /{target}")
    elif not (SITE / target / "index.html").is_file():
        problems.append(f"no {other} version (site/{target}index.html)")
    # Which stamp the page carries, if any, is checked on the built HTML (tests/content/
    # test_build.py).
    if len(stamps) > 1:
        problems.append(f"{len(stamps)} verification stamps")
    elif stamps and not stamps[0]:
        problems.append("the verification stamp is not visible")
    if source in NOTEBOOKS:
        problems += _download_problems(page, source)
    return problems


#: Each language's pages in this many tests, so that the two test workers share them evenly
#: (one test per language was the longest of the suite's last stage).
PARTS = 3


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("locale", HOME)
def test_every_page(page, traffic, base_url, locale, part):
    paths = site_pages(locale)
    assert paths, "site/sitemap.xml lists no pages: is site_url set in mkdocs.yml?"
    assert NOTEBOOKS, "no notebook pages in docs/<language>/notebooks/ to check"
    # The reference's pages come from one generator: its overview and first family stand for
    # the rest (each is a large page; loading them all doubled this test's time).
    reference = [path for path in paths if "reference/" in path]
    paths = [path for path in paths if path not in reference[2:]][part::PARTS]
    index_url = base_url + HOME[locale] + "search/search_index.json"
    # The page fetches the index and hands it to the search worker, which builds lunr's index
    # from it: a second of work the next page throws away, on the core the other test worker
    # needs. Past the home page, where search is waited for, the worker is one that drops it.
    home = {"page": True}
    page.route(
        "**/assets/javascripts/workers/search-queries.js",
        lambda route: (
            route.continue_()
            if home["page"]
            else route.fulfill(content_type="text/javascript", body="onmessage = () => {}")
        ),
    )
    problems = []
    for path in paths:
        home["page"] = path == HOME[locale]
        response = index = None
        try:  # the index is the last thing a page asks for: late requests count too
            with page.expect_response(
                lambda response: response.url.endswith("/search/search_index.json"),
                timeout=10_000,
            ) as waiting:
                response = page.goto(path)
            index = waiting.value
        except PlaywrightTimeoutError:
            pass  # named below
        if response is None or response.status != 200:
            found = [f"status {response.status}" if response else "did not load within 10 s"]
        else:
            found = _problems_of(page, path)
            if index is None:
                found.append("search did not ask for its index within 10 s")
            elif index.url != index_url or index.status != 200:
                found.append(f"search loaded {index.url} ({index.status}), not {index_url}")
            elif path == HOME[locale]:
                # The worker's work on the index is the same on every page: waited for once.
                try:
                    wait_for_search(page)
                except AssertionError:
                    found.append("search did not load its index within 5 s")
        problems += [f"/{path}: {problem}" for problem in found + traffic]
        traffic.clear()
    assert not problems, "\n".join(problems)


def test_not_found_page_leads_home_in_both_languages(page, traffic, base_url):
    missing = base_url + "no-such-page/"
    for hreflang, home in HOME.items():
        response = page.goto(missing)
        assert response.status == 404, "a missing page must answer 404 with the site's 404.html"
        with page.expect_navigation() as navigation:
            page.locator(f"article a[hreflang={hreflang}]").click()
        assert navigation.value.status == 200, f"the 404 page's {hreflang} link is broken"
        expect(page).to_have_url(base_url + home)
        assert page.get_attribute("html", "lang") == hreflang
    # The browser's console error for the page loaded on purpose is no problem.
    unexpected = [t for t in traffic if not ("status of 404" in t and f"({missing}:" in t)]
    assert not unexpected, unexpected
