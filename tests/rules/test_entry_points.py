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
