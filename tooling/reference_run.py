"""Running the rows of the cross-library reference (`tooling.reference`) and judging them: what
each library returns on each input, compared by `tooling.agreement`, against the differences the
data declares. Needs NumPy (the examples stage has it; the site build reads the record instead).
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings
from types import ModuleType

import numpy as np

from tooling.agreement import ASPECTS, Result, as_result, differing, raised
from tooling.reference import (
    INPUTS,
    LIBRARIES,
    NAMES,
    NO_INPUT,
    Family,
    Row,
    covers,
    names,
    torch_code,
)


def _evaluate(code: str, modules: dict, given: object) -> object:
    """Run a row's code (statements, then an expression on its last line) with `x` bound to
    `given`, and return the expression's value; what it prints is discarded."""
    *body, last = code.strip().splitlines()
    namespace = {**modules, "x": given}
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec("\n".join(body), namespace)  # noqa: S102 - the reference's own data
        return eval(last, namespace)  # noqa: S307


class RowProblem(Exception):
    """A call that is no result to compare: it names no function of the library, or returns
    something that is not numbers (an in-place operation's None, a string)."""


#: Errors that mean the code is wrong, not that the library refused the input.
_MISTAKES = (NameError, ImportError, SyntaxError)


def outcome(code: str, library: str, modules: dict, given: dict | None) -> Result:
    """What `code` gives in `library` (modules: `np`, `torch`, `tf`) on a fresh copy of the input
    `given` (None: no input); an error `Result` when the library raised. RowProblem when the code
    names something the library lacks or returns something that is not numbers, a dtype or a
    tuple of those."""
    value = None if given is None else _evaluate(given[library], modules, None)
    try:
        returned = _evaluate(code, modules, value)
    except Exception as exc:  # noqa: BLE001 - what the library raised is the result
        # A name the library's module lacks (np.transpos) is a mistake in the row, not a result.
        if isinstance(exc, _MISTAKES) or isinstance(getattr(exc, "obj", None), ModuleType):
            raise RowProblem(f"`{code}` fails: {type(exc).__name__}: {exc}") from None
        return raised(exc)
    try:
        return as_result(returned, value)
    except TypeError as exc:
        raise RowProblem(
            f"`{code}` returns {exc}; its last line must give the result (an in-place operation "
            "returns None: give the tensor after it)"
        ) from None


def judge(row: Row, results: dict[str, dict[str, Result]], environment: str) -> dict:
    """The record row of `row` from its `results` (input -> library -> Result) in `environment`:
    status, what differed and the problems that fail it (an undeclared difference, a declared one
    that no longer holds, a raises declaration naming the wrong errors), each naming the data
    file's line, the row, the input, the libraries and their results."""
    # A random row's values are not compared across libraries.
    aspects = tuple(a for a in ASPECTS if a != "values") if row.random else ASPECTS
    found, problems = [], []
    for name, by_library in results.items():
        for aspect, odd in differing(by_library, "numpy", row.rtol, row.atol, aspects).items():
            found.append({"input": name, "aspect": aspect, "libraries": sorted(odd)})
    where = f"{row.source}:{row.line}: row {row.id!r} in environment {environment}"
    for item in found:
        if not any(covers(d, environment, item) for d in row.differences + row.shared):
            odd, aspect = item["libraries"], item["aspect"]
            shown = "\n".join(f"    {NAMES[lib]}: {r}" for lib, r in results[item["input"]].items())
            problems.append(
                f"{where}, input {item['input']!r}: {names(odd)} "
                f"differ{'s' if len(odd) == 1 else ''} from the others in {aspect}:\n{shown}\n"
                f"  If the difference is real, declare it under `differences:` (aspect: {aspect}, "
                f"libraries: [{', '.join(odd)}], its `kind` as the schema lists them, zh and en "
                "saying why); else correct the call."
            )
    problems += stale(row.differences, found, environment, row.source, f"row {row.id!r}")
    record = {
        "results": {n: {lib: r.to_json() for lib, r in by.items()} for n, by in results.items()},
        "differences": found,
        "problems": problems,
    }
    problems += unraised(row.differences, [record], environment, row.source, f"row {row.id!r}")
    status = "failed" if problems else "missing" if row.missing else "differs" if found else "agree"
    return {"family": row.family, "status": status, **record}


def run_row(row: Row, inputs: dict[str, dict], modules: dict, environment: str) -> dict:
    """Run `row`'s calls on each of its inputs and judge them (`judge`); a call that gives no
    result (`RowProblem`) or fails `_checks` fails the row, naming the line."""
    results: dict[str, dict[str, Result]] = {}
    extra = []
    for name in row.inputs or [NO_INPUT]:
        given, by_library = inputs.get(name), results.setdefault(name, {})
        for library, call in row.calls.items():
            where = f"{row.source}:{row.line}: row {row.id!r}, input {name!r}, {NAMES[library]}"
            try:
                if call is not None:
                    result = by_library[library] = outcome(call, library, modules, given)
                    extra += _checks(row, library, name, given, modules, result)
            except RowProblem as exc:
                extra.append(f"{where}: {exc}")
                by_library.pop(library, None)
    judged = judge(row, results, environment)
    if extra:
        judged.update(status="failed", problems=judged["problems"] + extra)
    return judged


def run_on_device(row: Row, inputs: dict[str, dict], modules: dict, device: str) -> dict:
    """The record row of a `cuda:` row's PyTorch call run on the CPU and on `device` (`cuda` in
    the GPU run), its input made there too: status (`agree`, `differs`, `failed`), `device`,
    `results` (input -> `cpu` and `device` -> `Result.to_json()`), `differences` (input, aspect)
    and `problems`; `code`, the PyTorch code that ran, tells the pages whether it still holds."""
    torch, call = modules["torch"], row.calls["torch"]
    results, found, problems = {}, [], []
    for name in row.inputs or [NO_INPUT]:
        given = inputs.get(name)
        try:
            here = outcome(call, "torch", modules, given)
            with torch.device(device):  # factory functions, the input's too, make it there
                if given is not None:  # an input made elsewhere would run the call on the CPU
                    made = _evaluate(given["torch"], modules, None)
                    if made.device.type != torch.device(device).type:
                        raise RowProblem(f"its input is made on {made.device}, not {device}")
                there = outcome(call, "torch", modules, given)
        except RowProblem as exc:
            problems.append(f"{row.source}:{row.line}: row {row.id!r}, input {name!r}: {exc}")
            continue
        results[name] = {"cpu": here.to_json(), "device": there.to_json()}
        pair = {"cpu": here, "device": there}
        for aspect in differing(pair, "cpu", row.rtol, row.atol):
            found.append({"input": name, "aspect": aspect})
    status = "failed" if problems else "differs" if found else "agree"
    return {
        "family": row.family,
        "status": status,
        "device": device,
        "results": results,
        "differences": found,
        "problems": problems,
        "code": torch_code(row, inputs),
    }


def _checks(row, library, name, given, modules, result) -> list[str]:
    """The problems of a call's `result`: an other spelling that gives something else, a random
    row's value outside its range, values that change when the call runs again (a random one
    with the seed in its code)."""
    problems = []
    for spelling in row.also.get(library, []):
        other = outcome(spelling, library, modules, given)
        if differing({"call": result, "also": other}, "call", row.rtol, row.atol):
            problems.append(
                f"{row.source}:{row.line}: row {row.id!r}, input {name!r}: {NAMES[library]}'s "
                f"`{spelling}` (under `also`) gives {other}, but `{row.calls[library]}` gives "
                f"{result}; list only spellings of the same operation, or give it a row of its own"
            )
    if result.error:
        return problems
    where = f"{row.source}:{row.line}: row {row.id!r}, input {name!r}, {NAMES[library]}"
    if row.random:
        low, high = row.random["low"], row.random["high"]
        values = [v for part in result.parts for v in np.ravel(part.values).tolist()]
        if not all(low <= v <= high for v in values):
            problems.append(f"{where}: gives {result}, outside the declared range [{low}, {high}]")
            return problems
    again = outcome(row.calls[library], library, modules, given)
    if differing({"first": result, "again": again}, "first", aspects=("raises", "shape", "values")):
        fix = "seed it in the row's code" + ("" if row.random else " and add `random: {low, high}`")
        problems.append(f"{where}: gives {result}, then {again}: {fix}")
    return problems


def input_problems(inputs: dict[str, dict], modules: dict) -> list[str]:
    """One message per shared input whose libraries' versions differ in shape, dtype or values
    (the rows compare what the libraries do, not what they were given)."""
    problems = []
    for item in inputs.values():
        made = {lib: outcome(item[lib], lib, modules, None) for lib in LIBRARIES}
        if odd := differing(made, "numpy", aspects=("raises", "shape", "dtype", "values")):
            shown = "; ".join(f"{NAMES[lib]}: {result}" for lib, result in made.items())
            problems.append(
                f"{INPUTS}: input {item['id']!r} differs in {', '.join(odd)} between the "
                f"libraries ({shown}); make each library's copy the same"
            )
    return problems


def run_family(
    family: Family, inputs: dict[str, dict], modules: dict, environment: str
) -> tuple[dict, list[str]]:
    """Record rows of every row of `family` in `environment`, by `Row.key`, and the problems of the
    family's own declared differences (`differences:` beside `rows:`) that no row shows."""
    rows = {row.key: run_row(row, inputs, modules, environment) for row in family.rows}
    found = [item for row in rows.values() for item in row["differences"]]
    problems = stale(family.differences, found, environment, family.source, "the family")
    return rows, problems + unraised(
        family.differences, rows.values(), environment, family.source, "the family"
    )


#: An exception's name in a declaration's text (`InvalidArgumentError`), and a Markdown link, whose
#: text may name the errors of another case, shown where it leads.
_EXCEPTION = re.compile(r"\b[A-Z]\w*(?:Error|Exception)\b")
_LINK = re.compile(r"\[(?:[^][]|\[[^]]*\])*\]\([^)]*\)")


def unraised(declared: list, records, environment: str, source: str, who: str) -> list[str]:
    """One message per `raises` declaration of `who` (a row, the family) in the data file `source`
    whose text (either language, links aside) names exceptions but not every one that the calls
    it covers in `records` (record rows) raised in `environment`: readers take the named errors
    for what they will see."""
    problems = []
    for d in declared:
        if d["aspect"] != "raises" or environment not in d.get("environments", [environment]):
            continue
        named = set(_EXCEPTION.findall(_LINK.sub("", f"{d['en']} {d['zh']}")))
        raised = {
            result["error"].partition(":")[0]
            for record in records
            for item in record["differences"]
            if covers(d, environment, item)
            for result in record["results"][item["input"]].values()
            if result["error"]
        }
        if named and (unnamed := sorted(raised - named)):
            problems.append(
                f"{source}:{d.line}: {who} declares a difference in raises whose text names "
                f"{', '.join(sorted(named))}, but the calls it covers also raised "
                f"{', '.join(unnamed)} in environment {environment}; name what they raise"
            )
    return problems


def stale(declared: list, found: list[dict], environment: str, source: str, who: str) -> list[str]:
    """One message per declaration of `who` (a row, the family) in the data file `source` that
    applies in `environment` but that no difference `found` shows, naming its line."""
    return [
        f"{source}:{d.line}: {who} declares that {names(d['libraries'])} "
        f"differ{'s' if len(d['libraries']) == 1 else ''} in {d['aspect']}, which no longer "
        f"holds in environment {environment}; correct or delete the declaration"
        for d in declared
        if environment in d.get("environments", [environment])
        and not any(covers(d, environment, item) for item in found)
    ]
