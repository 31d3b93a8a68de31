"""Fixtures: one server per test, once per recorded client."""

from __future__ import annotations

import attrs
import pytest_asyncio
import pytest_lsp
from lsp_harness import CLIENTS, CONFIG, Session
from lsprotocol import types
from pytest_lsp import LanguageClient


def _record(lsp_client: LanguageClient, profile: str) -> None:
    lsp_client.profile = profile
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


async def _stop(lsp_client: LanguageClient) -> None:
    if lsp_client.capabilities is not None and lsp_client.error is None:
        await lsp_client.shutdown_session()
    elif lsp_client._server is not None and lsp_client._server.returncode is None:
        # Never initialised (the test failed early): the server waits for exit forever.
        lsp_client._server.kill()


@pytest_lsp.fixture(config=CONFIG, params=CLIENTS)
async def client(lsp_client: LanguageClient, request):
    _record(lsp_client, request.param)
    yield
    await _stop(lsp_client)


@pytest_asyncio.fixture
async def session(client: LanguageClient, tmp_path) -> Session:
    return Session(client, client.profile, tmp_path)


FAULTY = attrs.evolve(CONFIG, server_env={**CONFIG.server_env, "SERVELINT_LSP_INJECT_FAULT": "on_hover,did_save"})


@pytest_lsp.fixture(config=FAULTY, params=CLIENTS[:1])
async def faulty_client(lsp_client: LanguageClient, request):
    """A server whose hover and didSave handlers raise."""
    _record(lsp_client, request.param)
    yield
    await _stop(lsp_client)
