"""SL662: ``--kv-sharing-fast-prefill``, which needs the model's own support."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import value_of, written
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message

_CHECK = VllmCheck("vllm.kv_sharing_fast_prefill_warning", "--kv-sharing-fast-prefill requires changes on model side",
                   "vllm/config/vllm.py")


class KvSharingFastPrefillModelSide(Rule):
    """`--kv-sharing-fast-prefill`, an optimization only models written for it honour.

    ## What it does
    Warns about `--kv-sharing-fast-prefill` (on a launch without a
    speculative config, where `kv-sharing-fast-prefill-eagle` may
    report an error instead).

    ## Why
    Fast prefill skips computing the prompt tokens' logits in layers that
    share another layer's KV cache; only models implemented for it (such
    as Gemma 3n) are correct and faster with it. vLLM starts and logs
    "--kv-sharing-fast-prefill requires changes on model side for
    correctness and to realize prefill savings."

    ## Example
    ```sh
    vllm serve Qwen/Qwen3-8B --kv-sharing-fast-prefill
    ```

    ## Fix
    Remove `--kv-sharing-fast-prefill` unless the model implements
    cross-layer KV sharing with fast prefill.

    ## Evidence
    The flag as written (silent when only known at run time).

    ## vLLM source
    `VllmConfig.__post_init__`, after the EAGLE check of the same option.
    """

    code = "SL662"
    name = "kv-sharing-fast-prefill-model-side"
    category = Category.CONFIG
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--kv-sharing-fast-prefill"
    requires = ("--kv-sharing-fast-prefill",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        fast = value_of(inv, "kv_sharing_fast_prefill")
        if fast.how != "flag" or fast.value is not True or not fast.flags:
            return
        if written(inv, "speculative_config"):
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, fast.flags[-1], message, _CHECK.key)
