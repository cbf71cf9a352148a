"""The cross-library reference's pages (README: "The cross-library reference"), written into
`docs/<locale>/reference/` by `python -m tooling.reference_pages` (`make reference`) from the data
and the rows' results in the verification record: a row that the record does not hold, or whose data
changed since, is marked "not run in this build". Wording: the locale files' `reference` section.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

from tooling.api_links import api_spans
from tooling.data import DataError
from tooling.reference import (
    INPUTS,
    LIBRARIES,
    NAMES,
    Family,
    Row,
    load_families,
    load_inputs,
    names,
    reasons,
)
from verified import record
from verified.paths import REPO_ROOT, generated_pages, record_path, relative
from verified_site.api_names import TABLE, load_table
from verified_site.pages import LOCALES
from verified_site.wording import wording

#: Longest error message a results cell shows; the full first line is in operations.json.
ERROR_CHARACTERS = 160
#: The search weight of the reference's pages, against 1 for the other pages: a row ranks first
#: for its own API names, the topic pages for the words they explain (float64, reshape).
SEARCH_BOOST = 0.3
#: Whitespace that YAML's folding left between two Chinese characters or punctuation marks.
_CJK_FOLD = re.compile(
    r"(?<=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])\s+(?=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])"
)
#: What Markdown would read inside an HTML element (emphasis, links, escapes, a table's pipe),
#: written as character references.
_LITERAL = str.maketrans({c: f"&#{ord(c)};" for c in '&<>"*_`[]\\|{}'})
HEADER = [NAMES[library] for library in LIBRARIES]


def prose(text: str) -> str:
    """Data text as one paragraph: folded lines joined, no space between Chinese characters."""
    return _CJK_FOLD.sub("", " ".join(text.split()))


def _front_matter(description: str, data: str, search: str = f"boost: {SEARCH_BOOST}") -> str:
    """Front matter: the first sentence of `description` (typographic quotes: the theme writes it
    into an HTML attribute unescaped), the data file the edit link opens, the search settings."""
    first = re.split(r"(?<=。)|(?<=\.)\s", prose(description), maxsplit=1)[0]
    first = re.sub(r'"([^"]*)"', "“\\1”", first)
    description = json.dumps(first, ensure_ascii=False)
    return f"---\ndescription: {description}\ndata: {data}\nsearch:\n  {search}\n---\n\n"


def _table(*rows: list) -> list[str]:
    """The lines of a Markdown table whose first row is the header."""
    head, *body = ["| " + " | ".join(str(cell) for cell in cells) + " |" for cells in rows]
    return [head, "| --- " * len(rows[0]) + "|", *body]


def _code(text: str) -> str:
    """Inline code for a table cell: one line, pipes escaped."""
    flat = " ".join(text.split()).replace("|", "\\|")
    return f"`` {flat} ``" if "`" in flat else f"`{flat}`"


#: A line of a row's code that only seeds a generator: the run-it block shows it, the table not.
_SEEDING = re.compile(r"^[\w.]*seed\(\d*\)$")


def _spellings(row: Row) -> dict[str, list[str]]:
    """Library with a call -> what the row's table shows: the call, then `also`, each whole but
    for the lines that only seed a generator."""
    return {
        library: [
            "\n".join(line for line in text.strip().splitlines() if not _SEEDING.match(line))
            for text in [call, *row.also.get(library, [])]
        ]
        for library, call in row.calls.items()
        if call is not None
    }


def _linked_code(text: str, library: str, links: dict[str, str]) -> str:
    """A spelling as code for a table cell, line by line, each API name that has a page in
    `links` linked to it: `np.linalg.norm` whole, a method by its own name (`x.<a>reshape</a>`)."""
    out, at = [], 0
    for name, start, end in api_spans(text, library):
        if links.get(name) and start >= at:
            link = f'<a href="{links[name]}">{text[start:end].translate(_LITERAL)}</a>'
            out += [text[at:start].translate(_LITERAL), link]
            at = end
    out.append(text[at:].translate(_LITERAL))
    lines = "".join(out).split("\n")  # indentation kept: a loop's body stays under it
    return "<code>" + "<br>".join(re.sub(" (?= )|^ ", "&nbsp;", line) for line in lines) + "</code>"


def _cell(result: dict, words: dict) -> str:
    """One library's result as a table cell: its values, then dtype, shape and memory."""
    if error := result["error"]:
        error = error[: ERROR_CHARACTERS - 1] + "…" if len(error) > ERROR_CHARACTERS else error
        return f"{words['raises']()} {_code(error)}"
    parts = result["parts"]
    values = ", ".join(part["text"] for part in parts)
    about = [", ".join(p["dtype"] for p in parts), ", ".join(str(tuple(p["shape"])) for p in parts)]
    about = [text for text in about if text]  # an empty tuple has neither
    if result["shares"] is not None:
        about.append(words["shares"]() if result["shares"] else words["copies"]())
    values = f"({values})" if result["many"] else values
    small = f"<br><small>{html.escape(' · '.join(about))}</small>" if about else ""
    return _code(values) + small


def _aspect(words: dict, aspect: str) -> str:
    return words[f"aspect_{aspect.replace(' ', '_')}"]()


def _badge(label: str, reason: str) -> str:
    return f'<span class="ref-badge">{label}</span> {prose(reason)}'


def _reasons(row: Row, environment: str, found: list[dict], words: dict, locale: str) -> list[str]:
    """A badged paragraph per declared reason for what differed (`found`) in `environment`."""
    return [
        _badge(f"{_aspect(words, d['aspect'])} · {names(d['libraries'])}", d[locale]) + "\n"
        for d in reasons(row, [(environment, item) for item in found])
    ]


def row_section(
    row: Row, runs: dict[str, dict], inputs: dict[str, dict], locale: str, links: dict
) -> str:
    """The Markdown of one row: heading and anchor, spellings (API names linked by `links`),
    status and declared reasons, and per input what each library returned in the leading run."""
    words = wording(locale)["reference"]
    title, other = (row.zh, row.en) if locale == "zh" else (row.en, row.zh)
    spelled = _spellings(row)
    spellings = [  # a library without a call has no spellings
        "<br>".join(_linked_code(t, lib, links) for t in spelled.get(lib, [])) or words["none"]()
        for lib in LIBRARIES
    ]
    out = [f"## {title} · {other} {{#{row.id}}}", "", *_table(HEADER, spellings), ""]
    if not runs:
        return "\n".join([*out, f"*{words['not_run']()}*", ""])
    name, run = next(iter(runs.items()))
    judged = run["reference"][row.key]
    if row.missing:
        out += [_badge(words["missing"](), row.missing[locale]), ""]
    if judged["status"] == "agree":  # a random row's values are not compared
        out += [words["agree_random" if row.random else "agree"](), ""]
    if judged["status"] == "failed":
        out += [_badge(words["failed"](), words["failed_body"]()), ""]
    out += _reasons(row, name, judged["differences"], words, locale)
    table = [[words["input"](), *HEADER]]
    for key, by_library in judged["results"].items():
        given = inputs.get(key)
        cells = [f"[{given[locale]}](index.md#input-{key})" if given else words["no_input"]()]
        same = not row.random and not any(found["input"] == key for found in judged["differences"])
        first = None
        for library in LIBRARIES:
            if library not in by_library:
                cells.append("—")
            elif same and first is not None:
                cells.append(words["same_as"](library=NAMES[first]))
            else:
                cells.append(_cell(by_library[library], words))
                first = first or library
        table.append(cells)
    out += ["<div markdown data-search-exclude>", "", *_table(*table)]
    for other_name, other_run in list(runs.items())[1:]:
        theirs = other_run["reference"].get(row.key)
        if theirs and theirs["differences"] != judged["differences"]:
            libs = record.versions_label(other_run["environment"])
            out += ["", words["elsewhere"](env=other_name, libs=libs), ""]
            shown = _reasons(row, other_name, theirs["differences"], words, locale)
            out += shown or [words["agree"](), ""]
    given = inputs.get(row.inputs[0]) if row.inputs else None
    snippet = ["import numpy as np", "import tensorflow as tf", "import torch", ""]
    for library, call in row.calls.items():
        if call is not None:
            *body, last = call.strip().splitlines()
            snippet += [f"x = {given[library]}"] if given is not None else []
            snippet += [*body, f"print({last})"]
    out += ["", f'??? example "{words["run_it"]()}"', "", "    ```python"]
    out += [f"    {line}" if line else "" for line in "\n".join(snippet).splitlines()]
    return "\n".join([*out, "    ```", "", "</div>", ""])


def family_page(
    family: Family, runs: dict[str, dict], inputs: dict[str, dict], locale: str, links: dict
) -> str:
    """The Markdown of a family's page in `locale`, API names linked to their pages in `links`."""
    words = wording(locale)["reference"]
    front = _front_matter(family.intro.get(locale, family.title[locale]), family.source)
    out = [f"{front}# {family.title[locale]}", "", prose(family.intro.get(locale, "")), ""]
    if runs:
        out += [f'!!! success "{words["ran"]()}"', ""]
        for name, run in runs.items():
            libs, date = record.versions_label(run["environment"]), run["created"][:10]
            out.append(f"    - {words['ran_in'](env=name, libs=libs, date=date)}")
    else:
        out += [f'!!! warning "{words["not_run"]()}"', "", f"    {words['not_run_body']()}"]
    out += ["", words["see_also"](), ""]
    out += [row_section(row, runs, inputs, locale, links) for row in family.rows]
    return "\n".join(out)


def index_page(families: list[Family], runs_of: dict, inputs: dict[str, dict], locale: str) -> str:
    """The overview: how rows are run, the families with their counts, the shared inputs' code."""
    words = wording(locale)["reference"]
    out = [_front_matter(words["description"](), INPUTS) + f"# {words['title']()}", ""]
    out += [words["intro"](), "", f"## {words['families']()}", ""]
    table = [[words[key]() for key in ("family", "rows", "agree_count", "differ_count")]]
    for family in families:
        run = next(iter(runs_of[family.id].values()), None)
        agree = [run["reference"][r.key]["status"] == "agree" for r in family.rows] if run else []
        counts = [sum(agree), len(agree) - sum(agree)] if run else ["—", "—"]
        table.append([f"[{family.title[locale]}]({family.id}.md)", len(family.rows), *counts])
    out += [*_table(*table), "", f"## {words['inputs_title']()} {{#inputs}}", ""]
    out += [words["inputs_intro"](), ""]
    for given in inputs.values():
        out += [f"### {given[locale]} {{#input-{given['id']} data-search-exclude}}", ""]
        out += [f"- {NAMES[lib]}: {_code(given[lib])}" for lib in LIBRARIES] + [""]
    return "\n".join(out)


def differences_page(families: list[Family], runs_of: dict, locale: str) -> str:
    """The rows whose libraries differ or where one has no such operation, each linking to it."""
    words = wording(locale)["reference"]
    # Found through the rows themselves: kept out of search.
    front = _front_matter(words["differences_intro"](), INPUTS, search="exclude: true")
    out = [front + f"# {words['differences_title']()}", "", words["differences_intro"](), ""]
    for family in families:
        run = next(iter(runs_of[family.id].values()), None)
        judged = [(row, run["reference"][row.key]) for row in family.rows] if run else []
        shown = [(row, j) for row, j in judged if j["status"] in ("differs", "missing")]
        if shown:
            out += [f"## {family.title[locale]}", ""]
        for row, j in shown:
            aspects = [_aspect(words, a) for a in sorted({f["aspect"] for f in j["differences"]})]
            aspects = [words["missing"](), *aspects] if row.missing else aspects
            link = f"[{getattr(row, locale)}]({family.id}.md#{row.id})"
            out.append(f"- {link} — {', '.join(aspects)}")
        out += [""] if shown else []
    return "\n".join(out)


def operations(families: list[Family], runs_of: dict) -> list[dict]:
    """The reference as data (`operations.json`): one entry per row with its spellings, status,
    reasons and the results of every environment's run, from which the status was computed."""
    keys = ("aspect", "libraries", "inputs", "environments", "zh", "en")
    entries = []
    for family in families:
        for row in family.rows:
            judged = {name: run["reference"][row.key] for name, run in runs_of[family.id].items()}
            found = [(name, f) for name, j in judged.items() for f in j["differences"]]
            entries.append(
                {
                    "id": row.id,
                    "family": family.id,
                    "name": {"zh": row.zh, "en": row.en},
                    **row.calls,
                    "also": row.also,
                    "status": next(iter(judged.values()), {"status": "not-run"})["status"],
                    "missing": row.missing,
                    "differences": [{k: d[k] for k in keys if k in d} for d in reasons(row, found)],
                    "results": {name: j["results"] for name, j in judged.items()},
                    "statuses": {name: j["status"] for name, j in judged.items()},
                }
            )
    return entries


def pages(
    root: Path, families: list[Family], inputs: dict[str, dict], links: dict
) -> dict[str, str]:
    """Path relative to `root` -> text of every file of the reference, API names linked by
    `links`; RecordError for a malformed record."""
    runs = (record.load_record(record_path(root)) or {}).get("environments", {})
    order = sorted(runs, key=lambda name: name != record.DEFAULT_ENVIRONMENT)  # the default first
    runs = {name: runs[name] for name in order if runs[name].get("reference")}
    now = {p: record.file_sha256(root / p) for p in [INPUTS, *(f.source for f in families)]}
    runs_of = {  # those that ran the family from the data files as they are now
        family.id: {
            name: run
            for name, run in runs.items()
            if all(run["sources"].get(p) == now[p] for p in (family.source, INPUTS))
            and all(row.key in run["reference"] for row in family.rows)
        }
        for family in families
    }
    files = {}
    entries = json.dumps(operations(families, runs_of), ensure_ascii=False, indent=1)
    for locale in LOCALES:
        folder = relative(generated_pages(locale, root), root)
        files[f"{folder}/index.md"] = index_page(families, runs_of, inputs, locale)
        files[f"{folder}/differences.md"] = differences_page(families, runs_of, locale)
        for family in families:
            page = family_page(family, runs_of[family.id], inputs, locale, links)
            files[f"{folder}/{family.id}.md"] = page
    # The reference as data, once, at /reference/operations.json.
    files[f"{relative(generated_pages(LOCALES[0], root), root)}/operations.json"] = entries
    return files


def main() -> int:
    """Command line: replace the folder's files with the reference's, report the API links. Exit
    status 0, or 2 when the data or the record is malformed (the message names file and line)."""
    try:
        table = load_table(REPO_ROOT)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    links = table.links if table else {}
    try:
        inputs = load_inputs(REPO_ROOT)
        families = load_families(REPO_ROOT, inputs)
        files = pages(REPO_ROOT, families, inputs, links)
    except (DataError, record.RecordError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    folders = [generated_pages(locale, REPO_ROOT) for locale in LOCALES]
    for old in (old for folder in folders if folder.is_dir() for old in folder.glob("*")):
        old.unlink()
    for path, text in files.items():
        (REPO_ROOT / path).parent.mkdir(parents=True, exist_ok=True)
        (REPO_ROOT / path).write_text(text, encoding="utf-8")
    print(
        f"wrote {len(files)} files to "
        + " and ".join(f"{relative(f, REPO_ROOT)}/" for f in folders)
    )
    shown = {  # the API names the tables show: how many have a page, which not
        name
        for family in families
        for row in family.rows
        for library, texts in _spellings(row).items()
        for text in texts
        for name, _, _ in api_spans(text, library)
    }
    none = sorted(name for name in shown if table and name in table.no_page)
    absent = sorted(name for name in shown if not (table and table.knows(name)))
    shown -= set(table.not_api if table else [])  # not names of the libraries: not API names
    print(f"API links: {len(shown) - len(none) - len(absent)} names linked to their docs")
    if none:
        print(f"  {len(none)} without a page (no_page in {TABLE}): {', '.join(none)}")
    if absent:
        print(
            f"  {len(absent)} not in {TABLE} (run `python -m tooling.api_links` in the test "
            f"environment): {', '.join(absent)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
