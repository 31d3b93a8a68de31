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


# -- wrappers and programs held in variables (issue 16, item 8) ------------------


def inexact(text: str, start: int, note: str) -> Word:
    return Word(text, Span(start, start + len(text)), exact=False, note=note)


def with_unknown(line: str, unknown: dict[str, str]) -> list[Word]:
    """``argv(line)`` with the words in ``unknown`` marked as unset variables."""
    return [inexact(w.text, w.span.start, unknown[w.text]) if w.text in unknown else w for w in argv(line)]


@pytest.mark.parametrize(
    "line, entry, rest",
    [
        ("hatch run -- vllm serve m --port 1", Entry.SERVE, ["m", "--port", "1"]),
        ("hatch run serve:vllm serve m", Entry.SERVE, ["m"]),
        ("hatch -e gpu run python -m vllm.entrypoints.openai.api_server --x", Entry.API_SERVER, ["--x"]),
        ("hatch env run -e gpu -- vllm serve m", Entry.SERVE, ["m"]),
        ("hatch run +py=3.12 vllm serve m", Entry.SERVE, ["m"]),
        ("poetry run vllm serve m", Entry.SERVE, ["m"]),
        ("pipenv run vllm serve m", Entry.SERVE, ["m"]),
        ("pixi run -e cuda vllm serve m", Entry.SERVE, ["m"]),
        ("conda run -p /opt/env python -m vllm.entrypoints.openai.api_server --x", Entry.API_SERVER, ["--x"]),
        ("stdbuf -oL nice -n 5 vllm serve m", Entry.SERVE, ["m"]),
        ("nerdctl run --gpus all vllm/vllm-openai:latest --model m", Entry.IMAGE, ["--model", "m"]),
    ],
)
def test_more_wrappers(line: str, entry: Entry, rest: list[str]) -> None:
    found = launch(line)
    assert found is not None and found.entry is entry
    assert [w.text for w in found.args] == rest
    assert found.span.start == 0  # the launch covers its wrappers


def test_hatch_script_is_not_a_launch() -> None:
    # ``hatch run serve`` runs a script defined in pyproject.toml: not visible here.
    assert launch("hatch run serve --port 8000") is None


@pytest.mark.parametrize(
    "line, unknown, entry",
    [
        ("$PYTHON -m vllm.entrypoints.openai.api_server --model m", {"$PYTHON": "$PYTHON is not set"}, Entry.API_SERVER),
        ("$PY -u -m vllm.entrypoints.openai.api_server", {"$PY": "$PY is not set"}, Entry.API_SERVER),
        ("$VENV/bin/python -m vllm.entrypoints.openai.api_server", {"$VENV/bin/python": "$VENV is not set"},
         Entry.API_SERVER),
        ("$VLLM_BIN serve m", {"$VLLM_BIN": "$VLLM_BIN is not set"}, Entry.SERVE),
        ("$DOCKER run --gpus all vllm/vllm-openai:v0.9.0 --model m", {"$DOCKER": "$DOCKER is not set"}, Entry.IMAGE),
    ],
)
def test_program_in_a_variable(line: str, unknown: dict[str, str], entry: Entry) -> None:
    found = find_launch(with_unknown(line, unknown), form=Form.SHELL)
    assert found is not None and found.entry is entry
    assert found.entry_unknown is None  # what runs is named


@pytest.mark.parametrize(
    "line, unknown",
    [
        ("$PYTHON train.py --model m", {"$PYTHON": "unset"}),
        ("$PYTHON -c import", {"$PYTHON": "unset"}),
        ("$RUNNER serve m", {"$RUNNER": "unset"}),  # nothing says it is vllm
        ("$TOOL run --port 8000 vllm/vllm-openai --model m", {"$TOOL": "unset"}),  # not an engine name
    ],
)
def test_unknown_program_that_shows_nothing(line: str, unknown: dict[str, str]) -> None:
    assert find_launch(with_unknown(line, unknown), form=Form.SHELL) is None


def test_image_in_a_variable_is_a_launch_with_an_unknown_entry() -> None:
    words = with_unknown('$ENGINE run --name vllm -p 8000:8000 $IMAGE --model m',
                         {"$ENGINE": "$ENGINE is not set in this file", "$IMAGE": "$IMAGE is not set in this file"})
    found = find_launch(words, form=Form.SHELL)
    assert found is not None and found.entry is Entry.IMAGE
    assert found.image is None
    assert found.entry_unknown == (
        "the image is `$IMAGE` ($IMAGE is not set in this file), so what it runs is not known"
    )
    assert [w.text for w in found.args] == ["--model", "m"]
    assert found.entry_span == words[6].span


def test_image_in_a_variable_needs_a_sign_of_vllm() -> None:
    words = with_unknown("docker run $IMAGE --model-id bigscience/bloom", {"$IMAGE": "unset"})
    assert find_launch(words, form=Form.SHELL) is None


def test_image_tag_in_a_variable_keeps_the_repository() -> None:
    words = with_unknown("docker run vllm/vllm-openai:$TAG --model m", {"vllm/vllm-openai:$TAG": "unset"})
    found = find_launch(words, form=Form.SHELL)
    assert found is not None and found.entry_unknown is None
    assert found.image == "vllm/vllm-openai:$TAG"


def test_program_after_an_unknown_image_is_known() -> None:
    words = with_unknown("docker run $IMAGE vllm serve m", {"$IMAGE": "unset"})
    found = find_launch(words, form=Form.SHELL)
    assert found is not None and found.entry is Entry.SERVE and found.entry_unknown is None
    assert found.image is None


# -- a flag and its value in one word (issue 16, item 7) --------------------------


def one_word_launch(*items: str):
    """``vllm serve`` + the given words, each written as one quoted item."""
    words, pos = [Word("vllm", Span(0, 4)), Word("serve", Span(5, 10))], 11
    for item in items:
        words.append(Word(item, Span(pos, pos + len(item) + 2), base=pos + 1))
        pos += len(item) + 3
    return find_launch(words, form=Form.KUBERNETES)


def test_flag_and_value_in_one_word() -> None:
    found = one_word_launch("m", "--quantization bitsandbytes")
    [p] = found.problems
    assert p.code == problems.JOINED_ARGUMENT
    assert p.span == found.args[1].span
    assert p.data["kind"] == "flag-and-value"
    # Offsets are relative to the item as written (its quote is at 0).
    assert p.data["parts"] == [
        {"text": "--quantization", "start": 1, "end": 15},
        {"text": "bitsandbytes", "start": 16, "end": 28},
    ]
    assert p.data["split_at"] == 15 and p.data["in_place"]
    # What vLLM 0.33.0 says (vllm-oracle: `llama "--quantization bitsandbytes"`).
    assert "unrecognized arguments: --quantization bitsandbytes" in p.message


def test_received_text_follows_vllms_underscore_rewriting() -> None:
    p = one_word_launch("m", "--served_model_name my_model").problems[0]
    assert p.data["received"] == "--served-model-name my-model"


def test_equals_value_then_another_flag() -> None:
    p = one_word_launch("m", "--max-model-len=4096 --enforce-eager").problems[0]
    assert p.data["kind"] == "several-flags"
    assert [x["text"] for x in p.data["parts"]] == ["--max-model-len=4096", "--enforce-eager"]
    assert "gives `--max-model-len` the value `4096 --enforce-eager`" in p.message


@pytest.mark.parametrize(
    "item",
    [
        '--speculative-config={"method": "ngram", "num_speculative_tokens": 3}',
        "--chat-template={{ messages }} x",
        "--served-model-name=my model",
        "my model",
        "-1.5",
    ],
)
def test_one_argument_with_spaces_is_fine(item: str) -> None:
    assert one_word_launch("m", item).problems == []


def test_trailing_whitespace() -> None:
    p = one_word_launch("m", "--enforce-eager ").problems[0]
    assert p.data["kind"] == "trailing-whitespace"
    assert [x["text"] for x in p.data["parts"]] == ["--enforce-eager"]


def test_the_old_demo_server_is_a_launch() -> None:
    found = launch("python3 -m vllm.entrypoints.api_server --model m --port 8000")
    assert found is not None and found.entry is Entry.DEMO_SERVER
    assert [w.text for w in found.args] == ["--model", "m", "--port", "8000"]
