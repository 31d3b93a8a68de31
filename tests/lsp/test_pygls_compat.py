"""The private pygls API servelint relies on (all of it in lsp/pygls_compat.py)
is still there, in the pygls version the shims were written against.

A different pygls may have moved or changed any of it without a word: this
fails first, saying what to re-check, instead of a document whose lines drift
after an edit or a server that does not stop on ``exit``.
"""

from __future__ import annotations

from importlib.metadata import version

import pytest

from lsprotocol import types

from servelint.lsp import pygls_compat


def test_pygls_is_the_version_the_shims_were_written_against() -> None:
    installed = version("pygls")
    assert installed == pygls_compat.PYGLS_VERSION, (
        f"pygls {installed} is installed, but servelint/lsp/pygls_compat.py was written against "
        f"pygls {pygls_compat.PYGLS_VERSION}: check each of its PRIVATE_NAMES against the new pygls "
        "(the workspace's document factory, TextDocument's incremental edit, the server's stop event), "
        "then update PYGLS_VERSION and the pin in pyproject.toml"
    )


def test_every_private_name_the_shims_use_exists() -> None:
    assert pygls_compat.missing_private_names() == []


def test_documents_are_made_with_lsp_lines_and_edits_land_where_the_editor_puts_them() -> None:
    from pygls.workspace import Workspace

    ws = Workspace(None)
    pygls_compat.use_lsp_lines(ws)
    # A form feed and U+2028 are no line break to an editor (str.splitlines breaks at both).
    ws.put_text_document(types.TextDocumentItem(uri="file:///a.sh", language_id="shellscript", version=1,
                                                text="a\x0cb\u2028c\nvllm serve m\n"))
    doc = ws.get_text_document("file:///a.sh")
    assert isinstance(doc, pygls_compat.LspLines)
    assert doc.lines == ("a\x0cb\u2028c\n", "vllm serve m\n")
    edit = types.TextDocumentContentChangePartial(
        range=types.Range(start=types.Position(line=1, character=11), end=types.Position(line=1, character=12)),
        text="meta-llama/Llama-3.1-8B")
    ws.update_text_document(types.VersionedTextDocumentIdentifier(uri="file:///a.sh", version=2), edit)
    assert doc.source == "a\x0cb\u2028c\nvllm serve meta-llama/Llama-3.1-8B\n"
    assert doc.lines == ("a\x0cb\u2028c\n", "vllm serve meta-llama/Llama-3.1-8B\n")


class _Capture:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.sent.append(data)


def _messages(capture: _Capture) -> list[dict]:
    import json

    out = []
    for raw in capture.sent:
        head, _, body = raw.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        assert length == len(body)
        out.append(json.loads(body))
    return out


def test_encoded_diagnostics_are_sent_as_they_are_and_the_message_is_what_pygls_would_send() -> None:
    """A diagnostic kept as JSON text goes into the message as it is; the
    message is the one pygls would encode from the same objects, framed the
    same way, even when another part of it holds what looks like a token."""
    import json

    from servelint.lsp.convert import Encoded
    from servelint.lsp.server import create_server

    server = create_server()
    capture = _Capture()
    server.protocol.set_writer(capture)
    diags = [
        types.Diagnostic(range=types.Range(start=types.Position(line=3, character=1),
                                           end=types.Position(line=3, character=9)),
                         message="unknown flag é😀 \"quoted\"", code="SL101", source="servelint",
                         data={"name": "unknown-flag", "version": 7}),
        types.Diagnostic(range=types.Range(start=types.Position(line=5, character=0),
                                           end=types.Position(line=5, character=2)),
                         message="second", severity=types.DiagnosticSeverity.Warning),
    ]
    plain = [server.converter.unstructure(d) for d in diags]
    encoded = [Encoded(json.dumps(p)) for p in plain]
    # The second: a URI holding a token's text, which must not be taken for one.
    lookalike = "file:///" + server.splice._prefix + "0\x00.sh"
    for uri in ("file:///a.sh", lookalike):
        server.protocol.notify(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                               types.PublishDiagnosticsParams(uri=uri, diagnostics=encoded, version=7))
    sent = _messages(capture)
    assert [m["params"]["uri"] for m in sent] == ["file:///a.sh", lookalike]
    for m in sent:
        assert m["method"] == "textDocument/publishDiagnostics" and m["params"]["version"] == 7
        assert m["params"]["diagnostics"] == plain
    assert server.splice.pieces is None  # nothing left over for the next message


@pytest.mark.parametrize("message", ["publish", "pull"])
def test_a_documents_encoded_diagnostics_go_into_the_message_as_one_array(message) -> None:
    """``EncodedList`` (what ``Published.encoded`` returns): the message is
    the one a list of the same diagnostics makes, for a push and for a
    pull's report; outside a message the list is decoded."""
    import json

    from servelint.lsp.convert import Encoded, EncodedList
    from servelint.lsp.server import create_server

    server = create_server()
    capture = _Capture()
    server.protocol.set_writer(capture)
    texts = [json.dumps({"range": {"start": {"line": k, "character": 0}, "end": {"line": k, "character": 4}},
                         "message": f"finding {k} \u00e9", "code": "SL101", "data": {"version": 2}})
             for k in range(3)]

    def send(items):
        if message == "publish":
            server.protocol.notify(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
                                   types.PublishDiagnosticsParams(uri="file:///a.sh", diagnostics=items, version=2))
        else:
            server.protocol._send_response(1, types.RelatedFullDocumentDiagnosticReport(items=items, result_id="r1"))

    send([Encoded(t) for t in texts])
    send(EncodedList(texts))
    one, whole = _messages(capture)
    assert one == whole
    got = whole["params"]["diagnostics"] if message == "publish" else whole["result"]["items"]
    assert got == [json.loads(t) for t in texts]
    assert server.splice.pieces is None
    report = server.converter.unstructure(types.RelatedFullDocumentDiagnosticReport(items=EncodedList(texts[:1])))
    assert report["items"] == [json.loads(texts[0])]


@pytest.mark.skipif(not hasattr(__import__("fcntl"), "F_GETPIPE_SZ"), reason="Linux's pipe-size call")
def test_the_server_widens_the_pipe_it_writes_to_the_editor() -> None:
    """A keystroke in a file where every launch has a finding is published as
    ~150 KB: the server asks for a pipe that holds a whole message (the
    default 64 KB made each write wait for the editor to read)."""
    import fcntl
    import json
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "servelint", "lsp", "--stdio"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()
        header = proc.stdout.readline()  # the answer: the server is serving
        assert header.startswith(b"Content-Length: ")
        after = fcntl.fcntl(proc.stdout.fileno(), fcntl.F_GETPIPE_SZ)
        limit = int(open("/proc/sys/fs/pipe-max-size").read())
        assert after == min(pygls_compat._PIPE_SIZE, limit)
    finally:
        proc.kill()
        proc.wait()
