"""The site's own wording per language: `locales/<locale>.yml`, each value a Jinja2 template.

    wording("en")["stamp"]["verified"](libs="torch 2.14.1", date="2026-12-01")

returns the text. A template that names something the caller does not give fails
(StrictUndefined) instead of printing a blank.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import jinja2
import yaml

LOCALES = Path(__file__).parent / "locales"
_JINJA = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)


@functools.cache
def wording(locale: str) -> dict[str, dict[str, Callable[..., str]]]:
    """One locale's wording, by section and key, each a function of its template's names.
    FileNotFoundError, or yaml.YAMLError / ValueError naming file and line or key."""
    path = LOCALES / f"{locale}.yml"
    with path.open(encoding="utf-8") as file:  # a file object: YAML's errors then name it
        data = yaml.safe_load(file)
    return {
        section: {key: _template(path, f"{section}.{key}", text) for key, text in entries.items()}
        for section, entries in data.items()
    }


def _template(path: Path, where: str, text: str) -> Callable[..., str]:
    try:
        return _JINJA.from_string(text).render
    except jinja2.TemplateSyntaxError as exc:
        raise ValueError(f"{path}: {where}: {exc.message} (line {exc.lineno})") from None
