"""SL769: `minimax_m3_indexer_cp` with an index cache dtype it has no kernel for."""

from __future__ import annotations

from typing import Iterable

from ...derive.config_json import config_object
from ...diagnostics import Category, Severity
from ...knowledge import validators
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._shared import attention_config_problems

_CHECK = VllmCheck("attention.minimax_m3_indexer_cp_dtype", "minimax_m3_indexer_cp requires a bf16 or fp8 e4m3 index cache",
                   "vllm/config/attention.py")
_DTYPES = ("auto", "bf16", "fp8", "fp8_e4m3")


class MinimaxM3IndexerCpDtype(Rule):
    """`minimax_m3_indexer_cp` with an `indexer_kv_dtype` other than bf16 or fp8 e4m3.

    ## What it does
    Reports `--attention-config` with `minimax_m3_indexer_cp: true` and an
    `indexer_kv_dtype` other than `auto`, `bf16`, `fp8` or `fp8_e4m3`.

    ## Why
    The context-parallel indexer has kernels for a bf16 index cache (Triton)
    and an fp8 e4m3 one (AITER MSA) only; while argparse reads
    `--attention-config`, vLLM stops: "minimax_m3_indexer_cp requires a
    bf16 or fp8 e4m3 index cache (indexer_kv_dtype 'auto', 'bf16', 'fp8' or
    'fp8_e4m3'), got 'mxfp4'".

    ## Example
    ```sh
    vllm serve MiniMaxAI/MiniMax-M3 -tp 8 -ac '{"minimax_m3_indexer_cp": true, "indexer_kv_dtype": "mxfp4"}'
    ```

    ## Fix
    Use a bf16 or fp8 index cache, or turn `minimax_m3_indexer_cp` off.

    ## Evidence
    The JSON of `--attention-config` as written (dotted keys merged, a
    `--config` key too). Silent when a key is not a field of the release's
    `AttentionConfig` or a value is not of its field's type (pydantic
    refuses it first), and when a backend name is unknown (its
    before-validator stops first).

    ## vLLM source
    `AttentionConfig.__post_init__`.
    """

    code = "SL769"
    name = "minimax-m3-indexer-cp-dtype"
    category = Category.INCOMPATIBLE
    severity = Severity.ERROR
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--attention-config"
    requires = ("--attention-config",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        if not inv.flags_for("attention_config") or not validators.has(_CHECK.key, ctx.version):
            return
        got = config_object(inv, "attention_config")
        if got is None or got[1] is None:
            return
        cfg, flag = got
        if cfg.get("minimax_m3_indexer_cp") is not True:
            return
        dtype = cfg.get("indexer_kv_dtype", "auto")
        if not isinstance(dtype, str) or dtype in _DTYPES:
            return
        problems = attention_config_problems(inv)
        if problems is None or problems[0]:
            return
        yield finding(ctx, flag, vllm_message(ctx, _CHECK.key, repr(dtype)), _CHECK.key,
                      note=f"keys 'minimax_m3_indexer_cp' and 'indexer_kv_dtype' of {flag.canonical}")
