"""Walkthrough notebooks: pages in `docs/<locale>/notebooks/` that are also notebooks to download.

Read by jupytext, a page is the notebook: prose becomes Markdown cells, each ```python block of
`--8<--` lines a code cell with those sections, without their `#>` outputs. The suite
(tests/examples/test_notebooks.py) runs it (`execute`) and keeps the run in `executed_path`;
`python -m verified_site.notebooks` (`make notebooks`) writes each language's .ipynb with that
run's outputs and the page's stamp from the verification record to `notebook_site_path`, beside
its source, where mkdocs-jupyter renders it as the page and offers it for download.
"""

from __future__ import annotations

import copy
import hashlib
import html
import json
import re
import shutil
import sys
import tempfile
import textwrap
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import NamedTuple

import jupytext
import markdown
import nbformat

from verified.expected import PrintKey
from verified.markers import MarkerError, script_markers
from verified.outputs import expected_stdout, parse, same_output, without_outputs
from verified.paths import REPO_ROOT, content_root, docs_dir, record_path, relative
from verified.record import LIBRARIES, load_record, verify_environments
from verified_site import pages
from verified_site.stamp import render_stamp
from verified_site.wording import wording

#: Key of this project's metadata in a notebook and in its code cells.
META = "tensors_verified"
#: Longest time one cell may run, in seconds (below pytest's own limit of 300 s a test).
CELL_TIMEOUT = 120


class NotebookError(Exception):
    """A notebook source, its run or its written file is wrong; the message names the file
    and line or cell and says what to do."""


class Source(NamedTuple):
    """A notebook source, read: `notebook` has no outputs, each code cell's metadata (`META`)
    names its sections (`from`) and source line (`line`); `scripts` holds each code cell's
    sections with their `#>` lines."""

    path: Path
    notebook: nbformat.NotebookNode
    scripts: list[str]


def read_source(
    path: Path, root: Path, outputs: dict[str, dict[PrintKey, str]] | None = None
) -> Source:
    """Read a notebook source with jupytext and fill its code cells from the scripts, with
    `outputs` (another environment's, `verified.expected`) in `Source.scripts` in place of the
    scripts' own. A heading with an `{#id}` becomes an HTML heading with that id.

    NotebookError names every problem with file and line: a bad name, no title, a code block
    not only of `--8<--` lines or shown as text, a broken reference, a script a kernel cannot
    run, no code cell, a link the download cannot follow (an image)."""
    text, where = path.read_text(encoding="utf-8"), relative(path, root)
    front, body = pages.split_front_matter(text)
    problems = []
    if not pages.is_notebook_page(path.resolve()) or not _SLUG.fullmatch(path.stem):
        problems.append(
            f"{where}:1: name a notebook docs/zh/notebooks/<name>.md and "
            "docs/en/notebooks/<name>.md, the name in lower-case letters, digits and hyphens "
            "(it becomes the page's address)"
        )
    if not body.strip().startswith("# "):
        first = front.count("\n") + len(body) - len(body.lstrip("\n")) + 1
        problems.append(
            f"{where}:{first}: a notebook starts with its title, a `# ` heading (the page's "
            "title and its entry in the navigation)"
        )
    refs, lines, cells = {ref.line: ref for ref in pages.snippet_refs(path)}, text.splitlines(), []
    for fence in pages.fences(text):
        block = lines[fence.start - 1 : fence.end]
        found = [refs[n] for n in range(fence.start + 1, fence.end) if n in refs]
        if jupytext.reads("\n".join(block), fmt="md").cells[0].cell_type != "code":
            if found:
                problems.append(
                    f"{where}:{fence.start}: this block embeds script sections but jupytext "
                    "reads it as text: a code cell is a ```python block"
                )
            continue
        others = [line for line in block[1:-1] if line.strip() and not pages.is_snippet_line(line)]
        if pages.fence_language(fence.info) not in pages.PYTHON_LANGUAGES or others or not found:
            problems.append(
                f"{where}:{fence.start}: a code cell is a ```python block holding only --8<-- "
                "lines; move other code into the example script and embed its section (show "
                "a command in a ```console block)"
            )
            continue
        if errors := [message for ref in found if (message := _ref_error(ref, root))]:
            problems += errors
            continue
        scripts = [
            pages.section_code(root / r.path, r.section, (outputs or {}).get(r.path)) for r in found
        ]
        cells.append((fence.start, found, "\n\n".join(scripts)))
    code_lines = pages.fenced_lines(text)
    for number, line in enumerate(lines, start=1):
        for link in _LINK.finditer(line) if number not in code_lines else ():
            if link["target"] and not link["target"].endswith(".md"):
                problems.append(
                    f"{where}:{number}: the downloaded notebook cannot show {link['target']}: "
                    "link a page (.md), a section of a page (#id) or an address (https://...)"
                )
    if not cells and not problems:
        problems.append(
            f"{where}:1: a notebook without code cells; embed the example sections it walks "
            'through, each in a ```python block with a --8<-- "..." line'
        )
    if problems:
        raise NotebookError("\n".join(problems))
    notebook = jupytext.reads(body.lstrip("\n"), fmt="md")  # its title first
    code = _code_cells(notebook)
    for cell, (line, found, script) in zip(code, cells, strict=True):
        cell.source = without_outputs(script)
        cell.metadata[META] = {"from": ", ".join(ref.target for ref in found), "line": line}
    for index, cell in enumerate(notebook.cells):
        cell.id = f"cell-{index}"  # stable, so that a rebuild gives the same file
        if cell.cell_type == "markdown":
            cell.source = _ANCHOR.sub(_heading, cell.source)
    notebook.metadata = {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        META: {
            "source": where,
            "scripts": list(dict.fromkeys(ref.path for _, found, _ in cells for ref in found)),
            "code": hashlib.sha256(json.dumps([c.source for c in code]).encode()).hexdigest(),
        },
    }
    return Source(path, notebook, [script for _, _, script in cells])


# A relative link in the notebook's prose: to a page's file (`](../api/save-load.md#anchor)`) or
# to a section of this page (`](#anchor)`), or to anything else under docs/ (an image, a file).
_LINK = re.compile(r"\]\((?P<target>[^)\s#:]*?)(?P<anchor>#[^)\s]*)?\)")
_ANCHOR = re.compile(
    r"^(?P<level>#{1,6})[ \t]+(?P<title>.*?)[ \t]*\{#(?P<id>[\w-]+)\}[ \t]*$", re.MULTILINE
)


def _heading(match: re.Match) -> str:
    """A Markdown heading with an `{#id}` as an HTML heading with that id: Jupyter would show
    `{#id}` as text, and nbconvert would make an empty id of a Chinese title."""
    title = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(match["title"], quote=False))
    level = len(match["level"])
    return f'<h{level} id="{match["id"]}">{title}</h{level}>'


_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _ref_error(ref: pages.SnippetRef, root: Path) -> str | None:
    """Why a `--8<--` line cannot be a notebook's code: a broken reference, a line range,
    or a script that needs CUDA, is not run, or runs as several processes."""
    where = f"{relative(ref.page, root)}:{ref.line}"
    if message := pages.snippet_error(ref, root):
        return message
    if ref.section is None and ref.target != ref.path:
        return (
            f"{where}: embed a named section (`{ref.path}:<section>`) or the whole script, "
            "not a line range: line numbers move when the script changes"
        )
    try:
        markers = script_markers((root / ref.path).read_text(encoding="utf-8"), ref.path)
    except MarkerError as exc:
        return f"{where}: {exc}"
    if markers.requires:
        why = f"it needs {', '.join(sorted(markers.requires))}"
    elif markers.not_run or markers.launch:
        why = "it is marked not-run" if markers.not_run else "it runs as several processes"
    else:
        return None
    return (
        f"{where}: {ref.path} cannot be part of a notebook: {why}, and the suite runs every "
        "notebook in one kernel on this machine. Link to its page instead."
    )


def execute(source: Source, root: Path, workdir: Path) -> nbformat.NotebookNode:
    """The notebook with the outputs of its code cells, run in a new Jupyter kernel and
    checked (`check_outputs`). The kernel talks over Unix sockets (no network port), runs in
    `workdir` (whatever the code writes lands there) and may not write into the repository;
    a cell may run for `CELL_TIMEOUT` seconds.

    NotebookError: a cell raised or timed out, the kernel died or did not start, or a cell
    printed something other than its script says (source line and cell named)."""
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    notebook = copy.deepcopy(source.notebook)
    workdir.mkdir(parents=True, exist_ok=True)
    protected = sorted({str(REPO_ROOT), str(root.resolve())})
    # A Unix socket path may not exceed about 100 bytes: pytest's temporary folders do.
    short = tempfile.gettempdir() if len(tempfile.gettempdir()) < 40 else "/tmp"
    sockets = Path(tempfile.mkdtemp(prefix="nb-", dir=short))
    running: list[nbformat.NotebookNode] = []  # the last is the one that failed or hung
    client = NotebookClient(
        notebook,
        km=KernelManager(kernel_name="python3", transport="ipc", ip=str(sockets / "k")),
        timeout=CELL_TIMEOUT,
        resources={"metadata": {"path": str(workdir)}},
        on_cell_execute=lambda cell, cell_index: running.append(cell),
        extra_arguments=[
            # As in the script, only prints give output: IPython would also display the
            # value of a cell's last expression (the whole model after `model.train()`).
            "--InteractiveShell.ast_node_interactivity=none",
            "--InteractiveShell.colors=nocolor",
            # The sandbox of the examples (verified.capture): no writes into the repository.
            "--IPKernelApp.exec_lines=from verified.capture import install_guard; "
            f"install_guard({protected!r}); del install_guard",
        ],
    )
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError, DeadKernelError) as exc:
        # DeadKernelError is a RuntimeError: caught here, before the start-up failure.
        cell = running[-1] if running else _code_cells(notebook)[0]
        detail = str(exc).strip() + (
            "\n(the kernel process ended: os._exit, a crash, or out of memory)"
            if isinstance(exc, DeadKernelError)
            else ""
        )
        raise NotebookError(
            f"{_where(source, cell)}: cell {notebook.cells.index(cell) + 1} "
            f"({cell.metadata[META]['from']}) failed when the notebook ran:\n"
            f"{textwrap.indent(detail[-3000:], '    ')}\nRun the script on its own to see "
            "whether the example or the notebook's order of sections is at fault."
        ) from None
    except RuntimeError as exc:  # the kernel did not start (nbclient raises RuntimeError)
        raise NotebookError(
            f"{relative(source.path, root)}: the Jupyter kernel did not start ({exc}); check "
            "that ipykernel is installed in this environment (make test installs it)"
        ) from None
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
    if problems := check_outputs(notebook, source):
        raise NotebookError("\n".join(problems))
    return notebook


def _where(source: Source, cell: nbformat.NotebookNode) -> str:
    return f"{source.notebook.metadata[META]['source']}:{cell.metadata[META]['line']}"


def _code_cells(notebook: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def check_outputs(notebook: nbformat.NotebookNode, source: Source) -> list[str]:
    """One message per code cell of `notebook` (the source's, with outputs) whose standard
    output is not what its script says its prints give, naming the source line and the
    sections; empty when all agree."""
    problems = []
    for index, (cell, script) in enumerate(zip(_code_cells(notebook), source.scripts, strict=True)):
        printed = "".join(
            o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout"
        )
        expected, ordered = expected_stdout(script)
        if not same_output(expected, printed, ordered):
            problems.append(
                f"{_where(source, cell)}: code cell {index + 1} ({cell.metadata[META]['from']}) "
                "printed, in the notebook, something other than its script says:\n--- the "
                f"script says\n{textwrap.indent(expected, '    ')}\n--- the notebook printed\n"
                f"{textwrap.indent(printed.rstrip(), '    ')}\nIf the script on its own prints "
                "what its #> lines say, the notebook runs its sections in another order or "
                "state: a section must come after the sections it depends on. Output that "
                "changes from run to run cannot be shown."
            )
    return problems


def executed_path(root: Path, source: Path) -> Path:
    """Where the suite keeps its run of a source (either language):
    `root/build/notebooks/executed/<slug>.ipynb`."""
    return root / "build" / "notebooks" / "executed" / f"{source.stem}.ipynb"


def write_executed(notebook: nbformat.NotebookNode, path: Path, versions: dict) -> None:
    """Save an executed notebook with the versions it ran with (`{"python": ..., "torch":
    ...}`) and the time. OSError when it cannot."""
    created = datetime.now(UTC).isoformat(timespec="seconds")
    notebook.metadata[META]["executed"] = {"created": created, "versions": versions}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, str(path))


def _suite_run(source: Source, root: Path) -> tuple[nbformat.NotebookNode, dict | None]:
    """The source's notebook with the outputs of the suite's run of the same code, and that
    run's `executed` metadata; without outputs and None when the suite did not run this code.
    NotebookError: the executed notebook is not the suite's, or edited after the run."""
    notebook, executed = copy.deepcopy(source.notebook), executed_path(root, source.path)
    try:
        ran = nbformat.read(str(executed), as_version=4) if executed.is_file() else None
        same = ran and ran.metadata[META]["code"] == notebook.metadata[META]["code"]
        run = ran.metadata[META].get("executed") if same else None
    except (ValueError, KeyError, nbformat.reader.NotJSONError) as exc:
        raise NotebookError(
            f"{relative(executed, root)}: not a notebook run by the suite ({type(exc).__name__}: "
            f"{exc}); delete it and run `make test` again"
        ) from None
    if run:
        for mine, theirs in zip(_code_cells(notebook), _code_cells(ran), strict=True):
            mine.outputs, mine.execution_count = theirs.outputs, theirs.execution_count
        if problems := check_outputs(notebook, source):
            raise NotebookError(
                f"{relative(executed, root)}: its outputs are not what the scripts say; delete "
                "it and run `make test` again\n" + "\n".join(problems)
            )
        notebook.metadata[META]["executed"] = run
    return notebook, run


def _address(source: Path, root: Path, site_url: str, match: re.Match) -> str:
    """A link to a page's file or to a section of this page (`#id`), as the address of that
    page in the notebook's language; left as it is when it leads out of docs/ (the strict
    build refuses it)."""
    target = source.parent / match["target"] if match["target"] else source
    page = pages.translation_of(target.resolve(), pages.page_locale(source))
    if not page.is_relative_to(docs_dir(root).resolve()):
        return match[0]
    return f"]({site_url}{pages.page_url(page)}{match['anchor'] or ''})"


def _about(notebook: nbformat.NotebookNode, run: dict | None, script_url: str) -> str:
    """The first cell: with what the notebook ran, and how to run it yourself (download,
    scripts, `pip install` of the versions that ran, or of the libraries bare)."""
    meta = notebook.metadata[META]
    words = wording(pages.page_locale(Path(meta["source"])))["notebook"]
    imported = {name for cell in _code_cells(notebook) for name in parse(cell.source).imports}
    libraries = [(key, shown, dists[-1]) for key, shown, dists in LIBRARIES if key in imported]
    versions = {k: v.split("+")[0] for k, v in (run or {}).get("versions", {}).items() if v}
    shown = [f"{name} {versions[key]}" for key, name, _ in libraries if key in versions]
    env = " · ".join([f"Python {versions.get('python')}", *shown])
    status = words["ran"](env=env, date=run["created"][:10]) if run else words["not_ran"]()
    name = Path(meta["source"]).stem + ".ipynb"
    yourself = words["yourself"](
        download=f'<a href="{name}" download>{name}</a>',
        scripts=[f"[{path}]({script_url}{path})" for path in meta["scripts"]],
        ran=bool(run),
    )
    pins = [f"{dist}=={versions[key]}" if key in versions else dist for key, _, dist in libraries]
    return (
        f"{status}\n\n{yourself}\n\n```bash\n{' '.join(['pip install', *pins, 'jupyterlab'])}\n```"
    )


def _stamp(source: Path, root: Path, record: dict | None) -> str:
    """The page's stamp from the verification `record`, as every page has it, in HTML (a
    notebook's Markdown has no admonitions): Material styles it on the page, and Jupyter shows
    it as plain text."""
    verifications = verify_environments(record, pages.page_sources(source, root), root)
    stamp = render_stamp(verifications, record, pages.page_locale(source))
    return markdown.markdown(stamp, extensions=["admonition", "pymdownx.details"]) if stamp else ""


def write_site_notebooks(root: Path) -> list[Path]:
    """Write every source's notebook for the site (`notebook_site_path`); returns their paths.
    Each has the outputs of the suite's run of its code, links to pages as the pages' site
    addresses (they work in the download too), and below its title a cell saying with what
    it ran and how to run it yourself. NotebookError names every broken source or run."""
    (site_url, script_url), written, problems = pages.site_addresses(root), [], []
    record = load_record(record_path(root))
    for path in pages.notebook_sources(root):
        try:
            notebook, run = _suite_run(read_source(path, root), root)
        except NotebookError as exc:
            problems.append(str(exc))
            continue
        for cell in notebook.cells:
            if cell.cell_type == "markdown":
                cell.source = _LINK.sub(partial(_address, path, root, site_url), cell.source)
        title, _, rest = notebook.cells[0].source.partition("\n")
        # An HTML title with an id: nbconvert gives a Chinese one none (the site plugin takes
        # the page's title from the source).
        slug = path.stem
        notebook.cells[0].source = f'<h1 id="{slug}">{html.escape(title[2:], quote=False)}</h1>'
        if rest.strip():
            notebook.cells.insert(1, nbformat.v4.new_markdown_cell(rest.strip(), id="intro"))
        about = _about(notebook, run, script_url)
        notebook.cells.insert(1, nbformat.v4.new_markdown_cell(about, id="about"))
        if stamp := _stamp(path, root, record):
            notebook.cells.insert(1, nbformat.v4.new_markdown_cell(stamp, id="stamp"))
        written.append(pages.notebook_site_path(root, path))
        written[-1].parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(notebook, str(written[-1]))
    if problems:
        raise NotebookError("\n".join(problems))
    return written


if __name__ == "__main__":
    try:
        write_site_notebooks(content_root())
    except NotebookError as error:
        sys.exit(str(error))


#: A heading of a notebook page as `_heading` wrote it (the title too).
_HTML_HEADING = re.compile(r'<h(?P<level>[1-6]) id="(?P<id>[\w-]+)">(?P<title>.*?)</h(?P=level)>')


def page_html(html: str, page, files, locale: str, site_url: str) -> tuple[str, list[dict]]:
    """A notebook page's HTML as mkdocs-jupyter rendered it, for the site, and its table of contents
    (MkDocs' toc tokens, for `mkdocs.structure.toc.get_toc`). The notebook links to the site's
    pages by their address below `site_url`, the Chinese site's (for its download); on the page,
    those to the pages of this build (language `locale`) become relative (they then work at any
    address and from disk, `page.html` in the offline edition). Each heading below the title gets
    Material's permanent link (¶), and the headings make the table of contents, which mkdocs-
    jupyter cannot read from HTML headings."""

    def relative_link(match: re.Match) -> str:
        # This build's file at that address: a page, a notebook page, or a folder's index.
        stem = match["url"].removeprefix(pages.language_root(locale)).rstrip("/")
        names = [f"{stem}.ipynb", f"{stem}.md", f"{stem}/index.md"] if stem else ["index.md"]
        found = (files.get_file_from_path(name) for name in names)
        target = next((f for f in found if f and f.inclusion.is_included()), None)
        if target is None:  # another language's page, or not a page
            return match[0]
        return f'href="{target.url_relative_to(page.file)}{match["anchor"] or ""}"'

    link = re.compile(rf'href="{re.escape(site_url)}(?P<url>[^"#]*)(?P<anchor>#[^"]*)?"')
    html = link.sub(relative_link, html)
    tokens: list[dict] = []
    for match in _HTML_HEADING.finditer(html):
        level = int(match["level"])
        name = re.sub(r"<[^>]+>", "", match["title"])
        token = {"level": level, "id": match["id"], "name": name, "children": []}
        siblings = tokens
        while siblings and siblings[-1]["level"] < level:
            siblings = siblings[-1]["children"]
        siblings.append(token)
    permalink = r'<h\g<level> id="\g<id>">\g<title><a class="headerlink" href="#\g<id>">¶</a>'
    html = _HTML_HEADING.sub(
        lambda m: m.expand(permalink + f"</h{m['level']}>") if m["level"] != "1" else m[0], html
    )
    return html, tokens
