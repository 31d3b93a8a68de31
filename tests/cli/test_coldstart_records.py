"""Bundled record patterns are compiled on first need, and only for messages
holding the literal text they start with: that must never change a match."""

from __future__ import annotations

import json
import re

import pytest
import regex

from servelint.records import BUNDLED, MATCH_TIMEOUT_S, MAX_UNTIMED_MESSAGE_CHARS, RecordStore, _Bundled, _literal_prefix


def _bundled_records() -> list[dict]:
    out = []
    for path in BUNDLED:
        for wrapper in json.load(open(path))["records"]:
            out.append(wrapper.get("record", wrapper))
    return out


RECORDS = _bundled_records()


@pytest.mark.parametrize("raw", RECORDS, ids=lambda r: r["id"])
def test_bundled_patterns_compile_with_re_and_regex(raw: dict) -> None:
    re.compile(raw["messagePattern"])
    regex.compile(raw["messagePattern"])


@pytest.mark.parametrize(("pattern", "prefix"), [
    ("unrecognized arguments: (.+)", "unrecognized arguments: "),
    ("More than one config file specified!", "More than one config file specified!"),
    ("Config file must be of a yaml/yml type\\. (.*) supplied", "Config file must be of a yaml/yml type"),
    ("(torch\\.\\w+) is not supported", ""),
    ("abc*d", "ab"),
    ("abc?d", "ab"),
    ("abc{2}", "ab"),
    ("abc+", "ab"),
    ("a*", ""),
    ("^abc", ""),
    ("abc|xyz", ""),
    ("ab(c|d)", ""),
    ("[a]bc", ""),
    ("", ""),
])
def test_literal_prefix(pattern: str, prefix: str) -> None:
    assert _literal_prefix(pattern) == prefix


def _messages() -> list[str]:
    msgs = ["", "x", "an error no record describes", "unrecognized arguments", "unrecognized arguments: --foo",
            "error: unrecognized arguments: --a --b", "More than one config file specified!",
            "argument --x: ignored explicit argument 'y'", "ambiguous option: --m could match --max-a, --max-b",
            "torch.float16 is not supported for quantization method awq. Supported dtypes: [torch.bfloat16]",
            "--use-replayssm does not support speculative decoding"]
    for raw in RECORDS:
        for key in ("errorMessage", "messagePattern"):
            if isinstance(raw.get(key), str):
                msgs.append(raw[key])
                msgs.append("prefix " + raw[key] + " suffix")
                msgs.append(raw[key][: len(raw[key]) // 2])
    return msgs


@pytest.mark.parametrize("raw", RECORDS, ids=lambda r: r["id"])
def test_prefilter_never_changes_a_match(raw: dict) -> None:
    compiled = re.compile(raw["messagePattern"])
    lazy = _Bundled(raw["messagePattern"])
    for msg in _messages():
        for name in ("fullmatch", "search"):
            want = getattr(compiled, name)(msg)
            got = getattr(lazy, name)(msg)
            assert (want and want.span()) == (got and got.span()), (name, msg)


def test_long_messages_still_run_timed() -> None:
    store = RecordStore.load()
    msg = "unrecognized arguments: " + "x" * (MAX_UNTIMED_MESSAGE_CHARS + 10)
    found = store.match(msg)
    assert found.id == "sl-unrecognized-arguments"
    # The path itself: past the size, the timed ``regex`` with its limit;
    # below it, the stdlib ``re`` without one.
    pattern, kw = found.pattern._for(msg)
    assert isinstance(pattern, regex.Pattern) and kw == {"timeout": MATCH_TIMEOUT_S}
    pattern, kw = found.pattern._for("unrecognized arguments: --x")
    assert isinstance(pattern, re.Pattern) and kw == {}
