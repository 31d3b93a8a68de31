"""Driving a real ``servelint lsp`` with random edits, and what it must end with.

``EditFuzzer`` makes random incremental ``didChange`` events (several changes
per event, in the negotiated position encoding, sometimes a whole-text
replacement) and remembers the text of every version it sent.  ``expected``
is what a fresh ``Engine`` says about a text, in LSP terms; the tests compare
the server's answers with it:

* every diagnostics publish describes exactly the text of the version it names
  (no stale diagnostics);
* after the last edit the editor ends up with exactly the fresh diagnostics of
  the final text (no lost diagnostics).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

from fuzz_support import FLAGS, FORMS, JUNK, MODELS, ROOT, VALUES
from lsprotocol import types

sys.path.insert(0, str(ROOT / "tests" / "lsp"))
from lsp_harness import CONFIG, TIMEOUT, Session  # noqa: E402

from servelint.engine import Engine  # noqa: E402
from servelint.settings import Settings, for_file  # noqa: E402
from servelint.text import SourceText  # noqa: E402

__all__ = ["CONFIG", "EditFuzzer", "Session", "expected", "record_publishes", "settle"]

_LANG = {".sh": "shellscript", ".yaml": "yaml", ".yml": "yaml", "": "dockerfile"}


def _seed_documents() -> list[tuple[str, str, str]]:
    """(file name, language id, text): the launch-form samples and examples."""
    out = []
    for path in sorted(FORMS.rglob("*")) + sorted((ROOT / "examples").rglob("*")):
        if not path.is_file() or path.name.endswith(".json"):
            continue
        suffix = path.suffix if path.suffix in (".sh", ".yaml", ".yml") else ""
        if not suffix and not path.name.startswith("Dockerfile"):
            continue
        text = path.read_text(encoding="utf-8")
        # Keep a --config reference from reading a file next to the sample:
        # the server and the fresh lint must see the same (missing) file.
        out.append((("Dockerfile" if not suffix else "doc" + suffix), _LANG[suffix], text))
    return out


SEEDS = _seed_documents()
INSERTS = JUNK + [
    " --max-modl-len 1", " --port 9", " \\\n  --dtype half", " --tensor-parallel-size 2", "\n", "\r\n",
    "vllm serve Qwen/Qwen3-8B --enforce-eager\n", "- --gpu-memory-utilization\n- \"0.9\"\n", "é", "😀", "\t",
    "  ", "--", "=", "--enable-prefix-caching ", "# servelint: ignore[unknown-flag]\n", "\"", "'",
]


class EditFuzzer:
    def __init__(self, rng: random.Random, encoding: str) -> None:
        self.rng = rng
        self.encoding = encoding

    def start(self) -> tuple[str, str, str]:
        rng = self.rng
        name, lang, text = rng.choice(SEEDS)
        if rng.random() < 0.3:
            words = [rng.choice(["vllm serve", "python -m vllm.entrypoints.openai.api_server --model"]), rng.choice(MODELS)]
            for _ in range(rng.randrange(6)):
                words.append(rng.choice(FLAGS))
                if rng.random() < 0.7:
                    words.append(rng.choice(VALUES) or '""')
            name, lang, text = "gen.sh", "shellscript", "#!/bin/sh\n" + " \\\n  ".join(words) + "\n"
        return name, lang, text

    def _offset(self, text: str) -> int:
        at = self.rng.randrange(len(text) + 1)
        # No position an editor could send lies between the two characters of a CRLF.
        if 0 < at < len(text) and text[at - 1] == "\r" and text[at] == "\n":
            at += 1
        return at

    def change(self, text: str) -> tuple[str, list]:
        """The new text and the content changes that make it (applied in order)."""
        rng = self.rng
        if rng.random() < 0.03:
            new = self.start()[2] if rng.random() < 0.5 else text[: self._offset(text)]
            return new, [types.TextDocumentContentChangeWholeDocument(text=new)]
        changes = []
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            start = self._offset(text)
            end = start
            if rng.random() < 0.4 and start < len(text):
                end = min(len(text), start + rng.randrange(1, 12))
                if 0 < end < len(text) and text[end - 1] == "\r" and text[end] == "\n":
                    end += 1
            insert = rng.choice(INSERTS) if rng.random() < 0.8 else "".join(
                rng.choice(" -abcxyz019=\"'\\\n") for _ in range(rng.randrange(1, 5)))
            if end > start and rng.random() < 0.5:
                insert = ""
            src = SourceText(text, self.encoding)
            (sl, sc), (el, ec) = src.position(start), src.position(end)
            changes.append(types.TextDocumentContentChangePartial(
                range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)),
                text=insert,
            ))
            text = text[:start] + insert + text[end:]
        return text, changes

    def position(self, text: str) -> types.Position:
        line, ch = SourceText(text, self.encoding).position(self._offset(text))
        return types.Position(line=line, character=ch)


def expected(session: Session, name: str, text: str, language_id: str) -> list[tuple]:
    """What the editor must show for ``text``: a fresh lint, in LSP terms."""
    path = str(session.tmp / name)
    base = Settings.from_mapping({}, root=str(session.tmp))
    result = Engine(base).lint(path, text, language_id, settings=for_file(path, base))
    src = SourceText(text, session.encoding)
    out = []
    for d in result.diagnostics:
        assert d.path == path, "the fuzz documents read no other file"
        (sl, sc), (el, ec) = src.position(d.span.start), src.position(d.span.end)
        out.append(((sl, sc, el, ec), d.code, d.message))
    return out


def view(diags: list[types.Diagnostic]) -> list[tuple]:
    return [((d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character), d.code, d.message)
            for d in diags]


def record_publishes(client) -> None:
    client.published = []

    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        client.published.append(params)

    def on_register(params) -> None:
        pass

    client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    client.protocol.fm.features[types.CLIENT_REGISTER_CAPABILITY] = on_register


async def settle(session: Session, uri: str, want: list[tuple], *, after: int) -> list[tuple]:
    """The diagnostics the editor shows for ``uri`` once the server is done
    with the last edit (pulled, or the last publish), waiting up to TIMEOUT
    for them to become ``want`` before returning what is there."""
    if session.pull:
        report = await asyncio.wait_for(
            session.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))),
            TIMEOUT)
        return view(report.items)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while True:
        mine = [p for p in session.published[after:] if p.uri == uri]
        got = view(mine[-1].diagnostics) if mine else None
        if got == want or loop.time() > deadline:
            return got
        await asyncio.sleep(0.02)


def long_run() -> bool:
    return os.environ.get("SERVELINT_FUZZ_LONG") == "1"


def tmp_name(path: Path, name: str, i: int) -> str:
    stem, dot, ext = name.partition(".")
    return f"{stem}{i}{dot}{ext}" if dot else f"{name}.{i}" if name != "Dockerfile" else f"Dockerfile.{i}"
