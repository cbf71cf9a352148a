"""The commands writers run and the helpers of the checks (README, "Where things live"); the
engine (`verified`) and the site plugin (`verified_site`) are installed packages."""

from pathlib import Path

import jinja2


def templates(**filters) -> jinja2.Environment:
    """tooling/templates/'s Jinja environment with `filters`. Comments are written {## ##}:
    `{#id}` is Markdown's anchor."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        comment_start_string="{##",
        comment_end_string="##}",
    )
    environment.filters.update(filters)
    return environment
