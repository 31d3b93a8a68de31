"""End-to-end harness (helpers; the fixture is in conftest.py): ``servelint lsp --stdio`` driven by pytest-lsp.

Each test runs against the recorded capabilities of two real clients:
VS Code 1.65 (push diagnostics, dynamic file watchers) and Neovim 0.11
(pull diagnostics, UTF-8 positions first).  ``Session`` hides the push/pull
difference where a test only cares about *what* is reported, and records
every ``publishDiagnostics`` so tests can check versions.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

ROOT = Path(__file__).resolve().parents[2]
SERVER_DIR = str(ROOT / "server")

CLIENTS = ("visual-studio-code", "neovim")

CONFIG = ClientServerConfig(
    server_command=[sys.executable, "-m", "servelint", "lsp", "--stdio"],
    server_env={**os.environ, "PYTHONPATH": SERVER_DIR + os.pathsep + os.environ.get("PYTHONPATH", "")},
)

TIMEOUT = 60.0


def apply_edits(text: str, edits: list[types.TextEdit], encoding: str = "utf-16") -> str:
    """Apply LSP text edits the way an editor does (all ranges refer to the
    original text; applied from the end)."""
    from servelint.text import SourceText

    src = SourceText(text, encoding)
    spans = []
    for e in edits:
        start = src.offset_at(e.range.start.line, e.range.start.character)
        end = src.offset_at(e.range.end.line, e.range.end.character)
        spans.append((start, end, e.new_text))
    for start, end, new in sorted(spans, key=lambda s: (s[0], s[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text


def edits_for(edit: types.WorkspaceEdit, uri: str) -> tuple[int | None, list[types.TextEdit]]:
    """(version, edits) of one document in a WorkspaceEdit."""
    if edit.document_changes:
        for dc in edit.document_changes:
            if isinstance(dc, types.TextDocumentEdit) and dc.text_document.uri == uri:
                return dc.text_document.version, list(dc.edits)
        return None, []
    return None, list((edit.changes or {}).get(uri, []))


class Session:
    def __init__(self, client: LanguageClient, profile: str, tmp: Path) -> None:
        self.client = client
        self.profile = profile
        self.tmp = tmp
        self.caps = client_capabilities(profile)
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        self.init_result: types.InitializeResult | None = None

    @property
    def published(self) -> list[types.PublishDiagnosticsParams]:
        return self.client.published

    @property
    def registrations(self) -> list[types.Registration]:
        return self.client.registrations

    @property
    def pull(self) -> bool:
        return self.caps.text_document is not None and self.caps.text_document.diagnostic is not None

    @property
    def encoding(self) -> str:
        enc = self.init_result.capabilities.position_encoding if self.init_result else None
        return str(getattr(enc, "value", enc) or "utf-16")

    async def initialize(self, options: Any = None, settings: dict | None = None) -> types.InitializeResult:
        if settings is not None:
            self.client.set_configuration({"servelint": settings})
        self.init_result = await self.client.initialize_session(
            types.InitializeParams(
                capabilities=self.caps,
                root_uri=uris.from_fs_path(str(self.tmp)),
                workspace_folders=[types.WorkspaceFolder(uri=uris.from_fs_path(str(self.tmp)), name="ws")],
                initialization_options=options,
            )
        )
        # Let `initialized` (settings fetch, watcher registration) finish.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while not any(" ready: " in m.message for m in self.client.log_messages):
            assert loop.time() < deadline, "the server never said it was ready"
            await asyncio.sleep(0.01)
        return self.init_result

    def uri(self, name: str) -> str:
        return uris.from_fs_path(str(self.tmp / name))

    def write(self, name: str, text: str) -> str:
        path = self.tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return self.uri(name)

    def open(self, name: str, text: str, language_id: str = "shellscript", *, on_disk: bool = True) -> str:
        uri = self.write(name, text) if on_disk else self.uri(name)
        self.versions[uri] = 1
        self.texts[uri] = text
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=1, text=text)
            )
        )
        return uri

    def change(self, uri: str, text: str) -> int:
        """Replace the whole text with one incremental change."""
        old = self.texts[uri]
        from servelint.text import SourceText

        src = SourceText(old, self.encoding)
        end_line, end_char = src.position(len(old))
        self.versions[uri] += 1
        self.texts[uri] = text
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=types.Position(line=0, character=0),
                                          end=types.Position(line=end_line, character=end_char)),
                        text=text,
                    )
                ],
            )
        )
        return self.versions[uri]

    def edit(self, uri: str, edits: list[types.TextEdit]) -> int:
        """Send edits (e.g. a code action's) as incremental changes."""
        self.texts[uri] = apply_edits(self.texts[uri], edits, self.encoding)
        self.versions[uri] += 1
        ordered = sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True)
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangePartial(range=e.range, text=e.new_text) for e in ordered],
            )
        )
        return self.versions[uri]

    def save(self, uri: str) -> None:
        (Path(uris.to_fs_path(uri))).write_text(self.texts[uri])
        self.client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )

    async def pushed(self, uri: str, version: int | None = None, *, after: int = 0,
                     timeout: float = TIMEOUT) -> types.PublishDiagnosticsParams:
        """The first publish for ``uri`` (at ``version``) among those after index ``after``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for p in self.published[after:]:
                if p.uri == uri and (version is None or p.version == version):
                    return p
            if loop.time() > deadline:
                raise AssertionError(f"no diagnostics published for {uri} v{version}: {self.published}")
            await asyncio.sleep(0.01)

    async def diagnostics(self, uri: str, *, after: int | None = None) -> list[types.Diagnostic]:
        """The diagnostics of the document's current version, pushed or pulled."""
        if self.pull:
            report = await asyncio.wait_for(
                self.client.text_document_diagnostic_async(
                    types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
                ),
                TIMEOUT,
            )
            assert report.kind == "full"
            return list(report.items)
        p = await self.pushed(uri, self.versions[uri], after=after or 0)
        return list(p.diagnostics)

    async def code_actions(self, uri: str, rng: types.Range, diagnostics: list[types.Diagnostic],
                           only: list[str] | None = None) -> list[types.CodeAction]:
        res = await self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=rng,
                context=types.CodeActionContext(diagnostics=diagnostics, only=only),
            )
        )
        return [a for a in res or [] if isinstance(a, types.CodeAction)]

    async def hover(self, uri: str, line: int, character: int) -> types.Hover | None:
        return await self.client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri),
                              position=types.Position(line=line, character=character))
        )

    async def complete(self, uri: str, line: int, character: int, trigger: str | None = None):
        ctx = types.CompletionContext(
            trigger_kind=types.CompletionTriggerKind.TriggerCharacter if trigger else types.CompletionTriggerKind.Invoked,
            trigger_character=trigger,
        )
        return await self.client.text_document_completion_async(
            types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri),
                                   position=types.Position(line=line, character=character), context=ctx)
        )


def position_of(text: str, needle: str, offset: int = 0, occurrence: int = 0) -> tuple[int, int]:
    """(line, character) of ``needle`` in ``text`` (ASCII test texts)."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return line, at - (text.rfind("\n", 0, at) + 1)


def rng(text: str, needle: str, occurrence: int = 0) -> types.Range:
    sl, sc = position_of(text, needle, occurrence=occurrence)
    el, ec = position_of(text, needle, len(needle), occurrence=occurrence)
    return types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec))
