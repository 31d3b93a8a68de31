"""Settings: the editor's (``workspace/configuration``,
``didChangeConfiguration``) and the project's config files on disk
(``didChangeWatchedFiles``), which also say when a --config file changed."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from lsprotocol import types

from ...settings import CONFIG_NAMES
from ..session import SECTION, path_of
from .guard import guard

if TYPE_CHECKING:  # pragma: no cover
    from ..server import ServelintServer


async def fetch_settings(ls: "ServelintServer") -> None:
    caps = ls.client_capabilities
    if not (caps.workspace and caps.workspace.configuration):
        return
    try:
        items = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
        )
    except Exception as exc:
        ls.log_error("workspace/configuration failed", exc)
        return
    if items and isinstance(items[0], dict):
        ls.session.apply_settings(items[0])


async def settings_changed(ls: "ServelintServer") -> None:
    """Lint every document again with the settings now in force."""
    await ls.session.settings_changed()
    ls.scan.forget()


@guard()
async def did_change_configuration(ls: "ServelintServer", params: types.DidChangeConfigurationParams) -> None:
    caps = ls.client_capabilities
    if caps.workspace and caps.workspace.configuration:
        await fetch_settings(ls)
    elif params.settings is not None:
        ls.session.apply_settings(params.settings)
    await settings_changed(ls)


@guard()
async def did_change_watched_files(ls: "ServelintServer", params: types.DidChangeWatchedFilesParams) -> None:
    session = ls.session
    project_config = False
    touched: set[str] = set()
    session.forget_project_settings()
    for change in params.changes:
        path = path_of(change.uri)
        if os.path.basename(path) in CONFIG_NAMES:
            project_config = True
        if change.uri not in ls.workspace.text_documents:
            touched.update(session.dependents(path))
    ls.scan.changed([path_of(c.uri) for c in params.changes])
    if project_config:
        ls.scan.forget()
        session.invalidate(list(session.docs), reason="settings")
    elif touched:
        session.invalidate(sorted(touched), reason="dependency")


def register(server: "ServelintServer") -> None:
    server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(did_change_configuration)
    server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)(did_change_watched_files)
