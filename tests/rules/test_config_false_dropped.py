"""SL003 reports a dropped `false` only where it changes what vLLM runs."""

from __future__ import annotations

from servelint.engine import Engine
from servelint.settings import Settings

CLEAN = """model: Qwen/Qwen3-8B
enforce-eager: false
disable-log-stats: false
no-enable-prefix-caching: false
trust-remote-code: false
"""


def _found(engine: Engine, text: str, path: str = "serve.yaml"):
    result = engine.lint(path, text)
    return [(d.code, d.severity.label, d.span.start, d.message) for d in engine.checked(result) if d.code == "SL003"]


def test_a_false_equal_to_the_default_is_not_reported():
    # Each is dropped by vllm serve and each equals what the launch gets anyway.
    assert _found(Engine(Settings(vllm_version="0.33.0")), CLEAN) == []


def test_a_false_that_differs_from_the_default_is_a_warning():
    text = "model: Qwen/Qwen3-8B\nenable-prefix-caching: false\n"
    ((code, severity, start, message),) = _found(Engine(Settings(vllm_version="0.33.0")), text)
    assert (code, severity, start) == ("SL003", "warning", text.index("false"))
    assert "--enable-prefix-caching stays on (prefix caching is on by default in vLLM 0.33.0)" in message
    # The spellings offered are this release's: --disable-prefix-caching exists from 0.33.0.
    assert message.endswith("use `no-enable-prefix-caching: true` or `disable-prefix-caching: true`")
    ((_, _, _, older),) = _found(Engine(Settings(vllm_version="0.28.0")), text)
    assert older.endswith("use `no-enable-prefix-caching: true`")


def test_an_edit_that_changes_only_the_dropped_key_is_judged_again():
    # Both keys are dropped, so the launch's words do not change: the rule
    # must still see the edit (it reads the parse problems).
    engine = Engine(Settings(vllm_version="0.33.0"))
    first = "model: Qwen/Qwen3-8B\nenforce-eager: false\n"
    assert _found(engine, first) == []
    second = "model: Qwen/Qwen3-8B\nenable-prefix-caching: false\n"
    assert [c for c, *_ in _found(engine, second)] == ["SL003"]
    assert _found(engine, first) == []


def _cli_sl003(folder, jobs: str) -> list[str]:
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "servelint", "check", "--format", "json", "-j", jobs, str(folder)],
                         capture_output=True, text=True)
    return [d["path"] for d in json.loads(out.stdout)["diagnostics"] if d["code"] == "SL003"]


def test_a_file_the_api_server_module_loads_keeps_its_false(tmp_path):
    # The api_server entry parses the file with its own serve options, so
    # `false` becomes --no-KEY (vllm/entrypoints/launchers/api_server/entry.py).
    # The SL020 fix of that launch (to vllm serve) is verified by re-linting
    # it: that must not make the file look run by vllm serve.
    (tmp_path / "serve.sh").write_text("python -m vllm.entrypoints.openai.api_server --config cfg.yaml\n")
    (tmp_path / "cfg.yaml").write_text("model: Qwen/Qwen3-8B\nenable-prefix-caching: false\n")
    for jobs in ("1", "2"):
        assert _cli_sl003(tmp_path, jobs) == []
    (tmp_path / "serve.sh").write_text("vllm serve --config cfg.yaml\n")
    for jobs in ("1", "2"):
        assert _cli_sl003(tmp_path, jobs) == [str(tmp_path / "cfg.yaml")]
