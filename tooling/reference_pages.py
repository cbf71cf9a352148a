"""The cross-library reference's pages, written before the build from its data and the record.

`python -m tooling.reference_pages` (`make reference`; `make build`, `make serve` and `make
test` run it) writes into `docs/reference/` (not committed): per language an overview with the
shared inputs, one page per family, a page of the rows whose libraries differ, and
`operations.json`, the whole reference as data. What each library returned comes from the
examples stage's run in the verification record, never from the data: a row that run does not
hold, or whose data changed since, is marked "not run in this build". The API names of each
row's spellings link to their libraries' pages, from the committed table `data/api-links.json`
(`tooling.api_links`); the command prints how many names it linked and those it could not. The
wording is in the site's locale files (section `reference`).
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

from tooling.api_links import TABLE, api_spans, load_table
from tooling.data import DataError
from tooling.reference import (
    INPUTS,
    LIBRARIES,
    NAMES,
    Family,
    Input,
    Row,
    covers,
    load_families,
    load_inputs,
)
from verified.paths import REPO_ROOT, generated_pages, record_path, relative
from verified.record import (
    DEFAULT_ENVIRONMENT,
    RecordError,
    file_sha256,
    load_record,
    versions_label,
)
from verified_site.pages import LOCALES
from verified_site.wording import wording

#: Longest error message a results cell shows; the full first line is in operations.json.
ERROR_CHARACTERS = 160
#: The search weight of the reference's pages, against 1 for the other pages: a row ranks first
#: for its own API names, the topic pages for the words they explain (float64, reshape).
SEARCH_BOOST = 0.5


def _front_matter(description: str, data: str) -> str:
    """The page's front matter: its description (the first sentence of `description`, with
    typographic quotes: the theme writes it into an HTML attribute unescaped), the data file its
    edit link opens, its search weight."""
    first = re.split(r"(?<=。)|(?<=\.)\s", prose(description), maxsplit=1)[0]
    first = re.sub(r'"([^"]*)"', "“\\1”", first)
    return (
        f"---\ndescription: {json.dumps(first, ensure_ascii=False)}\n"
        f"data: {data}\nsearch:\n  boost: {SEARCH_BOOST}\n---\n\n"
    )


def current_runs(record: dict | None, root: Path) -> dict[str, dict]:
    """Environment -> its run, default first, keeping only the runs that hold reference rows."""
    runs = (record or {}).get("environments", {})
    order = sorted(runs, key=lambda name: name != DEFAULT_ENVIRONMENT)
    return {name: runs[name] for name in order if runs[name].get("reference")}


def fresh(run: dict, family: Family, root: Path) -> bool:
    """Whether `run` ran `family` from the data files as they are now."""
    return all(
        run["sources"].get(source) == file_sha256(root / source)
        for source in (family.source, INPUTS)
    )


#: Whitespace that YAML's folding left between two Chinese characters or punctuation marks.
_CJK_FOLD = re.compile(
    r"(?<=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])\s+(?=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])"
)


def prose(text: str) -> str:
    """Data text as one paragraph: folded lines joined, without a space between Chinese
    characters (YAML's `>-` joins lines with one)."""
    return _CJK_FOLD.sub("", " ".join(text.split()))


def _table_row(cells: list) -> str:
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def _code(text: str) -> str:
    """Inline code for a table cell: one line, pipes escaped."""
    flat = " ".join(text.split()).replace("|", "\\|")
    return f"`` {flat} ``" if "`" in flat else f"`{flat}`"


#: What Markdown would read inside an HTML element (emphasis, links, escapes, a table's pipe),
#: written as character references.
_LITERAL = str.maketrans({c: f"&#{ord(c)};" for c in '&<>"*_`[]\\|{}'})


def _spellings(row: Row, library: str) -> list[str]:
    """What the row's table shows for `library`: its call's last line, then the other
    spellings."""
    return [row.calls[library].strip().splitlines()[-1], *row.also.get(library, [])]


def _linked_code(text: str, library: str, links: dict[str, str | None]) -> str:
    """A spelling as inline code for a table cell, each API name that has a page in `links`
    linked to it: `np.linalg.norm` whole, a method by its own name (`x.<a>reshape</a>`)."""
    try:
        spans = [span for span in api_spans(text, library) if links.get(span[0])]
    except SyntaxError:  # a call's last line alone need not parse
        spans = []
    if not spans:
        return _code(text)
    out, at = [], 0
    for name, start, end in spans:
        if start >= at:
            link = f'<a href="{links[name]}">{text[start:end].translate(_LITERAL)}</a>'
            out += [text[at:start].translate(_LITERAL), link]
            at = end
    out.append(text[at:].translate(_LITERAL))
    return "<code>" + " ".join("".join(out).split()) + "</code>"


def link_report(families: list[Family], links: dict[str, str | None]) -> str:
    """How many API names the spellings tables link, then those without a page (null in the
    table) and those missing from it."""
    shown = set()
    for row in (row for family in families for row in family.rows):
        for library in (lib for lib in LIBRARIES if row.calls[lib] is not None):
            for text in _spellings(row, library):
                try:
                    shown |= {name for name, _, _ in api_spans(text, library)}
                except SyntaxError:
                    pass
    none = sorted(name for name in shown if name in links and links[name] is None)
    absent = sorted(shown - set(links))
    lines = [f"API links: {len(shown) - len(none) - len(absent)} names linked to their docs"]
    if none:
        lines.append(f"  {len(none)} without a page (null in {TABLE}): {', '.join(none)}")
    if absent:
        lines.append(
            f"  {len(absent)} not in {TABLE} (run `python -m tooling.api_links` in the test "
            f"environment): {', '.join(absent)}"
        )
    return "\n".join(lines)


def _cell(result: dict, words: dict) -> str:
    """One library's result as a table cell: its values, then dtype, shape and memory."""
    if result["error"]:
        error = result["error"]
        if len(error) > ERROR_CHARACTERS:
            error = error[: ERROR_CHARACTERS - 1] + "…"
        return f"{words['raises']()} {_code(error)}"
    values = ", ".join(part["text"] for part in result["parts"])
    values = f"({values})" if result["many"] else values
    dtype = ", ".join(part["dtype"] for part in result["parts"])
    shape = ", ".join(str(tuple(part["shape"])) for part in result["parts"])
    about = [dtype, shape]
    if result["shares"] is not None:
        about.append(words["shares"]() if result["shares"] else words["copies"]())
    return f"{_code(values)}<br><small>{html.escape(' · '.join(about))}</small>"


def _snippet(row: Row, given: Input | None) -> str:
    """The row's code as a reader can run it: each library's input, then its call printed."""
    lines = ["import numpy as np", "import tensorflow as tf", "import torch", ""]
    for library in LIBRARIES:
        call = row.calls[library]
        if call is None:
            continue
        *body, last = call.strip().splitlines()
        if given is not None:
            lines.append(f"x = {given.code[library]}")
        lines += [*body, f"print({last})"]
    return "\n".join(lines)


def row_section(
    row: Row,
    runs: dict[str, dict],
    inputs: dict[str, Input],
    locale: str,
    links: dict[str, str | None] | None = None,
) -> str:
    """The Markdown of one row: heading with its anchor, the spellings (API names linked to
    their pages in `links`), the status with the declared reasons, and per input what each
    library returned in the leading run."""
    words = wording(locale)["reference"]
    title = row.zh if locale == "zh" else row.en
    other = row.en if locale == "zh" else row.zh
    out = [f"## {title} · {other} {{#{row.id}}}", ""]
    out += ["| " + " | ".join(NAMES[lib] for lib in LIBRARIES) + " |", "| --- | --- | --- |"]
    spellings = []
    for library in LIBRARIES:
        if row.calls[library] is None:
            spellings.append(words["none"]())
        else:
            found = _spellings(row, library)
            spellings.append("<br>".join(_linked_code(s, library, links or {}) for s in found))
    out += ["| " + " | ".join(spellings) + " |", ""]
    if not runs:
        return "\n".join([*out, f"*{words['not_run']()}*", ""])
    name, run = next(iter(runs.items()))
    judged = run["reference"][row.key]
    if row.missing:
        out += [
            f'<span class="ref-badge">{words["missing"]()}</span> {prose(row.missing[locale])}',
            "",
        ]
    reasons = []
    for declared in row.differences + row.shared:
        if any(covers(declared, name, found) for found in judged["differences"]):
            aspect = words[f"aspect_{declared['aspect'].replace(' ', '_')}"]()
            libraries = ", ".join(NAMES[lib] for lib in declared["libraries"])
            reasons.append(
                f'<span class="ref-badge">{aspect} · {libraries}</span> {prose(declared[locale])}'
            )
    if judged["status"] == "agree":
        out += [words["agree"](), ""]
    out += [*(f"{reason}\n" for reason in reasons)]
    out += ["<div markdown data-search-exclude>", ""]
    out += [f"| {words['input']()} | " + " | ".join(NAMES[lib] for lib in LIBRARIES) + " |"]
    out += ["| --- | --- | --- | --- |"]
    for key, by_library in judged["results"].items():
        given = inputs.get(key)
        label = (given.zh if locale == "zh" else given.en) if given else words["no_input"]()
        if given:
            label = f"[{label}](index.md#input-{key})"
        same = not any(found["input"] == key for found in judged["differences"])
        cells, first = [], None
        for library in LIBRARIES:
            if library not in by_library:
                cells.append("—")
            elif same and first is not None:
                cells.append(words["same_as"](library=NAMES[first]))
            else:
                cells.append(_cell(by_library[library], words))
                first = first or library
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    for other_name, other_run in list(runs.items())[1:]:
        theirs = other_run["reference"].get(row.key)
        if theirs and theirs["differences"] != judged["differences"]:
            out += [
                "",
                words["elsewhere"](env=other_name, libs=versions_label(other_run["environment"])),
            ]
            for found in theirs["differences"]:
                libraries = ", ".join(NAMES[lib] for lib in found["libraries"])
                aspect = words[f"aspect_{found['aspect'].replace(' ', '_')}"]()
                given = inputs.get(found["input"])
                name = (given.zh if locale == "zh" else given.en) if given else words["no_input"]()
                out.append(f"- {name}: {aspect} · {libraries}")
    first_input = inputs.get(row.inputs[0]) if row.inputs else None
    out += ["", f'??? example "{words["run_it"]()}"', ""]
    out += [
        "    ```python",
        *(f"    {line}" if line else "" for line in _snippet(row, first_input).splitlines()),
        "    ```",
    ]
    out += ["", "</div>", ""]
    return "\n".join(out)


def _stamp(family: Family, runs: dict[str, dict], locale: str) -> str:
    words = wording(locale)["reference"]
    if not runs:
        return f'!!! warning "{words["not_run"]()}"\n\n    {words["not_run_body"]()}\n'
    lines = [
        words["ran_in"](env=name, libs=versions_label(run["environment"]), date=run["created"][:10])
        for name, run in runs.items()
    ]
    return f'!!! success "{words["ran"]()}"\n\n' + "".join(f"    - {line}\n" for line in lines)


def family_page(
    family: Family,
    runs: dict[str, dict],
    inputs: dict[str, Input],
    locale: str,
    links: dict[str, str | None] | None = None,
) -> str:
    """The Markdown of a family's page in `locale`, API names linked to their pages in
    `links`."""
    words = wording(locale)["reference"]
    out = [
        _front_matter(family.intro.get(locale, family.title[locale]), family.source)
        + f"# {family.title[locale]}",
        "",
        prose(family.intro.get(locale, "")),
        "",
        _stamp(family, runs, locale),
    ]
    out += [words["see_also"](), ""]
    out += [row_section(row, runs, inputs, locale, links) for row in family.rows]
    return "\n".join(out)


def index_page(families: list[Family], runs_of: dict, inputs: dict[str, Input], locale: str) -> str:
    """The overview: how the rows are run and compared, the families with their counts, the
    shared inputs with each library's code."""
    words = wording(locale)["reference"]
    out = [
        _front_matter(words["description"](), INPUTS) + f"# {words['title']()}",
        "",
        words["intro"](),
        "",
    ]
    out += [f"## {words['families']()}", ""]
    out += [
        _table_row([words[key]() for key in ("family", "rows", "agree_count", "differ_count")]),
        "| --- | --- | --- | --- |",
    ]
    for family in families:
        runs = runs_of[family.id]
        statuses = (
            [next(iter(runs.values()))["reference"][row.key]["status"] for row in family.rows]
            if runs
            else []
        )
        agree = statuses.count("agree") if runs else "—"
        differ = len(statuses) - statuses.count("agree") if runs else "—"
        out.append(
            _table_row(
                [f"[{family.title[locale]}]({family.id}.md)", len(family.rows), agree, differ]
            )
        )
    out += ["", f"## {words['inputs_title']()} {{#inputs}}", "", words["inputs_intro"](), ""]
    for given in inputs.values():
        name = given.zh if locale == "zh" else given.en
        out += [f"### {name} {{#input-{given.id} data-search-exclude}}", ""]
        for library in LIBRARIES:
            out += [f"- {NAMES[library]}: {_code(given.code[library])}"]
        out.append("")
    return "\n".join(out)


def differences_page(families: list[Family], runs_of: dict, locale: str) -> str:
    """Only the rows whose libraries differ or where one has no such operation, with the reasons,
    each linking to its row."""
    words = wording(locale)["reference"]
    # Found through the rows themselves: kept out of search.
    front = _front_matter(words["differences_intro"](), INPUTS).replace(
        f"  boost: {SEARCH_BOOST}", "  exclude: true"
    )
    out = [front + f"# {words['differences_title']()}", "", words["differences_intro"](), ""]
    for family in families:
        runs = runs_of[family.id]
        if not runs:
            continue
        name, run = next(iter(runs.items()))
        shown = [
            row
            for row in family.rows
            if run["reference"][row.key]["status"] in ("differs", "missing")
        ]
        if not shown:
            continue
        out += [f"## {family.title[locale]}", ""]
        for row in shown:
            judged = run["reference"][row.key]
            what = sorted({found["aspect"] for found in judged["differences"]})
            aspects = ", ".join(words[f"aspect_{a.replace(' ', '_')}"]() for a in what)
            if row.missing:
                aspects = ", ".join(filter(None, [words["missing"](), aspects]))
            title = row.zh if locale == "zh" else row.en
            out.append(f"- [{title}]({family.id}.md#{row.id}) — {aspects}")
        out.append("")
    return "\n".join(out)


def operations(families: list[Family], runs_of: dict) -> list[dict]:
    """The reference as data (`operations.json`): one entry per row with its spellings, status,
    reasons and the results of every environment's run, from which the status was computed."""
    entries = []
    for family in families:
        runs = runs_of[family.id]
        for row in family.rows:
            judged = {name: run["reference"][row.key] for name, run in runs.items()}
            leading = next(iter(judged.values()), None)
            entries.append(
                {
                    "id": row.id,
                    "family": family.id,
                    "name": {"zh": row.zh, "en": row.en},
                    **{lib: row.calls[lib] for lib in LIBRARIES},
                    "also": row.also,
                    "status": leading["status"] if leading else "not-run",
                    "missing": row.missing,
                    "differences": [
                        {
                            k: d[k]
                            for k in ("aspect", "libraries", "inputs", "environments", "zh", "en")
                            if k in d
                        }
                        for d in row.differences + row.shared
                        if any(covers(d, n, f) for n, j in judged.items() for f in j["differences"])
                    ],
                    "results": {name: j["results"] for name, j in judged.items()},
                    "statuses": {name: j["status"] for name, j in judged.items()},
                }
            )
    return entries


def pages(root: Path) -> dict[str, str]:
    """Path relative to `root` -> text of every file of the reference: DataError for malformed
    data, RecordError for a malformed record."""
    inputs = load_inputs(root)
    families = load_families(root, inputs)
    runs = current_runs(load_record(record_path(root)), root)
    runs_of = {
        family.id: {
            name: run
            for name, run in runs.items()
            if fresh(run, family, root) and all(row.key in run["reference"] for row in family.rows)
        }
        for family in families
    }
    folder = relative(generated_pages(root), root)
    links = load_table(root)
    files = {}
    for locale in LOCALES:
        suffix = "" if locale == LOCALES[0] else f".{locale}"
        files[f"{folder}/index{suffix}.md"] = index_page(families, runs_of, inputs, locale)
        files[f"{folder}/differences{suffix}.md"] = differences_page(families, runs_of, locale)
        for family in families:
            files[f"{folder}/{family.id}{suffix}.md"] = family_page(
                family, runs_of[family.id], inputs, locale, links
            )
    files[f"{folder}/operations.json"] = json.dumps(
        operations(families, runs_of), ensure_ascii=False, indent=1
    )
    return files


def main() -> int:
    """Command line: write the reference's files, replacing the folder's old ones. Exit status 0,
    or 2 when the data or the record is malformed (the message names the file and line)."""
    try:
        files = pages(REPO_ROOT)
    except (DataError, RecordError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    folder = generated_pages(REPO_ROOT)
    for old in folder.glob("*") if folder.is_dir() else []:
        old.unlink()
    for path, text in files.items():
        (REPO_ROOT / path).parent.mkdir(parents=True, exist_ok=True)
        (REPO_ROOT / path).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files to {relative(folder, REPO_ROOT)}/")
    print(link_report(load_families(REPO_ROOT, load_inputs(REPO_ROOT)), load_table(REPO_ROOT)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
