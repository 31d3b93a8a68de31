"""SL620: chunked prefill turned on for a bidirectional pooling model."""

from __future__ import annotations

from typing import Iterable

from ...derive.flags import known_flag, value_of
from ...diagnostics import Category, Severity
from ...knowledge.validators import VllmCheck
from ..base import Context, Finding, Rule, finding, vllm_message
from ._pooling import bidirectional_pooling

_CHECK = VllmCheck("engine_args.chunked_prefill_pooling_enabled",
                   "This model does not officially support chunked prefill. ", "vllm/engine/arg_utils.py")


class ChunkedPrefillPoolingEnabled(Rule):
    """`--enable-chunked-prefill` for a pooling model that does not support it.

    ## What it does
    Warns about chunked prefill turned on (`--enable-chunked-prefill`,
    `enable-chunked-prefill: true` in a `--config` file) for a model vLLM
    runs as a bidirectional pooling model: a pooling architecture whose
    default pooling is CLS (`BertModel`, `XLMRobertaModel`, BERT-style
    classifiers and rerankers).

    ## Why
    vLLM turns chunked prefill off by default for such models and does not
    test it on: it logs "This model does not officially support chunked
    prefill. Enabling this manually may cause the engine to crash or
    produce incorrect outputs." and goes on with chunked prefill on.

    ## Example
    ```sh
    vllm serve BAAI/bge-base-en-v1.5 --enable-chunked-prefill
    ```

    ## Fix
    Remove the flag: vLLM picks the supported default.

    ## Evidence
    The flag as written, and the architecture from the model's config.json
    in the release's model registry: a pooling architecture (not also a
    text generator) with CLS pooling, `--runner` left at `auto` or set to
    `pooling`, no `--convert`. Causal pooling models (whose support depends
    on the pooler vLLM resolves), an unknown or inferred architecture keep
    the rule silent.

    ## vLLM source
    `EngineArgs._set_default_chunked_prefill_and_prefix_caching_args` (a warning).
    """

    code = "SL620"
    name = "chunked-prefill-pooling-enabled"
    category = Category.INCOMPATIBLE
    severity = Severity.WARNING
    vllm_checks = (_CHECK,)
    reviewed = ("0.25.0", "0.33.0")
    anchor = "--enable-chunked-prefill"
    requires = ("--enable-chunked-prefill",)

    def check(self, ctx: Context) -> Iterable[Finding]:
        inv = ctx.invocation
        flag = known_flag(inv, "enable_chunked_prefill")
        if flag is None or value_of(inv, "enable_chunked_prefill").value is not True:
            return
        note = bidirectional_pooling(ctx)
        if note is None:
            return
        message = vllm_message(ctx, _CHECK.key)
        if message is None:
            return
        yield finding(ctx, flag, message, _CHECK.key, note=note)
