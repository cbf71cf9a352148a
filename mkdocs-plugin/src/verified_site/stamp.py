"""The verification stamp under each page's title, in the page's language.

Built from the record of the last test run (`verified.record`), which holds one run
per verification environment: the stamp leads with the default environment's run, then
lists every other set of versions the page was verified with, and what did not apply
there. No record, or a page or script changed since the run, gives "not verified in
this build": the stamp never guesses.
"""

from __future__ import annotations

import re
from datetime import datetime

from verified.record import PageVerification, overall_state, versions_label


def _en_count(n: int, noun: str = "example") -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# Stamp wording per locale. Each entry takes keyword arguments and returns text.
TEXT = {
    "zh": {
        "verified": lambda libs, date: f"已验证：{libs}，{date}",
        "verified_body": lambda n, env: (
            f"本页 {n} 个示例已在本次构建中全部运行（{env}），页面上的输出就是它们实际打印的结果。"
        ),
        "partial": lambda libs, date: f"部分验证：{libs}，{date}",
        "partial_body": lambda n, k, env: (
            f"本页 {n} 个示例已运行，并打印出页面上的输出（{env}）；"
            f"以下 {k} 个示例未在本次构建中验证："
        ),
        "failed": lambda k: f"本页有 {k} 个示例在本次构建中失败",
        "failed_body": lambda libs: f"页面上的输出可能与这些版本（{libs}）不符。失败的示例：",
        "unverified": lambda: "本次构建未验证",
        "unverified_body": lambda: (
            "本次构建没有运行本页示例的记录。运行 `make test` 即可执行示例并为页面加上验证标记。"
        ),
        "stale_body": lambda: "以下文件在上次测试运行之后有改动，运行 `make test` 重新验证：",
        "needs-cuda": lambda: "需要 CUDA，本次运行没有 GPU",
        "changed-since-gpu-run": lambda gpu_run: (
            f"需要 CUDA；{gpu_run} 在 GPU 上运行之后代码又有改动，"
            "请在有 GPU 的机器上重新运行 `make test-gpu`"
        ),
        "gpu_body": lambda k, device, libs, date: (
            f"需要 CUDA 的 {k} 个示例是在 {device} 上验证的（{libs}，{date}）。"
        ),
        "none_ran_body": lambda: "本页的示例都没有在本次构建中运行：",
        "unfinished": lambda: "本次运行中没有执行完",
        "not-run": lambda note: note,  # the author's reason, as written
        "also_verified": lambda libs, date, n: (
            f"本页示例也已用 {libs} 验证（{date}）：{n} 个示例打印的输出均符合预期。"
        ),
        "also_partial": lambda libs, date, n, k: (
            f"本页示例也用 {libs} 运行过（{date}），其中 {n} 个示例打印的输出符合预期，"
            f"以下 {k} 个示例未验证："
        ),
        "also_not_applicable": lambda libs, k: f"以下 {k} 个示例不适用于 {libs} 环境：",
        "all_not_applicable": lambda libs: f"本页的示例不适用于 {libs} 环境：",
        "also_unverified": lambda libs: f"本次构建没有用 {libs} 验证本页。",
        "failed_in": lambda libs: f"（{libs}）",
        "cuda-verified-once": lambda: "需要 CUDA 的示例只在 GPU 上验证一次，不在每个环境中重复验证",
        "needs-library": lambda libraries, environment: (
            f"需要 {'、'.join(libraries)}，这个环境没有安装"
        ),
    },
    "en": {
        "verified": lambda libs, date: f"Verified with {libs} on {date}",
        "verified_body": lambda n, env: (
            ("The only example on this page" if n == 1 else f"All {n} examples on this page")
            + f" ran in this build ({env}) and printed exactly the output shown."
        ),
        "partial": lambda libs, date: f"Partly verified with {libs} on {date}",
        "partial_body": lambda n, k, env: (
            f"{_en_count(n)} on this page ran and printed "
            f"the output shown ({env}); {_en_count(k)} {'was' if k == 1 else 'were'} not "
            "verified in this build:"
        ),
        "failed": lambda k: f"{_en_count(k)} on this page failed in this build",
        "failed_body": lambda libs: (
            f"The output shown may be wrong for these versions ({libs}). Failed:"
        ),
        "unverified": lambda: "Not verified in this build",
        "unverified_body": lambda: (
            "This build has no record of running this page's examples. "
            "Run `make test` to execute them and stamp the page."
        ),
        "stale_body": lambda: (
            "These files changed after the last test run; run `make test` to verify them again:"
        ),
        "needs-cuda": lambda: "needs CUDA; this run had no GPU",
        "changed-since-gpu-run": lambda gpu_run: (
            f"needs CUDA; its code changed after the GPU run of {gpu_run}: run `make test-gpu` "
            "on a GPU machine again"
        ),
        "gpu_body": lambda k, device, libs, date: (
            f"{'The example that needs' if k == 1 else f'The {k} examples that need'} CUDA "
            f"{'was' if k == 1 else 'were'} verified on {device} ({libs}, {date})."
        ),
        "none_ran_body": lambda: "None of this page's examples ran in this build:",
        "unfinished": lambda: "did not run to completion in this run",
        "not-run": lambda note: note,
        "also_verified": lambda libs, date, n: (
            f"Also verified with {libs} on {date}: "
            + ("the example" if n == 1 else f"all {n} examples")
            + " printed the expected output."
        ),
        "also_partial": lambda libs, date, n, k: (
            f"Also run with {libs} on {date}: {_en_count(n)} printed the expected output; "
            f"{_en_count(k)} {'was' if k == 1 else 'were'} not verified:"
        ),
        "also_not_applicable": lambda libs, k: (
            f"{_en_count(k)} {'does' if k == 1 else 'do'} not apply with {libs}:"
        ),
        "all_not_applicable": lambda libs: f"This page's examples do not apply with {libs}:",
        "also_unverified": lambda libs: f"This build did not verify this page with {libs}.",
        "failed_in": lambda libs: f" ({libs})",
        "cuda-verified-once": lambda: (
            "CUDA examples are verified once, by the GPU run, not per environment"
        ),
        "needs-library": lambda libraries, environment: (
            f"needs {', '.join(libraries)}, which is not installed there"
        ),
    },
}


def render_stamp(
    verifications: dict[str, PageVerification], record: dict | None, locale: str
) -> str:
    """Render a page's stamp as a Material admonition in the page's language.

    Args:
        verifications (dict[str, PageVerification]): environment -> the page's state in
            its run, the leading run first (`verified.record.verify_environments`); empty
            when the build has no record.
        record (dict | None): the record (for versions, device and date).
        locale (str): `"zh"` or `"en"`.

    Returns:
        str: Markdown for the stamp, or "" for a page without examples.

    Raises:
        KeyError: `locale` has no wording in `TEXT`.
    """
    text = TEXT[locale]
    if record is None or not verifications:
        return _admonition("note", text["unverified"](), text["unverified_body"]())
    (name, verification), *others = verifications.items()
    run = record["environments"].get(name)
    if overall_state(verifications) == "none":
        return ""
    state = verification.state
    failed = [
        f"`{example}`" + (text["failed_in"](libs=_run_libraries(record, e)) if e != name else "")
        for e, v in verifications.items()
        for example in v.failed
    ]
    if failed:
        failing = [e for e, v in verifications.items() if v.failed]
        libs = "; ".join(_run_libraries(record, e) for e in failing)
        return _admonition(
            "failure",
            text["failed"](k=len(failed)),
            text["failed_body"](libs=libs) + _bullets(failed),
        )
    also = "".join(_also(record, env, v, text) for env, v in others)
    if run is None:  # only other environments ran: the output shown was not checked
        return _admonition("note", text["unverified"](), text["unverified_body"]() + also)
    if state == "unverified":
        if verification.stale:
            body = text["stale_body"]() + _bullets(f"`{path}`" for path in verification.stale)
        elif verification.not_verified:
            body = text["none_ran_body"]() + _bullets(_reasons(verification.not_verified, text))
        else:
            body = text["unverified_body"]()
        return _admonition("note", text["unverified"](), body)
    env = run["environment"]
    libs = versions_label(env)
    date = _date(run)
    device = env.get("device") or "cpu"
    where = f"Python {env.get('python')}, {'CPU' if device == 'cpu' else device}"
    on_gpu = _gpu_sentence(verification.gpu, text, date) + also
    if state == "partial":
        missing = verification.not_verified
        body = text["partial_body"](n=verification.passed, k=len(missing), env=where)
        reasons = _bullets(_reasons(missing, text))
        title = text["partial"](libs=libs, date=date)
        return _admonition("warning", title, body + reasons + on_gpu)
    return _admonition(
        "success",
        text["verified"](libs=libs, date=date),
        text["verified_body"](n=verification.passed, env=where) + on_gpu,
    )


def _also(record: dict, env: str, verification: PageVerification, text: dict) -> str:
    """A paragraph on another environment's run of the page ("" when it has no examples)."""
    run = record["environments"][env]
    libs, date = versions_label(run["environment"]), _date(run)
    state = verification.state
    if state == "not-applicable":
        return (
            "\n\n"
            + text["all_not_applicable"](libs=libs)
            + _bullets(_reasons(verification.not_applicable, text))
        )
    if state in ("none", "failed"):  # failures are listed by the caller
        return ""
    if state == "unverified":
        return "\n\n" + text["also_unverified"](libs=libs)
    if state == "partial":
        missing = verification.not_verified
        n, k = verification.passed, len(missing)
        paragraph = text["also_partial"](libs=libs, date=date, n=n, k=k)
        paragraph += _bullets(_reasons(missing, text))
    else:
        paragraph = text["also_verified"](libs=libs, date=date, n=verification.passed)
    if verification.not_applicable:
        paragraph += "\n\n" + text["also_not_applicable"](
            libs=libs, k=len(verification.not_applicable)
        )
        paragraph += _bullets(_reasons(verification.not_applicable, text))
    return "\n\n" + paragraph


def _run_libraries(record: dict, env: str) -> str:
    return versions_label(record["environments"][env]["environment"])


def _date(run: dict) -> str:
    return datetime.fromisoformat(run["created"]).date().isoformat()


def _gpu_sentence(entries: list[dict], text: dict, date: str) -> str:
    """Where and with what the page's CUDA examples were verified, as a paragraph ("" if none).

    They may come from a GPU run made elsewhere, with other versions than the rest.
    """
    if not entries:
        return ""
    first = entries[0]
    versions = first.get("versions") or {}
    libs = " · ".join(filter(None, [f"Python {versions.get('python')}", versions_label(versions)]))
    date = str(first.get("gpu_run") or date)[:10]  # the GPU run's date, or this run's
    device = re.sub(r"^cuda \((.*)\)$", r"\1", first["device"])  # "cuda (NVIDIA H200)"
    sentence = text["gpu_body"](k=len(entries), device=device, libs=libs, date=date)
    return "\n\n" + sentence


def _reasons(entries: list[dict], text: dict):
    """`id`: why it was not verified, in the page's language (from the record's code)."""
    for entry in entries:
        yield f"`{entry['id']}`: {text[entry['reason']](**entry['details'])}"


def _bullets(items) -> str:
    return "\n\n" + "\n".join(f"- {item}" for item in items)


def _admonition(kind: str, title: str, body: str) -> str:
    indented = "\n".join(f"    {line}" if line else "" for line in body.splitlines())
    return f'!!! {kind} verification-stamp "{title}"\n\n{indented}\n'
