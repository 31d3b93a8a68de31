"""Transitional: the top-25 families' model and scheduler facts moved to
``servelint.derive``; what is left here are the rules' own helpers (where a
message is raised, findings on a flag, removal fixes), which move to the rule
model next."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..derive import flags as _flags
from ..derive.base import Derived, is_int
from ..derive.flags import json_keys_known
from ..derive.model import (
    EXPERT_KEYS, MAX_LEN_KEYS, MOE_BY_DEFAULT, DerivedLen, MaxLen, derived_max_len, heterogeneous, is_moe,
    max_model_len, model_config, num_attention_heads, text_config,
)
from ..derive.parallel import use_batched_dp_moe as _maybe_batched_dp_moe
from ..derive.scheduler import Batch, batches, chunked_prefill
from ..diagnostics import Applicability, Related

if TYPE_CHECKING:  # pragma: no cover
    from ..argv import Flag
    from .base import Context


def at_least(ctx: "Context", version: str) -> bool:
    return ctx.at_least(version)


_R = ("0.25.0", "0.26.0", "0.27.0", "0.27.1", "0.28.0", "0.29.0", "0.30.0", "0.31.0", "0.32.0", "0.33.0")


def _lines(path: str, *lines: int | None) -> dict[str, str]:
    return {v: f"{path}:{n}" for v, n in zip(_R, lines) if n is not None}


SOURCE: dict[str, dict[str, str]] = {
    "heads": _lines("vllm/config/model.py", 1215, 1233, 1318, 1318, 1370, 1416, 1429, 1507, 1549, 1562),
    "max_len": _lines("vllm/config/model.py", 2261, 2270, 2364, 2364, 2446, 2502, 2525, 2603, 2647, 2665),
    "tokens_lt_len": _lines("vllm/config/scheduler.py", 279, 279, 256, 256, 256, 291, 302, 322, 321, 324),
    "tokens_lt_seqs": _lines("vllm/config/scheduler.py", 289, 289, 266, 266, 266, 301, 312, 332, 331, 334),
    "pp": _lines("vllm/config/model.py", 1227, 1245, 1330, 1330, 1382, 1428, 1441, 1519, 1561, 1574),
    "ep": _lines("vllm/config/model.py", 1163, 1181, 1266, 1266, 1318, 1364, 1377, 1455, 1489, 1502),
    "eplb": _lines("vllm/config/parallel.py", 482, 481, 500, 500, 500, 521, 534, 540, 566, 570),
    "external_dp": _lines("vllm/engine/arg_utils.py", 1984, 2014, 2090, 2090, 2129, 2225, 2235, 2356, 2421, 2462),
    "quantization": _lines("vllm/config/model.py", 1100, 1118, 1203, 1203, 1283, 1329, 1342, 1420, 1454, 1467),
    "fp16": _lines("vllm/config/model.py", 2021, 2030, 2124, 2124, 2206, 2262, 2271, 2349, 2399, 2417),
    "kv_float": _lines("vllm/config/vllm.py", *([None] * 9), 1506),
    "kv_unknown": _lines("vllm/config/cache.py", *([None] * 9), 473),
    "spec_no_model": _lines("vllm/config/speculative.py", 697, 731, 742, 742, 797, 1138, 1169, 1183, 1189, 1294),
    "spec_tokens": _lines("vllm/config/speculative.py", 1142, 1228, 1293, 1293, 1356, 1722, 1788, 1817, 1823, 1950),
    "draft_tp": _lines("vllm/config/speculative.py", 1078, 1164, 1229, 1229, 1292, 1658, 1723, 1735, 1741, 1868),
    "draft_vocab": _lines("vllm/config/speculative.py", 1199, 1285, 1350, 1350, 1413, 1779, 1845, 1874, 1880, 2050),
    "lora_spec": _lines("vllm/engine/arg_utils.py", 2209, 2241, 2328, 2328, 2369, 2485, 2489, 2615, 2682, 2723),
    "lora_arch": _lines("vllm/config/lora.py", *([None] * 9), 153),
    "whitespace": _lines("vllm/config/structured_outputs.py", 66, 66, 66, 66, 66, 66, 66, 65, 64, 69),
    "tool_parser": {
        **_lines("vllm/entrypoints/openai/cli_args.py", 396, 396, 415, 415, 423),
        **{v: f"vllm/entrypoints/launchers/cli_args.py:{n}" for v, n in
           (("0.29.0", 432), ("0.30.0", 449), ("0.31.0", 469), ("0.32.0", 524))},
        "0.33.0": "vllm/entrypoints/common/cli_args.py:554",
    },
    "mamba_chunked": _lines("vllm/model_executor/models/config.py", 581, 581, 636, 636, 623, 643, 643, 661, 695, 773),
    "dbo": _lines("vllm/config/vllm.py", 1468, 1538, 1577, 1577, 1688, 1740, 1941, 2188, 2111, 2199),
    "cudagraph": _lines("vllm/config/vllm.py", 1800, 1870, 1909, 1909, 2017, 2173, 2384, 2622, 2516, 2622),
}


def source(ctx: "Context", key: str) -> str:
    return SOURCE.get(key, {}).get(ctx.version, "?")


def path_of(ctx: "Context", flag: "Flag") -> str:
    """The file a flag is written in (the --config file for its keys)."""
    return (flag.word.path if flag.word is not None else None) or ctx.path


def related(ctx: "Context", flags: Iterable["Flag"], message: str) -> list[Related]:
    return [Related(path_of(ctx, f), f.name_span, message.format(flag=f.written)) for f in flags]


def model_note(ctx: "Context") -> Related | None:
    """A note on the model word: the facts come from its config.json."""
    inv = ctx.invocation
    model = ctx.model
    if inv.model is None or model is None or model.config is None:
        return None
    path = inv.model.path or ctx.path
    arch = f" ({model.architecture})" if model.architecture else ""
    return Related(path, inv.model.span, f"facts from this model's config.json{arch}")


def finding(
    ctx: "Context",
    flag: "Flag",
    vllm_message: str | None,
    key: str,
    *,
    message: str | None = None,
    note: str = "",
    related_to: list | None = None,
    severity=None,
    fixes: list | None = None,
):
    """A Finding on ``flag`` whose text is vLLM's, plus servelint's clause."""
    from .base import Finding

    text = message or vllm_message or ""
    if note:
        text = f"{text} ({note})"
    return Finding(
        flag.name_span, text, flag=flag.canonical, severity=severity, related=related_to or [],
        fixes=fixes or [], vllm_message=vllm_message, path=path_of(ctx, flag),
        data={"vllm_source": source(ctx, key)},
    )


def removal_fix(ctx: "Context", flags: list["Flag"], title: str):
    """A fix that deletes ``flags`` (all their spellings), or None."""
    from ..diagnostics import Fix
    from ..fixes.edits import remove_flag

    edits = []
    for f in flags:
        text = ctx.text_of(path_of(ctx, f))
        if text is None:
            return None
        edits.extend(remove_flag(text, f, path_of(ctx, f)))
    return Fix(title, edits, applicability=Applicability.UNSAFE, preferred=True) if edits else None
