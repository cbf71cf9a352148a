"""Every page of both languages, loaded in the browser: status, offline, clean console,
stamp, edit link, last-updated date, and the head tags search engines read."""

from __future__ import annotations

import os
import re

import pytest
import yaml

from tests.browser.conftest import site_pages, source_of
from tooling.pages import page_sources
from tooling.paths import REPO_ROOT
from tooling.record import verify_page

#: Stamp state -> the admonition type the hook renders it as.
STAMP_KIND = {
    "verified": "success",
    "partial": "warning",
    "failed": "failure",
    "unverified": "note",
}


def _front_matter(source) -> dict:
    text = (REPO_ROOT / source).read_text(encoding="utf-8")
    return yaml.safe_load(text.split("---\n")[1]) if text.startswith("---\n") else {}


def _site_url() -> str:
    config = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    default = re.search(r'^site_url: !ENV \[SITE_URL, "([^"]+)"\]', config, re.MULTILINE)[1]
    return os.environ.get("SITE_URL", default)


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_every_page(page, traffic, record, locale):
    paths = site_pages(locale)
    assert paths, "site/sitemap.xml lists no pages: is site_url set in mkdocs.yml?"
    problems = []
    for path in paths:
        source = source_of(path)
        where = f"/{path} ({source})"
        response = page.goto(path, wait_until="networkidle")
        if response.status != 200:
            problems.append(f"{where}: status {response.status}")
            continue
        if page.get_attribute("html", "lang") != locale:
            problems.append(f"{where}: <html lang> is {page.get_attribute('html', 'lang')!r}")
        description = _front_matter(source).get("description")
        if page.get_attribute("meta[name=description]", "content") != description:
            problems.append(f"{where}: meta description is not the page's `description:`")
        canonical = page.get_attribute("link[rel=canonical]", "href")
        if canonical != _site_url() + path:
            problems.append(f"{where}: canonical link {canonical!r}, expected {_site_url() + path}")
        edit = page.locator("a[rel=edit]")
        if edit.count() != 1 or not edit.get_attribute("href").endswith(f"/edit/main/{source}"):
            problems.append(f"{where}: 'edit this page' does not point at {source}")
        updated = page.locator(".md-source-file__fact")
        if updated.count() == 0 or not re.search(r"\d{4}", updated.first.inner_text()):
            problems.append(f"{where}: no last-updated date")
        state = verify_page(record, page_sources(REPO_ROOT / source, REPO_ROOT), REPO_ROOT).state
        stamp = page.locator(".admonition.verification-stamp")
        if state == "none":
            if stamp.count():
                problems.append(f"{where}: a stamp on a page without examples")
        elif stamp.count() != 1 or not stamp.is_visible():
            problems.append(f"{where}: the verification stamp ({state}) is not visible")
        elif STAMP_KIND[state] not in (stamp.get_attribute("class") or ""):
            problems.append(f"{where}: the stamp is not a '{STAMP_KIND[state]}' ({state}) box")
        problems += [f"{where}: {problem}" for problem in traffic.problems()]
        traffic.external.clear()
        traffic.console_errors.clear()
    assert not problems, "\n".join(problems)


def test_not_found_page_leads_home_in_both_languages(page, traffic):
    response = page.goto("no-such-page/")
    assert response.status == 404, "a missing page must answer 404 with the site's 404.html"
    for hreflang, home, lang in (("zh", "", "zh"), ("en", "en/", "en")):
        page.goto("no-such-page/")
        page.locator(f"article a[hreflang={hreflang}]").click()
        page.wait_for_load_state()
        assert page.url.endswith(f"/{home}") or page.url.endswith(f"/{home}index.html"), page.url
        assert page.get_attribute("html", "lang") == lang
    assert not traffic.problems(), traffic.problems()
