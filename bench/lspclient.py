"""A real stdio LSP client (pytest-lsp's ``LanguageClient``) driving ``servelint lsp``.

Latency is taken on the client side, from just before a ``didChange`` is
written to the moment the matching ``publishDiagnostics`` (same version) is
decoded, or the ``textDocument/diagnostic`` answer arrives for a pulling
client: what an editor waits for, transport and JSON included.

Three moments are noted for each answer: when its last byte is read from
the pipe (``received``: the server's answer is in, the client has done
nothing with it yet), when its JSON is parsed (``decoded``: what an editor
has in hand; pygls' parse calls a Python hook for every JSON object) and
when pygls' client has also made lsprotocol objects of it with cattrs
(``structured``, the figure of every earlier pass).  They differ by the
client's own Python work, which grows with the diagnostics: 333 of them
take this client ~5-10 ms to structure, time no editor spends (VS Code and
Neovim read the JSON as it is).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

from lsprotocol import types
from pygls import uris
from pytest_lsp import client_capabilities, make_test_lsp_client

# Recorded capabilities of real editors: VS Code pushes, Neovim 0.11 pulls.
PUSH_PROFILE = "visual-studio-code"
PULL_PROFILE = "neovim"


def server_command(python: str | None = None) -> list[str]:
    return [python or sys.executable, "-m", "servelint", "lsp", "--stdio"]


class Driver:
    def __init__(self, root: str, *, profile: str = PUSH_PROFILE, python: str | None = None,
                 env: dict | None = None, preexec_fn=None) -> None:
        self.root = root
        self.profile = profile
        self.cmd = server_command(python)
        self.env = env
        self.preexec_fn = preexec_fn
        self.client = make_test_lsp_client()
        self.published: dict[str, list[tuple[int | None, float, int]]] = {}
        self._event = asyncio.Event()
        self.versions: dict[str, int] = {}
        self.spawned_at: float | None = None

        def on_publish(params: types.PublishDiagnosticsParams) -> None:
            self.published.setdefault(params.uri, []).append((params.version, time.perf_counter(),
                                                              len(params.diagnostics)))
            self._event.set()

        self.client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
        # When each message's JSON is parsed, before it is structured: pygls
        # calls structure_message on the whole message last (json.loads's
        # object_hook runs innermost first).
        self.decoded: dict[tuple[str, int | None], float] = {}
        self.last_response_decoded: float | None = None
        # When each message's body was read (pygls reads one message, then
        # parses it, then reads the next: the last read is this message's).
        self.received: dict[tuple[str, int | None], float] = {}
        self.last_response_received: float | None = None
        self._last_read: float | None = None
        structure = self.client.protocol.structure_message

        def noting(data: dict):
            if "jsonrpc" in data:
                now = time.perf_counter()
                if data.get("method") == types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS:
                    params = data.get("params") or {}
                    key = (params.get("uri"), params.get("version"))
                    self.decoded[key] = now
                    self.received[key] = self._last_read
                elif "id" in data and "method" not in data:
                    self.last_response_decoded = now
                    self.last_response_received = self._last_read
            return structure(data)

        self.client.protocol.structure_message = noting
        # The server registers file watchers; an editor accepts, and so do we.
        self.client.protocol.fm.features[types.CLIENT_REGISTER_CAPABILITY] = lambda params: None

    @property
    def pid(self) -> int:
        return self.client._server.pid  # pygls keeps the asyncio subprocess there

    async def start(self) -> types.InitializeResult:
        self.spawned_at = time.perf_counter()
        await self.client.start_io(*self.cmd, env=self.env, preexec_fn=self.preexec_fn)
        stdout = self.client._server.stdout  # the asyncio StreamReader pygls reads messages from
        read_body = stdout.readexactly

        async def readexactly(n: int) -> bytes:
            body = await read_body(n)
            self._last_read = time.perf_counter()
            return body

        stdout.readexactly = readexactly
        caps = client_capabilities(self.profile)
        return await self.client.initialize_session(
            types.InitializeParams(
                capabilities=caps,
                root_uri=uris.from_fs_path(self.root),
                workspace_folders=[types.WorkspaceFolder(uri=uris.from_fs_path(self.root), name="bench")],
                # Every launch checked, as bench/edits.py's engine does.
                initialization_options={"maxLaunches": 0},
            )
        )

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.client.shutdown_session(), 20)
        except Exception:  # a server that hangs on shutdown still gets stopped
            pass
        await self.client.stop()

    def uri(self, name: str) -> str:
        return uris.from_fs_path(os.path.join(self.root, name))

    def open(self, uri: str, text: str, language_id: str) -> None:
        self.versions[uri] = 1
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=1, text=text)))

    def change(self, uri: str, start: tuple[int, int], end: tuple[int, int], new_text: str) -> int:
        self.versions[uri] += 1
        version = self.versions[uri]
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(*start), end=types.Position(*end)), text=new_text)],
        ))
        return version

    async def published_version(self, uri: str, version: int | None, timeout: float = 30.0) -> float:
        """The client-side time at which ``version`` of ``uri`` was published."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen = 0
        while True:
            got = self.published.get(uri, [])
            for v, t, _ in got[seen:]:
                if version is None or v == version:
                    return t
            seen = len(got)
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"no publishDiagnostics for {uri} v{version} within {timeout:.0f} s")
            self._event.clear()
            try:
                await asyncio.wait_for(self._event.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def pull(self, uri: str, timeout: float = 30.0):
        return await asyncio.wait_for(self.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))), timeout)


def position(text: str, offset: int) -> tuple[int, int]:
    """LSP position of an offset in ASCII text (the generator writes ASCII,
    so UTF-16 columns equal character columns)."""
    line = text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1)


def rss_kib(pid: int) -> tuple[int | None, int | None]:
    """(current RSS, peak RSS) of a process, in KiB."""
    cur = peak = None
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    cur = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1])
    except OSError:
        pass
    return cur, peak


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time a process has used so far."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


async def answers(root: str, timeout: float = 60.0, python: str | None = None) -> str | None:
    """None if ``servelint lsp`` starts and answers ``initialize``; else why not."""
    d = Driver(root, python=python)
    try:
        await asyncio.wait_for(d.start(), timeout)
    except Exception as exc:
        try:
            await d.client.stop()
        except Exception:
            pass
        return f"{type(exc).__name__}: {exc}"
    await d.stop()
    return None
