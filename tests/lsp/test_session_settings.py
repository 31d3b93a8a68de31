"""A document's settings under a project config, read again while typing."""

from __future__ import annotations

import os

from servelint.lsp import session as session_module
from servelint.lsp.server import create_server


def test_settings_read_again_unchanged_are_the_same_object(tmp_path, monkeypatch) -> None:
    # The engine reuses a launch's findings only under the very Settings
    # object it checked them with; the project config is read again once a
    # second (SETTINGS_TTL_S), and an equal copy made every launch be
    # checked again on that keystroke.
    (tmp_path / ".servelint.toml").write_text('vllm_version = "0.30.0"\n')
    doc = str(tmp_path / "serve.sh")
    clock = [1000.0]
    monkeypatch.setattr(session_module.time, "monotonic", lambda: clock[0])
    session = create_server().session

    first = session.settings_for(doc)
    assert first.vllm_version == "0.30.0"
    clock[0] += session_module.SETTINGS_TTL_S + 1
    assert session.settings_for(doc) is first

    # A changed config is new settings, all the same.
    (tmp_path / ".servelint.toml").write_text('vllm_version = "0.31.0"\n')
    os.utime(tmp_path / ".servelint.toml", ns=(1, 10**18))
    clock[0] += session_module.SETTINGS_TTL_S + 1
    changed = session.settings_for(doc)
    assert changed.vllm_version == "0.31.0"
    assert changed is not first
