"""A compose service built from a Dockerfile is read as that image runs it."""

from __future__ import annotations

from servelint.engine import Engine
from servelint.settings import Settings

COMPOSE = 'services:\n  llm:\n    build: .\n    command: ["--model", "Qwen/Qwen3-8B", "--max-modl-len", "4096"]\n'


def _codes(tmp_path, dockerfile: str | None, engine: Engine | None = None) -> list[str]:
    if dockerfile is None:
        (tmp_path / "Dockerfile").unlink(missing_ok=True)
    else:
        (tmp_path / "Dockerfile").write_text(dockerfile)
    engine = engine or Engine(Settings(vllm_version="0.33.0"))
    result = engine.lint(str(tmp_path / "docker-compose.yaml"), COMPOSE)
    return sorted(d.code for d in result.diagnostics)


def test_built_from_the_vllm_image_its_command_goes_to_vllm_serve(tmp_path):
    # --model is deprecated under vllm serve (SL105); the typo is unknown (SL101).
    assert _codes(tmp_path, "FROM vllm/vllm-openai:v0.33.0\nRUN pip install extra\n") == ["SL101", "SL105"]


def test_an_api_server_entrypoint_takes_model_as_a_flag(tmp_path):
    # The module's own parser has --model; its deprecation is the Dockerfile's finding.
    docker = 'FROM python:3.11\nENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
    assert _codes(tmp_path, docker) == ["SL101"]


def test_a_dockerfile_that_runs_another_program_is_no_launch(tmp_path):
    assert _codes(tmp_path, 'FROM python:3.11\nENTRYPOINT ["python3", "app.py"]\n') == []


def test_without_the_dockerfile_the_entry_point_stays_unknown(tmp_path):
    # No finding that depends on which parser reads the command (SL105).
    assert "SL105" not in _codes(tmp_path, None)


def test_an_edit_of_the_dockerfile_is_seen_by_the_next_lint(tmp_path):
    engine = Engine(Settings(vllm_version="0.33.0"))
    assert _codes(tmp_path, 'FROM python:3.11\nENTRYPOINT ["python3", "app.py"]\n', engine) == []
    assert _codes(tmp_path, "FROM vllm/vllm-openai:v0.33.0\n", engine) == ["SL101", "SL105"]
