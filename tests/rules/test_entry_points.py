"""SL020: the api_server module's deprecation, release by release."""

from __future__ import annotations

import pytest

from servelint.engine import Engine
from servelint.settings import Settings

MODULE = "python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B --port 8000\n"


def _codes(text: str, version: str, path: str = "run.sh") -> list[tuple[str, int, int]]:
    engine = Engine(Settings(vllm_version=version))
    result = engine.lint(path, text)
    return [(d.code, d.span.start, d.span.end) for d in engine.checked(result) if d.code == "SL020"]


@pytest.mark.parametrize("version", ["0.29.0", "0.33.0"])
def test_the_module_is_deprecated_from_0_29(version):
    # vllm/entrypoints/openai/api_server.py warns under __main__ from 0.29.0.
    end = len("python -m vllm.entrypoints.openai.api_server")
    assert _codes(MODULE, version) == [("SL020", 0, end)]


@pytest.mark.parametrize("version", ["0.25.0", "0.28.0"])
def test_older_releases_do_not_warn(version):
    assert _codes(MODULE, version) == []


def test_vllm_serve_is_not_reported():
    assert _codes("vllm serve Qwen/Qwen3-8B --port 8000\n", "0.33.0") == []


def test_an_image_whose_entry_point_the_file_does_not_show_is_not_reported():
    compose = "services:\n  llm:\n    image: vllm/vllm-openai:v0.33.0\n    command: --model Qwen/Qwen3-8B\n"
    assert _codes(compose, "0.33.0", "docker-compose.yaml") == []


def _fixed(text: str, version: str = "0.33.0") -> str | None:
    from servelint.edits import apply

    engine = Engine(Settings(vllm_version=version))
    result = engine.lint("run.sh", text)
    (d,) = [d for d in engine.checked(result) if d.code == "SL020"]
    fixes = engine.verified_fixes(result, d)
    if not fixes:
        return None
    (fix,) = fixes
    assert (fix.title, fix.applicability.value) == ("Use vllm serve", "unsafe")
    return apply(text, fix.edits)


def test_the_fix_starts_vllm_serve_with_the_model_as_its_argument():
    text = "python3 -m vllm.entrypoints.openai.api_server \\\n  --model Qwen/Qwen3-8B \\\n  --port 8000\n"
    assert _fixed(text) == "vllm serve Qwen/Qwen3-8B \\\n  --port 8000\n"
    one_line = "python -m vllm.entrypoints.openai.api_server --port 8000 --model Qwen/Qwen3-8B --dtype auto\n"
    assert _fixed(one_line) == "vllm serve Qwen/Qwen3-8B --port 8000 --dtype auto\n"


def test_no_fix_where_vllm_serve_may_not_be_on_the_path_or_the_model_is_a_variable():
    assert _fixed('MODEL=Qwen/Qwen3-8B\npython -m vllm.entrypoints.openai.api_server --model "$MODEL"\n') is None
    venv = 'VENV=/opt/venv\n"$VENV/bin/python" -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B\n'
    engine = Engine(Settings(vllm_version="0.33.0"))
    result = engine.lint("run.sh", venv)
    assert [f for d in engine.checked(result) if d.code == "SL020" for f in engine.verified_fixes(result, d)] == []


DEMO = "python -m vllm.entrypoints.api_server --model facebook/opt-125m --port 8001\n"


def _all(text: str, version: str, path: str = "run.sh") -> list[tuple[str, int, int]]:
    engine = Engine(Settings(vllm_version=version))
    return [(d.code, d.span.start, d.span.end) for d in engine.checked(engine.lint(path, text))]


@pytest.mark.parametrize("version", ["0.25.0", "0.33.0"])
def test_the_demo_server_is_gone(version):
    # No vllm/entrypoints/api_server.py in the wheels of 0.25.0-0.33.0: only
    # SL021 speaks (no parser reads the flags of a module that is not there).
    assert _all(DEMO, version) == [("SL021", 0, len("python -m vllm.entrypoints.api_server"))]


@pytest.mark.parametrize("version", ["0.10.1", "0.24.0"])
def test_releases_that_ship_the_demo_server_do_not_report_it(version):
    assert [c for c in _all(DEMO, version) if c[0] == "SL021"] == []
