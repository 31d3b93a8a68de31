"""Error records: loading, validation, the untrusted regex, and never running snippets."""

from __future__ import annotations

import json
import time

from servelint.records import BUNDLED, RecordStore, validate

SEED_ARCH = "1b37c46a30753abd"
SEED_SPEC = "2844f4a584889da7"


def test_bundled_records_follow_the_schema():
    for path in BUNDLED:
        data = json.load(open(path))
        for wrapper in data["records"]:
            raw = wrapper.get("record", wrapper)
            assert validate(raw) is None, (path, raw.get("id"))


def test_seed_messages_join_their_records():
    store = RecordStore.load()
    assert not store.problems
    rec = store.match("--use-replayssm is only supported for Nemotron-H models (got architecture 'Mamba2ForCausalLM')")
    assert rec is not None and rec.id == SEED_ARCH
    assert rec.record.documentation.startswith("ReplaySSM (cached mamba kernel path")
    assert store.match("--use-replayssm does not support speculative decoding").id == SEED_SPEC
    assert store.match("unrecognized arguments: --foo").id == "sl-unrecognized-arguments"
    assert store.match("an error no record describes") is None


def _record(**over):
    base = {"id": "user0001", "errorMessage": "m", "messagePattern": "unrecognized arguments: --swap-space",
            "documentation": "Removed in vLLM 0.10.", "solutions": ["Drop it."]}
    base.update(over)
    return base


def test_user_records_win_and_bad_ones_are_reported_with_file_and_field(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps([_record()]))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(_record(id="user0002", solutions="not a list")) + "\n" + json.dumps({"no": "id"}) + "\n")
    store = RecordStore.load([str(tmp_path)])
    assert store.match("unrecognized arguments: --swap-space").id == "user0001"
    problems = [str(p) for p in store.problems]
    assert any("bad.jsonl: record 0 field solutions" in p for p in problems), problems
    assert any("bad.jsonl: record 1 field id" in p for p in problems), problems


def test_a_catastrophic_pattern_is_cut_off(tmp_path):
    evil = tmp_path / "evil.json"
    evil.write_text(json.dumps([_record(id="evil", messagePattern="(a|aa)+$")]))
    store = RecordStore.load([str(evil)])
    started = time.monotonic()
    assert store.match("a" * 40 + "!") is None
    assert time.monotonic() - started < 2.0
    # After a timeout the pattern is disabled, so later matches skip it.
    assert store.get("evil").pattern is None
    assert store.match("a" * 40 + "!") is None


def test_snippets_are_never_executed(tmp_path, monkeypatch):
    marker = tmp_path / "ran"
    code = f"open({str(marker)!r}, 'w').write('x')"
    rec = _record(id="harm", validationCode=code, typeGuard=code, tryCatchPattern=code,
                  exampleFix=f"# before\nvllm serve m --swap-space 4\n# after\nvllm serve m\n$(python -c \"{code}\")")
    f = tmp_path / "harm.json"
    f.write_text(json.dumps([rec]))
    from servelint.engine import Engine
    from servelint.settings import Settings

    engine = Engine(Settings(vllm_version="0.33.0", records=(str(f),), use_installed_vllm=False))
    engine.lint("run.sh", "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --swap-space 4\n")
    assert not marker.exists()
