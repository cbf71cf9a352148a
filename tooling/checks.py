"""Checks of the site's sources that need no build. Each takes the content root and returns
messages naming file and line and saying what to do; [] means it passed (run by
tests/content/test_sources.py, and on broken copies by tests/tooling).
"""

from __future__ import annotations

import ast
import difflib
import re
from pathlib import Path

from mkdocs.exceptions import ConfigurationError
from pytest_examples import find_examples

from tooling import reader_questions
from tooling.data import DataError
from tooling.translations import stale_translations
from verified.paths import example_scripts, relative
from verified.record import DEFAULT_ENVIRONMENT, verify_environments
from verified_site.notebooks import NotebookError, read_source
from verified_site.pages import (
    CONFIGS,
    LOCALES,
    PYTHON_LANGUAGES,
    fence_language,
    fences,
    front_matter,
    headings,
    is_notebook_page,
    mkdocs_config,
    notebook_sources,
    page_locale,
    page_sources,
    parse_snippet_line,
    section_mark,
    snippet_error,
    snippet_refs,
    source_pages,
    translation_of,
)


def untranslated_pages(root: Path) -> list[str]:
    """Pages that exist in one language only, one message per missing file."""
    return [
        f"{relative(page, root)} has no counterpart: create {relative(twin, root)} with the same "
        "sections, anchors and examples"
        for page in source_pages(root)
        for twin in (translation_of(page, locale) for locale in LOCALES)
        if twin != page and not twin.exists()
    ]


def translation_structure(root: Path) -> list[str]:
    """Pairs whose embedded snippets, code blocks or headings (levels, anchor ids) differ."""
    problems = []
    for page in source_pages(root):
        twin = translation_of(page, LOCALES[1])
        if page == twin or not twin.exists():
            continue
        names = f"{relative(page, root)} and {relative(twin, root)}"
        ours, theirs = _embedded(page), _embedded(twin)
        if ours != theirs:
            problems.append(f"{names} embed different snippets:\n  {ours}\n  {theirs}")
        problems += _code_differences(page, twin, root)
        ours, theirs = (
            [(h.level, h.anchor) for h in headings(p.read_text(encoding="utf-8"))]
            for p in (page, twin)
        )
        if ours != theirs:
            problems.append(
                f"{names} have different headings (level, anchor id):\n  {ours}\n  {theirs}"
            )
    return problems


def nav_differences(root: Path) -> list[str]:
    """Both navs (mkdocs.yml, mkdocs.en.yml) must list every page, in the same groups and order."""
    navs, problems = [], []
    for locale in LOCALES:
        try:
            navs.append(_nav_shape(mkdocs_config(root, locale)["nav"]))
        except (OSError, ConfigurationError, KeyError, TypeError) as exc:
            problems.append(f"{CONFIGS[locale]}: cannot read its `nav:` ({exc})")
    if problems:
        return problems
    (zh, en), (ours, theirs) = CONFIGS.values(), navs
    if ours != theirs:
        diff = difflib.unified_diff(ours, theirs, zh, en, lineterm="", n=1)
        problems.append(
            f"{zh} and {en} list different pages or groups in their `nav:`; give both the same "
            "pages in the same order and groups (only the group titles differ):\n" + "\n".join(diff)
        )
    listed = {line.strip() for line in ours}
    for page in source_pages(root):
        name = page.relative_to(root / "docs" / page_locale(page)).as_posix()
        if is_notebook_page(page):  # the page is the notebook written from it
            name = name.removesuffix(".md") + ".ipynb"
        if page_locale(page) == LOCALES[0] and name not in listed:
            problems.append(
                f"{relative(page, root)}: not in the `nav:` of {zh} and {en}; add "
                f"`- {name}` to both, in the same group"
            )
    return problems


def _nav_shape(nav, depth: int = 0) -> list[str]:
    """A nav as lines, indented by depth: each page's file, each group as `[group]` (its title is
    translated)."""
    lines = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            lines += ["  " * depth + "[group]", *_nav_shape(value, depth + 1)]
        else:
            lines.append("  " * depth + str(value))
    return lines


def _embedded(page: Path) -> list[str]:
    """What a page embeds, an include named by its Chinese file (each language embeds its own)."""
    return [
        str(translation_of(Path(ref.path), LOCALES[0])) if ref.path.endswith(".md") else ref.target
        for ref in snippet_refs(page)
    ]


def anchor_problems(root: Path) -> list[str]:
    """Headings below the title without an explicit `{#id}` (their links would differ by
    language), and anchor ids used twice in one page."""
    problems = []
    for page in source_pages(root):
        seen: set[str] = set()
        for heading in headings(page.read_text(encoding="utf-8")):
            where = f"{relative(page, root)}:{heading.line}"
            if heading.level >= 2 and not heading.anchor:
                problems.append(
                    f"{where}: heading '{heading.title}' has no anchor id; add the same "
                    "`{#some-id}` to it in both languages so links survive a language switch"
                )
            elif heading.anchor in seen:
                problems.append(
                    f"{where}: anchor id '{heading.anchor}' is used twice in this page; give each "
                    "heading its own {#id}"
                )
            if heading.anchor:
                seen.add(heading.anchor)
    return problems


def _code_differences(page: Path, twin: Path, root: Path) -> list[str]:
    ours, theirs = list(find_examples(page)), list(find_examples(twin))
    for mine, other in zip(ours, theirs, strict=False):
        if mine.source != other.source:
            diff = difflib.unified_diff(
                mine.source.splitlines(), other.source.splitlines(), lineterm="", n=0
            )
            return [
                f"{relative(page, root)}:{mine.start_line} and {relative(twin, root)}:"
                f"{other.start_line}: the code blocks differ; code, comments in code and printed "
                "labels are identical in both languages:\n    " + "\n    ".join(list(diff)[2:])
            ]
    if len(ours) != len(theirs):
        return [
            f"{relative(page, root)} has {len(ours)} code blocks, {relative(twin, root)} has "
            f"{len(theirs)}; both languages show the same code"
        ]
    return []


def broken_snippets(root: Path) -> list[str]:
    """`--8<--` lines naming a missing file or section (`pages.snippet_error`)."""
    return [
        message
        for page in source_pages(root)
        for ref in snippet_refs(page)
        if (message := snippet_error(ref, root))
    ]


def orphan_scripts(root: Path) -> list[str]:
    """Example scripts that no page embeds."""
    embedded = {ref.path for page in source_pages(root) for ref in snippet_refs(page)}
    return [
        f"{relative(script, root)}:1: no page embeds this script; embed it with --8<-- in both "
        "languages, or delete it"
        for script in example_scripts(root)
        if relative(script, root) not in embedded
    ]


def bad_code_fences(root: Path) -> list[str]:
    """Code blocks without a language, and Python blocks pytest-examples would not collect (it
    finds only ``` fences indented with spaces): shown but never run."""
    problems = []
    for page in source_pages(root):
        collected = {block.start_line for block in find_examples(page)}
        name = relative(page, root)
        for fence in fences(page.read_text(encoding="utf-8")):
            if not fence.info:
                problems.append(
                    f"{name}:{fence.start}: code block without a language; write ```python for "
                    "code the suite runs, or ```text / ```bash / ... for anything else"
                )
            elif fence_language(fence.info) in PYTHON_LANGUAGES and fence.start not in collected:
                problems.append(
                    f"{name}:{fence.start}: this Python block is not collected by the suite; "
                    "write it as a ``` fence (three backticks) indented with spaces only"
                )
    return problems


#: The header of a content tab (pymdownx.tabbed) labelled with a framework: `=== "PyTorch"`.
_FRAMEWORK_TAB = re.compile(
    r'^(?P<indent>[ \t]*)===[!+]*[ \t]+"(?P<label>PyTorch|TensorFlow|NumPy)"'
)


def uncompared_tabs(root: Path) -> list[str]:
    """Framework tabs (`=== "PyTorch"`, TensorFlow, NumPy) that embed no script section, or one
    that no assertion after the script's last section mark reads by its name (README,
    "Framework tabs must agree")."""
    problems = []
    for page in source_pages(root):
        text = page.read_text(encoding="utf-8")
        in_fence = {n for fence in fences(text) for n in range(fence.start, fence.end + 1)}
        tabs: list[tuple[str, int, list]] = []  # label, line, the sections it embeds
        indent = None  # of the framework tab the lines are in, None outside one
        for number, line in enumerate(text.splitlines(), start=1):
            if number not in in_fence and (match := _FRAMEWORK_TAB.match(line)):
                tabs.append((match["label"], number, []))
                indent = len(match["indent"])
            elif line.strip() and indent is not None and len(line) - len(line.lstrip()) <= indent:
                indent = None
            elif indent is not None and (ref := parse_snippet_line(line)) and ref[1]:
                tabs[-1][2].append(ref)
        for label, number, refs in tabs:
            where = f"{relative(page, root)}:{number}: the {label} tab"
            if not refs:
                problems.append(
                    f"{where} embeds no script section; show its code with "
                    '`--8<-- "examples/<section>/<topic>.py:<name>"`'
                )
            problems += [
                f"{where} shows {target}, which no assertion at the end of {path} compares: "
                f"after the section's end mark keep its result (`{section} = ...`) and, below the "
                "script's last section, assert that it agrees with the other tabs"
                for path, section, target in refs
                if section not in _compared(root / path)
            ]
    return problems


def _compared(script: Path) -> set[str]:
    """The names the script's code after its last section mark reads, if that code asserts
    anything; empty if not, or if the script cannot be read or parsed (other checks say so)."""
    try:
        text = script.read_text(encoding="utf-8")
        body = ast.parse(text).body
    except (OSError, SyntaxError):
        return set()
    last = max((n for n, line in enumerate(text.splitlines(), 1) if section_mark(line)), default=0)
    tail = [node for statement in body if statement.lineno > last for node in ast.walk(statement)]
    if not any(
        isinstance(node, ast.Assert)
        or (isinstance(node, ast.Call) and "assert" in ast.unparse(node.func))
        for node in tail
    ):
        return set()
    return {n.id for n in tail if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


# Longest `description:` search results show in full: Chinese characters are twice as wide.
DESCRIPTION_LIMITS = {"zh": 100, "en": 160}


def missing_descriptions(root: Path) -> list[str]:
    """Pages without a `description:` for search engines, or with one too long to show."""
    problems = []
    for page in source_pages(root):
        text = page.read_text(encoding="utf-8")
        where = relative(page, root)
        try:
            description = front_matter(page, text).get("description")
        except ValueError:  # stale_translations names the page and what is wrong
            continue
        limit = DESCRIPTION_LIMITS[page_locale(page)]
        if not isinstance(description, str) or not description.strip():
            problems.append(
                f"{where}:1: no `description:` in the front matter; add one sentence (at most "
                f"{limit} characters) on what the page covers: search results show it"
            )
        elif len(description) > limit:
            line = next(
                (n for n, row in enumerate(text.splitlines(), 1) if row.startswith("description:")),
                1,
            )
            problems.append(
                f"{where}:{line}: description has {len(description)} characters; search results "
                f"cut it after about {limit}: shorten it"
            )
    return problems


def broken_notebooks(root: Path) -> list[str]:
    """Notebook sources that cannot become a notebook (`verified_site.notebooks.read_source`)."""
    problems = []
    for path in notebook_sources(root):
        try:
            read_source(path, root)
        except NotebookError as exc:
            problems.append(str(exc))
    return problems


#: `!!! warning gpu-pending "..."` (any admonition type): the statements waiting for a GPU run.
_GPU_PENDING = re.compile(r"^[ \t]*(?:!!!|\?\?\?\+?)[ \t]+\w+[ \t]+gpu-pending\b")
#: The record's reasons for CUDA code that no GPU run has verified (the stamp shows them too).
GPU_WAITING = ("needs-cuda", "changed-since-gpu-run")


def gpu_pending(root: Path, record: dict) -> list[str]:
    """Pages whose CUDA code no GPU run verified (`GPU_WAITING`, in the default environment's
    run in `record`) without a `gpu-pending` admonition, and pages with one whose CUDA code all
    ran (its statements must be read against the GPU run's output). Pages changed since the run
    are left to their stamp."""
    problems = []
    notebooks = set(notebook_sources(root))  # broken_notebooks refuses CUDA code in them
    for page in (page for page in source_pages(root) if page not in notebooks):
        found = verify_environments(record, page_sources(page, root), root)
        verification = found.get(DEFAULT_ENVIRONMENT)
        if verification is None or verification.stale:
            continue
        waiting = sorted({e["id"] for e in verification.not_verified if e["reason"] in GPU_WAITING})
        text = page.read_text(encoding="utf-8")
        marks = [n for n, line in enumerate(text.splitlines(), 1) if _GPU_PENDING.match(line)]
        name = relative(page, root)
        if waiting and not marks:
            problems.append(
                f"{name}:1: shows CUDA code that no GPU run has verified ({', '.join(waiting)}): "
                "say which statements of the page wait for that run in an admonition, `!!! "
                'warning gpu-pending "..."`, next to them'
            )
        elif marks and not waiting:
            problems.append(
                f"{name}:{marks[0]}: a gpu-pending admonition, but the GPU run verified all the "
                "CUDA code this page shows: read the statements it lists against that run's "
                "output, correct any it contradicts, then remove it"
            )
    return problems


def reader_question_problems(root: Path) -> list[str]:
    """What is wrong in the readers' questions (`tooling.reader_questions`), each naming its
    line; none for a site without them (the samples the machinery's tests build)."""
    if not (root / reader_questions.CORPUS).is_file():
        return []
    try:
        reader_questions.load(root)
    except DataError as error:
        return [str(error)]
    return []


#: Every source check, in the order a contributor would fix them.
SOURCE_CHECKS = (
    untranslated_pages,
    nav_differences,
    translation_structure,
    anchor_problems,
    stale_translations,
    broken_snippets,
    broken_notebooks,
    orphan_scripts,
    uncompared_tabs,
    bad_code_fences,
    missing_descriptions,
    reader_question_problems,
)
