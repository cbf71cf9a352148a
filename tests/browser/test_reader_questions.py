"""Readers' questions (data/reader-questions.yml, checked by tests/content/test_sources.py):
real public reports, each with the queries its author would type. `make readers` ranks every
query of every report the site answers by each site's own search (test_search.rank) and prints,
per language, the share of reports answered and the share of queries whose answering page is
among the first three pages found, and lists each miss with its first three pages in
build/reader-questions-<language>.txt. READER_QUESTIONS=<file> runs another file in the corpus's
format instead: a set of reports held out from the corpus, to measure questions the site was not
tuned on (CONTRIBUTING.md, "Readers' questions")."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from tests.browser.conftest import HOME, SITE
from tests.browser.test_search import rank
from tooling import reader_questions
from tooling.reader_questions import sections
from verified.paths import REPO_ROOT, docs_dir
from verified_site.pages import page_url

#: The reports: the corpus, or a held-out set (then the figures are printed, not judged).
HELD_OUT = os.environ.get("READER_QUESTIONS")
CORPUS = Path(HELD_OUT or reader_questions.CORPUS)
TOP = 3
#: The least share of answered reports' queries that must find their page in the first `TOP`.
FLOOR = 0.9
SITES = ["zh", "en"]


@functools.cache
def _html(url: str) -> str:
    return (SITE / url / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("locale", HOME)
def test_answers_lead_to_sections(site, locale):
    docs, wrong = docs_dir(REPO_ROOT) / locale, []
    for report in reader_questions.load(REPO_ROOT, CORPUS):
        for field, given in sections(report):
            page, _, anchor = given.partition("#")
            if not anchor:  # a page alone: the source check found it
                continue
            url = page_url(docs / page)
            where = f"{CORPUS}:{report.lines[field]}: `{field}`: /{url}"
            try:
                html = _html(url)
            except FileNotFoundError:
                wrong.append(f"{where} is not built on the {locale} site; run `make build`")
                continue
            if f'id="{anchor}"' not in html:
                wrong.append(
                    f"{where} has no section #{anchor} on the {locale} site; give the anchor of "
                    "a heading there"
                )
    assert not wrong, "\n".join(wrong)


# `make readers`, not `make test`: about 2,500 queries a language at 20-25 ms each in Material's
# worker (every query matches nearly every page, and the worker highlights each match), a
# minute a language on two cores, which the 4-minute budget of `make test` cannot hold.
@pytest.mark.readers
@pytest.mark.parametrize("locale", SITES)
def test_readers_find_the_answers(page, traffic, locale, record_property):
    reports = reader_questions.load(REPO_ROOT, CORPUS)
    answered = [r for r in reports if "answer" in r]
    docs = docs_dir(REPO_ROOT) / locale
    wanted = [
        (query, [page_url(docs / page.partition("#")[0]) for _, page in sections(r)], r.line)
        for r in answered
        for query in r["queries"][locale]
    ]
    ranked = rank(page, locale, list(dict.fromkeys(query for query, _, _ in wanted)))
    misses = []
    for query, urls, line in wanted:
        found = ["/" + items[0].split("#")[0] for items in ranked[query][:TOP]]
        if not {"/" + url for url in urls} & set(found):
            wants = " or ".join(f"/{url}" for url in urls)
            misses.append(f"{CORPUS}:{line}: {query!r}: wants {wants}, finds {found}")
    found = len(wanted) - len(misses)
    listing = REPO_ROOT / "build" / f"reader-questions{'-held-out' * bool(HELD_OUT)}-{locale}.txt"
    listing.parent.mkdir(exist_ok=True)
    listing.write_text("".join(f"{line}\n" for line in misses), encoding="utf-8")
    share = found / len(wanted)
    record_property(
        "search summary",
        f"readers' questions on the {locale} site: {len(answered)} of {len(reports)} reports "
        f"answered ({len(answered) / len(reports):.0%}); {found} of {len(wanted)} of their "
        f"queries ({share:.1%}) find the answering page in the first {TOP} (floor {FLOOR:.0%}); "
        f"misses: {listing.relative_to(REPO_ROOT)}",
    )
    if traffic:
        pytest.fail(f"requests to another host or console errors: {traffic}")
    if HELD_OUT:  # measured once, not judged: its misses are not to be tuned for
        return
    assert share >= FLOOR, f"{share:.1%} of the queries find their page; misses:\n" + "\n".join(
        misses
    )
