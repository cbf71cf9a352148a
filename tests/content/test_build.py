"""The built site: both languages, same pages, stamps that match the record,
segmented Chinese search, API names linked, and no asset from another host."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, SoupStrainer

from verified.paths import REPO_ROOT
from verified.record import DEFAULT_ENVIRONMENT, GPU_ENVIRONMENT, load_record, verify_environments
from verified_site.pages import language_root, page_locale, page_sources, page_url, source_pages
from verified_site.stamp import render_stamp
from verified_site.version_notes import VersionNotes

#: The links whose URL the browser loads while rendering the page (an `<a>` it only follows).
_LOADED_LINK_RELS = {"stylesheet", "preload", "modulepreload", "icon", "manifest", "prefetch"}
_LOADED_LINK_RELS |= {"preconnect", "dns-prefetch"}
_LOADING_ELEMENTS = ("script", "img", "iframe", "frame", "source", "video", "audio", "embed")
_LOADING_ELEMENTS += ("track", "input", "object", "link")
_REMOTE = re.compile(r"^(https?:)?//", re.IGNORECASE)


def _pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


@functools.cache  # several tests read the same pages: each is parsed once per worker
def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_both_languages_have_the_same_pages(site):
    # The 404 page is one for the whole site, at its root.
    chinese = {
        p.relative_to(site).as_posix() for p in _pages(site) if not p.is_relative_to(site / "en")
    } - {"404.html"}
    english = {p.relative_to(site / "en").as_posix() for p in _pages(site / "en")}
    assert "index.html" in chinese and "index.html" in english
    assert chinese == english, (
        f"only in Chinese: {chinese - english}; only in English: {english - chinese}"
    )


def test_no_asset_is_loaded_from_another_host(site):
    problems = []
    # Only the elements that can load something are parsed into the tree (HTML's `src` holders).
    loading = SoupStrainer(list(_LOADING_ELEMENTS))
    for html in _pages(site):
        soup = BeautifulSoup(html.read_text("utf-8"), "html.parser", parse_only=loading)
        for element in soup.select("[src], object[data], link[href]"):
            if element.name == "link" and not set(element.get("rel", [])) & _LOADED_LINK_RELS:
                continue
            url = element.get("src") or element.get("data") or element["href"]
            if _REMOTE.match(url):
                problems.append(f"{html.relative_to(site)}: <{element.name}> loads {url}")
    for css in site.rglob("*.css"):
        for match in re.finditer(r"url\(\s*['\"]?((?:https?:)?//[^)'\"]+)", css.read_text("utf-8")):
            problems.append(f"{css.relative_to(site)}: url({match[1]})")
    assert not problems, "assets from another host:\n" + "\n".join(problems)


def test_template_edits_hold_on_every_page(site):
    """overrides/partials/search.html and source.html are copies of Material's partials with
    one change each: a Material upgrade that stops using them must fail here, not silently
    lose a change. (Plain text search: these attributes are written by our partials, exactly
    so.)"""
    problems = []
    for html in _pages(site):
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


def test_the_site_is_stamped_from_a_record(record):
    # What a stamp says of each environment's run is test_stamp.py's; that each built stamp is
    # the record's, test_stamp_matches_the_verification_record's.
    assert record is not None, (
        "no verification record: the examples stage did not write build/verification.json "
        "(see its errors above)"
    )


def test_the_committed_gpu_run_verifies_its_examples(record):
    # Each CUDA example that verification/gpu-run.json passed is, in this run, verified from it
    # (or ran on this machine's own GPU, or changed since and says so). That a built stamp then
    # names the GPU follows from test_stamp_matches_the_verification_record and test_stamp.py.
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


def test_search_index_segments_chinese_and_each_language_has_its_own(site):
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    separator = re.compile(index["config"]["separator"])
    assert separator.split("共享\u200b内存") == ["共享", "内存"], (
        "the separator must split jieba's segments"
    )
    assert "clamp" in separator.split("torch.clamp"), "the separator must split dotted API names"
    chinese = [d for d in index["docs"] if re.search(r"[\u4e00-\u9fff]", d["text"])]
    assert chinese, "no Chinese text in the search index"
    assert any("\u200b" in d["text"] for d in chinese), (
        "Chinese text is not segmented (is jieba installed?)"
    )
    english = json.loads((site / "en" / "search" / "search_index.json").read_text("utf-8"))
    assert english["docs"], "no pages in the English search index (site/en/search/)"
    # Each language's build has its own search settings (mkdocs.yml, mkdocs.en.yml).
    assert (index["config"]["lang"], english["config"]["lang"]) == (["zh", "en"], ["en"])
    assert {d["location"].split("#")[0] for d in english["docs"]} == {
        d["location"].split("#")[0] for d in index["docs"]
    }, "the two languages' indexes should cover the same pages"


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_type_promotion_shows_what_older_versions_print(site, locale):
    # NumPy 1.26 (the `previous` environment) promotes by value: the page shows both
    # outputs wherever they differ, from verification/expected/previous.json.
    notes = VersionNotes(REPO_ROOT)
    folder = site / language_root(locale) / "fundamentals" / "type-promotion"
    changes = _soup(folder / "index.html").select(".admonition.version-change")
    assert len(changes) >= 2, "the type-promotion page shows no 'changed between versions' note"
    for change in changes:
        titles = [t.get_text() for t in change.select(".highlight .filename")]
        text = change.get_text()
        for label in notes.labels.values():  # each environment's versions, by title or in prose
            assert label in titles or label in text, f"a note lacks {label}:\n{text}"


def test_pages_whose_output_agrees_everywhere_show_no_note(site):
    page = site / "en" / "fundamentals" / "broadcasting" / "index.html"
    assert not _soup(page).select(".admonition.version-change")


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_api_names_are_linked_and_stay_out_of_the_search_index(site, locale):
    # How spans are linked and reported: tests/tooling/test_site_build.py. Here: the real build
    # did link them, and the search text keeps no link markup (it would only add weight).
    folder = site / language_root(locale)
    page = _soup(folder / "numpy-torch" / "memory-sharing" / "index.html")
    links = page.select("a.api-link > code")
    assert links, f"{locale}: no API name linked on the memory-sharing page"
    index = (folder / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "api-link" not in index, f"{locale}: link markup in the search index"


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_the_reference_links_the_api_names_of_its_prose(site, locale):
    # The reasons and introductions are prose like any page's: each inline API name the table
    # links is linked there too (its tables' code is linked by the generator, not here).
    from verified_site.api_names import api_name, load_table

    table, unlinked, linked = load_table(REPO_ROOT), [], 0
    for page in sorted((site / language_root(locale) / "reference").glob("*/index.html")):
        for code in _soup(page).select("article p code"):
            if (name := api_name(code.get_text())) and name in table.links:
                if code.parent.name == "a" and "api-link" in code.parent.get("class", []):
                    linked += 1
                else:
                    unlinked.append(f"{page.parent.name}: {code.get_text()}")
    assert linked, f"{locale}: no API name linked in the reference's prose"
    assert not unlinked, f"{locale}: API names not linked in the reference's prose: {unlinked}"
