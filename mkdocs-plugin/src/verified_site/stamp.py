"""The verification stamp under each page's title, in the page's language.

Built from the record of the last test run (`verified.record`), which holds one run
per verification environment: the stamp leads with the default environment's run, then
lists every other set of versions the page was verified with, and what did not apply
there. No record, or a page or script changed since the run, gives "not verified in
this build": the stamp never guesses.
"""

from __future__ import annotations

from datetime import datetime

from verified.record import PageVerification, overall_state, versions_label
from verified_site.wording import wording


def render_stamp(
    verifications: dict[str, PageVerification], record: dict | None, locale: str
) -> str:
    """Markdown for a page's stamp, a Material admonition in the page's language (`"zh"`, `"en"`);
    "" for a page without examples.

    `verifications`: environment -> the page's state in its run, the leading run first
    (`verified.record.verify_environments`), empty when the build has no record; `record` gives
    versions, device and date. FileNotFoundError when `locale` has no wording
    (`verified_site/locales/<locale>.yml`)."""
    words = wording(locale)
    text = {**words["stamp"], **words["reasons"]}
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
    where = f"Python {env.get('python')}, {env['gpu'] if env.get('device') == 'cuda' else 'CPU'}"
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
    date = str(first.get("gpu_run") or date)[:10]
    return "\n\n" + text["gpu_body"](k=len(entries), device=first["gpu"], libs=libs, date=date)


def _reasons(entries: list[dict], text: dict):
    """`id`: why it was not verified, in the page's language (from the record's code)."""
    for entry in entries:
        yield f"`{entry['id']}`: {text[entry['reason']](**entry['details'])}"


def _bullets(items) -> str:
    return "\n\n" + "\n".join(f"- {item}" for item in items)


def _admonition(kind: str, title: str, body: str) -> str:
    indented = "\n".join(f"    {line}" if line else "" for line in body.splitlines())
    return f'!!! {kind} verification-stamp "{title}"\n\n{indented}\n'
