"""SL608: DeepSeek V4.1 Engram with DBO or microbatching."""

from __future__ import annotations

from typing import Iterable

from ...derive.model import text_config
from ..base import Context, Finding, model_note
from ._shared import VllmConfigRule, checks, int_above, report, switched_on

_ARCH = "DeepseekV41ForCausalLM"


class EngramMicrobatching(VllmConfigRule):
    """`--enable-dbo` or `--ubatch-size` above 1 on a DeepSeek V4.1 model with Engram layers.

    ## What it does
    Reports `--enable-dbo`, or `--ubatch-size` above 1, when the model is a
    `DeepseekV41ForCausalLM` whose config.json lists `engram_layer_ids`.
    On a `cpu` target vLLM turns DBO off, so only `--ubatch-size` counts
    there.

    ## Why
    Engram's n-gram embedding lookups do not support split micro-batches;
    vLLM stops while building its config: "DeepSeek V4.1 Engram does not
    support DBO or microbatching. Disable --enable-dbo and set --ubatch-size
    to 0."

    ## Example
    ```sh
    vllm serve deepseek-ai/DeepSeek-V4.1 --enable-dbo --all2all-backend deepep_low_latency
    ```

    ## Fix
    Remove `--enable-dbo` and `--ubatch-size`.

    ## Evidence
    The flags as written; the architecture and `engram_layer_ids` of the
    model's config.json. An unknown model, or an `--hf-overrides` that may
    change them, leaves the rule silent.

    ## vLLM source
    `VllmConfig._resolve_and_verify_engram_config` (vllm/config/vllm.py).
    """

    code = "SL608"
    name = "engram-microbatching"
    vllm_checks = checks("engram_dbo")
    requires = ("--enable-dbo", "--ubatch-size")

    def check(self, ctx: Context) -> Iterable[Finding]:
        flag = None
        if ctx.target != "cpu":
            dbo = switched_on(ctx, "enable_dbo")
            if dbo.value and dbo.flags:
                flag = dbo.flags[-1]
        if flag is None:
            ub = int_above(ctx, "ubatch_size", 1)
            if ub is None:
                return
            flag = ub.flags[-1]
        if ctx.architecture != _ARCH:
            return
        text = text_config(ctx)
        if text is None or not text.get("engram_layer_ids"):
            return
        found = report(ctx, flag, "engram_dbo", note="the model's config.json lists engram_layer_ids",
                       related_to=[n for n in (model_note(ctx),) if n is not None])
        if found is not None:
            yield found
