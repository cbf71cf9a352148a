"""The cross-library reference's pages (README: "The cross-library reference"), written into
`docs/<locale>/reference/` by `python -m tooling.reference_pages` (`make reference`) from the data
and the rows' results in the verification record: a row that the record does not hold, or whose data
changed since, is marked "not run in this build". This module picks the runs to show and formats
each value for a table cell; the templates tooling/templates/reference-*.md.jinja lay out the
pages. Wording: the locale files' `reference` section.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import sys
from pathlib import Path

from tooling import templates
from tooling.api_links import api_spans
from tooling.reference import (
    CUDA_CAUSES,
    INPUTS,
    KINDS,
    LIBRARIES,
    MISSING_KIND,
    NAMES,
    Family,
    Row,
    load_families,
    load_inputs,
    names,
    reasons,
    torch_code,
)
from verified import record
from verified.paths import REPO_ROOT, generated_pages, gpu_run_path, record_path, relative
from verified_site.api_names import load_table
from verified_site.pages import LOCALES
from verified_site.wording import wording

#: Longest error message a results cell shows; the full first line is in operations.json.
ERROR_CHARACTERS = 160
#: The search weight of the reference's pages, against 1 for the other pages: a row ranks first
#: for its own API names, the topic pages for the words they explain (float64, reshape). 0.7
#: found the readers' questions most often, with titles and tags weighing 10 (mkdocs.base.yml;
#: the commits that set both have the figures).
SEARCH_BOOST = 0.7
#: Whitespace that YAML's folding left between two Chinese characters or punctuation marks.
_CJK_FOLD = re.compile(
    r"(?<=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])\s+(?=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])"
)
#: What Markdown would read inside an HTML element (emphasis, links, escapes, a table's pipe),
#: written as character references.
_LITERAL = str.maketrans({c: f"&#{ord(c)};" for c in '&<>"*_`[]\\|{}'})


def prose(text: str) -> str:
    """Data text as one paragraph: folded lines joined, no space between Chinese characters."""
    return _CJK_FOLD.sub("", " ".join(text.split()))


def _summary(description: str) -> str:
    """The front matter's description: the first sentence of `description` as a JSON string,
    with typographic quotes (the theme writes it into an HTML attribute unescaped)."""
    first = re.split(r"(?<=。)|(?<=\.)\s", prose(description), maxsplit=1)[0]
    return json.dumps(re.sub(r'"([^"]*)"', "“\\1”", first), ensure_ascii=False)


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


def _aspect(aspect: str, words: dict) -> str:
    """A difference's aspect (`shares memory`) in the locale's words."""
    return words[f"aspect_{aspect.replace(' ', '_')}"]()


def _cause(cause: str, words: dict) -> str:
    """Why a `cuda:` row can differ on CUDA (`summation order`) in the locale's words."""
    return words[f"cause_{cause.replace(' ', '_')}"]()


def _kind(kind: str, words: dict, what: str = "") -> str:
    """A kind of difference's name in the locale's words, or with `what="about"` what it means."""
    return words["_".join(["kind", kind.replace(" ", "_"), *([what] if what else [])])]()


def _kinds(families: list[Family], leading_runs: dict) -> dict[str, list[tuple]]:
    """Kind -> the rows that differ in that way in their family's leading run (`leading_runs`:
    family id -> (environment, run), or None where no run ran the family), in page order, each
    as (family, row, the libraries that differ, the reasons: the declarations of that kind that
    explain what the run found, or the row's `missing` text for the libraries without a call)."""
    kinds = {kind: [] for kind in KINDS}
    for family in families:
        if leading_runs[family.id]:
            name, run = leading_runs[family.id]
            for row in family.rows:
                judged = run["reference"][row.key]
                if judged["status"] not in ("differs", "missing"):
                    continue
                odd = {kind: (set(), []) for kind in KINDS}
                for declared in reasons(row, [(name, found) for found in judged["differences"]]):
                    odd[declared["kind"]][0].update(declared["libraries"])
                    odd[declared["kind"]][1].append(declared)
                if row.missing:
                    odd[MISSING_KIND][0].update(lib for lib, call in row.calls.items() if not call)
                    odd[MISSING_KIND][1].append(row.missing)
                for kind, (libraries, why) in odd.items():
                    if libraries:
                        odd_ones = [x for x in LIBRARIES if x in libraries]
                        kinds[kind].append((family, row, odd_ones, why))
    return kinds


def _results(row: Row, judged: dict) -> list[tuple[str, list]]:
    """The results table of a row's run (`judged`): per input, its id and per library what
    its cell shows: the result, the name of an earlier library whose result it repeats (where
    the libraries agree on a row that is not random), or None where the library gave none."""
    table = []
    for key, by_library in judged["results"].items():
        same = not row.random and not any(found["input"] == key for found in judged["differences"])
        cells, first = [], None
        for library in LIBRARIES:
            if library not in by_library:
                cells.append(None)
            elif same and first is not None:
                cells.append(first)
            else:
                cells.append(by_library[library])
                first = first or library
        table.append((key, cells))
    return table


def _run_it(row: Row, inputs: dict[str, dict]) -> str:
    """The code of a row's "run it yourself" block: the imports, then per library the first
    input and the call, its last line printed."""
    given = inputs.get(row.inputs[0]) if row.inputs else None
    snippet = ["import numpy as np", "import tensorflow as tf", "import torch", ""]
    for library, call in row.calls.items():
        if call is not None:
            *body, last = call.strip().splitlines()
            snippet += [f"x = {given[library]}"] if given is not None else []
            snippet += [*body, f"print({last})"]
    return "\n".join(snippet)


#: The pages' templates (tooling/templates/reference-*.md.jinja), with what they call.
TEMPLATES = templates(
    prose=prose,
    summary=_summary,
    code=_code,
    linked_code=_linked_code,
    cell=_cell,
    aspect=_aspect,
    cause=_cause,
    kind=_kind,
)
TEMPLATES.globals.update(
    libraries=LIBRARIES,
    NAMES=NAMES,
    header=[NAMES[library] for library in LIBRARIES],
    names=names,
    versions_label=record.versions_label,
    spellings=_spellings,
    results=_results,
    run_it=_run_it,
    declared=lambda row, environment, found: reasons(row, [(environment, f) for f in found]),
    boost=SEARCH_BOOST,
    # Each row's search tags (the site plugin adds them to the row's entry in the index): the
    # last part of its API names; `torch` or `np` as a tag would weigh on every row.
    section_tags=lambda family: {
        row.id: list(dict.fromkeys(name.rpartition(".")[2] for name in row.api_names))
        for row in family.rows
    },
    inputs_file=INPUTS,
    causes=CUDA_CAUSES,
    cuda_rows=lambda families: [(f, row) for f in families for row in f.rows if row.cuda],
)


def on_cuda(root: Path, families: list[Family], inputs: dict[str, dict]) -> dict[str, tuple]:
    """Row key -> (the GPU run's record row or None, that run) for each `cuda:` row the GPU run
    (verification/gpu-run.json) recorded; None where it ran other code than the row's PyTorch
    call and inputs now. RecordError for a malformed record."""
    found = record.load_record(gpu_run_path(root), "write it again with `make test-gpu`") or {}
    run = found.get("environments", {}).get(record.GPU_ENVIRONMENT) or {}
    recorded = run.get("reference", {})
    shown = {}
    for row in (row for family in families for row in family.rows):
        if row.cuda and row.key in recorded:
            judged = recorded[row.key]
            current = judged.get("code") == torch_code(row, inputs)
            shown[row.key] = (judged if current else None, run)
    return shown


def operations(families: list[Family], runs_of: dict) -> list[dict]:
    """The reference as data (`operations.json`): one entry per row with its spellings, status,
    reasons and the results of every environment's run, from which the status was computed."""
    keys = ("aspect", "kind", "libraries", "inputs", "environments", "zh", "en")
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
                    "cuda": row.cuda,
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
    # family id -> (environment, run) of the run the pages show, the default's first; or None
    leading_runs = {family.id: next(iter(runs_of[family.id].items()), None) for family in families}
    leading = {family.id: {} for family in families}  # family id -> row key -> what it found
    for family in (f for f in families if leading_runs[f.id]):
        found = leading_runs[family.id][1]["reference"]
        leading[family.id] = {row.key: found[row.key] for row in family.rows}
    kinds = _kinds(families, leading_runs)
    cuda = on_cuda(root, families, inputs)
    files = {}
    for locale in LOCALES:
        folder = relative(generated_pages(locale, root), root)
        words = wording(locale)["reference"]
        context = dict(
            locale=locale, words=words, families=families, inputs=inputs, links=links, cuda=cuda
        )
        for page in ("index", "differences"):
            template = TEMPLATES.get_template(f"reference-{page}.md.jinja")
            files[f"{folder}/{page}.md"] = template.render(context, leading=leading, kinds=kinds)
        template = TEMPLATES.get_template("reference-family.md.jinja")
        for family in families:
            page = template.render(context, family=family, runs=runs_of[family.id])
            files[f"{folder}/{family.id}.md"] = page
    # The reference as data, once, at /reference/operations.json.
    entries = json.dumps(operations(families, runs_of), ensure_ascii=False, indent=1)
    files[f"{relative(generated_pages(LOCALES[0], root), root)}/operations.json"] = entries
    return files


def main() -> int:
    """Command line: replace the folder's files with the reference's. Exit status 0, or 2 when
    the data, the record or the API link table is malformed (the message names file and line)."""
    try:  # DataError, RecordError and a malformed table: ValueErrors naming file and line
        table = load_table(REPO_ROOT)
        inputs = load_inputs(REPO_ROOT)
        families = load_families(REPO_ROOT, inputs)
        files = pages(REPO_ROOT, families, inputs, table.links if table else {})
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    folders = [generated_pages(locale, REPO_ROOT) for locale in LOCALES]
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)
    for path, text in files.items():
        (REPO_ROOT / path).parent.mkdir(parents=True, exist_ok=True)
        (REPO_ROOT / path).write_text(text, encoding="utf-8")
    print(
        f"wrote {len(files)} files to "
        + " and ".join(f"{relative(f, REPO_ROOT)}/" for f in folders)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
