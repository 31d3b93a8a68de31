"""initialize, initialized, shutdown: what the client can do, and the settings to start with."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls import uris

from ... import __version__
from ...settings import CONFIG_NAMES
from .. import pygls_compat
from ..session import SECTION
from . import diagnostics, settings

if TYPE_CHECKING:  # pragma: no cover
    from ...engine import Engine
    from ..server import ServelintServer

log = logging.getLogger(__name__)


def initialize(ls: "ServelintServer", params: types.InitializeParams) -> None:
    session = ls.session
    caps = params.capabilities
    td = caps.text_document
    session.pull = bool(td is not None and td.diagnostic is not None)
    ws = caps.workspace
    session.refresh_supported = bool(ws and ws.diagnostics and ws.diagnostics.refresh_support)
    session.document_changes = bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes)
    if params.root_uri:
        session.root = uris.to_fs_path(params.root_uri)
    elif params.root_path:
        session.root = params.root_path
    pygls_compat.use_lsp_lines(ls.workspace)
    session.apply_settings(params.initialization_options)
    session.engine.set_settings(session.base_settings)  # no lint has run yet
    # The first lint would otherwise pay for importing the parsers and
    # rules and reading the records while the user waits.
    session.executor.submit(_warm_up, session.engine)
    if session.pull:
        # Registered only for clients that pull, so nobody gets both.
        ls.feature(
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            types.DiagnosticOptions(identifier=SECTION, inter_file_dependencies=True, workspace_diagnostics=True),
        )(diagnostics.document_diagnostic)
        ls.feature(types.WORKSPACE_DIAGNOSTIC)(diagnostics.workspace_diagnostic)


async def initialized(ls: "ServelintServer", params: types.InitializedParams) -> None:
    await settings.fetch_settings(ls)
    # Documents opened before the settings arrived were linted with defaults.
    await settings.settings_changed(ls)
    await _register_watchers(ls)
    base = ls.session.base_settings
    ls.window_log_message(types.LogMessageParams(
        type=types.MessageType.Info,
        message=f"servelint {__version__} ready: {'pull' if ls.session.pull else 'push'} diagnostics, "
                f"lint {base.lint_run}, vLLM release setting {base.vllm_version or '(none)'}",
    ))


def shutdown(ls: "ServelintServer", params: Any) -> None:
    session = ls.session
    for st in session.docs.values():
        if st.pending is not None:
            st.pending.cancel()
    session.executor.shutdown(wait=False, cancel_futures=True)


def _warm_up(engine: "Engine") -> None:
    try:
        engine.lint("warm-up.sh", "vllm serve m --port 1\n")
        engine.forget("warm-up.sh")
        engine.records  # noqa: B018 - loads them
    except Exception:  # only an optimisation
        log.exception("warm-up failed")


async def _register_watchers(ls: "ServelintServer") -> None:
    caps = ls.client_capabilities
    ws = caps.workspace
    if not (ws and ws.did_change_watched_files and ws.did_change_watched_files.dynamic_registration):
        return
    watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_NAMES]
    # --config files, whose edits on disk change the launches that read them.
    watchers += [types.FileSystemWatcher(glob_pattern="**/*.{yaml,yml}")]
    try:
        await ls.client_register_capability_async(
            types.RegistrationParams(
                registrations=[
                    types.Registration(
                        id="servelint-watched-files",
                        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                        register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
                    )
                ]
            )
        )
    except Exception as exc:  # a client that advertises but refuses
        ls.log_info(f"could not register file watchers: {exc}")


def register(server: "ServelintServer") -> None:
    server.feature(types.INITIALIZE)(initialize)
    server.feature(types.INITIALIZED)(initialized)
    server.feature(types.SHUTDOWN)(shutdown)
