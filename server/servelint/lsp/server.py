"""The language server (pygls 2): the session and the handlers, put together.

``session`` keeps the open documents and their lints; ``handlers/`` holds
one module per LSP feature; ``convert`` turns engine objects into LSP ones;
``pygls_compat`` is every use of pygls' private API.  This module makes the
server, registers the handlers, and runs it.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import stat
import sys
import traceback

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from . import convert, pygls_compat
from .session import Session

log = logging.getLogger(__name__)

# Allocations between two collections of the youngest generation (Python's
# default: 700).  A keystroke allocates a few thousand objects that nearly all
# die young; with the default, two or three collections a keystroke walked
# the survivors, and the heap is frozen after each lint anyway.
GC_YOUNG = 20_000

class ServelintServer(LanguageServer):
    """pygls' server with a ``session`` (the documents and their lints) and
    a ``scan`` (the workspace's files that are not open)."""

    def __init__(self) -> None:
        self.converter = None  # made by pygls from _make_converter
        # Diagnostics kept from the last keystroke are sent as the JSON they
        # were encoded to (see forms and pygls_compat.Splice).
        self.splice = pygls_compat.Splice()
        super().__init__("servelint", __version__, converter_factory=self._make_converter,
                         protocol_cls=pygls_compat.splicing_protocol(self.splice))
        self.session = Session(self)
        from .handlers.scan import WorkspaceScan

        self.scan = WorkspaceScan(self)

    def _make_converter(self):
        # Kept: a diagnostic is unstructured with it when converted.
        self.converter = convert.converter_factory(self.splice)
        return self.converter

    def log_error(self, what: str, exc: BaseException) -> None:
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        log.error("%s: %s", what, detail)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=f"servelint: {what}: {detail}"))
        except Exception:  # the transport itself is gone
            pass

    def log_info(self, message: str) -> None:
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Log, message=f"servelint: {message}"))
        except Exception:
            pass

    def report_server_error(self, error: Exception, source) -> None:
        # pygls shows these as pop-ups by default; a linter's hiccup belongs in the log.
        self.log_error(f"internal error ({getattr(source, '__name__', source)})", error)

    @property
    def encoding(self) -> str:
        enc = self.workspace.position_encoding
        return str(getattr(enc, "value", enc) or "utf-16")

    def text_document(self, uri: str):
        return self.workspace.text_documents.get(uri)


def create_server() -> ServelintServer:
    from . import handlers

    server = ServelintServer()
    handlers.register(server)
    return server


def run(mode: str = "stdio", host: str = "127.0.0.1", port: int = 2087) -> int:
    logging.basicConfig(level=os.environ.get("SERVELINT_LOG", "WARNING").upper(), format="%(levelname)s %(name)s: %(message)s")
    server = create_server()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
    if mode == "tcp":
        server.start_tcp(host, port)
    elif mode == "ws":
        try:
            import websockets  # noqa: F401
        except ImportError:
            print("servelint lsp --ws needs the websockets package: pip install 'pygls[ws]'", file=sys.stderr)
            return 2
        server.start_ws(host, port)
    else:
        _start_io(server)
    return 0


class _PipeReader:
    """stdin read by the event loop itself.

    pygls reads stdin with blocking calls in a thread pool: three or four
    thread hand-offs for every message (each header line, then the body),
    each one waiting for the OS to schedule a thread and for the GIL, which
    the lint worker may hold.  A keystroke paid them before it was even seen.
    """

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self.stream = stream
        self.handled = False

    async def readline(self) -> bytes:
        if self.handled:
            # One message per loop turn, however fast they arrive (as with
            # pygls' reader): what a message started, a lint or an answer,
            # gets going before the next message is handled.
            self.handled = False
            await asyncio.sleep(0)
        try:
            return await self.stream.readline()
        except ValueError:  # a header line over the limit: not a header pygls knows
            return b"X-Overlong-Header: dropped\r\n"

    async def readexactly(self, n: int) -> bytes:
        self.handled = True
        try:
            return await self.stream.readexactly(n)
        except asyncio.IncompleteReadError:
            return b""  # the client went away mid-message: the end, as for pygls


def _pipe_stdin():
    """stdin, when the event loop can watch it: a pipe or a socket (what
    editors give a server) that is not also stdout, which the loop would
    otherwise make non-blocking under pygls' blocking writes."""
    try:
        stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
        info_in, info_out = os.fstat(stdin.fileno()), os.fstat(stdout.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    if not (stat.S_ISFIFO(info_in.st_mode) or stat.S_ISSOCK(info_in.st_mode)):
        return None
    if (info_in.st_dev, info_in.st_ino) == (info_out.st_dev, info_out.st_ino):
        return None
    return stdin


def _start_io(server: ServelintServer) -> None:
    """pygls' ``start_io`` with stdin read on the event loop (see _PipeReader)."""
    stdin = _pipe_stdin()
    if stdin is None:
        server.start_io()
        return
    pygls_compat.start_io(server, stdin, _PipeReader, log)
