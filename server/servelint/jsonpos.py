"""Where each key and value of a JSON text sits, for diagnostics inside JSON flags.

``json.loads`` decides validity (exactly as vLLM does); this scanner only runs
on text that ``json.loads`` accepted, and records the character offsets of
every object key and value so a diagnostic can point at
``"num_speculative_tokens"`` inside ``--speculative-config '{...}'``.
"""

from __future__ import annotations

import json
from typing import Any
from .structs import dataclass, field

_WS = " \t\n\r"
_decoder = json.JSONDecoder()


@dataclass(slots=True)
class JsonNode:
    """A JSON value and where it is written, with its members or items."""

    value: Any
    start: int  # offsets into the JSON text
    end: int
    key_start: int = -1  # for object members: the key's span (quotes included)
    key_end: int = -1
    children: dict = field(default_factory=dict)  # key -> JsonNode (objects) / index -> JsonNode (arrays)


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _parse(text: str, i: int, depth: int) -> JsonNode:
    i = _skip(text, i)
    if depth > 64:
        value, end = _decoder.raw_decode(text, i)
        return JsonNode(value, i, end)
    ch = text[i]
    if ch == "{":
        node = JsonNode({}, i, i)
        i = _skip(text, i + 1)
        if text[i] == "}":
            node.end = i + 1
            return node
        while True:
            i = _skip(text, i)
            key, kend = _decoder.raw_decode(text, i)
            kstart = i
            i = _skip(text, kend)
            i = _skip(text, i + 1)  # the colon
            child = _parse(text, i, depth + 1)
            child.key_start, child.key_end = kstart, kend
            node.children[key] = child
            node.value[key] = child.value
            i = _skip(text, child.end)
            if text[i] == ",":
                i += 1
                continue
            node.end = i + 1
            return node
    if ch == "[":
        node = JsonNode([], i, i)
        i = _skip(text, i + 1)
        if text[i] == "]":
            node.end = i + 1
            return node
        index = 0
        while True:
            child = _parse(text, i, depth + 1)
            node.children[index] = child
            node.value.append(child.value)
            index += 1
            i = _skip(text, child.end)
            if text[i] == ",":
                i += 1
                continue
            node.end = i + 1
            return node
    value, end = _decoder.raw_decode(text, i)
    return JsonNode(value, i, end)


def locate(text: str) -> JsonNode | None:
    """The position tree of a JSON text, or None if it is not valid JSON."""
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return None
    try:
        return _parse(text, 0, 0)
    except (ValueError, IndexError, RecursionError):
        return None
