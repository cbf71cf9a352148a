"""Data files: YAML that pages are generated from, each validated with jsonschema against
`data/schemas/<name>.schema.yml`, whose `description`s document each field and say, in the
error messages, what to write. Checks a schema cannot express stay with the file's reader.
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


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """Makes each mapping a `Row`; refuses a key given twice (YAML would keep the last). On
    libyaml's parser where PyYAML has it (eight times faster on the readers' corpus)."""

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
    """The data of `root / path`, each mapping a `Row`. DataError, naming `path:<line>` and the
    field, when it is not UTF-8 or valid YAML, gives a key twice or does not match `schema`."""
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
    """jsonschema's `best_match` error of `data`, or None: the line of the innermost `Row` at
    fault (1 for JSON data) and a message naming the list item (its schema's `title`, then its
    `id` or number), the field and what to write (the deepest `description`)."""
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


def schema(name: str) -> dict:
    """The schema `data/schemas/<name>.schema.yml`, as a mapping (cached); SchemaError when it
    is malformed."""
    return _compiled(name)[0]


@functools.cache
def _compiled(name: str) -> tuple[dict, jsonschema.protocols.Validator]:
    """The schema and a validator of its draft; SchemaError when the schema is malformed."""
    schema = yaml.safe_load((SCHEMAS / f"{name}.schema.yml").read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)
    return schema, validator(schema)
