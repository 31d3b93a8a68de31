"""Code actions: the diagnostics' own fixes, suppressions, and fix-all.

Fixes come from the ``data`` the diagnostic was published with, so they need
no second lint; the edits carry the version they were computed for, and the
client refuses them if the document has changed since.  Published fixes are
candidates: only those a re-lint shows to work are offered, and that re-lint
happens here, when a fix is asked for, not on every keystroke.  Where to write a
suppression comment is the engine's decision (``suppress.suppression_edit``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from lsprotocol import types

from ... import suppress
from .. import convert
from .guard import guard

if TYPE_CHECKING:  # pragma: no cover
    from ..server import ServelintServer
    from ..session import DocState

QUICKFIX = types.CodeActionKind.QuickFix.value
FIX_ALL = "source.fixAll.servelint"


def _wanted(kind: str, only: list[str] | None) -> bool:
    # Kinds are hierarchical: asking for "source" includes "source.fixAll.servelint".
    if not only:
        return kind == QUICKFIX
    return any(kind == k or kind.startswith(f"{k}.") for k in (str(getattr(k, "value", k)) for k in only))


def _pos(p: types.Position) -> tuple[int, int]:
    return p.line, p.character


def _overlaps(a: types.Range, b: types.Range) -> bool:
    a0, a1, b0, b1 = _pos(a.start), _pos(a.end), _pos(b.start), _pos(b.end)
    return a0 <= b1 and b0 <= a1


def _data_of(st: "DocState", d: types.Diagnostic) -> dict | None:
    """The diagnostic's data, or the one the server published for it (some
    clients, e.g. Neovim 0.7, do not send ``data`` back)."""
    if isinstance(d.data, dict):
        return d.data
    k = st.shown.index(d) if st.shown is not None else None
    data = st.shown.data(k) if k is not None else None
    return data if isinstance(data, dict) else None


async def code_actions(ls: "ServelintServer", params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    st = ls.session.docs.get(uri)
    if st is None:
        return []
    only = params.context.only
    out: list[types.CodeAction] = []
    if _wanted(QUICKFIX, only):
        for d in params.context.diagnostics:
            if d.source != convert.SOURCE or not _overlaps(d.range, params.range):
                continue
            data = _data_of(st, d)
            if data is None:
                continue
            out.extend(_fix_actions(ls, d, data, await _working(ls, st, d, data)))
            action = await _suppress_action(ls, st, d, data)
            if action is not None:
                out.append(action)
    if (only is None or _wanted(FIX_ALL, only)) and not (only is None and not params.context.diagnostics):
        action = await _fix_all(ls, uri)
        if action is not None:
            out.append(action)
    return out


async def _working(ls: "ServelintServer", st: "DocState", d: types.Diagnostic, data: dict) -> set[int] | None:
    """Indices of ``d``'s published fixes that a re-lint shows to work; None
    when ``d`` is not from the current analysis (its edits then carry an old
    version, which the client refuses, or are not offered: see ``_current``)."""
    if not data.get("fixes") or st.result is None or data.get("version") != st.result_version:
        return None
    k = st.latest.index(d) if st.latest is not None else None
    if k is None:
        return None
    return (await ls.session.verified_fixes(st.result, [st.latest.origins[k]]))[0]


def _fix_actions(ls: "ServelintServer", d: types.Diagnostic, data: dict,
                 working: set[int] | None = None) -> list[types.CodeAction]:
    out = []
    fixes = data.get("fixes")
    if not isinstance(fixes, list):
        return out
    for i, fx in enumerate(fixes):
        if working is not None and i not in working:
            continue
        if not isinstance(fx, dict) or not isinstance(fx.get("title"), str):
            continue
        edits = convert.text_edits_from_json(fx.get("edits"))
        if edits is None or not (ls.session.document_changes or _current(ls, edits)):
            continue
        out.append(
            types.CodeAction(
                title=fx["title"],
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[d],
                is_preferred=bool(fx.get("preferred")),
                edit=convert.workspace_edit(edits, ls.session.document_changes),
            )
        )
    return out


def _current(ls: "ServelintServer", edits: convert.DocEdits) -> bool:
    """Whether every edit was computed on the text the editor has now.

    A client without ``documentChanges`` cannot be told the version an edit
    is for: an edit made for an older version would land at shifted
    positions, so it is not offered at all."""
    for uri, (version, _) in edits.items():
        doc = ls.workspace.text_documents.get(uri)
        if (doc.version if doc is not None else None) != version:
            return False
    return True


async def _suppress_action(ls: "ServelintServer", st: "DocState", d: types.Diagnostic, data: dict) -> types.CodeAction | None:
    name = data.get("name")
    version = data.get("version")
    result = st.result
    if not isinstance(name, str) or data.get("origin") or result is None or version != st.result_version:
        # Only for text the server has analysed at the diagnostic's version.
        return None
    src = ls.session.source(st, result)
    span = convert.span_of(src, d.range)
    doc = ls.text_document(st.uri)
    language_id = doc.language_id if doc is not None else None
    loop = asyncio.get_running_loop()
    edit = await loop.run_in_executor(
        ls.session.executor,
        lambda: suppress.suppression_edit(st.path, result.source.text, span, name,
                                          language_id=language_id, parsed=result.parsed),
    )
    if edit is None:
        return None
    code = d.code if isinstance(d.code, str) else name
    where = "on this line" if edit.scope == "line" else "for this launch"
    text_edit = types.TextEdit(range=convert.lsp_range(src, edit.span), new_text=edit.new_text)
    return types.CodeAction(
        title=f"Suppress {code} {where}",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[d],
        edit=convert.workspace_edit({st.uri: (version, [text_edit])}, ls.session.document_changes),
    )


async def _fix_all(ls: "ServelintServer", uri: str) -> types.CodeAction | None:
    """Every safe fix of the document as it is now, skipping any that would
    touch text another chosen fix already changes."""
    st = await ls.session.lint(uri, publish=False)
    if st is None:
        return None
    chosen: convert.DocEdits = {}
    taken: dict[str, list[types.Range]] = {}
    count = 0
    latest = st.latest
    origins = latest.origins if latest is not None else []
    fixable = [k for k, o in enumerate(origins) if any(f.safe for f in o.fixes)]
    working = dict(zip(fixable, await ls.session.verified_fixes(st.result, [origins[k] for k in fixable])))
    # Only a diagnostic with a safe fix can add one: the others are not decoded.
    for k in fixable:
        data = latest.data(k)
        data = data if isinstance(data, dict) else {}
        fixes = [f for i, f in enumerate(data.get("fixes") or [])
                 if isinstance(f, dict) and f.get("safe") and i in working.get(k, ())]
        fixes.sort(key=lambda f: not f.get("preferred"))
        for fx in fixes:
            edits = convert.text_edits_from_json(fx.get("edits"))
            if edits is None:
                continue
            clash = any(
                _overlaps(te.range, other)
                for u, (_, tes) in edits.items()
                for te in tes
                for other in taken.get(u, [])
            )
            if clash:
                continue
            for u, (_, tes) in edits.items():
                taken.setdefault(u, []).extend(te.range for te in tes)
            convert.merge_edits(chosen, edits)
            count += 1
            break
    if not count:
        return None
    return types.CodeAction(
        title=f"Fix all safe servelint problems ({count})",
        kind=FIX_ALL,
        edit=convert.workspace_edit(chosen, ls.session.document_changes),
    )


@guard(list)
async def code_action(ls: "ServelintServer", params: types.CodeActionParams):
    return await code_actions(ls, params)


def register(server: "ServelintServer") -> None:
    server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
    )(code_action)
