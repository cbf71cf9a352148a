"""Data files: YAML that pages are generated or checked from, each valid against a JSON Schema.

`read` loads a data file (`data/glossary.yml`, `data/reference/*.yml`), keeping the line
of each mapping and refusing a key given twice (YAML would keep the last one silently), and
validates it with fastjsonschema against its schema, `data/schemas/<name>.schema.yml`. The
schemas' `description`s document each field for contributors and are the "what to write" of
the error messages; a row's `title` (`term`) names it in them. Checks a schema cannot express
(an id used twice, a page that must exist) stay with the code that reads the file.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import fastjsonschema
import yaml

from verified.paths import REPO_ROOT

SCHEMAS = REPO_ROOT / "data" / "schemas"
#: How a value of each JSON type is written in YAML, for messages.
_TYPES = {
    "string": "text (quote it)",
    "array": "a list, e.g. [a, b]",
    "object": "a mapping (`key: value` lines)",
    "number": "a number, e.g. 0.001",
    "integer": "a whole number",
    "boolean": "true or false",
    "null": "null",
}


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
    """What first makes `data` invalid against `data/schemas/<schema>.schema.yml`, or None: the line
    of the innermost `Row` at fault (1 when there is none, as in JSON data) and a message naming the
    row (its schema's `title`, then its `id` or number), the field and what to write (its
    `description`)."""
    definition, validate = _compiled(schema)
    try:
        validate(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        return _describe(data, definition, exc)
    return None


@functools.cache
def _compiled(name: str) -> tuple[dict, Callable[[object], object]]:
    """The schema `data/schemas/<name>.schema.yml` and its validator."""
    schema = yaml.safe_load((SCHEMAS / f"{name}.schema.yml").read_text(encoding="utf-8"))
    return schema, fastjsonschema.compile(schema)


def _describe(data: object, schema: dict, exc: fastjsonschema.JsonSchemaValueException):
    """(line, message) for a validation error: walks its path through the data and the schema
    alongside, keeping the innermost mapping's line and the deepest `description`."""
    node, definition, line, label, field = data, schema, 1, "", ""
    about = schema.get("description")
    steps = list(exc.path[1:])  # the first is fastjsonschema's name for the whole data
    while steps:
        step = steps.pop(0)
        line = node.line if isinstance(node, Row) else line
        if isinstance(node, list):
            node, definition = node[int(step)], definition.get("items", {})
            if not label:  # the first list item is the row: its title, then its id or number
                name = node.get("id") if isinstance(node, dict) else None
                name = repr(name) if isinstance(name, str) else int(step) + 1
                label = f"{definition.get('title', 'row')} {name}: "
                field = ""
                continue
            field += f"[{step}]"
        else:
            while step not in node and steps:  # fastjsonschema's path splits keys at their dots
                step += "." + steps.pop(0)
            line = node.lines.get(step, line) if isinstance(node, Row) else line
            node = node[step]
            definition = definition.get("properties", {}).get(step) or definition.get(
                "additionalProperties", {}
            )
            field += f".{step}" if field else step
        about = definition.get("description", about)
    line = node.line if isinstance(node, Row) else line
    properties = exc.definition.get("properties", {})
    if exc.rule == "required":
        missing = next(key for key in exc.rule_definition if key not in node)
        about = properties.get(missing, {}).get("description", about)
        text = f"`{field + '.' if field else ''}{missing}` is missing"
    elif exc.rule == "additionalProperties":
        unknown = sorted(set(node) - set(properties))[0]
        text = f"unknown field `{field + '.' if field else ''}{unknown}`"
        about = f"the fields here are {', '.join(properties)}"
    elif exc.rule == "type":
        types = exc.rule_definition
        types = " or ".join(_TYPES[t] for t in ([types] if isinstance(types, str) else types))
        text = f"`{field}` must be {types}" if field else f"it must be {types}"
    elif exc.rule == "enum":
        allowed = ", ".join(map(str, exc.rule_definition))
        text = f"`{field}` cannot be {node!r}; write one of {allowed}"
    else:
        text = f"`{field}` cannot be {node!r}" if field else f"it cannot be {node!r}"
    return line, label + text + (f": {' '.join(about.split())}" if about else "")
