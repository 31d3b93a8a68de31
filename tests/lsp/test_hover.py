"""Hover on flags and values."""

from __future__ import annotations

import pytest
from lsp_harness import position_of, rng
from lsprotocol import types

from servelint import knowledge

DIRECTIVE = "# servelint: vllm=0.33.0\n"
REASON = "the directive `vllm=0.33.0` in this file"


def _releases(string: str) -> str:
    have = knowledge.history.releases_with(string)
    known = list(knowledge.RELEASES)
    runs: list[list[str]] = []
    for v in have:
        if runs and known.index(v) == known.index(runs[-1][-1]) + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


async def _hover(session, text: str, needle: str, offset: int = 1, occurrence: int = 0, name: str = "h.sh",
                 language: str = "shellscript") -> types.Hover:
    uri = session.open(name, text, language)
    line, char = position_of(text, needle, offset, occurrence)
    hover = await session.hover(uri, line, char)
    assert hover is not None
    assert hover.contents.kind == types.MarkupKind.Markdown
    return hover


async def test_hover_on_a_flag_name(session):
    await session.initialize()
    text = "#!/bin/sh\n" + DIRECTIVE + "vllm serve facebook/opt-125m --enable-prefix-caching\n"
    hover = await _hover(session, text, "--enable-prefix-caching", 5)
    assert hover.range == rng(text, "--enable-prefix-caching")
    option = knowledge.load("0.33.0").by_string["--enable-prefix-caching"]
    assert hover.contents.value == "\n\n".join([
        "### `--enable-prefix-caching`",
        option.help.strip(),
        "- a switch (no value)\n"
        "- turned off with `--disable-prefix-caching`, `--no-enable-prefix-caching`\n"
        "- group `CacheConfig`\n"
        f"- in vLLM {_releases('--enable-prefix-caching')}\n"
        f"- this launch: vLLM 0.33.0, because {REASON}",
    ])


async def test_hover_shows_the_spelling_as_written(session):
    await session.initialize()
    text = "#!/bin/sh\n" + DIRECTIVE + "vllm serve facebook/opt-125m --max_model_len 8k\n"
    hover = await _hover(session, text, "--max_model_len")
    assert hover.contents.value.startswith("### `--max-model-len` (written `--max_model_len`)\n\n")
    assert f"- this launch: vLLM 0.33.0, because {REASON}" in hover.contents.value
    value = await session.hover(session.uri("h.sh"), *position_of(text, "8k", 1))
    assert value.range == rng(text, "8k")
    assert value.contents.value.startswith("### `8k` for `--max-model-len`\n\nvLLM reads it as `8000`\n\n")


async def test_hover_on_a_value_with_choices(session):
    await session.initialize()
    text = "#!/bin/sh\nvllm serve facebook/opt-125m --dtype half\n"
    hover = await _hover(session, text, "half")
    option = knowledge.load(knowledge.NEWEST).by_string["--dtype"]
    assert hover.contents.value == "\n\n".join([
        "### `half` for `--dtype`",
        "`half` is one of `auto`, `bfloat16`, `float`, `float16`, `float32`, **`half`**",
        option.help.strip(),
    ])


async def test_hover_on_a_json_key(session):
    await session.initialize()
    text = "#!/bin/sh\nvllm serve facebook/opt-125m --speculative-config '{\"method\": \"ngram\", \"num_speculative_tokens\": 3}'\n"
    hover = await _hover(session, text, "num_speculative_tokens", 3)
    field = knowledge.load(knowledge.NEWEST).by_string["--speculative-config"].json["fields"]["num_speculative_tokens"]
    assert hover.range == rng(text, '"num_speculative_tokens"')
    assert hover.contents.value == "\n\n".join([
        "### `num_speculative_tokens` in `--speculative-config`",
        field["help"].strip(),
        f"- type `{field['type']}`",
    ])


async def test_hover_on_an_unknown_flag_gives_the_suggestion(session):
    await session.initialize()
    text = "#!/bin/sh\n" + DIRECTIVE + "vllm serve facebook/opt-125m --max-modl-len 1\n"
    hover = await _hover(session, text, "--max-modl-len")
    value = hover.contents.value
    assert value.startswith(
        "### `--max-modl-len`\n\nNot a `vllm serve` flag in vLLM 0.33.0.\n\n"
        f"- in no vLLM release servelint knows\n- this launch: vLLM 0.33.0, because {REASON}\n\n---\n"
        "**SL101** unknown-flag: unknown flag --max-modl-len for vLLM 0.33.0; did you mean --max-model-len?"
    )
    assert value.endswith(
        "A flag this vLLM release does not accept. "
        "[SL101 unknown-flag](https://github.com/servelint/servelint/blob/main/docs/rules.md#unknown-flag)"
    )


async def test_hover_on_a_config_file_key(session):
    await session.initialize()
    text = "tensor-parallel-size: 2\nmax-model-len: 8192\n"
    hover = await _hover(session, text, "max-model-len", name="serve.yaml", language="yaml")
    assert hover.range == rng(text, "max-model-len")
    # A key spelled as the flag is (less its dashes) needs no "written" note.
    assert hover.contents.value.startswith("### `--max-model-len`\n\n")


async def test_nothing_to_say_off_a_flag(session):
    await session.initialize()
    text = "#!/bin/sh\necho hello\nvllm serve facebook/opt-125m --port 8000\n"
    uri = session.open("h.sh", text)
    assert await session.hover(uri, 1, 2) is None


@pytest.mark.skipif("0.28.0" not in knowledge.RELEASES, reason="servelint has no knowledge of vLLM 0.28.0 yet")
async def test_hover_shows_the_error_record(session):
    await session.initialize()
    text = (
        "#!/bin/sh\n# servelint: vllm=0.28.0\n"
        "vllm serve mistralai/Mamba-Codestral-7B-v0.1 --use-replayssm\n"
    )
    uri = session.open("replay.sh", text)
    diags = await session.diagnostics(uri)
    [d] = [d for d in diags if d.code == "SL201"]
    assert d.range == rng(text, "--use-replayssm")
    assert d.message == (
        "--use-replayssm is only supported for Nemotron-H models (got architecture 'Mamba2ForCausalLM')"
    )
    assert d.data["record"] == "1b37c46a30753abd"
    hover = await session.hover(uri, *position_of(text, "--use-replayssm", 3))
    from servelint.records import RecordStore

    record = RecordStore.load().get("1b37c46a30753abd").record
    assert record.documentation.strip() in hover.contents.value
    assert "vLLM error record `1b37c46a30753abd`" in hover.contents.value
    assert "**When it happens:** " + record.triggerScenarios.strip() in hover.contents.value
    assert "1. " + record.solutions[0].strip() in hover.contents.value
    assert "- this launch: vLLM 0.28.0, because the directive `vllm=0.28.0` in this file" in hover.contents.value


async def test_hover_on_the_entry_point_says_how_the_launch_was_read(session):
    await session.initialize()
    text = ("#!/bin/bash\n" + DIRECTIVE + ': "${MODEL:?}"\n'
            'docker run --gpus all --name vllm "$IMAGE" --model "$MODEL" --max-model-len 4096 "$@"\n')
    hover = await _hover(session, text, '"$IMAGE"', 2)
    assert hover.range == rng(text, '"$IMAGE"')
    assert hover.contents.value == "\n".join([
        "### `image entrypoint` (shell)",
        "",
        f"- vLLM 0.33.0, because {REASON}",
        "- entry point unknown: the image is `$IMAGE` ($IMAGE is not set in this file: an input, given by "
        "whoever runs it), so what it runs is not known",
        "- model `$MODEL` (--model) (unknown: $MODEL is not set in this file: an input, given by whoever runs it)",
        "- 2 flags: 2 written here",
        "- values not known from the file: `--model`",
        "- GPUs: all the host's GPUs, of a kind the file does not name — `--gpus all`",
        "- /dev/shm: 64 MiB — the container runtime's default",
        "- input `$MODEL`: set by whoever runs the file (required: the file stops without it, line 3)",
        '- may hide flags: `"$@"`',
    ])


async def test_hover_on_the_entry_point_shows_the_deployment_as_read(session):
    await session.initialize()
    text = (DIRECTIVE + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
            "  nodeSelector: {cloud.google.com/gke-accelerator: nvidia-l4}\n"
            "  volumes: [{name: shm, emptyDir: {medium: Memory, sizeLimit: 1Gi}}]\n"
            "  containers:\n"
            "    - name: vllm\n"
            "      image: vllm/vllm-openai:v0.33.0\n"
            "      args: [Qwen/Qwen3-8B, --port, '8080']\n"
            "      ports: [{containerPort: 8080}]\n"
            "      resources: {limits: {nvidia.com/gpu: 2}}\n"
            "      volumeMounts: [{name: shm, mountPath: /dev/shm}]\n")
    hover = await _hover(session, text, "vllm/vllm-openai", 2, name="pod.yaml", language="yaml")
    lines = hover.contents.value.splitlines()
    assert "- GPUs: 2 × L4 (compute capability 8.9, 24 GiB) — the `nvidia.com/gpu` limit; " \
           "the `cloud.google.com/gke-accelerator` node selector" in lines
    assert "- /dev/shm: 1024 MiB — the `shm` emptyDir's sizeLimit" in lines
    assert "- ports: containerPort: 8080" in lines


async def test_a_patch_release_not_in_the_tables_says_which_release_is_used(session):
    # 0.8.5.post2 does not exist; servelint reads it as its minor's nearest
    # release and the hover says so (no diagnostic: it is a known minor).
    await session.initialize()
    text = "#!/bin/sh\npip install vllm==0.8.5.post2\nvllm serve facebook/opt-125m --swap-space 4\n"
    hover = await _hover(session, text, "--swap-space", 3)
    assert ("- this launch: vLLM 0.8.5.post1, because the install line `vllm==0.8.5.post2` on line 2 "
            "(servelint has no tables for vLLM 0.8.5.post2; using 0.8.5.post1, the nearest release of 0.8)"
            ) in hover.contents.value
    diags = await session.diagnostics(session.uri("h.sh"))
    assert not [d for d in diags if d.code == "SL013"]
