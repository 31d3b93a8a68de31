"""A rule that raises costs only that rule: one log entry, an SL000 on each
launch naming the rule, and every other rule's findings unchanged; in the CLI
and in the language server, which keeps answering."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import attrs
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from servelint.engine import Engine
from servelint.rules import invocation_rules
from servelint.settings import Settings

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "lsp"))
from lsp_harness import CONFIG, Session, position_of  # noqa: E402

BROKEN = "duplicate-flag"
# Three launches, each with a finding of the broken rule (SL104) and one of
# another rule (SL101).
SCRIPT = "#!/bin/sh\n" + "".join(
    f"vllm serve Qwen/Qwen3-8B --port {p} --port {p} --max-modl-len 1 &\n" for p in (8000, 8001, 8002)
)
SETTINGS = Settings(vllm_version="0.33.0", use_installed_vllm=False)


def _other_rules(diags) -> list[tuple]:
    return [(d.span, d.code, d.message) for d in diags if d.name not in (BROKEN, "internal-error")]


def test_a_raising_rule_is_logged_once_and_marked_on_each_launch(monkeypatch, caplog):
    healthy = Engine(SETTINGS).lint("run.sh", SCRIPT).diagnostics
    assert [d.code for d in healthy].count("SL104") == 3
    [rule] = [r for r in invocation_rules() if r.name == BROKEN]

    def explode(ctx):
        raise RuntimeError("injected failure")

    monkeypatch.setattr(rule, "check", explode)
    from servelint.engine import pipeline as engine

    monkeypatch.setattr(engine, "_LOGGED", set())
    with caplog.at_level(logging.DEBUG, logger="servelint"):
        diags = Engine(SETTINGS).lint("run.sh", SCRIPT).diagnostics
        Engine(SETTINGS).lint("other.sh", SCRIPT)  # the same failure again: not logged again
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == ["rule duplicate-flag failed on run.sh"]
    assert errors[0].exc_info[1].args == ("injected failure",)
    internal = [d for d in diags if d.code == "SL000"]
    assert [SCRIPT.count("\n", 0, d.span.start) for d in internal] == [1, 2, 3]  # one per launch
    for d in internal:
        assert d.name == "internal-error"
        assert d.message == ("servelint rule duplicate-flag (SL104) failed on this launch: "
                             "RuntimeError: injected failure; the other rules still ran")
        assert SCRIPT[d.span.start:d.span.end] == "vllm serve"
    assert "SL104" not in [d.code for d in diags]
    assert _other_rules(diags) == _other_rules(healthy)


def _env(**extra) -> dict:
    path = os.pathsep.join([str(HERE / "inject"), str(HERE.parents[1] / "server"), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "SERVELINT_TEST_BREAK_RULE": BROKEN, **extra}


def test_the_cli_reports_a_raising_rule_and_everything_else(tmp_path):
    (tmp_path / "a.sh").write_text(SCRIPT)
    (tmp_path / "b.sh").write_text(SCRIPT)
    proc = subprocess.run(
        [sys.executable, "-m", "servelint", "check", "--no-config", "--format", "json", "--vllm-version", "0.33.0",
         str(tmp_path)], capture_output=True, text=True, timeout=120, env=_env())
    assert proc.returncode == 1, proc.stderr  # the unknown flags are still errors
    out = json.loads(proc.stdout)
    by_code: dict[str, int] = {}
    for d in out["diagnostics"]:
        by_code[d["code"]] = by_code.get(d["code"], 0) + 1
    assert by_code == {"SL000": 6, "SL101": 6}
    # One traceback for six failures in two files.
    assert proc.stderr.count("rule duplicate-flag failed on") == 1, proc.stderr
    assert proc.stderr.count("Traceback") == 1
    assert "RuntimeError: injected failure in duplicate-flag" in proc.stderr


BROKEN_SERVER = attrs.evolve(CONFIG, server_env=_env(SERVELINT_LSP_INJECT_FAULT="did_change"))


@pytest_lsp.fixture(config=BROKEN_SERVER)
async def broken_client(lsp_client: LanguageClient):
    lsp_client.published = []
    lsp_client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = lsp_client.published.append
    lsp_client.protocol.fm.features[types.CLIENT_REGISTER_CAPABILITY] = lambda params: None
    yield
    await stop(lsp_client)


async def test_the_server_survives_a_raising_rule_and_a_raising_handler(broken_client, tmp_path):
    """A rule raises on every lint and the didChange handler raises on every
    edit: the editor still gets every other finding, the SL000s, and hovers."""
    session = Session(broken_client, "visual-studio-code", tmp_path)
    await session.initialize()
    uri = session.open("run.sh", SCRIPT)
    diags = await session.diagnostics(uri)
    assert sorted(d.code for d in diags) == ["SL000"] * 3 + ["SL101"] * 3
    assert all("duplicate-flag (SL104) failed" in d.message for d in diags if d.code == "SL000")
    # The didChange handler fails after pygls has applied the edit: nothing
    # re-lints on its own, but the next request sees the new text.
    fixed = SCRIPT.replace("--max-modl-len", "--max-model-len")
    session.change(uri, fixed)
    hover = await asyncio.wait_for(session.hover(uri, *position_of(fixed, "--max-model-len", 3)), 60)
    assert hover is not None and "--max-model-len" in hover.contents.value
    errors = [m.message for m in broken_client.log_messages if m.type == types.MessageType.Error]
    assert errors and all("did_change failed" in m for m in errors), errors
    assert broken_client.messages == []  # nothing popped up


async def stop(lsp_client: LanguageClient) -> None:
    if lsp_client.capabilities is not None and lsp_client.error is None:
        await lsp_client.shutdown_session()
    elif lsp_client._server is not None and lsp_client._server.returncode is None:
        # Never initialised (the test failed early): the server would wait for exit forever.
        lsp_client._server.kill()
