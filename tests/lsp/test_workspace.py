"""Settings, project config, watched files, --config files, commands, faults."""

from __future__ import annotations

import asyncio
import os

from lsp_harness import Session, apply_edits, edits_for, rng
from lsprotocol import types

from servelint import knowledge
from servelint.release import match_bundled

SCRIPT = "#!/bin/sh\nvllm serve facebook/opt-125m --max-modl-len 8192\n"


async def _release_for(session, uri: str):
    return await session.client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="servelint.releaseFor", arguments=[uri])
    )


def _setting_reason(setting: str) -> dict:
    version, note = match_bundled(setting)
    reason = f"the vLLM version setting ({setting})" + (f"; {note}" if note else "")
    return {"version": version, "reason": reason}


async def test_initialization_options_and_release_command(session):
    await session.initialize(options={"servelint": {"vllmVersion": "0.30.0", "severity": {"SL101": "warning"}}})
    uri = session.open("run.sh", SCRIPT)
    [d] = await session.diagnostics(uri)
    assert d.severity == types.DiagnosticSeverity.Warning
    assert await _release_for(session, uri) == _setting_reason("0.30.0")
    # A file that names its release wins over the setting.
    pinned = session.open("pinned.sh", "#!/bin/sh\n# servelint: vllm=" + knowledge.NEWEST + "\nvllm serve m\n")
    assert await _release_for(session, pinned) == {
        "version": knowledge.NEWEST,
        "reason": f"the directive `vllm={knowledge.NEWEST}` in this file",
    }


async def test_did_change_configuration_switches_the_release_and_rules(session):
    await session.initialize(settings={"vllmVersion": "0.30.0"})
    uri = session.open("run.sh", SCRIPT)
    assert [d.code for d in await session.diagnostics(uri)] == ["SL101"]
    assert await _release_for(session, uri) == _setting_reason("0.30.0")

    mark = len(session.published)
    session.client.set_configuration({"servelint": {"vllmVersion": knowledge.NEWEST, "rulesOff": ["unknown-flag"]}})
    session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await asyncio.sleep(0.3)
    assert await session.diagnostics(uri, after=mark) == []
    assert await _release_for(session, uri) == _setting_reason(knowledge.NEWEST)
    if session.pull:
        assert session.published == []


async def test_settings_pushed_with_the_notification(session):
    """Clients without workspace/configuration send the settings themselves."""
    session.caps.workspace.configuration = False
    await session.initialize()
    uri = session.open("run.sh", SCRIPT)
    assert len(await session.diagnostics(uri)) == 1
    mark = len(session.published)
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"servelint": {"disable": ["SL101"]}})
    )
    await asyncio.sleep(0.3)
    assert await session.diagnostics(uri, after=mark) == []


async def test_launch_limit_setting(session):
    await session.initialize(options={"maxLaunches": 2})
    text = "#!/bin/sh\n" + "".join(f"vllm serve m --port {i} --bogus-{i}\n" for i in range(3))
    uri = session.open("many.sh", text)
    found = [(d.code, d.range.start.line, d.range.end.character) for d in await session.diagnostics(uri)]
    assert found[-1] == ("SL012", 3, 10)  # `vllm serve` of the launch past the limit
    assert [code for code, _, _ in found] == ["SL101", "SL101", "SL012"]


async def test_lint_on_save_only(session):
    await session.initialize(options={"lint": {"run": "onSave"}})
    uri = session.open("run.sh", SCRIPT)
    assert [d.code for d in await session.diagnostics(uri)] == ["SL101"]
    mark = len(session.published)
    session.change(uri, SCRIPT.replace("--max-modl-len", "--max-model-len"))
    await asyncio.sleep(0.5)
    if session.pull:
        report = await session.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        assert [d.code for d in report.items] == ["SL101"]
    else:
        assert [p for p in session.published[mark:] if p.uri == uri] == []
    session.save(uri)
    await asyncio.sleep(0.3)
    assert await session.diagnostics(uri, after=mark) == []


async def test_project_config_file_is_watched(session):
    await session.initialize()
    toml = session.tmp / ".servelint.toml"
    toml.write_text('disable = ["unknown-flag"]\n')
    uri = session.open("run.sh", SCRIPT)
    assert await session.diagnostics(uri) == []
    if session.caps.workspace.did_change_watched_files and session.caps.workspace.did_change_watched_files.dynamic_registration:
        [reg] = session.registrations
        assert reg.method == "workspace/didChangeWatchedFiles"
        globs = [w["globPattern"] if isinstance(w, dict) else w.glob_pattern
                 for w in (reg.register_options["watchers"] if isinstance(reg.register_options, dict)
                           else reg.register_options.watchers)]
        assert globs == ["**/.servelint.toml", "**/pyproject.toml", "**/*.{yaml,yml}"]
    else:
        assert session.registrations == []
    mark = len(session.published)
    toml.write_text('[severity]\nunknown-flag = "hint"\n')
    os.utime(toml, ns=(toml.stat().st_mtime_ns + 10**9,) * 2)
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=session.uri(".servelint.toml"), type=types.FileChangeType.Changed)]
    ))
    await asyncio.sleep(0.3)
    [d] = await session.diagnostics(uri, after=mark)
    assert (d.code, d.severity) == ("SL101", types.DiagnosticSeverity.Hint)


async def _wait_for(session: Session, uri: str, mark: int, check) -> list[types.Diagnostic]:
    """Diagnostics of ``uri`` once ``check`` holds (it changes without an edit of its own)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while True:
        if session.pull:
            diags = await session.diagnostics(uri)
        else:
            mine = [p for p in session.published[mark:] if p.uri == uri]
            diags = list(mine[-1].diagnostics) if mine else None
        if diags is not None and check(diags):
            return diags
        assert loop.time() < deadline, diags
        await asyncio.sleep(0.05)


async def test_config_file_edits_relint_the_script(session):
    await session.initialize()
    script = "#!/bin/sh\nvllm serve facebook/opt-125m --config cfg.yaml --port 8000\n"
    run = session.open("run.sh", script)
    [missing] = await session.diagnostics(run)
    assert (missing.code, missing.range, missing.message) == (
        "SL007", rng(script, "cfg.yaml"), "config file 'cfg.yaml' not found (relative to this file)")

    # The config is open in the editor (never saved): the script reads the editor's text.
    mark = len(session.published)
    cfg_text = "tensor-parallel-size: 2\nmax-modl-len: 8192\n"
    cfg = session.open("cfg.yaml", cfg_text, "yaml", on_disk=False)
    diags = await _wait_for(session, run, mark, lambda ds: [d.code for d in ds] == ["SL101"])
    [d] = diags
    assert d.range == rng(script, "cfg.yaml")
    assert d.message == (
        f"cfg.yaml:2:1: unknown flag max-modl-len (--max-modl-len) for vLLM {knowledge.NEWEST}; "
        "did you mean --max-model-len?"
    )
    [related] = d.related_information
    assert related.location.uri == cfg
    assert related.location.range == rng(cfg_text, "max-modl-len")
    assert d.data["origin"] == cfg

    # Its fix edits the config file, at the config's version.
    actions = await session.code_actions(run, d.range, [d], only=["quickfix"])
    fix = {a.title: a for a in actions}["Replace with --max-model-len"]
    version, edits = edits_for(fix.edit, cfg)
    if session.caps.workspace.workspace_edit.document_changes:
        assert version == 1
    fixed = apply_edits(cfg_text, edits, session.encoding)
    assert fixed == "tensor-parallel-size: 2\nmax-model-len: 8192\n"
    assert not any(a.title.startswith("Suppress") for a in actions)

    mark = len(session.published)
    session.edit(cfg, edits)
    await _wait_for(session, run, mark, lambda ds: ds == [])


async def test_config_file_changed_on_disk(session):
    await session.initialize()
    (session.tmp / "cfg.yaml").write_text("max-model-len: 8192\n")
    script = "#!/bin/sh\nvllm serve facebook/opt-125m --config cfg.yaml\n"
    run = session.open("run.sh", script)
    assert await session.diagnostics(run) == []
    mark = len(session.published)
    (session.tmp / "cfg.yaml").write_text("max-modl-len: 8192\n")
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=session.uri("cfg.yaml"), type=types.FileChangeType.Changed)]
    ))
    diags = await _wait_for(session, run, mark, lambda ds: [d.code for d in ds] == ["SL101"])
    assert diags[0].message.startswith("cfg.yaml:1:1: unknown flag max-modl-len")


async def test_a_failing_handler_is_logged_and_the_session_survives(faulty_client, tmp_path):
    session = Session(faulty_client, faulty_client.profile, tmp_path)
    await session.initialize()
    uri = session.open("run.sh", SCRIPT)
    assert await session.hover(uri, 1, 32) is None
    session.save(uri)
    await asyncio.sleep(0.3)
    errors = [m.message for m in faulty_client.log_messages if m.type == types.MessageType.Error]
    assert any("on_hover failed" in m and "RuntimeError: injected fault in on_hover" in m for m in errors)
    assert any("did_save failed" in m and "RuntimeError: injected fault in did_save" in m for m in errors)
    # Still linting and answering.
    session.change(uri, SCRIPT + "vllm serve m --port 1 --port 2\n")
    assert [d.code for d in await session.diagnostics(uri)] == ["SL101", "SL104"]
    assert faulty_client.messages == []  # nothing popped up in the user's face
