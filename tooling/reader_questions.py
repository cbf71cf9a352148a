"""Readers' questions, `data/reader-questions.yml`: real public reports in the site's scope, each
with the queries its author would type and where the site answers it (format:
`data/schemas/reader-questions.schema.yml`). They are the test data of the site's usefulness:
tests/browser/test_reader_questions.py ranks every query with each site's search.
"""

from __future__ import annotations

from pathlib import Path

from tooling.data import DataError, read
from tooling.reference import FOLDER
from verified.paths import GENERATED, docs_dir
from verified_site.pages import LOCALES

CORPUS = Path("data") / "reader-questions.yml"
#: A report's verdict: exactly one of these fields.
VERDICTS = ("answer", "unanswered", "out-of-scope")


def load(root: Path, corpus: Path = CORPUS) -> list[dict]:
    """The reports of `root`'s corpus (or of another file in its format, `corpus`: a set held
    out to measure unseen questions), each a mapping with its line (`tooling.data.Row`).
    DataError naming the file and line: malformed, not exactly one verdict (`VERDICTS`), a
    source given twice, `near` without `unanswered`, `also` without `answer`, or an `answer`,
    `also` or `near` page that is not a page of both languages."""
    reports, seen, problems = read(corpus, root, "reader-questions"), {}, []
    for report in reports:
        where = f"{corpus}:{report.line}"
        if report["source"] in seen:
            problems.append(
                f"{where}: {report['source']} is also the report at line {seen[report['source']]}; "
                "keep one entry per report (add its queries there)"
            )
        seen.setdefault(report["source"], report.line)
        if len(given := [field for field in VERDICTS if field in report]) != 1:
            problems.append(
                f"{where}: give exactly one of `answer` (where the site answers it), `unanswered` "
                f"(what the site lacks) or `out-of-scope` (why it is not ours); found {given}"
            )
        if "also" in report and "answer" not in report:
            problems.append(
                f"{corpus}:{report.lines['also']}: `also` goes with `answer` (other sections "
                "that answer it as fully); remove it, or give the `answer`"
            )
        if "near" in report and "unanswered" not in report:
            problems.append(
                f"{corpus}:{report.lines['near']}: `near` goes with `unanswered` (where the "
                "missing answer would belong); remove it, or replace the verdict"
            )
        for field, page in sections(report):
            if not _is_page(root, page.partition("#")[0]):
                problems.append(
                    f"{corpus}:{report.lines[field]}: `{field}`: {page} is not a page of both "
                    "languages; give its path below docs/zh/ and docs/en/, e.g. "
                    "errors/shapes.md#view-not-contiguous"
                )
    if problems:
        raise DataError("\n".join(problems))
    return reports


def sections(report: dict) -> list[tuple[str, str]]:
    """(field, page#anchor) of each section a report names: its `answer`, the sections that
    answer it as fully (`also`, a list), and where a missing answer would belong (`near`)."""
    return [
        (field, page)
        for field in ("answer", "also", "near")
        for page in (
            [report[field]] if isinstance(report.get(field), str) else report.get(field, [])
        )
    ]


def _is_page(root: Path, page: str) -> bool:
    """Whether `page` (below a language folder) is a page of both languages, a generated
    reference page counting when its data file exists."""
    folder, _, name = page.partition("/")
    if folder == GENERATED and "/" not in name:  # written by `make reference`, not committed
        name = name.removesuffix(".md")
        return name == "index" or any((root / FOLDER).glob(f"*-{name}.yml"))
    return all((docs_dir(root) / locale / page).is_file() for locale in LOCALES)
