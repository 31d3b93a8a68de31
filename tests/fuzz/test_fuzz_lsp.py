"""Random incremental edits against a real ``servelint lsp`` over stdio.

For each document: open it, send a burst of random ``didChange`` events
(sometimes pausing, sometimes asking for a hover, completion or code actions
at a random place mid-burst), then check that

* every publish named a version and described exactly that version's text,
* the editor ends with exactly what a fresh lint of the final text says,
* no handler failed (the server logs those as errors).

Both recorded clients run: VS Code 1.65 (push, UTF-16) and Neovim 0.11 (pull,
UTF-8).  The seed of a failing run is in the assertion message, which lists
every failing document (the run goes on after one); with
``SERVELINT_FUZZ_FOUND`` set, each is also saved there with all its versions.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from pathlib import Path

import pytest
import pytest_lsp
from fuzz_support import LONG, SCALE, STATS
from lsp_fuzz import CONFIG, EditFuzzer, Session, expected, record_publishes, settle, tmp_name, view
from lsprotocol import types
from pytest_lsp import LanguageClient

CLIENTS = ("visual-studio-code", "neovim")
DOCUMENTS = 40 * SCALE // 100 if LONG else 3
EDITS = 60 if LONG else 25
SEED = int(os.environ.get("SERVELINT_FUZZ_SEED", "0")) or (random.randrange(1 << 30) if LONG else 20240611)


@pytest_lsp.fixture(config=CONFIG, params=CLIENTS)
async def fuzz_client(lsp_client: LanguageClient, request):
    lsp_client.profile = request.param
    record_publishes(lsp_client)
    yield
    if lsp_client.capabilities is not None and lsp_client.error is None:
        await lsp_client.shutdown_session()
    elif lsp_client._server is not None and lsp_client._server.returncode is None:
        lsp_client._server.kill()


def _save(seed: int, profile: str, i: int, name: str, texts: dict[int, str], problems: list[str]) -> None:
    """A failing sequence, for the long run's record: every version's text."""
    found = os.environ.get("SERVELINT_FUZZ_FOUND")
    if not found:
        return
    path = Path(found) / f"lsp-{profile}-{seed}-{i}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"seed": seed, "client": profile, "document": i, "name": name, "problems": problems,
                                "versions": texts}, indent=1, ensure_ascii=False))


async def _poke(session: Session, fuzzer: EditFuzzer, uri: str, text: str) -> None:
    """A request an editor sends while the user types; any answer will do."""
    pos = fuzzer.position(text)
    doc = types.TextDocumentIdentifier(uri=uri)
    kind = fuzzer.rng.randrange(3)
    if kind == 0:
        await session.client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos))
    elif kind == 1:
        await session.client.text_document_completion_async(types.CompletionParams(text_document=doc, position=pos))
    else:
        diags = session.client.diagnostics.get(uri, []) if not session.pull else []
        await session.client.text_document_code_action_async(types.CodeActionParams(
            text_document=doc, range=types.Range(start=pos, end=pos),
            context=types.CodeActionContext(diagnostics=list(diags))))


async def test_random_edit_sequences_end_with_fresh_diagnostics(fuzz_client, tmp_path):
    session = Session(fuzz_client, fuzz_client.profile, tmp_path)
    await session.initialize()
    seed = SEED + (1 if session.pull else 0)
    rng = random.Random(seed)
    fuzzer = EditFuzzer(rng, session.encoding)
    failures: list[str] = []
    for i in range(DOCUMENTS):
        name, lang, text = fuzzer.start()
        name = tmp_name(tmp_path, name, i)
        start = len(session.published)
        uri = session.open(name, text, lang, on_disk=False)
        texts = {1: text}
        pokes = []
        for _ in range(EDITS):
            text, changes = fuzzer.change(text)
            session.versions[uri] += 1
            version = session.versions[uri]
            texts[version] = text
            session.texts[uri] = text
            session.client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=changes))
            STATS.documents["lsp-edits"] += 1
            r = rng.random()
            if r < 0.1:
                await asyncio.sleep(rng.choice([0, 0.01, 0.05]))
            elif r < 0.15:
                pokes.append(asyncio.ensure_future(_poke(session, fuzzer, uri, text)))
        await asyncio.wait_for(asyncio.gather(*pokes), 120)
        context = f"seed {seed}, {session.profile}, document {i} ({name}), final text {text!r}"
        want = expected(session, name, text, lang)
        got = await settle(session, uri, want, after=start)
        problems = []
        if got != want:
            problems.append(f"the editor ends with {got}, a fresh lint says {want}")
        for p in session.published[start:]:
            if p.uri != uri:
                continue
            if p.version not in texts:
                problems.append(f"a publish names v{p.version}, never sent")
            elif view(p.diagnostics) != expected(session, name, texts[p.version], lang):
                problems.append(f"the publish for v{p.version} does not describe that version")
        STATS.documents["lsp-sequences"] += 1
        if problems:
            # Every failing sequence is kept (the long run goes on to count them all).
            failures.append(f"{context}: " + "; ".join(problems))
            STATS.documents["lsp-sequences-failed"] += 1
            _save(seed, session.profile, i, name, texts, problems)
        if rng.random() < 0.7:
            session.client.text_document_did_close(
                types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert failures == [], "\n".join(failures)
    errors = [m.message for m in session.client.log_messages if m.type == types.MessageType.Error]
    assert errors == [], errors


async def test_an_edit_after_a_unicode_line_separator_lands_where_the_editor_made_it(fuzz_client, tmp_path):
    """Found by the edit fuzzer: U+2028, form feed and NEL are no line breaks
    to an editor, but pygls split lines at them, so an incremental edit below
    one was applied a line off and the server linted text nobody wrote."""
    session = Session(fuzz_client, fuzz_client.profile, tmp_path)
    await session.initialize()
    text = "#!/bin/sh\n# a\u2028b \x0c c \x85 d\nvllm serve m --port 1\n"
    uri = session.open("sep.sh", text, on_disk=False)
    await session.diagnostics(uri)
    after = len(session.published)
    end = len("vllm serve m --port 1")
    session.edit(uri, [types.TextEdit(
        range=types.Range(start=types.Position(line=2, character=end), end=types.Position(line=2, character=end)),
        new_text=" --max-modl-len 1")])
    diags = await session.diagnostics(uri, after=after)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diags] == [("SL101", 2, end + 1)]
