"""didOpen, didChange, didSave, didClose: the documents the session lints.

Every event that may change a document's diagnostics bumps its stamp and
schedules a lint; documents that read the changed file (a --config file
being edited) are linted again too.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from lsprotocol import types

from ..session import DocState, path_of
from .guard import guard

if TYPE_CHECKING:  # pragma: no cover
    from ..server import ServelintServer


@guard()
def did_open(ls: "ServelintServer", params: types.DidOpenTextDocumentParams) -> None:
    session = ls.session
    uri = params.text_document.uri
    st = session.docs.get(uri) or DocState(uri, path_of(uri))
    st.stamp += 1
    session.docs[uri] = st
    session.schedule(uri, 0)
    session.touch_dependents(st.path)


@guard()
def did_change(ls: "ServelintServer", params: types.DidChangeTextDocumentParams) -> None:
    session = ls.session
    uri = params.text_document.uri
    st = session.docs.get(uri)
    if st is None:
        return
    st.stamp += 1
    on_type = session.settings_for(st.path).lint_run != "onSave"
    # onSave: the analysis still follows the text (hover and completion
    # need it) but the diagnostics shown change only on save.
    session.schedule(uri, publish=on_type)
    if on_type:
        session.touch_dependents(st.path)


@guard()
def did_save(ls: "ServelintServer", params: types.DidSaveTextDocumentParams) -> None:
    session = ls.session
    uri = params.text_document.uri
    st = session.docs.get(uri)
    if st is None:
        return
    if session.settings_for(st.path).lint_run == "onSave":
        st.stamp += 1
        session.schedule(uri, 0)
        session.touch_dependents(st.path)
        if session.pull and session.refresh_supported:
            asyncio.ensure_future(session.refresh_after([uri]))


@guard()
def did_close(ls: "ServelintServer", params: types.DidCloseTextDocumentParams) -> None:
    session = ls.session
    uri = params.text_document.uri
    st = session.docs.pop(uri, None)
    if st is None:
        return
    if st.pending is not None:
        st.pending.cancel()
    session.executor.submit(session.engine.forget, st.path)
    if not session.pull:
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    # Readers of this file go back to its text on disk.
    session.touch_dependents(st.path)


def register(server: "ServelintServer") -> None:
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))(did_save)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
