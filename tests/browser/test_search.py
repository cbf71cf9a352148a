"""Search, as a reader uses it: type a query on a language's home page, read the results.

The queries live in search_queries.yml; each (query, site) pair is one test, named
after both, so a regression names the query and the page it lost.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from playwright.sync_api import expect

from tests.browser.conftest import CONFIG, guard
from tooling.static_server import site_path

QUERIES = Path(__file__).with_name("search_queries.yml")
HOME = {"zh": "", "en": "en/"}


def _cases() -> list:
    cases = []
    entries = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    for entry in entries:
        for lang, expected in entry["expect"].items():
            top = entry.get("top", 3)
            case_id = f"{lang}:{entry['query']}"
            cases.append(pytest.param(lang, entry["query"], expected, top, id=case_id))
    return cases


def search(page, query: str) -> list[str]:
    """Type `query` into the open page's search box; return the result pages' paths.

    Material updates results on key events, so the query is filled and then a key is
    pressed; the results are read once their count line shows a count.

    Args:
        page (playwright.sync_api.Page): a page of the site, loaded; it may hold the
            results of an earlier query.
        query (str): the search text.

    Returns:
        list[str]: paths below the site root, best first, without `?h=` or `#anchor`;
        one entry per result page.

    Raises:
        AssertionError: the index did not load, or no count appeared, within 15 s.
    """
    translations = json.loads(page.locator("#__config").text_content())["translations"]
    placeholder = translations["search.result.placeholder"]
    meta = page.locator(".md-search-result__meta")
    box = page.locator("input.md-search__input")
    box.click(force=True)  # at desktop width the header label covers the input
    # An empty box shows the placeholder once the index is loaded (before that the line
    # says "initialising"), and clears the results of an earlier query.
    box.fill("")
    box.press("End")
    expect(meta).to_have_text(placeholder, timeout=15_000)
    box.fill(query)
    for _ in range(10):  # a key pressed before the index is ready is not seen: press again
        box.press("End")
        try:
            expect(meta).not_to_have_text(placeholder, timeout=1000)
            break
        except AssertionError:
            continue
    expect(meta).not_to_have_text(placeholder, timeout=1000)
    # The count line is written before the result list: wait for the list too.
    links = page.locator(".md-search-result__item > .md-search-result__link")
    if meta.inner_text() != translations["search.result.none"]:
        expect(links.first).to_be_visible(timeout=5000)
    mount = site_path(CONFIG)
    # A page's result is followed by results for its sections: keep one entry per page.
    hrefs = links.evaluate_all("links => links.map(a => a.href)")
    return list(dict.fromkeys(urlsplit(href).path.removeprefix(mount) for href in hrefs))


@pytest.fixture(scope="module")
def home_pages(browser, base_url) -> dict:
    """Each site's home page, loaded once per worker and searched by every query.

    Returns:
        dict: language -> (page, its guard's problems) for that site's home page.
    """
    opened = {}
    for lang, path in HOME.items():
        context = browser.new_context(base_url=base_url)
        page = context.new_page()
        traffic = guard(context, page)
        page.goto(path, wait_until="networkidle")
        opened[lang] = (page, traffic)
    yield opened
    for page, _ in opened.values():
        page.context.close()


@pytest.mark.parametrize(("lang", "query", "expected", "top"), _cases())
def test_search_finds_the_page(home_pages, lang, query, expected, top):
    page, traffic = home_pages[lang]
    results = search(page, query)
    where = f"search for {query!r} on the {lang} site"
    shown = ["/" + path for path in results]
    foreign = [path for path in shown if path.startswith("/en/") != (lang == "en")]
    assert not foreign, f"{where}: results in the other language: {foreign}"
    assert expected in results[:top], f"{where}: /{expected} not in the first {top}: {shown}"
    assert not traffic, traffic


def test_queries_file_covers_both_sites():
    sites = {site for entry in yaml.safe_load(QUERIES.read_text()) for site in entry["expect"]}
    assert sites == set(HOME), f"{QUERIES.name}: add queries for every site: {sorted(HOME)}"
