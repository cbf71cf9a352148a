"""The verification stamp under each page's title: the default environment's run in the record,
then every other set of versions the page was verified with. No record, or a page or script
changed since the run, gives "not verified in this build": it never guesses.
"""

from __future__ import annotations

from textwrap import indent

from verified.record import PageVerification, overall_state, versions_label
from verified_site.wording import wording


def render_stamp(
    verifications: dict[str, PageVerification], record: dict | None, locale: str
) -> str:
    """A page's stamp, a Material admonition in `locale`; "" for a page without examples.
    `verifications`: `verified.record.verify_environments`'s, the leading run first."""
    words = wording(locale)
    text = {**words["stamp"], **words["reasons"]}
    if record is None or not verifications:
        return admonition("note", text["unverified"](), text["unverified_body"]())
    if overall_state(verifications) == "none":
        return ""
    runs = record["environments"]
    libs = {env: versions_label(runs[env]["environment"]) for env in verifications if env in runs}
    (name, verification), *others = verifications.items()
    failed = [
        f"`{example}`" + (text["failed_in"](libs=libs[env]) if env != name else "")
        for env, v in verifications.items()
        for example in v.failed
    ]
    if failed:
        failing = "; ".join(libs[env] for env, v in verifications.items() if v.failed)
        body = text["failed_body"](libs=failing) + _bullets(failed)
        return admonition("failure", text["failed"](k=len(failed)), body)
    also = "".join(_also(runs[env], libs[env], v, text) for env, v in others)
    if name not in runs:  # only other environments ran: the output shown was not checked
        return admonition("note", text["unverified"](), text["unverified_body"]() + also)
    if verification.state == "unverified":
        if verification.stale:
            body = text["stale_body"]() + _bullets(f"`{path}`" for path in verification.stale)
        elif verification.not_verified:
            body = text["none_ran_body"]() + _bullets(_reasons(verification.not_verified, text))
        else:
            body = text["unverified_body"]()
        return admonition("note", text["unverified"](), body)
    env, date = runs[name]["environment"], runs[name]["created"][:10]
    where = f"Python {env.get('python')}, {env['gpu'] if env.get('device') == 'cuda' else 'CPU'}"
    on_gpu = _gpu_sentence(verification.gpu, text, date) + also
    if verification.state == "partial":
        missing = verification.not_verified
        body = text["partial_body"](n=verification.passed, k=len(missing), env=where)
        title = text["partial"](libs=libs[name], date=date)
        return admonition("warning", title, body + _bullets(_reasons(missing, text)) + on_gpu)
    body = text["verified_body"](n=verification.passed, env=where) + on_gpu
    return admonition("success", text["verified"](libs=libs[name], date=date), body)


def _also(run: dict, libs: str, verification: PageVerification, text: dict) -> str:
    """A paragraph on another environment's run of the page ("" when it has no examples)."""
    state, date, skipped = verification.state, run["created"][:10], verification.not_applicable
    if state == "not-applicable":
        return "\n\n" + text["all_not_applicable"](libs=libs) + _bullets(_reasons(skipped, text))
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
    if skipped:
        paragraph += "\n\n" + text["also_not_applicable"](libs=libs, k=len(skipped))
        paragraph += _bullets(_reasons(skipped, text))
    return "\n\n" + paragraph


def _gpu_sentence(entries: list[dict], text: dict, date: str) -> str:
    """Where and with what versions the page's CUDA examples were verified ("" if none)."""
    if not entries:
        return ""
    versions = entries[0].get("versions") or {}
    libs = " · ".join(filter(None, [f"Python {versions.get('python')}", versions_label(versions)]))
    date = str(entries[0].get("gpu_run") or date)[:10]
    return "\n\n" + text["gpu_body"](k=len(entries), device=entries[0]["gpu"], libs=libs, date=date)


def _reasons(entries: list[dict], text: dict):
    """`id`: why it was not verified, in the page's language."""
    for entry in entries:
        yield f"`{entry['id']}`: {text[entry['reason']](**entry['details'])}"


def _bullets(items) -> str:
    return "\n\n" + "\n".join(f"- {item}" for item in items)


def admonition(kind: str, title: str, body: str, css: str = "verification-stamp") -> str:
    """A Material admonition `!!! kind css "title"` with `body` indented under it."""
    return f'!!! {kind} {css} "{title}"\n\n{indent(body, "    ")}\n'
