"""The site's MkDocs plugin (`verified-site` in mkdocs.yml; entry point `mkdocs.plugins`).

Per page, it stops the build at a `--8<--` line naming a missing file or section, with the
page's line (pymdownx.snippets' own error names neither), and inserts the verification stamp
(`verified_site.stamp`), the "changed between versions" notes (`verified_site.version_notes`)
and on a notebook page the link to its .ipynb. Per build, it adds the notebooks that
`make notebooks` wrote and gives each language a search index of its own pages.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File

from verified.paths import generated_pages, notebooks_dir, record_path, relative
from verified.record import load_record, verify_environments
from verified_site.pages import (
    LOCALES,
    NOTEBOOK_SITE_FOLDER,
    headings,
    language_root,
    notebook_site_path,
    notebook_sources,
    page_locale,
    page_sources,
    snippet_error,
    snippet_refs,
)
from verified_site.stamp import render_stamp
from verified_site.version_notes import VersionNotes
from verified_site.wording import wording

#: Search weight of a notebook page, against 1 for the other pages.
NOTEBOOK_SEARCH_BOOST = 0.2
# The `{#id` of a heading below the title, to which attributes can be added.
_HEADING_ANCHOR = re.compile(r"^(##+ .*\{#[\w-]+)\}[ \t]*$", re.MULTILINE)


class VerifiedSitePlugin(BasePlugin):
    """The plugin MkDocs loads; `root` is the repository root (the config file's folder)."""

    def on_config(self, config, **kwargs):
        """Load the verification record and every environment's expected outputs once per
        build; returns `config` unchanged. PluginError, naming the file, if the record, an
        expected-output file or the environments cannot be read."""
        # jieba (Chinese search segmentation) logs its dictionary loading at DEBUG level.
        logging.getLogger("jieba").setLevel(logging.INFO)
        self.root = Path(config.config_file_path).resolve().parent
        try:
            self.record = load_record(record_path(self.root))
            self.notes = VersionNotes(self.root)
        except ValueError as exc:  # the record, expected outputs and environments alike
            raise PluginError(str(exc)) from exc
        return config

    @event_priority(-110)  # after mkdocs-static-i18n (-100) has chosen this language's files
    def on_files(self, files, config, **kwargs):
        """Write the site-wide 404 page from the default language's build only (each of
        mkdocs-static-i18n's builds renders the theme's static templates at the site root: the
        last one would own `404.html`; overrides/404.html links to both home pages). Returns
        `files` with this language's .ipynb files added, each next to its page
        (`notebooks/<slug>/<slug>.ipynb` below the language's folder); PluginError, saying
        what to run, if `make notebooks` has not written one."""
        i18n = config.plugins.get("i18n")
        templates = config.theme.static_templates
        if i18n is None or i18n.is_default_language_build:
            templates.add("404.html")
        else:
            templates.discard("404.html")
        locale = i18n.current_language if i18n else LOCALES[0]
        for source in (s for s in notebook_sources(self.root) if page_locale(s) == locale):
            path = notebook_site_path(self.root, source)
            if not path.is_file():
                raise PluginError(
                    f"{relative(source, self.root)}: no notebook written for it "
                    f"({relative(path, self.root)}): run `make notebooks` (make build, "
                    "make serve and make test run it)"
                )
            # Named as the page's link names it (`<slug>.ipynb` beside `<slug>.md`), copied
            # into the page's folder.
            notebook = File.generated(config, f"notebooks/{path.name}", abs_src_path=str(path))
            notebook.dest_uri = f"{language_root(locale)}notebooks/{path.stem}/{path.name}"
            files.append(notebook)
        return files

    def on_serve(self, server, config, builder, **kwargs):
        """Under `mkdocs serve`, copy the notebooks again when `make notebooks` rewrites them;
        returns `server`."""
        if (self.root / NOTEBOOK_SITE_FOLDER).is_dir():
            server.watch(str(self.root / NOTEBOOK_SITE_FOLDER))
        return server

    def on_page_markdown(self, markdown: str, page, config, files, **kwargs) -> str:
        """Validate the page's snippet lines, then insert its "changed between versions" notes
        (`verified_site.version_notes`) and its verification stamp (`verified_site.stamp`)
        below the first level-1 heading, and on a notebook page the link to its .ipynb.
        `markdown` comes without its front matter. PluginError if a `--8<--` line names a
        missing file or section."""
        root, source = self.root, Path(page.file.abs_src_path)
        locale = page_locale(source)
        # Read the file itself so that line numbers count the front matter too.
        errors = [message for ref in snippet_refs(source) if (message := snippet_error(ref, root))]
        if errors:
            raise PluginError("Broken snippet reference:\n  " + "\n  ".join(errors))
        if generated_pages(root) in source.parents:
            # The reference's pages carry their own run's stamp; readers edit their data.
            if page.edit_url and (data := page.meta.get("data")):
                page.edit_url = page.edit_url.rsplit("/docs/", 1)[0] + "/" + data
            return markdown
        verifications = verify_environments(self.record, page_sources(source, root), root)
        verified = {env for env, v in verifications.items() if v.state in ("verified", "partial")}
        markdown = self.notes.insert(markdown, locale, verified)
        top = render_stamp(verifications, self.record, locale)
        if source.parent == notebooks_dir(root):
            # Its sections repeat the examples of the pages it walks through: only its title
            # and introduction are searched, and those pages rank first (Material reads both).
            markdown = _HEADING_ANCHOR.sub(r"\1 data-search-exclude}", markdown)
            page.meta["search"] = {"boost": NOTEBOOK_SEARCH_BOOST}
            name = notebook_site_path(root, source).name
            link = f'[{name}]({name}){{ download="{name}" }}'
            top += "\n" + wording(locale)["notebook"]["download"](link=link) + "\n"
        if not top:
            return markdown
        lines = markdown.split("\n")
        title = next((h.line for h in headings(markdown) if h.level == 1), 0)
        lines.insert(title, f"\n{top}\n")  # below the title, between blank lines
        return "\n".join(lines)

    @event_priority(-110)  # after mkdocs-static-i18n has set this page's language links
    def on_page_context(self, context, page, config, nav, **kwargs):
        """Make the home pages' language links relative. Returns `context` unchanged."""
        # static-i18n gives the two home pages absolute language links built from site_url
        # (`/tensors-verified/en/`), which break wherever the site is served at another
        # path; these, like every other page's, become relative to the site root
        # (Material's `url` filter then makes them relative to the page).
        if page.url in {language_root(locale) for locale in LOCALES}:
            # An attribute, not the item: static-i18n sets `config.extra.alternate`, the
            # attribute the theme reads, and leaves the item `config.extra["alternate"]`.
            for alternate in getattr(config.extra, "alternate", None) or []:
                alternate["link"] = language_root(alternate["lang"])
        return context

    @event_priority(-110)  # after mkdocs-static-i18n (-100) has merged all languages' entries
    def on_post_build(self, config, **kwargs) -> None:
        """Give each language its own search index, so that readers get pages in their
        language.

        mkdocs-static-i18n writes one index for the whole site. This splits it: pages under
        a language's folder (`en/`) go to `<folder>/search/search_index.json`, with their
        locations relative to that folder; the rest stay in the root index, which keeps the
        configured languages (Chinese pages are full of English API names). A folder's index
        is set to its own language only (lunr's `lang`), so that its readers' browsers do not
        load lunr's Chinese support. overrides/main.html points each language's search at
        its own folder. PluginError, naming the index, if the merged index is missing or not
        JSON.
        """
        i18n = config.plugins.get("i18n")
        if i18n is None or i18n.building:
            return  # a single-language build, or one language's pass inside i18n's build
        site = Path(config.site_dir)
        path = site / "search" / "search_index.json"
        try:
            index = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise PluginError(f"{path}: cannot split the search index: {exc}") from exc
        parts: dict[str, list] = {language_root(locale): [] for locale in LOCALES}
        for doc in index["docs"]:
            folder = next((f for f in parts if f and doc["location"].startswith(f)), "")
            parts[folder].append({**doc, "location": doc["location"][len(folder) :]})
        for (folder, docs), locale in zip(parts.items(), LOCALES, strict=True):
            target = site / folder / "search" / "search_index.json"
            target.parent.mkdir(parents=True, exist_ok=True)
            own = {**index["config"], "lang": [locale]} if folder else index["config"]
            split = json.dumps(
                {"config": own, "docs": docs}, ensure_ascii=False, separators=(",", ":")
            )
            target.write_text(split, encoding="utf-8")
