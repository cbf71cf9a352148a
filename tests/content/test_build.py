"""The built site: the template overrides on every page, stamps that match the record, version
notes, API names linked. (That no page loads anything from another host, and that each page's
language menu leads to the same page in the other language, is tests/browser/test_pages.py's,
for every page but the reference's families after the first, which its generator and template
stand for,
and that each language's search finds its pages, Chinese words and dotted API names included,
tests/browser/test_search.py's.)"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from verified.paths import REPO_ROOT
from verified.record import DEFAULT_ENVIRONMENT, GPU_ENVIRONMENT, load_record, verify_environments
from verified_site.pages import language_root, page_locale, page_sources, page_url, source_pages
from verified_site.plugin import UNSEARCHED
from verified_site.stamp import render_stamp
from verified_site.version_notes import VersionNotes


@functools.cache  # several tests read the same pages: each is parsed once per worker
def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_template_edits_hold_on_every_page(site):
    """overrides/partials/search.html and source.html are copies of Material's partials with
    one change each: a Material upgrade that stops using them must fail here, not silently."""
    problems = []
    for html in sorted(site.rglob("*.html")):
        text, page = html.read_text("utf-8"), html.relative_to(site)
        if not re.search(r'data-md-component="search" role="dialog" aria-label="[^"]+"', text):
            problems.append(f"{page}: the search dialog has no aria-label")
        if 'class="md-source"' not in text:
            problems.append(f"{page}: no repository link (.md-source)")
        if 'data-md-component="source"' in text:
            problems.append(f"{page}: a repository link asks for GitHub stats")
    assert not problems, "overrides/partials/ (see overrides/README.md):\n" + "\n".join(problems)


PAGES = source_pages(REPO_ROOT)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(REPO_ROOT)) for p in PAGES])
def test_stamp_matches_the_verification_record(site, record, page):
    # The stamp logic itself is tested in tests/content/test_stamp.py; this checks that
    # the built page (which exists: every page in docs/ is built) carries the stamp that the
    # record and the current sources call for: its kind (success, warning, ...) and its text,
    # which is the Markdown's less the markup (code spans, bold, list markers).
    verifications = verify_environments(record, page_sources(page, REPO_ROOT), REPO_ROOT)
    expected = render_stamp(verifications, record, page_locale(page))
    stamp = _soup(site / page_url(page) / "index.html").select_one(".verification-stamp")
    if not expected:
        assert stamp is None, f"{page.name}: a page without examples carries a stamp"
        return
    assert stamp is not None, f"{page.name}: no verification stamp on the built page"
    kind, title = re.match(r'!!! (\S+) verification-stamp "(.*)"', expected).groups()
    body = re.sub(r"[`*]|^\s*- ", "", expected.split("\n", 1)[1], flags=re.MULTILINE)
    hint = "stale stamp: rebuild the site after the test run (make test does both)"
    assert kind in stamp["class"], f"{page.name}: not a {kind!r} box: {hint}"
    assert " ".join(stamp.get_text().split()) == " ".join(f"{title} {body}".split()), (
        f"{page.name}: {hint}"
    )


def test_the_committed_gpu_run_verifies_its_examples(record):
    # Each CUDA example that verification/gpu-run.json passed is, in this run, verified from it
    # (or ran on this machine's own GPU, or changed since and says so). That a built stamp then
    # names the GPU follows from test_stamp_matches_the_verification_record and test_stamp.py.
    assert record, "no verification record: run `make test` (stage 1 writes it)"
    gpu_run = load_record(REPO_ROOT / "verification" / "gpu-run.json")
    run = gpu_run["environments"][GPU_ENVIRONMENT]
    gpu = run["environment"]["gpu"]  # an entry's device and GPU are its run's
    passed = [entry["id"] for entry in run["examples"] if entry["status"] == "passed"]
    assert passed, "verification/gpu-run.json verifies no example"
    entries = {e["id"]: e for e in record["environments"][DEFAULT_ENVIRONMENT]["examples"]}
    for example in passed:
        entry = entries.get(example)  # None: the example is gone since the GPU run
        if entry is None or entry["reason"] == "changed-since-gpu-run":
            continue
        if entry["status"] == "passed" and "gpu_run" not in entry:
            assert entry["device"] == "cuda", f"{example}: passed without CUDA"
            continue  # ran on this machine's GPU
        assert (entry["status"], entry.get("gpu")) == ("passed", gpu), (
            f"{example}: the committed GPU run passed it on {gpu}; this run's record says "
            f"{entry['status']} ({entry['reason']})"
        )


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_version_notes_show_what_older_versions_print(site, locale):
    # NumPy 1.26 (the `previous` environment) promotes by value: the type-promotion page shows
    # both outputs wherever they differ, from verification/expected/previous.json; the
    # broadcasting page's outputs agree everywhere, and it shows no note.
    notes = VersionNotes(REPO_ROOT)
    folder = site / language_root(locale) / "fundamentals" / "type-promotion"
    changes = _soup(folder / "index.html").select(".admonition.version-change")
    assert len(changes) >= 2, "the type-promotion page shows no 'changed between versions' note"
    for change in changes:
        titles = [t.get_text() for t in change.select(".highlight .filename")]
        text = change.get_text()
        for label in notes.labels.values():  # each environment's versions, by title or in prose
            assert label in titles or label in text, f"a note lacks {label}:\n{text}"
    broadcasting = folder.parent / "broadcasting" / "index.html"
    assert not _soup(broadcasting).select(".admonition.version-change"), "a note on broadcasting"


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_api_names_in_prose_are_linked_and_stay_out_of_the_search_index(site, locale):
    # How spans are linked and reported: tests/tooling/test_site_build.py. Here: the real build
    # linked each inline API name the table links, on a page as in the reference's generated
    # prose (its tables' code is linked by the generator), and the search text keeps no link
    # markup (it would only add weight).
    from verified_site.api_names import api_name, load_table

    folder, table, unlinked, linked = site / language_root(locale), load_table(REPO_ROOT), [], 0
    pages = [folder / "numpy-torch/memory-sharing/index.html"]
    for page in pages + sorted((folder / "reference").glob("*/index.html")):
        for code in _soup(page).select("article p code"):
            if (name := api_name(code.get_text())) and name in table.links:
                if code.parent.name != "a":  # a link of the page's own keeps its target
                    unlinked.append(f"{page.parent.name}: {code.get_text()}")
                linked += "api-link" in code.parent.get("class", [])
    assert linked and not unlinked, f"{locale}: API names not linked in prose: {unlinked}"
    index = (folder / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "api-link" not in index, f"{locale}: link markup in the search index"


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_search_text_leaves_out_code_and_link_lists(site, locale):
    # The plugin marks them (UNSEARCHED) for Material's search to leave out: no code block or
    # its title (a script's path outside a code span), no "See also" section, no atlas entry's
    # closing line of links.
    index = json.loads((site / language_root(locale) / "search" / "search_index.json").read_text())
    left = [
        doc["location"]
        for doc in index["docs"]
        if doc["location"].endswith("#see-also")
        or re.search(r"<pre>|<p>\u200b?(?:More:|详见\u200b?：)", doc["text"])
        or re.search(r"(?<![>/\w])examples/[\w/]+\.py(?!</code>)", doc["text"])
    ]
    assert not left, f"{locale}: code or link lists in the search text: {left[:5]}"


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_search_titles_are_headings_not_whole_sections(site, locale):
    # Markup left open in a heading (`__init__` or `<locals>` outside a code span) made the
    # index take every later section's text as its title, which weighs ten times the text:
    # errors/save-load came first for unrelated queries. The longest real heading is ~260.
    index = json.loads((site / language_root(locale) / "search" / "search_index.json").read_text())
    long = [f"{d['location']} ({len(d['title'])})" for d in index["docs"] if len(d["title"]) > 400]
    assert not long, (
        f"{locale}: search titles longer than any heading, a heading's markup left open (put "
        f"Python names and <...> in a code span, or end the heading before them): {long[:5]}"
    )


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_stamps_notes_and_gpu_pending_lists_are_left_out_of_search(site, locale):
    # The plugin's on_page_content marks them, and code blocks, with Material's
    # data-search-exclude.
    marked, unmarked = 0, []
    for path in (site / language_root(locale)).rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        for match in UNSEARCHED.finditer(html):
            if html.startswith(" data-search-exclude", match.end()):
                marked += 1
            else:
                unmarked.append(str(path.relative_to(site)))
    assert marked and not unmarked, f"{locale}: elements in the search text: {unmarked[:5]}"
