"""What the speculative-decoding rules share: findings on the key of the
speculative config that a check is about."""

from __future__ import annotations

from typing import TYPE_CHECKING

import json

from ... import edits as ed
from ...derive.base import is_int
from ...derive.flags import config_key
from ...derive.speculative import SPECULATIVE_DESTS
from ...diagnostics import Applicability, Fix
from ...jsonpos import locate
from ..base import Finding, finding, path_of

if TYPE_CHECKING:  # pragma: no cover
    from ...argv import Flag
    from ...derive.speculative import SpeculativeArgs
    from ...diagnostics import Edit
    from ...text import Span
    from ..base import Context

# The ``--spec-*`` shortcut of each key (engine/arg_utils.py ``create_speculative_config``).
_SHORTCUTS = {"spec_method": "method", "spec_model": "model", "spec_tokens": "num_speculative_tokens"}


def speculative_written(ctx: "Context") -> bool:
    """Whether the launch writes a speculative config at all (the cheap
    first test of every rule here)."""
    inv = ctx.invocation
    return any(inv.last(dest) is not None for dest in SPECULATIVE_DESTS)


def int_key(args: "SpeculativeArgs", key: str) -> int | None:
    """An integer key as written (None: absent or not an integer; pydantic
    refuses some of those itself, invalid-value reports them)."""
    value = args.get(key)
    return value if is_int(value) else None


def number_key(args: "SpeculativeArgs", key: str) -> float | None:
    """A number key as written (None: absent or not a number)."""
    value = args.get(key)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def settled_method(p) -> str | None:
    """The method ``__post_init__`` ends with, when it gets that far and
    servelint can tell (not for a config with neither model nor token count,
    whose method depends on what the user adds)."""
    if p is None or p.fails is not None or p.branch in (None, "none"):
        return None
    return p.method


def final_tokens(p) -> int | None:
    """``num_speculative_tokens`` once ``__post_init__`` is done: as written,
    else a plain draft's ``n_predict`` (None: servelint cannot tell)."""
    if p is None:
        return None
    tokens = p.args.tokens
    if is_int(tokens):
        return tokens
    if tokens is None and p.branch == "draft" and p.method != "mtp" and p.n_predict_known:
        n = p.n_predict
        if is_int(n) and n > 0:
            return n
    return None


def draft_loads(ctx: "Context", p) -> bool:
    """Whether vLLM builds the draft's ``ModelConfig`` as servelint sees it:
    its config.json is at hand and names an architecture the release
    registers (the target's own config when the draft is the target)."""
    if p.draft is None:
        return False
    if p.target_draft:
        return True
    archs = p.draft.get("architectures")
    if not isinstance(archs, list) or not archs or not isinstance(archs[0], str):
        return False
    return ctx.knowledge.architectures.get(archs[0]) is not None


def loaded_draft(ctx: "Context", p) -> dict | None:
    """The draft's config.json when vLLM loads it (the draft-model branch of
    ``__post_init__``, its architecture registered; for ``mtp`` and
    ``dspark`` without a ``model``, the served model's), else None."""
    if p is None or p.fails is not None or p.branch != "draft" or not draft_loads(ctx, p):
        return None
    return p.draft


def draft_site(p) -> "tuple[str, str]":
    """The key of the speculative config a finding about the draft's
    config.json is put on, and whose config.json it is."""
    return ("method", "the served model's") if p.target_draft else ("model", "the draft's")


def key_site(ctx: "Context", args: "SpeculativeArgs", key: str) -> "tuple[Flag, Span]":
    """The flag that writes ``key`` of the speculative config and the span of
    the key in it: the key inside the JSON text, a dotted key's flag name, a
    shortcut's name; the last speculative flag's name when none shows it."""
    version = ctx.version
    for flag in reversed(args.flags):
        dest = flag.dest
        if dest in _SHORTCUTS:
            if _SHORTCUTS[dest] == key:
                return flag, flag.name_span
            continue
        if flag.dotted_key is not None:
            if config_key(version, "speculative_config", flag.dotted_key.split(".", 1)[0]) == key:
                return flag, flag.name_span
            continue
        for word in flag.values:
            if word.role == "config-value" or not word.exact:
                continue
            node = locate(word.text)
            if node is None:
                continue
            for written, child in node.children.items():
                if isinstance(written, str) and config_key(version, "speculative_config", written) == key:
                    return flag, word.sub(child.key_start, child.key_end)
    anchor = args.anchor
    return anchor, anchor.name_span


def key_finding(ctx: "Context", args: "SpeculativeArgs", key: str, vllm_message: str | None, check: str | None, *,
                message: str | None = None, note: str = "", severity=None, related_to=None) -> Finding:
    """``rules.base.finding`` on ``key`` of the speculative config (where
    ``key_site`` finds it) rather than on a flag's name; ``check`` None: a
    problem vLLM raises with no message of its own source (no vLLM place)."""
    flag, span = key_site(ctx, args, key)
    found = finding(ctx, flag, vllm_message, check, message=message, note=note, related_to=related_to,
                    severity=severity)
    found.span = span
    if check is None:
        found.data = {}
    return found


def key_fix(ctx: "Context", args: "SpeculativeArgs", key: str, title: str, applicability: Applicability, *,
            new_key: str | None = None, new_value=None) -> Fix | None:
    """A fix that renames ``key`` of the speculative config to ``new_key``,
    or gives it ``new_value``, where it is written (inside the JSON text, a
    dotted key's flag, a ``--spec-*`` shortcut); None when the file's text
    is not at hand or the key is not written literally."""
    edits = _key_edits(ctx, args, key, new_key, new_value)
    return Fix(title, edits, applicability=applicability, preferred=True) if edits else None


def _key_edits(ctx, args, key, new_key, new_value) -> "list[Edit] | None":
    inv = ctx.invocation
    version = ctx.version
    for flag in reversed(args.flags):
        path = path_of(ctx, flag)
        text = ctx.text_of(path)
        if text is None:
            return None
        dest = flag.dest
        if dest in _SHORTCUTS:
            if _SHORTCUTS[dest] != key:
                continue
            if new_key is not None or not isinstance(new_value, str):
                return None
            return ed.set_value(inv, ctx.text_of, ctx.path, flag, new_value)
        if flag.dotted_key is not None:
            if config_key(version, "speculative_config", flag.dotted_key) != key:
                continue
            if new_key is not None:
                prefix = flag.written[: len(flag.written) - len(flag.dotted_key)]
                return ed.rename_flag(flag, prefix + new_key, path)
            shown = new_value if isinstance(new_value, str) else json.dumps(new_value)
            return ed.set_value(inv, ctx.text_of, ctx.path, flag, shown)
        for word in flag.values:
            if word.role == "config-value" or not word.exact:
                continue
            node = locate(word.text)
            if node is None:
                continue
            for written, child in node.children.items():
                if not isinstance(written, str) or config_key(version, "speculative_config", written) != key:
                    continue
                start, end = (child.key_start, child.key_end) if new_key is not None else (child.start, child.end)
                span = word.sub(start, end)
                if text[span.start : span.end] != word.text[start:end]:
                    # Escaped as written (JSON inside a YAML string, a shell
                    # double quote): rewriting the whole word would lose the
                    # outer quoting, so no fix.
                    return None
                new = json.dumps(new_key if new_key is not None else new_value)
                edit = ed.replace_in_word(text, word, start, end, new, ed.word_style(inv, word), path)
                return [edit] if edit is not None else None
    return None
