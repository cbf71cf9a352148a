"""The site's MkDocs plugin (`verified-site` in mkdocs.base.yml; entry point `mkdocs.plugins`):
what must happen during the build. Per page: its snippet lines checked, its stamp and version
notes inserted (a notebook page, rendered by mkdocs-jupyter, carries its own), its inline code's
API names linked to their docs; per build: glossary names and identifiers' parts added to the
language's search index, the API names it could not link reported; in the offline edition
(Material's `offline` plugin enabled), iframe-worker's shim served from the site's own files.
Each language is a build of its own (mkdocs.yml, mkdocs.en.yml); the build's language is its
theme's `language`."""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from pathlib import Path

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
#: The error atlas's pages: their search text keeps, of each code block, only what it printed
#: (the messages readers paste), which keeps the search indexes within their budget.
ATLAS = "errors/"
_CODE = re.compile(r"<pre><code>(.*?)</code></pre>", re.DOTALL)
#: Identifiers the search keeps whole (mkdocs.base.yml's separator splits neither at `_` nor in
#: camel case): snake_case and CamelCase names. `_PART`: the words they are made of.
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Za-z]*[a-z][A-Z]\w*")
_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
#: iframe-worker's shim, installed by `npm ci` (package.json): on file:// pages it runs
#: Material's search worker, which browsers refuse to start from a file. The offline edition
#: serves it at IFRAME_WORKER_URL, whose "iframe-worker" keeps Material's offline plugin from
#: adding a CDN's copy.
IFRAME_WORKER = "node_modules/iframe-worker/shim/index.js"
IFRAME_WORKER_URL = "assets/javascripts/iframe-worker/shim.js"
log = logging.getLogger(f"mkdocs.plugins.{__name__}")


class VerifiedSitePlugin(BasePlugin):
    """The plugin MkDocs loads; `root` is the repository root (the config file's folder)."""

    @event_priority(10)  # before Material's offline plugin, which adds a CDN's shim otherwise
    def on_config(self, config, **kwargs):
        """Load the record and every environment's expected outputs once per build; in the
        offline edition, list iframe-worker's shim among the theme's polyfills. PluginError,
        naming the file, if one cannot be read."""
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
        self.linked, self.unlinked, self.not_api = Counter(), Counter(), Counter()
        self.missing: dict[str, set[str]] = {}  # name -> pages
        if offline(config):
            polyfills = config.extra.setdefault("polyfills", [])
            if IFRAME_WORKER_URL not in polyfills:
                polyfills.append(IFRAME_WORKER_URL)
        return config

    def on_files(self, files, config, **kwargs):
        """PluginError, saying what to run, if a notebook page's notebook is missing (`make
        notebooks` writes it from its source). The site-wide 404 page comes from the Chinese
        build only, at the site root
        (overrides/404.html links to both home pages); the offline edition, read from disk, has
        none, and gets iframe-worker's shim instead. PluginError, saying what to run, if the
        shim is not installed."""
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
        page's line, if a `--8<--` line names a missing file or section (pymdownx.snippets' own
        error names neither). A notebook page is mkdocs-jupyter's: its stamp is in the notebook
        (`make notebooks`), and "edit this page" opens its Markdown source."""
        root, source = self.root, Path(page.file.abs_src_path)
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
        """On a notebook page, links to the site made relative, permanent links and the table of
        contents (`notebooks.page_html`). Link each inline code span that names an API name to
        its page in the libraries' docs, through data/api-links.json (`verified_site.api_names`);
        count those it cannot link. On the reference's pages, only the prose (introductions,
        reasons): their tables' code is linked by `make reference`. A site without the table
        links nothing. Material's search index keeps `<code>`, not `<a>`: no link enters it."""
        table, source = self.api_links, Path(page.file.abs_src_path)
        if source.suffix == ".ipynb":
            html, tokens = notebooks.page_html(
                html, page, files, self.locale, pages.site_addresses(self.root)[0]
            )
            page.toc = get_toc(tokens)
        if table is None:
            return html
        generated = is_generated(source, self.root)

        def found(name: str) -> None:
            if name in table.links:
                self.linked[name] += 1
            elif name in table.no_page:
                self.unlinked[name] += 1
            elif name in table.not_api:
                self.not_api[name] += 1
            else:
                self.missing.setdefault(name, set()).add(relative(source, self.root))

        return api_names.link(html, table, found, tables=not generated)

    def _report_api_links(self) -> None:
        """After the whole build (both languages): one info line with the spans linked and not,
        then each name the docs have no page for, with its count and reason; each name the
        installed libraries lack (`not_api`), with its count; and each name the table lacks with
        its pages and what to run. Information only, never a warning: the build
        runs in the docs-only environment, which cannot write the table (it imports the
        libraries), and a stale table fails `make test` (tests/examples/test_api_link_table.py)."""
        table = self.api_links
        if table is None:
            return
        linked, unlinked = sum(self.linked.values()), sum(self.unlinked.values())
        log.info(
            f"API links: {linked} code spans linked to their docs; not linked: {unlinked} spans "
            f"of {len(self.unlinked)} names without a page, {sum(self.not_api.values())} spans of "
            f"{len(self.not_api)} names the installed libraries lack, {len(self.missing)} names "
            f"not in {api_names.TABLE}"
        )
        for name, count in sorted(self.unlinked.items()):
            log.info(f"  {name} ({count} spans): no page: {table.no_page[name]}")
        for name, count in sorted(self.not_api.items()):
            log.info(f"  {name} ({count} spans): not a name of the installed libraries")
        if self.missing:
            found = "; ".join(
                f"{name} ({', '.join(sorted(pages))})"
                for name, pages in sorted(self.missing.items())
            )
            log.info(
                f"  {api_names.TABLE} lacks names pages use, not linked: {found}. Run "
                "`.venv/bin/python -m tooling.api_links` in the test environment and commit it"
            )

    @event_priority(-110)  # after Material's search (0) and offline (-100) plugins wrote the index
    def on_post_build(self, config, **kwargs) -> None:
        """Report the API links, then add to this language's search index what Material's
        search cannot index by itself: each glossary term's names (the term and its `also`, in
        both languages) as search tags of the page or section it is shown at (`see`), so that
        any of them finds that page; each identifier's parts (`weights`, `only`), hidden, in
        the search text of a section that names it, so that a part finds it too (the separator
        keeps identifiers whole); and, on the error atlas's pages, only the printed lines of
        each code block (the messages readers paste), which keeps the index within its budget.
        In the offline edition, the script form Material's offline plugin wrote,
        `search_index.js`, is written again from it. PluginError, naming the file, if the index
        is missing or not JSON, or data/glossary.yml cannot be read."""
        self._report_api_links()
        path = Path(config.site_dir) / "search" / "search_index.json"
        try:
            index = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise PluginError(f"{path}: cannot read the search index: {exc}") from exc
        tags = self._synonyms()
        for doc in index["docs"]:
            if doc["location"] in tags:
                doc["tags"] = doc.get("tags", []) + tags[doc["location"]]
            if doc["location"].startswith(ATLAS):
                doc["text"] = _CODE.sub(_printed_lines, doc["text"])
            doc["text"] += _identifier_parts(doc["title"] + " " + doc["text"])
        text = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
        path.write_text(text, encoding="utf-8")
        if offline(config):
            path.with_suffix(".js").write_text(f"var __index = {text}", encoding="utf-8")

    def _synonyms(self) -> dict[str, list[str]]:
        """Search location in this language's index (`gpu/pinned-memory/`, `a/b/#id`) -> the
        names the glossary gives the terms shown there (term, then `also`), in both languages;
        none for a site without data/glossary.yml. PluginError, naming the file, if it cannot
        be read."""
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
                names = [n for lang in pages.LOCALES for n in _names(term[lang])]
                found.setdefault(location, []).extend(dict.fromkeys(names))
        except (OSError, yaml.YAMLError, KeyError, TypeError, AttributeError) as exc:
            raise PluginError(
                f"{path}: cannot read the glossary's terms ({exc!r}); "
                "`make generated` names the mistake with its line"
            ) from exc
        return found


def offline(config) -> bool:
    """Whether this is the offline edition's build: Material's `offline` plugin is enabled
    (mkdocs.base.yml: `OFFLINE=true`)."""
    plugin = config.plugins.get("material/offline")
    return bool(plugin and plugin.config.enabled)


def _names(term: dict) -> list[str]:
    """A glossary term's names in one language: the term, then its other names (`also`)."""
    return [term["term"], *term.get("also", [])]


def _printed_lines(code: re.Match) -> str:
    """A code block of the search text (HTML-escaped) reduced to its output: `#>` lines and
    the lines of `\"\"\"` blocks, as the example's prints wrote them. A block without either
    is all output (a "changed between versions" note's) and is kept whole."""
    printed, inside, marked = [], False, False
    for line in (line.strip() for line in code[1].splitlines()):
        if line == '"""':
            inside, marked = not inside, True
        elif inside or line.startswith("#&gt;"):
            printed.append(line.removeprefix("#&gt;").strip())
            marked = True
    return "<pre><code>" + "\n".join(printed) + "</code></pre>" if marked else code[0]


def _identifier_parts(html: str) -> str:
    """The words of the identifiers in a section's search text (`weights_only` -> `weights
    only`, `UnpicklingError` -> `Unpickling Error`) that it lacks as words of their own, as a
    hidden paragraph; "" for none."""
    text = re.sub(r"<[^>]+>", " ", html)
    present = {word.lower() for word in re.findall(r"[A-Za-z0-9]+", text)}
    words = {
        word
        for name in _IDENTIFIER.findall(text)
        for piece in name.split("_")
        for word in (_PART.findall(piece) or [piece])
        if len(word) > 2 and word.lower() not in present  # not "to", "2d": no one searches them
    }
    return f"<p hidden>{' '.join(sorted(words))}</p>" if words else ""
