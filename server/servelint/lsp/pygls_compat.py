"""Every use of pygls' private API, in one place.

pygls 2 has no public way to choose the class of the workspace's text
documents, to change how one applies an incremental edit, to run its
stdio loop with another reader, or to send JSON it already has; servelint
needs all four (see ``LspLines``, ``start_io`` and ``SplicingProtocol``).  The shims below were written against
``PYGLS_VERSION``; ``tests/lsp/test_pygls_compat.py`` fails when the
installed pygls is another one, or when one of ``PRIVATE_NAMES`` is gone,
so that an upgrade re-checks them first (pyproject pins that version).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import threading

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from ..text import SourceText

PYGLS_VERSION = "2.1.1"

# (where, name): the private attributes and methods used here.  "instance"
# names are set in ``__init__``, so they are looked for on an instance.
PRIVATE_NAMES = (
    ("pygls.workspace.Workspace", "_create_text_document"),  # replaced: LspLines documents
    ("pygls.workspace.Workspace instance", "_sync_kind"),  # read: what a document is made with
    ("pygls.workspace.TextDocument", "_apply_incremental_change"),  # overridden by LspLines
    ("pygls.workspace.TextDocument instance", "_source"),  # set by LspLines' edit
    ("pygls.server.JsonRPCServer instance", "_stop_event"),  # set by start_io; shutdown() sets it
    ("pygls.protocol.JsonRPCProtocol", "_send_data"),  # overridden by SplicingProtocol
    ("pygls.protocol.JsonRPCProtocol", "_serialize_message"),  # called by it, as pygls' own does
    ("pygls.protocol.JsonRPCProtocol instance", "_include_headers"),  # read by it
    ("pygls.protocol.JsonRPCProtocol instance", "_server"),  # its error report, as pygls' own
)


def missing_private_names() -> list[str]:
    """The names of ``PRIVATE_NAMES`` the installed pygls does not have."""
    from pygls.protocol import JsonRPCProtocol, default_converter
    from pygls.server import JsonRPCServer

    places = {
        "pygls.workspace.Workspace": Workspace,
        "pygls.workspace.Workspace instance": Workspace(None),
        "pygls.workspace.TextDocument": TextDocument,
        "pygls.workspace.TextDocument instance": TextDocument("file:///x", ""),
        "pygls.server.JsonRPCServer instance": JsonRPCServer(JsonRPCProtocol, default_converter),
        "pygls.protocol.JsonRPCProtocol": JsonRPCProtocol,
        "pygls.protocol.JsonRPCProtocol instance": _protocol_with_writer(),
    }
    return [f"{where}.{name}" for where, name in PRIVATE_NAMES if not hasattr(places[where], name)]


def _protocol_with_writer():
    from pygls.protocol import JsonRPCProtocol, default_converter
    from pygls.server import JsonRPCServer

    protocol = JsonRPCServer(JsonRPCProtocol, default_converter).protocol
    protocol.set_writer(_Discard())
    return protocol


class _Discard:
    def write(self, data: bytes) -> None:
        pass


# -- documents split into lines as LSP counts them ---------------------------------

_LSP_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class LspLines(TextDocument):
    """A document split into lines the way LSP positions count them.

    pygls splits with ``str.splitlines``, which also breaks at U+2028, form
    feeds, NEL and other separators that are no line break to an editor: an
    incremental edit after one of them landed on the wrong line, and every
    lint and fix from then on described text the user never wrote.
    """

    _split: tuple[str, tuple[str, ...]] | None = None  # (the text, its lines)
    _index: SourceText | None = None  # the line index of the text, derived through each edit

    @property
    def lines(self):
        text = self.source
        split = self._split
        if split is not None and split[0] is text:
            return split[1]
        parts = text.splitlines(True)
        # Counting line breaks is far cheaper than splitting by a regex: the
        # regex runs only for text that holds another separator.
        breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
        if len(parts) == breaks + (0 if not text or text.endswith(("\n", "\r")) else 1):
            lines = tuple(parts)
        else:
            lines = tuple(_LSP_LINE.findall(text))
        self._split = (text, lines)
        return lines

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        """pygls' result, without its walk over every line of the document
        per keystroke: the text is cut at the edit, and only the lines around
        it are split again (one line either side, where a carriage return
        and a line feed could join into one break)."""
        lines = self.lines
        rng = self.position_codec.range_from_client_units(lines, change.range)
        sl, sc, el, ec = rng.start.line, rng.start.character, rng.end.line, rng.end.character
        if not 0 <= sl <= el < len(lines):
            super()._apply_incremental_change(change)  # its own rules at and past the end
            return
        first, last = max(sl - 1, 0), min(el + 1, len(lines) - 1)
        window = "".join((*lines[first:sl], lines[sl][:sc], change.text, lines[el][ec:], *lines[el + 1:last + 1]))
        text = self.source
        index = self._index
        if index is None or index.text is not text:
            index = SourceText(text)
        if index.has_cr:
            # The index would be read again from the whole text each time.
            head = sum(map(len, lines[:first]))
        else:
            head = index.line_start(first)  # not a sum over every line above the edit
        tail = head + sum(map(len, lines[first:last + 1]))
        source = text[:head] + window + text[tail:]
        self._source = source
        self._split = (source, lines[:first] + tuple(_LSP_LINE.findall(window)) + lines[last + 1:])
        self._index = SourceText(source, edited=(index, head, tail, head + len(window)))


def use_lsp_lines(workspace: Workspace) -> None:
    """Make the workspace's documents ``LspLines`` from now on."""

    def create(doc_uri, source=None, version=None, language_id=None):
        return LspLines(doc_uri, source=source, version=version, language_id=language_id,
                        sync_kind=workspace._sync_kind, position_codec=workspace.position_codec)

    workspace._create_text_document = create


# -- stdio served by the event loop ------------------------------------------------


def start_io(server, stdin, reader, log) -> None:
    """pygls' ``start_io`` with ``reader`` (reading ``stdin`` on the event
    loop) instead of pygls' own reader; ``reader(stream)`` makes it from an
    ``asyncio.StreamReader``."""
    from pygls.io_ import StdoutWriter, run_async

    # pygls' shutdown() (on `exit`) ends the loop through this event.
    server._stop_event = threading.Event()
    _widen_pipe(sys.stdout)
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        stream = asyncio.StreamReader(limit=1 << 20)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), stdin)
        await run_async(stop_event=server._stop_event, reader=reader(stream), protocol=server.protocol,
                        logger=log, error_handler=server.report_server_error)

    # As pygls' own start_io does.
    try:
        asyncio.run(serve())
    except BrokenPipeError:
        log.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


# Room in the pipe to the editor for a whole message: a file where every
# launch has a finding is published as ~150 KB per keystroke, and a pipe
# holds 64 KB by default (Linux), so the write waited for the editor to read
# twice before the server could go on.  1 MB is Linux's default limit for an
# unprivileged process (/proc/sys/fs/pipe-max-size).
_PIPE_SIZE = 1 << 20


def _widen_pipe(stream) -> None:
    """Ask the kernel for a pipe as large as ``_PIPE_SIZE`` behind
    ``stream``, where it is a pipe and the platform has the call."""
    try:
        import fcntl

        setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
        if setsize is not None:
            fcntl.fcntl(stream.fileno(), setsize, _PIPE_SIZE)
    except (ImportError, OSError, ValueError, AttributeError):
        pass  # not a pipe (a terminal, a socket), or above this machine's limit: the default is kept


# -- JSON sent as it was encoded -------------------------------------------------


class Splice:
    """Diagnostics already encoded (``convert.Encoded``) put into a message as
    they are.

    pygls encodes each message with ``json.dumps``; a diagnostic kept from
    the last keystroke would be turned into dicts and encoded again.  While
    a message is encoded, the converter's hook for a diagnostic (see
    ``convert.converter_factory``) hands ``token`` a diagnostic's text and
    puts the string it returns in its place; ``encode`` then replaces each
    token, written as a JSON string, with that text.  A token holds a NUL
    and this process's nonce, so no text a user wrote is mistaken for one;
    if the count is off all the same, the message is encoded the slow way.
    """

    def __init__(self) -> None:
        # os.urandom, not secrets: that imports hmac, ~20 ms of the server's start.
        nonce = os.urandom(8).hex()
        self._prefix = f"\x00servelint-splice-{nonce}-"
        # How a token starts once encoded as a JSON string.
        self._written = json.dumps(self._prefix)[:-1]
        self.pieces: list[str] | None = None  # while a message is encoded

    def token(self, text: str) -> str | None:
        """The stand-in for ``text`` in the message being encoded (None: no
        message is: the caller decodes ``text`` instead)."""
        pieces = self.pieces
        if pieces is None:
            return None
        pieces.append(text)
        return f"{self._prefix}{len(pieces) - 1}\x00"

    def encode(self, data, default) -> str:
        """``json.dumps(data, default=default)``, with encoded diagnostics as
        they are (without the spaces after "," and ":": nothing reads them)."""
        return "".join(self.parts(data, default))

    def parts(self, data, default) -> list[str]:
        """``encode``'s text in parts, to be joined with what goes before it
        (a message's header) in one copy: the diagnostics of a keystroke are
        ~150 KB."""
        self.pieces = []
        try:
            body = json.dumps(data, default=default, separators=(",", ":"))
            pieces = self.pieces
        finally:
            self.pieces = None
        if not pieces:
            return [body]
        parts = body.split(self._written)
        if len(parts) == len(pieces) + 1:
            out = [parts[0]]
            for i, part in enumerate(parts[1:]):
                end = f'{i}\\u0000"'
                if not part.startswith(end):
                    break
                out.append(pieces[i])
                out.append(part[len(end):])
            else:
                return out
        return [json.dumps(data, default=default, separators=(",", ":"))]


def splicing_protocol(splice: Splice):
    """pygls' ``LanguageServerProtocol`` sending each message through ``splice``."""
    import inspect

    from pygls.protocol import LanguageServerProtocol

    log = logging.getLogger("pygls.protocol.json_rpc")

    class SplicingProtocol(LanguageServerProtocol):
        def _send_data(self, data):
            """pygls' ``_send_data`` (2.1.1), its ``json.dumps`` replaced by ``splice.parts``."""
            if not data:
                return
            if self.writer is None:
                log.error("Unable to send data, no available transport!")
                return
            try:
                parts = splice.parts(data, self._serialize_message)
                if log.isEnabledFor(logging.INFO):
                    log.info("Sending data: %s", "".join(parts))
                if self._include_headers:
                    # (As pygls counts it: the characters of the body,
                    # which json.dumps writes in ASCII.)
                    header = (
                        f"Content-Length: {sum(map(len, parts))}\r\n"
                        f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
                    )
                    parts.insert(0, header)
                res = self.writer.write("".join(parts).encode(self.CHARSET))
                if inspect.isawaitable(res):
                    asyncio.ensure_future(res)
            except BrokenPipeError:
                log.exception("Error sending data. BrokenPipeError", exc_info=True)
                raise
            except Exception as error:
                from pygls.exceptions import JsonRpcInternalError

                log.exception("Error sending data", exc_info=True)
                self._server._report_server_error(error, JsonRpcInternalError)

    return SplicingProtocol
