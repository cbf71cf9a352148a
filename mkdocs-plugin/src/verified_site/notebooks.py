"""Walkthrough notebooks, generated from the example scripts: one source of truth.

A notebook's source is a Markdown file per language in `notebooks/` (`slug.md` in
Chinese, `slug.en.md` in English, like the pages). Its prose becomes Markdown cells;
each fenced `python` block that holds only `--8<--` lines becomes a code cell with
those sections of the example scripts, without their written `#>` outputs::

    Some prose.

    ```python
    --8<-- "examples/numpy_torch/memory_sharing.py:from_numpy"
    ```

Three steps, each in its own place:

1. `make test` (tests/examples/test_notebooks.py) builds each notebook's code cells,
   runs them in a Jupyter kernel (nbclient) and checks that every cell printed what
   the script says under its prints. The executed notebook is written to
   `build/notebooks/executed/<slug>.ipynb`; both languages share its outputs.
2. The site build (verified_site.plugin) builds each language's notebook, takes the
   outputs from the executed notebook when its code is the same, and puts a first cell
   on top that says with what it ran and how to run it yourself. mkdocs-jupyter renders
   it; the `.ipynb` is copied next to the page for download.
3. The checks of the sources (tooling/checks.py) name any broken reference or missing
   translation by file and line.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
import textwrap
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import nbformat

from verified.capture import imported_packages
from verified.expected import PrintKey
from verified.markers import MarkerError, script_markers
from verified.outputs import expected_stdout, same_output, without_outputs
from verified.paths import REPO_ROOT, docs_dir, notebooks_dir, relative
from verified.record import LIBRARIES
from verified_site.pages import (
    PYTHON_LANGUAGES,
    SnippetRef,
    fence_language,
    fences,
    front_matter,
    headings,
    page_files,
    page_locale,
    page_url,
    section_code,
    snippet_error,
    snippet_refs,
    split_front_matter,
)

#: Key of this project's metadata in a notebook and in its cells.
META = "tensors_verified"
#: Longest time one cell may run, in seconds (below pytest's own limit of 300 s a test).
CELL_TIMEOUT = 120
#: Longest time the kernel may take to start, in seconds.
STARTUP_TIMEOUT = 60


class NotebookError(Exception):
    """A notebook source, or its run, is wrong; the message names the file and line or
    cell and says what to do."""


@dataclass
class CodeCell:
    """A code cell of a notebook source.

    Attributes:
        line (int): 1-based line of the opening fence in the source file.
        refs (list[SnippetRef]): the sections it shows, in order.
        script (str): their code as in the scripts, written outputs included.
    """

    line: int
    refs: list[SnippetRef]
    script: str = ""

    @property
    def code(self) -> str:
        """The cell's code: the sections without their written outputs."""
        return without_outputs(self.script)

    @property
    def label(self) -> str:
        """The sections it shows, e.g. `examples/a.py:part`."""
        return ", ".join(ref.target for ref in self.refs)


@dataclass
class NotebookSource:
    """A parsed notebook source file.

    Attributes:
        path (Path): the Markdown source.
        locale (str): its language (`zh` or `en`).
        description (str): from the front matter ("" if none).
        cells (list[str | CodeCell]): Markdown text and code cells, in order.
    """

    path: Path
    locale: str
    description: str = ""
    cells: list[str | CodeCell] = field(default_factory=list)

    @property
    def slug(self) -> str:
        """The notebook's name: `memory-sharing` for `notebooks/memory-sharing.en.md`."""
        return _slug(self.path)

    @property
    def code_cells(self) -> list[CodeCell]:
        """Its code cells, in order."""
        return [cell for cell in self.cells if isinstance(cell, CodeCell)]

    @property
    def scripts(self) -> list[str]:
        """The example scripts it is made from, in order of first use."""
        return list(dict.fromkeys(ref.path for cell in self.code_cells for ref in cell.refs))


def source_files(root: Path) -> list[Path]:
    """All notebook sources, both languages, sorted.

    Args:
        root (Path): the content root.

    Returns:
        list[Path]: `notebooks/*.md` ([] when there is no such folder).
    """
    folder = notebooks_dir(root)
    return page_files(folder) if folder.is_dir() else []


def read_source(
    path: Path, root: Path, outputs: dict[str, dict[PrintKey, str]] | None = None
) -> NotebookSource:
    """Parse a notebook source and read the script sections it shows.

    Args:
        path (Path): a file in `notebooks/`.
        root (Path): the content root (snippet paths are relative to it).
        outputs (dict[str, dict[PrintKey, str]] | None): a verification environment's
            expected outputs where they differ from the scripts' (`verified.expected`),
            written into the cells' script text in place of the scripts' own; None for
            the default environment.

    Returns:
        NotebookSource: its cells, with each code cell's script text.

    Raises:
        NotebookError: bad front matter, a code block that mixes `--8<--` lines with other
            code, or a reference to a missing file or section (file and line named).
    """
    text = path.read_text(encoding="utf-8")
    where = relative(path, root)
    if path.parent.resolve() != notebooks_dir(root).resolve() or not _SLUG.fullmatch(_slug(path)):
        raise NotebookError(
            f"{where}:1: name a notebook source notebooks/<name>.md and <name>.en.md, the name "
            "in lower-case letters, digits and hyphens (it becomes the page's address)"
        )
    front, body = split_front_matter(text)
    title_line = front.count("\n") + next(
        (n for n, line in enumerate(body.splitlines(), 1) if line.strip()), 1
    )
    if not body.strip().startswith("# "):
        raise NotebookError(
            f"{where}:{title_line}: a notebook starts with its title, a `# ` heading "
            "(the page's title and its entry in the navigation)"
        )
    for heading in headings(text):
        if heading.anchor:
            raise NotebookError(
                f"{where}:{heading.line}: remove `{{#{heading.anchor}}}`: the notebook "
                "renderer shows it as text; notebook headings get their ids from their text"
            )
    try:
        meta = front_matter(path, text)
    except ValueError as exc:
        raise NotebookError(f"{where}:1: {exc}") from None
    notebook = NotebookSource(path, page_locale(path), str(meta.get("description", "")))
    refs = {ref.line: ref for ref in snippet_refs(path)}
    lines = text.splitlines()
    prose_from = front.count("\n") + 1  # first line of the current Markdown cell
    for fence in fences(text):
        inside = range(fence.start + 1, fence.end)
        cell_refs = [refs[n] for n in inside if n in refs]
        if not cell_refs:
            continue  # a code block shown as text (a shell command, say)
        others = [n for n in inside if n not in refs and lines[n - 1].strip()]
        if fence_language(fence.info) not in PYTHON_LANGUAGES:
            raise NotebookError(
                f"{where}:{fence.start}: this block embeds script sections but its language "
                f"is `{fence_language(fence.info) or 'none'}`: a code cell is a ```python block"
            )
        if others:
            raise NotebookError(
                f"{where}:{fence.start}: a code cell is a ```python block holding only "
                "--8<-- lines; move other code into the example script and embed its section"
            )
        notebook.cells.append("\n".join(lines[prose_from - 1 : fence.start - 1]))
        errors = [message for ref in cell_refs if (message := snippet_error(ref, root))]
        errors += [
            f"{where}:{ref.line}: embed a named section (`{ref.path}:<section>`) or the "
            "whole script, not a line range: line numbers move when the script changes"
            for ref in cell_refs
            if ref.section is None and ref.target != ref.path
        ]
        errors = errors or [m for ref in cell_refs if (m := _marker_error(ref, root))]
        if errors:
            raise NotebookError("\n".join(errors))
        script = "\n\n".join(
            section_code(root / ref.path, ref.section, (outputs or {}).get(ref.path))
            for ref in cell_refs
        )
        notebook.cells.append(CodeCell(fence.start, cell_refs, script))
        prose_from = fence.end + 1
    notebook.cells.append("\n".join(lines[prose_from - 1 :]))
    code = {n for fence in fences(text) for n in range(fence.start, fence.end + 1)}
    for number, line in enumerate(lines, start=1):
        for match in _LINK.finditer(line if number not in code else ""):
            problem = _link_problem(path, match["target"], root)
            if problem:
                raise NotebookError(
                    f"{where}:{number}: the link to {match['target']} {problem}; link to a "
                    "page's Markdown file, relative to this file (../docs/<section>/<page>.md, "
                    "or <page>.en.md from an English notebook), or to a full https:// address"
                )
    notebook.cells = [c for c in notebook.cells if not isinstance(c, str) or c.strip()]
    notebook.cells = [c.strip("\n") if isinstance(c, str) else c for c in notebook.cells]
    return notebook


# A Markdown link to a page's source file: `[text](../docs/a/b.md#anchor)`.
_PAGE_LINK = re.compile(r"\]\((?P<target>[^)\s#]+\.md)(?P<anchor>#[^)\s]*)?\)")
# Any Markdown link target, and the ones that need no checking here.
_LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
_ABSOLUTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|#)", re.IGNORECASE)
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _slug(path: Path) -> str:
    """`save-load` for `save-load.md` and `save-load.en.md`."""
    return path.name.removesuffix(".md").removesuffix(f".{page_locale(path)}")


def _link_problem(source: Path, target: str, root: Path) -> str | None:
    """What is wrong with a link of a notebook source, or None."""
    if _ABSOLUTE.match(target):
        return None
    match = _PAGE_LINK.fullmatch(f"]({target})")
    if match is None:
        return "is not a page's Markdown file (it would break on the site and in the download)"
    page = _linked_page(source, match["target"], root)
    if page is None:
        return "leads to no page"
    if page_locale(page) != page_locale(source):
        return f"leads to the {page_locale(page)} page, not the {page_locale(source)} one"
    anchor = (match["anchor"] or "#")[1:]
    if anchor and anchor not in {h.anchor for h in headings(page.read_text(encoding="utf-8"))}:
        return f"names the anchor #{anchor}, which {relative(page, root)} does not have"
    return None


def _linked_page(source: Path, target: str, root: Path) -> Path | None:
    """The page in docs/ that a link of a notebook source names, or None."""
    page = (source.parent / target).resolve()
    return page if page.is_file() and page.is_relative_to(docs_dir(root).resolve()) else None


def _absolute_links(markdown: str, source: Path, root: Path, site_url: str) -> str:
    """Links to page files made into the pages' addresses on the site: they work on the
    site and in the downloaded notebook alike."""

    def address(match: re.Match) -> str:
        page = _linked_page(source, match["target"], root)
        if page is None:
            return match[0]  # reported by read_source
        url = site_url.rstrip("/") + "/" + page_url(page, docs_dir(root))
        return f"]({url}{match['anchor'] or ''})"

    return _PAGE_LINK.sub(address, markdown)


def _marker_error(ref: SnippetRef, root: Path) -> str | None:
    """Why a script cannot be part of a notebook (it needs CUDA, is not run, or runs as
    several processes), or None."""
    try:
        markers = script_markers((root / ref.path).read_text(encoding="utf-8"), ref.path)
    except MarkerError as exc:
        return f"{relative(ref.page, root)}:{ref.line}: {exc}"
    if markers.requires:
        why = f"it needs {', '.join(sorted(markers.requires))}"
    elif markers.not_run:
        why = "it is marked not-run"
    elif markers.launch:
        why = "it runs as several processes"
    else:
        return None
    return (
        f"{relative(ref.page, root)}:{ref.line}: {ref.path} cannot be part of a notebook: "
        f"{why}, and the suite runs every notebook in one kernel on this machine. "
        "Link to its page instead."
    )


def build_notebook(
    source: NotebookSource, root: Path, site_url: str = "/"
) -> nbformat.NotebookNode:
    """Build the notebook of a source, without outputs.

    Args:
        source (NotebookSource): from `read_source`.
        root (Path): the content root.
        site_url (str): the site's address; links to page files become links to it.

    Returns:
        nbformat.NotebookNode: nbformat 4; each code cell's metadata names the sections
        it shows and the source line, and the notebook's metadata the fingerprint of its
        code (`code_fingerprint`).
    """
    cells = []
    for cell in source.cells:
        if isinstance(cell, str):
            markdown = _absolute_links(cell, source.path, root, site_url)
            cells.append(nbformat.v4.new_markdown_cell(markdown))
            continue
        origin = {"from": cell.label, "line": cell.line}
        cells.append(nbformat.v4.new_code_cell(cell.code, metadata={META: origin}))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata.update(
        kernelspec={"name": "python3", "display_name": "Python 3", "language": "python"},
        language_info={"name": "python"},
    )
    notebook.metadata[META] = {
        "source": relative(source.path, root),
        "scripts": source.scripts,
        "code": code_fingerprint(notebook),
    }
    # Stable cell ids, so that a rebuild gives the same file.
    for index, nb_cell in enumerate(notebook.cells):
        nb_cell["id"] = f"cell-{index}"
    return notebook


def code_fingerprint(notebook: nbformat.NotebookNode) -> str:
    """SHA-256 of the code cells' sources, in order: what an execution depends on.

    Args:
        notebook (nbformat.NotebookNode): any notebook.

    Returns:
        str: hex digest.
    """
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    return hashlib.sha256(json.dumps(code).encode()).hexdigest()


def execute(
    source: NotebookSource, root: Path, workdir: Path, timeout: int = CELL_TIMEOUT
) -> nbformat.NotebookNode:
    """Run a notebook's code cells in a new Jupyter kernel and check what they print.

    The kernel talks to us over Unix sockets in `workdir` (no network port) and runs
    in `workdir`, so that whatever the code writes lands there.

    Args:
        source (NotebookSource): from `read_source`.
        root (Path): the content root.
        workdir (Path): an empty temporary directory.
        timeout (int): the longest any cell may run, in seconds.

    Returns:
        nbformat.NotebookNode: the notebook with the outputs of its code cells.

    Raises:
        NotebookError: a cell raised or timed out, or printed something other than what
            its script says (the source file, the cell and its `--8<--` line named).
    """
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    notebook = build_notebook(source, root)
    workdir.mkdir(parents=True, exist_ok=True)
    # A Unix socket path may not exceed about 100 bytes: pytest's temporary folders do.
    sockets = Path(tempfile.mkdtemp(prefix="nb-", dir=_short_temp_dir()))
    manager = KernelManager(kernel_name="python3", transport="ipc", ip=str(sockets / "k"))
    client = NotebookClient(
        notebook,
        km=manager,
        timeout=timeout,
        startup_timeout=STARTUP_TIMEOUT,
        # As in the script, only prints give output: IPython would also display the value
        # of a cell's last expression (the whole model after `model.train()`).
        extra_arguments=[
            "--InteractiveShell.ast_node_interactivity=none",
            # The sandbox of the examples: no writes into the repository, no network.
            f"--IPKernelApp.exec_lines={_guard_line(root)}",
        ],
        allow_errors=False,
        resources={"metadata": {"path": str(workdir)}},
    )
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError, DeadKernelError) as exc:
        # DeadKernelError is a RuntimeError: caught here, before the start-up failure.
        index, cell = _failed_cell(notebook, source)
        detail = _strip_ansi(str(exc)).strip()
        if isinstance(exc, DeadKernelError):
            detail += "\n(the kernel process ended: os._exit, a crash, or out of memory)"
        raise NotebookError(
            f"{_where(source, root, cell)}: cell {index} ({cell.label}) failed when the "
            f"notebook ran:\n{textwrap.indent(detail[-3000:], '    ')}\n"
            "Run the script on its own to see whether the example or the notebook's order "
            "of sections is at fault."
        ) from None
    except RuntimeError as exc:  # the kernel did not start (nbclient raises RuntimeError)
        raise NotebookError(
            f"{relative(source.path, root)}: the Jupyter kernel did not start ({exc}); check "
            "that ipykernel is installed in this environment (make test installs it)"
        ) from None
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
    problems = check_outputs(notebook, source, root)
    if problems:
        raise NotebookError("\n".join(problems))
    return notebook


def _guard_line(root: Path) -> str:
    """Python for the kernel's start: install the examples' audit hook (verified.capture)."""
    protected = sorted({str(REPO_ROOT), str(root.resolve())})
    return (
        f"from verified.capture import install_guard; install_guard({protected!r}); "
        "del install_guard"
    )


def _short_temp_dir() -> str | None:
    """The system's temporary folder when its path is short enough for Unix sockets."""
    folder = tempfile.gettempdir()
    return folder if len(folder) < 40 else "/tmp" if Path("/tmp").is_dir() else None


def _failed_cell(notebook: nbformat.NotebookNode, source: NotebookSource) -> tuple[int, CodeCell]:
    """The 1-based number and source cell of the first code cell with an error output, or
    of the last code cell that started (a timeout or a dead kernel leaves no error)."""
    started = 0
    for code_index, nb_cell in enumerate(c for c in notebook.cells if c.cell_type == "code"):
        if nb_cell.get("execution_count") is not None or nb_cell.outputs:
            started = code_index
        if any(output.output_type == "error" for output in nb_cell.outputs):
            started = code_index
            break
    code_cell = source.code_cells[started]
    return notebook.cells.index(_code_cells(notebook)[started]) + 1, code_cell


def _code_cells(notebook: nbformat.NotebookNode) -> list:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def _where(source: NotebookSource, root: Path, cell: CodeCell) -> str:
    return f"{relative(source.path, root)}:{cell.line}"


def check_outputs(notebook: nbformat.NotebookNode, source: NotebookSource, root: Path) -> list[str]:
    """Compare each executed code cell's standard output with what its script says its
    prints give (the `#>` lines and output blocks), and refuse error output.

    Args:
        notebook (nbformat.NotebookNode): executed by `execute`.
        source (NotebookSource): its source.
        root (Path): the content root.

    Returns:
        list[str]: one message per disagreeing cell, naming the source line and the
        sections; empty when all agree.
    """
    problems = []
    for index, (nb_cell, cell) in enumerate(
        zip(_code_cells(notebook), source.code_cells, strict=True), 1
    ):
        printed = "".join(
            o.text for o in nb_cell.outputs if o.output_type == "stream" and o.name == "stdout"
        )
        expected, ordered = expected_stdout(cell.script)
        if not same_output(expected, printed, ordered):
            problems.append(
                f"{_where(source, root, cell)}: code cell {index} ({cell.label}) printed, in the "
                f"notebook, something other than its script says:\n--- the script says\n"
                f"{textwrap.indent(expected, '    ')}\n--- the notebook printed\n"
                f"{textwrap.indent(printed.rstrip(), '    ')}\n"
                "If the script on its own prints what its #> lines say, the notebook runs "
                "its sections in another order or state: a section must come after the "
                "sections it depends on. Output that changes from run to run cannot be shown."
            )
    return problems


def _strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def write_executed(notebook: nbformat.NotebookNode, path: Path, versions: dict) -> None:
    """Save an executed notebook with the versions it ran with and the time.

    Args:
        notebook (nbformat.NotebookNode): from `execute`.
        path (Path): `build/notebooks/executed/<slug>.ipynb`.
        versions (dict): `{"python": ..., "torch": ..., ...}` as imported by the run.

    Raises:
        OSError: the file cannot be written.
    """
    notebook.metadata[META]["executed"] = {
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "versions": versions,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, str(path))


def executed_path(root: Path, slug: str) -> Path:
    """Where the suite writes a notebook it ran.

    Args:
        root (Path): the repository root.
        slug (str): the notebook's name.

    Returns:
        Path: `root/build/notebooks/executed/<slug>.ipynb`.
    """
    return root / "build" / "notebooks" / "executed" / f"{slug}.ipynb"


def with_outputs(
    notebook: nbformat.NotebookNode, executed: Path
) -> tuple[nbformat.NotebookNode, dict | None]:
    """Copy the outputs of an executed notebook into a language's notebook.

    Args:
        notebook (nbformat.NotebookNode): from `build_notebook`, no outputs.
        executed (Path): the executed notebook (may be missing).

    Returns:
        tuple[nbformat.NotebookNode, dict | None]: the notebook, and the run's `executed`
        metadata (versions, created), or None when there is no run of this exact code:
        then the notebook stays without outputs.

    Raises:
        NotebookError: the file exists but is not a notebook the suite wrote.
    """
    if not executed.is_file():
        return notebook, None
    try:
        ran = nbformat.read(str(executed), as_version=4)
        run = ran.metadata[META]
    except (OSError, ValueError, KeyError, nbformat.reader.NotJSONError) as exc:
        raise NotebookError(
            f"{executed}: not a notebook run by the suite ({type(exc).__name__}: {exc}); "
            "delete it and run `make test` again"
        ) from None
    if run.get("code") != notebook.metadata[META]["code"] or "executed" not in run:
        return notebook, None
    for mine, theirs in zip(_code_cells(notebook), _code_cells(ran), strict=True):
        mine.outputs, mine.execution_count = theirs.outputs, theirs.execution_count
    notebook.metadata[META]["executed"] = run["executed"]
    return notebook, run["executed"]


def imported_libraries(notebook: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """The stamped libraries a notebook imports, as (record key, PyPI distribution).

    Args:
        notebook (nbformat.NotebookNode): any notebook.

    Returns:
        list[tuple[str, str]]: in the order of `verified.record.LIBRARIES`.
    """
    modules = {name for cell in _code_cells(notebook) for name in imported_packages(cell.source)}
    return [(key, dists[-1]) for key, _name, dists in LIBRARIES if key in modules]


#: The first cell's wording per locale: with what the notebook ran, and how to run it.
ABOUT = {
    "zh": {
        "ran": "下面每个代码单元的输出，都是构建本站时实际运行这个笔记本得到的（{env}，{date}）。",
        "not_ran": (
            "**本次构建没有运行这个笔记本**，所以代码单元没有输出。"
            "在仓库里运行 `make test` 会执行它并填入输出。"
        ),
        "yourself": (
            "**自己运行**：下载 {download}，或者它所依据的示例脚本（{scripts}），然后{install}"
        ),
        "same_versions": "安装相同版本的库：",
        "libraries": "安装这些库：",
        "separator": "、",
    },
    "en": {
        "ran": (
            "Every output below was printed by running this notebook when the site was built "
            "({env}, {date})."
        ),
        "not_ran": (
            "**This build did not run this notebook**, so its code cells have no output. "
            "`make test` in the repository runs it and fills them in."
        ),
        "yourself": "**Run it yourself**: download {download}, or the example scripts it is "
        "made from ({scripts}), and {install}",
        "same_versions": "install the same versions:",
        "libraries": "install the libraries:",
        "separator": ", ",
    },
}


def about_cell(
    notebook: nbformat.NotebookNode, run: dict | None, locale: str, script_url: str
) -> str:
    """The Markdown of the cell put below a notebook's title: with what it ran, and how to
    run it yourself (download, scripts, `pip install` with the versions that ran).

    Args:
        notebook (nbformat.NotebookNode): from `build_notebook`.
        run (dict | None): the `executed` metadata from `with_outputs`, or None.
        locale (str): `zh` or `en`.
        script_url (str): the repository's file URL prefix, e.g.
            `https://github.com/o/r/blob/main/`.

    Returns:
        str: Markdown (with an HTML link for the download, which Jupyter renders too).

    Raises:
        KeyError: no wording for `locale`.
    """
    text = ABOUT[locale]
    meta = notebook.metadata[META]
    name = _slug(Path(meta["source"])) + ".ipynb"
    download = f'<a href="{name}" download>{name}</a>'
    scripts = text["separator"].join(f"[{path}]({script_url}{path})" for path in meta["scripts"])
    libraries = imported_libraries(notebook)
    versions = (run or {}).get("versions", {})
    pins = [
        f"{dist}=={versions[key].split('+')[0]}" if versions.get(key) else dist
        for key, dist in libraries
    ]
    names = {key: shown for key, shown, _ in LIBRARIES}
    if run:
        env = " · ".join(
            [f"Python {versions.get('python')}"]
            + [
                f"{names[key]} {versions[key].split('+')[0]}"
                for key, _ in libraries
                if versions.get(key)
            ]
        )
        status = text["ran"].format(env=env, date=run["created"][:10])
    else:
        status = text["not_ran"]
    # Pinned only to versions that ran: without a run, the libraries are named bare.
    how = text["same_versions"] if run else text["libraries"]
    yourself = text["yourself"].format(download=download, scripts=scripts, install=how)
    install = " ".join(["pip install", *pins, "jupyterlab"])
    return f"{status}\n\n{yourself}\n\n```bash\n{install}\n```"


def site_notebook(
    source: NotebookSource, root: Path, executed: Path, script_url: str, site_url: str = "/"
) -> tuple[nbformat.NotebookNode, dict | None]:
    """A language's notebook as the site serves it: outputs from the suite's run of the
    same code, and the "about" cell below the title (or first, if there is no title).

    Args:
        source (NotebookSource): from `read_source`.
        root (Path): the content root.
        executed (Path): the suite's executed notebook for this slug.
        script_url (str): see `about_cell`.
        site_url (str): the site's address (see `build_notebook`).

    Returns:
        tuple[nbformat.NotebookNode, dict | None]: the notebook, and the run it shows
        (None: not run in this build, no outputs).

    Raises:
        NotebookError: the executed notebook is unreadable, or its outputs differ from
            what the scripts say (edited after the run).
    """
    notebook, run = with_outputs(build_notebook(source, root, site_url), executed)
    if run is not None and (problems := check_outputs(notebook, source, root)):
        # The suite checked these outputs when it wrote them: the file changed since.
        raise NotebookError(
            f"{executed}: its outputs are not what the scripts say; delete it and run "
            "`make test` again\n" + "\n".join(problems)
        )
    about = nbformat.v4.new_markdown_cell(
        about_cell(notebook, run, source.locale, script_url), id="about"
    )
    first = notebook.cells[0] if notebook.cells else None
    if first is not None and first.cell_type == "markdown" and first.source.startswith("# "):
        title, _, rest = first.source.partition("\n")
        first.source = title
        if rest.strip():
            notebook.cells.insert(1, nbformat.v4.new_markdown_cell(rest.strip(), id="intro"))
        notebook.cells.insert(1, about)
    else:
        notebook.cells.insert(0, about)
    return notebook, run
