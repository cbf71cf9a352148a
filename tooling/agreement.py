"""Whether NumPy, PyTorch and TensorFlow computed the same thing: the comparison of the
cross-library reference (`tooling.reference_run`).

A `Result` is what one library returned (or raised), reduced to what compares across libraries.
`differing` says, per aspect, which labels (libraries) differ from the majority; a tie is
broken in favour of the `baseline`'s group. Results survive a trip through JSON, so that a
status can be recomputed from a published file.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

#: The spaces NumPy pads numbers with to align columns: after `[`, around `,`, before `]`.
_ALIGNMENT = re.compile(r"\[ +| *, +| +\]")
#: What is compared, in order (`differing` says which aspects it skips when others differ).
ASPECTS = ("raises", "shape", "dtype", "values", "shares memory")
#: Python types a library may return instead of an array, named as their dtype.
_PYTHON = {bool: "bool (Python)", int: "int (Python)", float: "float (Python)"}
#: What two results must have in common to agree in an aspect (values: `close`).
_KEYS = {
    "raises": lambda r: r.error is not None,
    "shape": lambda r: (r.many, r.shape),
    "dtype": lambda r: r.dtype,
    "shares memory": lambda r: r.shares,
}


@dataclass(frozen=True)
class Part:
    """One array of a result: `dtype` is the library's dtype name without prefix (`float32`), or
    `"dtype"` when the library returned a dtype (its name is then `values`)."""

    shape: tuple[int, ...]
    dtype: str
    values: object  # a NumPy array, or a dtype's name

    def text(self) -> str:
        """The values as pages show them: NumPy's printing, 4 decimals (tiny, huge: 1e-05), without
        the spaces that align its columns (`[1., 10.]`, not `[ 1., 10.]`)."""
        if self.dtype == "dtype":
            return str(self.values)
        with np.printoptions(precision=4, threshold=24, edgeitems=3):
            text = np.array2string(np.asarray(self.values), separator=", ")
        return _ALIGNMENT.sub(lambda m: m[0].strip(" ") + (" " if "," in m[0] else ""), text)


@dataclass(frozen=True)
class Result:
    """What one library returned: its `parts` (`many`: a tuple or list of them), whether it shares
    memory with the input (None: no input, or nothing to share), or the `error` it raised
    (`"ValueError: ..."`, parts then empty)."""

    parts: tuple[Part, ...] = ()
    many: bool = False
    shares: bool | None = None
    error: str | None = None

    @property
    def shape(self) -> object:
        shapes = tuple(part.shape for part in self.parts)
        return shapes if self.many else shapes[0]

    @property
    def dtype(self) -> str:
        dtypes = ", ".join(part.dtype for part in self.parts)
        return f"({dtypes})" if self.many else dtypes

    def __str__(self) -> str:
        if self.error:
            return f"raises {self.error}"
        values = ", ".join(" ".join(part.text().split()) for part in self.parts)
        shares = ", shares memory with the input" if self.shares else ""
        return f"{self.dtype} {self.shape} {f'({values})' if self.many else values}{shares}"

    def to_json(self) -> dict:
        """This result as JSON data: NaN and infinities as the strings `nan`, `inf`, `-inf`, and
        each part's `text` as pages show it (`Part.text`)."""
        parts = [
            {"shape": list(p.shape), "dtype": p.dtype, "values": _plain(p.values), "text": p.text()}
            for p in self.parts
        ]
        return {"parts": parts, "many": self.many, "shares": self.shares, "error": self.error}


def _plain(values: object) -> object:
    if isinstance(values, str):
        return values
    if np.iscomplexobj(values):
        return {"real": _plain(np.real(values)), "imag": _plain(np.imag(values))}
    return _finite(np.asarray(values).tolist())


def _finite(listed: object) -> object:
    if isinstance(listed, list):
        return [_finite(item) for item in listed]
    return str(listed) if isinstance(listed, float) and not math.isfinite(listed) else listed


def _part(value: object) -> Part:
    """The `Part` of one tensor, array, number or dtype (values copied: a later write through shared
    memory cannot change them). TypeError for anything else."""
    name = type(value).__module__.split(".")[0]
    if name == "torch" and hasattr(value, "detach"):
        tensor = value.detach().cpu().resolve_conj().resolve_neg()
        try:
            array = tensor.numpy().copy()
        except TypeError:  # bfloat16 and other dtypes NumPy lacks: compare as float64
            array = tensor.double().numpy()
        return Part(tuple(array.shape), str(value.dtype).removeprefix("torch."), array)
    if name == "tensorflow" and hasattr(value, "numpy"):
        array = np.array(value.numpy(), copy=True)
        return Part(tuple(array.shape), value.dtype.name, array)
    if name in ("torch", "tensorflow", "numpy") and "dtype" in type(value).__name__.lower():
        text = str(value).removeprefix("torch.").removeprefix("<dtype: '").removesuffix("'>")
        return Part((), "dtype", text)
    if type(value) in _PYTHON:
        return Part((), _PYTHON[type(value)], np.array(value))
    array = np.array(value, copy=True)
    if array.dtype.kind not in "biufc":
        raise TypeError(f"{type(value).__name__} {value!r:.60}, not a tensor or array of numbers")
    return Part(tuple(array.shape), array.dtype.name, array)


def as_result(value: object, given: object = None) -> Result:
    """The `Result` of a returned value: a torch or TensorFlow tensor, a NumPy array or scalar, a
    Python number, a dtype, or a tuple or list of those; `given` is the input it was computed
    from (None: none), to tell whether it shares memory with it. TypeError for anything else."""
    many = isinstance(value, tuple | list) and not isinstance(value, str)
    items = list(value) if many else [value]
    parts = tuple(_part(item) for item in items)
    shares = [] if given is None else [_shares(item, given) for item in items]
    known = [flag for flag in shares if flag is not None]
    return Result(parts, many, any(known) if known else None)


def _shares(value: object, given: object) -> bool | None:
    """Whether `value` uses the memory of `given` (None when `given` holds no element)."""
    library = type(given).__module__.split(".")[0]
    if library == "torch":
        if not given.numel():
            return None
        return hasattr(value, "untyped_storage") and (
            value.untyped_storage().data_ptr() == given.untyped_storage().data_ptr()
        )
    if np.size(given) == 0:
        return None
    if library == "tensorflow":  # np.asarray gives a view of a CPU tensor's buffer
        return type(value).__module__.startswith("tensorflow") and bool(
            np.shares_memory(np.asarray(value), np.asarray(given))
        )
    return isinstance(value, np.ndarray) and bool(np.shares_memory(value, given))


def raised(exc: BaseException) -> Result:
    """The `Result` of a call that raised `exc`: its type and the first line of its message."""
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return Result(error=f"{type(exc).__name__}: {message}".rstrip(": "))


def close(a: Part, b: Part, rtol: float, atol: float) -> bool:
    """Whether two parts hold the same values within the tolerance of `numpy.allclose`, NaN equal to
    NaN; booleans as 0 and 1."""
    if "dtype" in (a.dtype, b.dtype):
        return a.values == b.values
    x, y = (np.asarray(p.values) for p in (a, b))
    x, y = (v.astype(float) if v.dtype == bool else v for v in (x, y))
    return x.shape == y.shape and bool(np.allclose(x, y, rtol, atol, equal_nan=True))


def differing(
    results: dict[str, Result],
    baseline: str,
    rtol: float = 1e-6,
    atol: float = 0.0,
    aspects: tuple[str, ...] = ASPECTS,
) -> dict[str, frozenset[str]]:
    """Aspect (of `aspects`) -> the labels of `results` whose result differs in it from the
    majority (ties: from `baseline`'s group, else the first); empty when they agree. Whether
    they raised is compared among all; the other aspects among those that returned. Dtypes are
    compared only when the results have as many parts, values only when the shapes agree."""

    def same(aspect: str, a: Result, b: Result) -> bool:
        if aspect == "values":
            return all(close(x, y, rtol, atol) for x, y in zip(a.parts, b.parts, strict=True))
        return _KEYS[aspect](a) == _KEYS[aspect](b)

    found: dict[str, frozenset[str]] = {}
    returned = [label for label, result in results.items() if result.error is None]
    parts = {(results[label].many, len(results[label].parts)) for label in returned}
    for aspect in ASPECTS:
        skipped = aspect == "values" and "shape" in found or aspect == "dtype" and len(parts) > 1
        if aspect not in aspects or skipped:
            continue
        labels = list(results) if aspect == "raises" else returned
        known = [k for k in labels if aspect != "shares memory" or results[k].shares is not None]
        groups: list[list[str]] = []  # each label joins the first group whose first it matches
        for label in known:
            group = next((g for g in groups if same(aspect, results[g[0]], results[label])), [])
            if not group:
                groups.append(group)
            group.append(label)
        if len(groups) > 1:
            top = max(len(g) for g in groups)
            largest = [g for g in groups if len(g) == top]
            majority = next((g for g in largest if baseline in g), largest[0])
            found[aspect] = frozenset(k for k in known if k not in majority)
    return found
