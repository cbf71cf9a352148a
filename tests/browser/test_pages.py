"""Every page of both languages, loaded in the browser: status, offline, clean console,
stamp, edit link, last-updated date, and the head tags search engines read."""

from __future__ import annotations

import re

import pytest
import yaml
from playwright.sync_api import expect

from tests.browser.conftest import CONFIG, guard, site_pages
from tooling.notebooks import source_files as notebook_sources
from tooling.pages import front_matter_yaml, page_at, page_sources, page_url
from tooling.static_server import site_url
from verified.paths import REPO_ROOT, docs_dir, notebooks_dir, relative
from verified.record import overall_state, verify_environments

#: Stamp state -> the admonition type the hook renders it as.
STAMP_KIND = {
    "verified": "success",
    "partial": "warning",
    "failed": "failure",
    "unverified": "note",
}


def _attribute(page, selector: str, name: str) -> str | None:
    """An attribute of the first element matching `selector`; None, at once, if none."""
    found = page.locator(selector)
    return found.first.get_attribute(name) if found.count() else None


def _source_of(path: str):
    """The Markdown source of the page at `path`: a page in docs/ or a notebook source."""
    notebooks = {page_url(nb, REPO_ROOT): nb for nb in notebook_sources(REPO_ROOT)}
    return page_at(path, docs_dir(REPO_ROOT)) or notebooks[path]


def _problems_of(page, path: str, record) -> list[str]:
    """What is wrong with the loaded page at `path` (empty when nothing is)."""
    source = _source_of(path)
    problems = []
    locale = "en" if path.startswith("en/") else "zh"
    if _attribute(page, "html", "lang") != locale:
        problems.append(f"<html lang> is {_attribute(page, 'html', 'lang')!r}, not {locale}")
    meta = yaml.safe_load(front_matter_yaml(source.read_text("utf-8"))) or {}
    if not meta.get("description"):
        problems.append(f"no `description:` in {relative(source, REPO_ROOT)}")
    elif _attribute(page, "meta[name=description]", "content") != meta["description"]:
        problems.append("meta description is not the page's `description:`")
    canonical = _attribute(page, "link[rel=canonical]", "href")
    if canonical != site_url(CONFIG) + path:
        problems.append(f"canonical link {canonical!r}, expected {site_url(CONFIG) + path}")
    edit = _attribute(page, "a[rel=edit]", "href") or ""
    if not edit.endswith(f"/edit/main/{relative(source, REPO_ROOT)}"):
        problems.append(f"'edit this page' is {edit or 'missing'}, not a link to its source file")
    updated = page.locator(".md-source-file__fact")
    if updated.count() == 0 or not re.search(r"\d{4}", updated.first.inner_text()):
        problems.append("no last-updated date")
    if source.is_relative_to(notebooks_dir(REPO_ROOT)):
        return (
            problems  # no stamp: the notebook's first cell says how it ran (test_notebook_pages.py)
        )
    state = overall_state(verify_environments(record, page_sources(source, REPO_ROOT), REPO_ROOT))
    stamp = page.locator(".admonition.verification-stamp")
    if state == "none":
        if stamp.count():
            problems.append("a stamp on a page without examples")
    elif stamp.count() != 1 or not stamp.is_visible():
        problems.append(f"the verification stamp ({state}) is not visible")
    elif STAMP_KIND[state] not in (stamp.get_attribute("class") or ""):
        problems.append(f"the stamp is not a '{STAMP_KIND[state]}' ({state}) box")
    return problems


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_every_page(page, traffic, record, locale):
    paths = site_pages(locale)
    assert paths, "site/sitemap.xml lists no pages: is site_url set in mkdocs.yml?"
    problems = []
    for path in paths:
        response = page.goto(path, wait_until="networkidle")
        found = (
            [f"status {response.status}"]
            if response.status != 200
            else _problems_of(page, path, record)
        )
        problems += [f"/{path}: {problem}" for problem in found + traffic]
        traffic.clear()
    assert not problems, "\n".join(problems)


def test_not_found_page_leads_home_in_both_languages(context, page, base_url):
    missing = base_url + "no-such-page/"
    traffic = guard(context, page, missing)
    response = page.goto(missing)
    assert response.status == 404, "a missing page must answer 404 with the site's 404.html"
    for hreflang, home in (("zh", ""), ("en", "en/")):
        page.goto(missing)
        with page.expect_navigation() as navigation:
            page.locator(f"article a[hreflang={hreflang}]").click()
        assert navigation.value.status == 200, f"the 404 page's {hreflang} link is broken"
        expect(page).to_have_url(base_url + home)
        assert page.get_attribute("html", "lang") == hreflang
    assert not traffic, traffic
