"""Completion of flag names, values and JSON keys, for the file's release."""

from __future__ import annotations

from lsp_harness import position_of
from lsprotocol import types

from servelint import knowledge

KN = knowledge.load(knowledge.NEWEST)
DTYPES = ["auto", "bfloat16", "float", "float16", "float32", "half"]


def _range(line: int, start: int, end: int) -> types.Range:
    return types.Range(start=types.Position(line=line, character=start), end=types.Position(line=line, character=end))


def _labels(result) -> list[str]:
    return [i.label for i in result.items] if result else []


def _item(result, label: str) -> types.CompletionItem:
    [item] = [i for i in result.items if i.label == label]
    return item


async def _complete_at(session, uri: str, text: str, needle: str, offset: int, trigger: str | None = None):
    line, char = position_of(text, needle, offset)
    return await session.complete(uri, line, char, trigger)


async def test_flag_names_after_dashes(session):
    await session.initialize()
    text = "#!/bin/sh\nvllm serve facebook/opt-125m --max-mo \\\n  --port 8000\n"
    uri = session.open("c.sh", text)
    result = await _complete_at(session, uri, text, "--max-mo", len("--max-mo"), "-")
    item = _item(result, "--max-model-len")
    assert item.text_edit.range == _range(1, 29, 37)
    assert item.text_edit.new_text == "--max-model-len"
    assert item.detail == "human_readable_int_or_auto"
    assert item.documentation.value == KN.by_string["--max-model-len"].help
    expected = {s for o in KN.options if o.kind != "help" and not o.positional for s in o.visible if s.startswith("--")}
    assert set(_labels(result)) == expected
    assert "--help" not in _labels(result)


async def test_deprecated_flags_are_marked(session):
    await session.initialize()
    text = "#!/bin/sh\nvllm serve facebook/opt-125m --disable-casc\n"
    uri = session.open("c.sh", text)
    result = await _complete_at(session, uri, text, "--disable-casc", len("--disable-casc"))
    item = _item(result, "--disable-cascade-attn")
    assert KN.by_string["--disable-cascade-attn"].deprecated
    completion = session.caps.text_document.completion.completion_item
    if completion.tag_support:
        assert list(item.tags) == [types.CompletionItemTag.Deprecated] and item.deprecated is None
    else:
        assert item.tags is None and item.deprecated is True
    assert _item(result, "--max-model-len").tags is None


async def test_choices_after_a_space_and_after_equals(session):
    await session.initialize()
    text = "#!/bin/sh\nvllm serve facebook/opt-125m --dtype  \\\n  --kv-cache-dtype= \\\n  --tokenizer-mode h\n"
    uri = session.open("c.sh", text)
    after_space = await _complete_at(session, uri, text, "--dtype ", len("--dtype "), " ")
    assert _labels(after_space) == DTYPES
    assert after_space.items[0].text_edit.range == _range(1, 37, 37)
    after_equals = await _complete_at(session, uri, text, "--kv-cache-dtype=", len("--kv-cache-dtype="), "=")
    # Values vLLM lists in its help but does not enforce are offered too.
    assert KN.by_string["--kv-cache-dtype"].choices is None
    assert _labels(after_equals) == [str(c) for c in KN.by_string["--kv-cache-dtype"].metavar_choices]
    typed = await _complete_at(session, uri, text, "--tokenizer-mode h", len("--tokenizer-mode h"))
    assert _labels(typed) == [str(c) for c in KN.by_string["--tokenizer-mode"].metavar_choices]
    assert typed.items[0].text_edit.range == _range(3, 19, 20)


async def test_switches_take_no_value(session):
    await session.initialize()
    text = "#!/bin/sh\nvllm serve facebook/opt-125m --enforce-eager  --port 8000\n"
    uri = session.open("c.sh", text)
    assert await _complete_at(session, uri, text, "--enforce-eager ", len("--enforce-eager "), " ") is None


async def test_keys_of_a_json_flag(session):
    await session.initialize()
    text = "#!/bin/sh\nvllm serve facebook/opt-125m --speculative-config '{\"num' --compilation-config '{'\n"
    uri = session.open("c.sh", text)
    fields = KN.by_string["--speculative-config"].json["fields"]
    result = await _complete_at(session, uri, text, '{"num', len('{"num'), '"')
    assert _labels(result) == list(fields)
    item = _item(result, "num_speculative_tokens")
    line, char = position_of(text, '{"num', 2)
    assert item.text_edit.range == _range(line, char, char + 3)
    assert item.text_edit.new_text == "num_speculative_tokens"
    assert item.documentation.value == fields["num_speculative_tokens"]["help"]
    # Right after "{" the key is inserted with its quotes.
    brace = await _complete_at(session, uri, text, "'{'", 2, "{")
    mode = _item(brace, "mode")
    assert mode.text_edit.new_text == '"mode"'


async def test_dotted_keys(session):
    await session.initialize()
    text = "#!/bin/sh\nvllm serve facebook/opt-125m --speculative-config.num\n"
    uri = session.open("c.sh", text)
    result = await _complete_at(session, uri, text, "--speculative-config.num", len("--speculative-config.num"), ".")
    item = _item(result, "--speculative-config.num_speculative_tokens")
    assert item.text_edit.range == _range(1, 29, 53)


async def test_keys_of_a_config_file_while_the_yaml_is_half_typed(session):
    await session.initialize()
    text = "tensor-parallel-size: 2\nmax-model-len: 8192\n"
    uri = session.open("serve.yaml", text, "yaml")
    await session.diagnostics(uri)
    typing = text + "gpu-mem"
    session.change(uri, typing)
    result = await session.complete(uri, 2, 7)
    item = _item(result, "gpu-memory-utilization")
    assert item.text_edit.range == _range(2, 0, 7)
    assert "--gpu-memory-utilization" not in _labels(result)
    # A key with its colon parses: completed from the engine's reading.
    session.change(uri, text + "dtype: \n")
    values = await session.complete(uri, 2, 7, " ")
    assert _labels(values) == DTYPES


async def test_items_of_a_kubernetes_args_list(session):
    await session.initialize()
    text = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  template:\n    spec:\n"
        "      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.33.0\n"
        "          args:\n            - facebook/opt-125m\n            - --max-mo\n            - \"--dtype=ha\"\n"
    )
    uri = session.open("deploy.yaml", text, "yaml")
    names = await _complete_at(session, uri, text, "--max-mo", len("--max-mo"))
    assert _item(names, "--max-model-len").text_edit.range == _range(12, 14, 22)
    values = await _complete_at(session, uri, text, "--dtype=ha", len("--dtype=ha"))
    assert _labels(values) == DTYPES
    assert values.items[0].text_edit.range == _range(13, 23, 25)


async def test_no_completion_outside_a_launch(session):
    await session.initialize()
    text = "#!/bin/sh\necho --max-mo\n"
    uri = session.open("c.sh", text)
    assert await _complete_at(session, uri, text, "--max-mo", len("--max-mo"), "-") is None
