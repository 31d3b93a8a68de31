"""entry.find_launch: which argv launches vLLM, and where its arguments start."""

from __future__ import annotations

import pytest

from servelint.model import Entry, EnvVar, Form, Word
from servelint.parse import problems
from servelint.parse.entry import config_refs, is_vllm_openai_image
from servelint.parse.launches import find_launch, find_launches
from servelint.text import Span


def argv(line: str) -> list[Word]:
    """Words of a space-separated line, each mapped to its place in ``line``."""
    out, pos = [], 0
    for part in line.split(" "):
        if part:
            out.append(Word(part, Span(pos, pos + len(part))))
        pos += len(part) + 1
    return out


def launch(line: str, **kw):
    return find_launch(argv(line), form=kw.pop("form", Form.SHELL), **kw)


def args(line: str, **kw) -> list[str]:
    found = launch(line, **kw)
    assert found is not None, line
    return [w.text for w in found.args]


@pytest.mark.parametrize(
    "line, entry, rest",
    [
        ("vllm serve m --tp 2", Entry.SERVE, ["m", "--tp", "2"]),
        ("/opt/venv/bin/vllm serve m", Entry.SERVE, ["m"]),
        ("python -m vllm.entrypoints.openai.api_server --model m", Entry.API_SERVER, ["--model", "m"]),
        ("python3.12 -u -W ignore -m vllm.entrypoints.openai.api_server --x", Entry.API_SERVER, ["--x"]),
        ("python3 -um vllm.entrypoints.openai.api_server --x", Entry.API_SERVER, ["--x"]),
        ("python3 -mvllm.entrypoints.openai.api_server --x", Entry.API_SERVER, ["--x"]),
        ("python -m vllm.entrypoints.cli.main serve m", Entry.SERVE, ["m"]),
        ("nohup exec time -p vllm serve m", Entry.SERVE, ["m"]),
        ("CUDA_VISIBLE_DEVICES=0 vllm serve m", Entry.SERVE, ["m"]),
        ("srun -N 1 --gres gpu:4 -J vllm --ntasks=1 vllm serve m", Entry.SERVE, ["m"]),
        ("uv run --with vllm --python 3.12 vllm serve m", Entry.SERVE, ["m"]),
        ("uv run -m vllm.entrypoints.openai.api_server --x", Entry.API_SERVER, ["--x"]),
        ("uvx --from vllm vllm serve m", Entry.SERVE, ["m"]),
        ("conda run -n vllm --no-capture-output vllm serve m", Entry.SERVE, ["m"]),
        ("env -u X A=1 vllm serve m", Entry.SERVE, ["m"]),
        ("timeout -s KILL 1h vllm serve m", Entry.SERVE, ["m"]),
        ("numactl --cpunodebind 0 --membind=0 vllm serve m", Entry.SERVE, ["m"]),
        ("taskset -c 0-7 vllm serve m", Entry.SERVE, ["m"]),
        ("apptainer exec --nv -B /a:/b img.sif vllm serve m", Entry.SERVE, ["m"]),
        ("singularity exec --cleanenv docker://x python -m vllm.entrypoints.openai.api_server", Entry.API_SERVER, []),
        ("screen -dmS vllm vllm serve m", Entry.SERVE, ["m"]),
        ("ray job submit --address x -- vllm serve m", Entry.SERVE, ["m"]),
        ("sudo -E -u svc vllm serve m", Entry.SERVE, ["m"]),
    ],
)
def test_wrappers_are_peeled(line, entry, rest):
    found = launch(line)
    assert found is not None and found.entry == entry
    assert [w.text for w in found.args] == rest
    # The launch spans the whole command, wrappers included.
    assert found.span == Span(0, len(line))


@pytest.mark.parametrize(
    "line",
    [
        "vllm bench serve --model m",
        "vllm chat",
        "vllm --version",
        "vllm",
        "pkill -f vllm",
        "echo vllm serve m",
        "trl vllm-serve --model m",
        "lighteval vllm pretrained=m",
        "python -m vllm.entrypoints.api_server --model m",
        "python -c import",
        "python serve.py --model m",
        "bash run.sh",
        "docker run --rm python:3.12 pip install vllm",
        "",
    ],
)
def test_not_launches(line):
    assert launch(line) is None


def test_docker_options_that_take_values_are_skipped():
    line = (
        "docker run --runtime nvidia --gpus all -v /a:/b -p 8000:8000 --ipc=host "
        "--shm-size 16g --name vllm -e A=1 --env B=2 --env-file .env -w /app "
        "--network host -u 1000 --mount type=bind,src=/a,dst=/b --device /dev/x "
        "--ulimit memlock=-1 -it --rm vllm/vllm-openai:v0.28.0 --model m"
    )
    found = launch(line)
    assert found.entry == Entry.IMAGE
    assert found.image == "vllm/vllm-openai:v0.28.0"
    assert line[found.entry_span.start : found.entry_span.end] == "vllm/vllm-openai:v0.28.0"
    assert [w.text for w in found.args] == ["--model", "m"]
    # A container sees only what docker passes in.
    assert {k: v.value for k, v in found.env.items()} == {"A": "1", "B": "2"}


def test_docker_env_passthrough_takes_the_host_value():
    host = {"HF_TOKEN": EnvVar("HF_TOKEN", "abc", Span(0, 1))}
    found = launch("docker run -e HF_TOKEN -e X vllm/vllm-openai serve m", env=host)
    assert found.env["HF_TOKEN"].value == "abc"
    assert found.env["X"].value is None and not found.env["X"].exact


def test_serve_repeated_after_the_image():
    found = launch("docker run vllm/vllm-openai:latest serve m")
    assert found.entry == Entry.IMAGE
    assert [p.code for p in found.problems] == [problems.SERVE_REPEATED]
    found = launch("docker run vllm/vllm-openai:latest vllm serve m")
    (p,) = found.problems
    assert p.span == Span(35, 45)  # ``vllm serve``


def test_docker_entrypoint_override():
    found = launch("docker run --entrypoint python3 vllm/vllm-openai -m vllm.entrypoints.openai.api_server --x 1")
    assert found.entry == Entry.API_SERVER and [w.text for w in found.args] == ["--x", "1"]
    assert found.image == "vllm/vllm-openai"
    # An image that is not vLLM's runs the command that follows it.
    assert launch("docker run nvcr.io/nvidia/pytorch:24.05 vllm serve m").entry == Entry.SERVE
    assert launch("docker exec -it box vllm serve m").entry == Entry.SERVE


def test_image_entrypoint_for_yaml_args():
    words = argv("serve m --port 8000")
    found = find_launch(
        words, form=Form.KUBERNETES, image="vllm/vllm-openai:v0.28.0", image_entrypoint=True,
        image_span=Span(100, 124),
    )
    assert found.entry == Entry.IMAGE and found.entry_span == Span(100, 124)
    assert [p.code for p in found.problems] == [problems.SERVE_REPEATED]
    assert found.problems[0].span == words[0].span
    # Not vLLM's image: not a launch.
    assert find_launch(words, form=Form.KUBERNETES, image="nginx", image_entrypoint=True) is None
    # No args at all: the image's default launch.
    bare = find_launch([], form=Form.KUBERNETES, image="vllm/vllm-openai", image_entrypoint=True,
                       image_span=Span(5, 9))
    assert bare.entry == Entry.IMAGE and bare.args == [] and bare.span == Span(5, 9)


def test_config_references_and_equals_form():
    found = launch("vllm serve m --config a.yaml --config=b.yaml")
    assert [w.text for w in config_refs(found)] == ["a.yaml"]
    assert [p.code for p in found.problems] == [problems.CONFIG_EQUALS_IGNORED]
    assert "--config=b.yaml" in [w.text for w in found.args]


def test_shell_c_script_keeps_document_offsets():
    # ``sh -c`` whose script word sits at offset 100 in some document.
    script = "vllm serve m --port 1"
    words = [
        Word("sh", Span(90, 92)),
        Word("-c", Span(93, 95)),
        Word(script, Span(99, 101 + len(script)), -1, list(range(100, 101 + len(script)))),
    ]
    found = find_launch(words, form=Form.KUBERNETES)
    assert found.entry == Entry.SERVE
    assert found.entry_span == Span(100, 110)
    assert [(w.text, w.span) for w in found.args][-1] == ("1", Span(120, 121))


def test_several_launches_in_one_script():
    script = "vllm serve a & vllm serve b"
    words = [Word("bash", Span(0, 4)), Word("-c", Span(5, 7)), Word(script, Span(8, 8 + len(script)))]
    assert [l.args[0].text for l in find_launches(words, form=Form.SHELL)] == ["a", "b"]


def test_env_prefix_words_become_env():
    found = launch("env A=1 B= vllm serve m")
    assert found.env["A"].value == "1" and found.env["B"].value == ""


def test_vllm_openai_image_names():
    assert is_vllm_openai_image("vllm/vllm-openai")
    assert is_vllm_openai_image("docker.io/vllm/vllm-openai:v0.28.0-cu128")
    assert is_vllm_openai_image("vllm/vllm-openai-cpu:v0.9")
    assert is_vllm_openai_image("vllm/vllm-openai@sha256:abc")
    assert not is_vllm_openai_image("myorg/vllm-openai-fork")
    assert not is_vllm_openai_image("rocm/vllm")
