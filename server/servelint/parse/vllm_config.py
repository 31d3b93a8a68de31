"""vLLM ``--config`` YAML files, read into the argv vLLM builds from them.

``FlexibleArgumentParser.load_config_file`` reads the file with
``yaml.safe_load`` and turns each top-level key into argv (see
``research/vllm-cli-and-oracle.md`` §3, the ``--config`` bullet):

* ``true`` → ``--key``; ``false`` → ``--no-key`` only if the *loading* parser
  registers it, which under ``vllm serve`` it never does, so it is dropped;
* a list → ``--key item1 item2 ...`` (each ``str(item)``); an empty list is
  dropped;
* a mapping → ``--key '<json.dumps(mapping)>'``;
* anything else → ``--key str(value)`` (``null`` → ``"None"``, ``1e3`` →
  ``"1000.0"``).

Keys are not normalised here (``tensor_parallel_size`` stays as written; the
argv layer treats ``_`` as ``-`` like vLLM does).  A YAML duplicate key keeps
its first position and its last value, as a Python dict does.

Each key becomes a word ``"--" + key`` whose ``--`` takes no room in the
document: the word's name maps exactly onto the key as written.  Value words
carry ``role="config-value"`` and, in ``node``, the parsed value with its
spans (``yamlnodes.YamlValue``) so rules can point at nested keys.
"""

from __future__ import annotations

import json
import re
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..model import Entry, Form, Launch, ParsedDocument, ParseProblem, Word
from ..text import Span
from . import problems
from . import yamlnodes as yn

# Only a *recogniser*: names that tell a vLLM --config file apart from other
# YAML.  Parsers know nothing of releases; the real flag table is used by the
# argv layer.  "Strong" names are vLLM-specific; "generic" ones (host, port,
# model...) also appear in unrelated app configs and only count beside a
# strong one.
_STRONG_FLAGS = frozenset(
    """
    tensor-parallel-size pipeline-parallel-size data-parallel-size
    gpu-memory-utilization max-model-len max-num-seqs max-num-batched-tokens
    served-model-name trust-remote-code enforce-eager enable-prefix-caching
    no-enable-prefix-caching enable-chunked-prefill kv-cache-dtype
    speculative-config compilation-config kv-transfer-config
    enable-auto-tool-choice tool-call-parser reasoning-parser max-loras
    enable-lora distributed-executor-backend limit-mm-per-prompt
    uvicorn-log-level disable-log-requests disable-log-stats
    enable-expert-parallel swap-space download-dir load-format
    max-lora-rank enable-sleep-mode hf-overrides override-generation-config
    mamba-block-size use-replayssm mamba-backend cpu-offload-gb
    """.split()
)
_GENERIC_FLAGS = frozenset(
    "model host port dtype quantization tokenizer seed revision api-key "
    "block-size chat-template generation-config runner".split()
)
# A flag-like key: lower case, words joined by - or _, dotted sub-keys allowed
# (``compilation-config.mode``).
_FLAG_KEY = re.compile(r"^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*$")


def looks_like_vllm_config(root: Node | None) -> bool:
    """A conservative content test for a standalone --config file."""
    if not isinstance(root, MappingNode):
        return False
    pairs = yn.items(root)
    if len(pairs) < 2:
        return False
    strong = generic = 0
    for k, v in pairs:
        if not isinstance(k, ScalarNode) or not _FLAG_KEY.match(k.value):
            return False
        name = k.value.replace("_", "-").split(".", 1)[0]
        if isinstance(v, MappingNode) and not _may_hold_mapping(name):
            return False
        if name in _STRONG_FLAGS:
            strong += 1
        elif name in _GENERIC_FLAGS:
            generic += 1
    return strong >= 1 and strong + generic >= 2


def _may_hold_mapping(name: str) -> bool:
    # JSON-valued vLLM flags end in -config, or are one of these dicts.
    return name.endswith("-config") or name in ("hf-overrides", "limit-mm-per-prompt",
                                                  "override-generation-config",
                                                  "mm-processor-kwargs", "model-loader-extra-config",
                                                  "media-io-kwargs", "override-pooler-config")


def parse_vllm_config(path: str, text: str) -> ParsedDocument:
    """A file named by ``--config``: one ``Launch`` (``Entry.CONFIG_FILE``)
    whose args are what vLLM inserts.  Never raises; problems say why a file
    gives nothing (not a mapping, syntax error, several documents)."""
    doc = ParsedDocument(path=path, form=Form.VLLM_CONFIG)
    docs, found = yn.load_documents(text)
    doc.problems.extend(found)
    if found:
        return doc
    if len(docs) > 1:
        second = docs[1].src.span(docs[1].root)
        doc.problems.append(
            ParseProblem(
                problems.PARSE_ERROR,
                "a --config file must hold one YAML document (yaml.safe_load "
                "rejects a second one)",
                Span(second.start, second.start),
            )
        )
        return doc
    root = docs[0].root if docs else None
    if not isinstance(root, MappingNode):
        at = docs[0].src.span(root) if docs else Span(0, 0)
        doc.problems.append(
            ParseProblem(
                problems.PARSE_ERROR,
                "a --config file must be a YAML mapping of flag names to values",
                at,
            )
        )
        return doc
    doc.launches.append(config_launch(docs[0].src, root))
    return doc


def config_launch(src: yn.Src, root: MappingNode, form: Form = Form.VLLM_CONFIG) -> Launch:
    """The launch a --config mapping stands for (see the module docstring)."""
    entries: dict[Any, tuple[Node, Node]] = {}
    for k, v in yn.items(root):
        key = yn.scalar_value(k) if isinstance(k, ScalarNode) else _render(src, k)
        try:
            entries[key] = (k, v)  # dict semantics: first position, last value
        except TypeError:
            entries[repr(key)] = (k, v)
    args: list[Word] = []
    found: list[ParseProblem] = []
    # One budget for the whole mapping: an alias bomb spread over many keys
    # must not cost a full budget per key.
    budget = yn.Budget(20_000)
    for key, (knode, vnode) in entries.items():
        _entry_words(src, key, knode, vnode, args, found, budget)
    cut = budget.problem(src.span(root))
    if cut is not None:
        found.append(cut)
    span = src.span(root)
    first_line_end = src.text.find("\n", src.start(root))
    entry_span = span
    if first_line_end >= 0 and src.outer is None:
        entry_span = Span(span.start, max(span.start, min(span.end, first_line_end)))
    elif entries:
        first_key = next(iter(entries.values()))[0]
        entry_span = src.span(first_key)
    launch = Launch(
        form=form,
        entry=Entry.CONFIG_FILE,
        entry_span=entry_span,
        args=args,
        span=span,
        layout="yaml-mapping",
        container=yn.container_of(src, root),
    )
    launch.problems.extend(found)
    return launch


def _entry_words(
    src: yn.Src, key: Any, knode: Node, vnode: Node, args: list[Word], found: list[ParseProblem],
    budget: "yn.Budget | None" = None,
) -> None:
    value = yn.to_value(src, vnode, budget)
    py = value.value
    if isinstance(py, bool):
        if py:
            args.append(_key_word(src, key, knode))
        else:
            found.append(_false_dropped(src, key, vnode))
        return
    if isinstance(vnode, SequenceNode) and value.children is not None:
        if not value.children:
            return  # vLLM drops an empty list, key and all
        args.append(_key_word(src, key, knode))
        for child, item in zip(value.children, vnode.value):
            args.append(_value_word(src, str(child.value), item, child))
        return
    args.append(_key_word(src, key, knode))
    if isinstance(py, dict):
        try:
            rendered = json.dumps(py)
        except (TypeError, ValueError):
            rendered = json.dumps(py, default=str)
        args.append(_value_word(src, rendered, vnode, value))
        return
    args.append(_value_word(src, str(py), vnode, value))


def _key_word(src: yn.Src, key: Any, knode: Node) -> Word:
    name = key if isinstance(key, str) else str(key)
    span = src.span(knode)
    if isinstance(knode, ScalarNode):
        m = src.scalar(knode)
        if m.text == name:
            at = m.offsets[0]
            return Word("--" + name, span, offsets=[at, at] + list(m.offsets), role="config-key")
    at = span.start
    offsets = [at, at] + yn.Mapped.spread(name, span).offsets
    return Word("--" + name, span, offsets=offsets, role="config-key")


def _value_word(src: yn.Src, text: str, vnode: Node, value: yn.YamlValue) -> Word:
    span = src.span(vnode)
    note = None if value.complete else "the value is too large or nested too deeply to read whole"
    if isinstance(vnode, ScalarNode):
        m = src.scalar(vnode)
        if m.text == text and not m.approx:
            offsets = None if m.is_verbatim() else m.offsets
            base = m.offsets[0] if offsets is None else -1
            return Word(text, span, base, offsets, role="config-value", node=value)
    # Re-rendered (0x10 → "16", a mapping → JSON): spread over what is written.
    return Word(
        text,
        span,
        offsets=yn.Mapped.spread(text, span).offsets,
        exact=value.complete,
        note=note,
        role="config-value",
        node=value,
    )


def _render(src: yn.Src, node: Node) -> str:
    """A non-scalar key (``? [a, b]``) as ``str()`` of its Python value."""
    return str(yn.to_value(src, node).value)


def _false_dropped(src: yn.Src, key: Any, vnode: Node) -> ParseProblem:
    """``key: false``: ``vllm serve`` drops it (the rule SL003 judges whether
    that changes anything, which depends on the release and the model)."""
    name = key if isinstance(key, str) else str(key)
    written = vnode.value if isinstance(vnode, ScalarNode) else "false"
    return ParseProblem(
        problems.CONFIG_FALSE_DROPPED,
        f"vLLM drops `false` values in --config files under `vllm serve`, so `{name}: {written}` has no effect",
        src.span(vnode),
        "warning",
        data={"key": name, "written": written, "replacement": f"no-{name}"},
    )
