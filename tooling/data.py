"""Data files: YAML that pages are generated or checked from, each valid against a JSON Schema.

`read` loads a data file (`data/glossary.yml`, `data/reference/*.yml`), keeping the line
of each mapping and refusing a key given twice (YAML would keep the last one silently), and
validates it with jsonschema against its schema, `data/schemas/<name>.schema.yml`. The
schemas' `description`s document each field for contributors and are the "what to write" of
the error messages; a list item's `title` (`term`) names it in them. Checks a schema cannot
express (an id used twice, a page that must exist) stay with the code that reads the file.
"""

from __future__ import annotations

import functools
from pathlib import Path

import jsonschema
import yaml

from verified.paths import REPO_ROOT

SCHEMAS = REPO_ROOT / "data" / "schemas"


class DataError(ValueError):
    """A data file is malformed; the message names the file and line and says what to write."""


class Row(dict):
    """A mapping read from a data file, with the 1-based line of its first key (`line`) and of
    each key (`lines`)."""

    line: int
    lines: dict[str, int]


class _Loader(yaml.SafeLoader):
    """Makes each mapping a `Row`; refuses a key given twice (YAML requires keys to be unique)."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                problem = f"`{key}` appears twice here; keep one"
                raise yaml.constructor.ConstructorError(None, None, problem, key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)

    def construct_row(self, node):
        row = Row(self.construct_mapping(node, deep=True))
        row.line = node.start_mark.line + 1
        row.lines = {key.value: key.start_mark.line + 1 for key, _ in node.value}
        return row


_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_row)


def read(path: Path, root: Path, schema: str) -> object:
    """The data of the YAML file `root / path`, once valid against
    `data/schemas/<schema>.schema.yml`; each mapping in it is a `Row`. DataError, naming
    `path:<line>` (of the mapping at fault) and the field, when it is not UTF-8 or valid YAML,
    gives a key twice or does not match the schema."""
    raw = (root / path).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError(f"{path}:{line}: not UTF-8 text; save the file as UTF-8") from None
    try:
        data = yaml.load(text, Loader=_Loader)  # noqa: S506
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise DataError(f"{path}:{mark.line + 1 if mark else 1}: not valid YAML: {exc}") from None
    if found := problem(data, schema):
        line, text = found
        raise DataError(f"{path}:{line}: {text}")
    return data


def problem(data: object, schema: str) -> tuple[int, str] | None:
    """What makes `data` invalid against `data/schemas/<schema>.schema.yml` (jsonschema's
    `best_match` of its errors), or None: the line of the innermost `Row` at fault (1 when
    there is none, as in JSON data) and a message naming the list item (its schema's `title`,
    then its `id` or number), the field and what to write (the deepest `description`)."""
    definition, validator = _compiled(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is None:
        return None
    # What to write: the deepest `description` on the way to the failed keyword; the first
    # `title` below the root names the list's items, the rows.
    about, title = definition.get("description"), None
    for step in error.absolute_schema_path:
        definition = definition[step]
        if not isinstance(definition, dict):
            break
        about = definition.get("description", about)
        title = title or definition.get("title")
    # The line: that of the innermost mapping on the error's path, or of its key there.
    node, line, label, steps = data, 1, "", []
    for step in error.absolute_path:
        line = node.lines.get(step, node.line) if isinstance(node, Row) else line
        node = node[step]
        if isinstance(step, int) and not label:  # the row: its title, then its id or number
            name = node.get("id") if isinstance(node, dict) else None
            name = repr(name) if isinstance(name, str) else step + 1
            label, steps = f"{title or 'row'} {name}: ", []
        else:
            steps.append(f"[{step}]" if isinstance(step, int) else f".{step}")
    line = node.line if isinstance(node, Row) else line
    field = "".join(steps).removeprefix(".")
    if error.validator == "required":  # the missing field's own description
        missing = next(key for key in error.validator_value if key not in error.instance)
        about = error.schema.get("properties", {}).get(missing, {}).get("description", about)
    elif error.validator == "additionalProperties":
        about = f"the fields here are {', '.join(error.schema.get('properties', {}))}"
    text = label + (f"`{field}`: " if field else "") + error.message
    return line, text + (f": {' '.join(about.split())}" if about else "")


@functools.cache
def _compiled(name: str) -> tuple[dict, jsonschema.protocols.Validator]:
    """The schema `data/schemas/<name>.schema.yml` and a validator of its draft (`$schema`);
    jsonschema's SchemaError when the schema itself is malformed."""
    schema = yaml.safe_load((SCHEMAS / f"{name}.schema.yml").read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)
    return schema, validator(schema)
