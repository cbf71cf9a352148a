"""The site's MkDocs plugin (`verified-site` in mkdocs.base.yml), run in each language's build
(the theme's `language`): per page, snippet lines checked, stamp and version notes inserted,
inline code's API names linked; per build, glossary names and identifiers' parts added to the
search index; in the offline edition, iframe-worker's shim served from the site's own files."""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from pathlib import Path

import jieba
import yaml
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File
from mkdocs.structure.toc import get_toc

from verified.paths import docs_dir, is_generated, record_path, relative
from verified.record import load_record, verify_environments
from verified_site import api_names, notebooks, pages
from verified_site.stamp import render_stamp
from verified_site.version_notes import VersionNotes

#: Search weight of a notebook page, against 1 for the other pages.
NOTEBOOK_SEARCH_BOOST = 0.2
#: The notebook pages: their search entries keep their titles only, as their text repeats the
#: pages they walk through (which rank first) and would make the index larger than its budget.
NOTEBOOKS = "notebooks/"
#: What Material's search leaves out (its `data-search-exclude`, which the site plugin adds to
#: these start tags before the search reads the page):
#: - code blocks with their titles: the code's names are in the prose, an atlas entry's heading
#:   quotes its message, and printed values matched nothing readers type (with them the Chinese
#:   index passed its 300 KB budget; without them readers' queries found their pages as often);
#: - the "See also" sections and an atlas entry's closing line of links ("More:", "详见："),
#:   whose link texts would make them match the queries of the sections they link to;
#: - a page's stamp and version notes (the verification runs and their printed values) and a
#:   gpu-pending admonition, which restates the statements of the sections it lists.
UNSEARCHED = re.compile(
    r'<div class="language-\w+ highlight"'
    r'|<h2 id="see-also"'
    r"|<p(?=>(?:More: |详见：))"
    r'|<div class="admonition [^"]*\b(?:verification-stamp|version-change|gpu-pending)\b[^"]*"'
)
#: Numbers of six characters or more, left out of the search text (65504 and 0.485 stay).
#: lunr 2.3.9, in Material's worker, names the nodes of its word tree by their edges'
#: characters followed by child numbers, so two nodes with several digit edges can get the
#: same name and be merged; a query then expands to a word that is not in the index and finds
#: nothing at all (lunr issue 503: "a", later "9", found nothing on the Chinese site). Long
#: numbers make most such nodes and are not what readers search for.
_LONG_NUMBER = re.compile(r"\b\d[\d.]{5,}\b")
#: Identifiers the search keeps whole (mkdocs.base.yml's separator splits neither at `_` nor in
#: camel case): snake_case and CamelCase names. `_PART`: the words they are made of.
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Za-z]*[a-z][A-Z]\w*")
_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
#: Names whose parts are not words readers mean: "Tensor" of TensorFlow would make a section
#: about TensorFlow alone match "tensor", and "Num" or "Flow" nothing at all.
_WHOLE_ONLY = {"NumPy", "PyTorch", "TensorFlow"}
_HAN = re.compile(r"[\u4e00-\u9fff]")
#: iframe-worker's shim (npm, package.json) runs Material's search worker on file:// pages; at
#: IFRAME_WORKER_URL, whose "iframe-worker" keeps Material's offline plugin from adding a CDN's.
IFRAME_WORKER = "node_modules/iframe-worker/shim/index.js"
IFRAME_WORKER_URL = "assets/javascripts/iframe-worker/shim.js"
log = logging.getLogger(f"mkdocs.plugins.{__name__}")


class VerifiedSitePlugin(BasePlugin):
    """`root` is the repository root (the config file's folder)."""

    @event_priority(10)  # before Material's offline plugin, which adds a CDN's shim otherwise
    def on_config(self, config, **kwargs):
        """Load the record, expected outputs and link table (PluginError naming the file if one
        cannot be read); in the offline edition, list iframe-worker's shim as a polyfill."""
        # jieba (Chinese search segmentation) logs its dictionary loading at DEBUG level.
        logging.getLogger("jieba").setLevel(logging.INFO)
        self.root = Path(config.config_file_path).resolve().parent
        try:
            self.record = load_record(record_path(self.root))
            self.notes = VersionNotes(self.root)
            self.api_links = api_names.load_table(self.root)
        except ValueError as exc:  # the record, expected outputs, environments, link table
            raise PluginError(str(exc)) from exc
        self.locale = config.theme["language"]
        self.site_url = pages.site_addresses(self.root)[0]  # the Chinese site's: notebooks' links
        self.spans: Counter[str] = Counter()  # API name -> inline code spans naming it
        self.named_on: dict[str, set[str]] = {}  # API name -> pages naming it
        self.section_tags: dict[str, list[str]] = {}  # search location -> its tags
        if offline(config):
            config.extra.setdefault("polyfills", []).append(IFRAME_WORKER_URL)
        return config

    def on_files(self, files, config, **kwargs):
        """The 404 page from the Chinese build only (it links both home pages), none offline;
        the offline edition's shim. PluginError, saying what to run, if the shim or a notebook
        page's notebook is missing."""
        templates = config.theme.static_templates
        if self.locale == pages.DEFAULT_LOCALE and not offline(config):
            templates.add("404.html")
        else:
            templates.discard("404.html")
        if offline(config):
            shim = self.root / IFRAME_WORKER
            if not shim.is_file():
                raise PluginError(
                    f"{IFRAME_WORKER}: missing, the offline edition serves it: run "
                    "`npm ci --omit=dev --ignore-scripts` (make offline does)"
                )
            files.append(File.generated(config, IFRAME_WORKER_URL, abs_src_path=str(shim)))
        for source in pages.notebook_sources(self.root):
            path = pages.notebook_site_path(self.root, source)
            if pages.page_locale(source) == self.locale and not path.is_file():
                raise PluginError(
                    f"{relative(source, self.root)}: no notebook written for it "
                    f"({relative(path, self.root)}): run `make notebooks` (make build, "
                    "make serve and make test run it)"
                )
        return files

    def on_page_markdown(self, markdown: str, page, config, files, **kwargs) -> str:
        """Insert the page's version notes, and below its title its stamp. PluginError, with the
        page's line, if a `--8<--` line names a missing file or section: checked here, as the
        version notes read the scripts before pymdownx.snippets does (its error names no line).
        A notebook page carries its own stamp; "edit this page" opens its Markdown source."""
        root, source = self.root, Path(page.file.abs_src_path)
        # A generated page's tags per section (the reference's rows: their API names).
        for anchor, names in page.meta.get("section_tags", {}).items():
            self.section_tags[f"{page.url}#{anchor}"] = names
        if source.suffix == ".ipynb":
            # mkdocs-jupyter renders it; `make notebooks` wrote its stamp into it. Its
            # sections repeat the examples of the pages it walks through: those rank first.
            page.meta["search"] = {"boost": NOTEBOOK_SEARCH_BOOST}
            text = source.with_suffix(".md").read_text(encoding="utf-8")
            page.meta["description"] = pages.front_matter(source, text).get("description")
            page.meta["title"] = next(h.title for h in pages.headings(text) if h.level == 1)
            if page.edit_url:
                page.edit_url = page.edit_url.removesuffix(".ipynb") + ".md"
            return markdown
        locale = pages.page_locale(source)
        # Read the file itself so that line numbers count the front matter too.
        errors = [
            message
            for ref in pages.snippet_refs(source)
            if (message := pages.snippet_error(ref, root))
        ]
        if errors:
            raise PluginError("Broken snippet reference:\n  " + "\n  ".join(errors))
        if is_generated(source, root):
            # The reference's pages carry their own run's stamp; readers edit their data.
            if page.edit_url and (data := page.meta.get("data")):
                page.edit_url = page.edit_url.rsplit("/docs/", 1)[0] + "/" + data
            return markdown
        verifications = verify_environments(self.record, pages.page_sources(source, root), root)
        verified = {env for env, v in verifications.items() if v.state in ("verified", "partial")}
        markdown = self.notes.insert(markdown, locale, verified)
        top = render_stamp(verifications, self.record, locale)
        if not top:
            return markdown
        lines = markdown.split("\n")
        title = next((h.line for h in pages.headings(markdown) if h.level == 1), 0)
        lines.insert(title, f"\n{top}\n")  # below the title, between blank lines
        return "\n".join(lines)

    def on_page_content(self, html: str, page, config, files, **kwargs) -> str:
        """A notebook page's links, permanent links and table of contents (`notebooks.page_html`);
        inline code that names an API linked through data/api-links.json, outside the reference's
        tables (`make reference` links those); the names it cannot link counted; the
        `UNSEARCHED` elements marked to be left out of the search index."""
        table, source = self.api_links, Path(page.file.abs_src_path)
        if source.suffix == ".ipynb":
            html, tokens = notebooks.page_html(html, page, files, self.locale, self.site_url)
            page.toc = get_toc(tokens)
        html = UNSEARCHED.sub(r"\g<0> data-search-exclude", html)
        if table is None:
            return html

        def found(name: str) -> None:
            self.spans[name] += 1
            self.named_on.setdefault(name, set()).add(relative(source, self.root))

        return api_names.link(html, table, found, tables=not is_generated(source, self.root))

    def _report_api_links(self) -> None:
        """Info lines, never a warning: the docs-only environment cannot write the table, and a
        stale table fails `make test` (tests/examples/test_api_link_table.py)."""
        table = self.api_links
        if table is None:
            return
        unlinked = {name: n for name, n in self.spans.items() if name in table.no_page}
        not_api = {name: n for name, n in self.spans.items() if name in table.not_api}
        missing = sorted(name for name in self.spans if not table.knows(name))
        linked = sum(n for name, n in self.spans.items() if name in table.links)
        log.info(
            f"API links: {linked} code spans linked to their docs; not linked: "
            f"{sum(unlinked.values())} spans of {len(unlinked)} names without a page, "
            f"{sum(not_api.values())} spans of {len(not_api)} names the installed libraries "
            f"lack, {len(missing)} names not in {api_names.TABLE}"
        )
        for name, count in sorted(unlinked.items()):
            log.info(f"  {name} ({count} spans): no page: {table.no_page[name]}")
        for name, count in sorted(not_api.items()):
            log.info(f"  {name} ({count} spans): not a name of the installed libraries")
        if missing:
            found = "; ".join(
                f"{name} ({', '.join(sorted(self.named_on[name]))})" for name in missing
            )
            log.info(
                f"  {api_names.TABLE} lacks names pages use, not linked: {found}. Run "
                "`.venv/bin/python -m tooling.api_links` in the test environment and commit it"
            )

    # After Material's search plugin (0) wrote the index, before its offline plugin (-100)
    # copies it into the index's script form.
    @event_priority(-50)
    def on_post_build(self, config, **kwargs) -> None:
        """Report the API links, then add to the search index what Material cannot index: each
        glossary term's names (both languages) as tags of the section it is shown at, a
        generated page's `section_tags` (the reference rows' API names) as tags of its
        sections, each identifier's parts (`weights_only`: `weights`, `only`; the separator
        keeps identifiers whole); it leaves out the text of the notebook pages (their titles
        stay) and long numbers (`_LONG_NUMBER`).
        PluginError, naming the file, if the index or the glossary cannot be read."""
        self._report_api_links()
        path = Path(config.site_dir) / "search" / "search_index.json"
        try:
            index = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise PluginError(f"{path}: cannot read the search index: {exc}") from exc
        tags = self._synonyms()
        for location, names in self.section_tags.items():
            tags.setdefault(location, []).extend(names)
        for doc in index["docs"]:
            if doc["location"] in tags:
                words = (word for name in tags[doc["location"]] for word in _words(name))
                doc["tags"] = list(dict.fromkeys(doc.get("tags", []) + list(words)))
            if doc["location"].startswith(NOTEBOOKS):
                doc["text"] = ""
            doc["text"] = _LONG_NUMBER.sub(" ", doc["text"])
            doc["text"] += _identifier_parts(doc["title"] + " " + doc["text"])
        path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), "utf-8")

    def _synonyms(self) -> dict[str, list[str]]:
        """Search location (`a/b/#id`) -> the names of the glossary's terms shown there, both
        languages'; {} without data/glossary.yml."""
        path = self.root / "data" / "glossary.yml"
        if not path.exists():
            return {}
        found: dict[str, list[str]] = {}
        try:
            terms = yaml.safe_load(path.read_text(encoding="utf-8"))["terms"]
            docs = docs_dir(self.root) / self.locale
            for term in (t for t in terms if "see" in t):
                page, _, anchor = term["see"].partition("#")
                url = pages.page_url(docs / page).removeprefix(pages.language_root(self.locale))
                location = url + (f"#{anchor}" if anchor else "")
                # Both languages' names on both sites: readers search in either.
                names = [
                    name
                    for lang in pages.LOCALES
                    for name in [term[lang]["term"], *term[lang].get("also", [])]
                ]
                found.setdefault(location, []).extend(dict.fromkeys(names))
        except (OSError, yaml.YAMLError, KeyError, TypeError, AttributeError) as exc:
            raise PluginError(
                f"{path}: cannot read the glossary's terms ({exc!r}); "
                "`make generated` names the mistake with its line"
            ) from exc
        return found


def offline(config) -> bool:
    """Whether Material's `offline` plugin is enabled (`OFFLINE=true`)."""
    plugin = config.plugins.get("material/offline")
    return bool(plugin and plugin.config.enabled)


def _words(name: str) -> list[str]:
    """A search tag's name as the index holds words: a Chinese name cut by jieba, as Material
    cuts the pages' text (whole, 自动求导 would be a word that no page's text holds, and a query
    for it, cut into the index's longest words, would find the tag alone); any other name whole."""
    if not _HAN.search(name):
        return [name]
    return [word for word in jieba.cut(name) if word.strip()]


def _identifier_parts(html: str) -> str:
    """The words of a section's identifiers (`UnpicklingError`: `Unpickling Error`) that it
    lacks as words of their own, as a hidden paragraph; "" for none."""
    text = re.sub(r"<[^>]+>", " ", html)
    present = {word.lower() for word in re.findall(r"[A-Za-z0-9]+", text)}
    words = {
        word
        for name in _IDENTIFIER.findall(text)
        if name not in _WHOLE_ONLY
        for piece in name.split("_")
        for word in (_PART.findall(piece) or [piece])
        if len(word) > 2 and word.lower() not in present  # not "to", "2d": no one searches them
    }
    return f"<p hidden>{' '.join(sorted(words))}</p>" if words else ""
