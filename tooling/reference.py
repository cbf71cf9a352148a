"""The cross-library reference's data (README: "The cross-library reference"): one YAML file per
family in `data/reference/` (`NN-<family>.yml`, NN ordering the pages) and the shared inputs of
`data/reference/inputs.yml`, both described by `data/schemas/reference*.schema.yml`.

A row in the record (`run["reference"][<family>.<id>]`, written by `tooling.reference_run`):
`family`, `status` (`agree`, `differs`, `missing`: a library has no such operation, `failed`),
`results` (input id, or `none` -> library -> `Result.to_json()`), `differences` (what differed:
input, aspect, libraries) and `problems` (the messages of a failed row).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tooling.data import DataError, read, schema
from verified.environments import environments
from verified.record import GPU_ENVIRONMENT
from verified_site.api_names import PREFIXES, api_name

LIBRARIES = ("numpy", "torch", "tensorflow")
#: The names pages give the libraries.
NAMES = {"numpy": "NumPy", "torch": "PyTorch", "tensorflow": "TensorFlow"}
#: The module names a row's code uses.
ALIASES = {"numpy": "np", "torch": "torch", "tensorflow": "tf"}
#: The kinds of difference, why libraries differ, in the order pages list them: the schema's
#: `kind`s (data/schemas/reference.schema.yml, the one list), then that of a row with
#: `missing`, which has no field.
MISSING_KIND = "missing in a library"
KINDS = (
    *schema("reference")["properties"]["differences"]["items"]["properties"]["kind"]["enum"],
    MISSING_KIND,
)
#: Why a row's PyTorch result can differ on CUDA: the schema's `cuda.cause`s, in page order.
CUDA_CAUSES = tuple(
    schema("reference")["properties"]["rows"]["items"]["properties"]["cuda"]["properties"]["cause"][
        "enum"
    ]
)
FOLDER = "data/reference"
INPUTS = f"{FOLDER}/inputs.yml"
#: The input key of a row that takes no input.
NO_INPUT = "none"
#: A call's function as spelled, rooted at a library's alias: `np.linalg.norm(x)`.
_CALLED = re.compile(rf"((?:{'|'.join(PREFIXES)})\.[\w.]+)\(")


@dataclass
class Row:
    """One operation: its calls (library -> code, None where the library has none), other
    spellings (`also`), the inputs it runs on, and what the data declares about it."""

    id: str
    family: str
    source: str
    line: int
    zh: str
    en: str
    calls: dict[str, str | None]
    also: dict[str, list[str]]
    inputs: list[str]
    rtol: float
    atol: float
    random: dict | None = None
    differences: list[dict] = field(default_factory=list)
    missing: dict | None = None
    #: A paragraph shown above the row's results, per language (`note:` in the data).
    note: dict | None = None
    #: The family's declared differences, which hold for any of its rows.
    shared: list[dict] = field(default_factory=list)
    #: Why its PyTorch result can differ on CUDA (`cuda:` in the data: cause, zh, en), or None.
    cuda: dict | None = None

    @property
    def key(self) -> str:
        """`family.id`: the row's key in the record and its anchor."""
        return f"{self.family}.{self.id}"

    @property
    def api_names(self) -> list[str]:
        """The API names its calls and `also` spellings call, as written and rooted at a
        library's alias (`torch.cat`, `np.concatenate`): what readers type to find the row. A
        method on `x`, or a call whose result the row reads (`np.array(x).dtype`), names none."""
        calls = [*self.calls.values(), *(text for texts in self.also.values() for text in texts)]
        found = (_CALLED.match(c.strip()) for c in calls if c and api_name(c))
        return list(dict.fromkeys(match[1] for match in found if match))


@dataclass
class Family:
    """A family's page: its id, titles and introduction per language, and its rows."""

    id: str
    source: str
    title: dict[str, str]
    intro: dict[str, str]
    rows: list[Row]
    differences: list[dict] = field(default_factory=list)


def load_inputs(root: Path) -> dict[str, dict]:
    """The shared inputs of `data/reference/inputs.yml` by id, each as the file gives it: `id`,
    names (`zh`, `en`) and per library the code that makes it. DataError, naming the line, when
    the file is malformed or gives an id twice."""
    inputs: dict[str, dict] = {}
    for item in read(Path(INPUTS), root, "reference-inputs"):
        if item["id"] in inputs:
            raise DataError(f"{INPUTS}:{item.line}: input {item['id']!r} is defined twice")
        inputs[item["id"]] = item
    return inputs


def load_families(root: Path, inputs: dict[str, dict]) -> list[Family]:
    """Every family of `data/reference/NN-<id>.yml`, sorted by file name; DataError, naming the file
    and line, for a misnamed file, a family id given twice, or a malformed row: a schema mistake, an
    id given twice, an unknown input, a library without a call and no `missing` reason, `also`
    under a library without a call, `cuda` on a row without a PyTorch call, or a declared
    difference (of a row or the family) naming a library without a call, an input not run or an
    unknown verification environment."""
    families, seen, pages = [], {}, {}
    known = [env.name for env in environments()] + [GPU_ENVIRONMENT]
    for path in sorted((root / FOLDER).iterdir()):
        if path.name == "inputs.yml":
            continue
        source = f"{FOLDER}/{path.name}"
        if not re.fullmatch(r"\d\d-[a-z][a-z-]*\.yml", path.name):
            raise DataError(f"{source}:1: a family's file is named NN-<family>.yml (03-shape.yml)")
        data = read(Path(source), root, "reference")
        if data["id"] != path.stem[3:]:
            raise DataError(
                f"{source}:1: the family's id is {data['id']!r}: name the file "
                f"{path.name[:3]}{data['id']}.yml, or change the id"
            )
        if data["id"] in pages:
            raise DataError(f"{source}:1: family id {data['id']!r} is {pages[data['id']]}'s too")
        pages[data["id"]] = source
        everywhere = dict.fromkeys(LIBRARIES, "any call")
        for declared in data.get("differences", []):
            _check(declared, "the family", source, everywhere, [*inputs, NO_INPUT], known)
        rows = []
        for item in data["rows"]:
            where = f"{source}:{item.line}: row {item['id']!r}"
            if item["id"] in seen:
                raise DataError(
                    f"{where}: the id is used at {seen[item['id']]} too; ids are unique"
                )
            seen[item["id"]] = f"{source}:{item.line}"
            calls = {library: item.get(library) for library in LIBRARIES}
            also = item.get("also", {})
            for text in [c for c in calls.values() if c] + [c for cs in also.values() for c in cs]:
                try:
                    compile(text, source, "exec")
                except SyntaxError as exc:
                    raise DataError(
                        f"{where}: `{text}` is not Python ({exc.msg}); in a YAML list [a, b], "
                        "quote code that holds a comma"
                    ) from None
            absent = [NAMES[lib] for lib, call in calls.items() if call is None]
            if absent and "missing" not in item:
                raise DataError(
                    f"{where}: no call for {', '.join(absent)}; give one, or say under `missing` "
                    "(zh, en) what readers use instead"
                )
            if not absent and "missing" in item:
                raise DataError(f"{where}: `missing` is given, but every library has a call")
            if "cuda" in item and calls["torch"] is None:
                raise DataError(f"{where}: `cuda` is given, but PyTorch has no call to run on CUDA")
            used = item.get("inputs", data.get("inputs", []))
            if unknown := [name for name in used if name not in inputs]:
                raise DataError(
                    f"{where}: unknown input {', '.join(unknown)}; the inputs are "
                    f"{', '.join(inputs)} ({INPUTS})"
                )
            if stray := sorted(set(also) - {lib for lib, call in calls.items() if call}):
                raise DataError(
                    f"{where}: `also` gives spellings for {names(stray)}, which has "
                    "no call in this row; move them to the call or delete them"
                )
            for declared in item.get("differences", []):
                _check(declared, f"row {item['id']!r}", source, calls, used or [NO_INPUT], known)
            rows.append(
                Row(
                    item["id"],
                    data["id"],
                    source,
                    item.line,
                    item["zh"],
                    item["en"],
                    calls,
                    also,
                    used,
                    item.get("rtol", data.get("rtol", 1e-6)),
                    item.get("atol", data.get("atol", 0.0)),
                    item.get("random"),
                    item.get("differences", []),
                    item.get("missing"),
                    note=item.get("note"),
                    shared=data.get("differences", []),
                    cuda=item.get("cuda"),
                )
            )
        title = {"zh": data["zh"], "en": data["en"]}
        families.append(
            Family(
                data["id"], source, title, data.get("intro", {}), rows, data.get("differences", [])
            )
        )
    return families


def _check(declared: dict, who: str, source: str, calls: dict, used: list, known: list) -> None:
    """DataError, naming the declaration's line, when it names an environment that does not exist,
    a library without a call (`calls`: library -> call) or an input not run (`used`)."""
    where = f"{source}:{declared.line}: {who}"
    if stray := sorted(set(declared.get("environments", [])) - set(known)):
        raise DataError(
            f"{where}: unknown environment {', '.join(stray)}; the environments are "
            f"{', '.join(known)}"
        )
    if stray := sorted(set(declared["libraries"]) - {lib for lib, call in calls.items() if call}):
        raise DataError(f"{where} declares a difference of {names(stray)}, which has no call here")
    if stray := sorted(set(declared.get("inputs", [])) - set(used)):
        raise DataError(
            f"{where} declares a difference on input {', '.join(stray)}, which is not run here"
        )


def torch_code(row: Row, inputs: dict[str, dict]) -> dict:
    """The PyTorch code a row runs: its call and, by input id, the code that makes each input. The
    GPU run records it beside a `cuda:` row's results; the pages show them while it is unchanged."""
    return {"call": row.calls["torch"], "inputs": {n: inputs[n]["torch"] for n in row.inputs}}


def names(libraries: list[str]) -> str:
    """The libraries as pages and messages name them: `NumPy, PyTorch`."""
    return ", ".join(NAMES[library] for library in libraries)


def covers(declared: dict, environment: str, found: dict) -> bool:
    """Whether `declared` is the difference `found` (input, aspect, libraries) in `environment`."""
    return (
        declared["aspect"] == found["aspect"]
        and sorted(declared["libraries"]) == found["libraries"]
        and found["input"] in declared.get("inputs", [found["input"]])
        and environment in declared.get("environments", [environment])
    )


def reasons(row: Row, found: list[tuple[str, dict]]) -> list[dict]:
    """The declarations that explain what differed (`found`: environment, difference): the row's
    own, then the family's for what no row declaration explains."""
    own = [d for d in row.differences if any(covers(d, *item) for item in found)]
    rest = [item for item in found if not any(covers(d, *item) for d in own)]
    return own + [d for d in row.shared if any(covers(d, *item) for item in rest)]
