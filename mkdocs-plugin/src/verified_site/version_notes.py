""" "Changed between versions" notes: a code block whose example prints something else in
another verification environment is followed by every environment's output: the default's
`#>` lines, the others' `verification/expected/<name>.json` (`verified.expected`).
"""

from __future__ import annotations

import difflib
from pathlib import Path
from textwrap import indent

from verified.environments import environments
from verified.expected import expected_path, load_expected
from verified.outputs import expected_stdout
from verified.paths import REPO_ROOT
from verified.record import LIBRARIES, versions_label
from verified_site.pages import fences, parse_snippet_line, section_code
from verified_site.stamp import admonition
from verified_site.wording import wording


class VersionNotes:
    """Every environment's outputs and versions, read once per build. ExpectedOutputError or
    UnknownEnvironment, naming the file, when one cannot be read."""

    def __init__(self, root: Path) -> None:
        self.root = root
        known = environments(REPO_ROOT)
        # Each environment's expected outputs by script, the default's first: its `#>` lines.
        self.expected = {known[0].name: {}} | {
            e.name: load_expected(expected_path(root, e.name)) for e in known[1:]
        }
        pinned = {e.name: e.pinned_versions(REPO_ROOT) for e in known}
        # Name only the libraries whose versions differ: the note is about what changed.
        varying = [
            key
            for key, _name, _ in LIBRARIES
            if all(p.get(key) for p in pinned.values())
            and len({p[key] for p in pinned.values()}) > 1
        ]
        self.labels = {env: versions_label(v, varying or None) for env, v in pinned.items()}

    def insert(self, markdown: str, locale: str, verified: set[str] | None = None) -> str:
        """The page's Markdown with a note below each code block whose output differs between
        environments; outputs of environments not in `verified` are labelled "not verified in
        this build" (with None, none is)."""
        lines = markdown.splitlines()
        for fence in reversed(fences(markdown)):
            body = lines[fence.start : fence.end - 1]
            refs = [(p[0], p[1]) for line in body if (p := parse_snippet_line(line))]
            outputs = self._outputs(refs) if refs else {}
            if not outputs:
                continue
            opening = lines[fence.start - 1]
            pad = opening[: len(opening) - len(opening.lstrip())]
            note = indent(self._note(outputs, locale, verified), pad)
            lines[fence.end : fence.end] = ["", *note.splitlines()]
        return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")

    def _outputs(self, refs: list[tuple[str, str | None]]) -> dict[str, str]:
        """What a code block embedding `refs` prints, by environment: the default's, then each
        other's that differs; empty when none does."""
        (default, printed), *others = [(name, self._stdout(refs, name)) for name in self.expected]
        found = {name: output for name, output in others if output != printed}
        return {default: printed, **found} if found else {}

    def _stdout(self, refs: list[tuple[str, str | None]], name: str) -> str:
        # The plugin has refused a page whose `--8<--` lines name a missing file.
        codes = [section_code(self.root / s, part, self.expected[name].get(s)) for s, part in refs]
        return "\n".join(part for code in codes if (part := expected_stdout(code)[0]))

    def _note(self, outputs: dict[str, str], locale: str, verified: set[str] | None) -> str:
        """One code block's note: each environment's output under its versions, the lines that
        differ from the default's (the default's: from the next's) marked."""
        text = wording(locale)["version_notes"]
        parts = [text["intro"]()]
        first, second = [output.splitlines() for output in list(outputs.values())[:2]]
        for index, (environment, output) in enumerate(outputs.items()):
            label = self.labels[environment]
            if verified is not None and environment not in verified:
                label += text["unchecked"]()
            if not output:
                parts.append(text["nothing"](label=label))
                continue
            other = second if index == 0 else first
            matcher = difflib.SequenceMatcher(a=output.splitlines(), b=other, autojunk=False)
            changed = [
                str(number + 1)
                for tag, start, end, _, _ in matcher.get_opcodes()
                if tag != "equal"
                for number in range(start, end)
            ]
            marks = f' hl_lines="{" ".join(changed)}"' if changed else ""
            fence = "````" if "```" in output else "```"
            parts.append(f'{fence}text title="{label}"{marks}\n{output}\n{fence}')
        return admonition("info", text["title"](), "\n\n".join(parts), "version-change")
