"""The site's MkDocs plugin (`verified-site` in mkdocs.yml; entry point `mkdocs.plugins`): what
must happen during the build. Per page: its snippet lines checked, its stamp and version notes
inserted, its notebook linked, its inline code's API names linked to their docs; per build: the
notebooks added, one search index per language, the API names it could not link reported; in
the offline edition (Material's `offline` plugin enabled), iframe-worker's shim served from the
site's own files and each language's search index as a script."""

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

from verified.paths import docs_dir, generated_pages, notebooks_dir, record_path, relative
from verified.record import load_record, verify_environments
from verified_site import api_names, pages
from verified_site.stamp import render_stamp
from verified_site.version_notes import VersionNotes
from verified_site.wording import wording

#: Search weight of a notebook page, against 1 for the other pages.
NOTEBOOK_SEARCH_BOOST = 0.2
#: The error atlas's pages: their search text keeps, of each code block, only what it printed
#: (the messages readers paste), which keeps the search indexes within their budget.
ATLAS = "errors/"
_CODE = re.compile(r"<pre><code>(.*?)</code></pre>", re.DOTALL)
#: Identifiers the search keeps whole (mkdocs.yml's separator splits neither at `_` nor in
#: camel case): snake_case and CamelCase names. `_PART`: the words they are made of.
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Za-z]*[a-z][A-Z]\w*")
_PART = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
#: iframe-worker's shim, installed by `npm ci` (package.json): on file:// pages it runs
#: Material's search worker, which browsers refuse to start from a file. The offline edition
#: serves it at IFRAME_WORKER_URL, whose "iframe-worker" keeps Material's offline plugin from
#: adding a CDN's copy.
IFRAME_WORKER = "node_modules/iframe-worker/shim/index.js"
IFRAME_WORKER_URL = "assets/javascripts/iframe-worker/shim.js"
#: lunr 2.3.9, in Material's search worker, names a token-set node by its edges' labels and
#: ids run together: nodes {1: 2, 3: 45} and {1: 23, 4: 5} are both "012345" and are merged, so
#: a query can expand to a term the index lacks, and then it throws and finds nothing ("9" did;
#: lunr issue #503, open, lunr unmaintained). A comma after each id keeps the names apart.
LUNR_NODE_NAME = ("e=e+s+o.id}return e}", 'e=e+s+o.id+","}return e}')
# The `{#id` of a heading below the title, to which attributes can be added.
_HEADING_ANCHOR = re.compile(r"^(##+ .*\{#[\w-]+)\}[ \t]*$", re.MULTILINE)
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
        i18n = config.plugins.get("i18n")
        if i18n is None or not i18n.building:  # static-i18n's other languages count on
            self.linked, self.unlinked, self.not_api = Counter(), Counter(), Counter()
            self.missing: dict[str, set[str]] = {}  # name -> pages
        if offline(config):
            polyfills = config.extra.setdefault("polyfills", [])
            if IFRAME_WORKER_URL not in polyfills:
                polyfills.append(IFRAME_WORKER_URL)
        return config

    @event_priority(-110)  # after mkdocs-static-i18n (-100) has chosen this language's files
    def on_files(self, files, config, **kwargs):
        """Add this language's .ipynb files, each next to its page (PluginError, saying what
        to run, if `make notebooks` has not written one). The site-wide 404 page comes from
        the default language's build only: each of static-i18n's builds renders it at the
        site root (overrides/404.html links to both home pages); the offline edition, read
        from disk, has none, and gets iframe-worker's shim instead. PluginError, saying what
        to run, if the shim is not installed."""
        i18n = config.plugins.get("i18n")
        templates = config.theme.static_templates
        first = i18n is None or i18n.is_default_language_build
        if first and not offline(config):
            templates.add("404.html")
        else:
            templates.discard("404.html")
        if first and offline(config):
            shim = self.root / IFRAME_WORKER
            if not shim.is_file():
                raise PluginError(
                    f"{IFRAME_WORKER}: missing, the offline edition serves it: run "
                    "`npm ci --omit=dev --ignore-scripts` (make offline does)"
                )
            files.append(File.generated(config, IFRAME_WORKER_URL, abs_src_path=str(shim)))
        locale = i18n.current_language if i18n else pages.LOCALES[0]
        for source in (
            s for s in pages.notebook_sources(self.root) if pages.page_locale(s) == locale
        ):
            path = pages.notebook_site_path(self.root, source)
            if not path.is_file():
                raise PluginError(
                    f"{relative(source, self.root)}: no notebook written for it "
                    f"({relative(path, self.root)}): run `make notebooks` (make build, "
                    "make serve and make test run it)"
                )
            # `<slug>.ipynb`, as the page's link names it, in the page's folder.
            notebook = File.generated(config, f"notebooks/{path.name}", abs_src_path=str(path))
            notebook.dest_uri = f"{pages.language_root(locale)}notebooks/{path.stem}/{path.name}"
            files.append(notebook)
        return files

    def on_serve(self, server, config, builder, **kwargs):
        """Under `mkdocs serve`, copy the notebooks again when `make notebooks` rewrites them."""
        if (self.root / pages.NOTEBOOK_SITE_FOLDER).is_dir():
            server.watch(str(self.root / pages.NOTEBOOK_SITE_FOLDER))
        return server

    def on_page_markdown(self, markdown: str, page, config, files, **kwargs) -> str:
        """Insert the page's version notes, and below its title its stamp and, on a notebook
        page, the link to its .ipynb. PluginError, with the page's line, if a `--8<--` line
        names a missing file or section (pymdownx.snippets' own error names neither)."""
        root, source = self.root, Path(page.file.abs_src_path)
        locale = pages.page_locale(source)
        # Read the file itself so that line numbers count the front matter too.
        errors = [
            message
            for ref in pages.snippet_refs(source)
            if (message := pages.snippet_error(ref, root))
        ]
        if errors:
            raise PluginError("Broken snippet reference:\n  " + "\n  ".join(errors))
        if generated_pages(root) in source.parents:
            # The reference's pages carry their own run's stamp; readers edit their data.
            if page.edit_url and (data := page.meta.get("data")):
                page.edit_url = page.edit_url.rsplit("/docs/", 1)[0] + "/" + data
            return markdown
        verifications = verify_environments(self.record, pages.page_sources(source, root), root)
        verified = {env for env, v in verifications.items() if v.state in ("verified", "partial")}
        markdown = self.notes.insert(markdown, locale, verified)
        top = render_stamp(verifications, self.record, locale)
        if source.parent == notebooks_dir(root):
            # Its sections repeat the examples of the pages it walks through: only its title
            # and introduction are searched, and those pages rank first (Material reads both).
            markdown = _HEADING_ANCHOR.sub(r"\1 data-search-exclude}", markdown)
            page.meta["search"] = {"boost": NOTEBOOK_SEARCH_BOOST}
            name = pages.notebook_site_path(root, source).name
            link = f'[{name}]({name}){{ download="{name}" }}'
            top += "\n" + wording(locale)["notebook"]["download"](link=link) + "\n"
        if not top:
            return markdown
        lines = markdown.split("\n")
        title = next((h.line for h in pages.headings(markdown) if h.level == 1), 0)
        lines.insert(title, f"\n{top}\n")  # below the title, between blank lines
        return "\n".join(lines)

    def on_page_content(self, html: str, page, config, files, **kwargs) -> str:
        """Link each inline code span that names an API name to its page in the libraries'
        docs, through data/api-links.json (`verified_site.api_names`); count those it cannot
        link. On the reference's pages, only the prose (introductions, reasons): their tables'
        code is linked by `make reference`. A site without the table links nothing. Material's
        search index keeps `<code>`, not `<a>`: no link enters it."""
        table, source = self.api_links, Path(page.file.abs_src_path)
        if table is None:
            return html
        generated = generated_pages(self.root) in source.parents

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

    @event_priority(-110)  # after mkdocs-static-i18n has set this page's language links
    def on_page_context(self, context, page, config, nav, **kwargs):
        """Make the home pages' language links relative to the site root, as every other
        page's (Material's `url` filter then makes them relative to the page): static-i18n
        builds them from site_url (`/tensors-verified/en/`), wrong at another base path."""
        if page.url in {pages.language_root(locale) for locale in pages.LOCALES}:
            # An attribute, not the item: static-i18n sets `config.extra.alternate`, the
            # attribute the theme reads, and leaves the item `config.extra["alternate"]`.
            for alternate in getattr(config.extra, "alternate", None) or []:
                alternate["link"] = pages.language_root(alternate["lang"])
        return context

    @event_priority(-110)  # after mkdocs-static-i18n (-100) has merged all languages' entries
    def on_post_build(self, config, **kwargs) -> None:
        """Split static-i18n's one search index: pages under a language's folder (`en/`) go
        to `<folder>/search/search_index.json`, located relative to it and with lunr's `lang`
        set to that language only (no Chinese support to load); the rest stay in the root
        index, with all configured languages (Chinese pages are full of English API names).
        overrides/main.html points each language's search at its folder. In the offline
        edition, each index is also written as the script Material loads from file:// pages,
        `search_index.js` (`var __index = ...`, as Material's offline plugin writes the merged
        one, which this replaces). Each glossary term's
        names (the term and its `also`, in both languages) become search tags of the page or
        section it is shown at (`see`), so that any of them finds that page. Each identifier's
        parts (`weights`, `only`) are added, hidden, to the search text of a section that names
        it, so that a part finds it too. The search worker's lunr is repaired (`_repair_lunr`).
        PluginError, naming the file, if the merged index is missing or not JSON, the worker is
        not the one the repair expects, or data/glossary.yml cannot be read."""
        i18n = config.plugins.get("i18n")
        if i18n is not None and i18n.building:
            return  # one language's pass inside i18n's build
        self._report_api_links()
        _repair_lunr(Path(config.site_dir))
        if i18n is None:
            return  # a single-language build: one search index already
        site = Path(config.site_dir)
        path = site / "search" / "search_index.json"
        try:
            index = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise PluginError(f"{path}: cannot split the search index: {exc}") from exc
        tags = self._synonyms()
        parts: dict[str, list] = {pages.language_root(locale): [] for locale in pages.LOCALES}
        for doc in index["docs"]:
            if doc["location"] in tags:
                doc["tags"] = doc.get("tags", []) + tags[doc["location"]]
            folder = next((f for f in parts if f and doc["location"].startswith(f)), "")
            location = doc["location"][len(folder) :]
            if location.startswith(ATLAS):
                doc["text"] = _CODE.sub(_printed_lines, doc["text"])
            doc["text"] += _identifier_parts(doc["title"] + " " + doc["text"])
            parts[folder].append({**doc, "location": location})
        for (folder, docs), locale in zip(parts.items(), pages.LOCALES, strict=True):
            target = site / folder / "search" / "search_index.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            own = {**index["config"], "lang": [locale]} if folder else dict(index["config"])
            # A synonym weighs what a title does: Material's tag boost (10^6) let common words
            # among them ("dimension", "array") outrank the pages that really match a query.
            own["fields"] = {**own["fields"], "tags": {"boost": own["fields"]["title"]["boost"]}}
            split = json.dumps(
                {"config": own, "docs": docs}, ensure_ascii=False, separators=(",", ":")
            )
            target.write_text(split, encoding="utf-8")
            if offline(config):
                target.with_suffix(".js").write_text(f"var __index = {split}", encoding="utf-8")

    def _synonyms(self) -> dict[str, list[str]]:
        """Search location (as in the merged index: `gpu/pinned-memory/`, `en/...#id`) -> the
        names the glossary gives the terms shown there (term, then `also`), in both languages;
        none for a site without data/glossary.yml. PluginError, naming the file, if it cannot
        be read."""
        path = self.root / "data" / "glossary.yml"
        if not path.exists():
            return {}
        found: dict[str, list[str]] = {}
        try:
            terms = yaml.safe_load(path.read_text(encoding="utf-8"))["terms"]
            docs = docs_dir(self.root)
            for term in (t for t in terms if "see" in t):
                page, _, anchor = term["see"].partition("#")
                for locale in pages.LOCALES:
                    url = pages.page_url(pages.translation_of(docs / page, locale), docs)
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


def _repair_lunr(site: Path) -> None:
    """Apply `LUNR_NODE_NAME` to the search worker in `site` (once: a `--dirty` build keeps the
    repaired copy). PluginError, naming the folder or file, when there is no worker or it no
    longer has lunr's code as it was: Material changed its worker, so check whether the bug is
    fixed there (tests/browser/test_search.py) and update or drop the repair."""
    folder = site / "assets" / "javascripts" / "workers"
    workers = sorted(folder.glob("search.*.min.js"))
    if not workers:
        raise PluginError(f"{folder}: no search worker to repair; see LUNR_NODE_NAME's comment")
    for worker in workers:
        code = worker.read_text(encoding="utf-8")
        if LUNR_NODE_NAME[1] in code:
            continue
        if code.count(LUNR_NODE_NAME[0]) != 1:
            raise PluginError(
                f"{worker}: lunr's TokenSet.toString is not as verified_site.plugin.LUNR_NODE_NAME "
                "expects: Material's search worker changed; see that constant's comment"
            )
        worker.write_text(code.replace(*LUNR_NODE_NAME), encoding="utf-8")


def offline(config) -> bool:
    """Whether this is the offline edition's build: Material's `offline` plugin is enabled
    (mkdocs.yml: `OFFLINE=true`)."""
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
