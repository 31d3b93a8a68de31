"""Fixtures: one server per test, once per recorded client."""

from __future__ import annotations

import pytest_asyncio
import pytest_lsp
from lsp_harness import CLIENTS, CONFIG, Session
from lsprotocol import types
from pytest_lsp import LanguageClient


@pytest_lsp.fixture(config=CONFIG, params=CLIENTS)
async def client(lsp_client: LanguageClient, request):
    lsp_client.profile = request.param
    lsp_client.published = []
    lsp_client.registrations = []

    # Keep every publish (the default handler keeps only the last per URI).
    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        lsp_client.published.append(params)
        lsp_client.diagnostics[params.uri] = params.diagnostics

    def on_register(params: types.RegistrationParams) -> None:
        lsp_client.registrations.extend(params.registrations)

    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    lsp_client.protocol.fm.features[types.CLIENT_REGISTER_CAPABILITY] = on_register
    yield
    if lsp_client.capabilities is not None and lsp_client.error is None:
        await lsp_client.shutdown_session()
    elif lsp_client._server is not None and lsp_client._server.returncode is None:
        # Never initialised (the test failed early): the server waits for exit forever.
        lsp_client._server.kill()


@pytest_asyncio.fixture
async def session(client: LanguageClient, tmp_path) -> Session:
    return Session(client, client.profile, tmp_path)
