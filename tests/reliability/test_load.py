"""Under load: 200 open documents and 10,000 rapid edits to one of them.

A real ``servelint lsp`` over stdio gets 200 documents opened at once, then
10,000 ``didChange`` events on one document sent back to back without
waiting for anything (someone typing, deleting and pasting in a long
session, as fast as the pipe takes it).  Half way through the burst the
editor asks for a hover; the server must answer it with the flag's
documentation.  At the end every document shows exactly what a fresh lint
of its final text says (codes, ranges, messages): nothing stale, nothing
lost.  The only time limits are generous timeouts against a hang.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from servelint.engine import Engine
from servelint.settings import Settings, for_file
from servelint.text import SourceText

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
from lsp_harness import CONFIG, Session, position_of  # noqa: E402

DOCUMENTS = 200
EDITS = 10_000
WAIT_S = 180.0  # against a hang only

FLAGS = ["--max-model-len 4096", "--max-modl-len 4096", "--dtype half", "--dtype halff", "--port 8000",
         "--port 8000 --port 8001", "--tensor-parallel-size 2", "--gpu-memory-utilization 1.5",
         "--enable-prefix-caching", "--enforce-eager", "--kv-cache-dtype fp8", "--max-num-seqs 0",
         "--served-model-name qwen", "--tokenizer-mode auto", "--bogus-flag"]
MODELS = ["Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct", "facebook/opt-125m", "$MODEL"]


def script(i: int, lines: int = 60) -> str:
    """A ~60-line launch script, different for each ``i``, with a few problems."""
    rnd = random.Random(i)
    out = ["#!/bin/bash", "# servelint: vllm=0.33.0", "set -euo pipefail", f"MODEL={rnd.choice(MODELS[:3])}", ""]
    while len(out) < lines:
        kind = rnd.randrange(3)
        if kind == 0:
            out += [f"echo 'step {len(out)}'", f"export STEP={len(out)}"]
        elif kind == 1:
            out.append(f"vllm serve {rnd.choice(MODELS)} " + " ".join(rnd.sample(FLAGS, 3)) + " &")
        else:
            flags = rnd.sample(FLAGS, 4)
            out.append(f"vllm serve {rnd.choice(MODELS)} \\")
            out += [f"  {f} \\" for f in flags[:-1]] + [f"  {flags[-1]}"]
    return "\n".join(out) + "\n"


# The edited document: the hover target sits on line 2, above every edit.
HEAD = "#!/bin/bash\n# servelint: vllm=0.33.0\nvllm serve facebook/opt-125m --enable-prefix-caching &\n"
TYPED = [" --max-modl-len 4096", " --dtype half", " \\\n  --port 8000", " --tensor-parallel-size 2",
         " --gpu-memory-utilization 0.9", " --bogus", "\nvllm serve Qwen/Qwen3-8B --enforce-eager"]


class Typist:
    """Edits as an editor sends them: mostly one character typed or deleted
    at the cursor, sometimes a paste, a cut, or two cursors at once."""

    def __init__(self, text: str, encoding: str, seed: int) -> None:
        self.text = text
        self.encoding = encoding
        self.rng = random.Random(seed)
        self.floor = len(HEAD)  # never edit above this
        self.cursor = len(text) - 1
        self.pending = ""

    def _range(self, start: int, end: int) -> types.Range:
        src = SourceText(self.text, self.encoding)
        (sl, sc), (el, ec) = src.position(start), src.position(end)
        return types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec))

    def _change(self, start: int, end: int, new: str) -> types.TextDocumentContentChangePartial:
        change = types.TextDocumentContentChangePartial(range=self._range(start, end), text=new)
        self.text = self.text[:start] + new + self.text[end:]
        return change

    def event(self) -> list[types.TextDocumentContentChangePartial]:
        rng = self.rng
        self.cursor = max(self.floor, min(self.cursor, len(self.text)))
        r = rng.random()
        if r < 0.01:  # jump elsewhere below the head (line ends only: no half-deleted words piling up)
            ends = [i for i, c in enumerate(self.text) if c == "\n" and i >= self.floor]
            self.cursor = rng.choice(ends) if ends else len(self.text)
            return []
        if r < 0.03:  # a paste
            new = rng.choice(TYPED)
            change = self._change(self.cursor, self.cursor, new)
            self.cursor += len(new)
            return [change]
        if r < 0.04 and self.cursor - self.floor > 12:  # a cut
            start = self.cursor - rng.randrange(1, 12)
            change = self._change(start, self.cursor, "")
            self.cursor = start
            return [change]
        if r < 0.05:  # two cursors: the later edit first, as editors send them
            other = rng.randrange(self.floor, self.cursor + 1)
            first = self._change(self.cursor, self.cursor, "x")
            return [first, self._change(other, other, " ")]
        if r < 0.30 and self.cursor > self.floor:  # backspace
            if self.text[self.cursor - 1] == "\n":
                return []
            change = self._change(self.cursor - 1, self.cursor, "")
            self.cursor -= 1
            return [change]
        if not self.pending:  # type the next token, one character per event
            self.pending = rng.choice(TYPED)
        ch, self.pending = self.pending[0], self.pending[1:]
        change = self._change(self.cursor, self.cursor, ch)
        self.cursor += 1
        return [change]


def fresh(session: Session, name: str, text: str) -> list[tuple]:
    """What a fresh ``Engine().lint`` says about ``text``, in LSP terms (one
    engine for all: each document is new to it, so each lint is fresh)."""
    path = str(session.tmp / name)
    base = Settings.from_mapping({}, root=str(session.tmp))
    if getattr(session, "engine", None) is None:
        session.engine = Engine(base)
    result = session.engine.lint(path, text, "shellscript", settings=for_file(path, base))
    src = SourceText(text, session.encoding)
    out = []
    for d in result.diagnostics:
        (sl, sc), (el, ec) = src.position(d.span.start), src.position(d.span.end)
        out.append(((sl, sc, el, ec), d.code, d.message))
    return out


def shown(diags: list[types.Diagnostic]) -> list[tuple]:
    return [((d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character), d.code, d.message)
            for d in diags]


async def final_diagnostics(session: Session, uri: str, version: int, want: list[tuple]) -> list[tuple] | None:
    """What the editor shows for ``uri`` once the server is done: pulled, or
    the last publish once one names ``version`` (waiting, up to WAIT_S, for
    it to become ``want`` in case a later publish is still coming)."""
    if session.pull:
        report = await asyncio.wait_for(session.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))), WAIT_S)
        return shown(report.items)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while True:
        mine = [p for p in session.published if p.uri == uri]
        got = shown(mine[-1].diagnostics) if mine and mine[-1].version == version else None
        if got == want or loop.time() > deadline:
            return got
        await asyncio.sleep(0.05)


# One recorded client (VS Code: push diagnostics, UTF-16): the burst costs
# the server ~30 s of a loaded 2-core machine; the pull client's handling of
# edits is the same code, exercised by tests/fuzz/test_fuzz_lsp.py.
@pytest_lsp.fixture(config=CONFIG, params=["visual-studio-code"])
async def load_client(lsp_client: LanguageClient, request):
    lsp_client.profile = request.param
    lsp_client.published = []
    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = lsp_client.published.append
    lsp_client.protocol.fm.features[types.CLIENT_REGISTER_CAPABILITY] = lambda params: None
    yield
    if lsp_client.capabilities is not None and lsp_client.error is None:
        await lsp_client.shutdown_session()
    elif lsp_client._server is not None and lsp_client._server.returncode is None:
        lsp_client._server.kill()


async def test_200_documents_and_10000_edits(load_client, tmp_path):
    session = Session(load_client, load_client.profile, tmp_path)
    await session.initialize()

    # 200 documents opened at once.
    opened = {}
    for i in range(DOCUMENTS):
        name = f"job{i:03}.sh"
        opened[session.open(name, script(i), on_disk=False)] = name

    # 10,000 edits to one more document, none awaited, a hover half way.
    text = HEAD + script(DOCUMENTS, lines=120)
    uri = session.open("typed.sh", text, on_disk=False)
    typist = Typist(text, session.encoding, seed=9)
    hover_at = position_of(text, "--enable-prefix-caching", 4)
    hover = None
    for n in range(EDITS):
        changes = typist.event()
        while not changes:
            changes = typist.event()
        session.versions[uri] += 1
        session.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=session.versions[uri]),
            content_changes=changes))
        if n == EDITS // 2:
            hover = asyncio.ensure_future(session.hover(uri, *hover_at))
    final = typist.text
    assert final.count("\n") > text.count("\n")  # the edits did add lines

    answer = await asyncio.wait_for(hover, WAIT_S)
    assert answer is not None
    assert answer.contents.value.startswith("### `--enable-prefix-caching`\n\n")
    assert "- this launch: vLLM 0.33.0, because the directive `vllm=0.33.0` in this file" in answer.contents.value

    # The edited document ends with the fresh lint of its final text...
    want = fresh(session, "typed.sh", final)
    assert {code for _, code, _ in want} >= {"SL101"}  # the typed typos are found
    assert await final_diagnostics(session, uri, session.versions[uri], want) == want
    # ...and so does each of the 200 others.
    for doc_uri, name in opened.items():
        want = fresh(session, name, session.texts[doc_uri])
        assert await final_diagnostics(session, doc_uri, 1, want) == want, name
    # A hover after the storm still answers, on the final text.
    again = await asyncio.wait_for(session.hover(uri, *hover_at), WAIT_S)
    assert again is not None and again.contents.value.startswith("### `--enable-prefix-caching`")

    errors = [m.message for m in session.client.log_messages if m.type == types.MessageType.Error]
    assert errors == []
