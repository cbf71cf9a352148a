"""Search, ranked by Material's own search code in Node (search_rank.mjs), one process per
site: every query of search_queries.yml; each error atlas entry's printed line, as a reader
pastes it, and a variant with other numbers; each other name the glossary gives a term (`also`),
expecting the page it shows the term at. A sample is typed into each site's search box in the
browser, which must show what Node ranked."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from playwright.sync_api import expect

from tests.browser.conftest import HOME, MOUNT, built_page, site_link, wait_for_search
from tests.content.test_atlas import ATLAS, atlas_entries
from tooling import glossary
from verified.paths import REPO_ROOT, docs_dir
from verified_site.pages import page_locale, page_url

QUERIES = Path(__file__).with_name("search_queries.yml")
RANK = Path(__file__).with_name("search_rank.mjs")


#: The file's queries: `query`, the page each site's search must find (`expect`) in how many
#: first results (`top`, 3 if not given), and why a site's search cannot find it yet (`known_miss`).
ENTRIES = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))


def expectations(locale: str) -> list[tuple[str, str, int]]:
    """(query, page that must be found, how many results count) for one site, in file order."""
    return [
        (e["query"], e["expect"][locale], e.get("top", 3)) for e in ENTRIES if locale in e["expect"]
    ]


def atlas_queries(locale: str) -> list[tuple[str, str, int]]:
    """(query, entry's section, 3) for each error atlas entry of the `locale` site: the line its
    example printed, and that line with each number that stands alone raised by 3."""
    root = "" if locale == "zh" else "en/"
    queries = []
    for page in ATLAS:
        if page_locale(page) != locale:
            continue
        for entry in atlas_entries(page)[0]:
            expected = f"{root}errors/{page.name.split('.')[0]}/#{entry.anchor}"
            # Numbers standing alone (sizes, indices), not digits of names (mat1, float64, 2.6).
            variant = re.sub(r"(?<![\w.])\d+(?![\w.])", lambda m: str(int(m[0]) + 3), entry.printed)
            queries += [(q, expected, 3) for q in dict.fromkeys([entry.printed, variant])]
    return queries


def glossary_queries(locale: str) -> list[tuple[str, str, int]]:
    """(name, the page or section the glossary shows the term at, 3) for each other name the
    glossary gives a term in `locale` (`also`, the names readers meet elsewhere): the site's
    search tags the page with them."""
    docs, queries = docs_dir(REPO_ROOT), []
    for term in (t for t in glossary.load(REPO_ROOT).terms if t.see):
        page, _, anchor = term.see.partition("#")
        url = page_url(docs / locale / page)
        expected = url + (f"#{anchor}" if anchor else "")
        queries += [(name, expected, 3) for name in term.names[locale].also]
    return queries


def rank(site: Path, locale: str, queries: list[str]) -> dict[str, list[list[str]]]:
    """Rank `queries` as the `locale` site's search box does, with the worker and index its
    home page names, in one Node process: query -> the pages found, best first, each as the
    addresses of its results, best first (paths below the root, a section's with its
    `#anchor`). AssertionError, with Node's error output, if Node is missing or failed."""
    node = shutil.which("node")
    assert node, "Node.js (20 or newer) is needed to rank search results: install nodejs"
    home = HOME[locale]
    config = json.loads(built_page(home).find(id="__config").string)
    base = site_link(home, config["base"])
    worker = site / site_link(home, config["search"])
    index = site / site_link(base, "search/search_index.json")
    suggest = "suggest" if "search.suggest" in config["features"] else ""
    command = [node, RANK, worker, index, suggest]
    done = subprocess.run(command, input=json.dumps(queries), capture_output=True, text=True)
    assert done.returncode == 0, f"{RANK.name} failed:\n{done.stderr}"
    ranked = json.loads(done.stdout)
    return {
        query: [[site_link(base, loc) for loc in item] for item in items]
        for query, items in zip(queries, ranked, strict=True)
    }


def search_failures(wanted: list[tuple[str, str, int]], site: Path, locale: str) -> dict[str, str]:
    """What the `locale` site's search gets wrong for `wanted` (query, page or `page/#anchor`
    to find, in how many first results): query -> message, empty when all pass."""
    ranked = rank(site, locale, [query for query, _, _ in wanted])
    failures = {}
    for query, expected, top in wanted:
        where = f"search for {query!r} on the {locale} site"
        pages = [item[0].split("#")[0] for item in ranked[query]]
        shown = ["/" + path for path in pages]
        foreign = [path for path in shown if path.startswith("/en/") != (locale == "en")]
        # A page is found by any of its results; a `page/#anchor`, by that section's.
        found = ranked[query][:top] if "#" in expected else [[page] for page in pages[:top]]
        if foreign:
            failures[query] = f"{where}: results in the other language: {foreign}"
        elif not any(expected in item for item in found):
            failures[query] = f"{where}: /{expected} not in the first {top}: {shown[: top + 2]}"
    return failures


@pytest.mark.parametrize("locale", HOME)
def test_search_finds_the_pages(site, locale, record_property):
    generated = atlas_queries(locale) + glossary_queries(locale)
    wanted = list(dict.fromkeys(expectations(locale) + generated))
    misses = {
        e["query"]: e["known_miss"][locale] for e in ENTRIES if locale in e.get("known_miss", {})
    }
    failures = search_failures(wanted, site, locale)
    problems = [message for query, message in failures.items() if query not in misses]
    problems += [
        f"{QUERIES.name}: search for {query!r} on the {locale} site finds its page now: "
        "remove its known_miss"
        for query in misses
        if query not in failures
    ]
    found = sum(query not in failures for query, _, _ in wanted)
    summary = [
        f"search on the {locale} site: {found} of {len(wanted)} queries "
        f"({found / len(wanted):.1%}) find their page or entry in the first results"
    ]
    summary += [f"  known miss: {query!r}: {why}" for query, why in misses.items()]
    record_property("search summary", "\n".join(summary))  # conftest.py prints it
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", HOME)
def test_numbers_and_common_words_find_something(site, locale):
    """lunr 2.3.9 (in Material's worker) can fail a whole query when its expansion reaches two
    token-set nodes it names alike (lunr issue #503; "9" once found nothing on the Chinese
    site), and Material's worker fails every query when two index entries share a location.
    Short queries that every index answers must find pages; if one finds nothing, look at what
    the last change added to the index."""
    queries = ["9", "2", "0.1", "float16", "int64", "tensor", "张量"]
    ranked = rank(site, locale, queries)
    empty = [query for query in queries if not ranked[query]]
    assert not empty, f"search on the {locale} site finds nothing for {empty}"


@pytest.mark.parametrize("locale", HOME)
def test_search_box_shows_what_node_ranks(page, traffic, site, locale):
    sample = [query for query, _, _ in expectations(locale)[:2] + atlas_queries(locale)[:1]]
    ranked = rank(site, locale, sample)
    page.goto(HOME[locale])
    box = page.locator("input.md-search__input")
    meta = page.locator(".md-search-result__meta")
    links = page.locator(".md-search-result__item > .md-search-result__link")
    for query in sample:  # typed as a reader does
        box.click(force=True)  # at desktop width the header label covers the input
        box.fill("")  # clears the results of an earlier query
        box.press("End")  # Material searches on key events
        translations = wait_for_search(page)
        box.fill(query)
        box.press("End")
        expect(meta).not_to_have_text(translations["search.result.placeholder"], timeout=5000)
        # The count line is written before the result list: wait for the list too.
        if meta.inner_text() != translations["search.result.none"]:
            expect(links.first).to_be_visible(timeout=5000)
        # A page's result is followed by results for its sections: one entry per page. Material
        # lists the first 10 at once, the rest as the reader scrolls.
        hrefs = links.evaluate_all("links => links.map(a => a.href)")
        shown = list(dict.fromkeys(urlsplit(href).path.removeprefix(MOUNT) for href in hrefs))
        pages = [item[0].split("#")[0] for item in ranked[query]]
        assert shown[:10] == pages[:10], (
            f"search for {query!r} on the {locale} site: the browser lists {shown[:10]}, "
            f"Material's worker in Node {pages[:10]}"
        )
    assert not traffic, traffic
