"""Pull diagnostics: ``textDocument/diagnostic`` and ``workspace/diagnostic``.

Registered only for clients that pull (see ``lifecycle.initialize``); the
others get each lint's diagnostics pushed (``Session.show``).  A result id
the client already has is answered "unchanged".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from .guard import guard

if TYPE_CHECKING:  # pragma: no cover
    from ..server import ServelintServer


@guard()
async def document_diagnostic(ls: "ServelintServer", params: types.DocumentDiagnosticParams):
    session = ls.session
    uri = params.text_document.uri
    st = session.docs.get(uri)
    if st is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    if session.settings_for(st.path).lint_run != "onSave" or st.result_id is None:
        fresh = await session.lint(uri)
        st = fresh or st
    if st.result_id is not None and params.previous_result_id == st.result_id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=st.result_id)
    items = st.shown.encoded() if st.shown is not None else []
    return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=st.result_id)


@guard(lambda: types.WorkspaceDiagnosticReport(items=[]))
async def workspace_diagnostic(ls: "ServelintServer", params: types.WorkspaceDiagnosticParams):
    session = ls.session
    previous = {p.uri: p.value for p in params.previous_result_ids}
    items: list = []
    for uri in list(session.docs):
        st = session.docs.get(uri)
        if st is None:
            continue
        if session.settings_for(st.path).lint_run != "onSave" or st.result_id is None:
            st = await session.lint(uri) or st
        if st.result_id is None:
            continue
        if previous.get(uri) == st.result_id:
            items.append(types.WorkspaceUnchangedDocumentDiagnosticReport(
                uri=uri, version=st.diagnostics_version, result_id=st.result_id))
        else:
            items.append(types.WorkspaceFullDocumentDiagnosticReport(
                uri=uri, version=st.diagnostics_version, items=st.shown.encoded() if st.shown is not None else [],
                result_id=st.result_id))
    # Files on disk that are not open: the Problems panel shows them too.
    items.extend(await ls.scan.reports(previous, params.work_done_token))
    return types.WorkspaceDiagnosticReport(items=items)
