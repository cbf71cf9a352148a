"""Search, ranked in the browser by each site's own search worker (Material's, started in the
loaded home page as the page starts it): every query of search_queries.yml; each error atlas
entry's printed line, as a reader pastes it, and a variant with other numbers; each other name
the glossary gives a term (`also`), expecting the page it shows the term at; each API name the
cross-library reference's calls spell, expecting a row that calls it. (Typing into the search
box is test_offline.py's.) The ranking tests are `make readers`'s, with the readers' questions
(marked `readers`): about 4,000 queries at 20-50 ms each, which the 4-minute budget of
`make test` cannot hold; the check that search answers at all stays in `make test`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from tests.browser.conftest import HOME
from tests.content.test_atlas import ATLAS, atlas_entries
from tooling import glossary
from tooling.reference import load_families, load_inputs
from verified.paths import REPO_ROOT, docs_dir
from verified_site.pages import page_locale, page_url

QUERIES = Path(__file__).with_name("search_queries.yml")


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


#: Run in a loaded page: a new search worker (the page's `__config` names it), set up as the page
#: sets up its own, with the page's index, then asked each query of the argument. Without the
#: page's search.suggest option: Material's worker looks for suggestions after it has ranked the
#: results, in a query of its own that changes nothing in them and took a quarter of the time.
#: Returns, per query, the pages found, best first, each as the locations (below the page's
#: `base`) of its results. Message types: Material's private SearchMessageType (SETUP 0 answered
#: by READY 1, QUERY 2 by RESULT 3); any other answer fails with what the worker sent.
_RANK = """async queries => {
    const config = JSON.parse(document.getElementById("__config").textContent)
    const index = new URL(config.base + "/search/search_index.json", location.href)
    const worker = new Worker(new URL(config.search, location.href))
    const send = (type, data) => new Promise((answer, fail) => {
        worker.onmessage = ({data: reply}) => reply && reply.type === type + 1
            ? answer(reply.data)
            : fail(new Error(`Material's search worker answered message type ${type} with `
                + `${JSON.stringify(reply).slice(0, 200)}: its protocol changed; update _RANK `
                + "in tests/browser/test_search.py"))
        worker.onerror = error => fail(new Error(`search worker ${config.search}: ${error.message}`
            + " (it did not load or start)"))
        worker.postMessage({type, data})
    })
    await send(0, {...(await (await fetch(index)).json()), options: {suggest: false}})
    const ranked = []
    for (const query of queries) {
        const {items} = await send(2, query)
        ranked.push(items.map(sections => sections.map(section => section.location)))
    }
    worker.terminate()
    return ranked
}"""


def rank(page, locale: str, queries: list[str]) -> dict[str, list[list[str]]]:
    """Rank `queries` as the `locale` site's search box does: query -> the pages found, best
    first, each as the addresses of its results, best first (paths below the site root, a
    section's with its `#anchor`)."""
    page.goto(HOME[locale])  # its `base` is the site's root: locations are below HOME[locale]
    ranked = page.evaluate(_RANK, queries)
    return {
        query: [[HOME[locale] + location for location in item] for item in items]
        for query, items in zip(queries, ranked, strict=True)
    }


def search_failures(wanted: list[tuple[str, str, int]], page, locale: str) -> dict[str, str]:
    """What the `locale` site's search gets wrong for `wanted` (query, page or `page/#anchor`
    to find, in how many first results): query -> message, empty when all pass."""
    ranked = rank(page, locale, [query for query, _, _ in wanted])
    failures = {}
    for query, expected, top in wanted:
        where = f"search for {query!r} on the {locale} site"
        pages = [item[0].split("#")[0] for item in ranked[query]]
        # A page is found by any of its results; a `page/#anchor`, by that section's.
        found = ranked[query][:top] if "#" in expected else [[page] for page in pages[:top]]
        if not any(expected in item for item in found):
            shown = ["/" + path for path in pages[: top + 2]]
            failures[query] = f"{where}: /{expected} not in the first {top}: {shown}"
    return failures


@pytest.mark.readers
@pytest.mark.parametrize("locale", HOME)
def test_search_finds_the_pages(page, traffic, locale, record_property):
    generated = atlas_queries(locale) + glossary_queries(locale)
    wanted = list(dict.fromkeys(expectations(locale) + generated))
    misses = {
        e["query"]: e["known_miss"][locale] for e in ENTRIES if locale in e.get("known_miss", {})
    }
    failures = search_failures(wanted, page, locale)
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
    assert not problems + traffic, "\n".join(problems + traffic)


#: The least share of the reference's API names that must find a row calling them.
SPELLINGS_FLOOR = 0.95


@pytest.mark.readers
@pytest.mark.parametrize("locale", HOME)
def test_reference_rows_found_by_their_spellings(page, traffic, locale, record_property):
    """The API names the reference's calls spell (data/reference: `torch.cat`, `np.concatenate`,
    the `also` spellings), each typed alone: at least `SPELLINGS_FLOOR` of them find a row that
    calls it in the first three pages. (Without the rows' tags, about 80% did.)"""
    rows: dict[str, set[str]] = {}
    for family in load_families(REPO_ROOT, load_inputs(REPO_ROOT)):
        for row in family.rows:
            for name in row.api_names:
                rows.setdefault(name, set()).add(f"{HOME[locale]}reference/{family.id}/#{row.id}")
    assert rows, "data/reference/ spells no API name: Row.api_names found none"
    ranked = rank(page, locale, sorted(rows))
    misses = [
        f"{name!r} finds {['/' + items[0] for items in ranked[name][:3]]}, no row of "
        f"{sorted(rows[name])}"
        for name in sorted(rows)
        if not any(loc in rows[name] for items in ranked[name][:3] for loc in items)
    ]
    share = 1 - len(misses) / len(rows)
    record_property(
        "search summary",
        f"reference rows on the {locale} site: {len(rows) - len(misses)} of {len(rows)} API "
        f"names ({share:.1%}) find a row calling them in the first 3 (floor "
        f"{SPELLINGS_FLOOR:.0%}); misses: " + "; ".join(misses),
    )
    assert share >= SPELLINGS_FLOOR and not traffic, "\n".join(misses + traffic)


@pytest.mark.parametrize("locale", HOME)
def test_numbers_and_common_words_find_something(page, traffic, locale):
    """lunr 2.3.9 (in Material's worker) can fail a whole query when its expansion reaches two
    token-set nodes it names alike (lunr issue #503; "9", then "a", once found nothing on the
    Chinese site), and Material's worker fails every query when two index entries share a
    location. Short queries that every index answers must find pages; if one finds nothing, look
    at the numbers the last change added to the index (the site plugin's `_LONG_NUMBER` leaves
    the longest out)."""
    queries = ["9", "2", "0.1", "a", "is", "float16", "int64", "tensor", "张量", "张"]
    ranked = rank(page, locale, queries)
    empty = [query for query in queries if not ranked[query]]
    assert not empty, f"search on the {locale} site finds nothing for {empty}"
    assert not traffic, traffic
