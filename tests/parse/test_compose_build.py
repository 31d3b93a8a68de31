"""Compose services built from a Dockerfile (``build:``): seen with their
entry point unknown, then settled by ``compose.with_built_image`` once the
engine reads the Dockerfile (issue 16, item 8)."""

from __future__ import annotations

from servelint.model import Entry
from servelint.parse import parse_document, problems
from servelint.parse.compose import with_built_image

COMPOSE = """\
services:
  vllm:
    build:
      context: ./serving
      dockerfile: Dockerfile.gpu
    command: ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
  program:
    build: ./vllm
    command: vllm serve Qwen/Qwen3-8B --port 8000
"""


def launches():
    doc = parse_document("docker-compose.yaml", COMPOSE)
    by_first = {l.args[0].text: l for l in doc.launches}
    return by_first["--model"], by_first["Qwen/Qwen3-8B"]


def test_build_is_recorded_and_the_entry_is_unknown() -> None:
    flags, program = launches()
    assert flags.entry is Entry.IMAGE and program.entry is Entry.SERVE
    assert flags.build.path == "serving/Dockerfile.gpu" and program.build.path == "vllm/Dockerfile"
    assert COMPOSE[flags.build.span.start : flags.build.span.end].startswith("context: ./serving")
    assert flags.entry_unknown == (
        "the image is built from serving/Dockerfile.gpu (build context ./serving): "
        "what it runs is in that Dockerfile"
    )
    assert program.entry_unknown is not None


def test_built_from_the_vllm_image_runs_vllm_serve() -> None:
    flags, program = launches()
    got = with_built_image(flags, "FROM vllm/vllm-openai:v0.9.0\nRUN pip install extra\n")
    assert got.entry is Entry.IMAGE and got.entry_unknown is None
    assert got.image == "vllm/vllm-openai:v0.9.0"
    assert [w.text for w in got.args] == ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
    # ``command: vllm serve ...`` on that image repeats the subcommand.
    got = with_built_image(program, "FROM vllm/vllm-openai:v0.9.0\n")
    assert [p.code for p in got.problems] == [problems.SERVE_REPEATED]


def test_the_dockerfiles_entrypoint_runs_the_command() -> None:
    flags, _ = launches()
    dockerfile = 'FROM python:3.12\nRUN pip install vllm\nENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
    got = with_built_image(flags, dockerfile, "serving/Dockerfile.gpu")
    assert got.entry is Entry.API_SERVER and got.entry_unknown is None
    assert [w.text for w in got.args] == ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
    assert all(w.path is None for w in got.args)  # all written in the compose file


def test_entrypoint_words_from_the_dockerfile_carry_its_path() -> None:
    flags, _ = launches()
    got = with_built_image(flags, 'FROM x\nENTRYPOINT ["vllm", "serve", "--port", "8000"]\n', "serving/Dockerfile.gpu")
    assert [(w.text, w.path) for w in got.args[:2]] == [("--port", "serving/Dockerfile.gpu"), ("8000", "serving/Dockerfile.gpu")]


def test_what_the_dockerfile_does_not_show_stays_unknown() -> None:
    flags, _ = launches()
    got = with_built_image(flags, "FROM nvcr.io/nvidia/pytorch:24.05-py3\nRUN pip install vllm\n", "serving/Dockerfile.gpu")
    assert got.entry_unknown == (
        "the image is built FROM nvcr.io/nvidia/pytorch:24.05-py3 (serving/Dockerfile.gpu), "
        "whose entry point this Dockerfile does not show"
    )
    got = with_built_image(flags, "FROM vllm/vllm-openai:v0.9.0\nENTRYPOINT /start.sh\n", "serving/Dockerfile.gpu")
    assert "shell-form ENTRYPOINT" in got.entry_unknown
    # A Dockerfile whose ENTRYPOINT is another program: not a launch at all.
    assert with_built_image(flags, 'FROM x\nENTRYPOINT ["celery", "worker"]\n', "serving/Dockerfile.gpu") is None


def test_target_stage() -> None:
    flags, _ = launches()
    dockerfile = (
        'FROM vllm/vllm-openai:v0.9.0 AS runtime\n'
        'FROM python:3.12 AS tests\nENTRYPOINT ["pytest"]\n'
    )
    flags.build.target = "runtime"
    assert with_built_image(flags, dockerfile).entry_unknown is None
    flags.build.target = None  # the last stage: pytest
    assert with_built_image(flags, dockerfile) is None
